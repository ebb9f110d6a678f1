"""Times in a tournament's state: ISO-8601 text in UTC, so that the state is plain JSON and a
round trip gives back the same text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .errors import TournamentError


def stamp(when: datetime) -> str:
    """``when`` as stored; a naive time is refused (whose clock would it be?)."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise TournamentError("tournament_naive_time")
    return when.astimezone(UTC).isoformat()


def parse_time(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise TournamentError("tournament_bad_time", text=str(text)) from exc
    if when.tzinfo is None:
        raise TournamentError("tournament_naive_time")
    return when.astimezone(UTC)


def later(text: str, minutes: float) -> datetime:
    return parse_time(text) + timedelta(minutes=minutes)
