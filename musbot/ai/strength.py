"""How good a hand is for each lance, as a percentile among all the hands a deck can deal.

Built once per rule set from the engine's evaluation tables: every rank multiset is weighted by how
many real four-card hands produce it, so a bot can say "this grande beats 85 % of hands" with two
tuple reads.
"""

from __future__ import annotations

from functools import cache
from math import comb

from musbot.engine.cards import RANKS
from musbot.engine.evaluation import Lance, rank_class, tables


@cache
def percentiles(reyes: int = 8, real: bool = False) -> tuple[tuple[float, ...], ...]:
    """``[lance][hand index]`` → share of hands it beats (ties count half), in [0, 1].

    Pares is measured only among hands with pares, Juego among hands with juego and Punto among
    hands without juego: those are the hands a bettor actually meets in that lance. A hand
    outside its lance's population scores 0.
    """
    t = tables(reyes, real)
    per_class = [0] * 10
    for printed in RANKS:
        per_class[rank_class(printed, reyes)] += 4
    weights = []
    for info in t.infos:
        w = 1
        for cls in set(info.classes):
            w *= comb(per_class[cls], info.classes.count(cls))
        weights.append(w)

    def member(lance: Lance, i: int) -> bool:
        if lance is Lance.PARES:
            return t.has_pares[i]
        if lance is Lance.JUEGO:
            return t.has_juego[i]
        if lance is Lance.PUNTO:
            return not t.has_juego[i]
        return True

    out: list[tuple[float, ...]] = []
    for lance in Lance:
        strength = t.strength[lance]
        members = [i for i in range(len(t.infos)) if member(lance, i)]
        total = sum(weights[i] for i in members)
        by_strength: dict[int, int] = {}
        for i in members:
            by_strength[strength[i]] = by_strength.get(strength[i], 0) + weights[i]
        below = 0
        share: dict[int, float] = {}
        for s in sorted(by_strength):
            share[s] = (below + by_strength[s] / 2) / total
            below += by_strength[s]
        out.append(tuple(share[strength[i]] if member(lance, i) else 0.0
                         for i in range(len(t.infos))))
    return tuple(out)
