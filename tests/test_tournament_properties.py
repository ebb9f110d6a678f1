"""Property tests of every format for 2 to 128 pairs: whole tournaments played with random
results, walkovers and disqualifications, checked after every change (the JSON round trip,
nobody in two matches at once) and at the end (matches per pair, one champion, byes, seeding).

Kept to a few seconds: each format gets a handful of fields across the range (round robins of
many pairs are thousands of matches, so their JSON round trip is checked at a sample of steps).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tournament_helpers import T0, drawn, people

from musbot.tournament import (
    Bracket,
    Format,
    Lateness,
    MatchState,
    Seeding,
    Stage,
    Tournament,
    TournamentEvent,
    pair_key,
)
from musbot.tournament import swiss as swiss_pairing
from musbot.tournament.brackets import bracket_size
from musbot.tournament.simulate import random_results, simulate

FIELDS = st.integers(2, 128)
QUICK = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EDGES = [(2, 1, 0.0, {}), (3, 2, 0.1, {}), (128, 3, 0.1, {"lateness": Lateness.GAME})]
"""Fields always tried besides the random ones: the smallest, an odd one, the largest."""


def edges(test: object) -> object:
    for case in EDGES:
        test = example(case)(test)  # type: ignore[operator]
    return test


def checker(every: int = 1) -> tuple[list[int], object]:
    """An ``after`` hook checking, every ``every`` changes and at the end, the JSON round trip
    and that no pair has two matches open at once."""
    seen = [0]

    def check(t: Tournament, events: list[TournamentEvent]) -> None:
        seen[0] += 1
        if seen[0] % every and t.phase is Stage.RUNNING:
            return
        data = t.to_dict()
        assert Tournament.from_dict(data).to_dict() == data
        open_ = Counter(p for m in t.ready() for p in m.pairs)
        assert all(count == 1 for count in open_.values()), open_

    return seen, check


def play_out(t: Tournament, seed: int, late_rate: float) -> None:
    # Every change while the state is small; past that, a sample of changes spread over the
    # tournament (and the last one), so that a field of 128 stays a fraction of a second.
    size = max(len(t.matches), 2 * len(t.pairs))  # Swiss rounds come later
    samples = 40 if size <= 1000 else 8  # a round robin of 128 pairs is 8,128 matches
    every = 1 if size <= 120 else max(1, 3 * size // samples)
    _, check = checker(every)
    simulate(t, random_results(random.Random(seed), late_rate=late_rate), start=T0,
             after=check)  # type: ignore[arg-type]
    assert t.phase is Stage.FINISHED


def losses(t: Tournament) -> Counter[int]:
    return Counter(m.loser_pair for m in t.matches.values()
                   if m.played and m.loser_pair is not None)


def played_by(t: Tournament) -> Counter[int]:
    return Counter(p for m in t.matches.values() if m.played for p in m.pairs if p is not None)


def byes(t: Tournament) -> Counter[int]:
    return Counter(m.winner_pair for m in t.matches.values()
                   if m.state is MatchState.BYE and m.winner_pair is not None)


def options(draw: st.DrawFn) -> dict[str, object]:
    return {"games_to_win": draw(st.integers(1, 3)),
            "lateness": draw(st.sampled_from(list(Lateness))),
            "seeding": draw(st.sampled_from(list(Seeding)))}


@st.composite
def fields(draw: st.DrawFn, largest: int = 128) -> tuple[int, int, float, dict[str, object]]:
    return (draw(st.integers(2, largest)), draw(st.integers(0, 2**16)),
            draw(st.sampled_from([0.0, 0.1])), options(draw))


def check_common(t: Tournament) -> None:
    assert t.champion is not None, "exactly one champion"
    assert all(count <= 1 for count in byes(t).values()), "no pair gets two byes"


def check_top_seeds_apart(t: Tournament) -> None:
    """Seeds 1 and 2 in different halves of the bracket, 1–4 in different quarters; the
    byes on the top seeds."""
    n = len(t.pairs)
    first = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS and m.round == 1]
    slot = {int(s.ref or 0): 2 * i + side for i, m in enumerate(first)
            for side, s in enumerate(m.sources) if s.kind == "pair"}
    size = bracket_size(n)
    if n >= 2:
        assert slot[0] < size // 2 <= slot[1]
    if n >= 4:
        assert len({slot[s] * 4 // size for s in range(4)}) == 4
    bye_pairs = sorted(p for p, c in byes(t).items() if c and any(
        m.state is MatchState.BYE and m.bracket is Bracket.WINNERS and m.round == 1
        and m.winner_pair == p for m in t.matches.values()))
    assert bye_pairs == list(range(size - n))


@QUICK
@edges
@given(fields())
def test_knockout(case: tuple[int, int, float, dict[str, object]]) -> None:
    n, seed, late, extra = case
    t = drawn(n, Format.KNOCKOUT, seed, **extra)
    check_top_seeds_apart(t)
    play_out(t, seed, late)
    check_common(t)
    assert sum(1 for m in t.matches.values() if m.played) == n - 1
    lost = losses(t)
    assert lost[t.champion.id] == 0  # type: ignore[union-attr]
    assert all(lost[p.id] == 1 for p in t.pairs if p is not t.champion)


@QUICK
@edges
@given(fields())
def test_double_elimination(case: tuple[int, int, float, dict[str, object]]) -> None:
    n, seed, late, extra = case
    t = drawn(n, Format.DOUBLE, seed, **extra)
    check_top_seeds_apart(t)
    play_out(t, seed, late)
    check_common(t)
    played = sum(1 for m in t.matches.values() if m.played)
    assert played in (2 * n - 2, 2 * n - 1)
    assert (played == 2 * n - 1) == ("F2" in t.matches)
    lost = losses(t)
    assert lost[t.champion.id] <= 1  # type: ignore[union-attr]
    assert all(lost[p.id] == 2 for p in t.pairs if p is not t.champion)


@QUICK
@example((2, 1, 0.0, {}), 4, 2)
@example((128, 3, 0.1, {}), 4, 2)
@given(fields(), st.integers(3, 6), st.integers(1, 3))
def test_groups_then_knockout(case: tuple[int, int, float, dict[str, object]], size: int,
                              advance: int) -> None:
    n, seed, late, extra = case
    t = drawn(n, Format.GROUPS, seed, group_size=size, advance=min(advance, size - 1), **extra)
    groups = t.plan["groups"]
    firsts = {t.pairs[s].group for s in range(groups)}
    assert len(firsts) == groups, "the top seeds are in different groups"
    sizes = Counter(p.group for p in t.pairs)
    assert max(sizes.values()) - min(sizes.values()) <= 1
    play_out(t, seed, late)
    check_common(t)
    group_games = Counter(p for m in t.matches.values() if m.bracket is Bracket.GROUP
                          for p in m.pairs if p is not None)
    assert all(group_games[p.id] == sizes[p.group] - 1 for p in t.pairs)
    through = groups * t.plan["advance"]
    knockout = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS and m.played]
    assert len(knockout) == (through - 1 if through > 1 else 0)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@edges
@given(fields(largest=40))
def test_round_robin(case: tuple[int, int, float, dict[str, object]]) -> None:
    n, seed, late, extra = case
    t = drawn(n, Format.ROUND_ROBIN, seed, **extra)
    play_out(t, seed, late)
    check_common(t)
    assert all(count == n - 1 for count in played_by(t).values())
    assert len(played_by(t)) == n
    met = Counter(frozenset(m.pairs) for m in t.matches.values())  # type: ignore[arg-type]
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert t.champion.id == t.standings()[0].pair  # type: ignore[union-attr]


@QUICK
@edges
@given(fields())
def test_swiss(case: tuple[int, int, float, dict[str, object]]) -> None:
    n, seed, late, extra = case
    t = drawn(n, Format.SWISS, seed, **extra)
    play_out(t, seed, late)
    check_common(t)
    rounds = max(1, math.ceil(math.log2(n)))
    assert t.plan["rounds"] == rounds
    had = byes(t)
    assert all(played_by(t)[p.id] + had[p.id] == rounds for p in t.pairs)
    met = [frozenset(m.pairs) for m in t.matches.values() if m.played]  # type: ignore[arg-type]
    assert len(met) == len(set(met)), "never the same two pairs twice"


@st.composite
def swiss_histories(draw: st.DrawFn) -> tuple[list[int], set[frozenset[int]], set[int]]:
    n = draw(st.integers(2, 9))
    pairs = list(range(n))
    met = set(draw(st.lists(st.sampled_from([frozenset(c) for c in combinations(pairs, 2)]),
                            max_size=n * (n - 1) // 2)))
    had = set(draw(st.lists(st.sampled_from(pairs), max_size=n)))
    return draw(st.permutations(pairs)), met, had


def avoidable(order: list[int], met: set[frozenset[int]], had: set[int]) -> bool:
    """Brute force: is there a bye (one without a bye before, if anyone) and a pairing of the
    rest with no rematch?"""
    candidates: list[int | None] = [None]
    if len(order) % 2:
        candidates = [p for p in order if p not in had] or list(order)

    def perfect(left: list[int]) -> bool:
        if not left:
            return True
        first = left[0]
        return any(frozenset((first, other)) not in met and perfect(
            [p for p in left[1:] if p != other]) for other in left[1:])

    return any(perfect([p for p in order if p != bye]) for bye in candidates)


@settings(max_examples=300, deadline=None)
@given(swiss_histories())
def test_swiss_pairs_two_pairs_again_only_when_unavoidable(
        history: tuple[list[int], set[frozenset[int]], set[int]]) -> None:
    order, met, had = history
    pairing, bye = swiss_pairing.pair_round(order, met, had)
    paired = [p for m in pairing for p in m]
    assert sorted(paired + ([bye] if bye is not None else [])) == sorted(order)
    if bye is not None and set(order) - had:
        assert bye not in had, "a bye to a pair that has had one, while others have not"
    rematches = sum(1 for a, b in pairing if frozenset((a, b)) in met)
    if rematches:
        assert not avoidable(order, met, had)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(list(Format)), st.integers(2, 40), st.integers(0, 2**16))
def test_walkovers_and_disqualifications_advance_correctly(fmt: Format, n: int,
                                                           seed: int) -> None:
    """Pairs disqualified at random moments: the rest still finish with one champion, a
    disqualified pair never plays again, and each of its open matches is lost by it."""
    t = drawn(n, fmt, seed)
    rng = random.Random(seed)
    results = random_results(rng, late_rate=0.2)
    before: dict[int, set[str]] = {}
    """Each disqualified pair's matches decided before it was disqualified."""
    _, round_trip = checker(1 if len(t.matches) + 2 * n <= 120 else 25)

    def check(tournament: Tournament, events: list[TournamentEvent]) -> None:
        for pair_id in before:
            for match in tournament.matches_of(pair_id):
                assert match.state not in (MatchState.READY, MatchState.PLAYING), match.id
        round_trip(tournament, events)  # type: ignore[operator]
        if tournament.phase is Stage.RUNNING and len(before) < max(1, n // 4) \
                and rng.random() < 0.05:
            candidates = [p.id for p in tournament.pairs if not p.disqualified]
            if len(candidates) > 2:
                victim = rng.choice(candidates)
                before[victim] = {m.id for m in tournament.matches_of(victim) if m.decided}
                tournament.disqualify(victim, "prueba", now=T0)

    simulate(t, results, start=T0, after=check)
    assert t.phase is Stage.FINISHED
    assert t.champion is not None and t.champion.id not in before
    for pair_id, decided in before.items():
        for match in t.matches_of(pair_id):
            if match.id in decided or not match.played:
                continue
            assert match.state is MatchState.DISQUALIFIED, match.id
            other = match.pairs[1 - (match.side_of(pair_id) or 0)]
            assert match.loser_pair == pair_id or (
                other is not None and t.pairs[other].disqualified), match.id
    assert all(count <= 1 for count in byes(t).values())


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 40), st.integers(0, 1000))
def test_rating_seeding_orders_pairs_by_rating(n: int, seed: int) -> None:
    rng = random.Random(seed)
    table = {pair_key(*p): float(rng.randrange(800, 1400)) for p in people(n)
             if rng.random() < 0.8}
    t = drawn(n, Format.KNOCKOUT, seed, ratings=table)
    shown = [p.rating for p in t.pairs]
    rated = [r for r in shown if r is not None]
    assert rated == sorted(rated, reverse=True)
    assert shown[:len(rated)] == rated, "the unrated after the rated"
