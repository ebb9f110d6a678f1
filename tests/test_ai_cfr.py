"""The robust reference of issue #48: an abstract lance solved by CFR+ (``musbot.ai.cfr``), a
measuring tool for how exploitable a betting rule is.

The abstraction keeps the betting of docs/rules.md §4 (who answers a bet, in what order, a refusal
passing the word to the partner) and the tanteo of §5 (what paso, a deje, an accepted bet pay,
base values included); the solver must drive a single seat's gain from its best answer towards
0, and leave «normal»'s rule far more exploitable in the same abstraction.
"""

from __future__ import annotations

import numpy as np
import pytest

from musbot.ai import cfr
from musbot.engine import Lance


def _node(root: cfr.Node, history: str) -> cfr.Node:
    for node in cfr.walk(root):
        if node.history == history:
            return node
    raise AssertionError(f"no node {history!r}")


def test_the_abstract_betting_follows_rules_section_4() -> None:
    """§4.1–3: speakers in order from the mano; once 0 bets, 1 answers, then 3 if 1 refuses,
    and when both refuse 0's pair takes 1 (§4.5, the lance's first bet); §4.4: after 1
    raises, 2 answers first, then 0; a refusal of the raise pays what stood before it (2)."""
    root = cfr.tree((0, 1, 2, 3))
    assert (root.pos, root.words) == (0, "pb")
    assert [_node(root, h).pos for h in ("0p", "0p1p", "0p1p2p")] == [1, 2, 3]
    assert _node(root, "0p1p2p3p").end == ("paso", 0, 0)
    assert _node(root, "0b").pos == 1 and _node(root, "0b").words == "pqb"
    assert _node(root, "0b1p").pos == 3
    assert _node(root, "0b1p3p").end == ("deje", 0, 1)
    assert _node(root, "0b1q").end == ("called", 2, 0)
    assert [_node(root, h).pos for h in ("0b1b", "0b1b2p")] == [2, 0]
    assert _node(root, "0b1b2p0p").end == ("deje", 1, 2)
    assert _node(root, "0b1b2b").words == "pq"  # raises capped: call or refuse
    pares = cfr.tree((0, 1, 3))  # §4.1: only those who declared speak
    assert _node(pares, "0b").pos == 1 and _node(pares, "0b1p").pos == 3
    assert _node(pares, "0b1p3p").end == ("deje", 0, 1)
    with_ordagos = cfr.tree((0, 1), ordagos=True)
    assert _node(with_ordagos, "0o").words == "pq"  # nothing raises an órdago (§4)
    assert _node(with_ordagos, "0o1p").end == ("deje", 0, 1)


def test_what_each_end_of_the_betting_pays_follows_section_5() -> None:
    """§5: at Pares an en-paso lance pays the winner's base values, an accepted bet the bet
    and the winner's bases, a deje what stood plus the bases of the deje winner's pair however
    good its cards; Punto adds 1 to a bet and a deje; an accepted órdago pays the stake."""
    one = np.ones(1)
    spot = cfr.Spot(Lance.PARES, (0, 1), np.zeros((1, 4), dtype=np.int64), one, one * 0.75,
                    one * 1.5, one * 2.0, one * 3.0)
    assert spot.value(("paso", 0, 0))[0] == 1.5
    assert spot.value(("called", 4, 0))[0] == pytest.approx(4 * 0.5 + 1.5)
    assert spot.value(("deje", 0, 2))[0] == 4.0 and spot.value(("deje", 1, 2))[0] == -5.0
    assert spot.value(("ordago", 0, 0))[0] == pytest.approx(cfr.STAKE * 0.5)
    punto = cfr.Spot(Lance.PUNTO, (0, 1, 2, 3), spot.bands, one, one, one * 0, one * 0,
                     one * 0)
    assert punto.value(("called", 2, 0))[0] == 3.0 and punto.value(("deje", 1, 1))[0] == -2.0


def test_cfr_drives_a_seats_best_answer_towards_nothing() -> None:
    spots = cfr.deals(8, 40_000, 5)
    spot = next(s for s in spots if s.lance is Lance.PARES and s.present == (0, 1))
    solver = cfr.Solver(spot)
    solver.iterate(20)
    early = max(solver.gain(seat) for seat in spot.present)
    solver.iterate(280)
    late = max(solver.gain(seat) for seat in spot.present)
    assert late < early / 3 and late < 0.01, (early, late)
    assert all(g > late for g in (solver.gain(s, cfr.normal_policy(spot.lance))
                                  for s in spot.present))


def test_the_solution_is_far_less_exploitable_than_normal_s_rule() -> None:
    """``python -m musbot.ai.cfr`` in small: a seat's best answer gains little against the
    solution and much against «normal»'s rule played in the abstraction; the solution's
    shares are a strategy at every decision, and the weakest hands refuse a bet."""
    data = cfr.solve(8, 30_000, 150, 7)
    gains = data["exploitability"]
    assert sum(gains["robust"]) < sum(gains["normal"]) / 5, gains
    grande = next(s for s in data["spots"] if s["lance"] == int(Lance.GRANDE))
    for _, words, _, table in grande["nodes"].values():
        assert all(sum(row) == pytest.approx(1.0, abs=0.01) for row in table)
        assert set(words) <= set("pqb")  # no órdago in the abstraction by default
    _, words, _, table = grande["nodes"]["0b"]
    assert words == "pqb" and table[1][0] > 0.5  # a chance under 0.5 refuses a bet
