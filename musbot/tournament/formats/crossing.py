"""The knockout drawn from the groups, by the tournament's rule
(:class:`~musbot.tournament.settings.KnockoutDraw`): who meets whom in its first round, and
where each match sits in the bracket.

**Crossed** (the default, as the Basque championship and most clubs draw it). The groups are
crossed two by two, A with B, C with D…, and an odd last group with A: the best place of one
meets the last one through of the other, the second the one before last, and so on, so with
two through it is 1A–2B, 1B–2A, 1C–2D, 1D–2C. The match of the first of each group is laid
out in group order by the bracket's classic seed order, which puts 1A–2B and 1B–2A in
opposite halves: the two of one group meet again in the final at the earliest. When the field
is not a power of two, the byes go to the best firsts (by wins, game and tanto difference, as
:func:`..formats.groups.qualifiers` ranks them) and the others are crossed as above; where a
crossing would set two of one group against each other, the pairs are swapped with another
match, which is always possible while no group holds more than half of those playing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..brackets import bracket_order, bracket_size


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A pair through to the knockout: its group and its place there (0: first)."""

    pair: int
    group: int
    place: int


Meeting = tuple[Qualifier, Qualifier]


def crossed_slots(ranked: Sequence[Qualifier], groups: int, advance: int) -> list[int | None]:
    """The knockout's first round, slot by slot (slots 2i and 2i+1 meet; None: a bye), for
    the qualifiers given best first (module docstring)."""
    size = bracket_size(len(ranked))
    byes = size - len(ranked)
    meetings = _untangle(_cross(ranked[byes:], groups, advance))
    units: list[tuple[Qualifier, Qualifier | None]] = [(q, None) for q in ranked[:byes]]
    units += sorted(meetings, key=lambda m: (m[0].place, m[0].group))
    slots: list[int | None] = []
    for number in bracket_order(size // 2):
        first, second = units[number - 1]
        slots += [first.pair, None if second is None else second.pair]
    return slots


def partner(group: int, groups: int) -> int:
    """The group a group is crossed with: A with B, C with D…; an odd last group with A."""
    mate = group ^ 1
    return mate if mate < groups else 0


def _cross(playing: Sequence[Qualifier], groups: int, advance: int) -> list[Meeting]:
    """Each pair, best place first and then in group order, meets the pair of the place that
    mirrors its own (first against the last through) in its partner group; short of it, the
    nearest place, then the nearest group after its partner, never its own while another is
    free."""
    free = sorted(playing, key=lambda q: (q.place, q.group))
    meetings: list[Meeting] = []
    while len(free) > 1:
        first = free.pop(0)
        mirror = advance - 1 - first.place
        mate = partner(first.group, groups)
        other = min(free, key=lambda q: (q.group == first.group, abs(q.place - mirror),
                                         (q.group - mate) % max(groups, 1)))
        free.remove(other)
        meetings.append((first, other))
    return meetings


def _untangle(meetings: list[Meeting]) -> list[Meeting]:
    """Two of one group meeting are swapped with a match that has neither of their group
    (each swap one clash fewer, and one always exists while no group holds more than half of
    those playing)."""
    found = list(meetings)
    for i, (first, second) in enumerate(found):
        if first.group != second.group:
            continue
        for j, (third, fourth) in enumerate(found):
            if first.group not in (third.group, fourth.group):
                found[i], found[j] = (first, fourth), (third, second)
                break
    return found


__all__ = ["Meeting", "Qualifier", "crossed_slots", "partner"]
