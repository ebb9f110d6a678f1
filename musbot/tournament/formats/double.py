"""Double elimination: the winners' bracket, the repesca and the grand final of
:func:`..brackets.double_elimination`; the grand final's second match (F2) is made when the
repesca's pair wins the first (F1)."""

from __future__ import annotations

from datetime import datetime

from .. import brackets
from ..model import Bracket, Fixture, Source, TournamentEvent
from ..settings import Format
from .base import Drawn, FormatRules, Podium


class Double(FormatRules):
    format = Format.DOUBLE
    max_pairs = 256

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        t._add_all(brackets.double_elimination(seeds))

    def after(self, t: Drawn, now: datetime, events: list[TournamentEvent]) -> None:
        first = t.matches.get("F1")
        if first is not None and first.decided and first.winner == 1 \
                and "F2" not in t.matches:
            t._add(Fixture("F2", Bracket.FINAL, 2,
                           (Source("winner", "F1"), Source("loser", "F1"))))
            t._refresh(t.matches["F2"], now, events)

    def podium(self, t: Drawn) -> Podium | None:
        first, second = t.matches.get("F1"), t.matches.get("F2")
        final = second if second is not None else first
        if final is None or not final.decided or (final is first and first.winner == 1):
            return None
        return final.winner_pair, final.loser_pair

    def taken_back(self, t: Drawn, match: Fixture) -> list[Fixture]:
        return [t.matches["F2"]] if match.id == "F1" and "F2" in t.matches else []
