"""Swiss pairing.

Round 1 pairs the top half of the seeds against the bottom half (1 v n/2 + 1, 2 v n/2 + 2, …).
Every later round pairs down the standings (:func:`~.standings.swiss_table`): the best unpaired
pair meets the nearest one below it that it has not met yet (Monrad pairing), backtracking
when the pairs left cannot all be paired without a rematch. With an odd number of pairs, the
lowest-placed pair that has not had a bye gets one (a point, no games), so nobody has two while
the rounds are at most the number of pairs.

The search is exhaustive, so two pairs meet twice only when no pairing of that round avoids it;
it is bounded (:data:`SEARCH_LIMIT` steps per round) so that a pathological field cannot hang
the bot, and past the bound the round is paired greedily with the fewest rematches it finds.
With the default ⌈log2 n⌉ rounds every pair has met at most log2 n others, and a pairing without
rematches always exists (the pairs not met form a graph of minimum degree ≥ n/2, which has a
perfect matching), so the bound is never reached there.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from .model import is_odd

SEARCH_LIMIT = 200_000
"""Steps of the search for one round's pairing without rematches."""


def default_rounds(n: int) -> int:
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


def max_rounds(n: int) -> int:
    """Rounds in which pairs can still meet new opponents: n − 1, or n with an odd count."""
    return n if is_odd(n) else n - 1


def first_round(seeds: Sequence[int]) -> tuple[list[tuple[int, int]], int | None]:
    """Top half against bottom half; the last seed has the bye with an odd count."""
    order = list(seeds)
    bye = order.pop() if is_odd(len(order)) else None
    half = len(order) // 2
    return [(order[i], order[half + i]) for i in range(half)], bye


class _Exhausted(Exception):
    pass


def _match(order: list[int], met: Collection[frozenset[int]], budget: list[int]
           ) -> list[tuple[int, int]] | None:
    """Depth-first, without recursion (a field of thousands would pass Python's limit): the
    first pair left meets the nearest one it has not met; on a dead end, the last choice moves
    on to its next candidate."""
    stack: list[tuple[list[int], int]] = [(order, 0)]
    chosen: list[tuple[int, int]] = []
    while stack:
        remaining, start = stack[-1]
        if not remaining:
            return chosen
        budget[0] -= 1
        if budget[0] < 0:
            raise _Exhausted
        first = remaining[0]
        for i in range(start + 1, len(remaining)):
            other = remaining[i]
            if frozenset((first, other)) in met:
                continue
            stack[-1] = (remaining, i)
            chosen.append((first, other))
            stack.append((remaining[1:i] + remaining[i + 1:], 0))
            break
        else:
            stack.pop()
            if chosen:
                chosen.pop()
    return None


def _greedy(order: list[int], met: Collection[frozenset[int]]) -> list[tuple[int, int]]:
    left = list(order)
    result = []
    while left:
        first = left.pop(0)
        pick = next((i for i, other in enumerate(left)
                     if frozenset((first, other)) not in met), 0)
        result.append((first, left.pop(pick)))
    return result


def pair_round(standing: Sequence[int], met: Collection[frozenset[int]],
               had_bye: Collection[int]) -> tuple[list[tuple[int, int]], int | None]:
    """The next round's matches (better-placed pair first) and the bye, for the pairs in
    ``standing`` order (best first)."""
    order = list(standing)
    candidates: list[int | None] = [None]
    if is_odd(len(order)):
        without = [p for p in reversed(order) if p not in had_bye]
        candidates = list(without or reversed(order))
    budget = [SEARCH_LIMIT]
    try:
        for bye in candidates:
            rest = [p for p in order if p != bye]
            found = _match(rest, met, budget)
            if found is not None:
                return found, bye
    except _Exhausted:
        pass
    bye = candidates[0]
    return _greedy([p for p in order if p != bye], met), bye
