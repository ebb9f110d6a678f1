"""The families of random opponents ``musbot bench ai`` judges a level against (issue #48).

A family is a generator of rule-based players with every parameter drawn at random; «tuned» and
«held-out» come from the same generator with disjoint seeds, so a level tuned on one is judged
on players it never met. These tests pin down what the figures rest on: a member is the same
player whenever it is drawn, the two families are different players, a duplicate's two games
meet the same two members (each seat its own), and the family is as varied as its docstring
says. Legality and blindness to hidden cards are :mod:`tests.test_ai_levels`' business (it plays
every bench level, the families' first members included).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict

import pytest

from musbot.ai import LEVELS
from musbot.ai.arena import bench_levels, play_game, seat_player
from musbot.ai.family import DISCARDS, FAMILIES, TIMINGS, FamilyBot, member_key, params
from musbot.cli import main
from musbot.engine import ORDAGO, PASO, Hand, Rules, seeded_shuffler
from musbot.engine.randomplay import random_action


def test_families_are_bench_levels_not_table_levels() -> None:
    for name in FAMILIES:
        assert f"family:{name}" in bench_levels() and f"family:{name}" not in LEVELS
    with pytest.raises(KeyError):
        params("nope", "1")


def test_a_member_is_the_same_player_whenever_drawn_and_the_families_differ() -> None:
    assert params("tuned", "7:3:0") == params("tuned", "7:3:0")
    assert params("tuned", "7:3:0") != params("held-out", "7:3:0")
    tuned = {params("tuned", str(k)) for k in range(200)}
    held = {params("held-out", str(k)) for k in range(200)}
    assert len(tuned) == len(held) == 200 and not tuned & held


def test_both_games_of_a_duplicate_meet_the_same_two_members() -> None:
    rules = Rules(juegos=1, vacas=1)
    for index in (4, 5):  # a duplicate: the pairs' seats swapped
        team_a = index % 2
        members = {s: seat_player("family:held-out", 9, index, s, rules)
                   for s in range(4) if rules.team(s) != team_a}
        keys = sorted(member_key(9, index, s, rules.team) for s in members)
        assert keys == ["9:2:0", "9:2:1"]  # each seat its own member, the same in both games
        assert all(isinstance(p, FamilyBot) for p in members.values())
    assert member_key(9, 6, 1, rules.team) == "9:3:0"  # the next duplicate: new members


def test_the_family_holds_every_kind_of_player_it_says() -> None:
    drawn = [params("tuned", str(k)) for k in range(400)]
    assert set(Counter(p.timing for p in drawn)) == set(TIMINGS)
    assert set(Counter(p.discard for p in drawn)) == set(DISCARDS)
    assert {p.judge for p in drawn} == {"odds", "rank"} and {p.mus for p in drawn} == \
        {"worth", "rank"}
    share = {name: sum(bool(getattr(p, name)) for p in drawn) / len(drawn)
             for name in ("bluff", "slowplay", "raise_bluff", "ordago_bluff", "desperate")}
    assert all(0.2 < x < 0.8 for x in share.values()), share
    assert min(p.call for p in drawn) < 0.35 and max(p.call for p in drawn) > 0.8
    assert sum(p.ordago > 1 for p in drawn) > 50  # some never go to órdago with the goods
    for p in drawn:
        assert p.raise_ > min(p.call, 0.97) and 0 <= p.noise <= 0.15
        assert all(v == v for v in asdict(p).values() if isinstance(v, float))


def test_a_member_bets_by_its_parameters() -> None:
    """A member that never bluffs and throws órdagos only from 0.99 passes a weak hand and
    keeps its órdago for the goods; one that throws them at random sometimes does."""
    from dataclasses import replace

    calm = replace(params("tuned", "1"), bluff=0.0, ordago=0.99, ordago_bluff=0.0,
                   timing="any", slowplay=0.0, noise=0.0, open=0.9, open_last=0.0,
                   desperate=0.0, judge="odds")
    wild = replace(calm, ordago_bluff=0.5)
    rng = random.Random(3)
    seen = Counter()
    for n in range(60):
        h = Hand.deal(Rules(senas=False), mano=n % 4, shuffler=seeded_shuffler(f"fam/{n}"))
        while h.to_act is not None:
            view = h.view(h.to_act)
            if view.lance is not None and view.bet == 0 and not view.ordago:
                strength = FamilyBot("x", calm).strength(view, view.lance, ())
                said = FamilyBot("x", calm).decide(view, rng)
                if strength < 0.9:
                    assert said == PASO, (strength, said)
                seen[FamilyBot("x", wild).decide(view, rng) == ORDAGO] += 1
            h.apply(h.to_act, random_action(view.legal, rng))
    assert seen[True] > 0 and seen[False] > 0


def test_bench_ai_plays_a_family(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--a", "normal", "--b", "family:held-out", "--games", "4",
                 "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["b"] == "family:held-out" and data["games"] == 4
    one, two = play_game("normal", "family:tuned", 3, 0), play_game("normal", "family:tuned", 3, 0)
    assert (one.a_won, one.diff, one.hands) == (two.a_won, two.diff, two.hands)
