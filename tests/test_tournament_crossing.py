"""The knockout drawn from the groups by the tournament's rule (issue 47, item 3:
«first of A against second of B»): the crossed draw as a pure function of who went through
(hypothesis: everyone once, byes to the best, no two of one group meeting at once while
avoidable, the two of a group in opposite halves), and as a tournament plays it; the rule
stored with the tournament."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_helpers import T0, drawn

from musbot.i18n import LANGUAGES
from musbot.tournament import (
    Bracket,
    Format,
    KnockoutDraw,
    MatchState,
    Settings,
    Tournament,
    TournamentError,
)
from musbot.tournament.brackets import bracket_size
from musbot.tournament.formats.crossing import Qualifier, crossed_slots, partner
from musbot.tournament.labels import Words
from musbot.tournament.simulate import random_results, simulate
from musbot.tournament.text import bracket_text


def field(groups: int, advance: int, missing: frozenset[int] = frozenset(),
          order: random.Random | None = None) -> list[Qualifier]:
    """``advance`` through from each of ``groups`` groups, pair ids ``10·group + place``,
    ranked by place then (``order``) shuffled results within a place; ``missing`` pairs out."""
    ranked = []
    for place in range(advance):
        row = [Qualifier(10 * g + place, g, place) for g in range(groups)]
        if order is not None:
            order.shuffle(row)
        ranked += [q for q in row if q.pair not in missing]
    return ranked


def first_round(slots: list[int | None]) -> list[tuple[int | None, int | None]]:
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


@given(st.integers(1, 12), st.integers(1, 4), st.integers(0, 2**32 - 1),
       st.sets(st.integers(0, 119), max_size=4))
def test_every_qualifier_once_byes_to_the_best_and_no_group_meeting_itself(
        groups: int, advance: int, seed: int, out: set[int]) -> None:
    ranked = field(groups, advance, frozenset(out), random.Random(seed))
    if len(ranked) < 2:
        return
    slots = crossed_slots(ranked, groups, advance)
    assert len(slots) == bracket_size(len(ranked))
    assert sorted(p for p in slots if p is not None) == sorted(q.pair for q in ranked)
    byes = len(slots) - len(ranked)
    group_of = {q.pair: q.group for q in ranked}
    held = {a if b is None else b for a, b in first_round(slots) if None in (a, b)}
    assert held == {q.pair for q in ranked[:byes]}, "the byes go to the best"
    assert all(a is not None or b is not None for a, b in first_round(slots)), "no empty match"
    playing = Counter(q.group for q in ranked[byes:])
    clashes = [(a, b) for a, b in first_round(slots)
               if a is not None and b is not None and group_of[a] == group_of[b]]
    if 2 * max(playing.values(), default=0) <= sum(playing.values()):
        assert not clashes, "two of one group never meet at once while it can be avoided"


@given(st.sampled_from([2, 4, 8]), st.integers(0, 2**32 - 1))
def test_two_through_first_of_a_meets_second_of_b_and_the_group_splits_in_halves(
        groups: int, seed: int) -> None:
    ranked = field(groups, 2, order=random.Random(seed))
    slots = crossed_slots(ranked, groups, 2)
    assert len(slots) == 2 * groups, "no byes"
    for a, b in first_round(slots):
        assert a is not None and b is not None
        first, second = sorted((a, b), key=lambda p: p % 10)
        assert first % 10 == 0 and second % 10 == 1, "a first against a second"
        assert second // 10 == partner(first // 10, groups), "1A–2B, 1B–2A, 1C–2D…"
    half = len(slots) // 2
    for group in range(groups):
        top = [p for p in slots[:half] if p is not None and p // 10 == group]
        assert len(top) == 1, "the two of a group meet again in the final at the earliest"


def test_the_crossing_of_four_groups_reads_as_clubs_write_it() -> None:
    """1A–2B and 1C–2D in the top half, 1B–2A and 1D–2C in the bottom one (as a World Cup's
    round of sixteen)."""
    a, b, c, d = range(4)
    ranked = field(4, 2)
    slots = crossed_slots(ranked, 4, 2)
    names = {10 * g + p: f"{p + 1}{'ABCD'[g]}" for g in (a, b, c, d) for p in (0, 1)}
    assert [f"{names[x]}–{names[y]}" for x, y in first_round(slots)] == [  # type: ignore[index]
        "1A–2B", "1D–2C", "1B–2A", "1C–2D"]


def test_three_groups_give_their_byes_to_the_two_best_firsts() -> None:
    """Six through a bracket of eight: the two best firsts wait in the second round; the third
    first meets a second of another group, and the other two seconds meet each other."""
    ranked = [Qualifier(20, 2, 0), Qualifier(0, 0, 0), Qualifier(10, 1, 0),
              Qualifier(1, 0, 1), Qualifier(21, 2, 1), Qualifier(11, 1, 1)]
    meetings = {frozenset(m) for m in first_round(crossed_slots(ranked, 3, 2))}
    assert frozenset({20, None}) in meetings and frozenset({0, None}) in meetings
    assert frozenset({10, 1}) in meetings, "1B against 2A (B is crossed with A)"
    assert frozenset({21, 11}) in meetings


@pytest.mark.parametrize("rule", list(KnockoutDraw))
def test_a_tournament_draws_its_knockout_by_its_rule(rule: KnockoutDraw) -> None:
    t = drawn(16, Format.GROUPS, knockout_draw=rule)
    assert t.settings.knockout_draw is rule
    simulate(t, random_results(random.Random(4)), start=T0)
    table = {g: [row.pair for row in t.standings(g)] for g in range(4)}
    first = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS and m.round == 1]
    met = {frozenset(m.pairs) for m in first}
    if rule is KnockoutDraw.CROSSED:
        assert met == {frozenset({table[g][0], table[partner(g, 4)][1]}) for g in range(4)}
    for match in first:
        assert len({t.pairs[p].group for p in match.pairs if p is not None}) == 2
    assert t.phase.value == "finished" and t.champion is not None


def test_three_groups_of_four_cross_with_byes_for_the_best_firsts() -> None:
    """12 pairs: groups of four, two through; the knockout of six, its two byes to the best
    firsts; a tournament stored and read back keeps drawing by its rule."""
    t = drawn(12, Format.GROUPS)
    assert t.settings.knockout_draw is KnockoutDraw.CROSSED, "the default"
    assert Tournament.from_dict(t.to_dict()) == t
    simulate(t, random_results(random.Random(9)), start=T0)
    firsts = [q for q in t.qualifiers() if any(t.standings(g)[0].pair == q for g in range(3))]
    byes = {m.winner_pair for m in t.matches.values() if m.state is MatchState.BYE}
    assert byes == set(firsts[:2])
    played = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS and m.played]
    assert len(played) == 5 and t.champion is not None


def test_the_rule_is_stored_and_an_old_tournament_keeps_the_overall_table() -> None:
    settings = Settings("Udaberri", format=Format.GROUPS, knockout_draw="seeded", advance=3,
                        group_size=5)
    again = Settings.from_dict(settings.to_dict())
    assert again == settings and again.knockout_draw is KnockoutDraw.SEEDED
    old = settings.to_dict()
    del old["knockout_draw"]
    assert Settings.from_dict(old).knockout_draw is KnockoutDraw.SEEDED, "drawn as it was made"
    assert Settings("Berria").knockout_draw is KnockoutDraw.CROSSED


def test_a_rule_that_is_not_one_is_refused_in_one_sentence() -> None:
    with pytest.raises(TournamentError) as excinfo:
        Settings("Txoko", format=Format.GROUPS, knockout_draw="dados")
    assert excinfo.value.code == "tournament_bad_option"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_rule_is_said_in_every_language(lang: str) -> None:
    """The rule in words, with how many go through and what an odd count of groups does,
    for the tournament's page and the knockout's news."""
    crossed = drawn(12, Format.GROUPS)
    seeded = drawn(12, Format.GROUPS, knockout_draw=KnockoutDraw.SEEDED)
    said = Words(crossed, lang).draw_rule()
    assert "2" in said and "A" in said and "B" in said and "{" not in said
    other = Words(seeded, lang).draw_rule()
    assert other != said and "{" not in other
    assert Words(drawn(4), lang).draw_rule() == "", "a knockout has no groups to cross"
    assert said in bracket_text(crossed, lang)[0].splitlines()[:3], "at the page's head"
