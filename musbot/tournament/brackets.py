"""Elimination brackets: the knockout, and double elimination's losers' bracket (repesca).

**The knockout.** The field is placed in a bracket of P = 2^k slots in the classic seed order
(1 v P, 2 v P−1, …, arranged so that seeds 1 and 2 can meet only in the final, 1–4 only in the
semi-finals, and so on); the P − n empty slots are byes, and they fall to the top seeds. Only the
first round has byes, so no pair has two.

**The repesca.** Every loser of the winners' bracket drops into it; a pair losing there is out.
Its champion meets the winners' bracket's in the grand final. In a full bracket (n = P) it is
the usual one: the first round's losers play each other, then each column alternates between the
survivors meeting the next round's losers (a *major* column) and the survivors playing each other
(a *minor* one), and the winners' bracket final's loser enters at the repesca's final.

With byes in the winners' bracket, the usual repesca would give a second bye to a top seed who
had one in the first round and then lost (its repesca slot would be empty). Here the repesca is
planned instead, at the draw, so that **no pair can get two byes**: a repesca bye goes only to a
slot whose pair certainly has had none (a first-round loser, or the winner of a repesca match
between two such slots); where the numbers do not allow it, a group of losers waits for the next
round's losers to join it rather than give a bye. Among the plans that keep that promise, the
one chosen finishes the repesca soonest (counting one round of play per match), then gives the
fewest byes, then is closest to the usual shape (most major columns). The plan depends on n
alone, so a draw is reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .model import BYE_SOURCE, Bracket, Fixture, Source, is_odd


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


@cache
def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds 1..size in slot order: slots 2i and 2i+1 meet in the first round."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for s in order for seed in (s, total - s)]
    return tuple(order)


def knockout(pairs: Sequence[int], bracket: Bracket = Bracket.WINNERS) -> list[Fixture]:
    """The matches of a knockout of ``pairs`` (best seed first), round by round."""
    n = len(pairs)
    if n < 2:
        raise ValueError("a knockout needs two pairs")
    order = bracket_order(bracket_size(n))
    return knockout_of_slots([pairs[seed - 1] if seed <= n else None for seed in order],
                             bracket)


def knockout_of_slots(slots: Sequence[int | None], bracket: Bracket = Bracket.WINNERS
                      ) -> list[Fixture]:
    """The matches of a knockout whose first round is given slot by slot (slots 2i and 2i+1
    meet; None is a bye), round by round."""
    if len(slots) < 2 or bracket_size(len(slots)) != len(slots):
        raise ValueError("a bracket's slots are a power of two")
    sides = [BYE_SOURCE if pair is None else Source("pair", pair) for pair in slots]
    matches = []
    previous: list[str] = []
    round_ = 1
    while True:
        ids = []
        for i in range(len(sides) // 2):
            match = Fixture(f"{bracket.value}{round_}-{i + 1}", bracket, round_,
                            (sides[2 * i], sides[2 * i + 1]))
            matches.append(match)
            ids.append(match.id)
        if len(ids) == 1:
            return matches
        previous = ids
        sides = [Source("winner", m) for m in previous]
        round_ += 1


# --- double elimination ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Slot:
    """A repesca slot: where its pair comes from, and whether that pair may have had a bye."""

    source: Source
    had_bye: bool


def _cohorts(winners: Sequence[Fixture], n: int) -> list[list[_Slot]]:
    """The losers of each winners' round, in bracket order, each marked with whether it may be
    a pair that had a first-round bye."""
    rounds: dict[int, list[Fixture]] = {}
    for match in winners:
        rounds.setdefault(match.round, []).append(match)
    cohorts = []
    byes: list[bool] = []
    for number in sorted(rounds):
        if number == 1:
            byes = [BYE_SOURCE in m.sources for m in rounds[1]]
            cohorts.append([_Slot(Source("loser", m.id), False)
                            for m, bye in zip(rounds[1], byes, strict=True) if not bye])
        else:
            byes = [byes[2 * i] or byes[2 * i + 1] for i in range(len(byes) // 2)]
            cohorts.append([_Slot(Source("loser", m.id), bye)
                            for m, bye in zip(rounds[number], byes, strict=True)])
    return cohorts


def _column(free: int, had: int, size: int) -> tuple[int, int] | None:
    """A repesca column taking a pool of ``free`` + ``had`` slots down to ``size``: the byes
    (2·size − pool) go to free slots, free slots play each other where they can (their winner
    stays free). The pool after it, or None if there are not enough free slots for the byes."""
    pool = free + had
    byes = 2 * size - pool
    if byes < 0 or byes > free or size >= pool:
        return None
    playing_free = free - byes
    odd = int(is_odd(playing_free))
    if had < odd:
        return None
    return playing_free // 2, byes + (had - odd) // 2 + odd


Op = tuple[str, int]
"""("halve", 0), ("target", size), ("major", 0), ("merge", 0)."""

Plan = tuple[tuple[int, ...], int, int, int, tuple[Op, ...]]
"""What :func:`repesca_plan` compares: the columns each later cohort plays from its entry
(latest cohort first), the columns from now on, the finish time, the byes, and the ops."""

_NEVER: Plan = ((1 << 30,), 0, 0, 0, ())


@cache
def repesca_plan(cohorts: tuple[tuple[int, ...], ...]) -> tuple[Op, ...]:
    """The repesca's columns for cohorts of (free, may-have-had-a-bye) losers, each cohort the
    losers of one winners' round (module docstring). The choice, in order: the later a pair
    loses in the winners' bracket, the fewer repesca matches it plays (as in the usual
    repesca); then the fewest columns; then the soonest finish (round j's losers can play from
    time j + 1, a column takes one unit); then the fewest byes."""

    def better(a: Plan, b: Plan) -> Plan:
        return a if a[:4] <= b[:4] else b

    @cache
    def stage(j: int, free: int, had: int, time: int) -> Plan:
        # The best plan for a pool holding cohorts <= j, whose next column can be played at
        # ``time``.
        best = _NEVER
        ops: list[Op] = []
        byes = 0
        nxt = cohorts[j + 1] if j + 1 < len(cohorts) else None
        while True:
            pool = free + had
            columns = len(ops)
            if nxt is None:
                if pool == 1:
                    best = better(best, ((), columns, time - 1, byes, tuple(ops)))
            else:
                drop = nxt[0] + nxt[1]
                arrives = j + 3
                if pool == drop:
                    paired_free = min(free, nxt[0])
                    after = stage(j + 1, paired_free, pool - paired_free,
                                  max(time, arrives) + 1)
                    best = better(best, ((*after[0], after[1] + 1), columns + after[1] + 1,
                                         after[2], byes + after[3],
                                         (*ops, ("major", 0), *after[4])))
                elif drop < pool <= 2 * drop:
                    reduced = _column(free, had, drop)
                    if reduced is not None:
                        paired_free = min(reduced[0], nxt[0])
                        after = stage(j + 1, paired_free, drop - paired_free,
                                      max(time + 1, arrives) + 1)
                        best = better(best, ((*after[0], after[1] + 1),
                                             columns + after[1] + 2, after[2],
                                             byes + 2 * drop - pool + after[3],
                                             (*ops, ("target", drop), ("major", 0),
                                              *after[4])))
                after = stage(j + 1, free + nxt[0], had + nxt[1], max(time, arrives))
                best = better(best, ((*after[0], after[1]), columns + after[1], after[2],
                                     byes + after[3], (*ops, ("merge", 0), *after[4])))
            if pool <= 1:
                break
            halved = _column(free, had, (pool + 1) // 2)
            if halved is None:
                break
            byes += int(is_odd(pool))
            free, had = halved
            time += 1
            ops.append(("halve", 0))
        return best

    first_free, first_had = cohorts[0]
    result = stage(0, first_free, first_had, 2)
    if result is _NEVER:
        raise ValueError(f"no repesca without a second bye for cohorts {cohorts}")
    return result[4]


class _Repesca:
    """Builds the repesca's matches from a plan."""

    def __init__(self) -> None:
        self.matches: list[Fixture] = []
        self.column = 0
        self.majors = 0

    def _match(self, first: _Slot, second: _Slot | None, number: int) -> _Slot:
        match = Fixture(f"{Bracket.LOSERS.value}{self.column}-{number}", Bracket.LOSERS,
                        self.column, (first.source, BYE_SOURCE if second is None else
                                      second.source))
        self.matches.append(match)
        had = True if second is None else first.had_bye or second.had_bye
        return _Slot(Source("winner", match.id), had)

    def column_to(self, pool: list[_Slot], size: int) -> list[_Slot]:
        """One column taking ``pool`` down to ``size``; byes to free slots, free slots paired
        together first, the pool's order kept."""
        self.column += 1
        byes = 2 * size - len(pool)
        free = [i for i, slot in enumerate(pool) if not slot.had_bye]
        waiting = set(free[len(free) - byes:]) if byes else set()
        playing = [i for i in range(len(pool)) if i not in waiting]
        free_playing = [i for i in playing if not pool[i].had_bye]
        had_playing = [i for i in playing if pool[i].had_bye]
        if is_odd(len(free_playing)):
            had_playing.insert(0, free_playing.pop())
        couples = [(free_playing[i], free_playing[i + 1])
                   for i in range(0, len(free_playing), 2)]
        couples += [(had_playing[i], had_playing[i + 1]) for i in range(0, len(had_playing), 2)]
        placed: list[tuple[int, _Slot]] = []
        pending: list[tuple[int, int | None]] = [(i, None) for i in waiting]
        ordered = sorted(pending + list(couples), key=lambda c: c[0])
        for number, (first, second) in enumerate(ordered, 1):
            placed.append((first, self._match(pool[first], None if second is None
                                              else pool[second], number)))
        return [slot for _, slot in placed]

    def major(self, pool: list[_Slot], drops: list[_Slot]) -> list[_Slot]:
        """Each survivor meets a newcomer: free with free first, and the newcomers' order
        reversed every other time, so pairs that met in the winners' bracket meet late."""
        self.column += 1
        self.majors += 1
        order = drops[::-1] if is_odd(self.majors) else list(drops)
        free_drops = [d for d in order if not d.had_bye]
        had_drops = [d for d in order if d.had_bye]
        result = []
        for number, slot in enumerate(pool, 1):
            if not slot.had_bye and free_drops:
                other = free_drops.pop(0)
            elif had_drops:
                other = had_drops.pop(0)
            else:
                other = free_drops.pop(0)
            result.append(self._match(slot, other, number))
        return result


