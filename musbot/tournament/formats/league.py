"""The round robin (a league): every pair meets every other once, the table decides
(:mod:`..standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Bracket, Fixture, Source
from ..settings import Format
from ..standings import circle
from .base import Drawn, FormatRules


def league(pairs: Sequence[int], bracket: Bracket, prefix: str,
           group: int | None) -> list[Fixture]:
    """Every match of a league among ``pairs``, round by round (the circle method)."""
    return [Fixture(f"{prefix}{r}-{i}", bracket, r,
                    (Source("pair", a), Source("pair", b)), group=group)
            for r, games in enumerate(circle(pairs), 1)
            for i, (a, b) in enumerate(games, 1)]


class RoundRobin(FormatRules):
    format = Format.ROUND_ROBIN
    max_pairs = 128
    """Already 8,128 matches."""

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        t._add_all(league(seeds, Bracket.LEAGUE, "R", None))
