"""What a format decides, as one strategy: its first matches at the draw, its table, what a
decided match starts, when the tournament is decided, and what a replay takes back. The
tournament (:class:`musbot.tournament.Tournament`) asks its format's strategy at those five
points and does the rest (the results, the byes, the deadlines) the same for every format."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from ..model import Bracket, Fixture, Pair, Stage, TournamentEvent
from ..settings import Format, Settings
from ..standings import PairStanding, league_table

Podium = tuple[int | None, int | None]
"""(winner, runner-up): the pairs' ids, None where there is none."""


class Drawn(Protocol):
    """What a format's strategy reads and changes of a tournament (:class:`.core.Core`)."""

    settings: Settings
    phase: Stage
    pairs: list[Pair]
    matches: dict[str, Fixture]
    plan: dict[str, int]
    _undecided: int

    def standings(self, group: int | None = None) -> list[PairStanding]: ...

    def _add(self, match: Fixture) -> None: ...

    def _add_all(self, matches: Iterable[Fixture]) -> None: ...

    def _refresh(self, match: Fixture, now: datetime, events: list[TournamentEvent]) -> None: ...


class FormatRules:
    """A format's strategy; the defaults are a league's (every match drawn at once, the table
    decides once all are played)."""

    format: Format
    max_pairs: int
    """The largest field of the format."""

    def check(self, t: Drawn, count: int) -> None:
        """Refuse a draw of ``count`` pairs the format cannot play (:class:`TournamentError`),
        beyond :attr:`max_pairs`."""

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        """Make the first matches, the pairs given best seed first."""
        raise NotImplementedError

    def standings(self, t: Drawn, group: int | None) -> list[PairStanding]:
        """A group's table (``group``), else the league's."""
        out = [p.id for p in t.pairs if p.disqualified]
        if group is not None:
            members = [p.id for p in t.pairs if p.group == group]
            return league_table(members, [m for m in t.matches.values()
                                          if m.group == group], out)
        return league_table([p.id for p in t.pairs],
                            [m for m in t.matches.values() if m.bracket is Bracket.LEAGUE], out)

    def after(self, t: Drawn, now: datetime, events: list[TournamentEvent]) -> None:
        """What a decided match starts (a later round, a second final): nothing by default."""

    def podium(self, t: Drawn) -> Podium | None:
        """(winner, runner-up) once the tournament is decided, else None; called once the draw
        has made matches."""
        if t._undecided:
            return None
        return top_two(t.standings())

    def taken_back(self, t: Drawn, match: Fixture) -> list[Fixture]:
        """The matches that a replay of ``match`` withdraws (made because it was decided)."""
        return []

    def reopened(self, t: Drawn, match: Fixture) -> None:
        """``match`` is to be played again: what the format's plan must forget."""


def top_two(table: list[PairStanding]) -> Podium:
    return table[0].pair, table[1].pair if len(table) > 1 else None