def double_elimination(pairs: Sequence[int]) -> list[Fixture]:
    """Winners' bracket, repesca and grand final (F1; F2 is added if F1 is won by the repesca's
    pair, see :mod:`.tournament`)."""
    winners = knockout(pairs, Bracket.WINNERS)
    cohorts = _cohorts(winners, len(pairs))
    plan = repesca_plan(tuple((sum(not s.had_bye for s in c), sum(s.had_bye for s in c))
                              for c in cohorts))
    builder = _Repesca()
    pool = list(cohorts[0])
    next_cohort = 1
    for op, size in plan:
        if op == "halve":
            pool = builder.column_to(pool, (len(pool) + 1) // 2)
        elif op == "target":
            pool = builder.column_to(pool, size)
        elif op == "major":
            pool = builder.major(pool, cohorts[next_cohort])
            next_cohort += 1
        else:
            pool = pool + cohorts[next_cohort]
            next_cohort += 1
    if len(pool) != 1 or next_cohort != len(cohorts):
        raise AssertionError(f"repesca plan {plan} left {len(pool)} slots")
    final = Fixture(f"{Bracket.FINAL.value}1", Bracket.FINAL, 1,
                    (Source("winner", winners[-1].id), pool[0].source))
    return [*winners, *builder.matches, final]
