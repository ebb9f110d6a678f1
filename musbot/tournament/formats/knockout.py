"""Single elimination: the bracket of :func:`..brackets.knockout`, its final decides."""

from __future__ import annotations

from .. import brackets
from ..model import Bracket
from ..settings import Format
from .base import Drawn, FormatRules, Podium


class Knockout(FormatRules):
    format = Format.KNOCKOUT
    max_pairs = 512

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        t._add_all(brackets.knockout(seeds))

    def podium(self, t: Drawn) -> Podium | None:
        knockout = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS]
        if not knockout:
            return None
        final = knockout[-1]
        return (final.winner_pair, final.loser_pair) if final.decided else None
