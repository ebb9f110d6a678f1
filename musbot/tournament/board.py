"""The organiser's board (issue 47, item 4): every match of the round in play, and where it
stands: played, agreed by its pairs, decided by its board when its time ran out, lost by
walkover, disputed, reported and waiting for the other pair, out of time and waiting for the
organiser's word, late (past its deadline), played on with more time, being played, paused, or
still to play. Pure: the runner
words it and a venue keeps it on one message, edited as things change."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, TypeAlias

from .model import Fixture, MatchState
from .tournament import Tournament

Status: TypeAlias = Literal["played", "agreed", "by_board", "walkover", "disputed",
                            "reported", "time_up", "late", "more_time", "playing", "paused",
                            "waiting"]
ICONS: dict[Status, str] = {"played": "✅", "agreed": "🤝", "by_board": "⏱️",
                            "walkover": "🚫", "disputed": "⚠️", "reported": "📝",
                            "time_up": "🔔", "late": "⌛", "more_time": "⏲️",
                            "playing": "▶️", "paused": "⏸️", "waiting": "⏳"}


@dataclass(frozen=True, slots=True)
class Row:
    match: Fixture
    status: Status


def current_round(t: Tournament) -> list[Fixture]:
    """The matches of every round that has a match to be played now (each group's round of
    that number, a knockout's round, a Swiss round), byes left out; when none has, the round
    of the last match decided."""
    live = {(m.bracket, m.round) for m in t.matches.values()
            if m.state in (MatchState.READY, MatchState.PLAYING)}
    if not live:  # over (or between rounds): the round of the last match decided
        last = max((m for m in t.matches.values() if m.played),
                   key=lambda m: m.decided_at or "", default=None)
        live = set() if last is None else {(last.bracket, last.round)}
    return [m for m in t.matches.values() if (m.bracket, m.round) in live
            and m.state is not MatchState.BYE and None not in m.pairs]


def status(t: Tournament, match: Fixture, now: datetime) -> Status:
    if match.decided:
        if match.state in (MatchState.WALKOVER, MatchState.DISQUALIFIED):
            return "walkover"
        if "overtime" in match.flags and match.state is MatchState.FINISHED:
            return "by_board"
        return "agreed" if "reported" in match.flags else "played"
    if match.paused_at is not None:
        return "paused"
    if "time_up" in match.flags:  # the organiser was asked and has not answered
        return "time_up"
    if match.report is not None:
        return "disputed" if match.report.disputed else "reported"
    deadline = t.deadline_of(match)
    if deadline is not None and now >= deadline:
        return "late"
    if match.time_limit is not None:
        return "more_time"
    return "playing" if match.state is MatchState.PLAYING else "waiting"


def board(t: Tournament, now: datetime) -> list[Row]:
    """The round in play, match by match, in the bracket's order."""
    return [Row(m, status(t, m, now)) for m in current_round(t)]


__all__ = ["ICONS", "Row", "Status", "board", "current_round", "status"]
