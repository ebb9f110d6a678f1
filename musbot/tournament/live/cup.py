"""A tournament in play (:class:`Cup`), where its tables are played and its news shown
(:class:`Venue`), and the words and keys every part of the runner shares."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from musbot.table import Clock
from musbot.tournament import Fixture, Tournament

WHEN = "\ue000"
"""Where a deadline's date and time go in a sentence (a venue writes it for each reader)."""


LEFT = "\ue001"
"""Where the time left until a deadline goes."""


Wall = Callable[[], datetime]
"""The time a tournament's changes are stamped with (UTC)."""


def wall_clock(clock: Clock) -> Wall:
    """Wall time that moves with ``clock``: now, plus what the clock has run since (a fake
    clock's tests and a real bot alike)."""
    base, start = datetime.now(UTC), clock.now()
    return lambda: base + timedelta(seconds=clock.now() - start)


@dataclass(slots=True)
class Cup:
    """A tournament this process runs: its stored state and where its news go."""

    tournament_id: int
    guild_id: int
    channel_id: int | None
    tournament: Tournament
    lang: str
    places: dict[str, int] = field(default_factory=dict)
    """Match id → the channel where its table is played."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    organiser: int | None = None
    """Who created it: told when a match needs their word (a table lost)."""
    told: set[str] = field(default_factory=set)
    """What the organiser has been told once in this process (``places``: the match places
    cannot be opened, :meth:`Venue.lacking`)."""

    @property
    def name(self) -> str:
        return self.tournament.settings.name


@dataclass(frozen=True, slots=True)
class Lacking:
    """What a venue lacks to open a tournament's match places (:meth:`Venue.lacking`)."""

    where: str
    """The channel's name, where the places would be made."""
    permissions: tuple[str, ...]
    """Discord's names of the permissions missing there (``create_private_threads``), worded
    for a reader by :func:`musbot.i18n.permission_names`."""


class Venue(Protocol):
    """Where a runner's tables are played and its news shown."""

    async def open_place(self, cup: Cup, match: Fixture, title: str) -> int | None:
        """A new place (a thread) for the match's table, ready for the table to show itself:
        its channel id, or None if none can be made now (the runner tries again later)."""
        ...

    async def lacking(self, cup: Cup) -> Lacking | None:
        """What keeps the venue from opening the tournament's match places as its settings ask
        (private threads need Create Private Threads, and a public one would let spectators in),
        as far as it knows now; None when nothing does."""
        ...

    async def reach_place(self, cup: Cup, channel_id: int) -> bool:
        """A place made before a restart, ready again for a new table; False if it is gone."""
        ...

    async def call_players(self, cup: Cup, channel_id: int, text: str,
                           users: Sequence[int]) -> None:
        """Tells the match's players, in its place, to sit down (notifying those ``users``)."""
        ...

    async def news(self, cup: Cup, text: str, users: Sequence[int] = ()) -> None:
        """A sentence of the tournament's (plain text: the venue escapes it), notifying
        ``users`` alone."""
        ...

    async def paused(self, cup: Cup, match: Fixture, text: str, users: Sequence[int]) -> None:
        """A match paused (its table lost): ``text`` told notifying ``users``, with the
        organiser's way to send it to a new table."""
        ...

    async def bracket(self, cup: Cup, matches: Collection[str] | None) -> None:
        """The bracket's pictures (those showing ``matches``; all when None) and its text."""
        ...

    async def timed_news(self, cup: Cup, text: str, users: Sequence[int],
                         when: datetime) -> None:
        """:meth:`news` whose ``text`` shows ``when`` where it holds :data:`WHEN` (the date
        and time in each reader's own zone) and :data:`LEFT` (how long from now)."""
        ...

    async def ask_organiser(self, cup: Cup, match: Fixture, text: str,
                            users: Sequence[int], *, playing: bool = False) -> None:
        """A match's deadline passed: ``text`` notifying the organiser (``users``), with their
        choices in one tap: a walkover for either pair, a double walkover, more time (a day).
        ``playing``: a match played on Discord past its time limit, so more time is half an
        hour, and the board as it stands is a choice too."""
        ...

    async def board(self, cup: Cup, text: str) -> None:
        """The organiser's board (``text``, every match of the round in play): one message,
        posted once and then edited as it changes, within the channel's edits."""
        ...

    async def ask_agreement(self, cup: Cup, match: Fixture, text: str, users: Sequence[int],
                            number: int) -> None:
        """A reported result (``text``), notifying the other pair (``users``) alone, with their
        way to confirm or dispute report ``number`` in one tap."""
        ...


def match_key(cup: Cup, match_id: str) -> str:
    """A match's key on its table (:attr:`musbot.table.entry.Entry.match`)."""
    return f"{cup.tournament_id}:{match_id}"


def entrants_of(cup: Cup, match: Fixture) -> dict[int, int]:
    """The match's four people, each with their side (0 or 1)."""
    t = cup.tournament
    return {user: side for side, pair_id in enumerate(match.pairs) if pair_id is not None
            for user in t.pairs[pair_id].players if user is not None}
