"""docs/rules.md §1 (deck, reyes, rank order, values, ties) and §3 (the order of hands in each
lance)."""

from __future__ import annotations

import itertools

import pytest
from helpers_rules import compare, cut, info, make_hand, pass_all

from musbot.engine import Rules
from musbot.engine.evaluation import Lance

G, C, P, J, PT = Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO


# --- §1 the deck ------------------------------------------------------------------------------


def test_s1_deck_has_40_cards_with_codes():
    """§1: 40 cards, suits o c e b, ranks 1–7, 10, 11, 12; code = rank + suit letter."""
    from musbot.engine import CARD_CODES, DECK, card_code, parse_card

    assert len(DECK) == 40
    expected = {f"{r}{s}" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for s in "oceb"}
    assert set(CARD_CODES) == expected
    for code in ("1o", "7e", "10c", "12b"):
        assert card_code(parse_card(code)) == code
    for bad in ("8o", "9c", "13b", "1x"):
        with pytest.raises(KeyError):
            parse_card(bad)


# --- §1 reyes = 8 (default): 3 is a rey, 2 is an as for every purpose --------------------------


def test_s1_reyes8_three_ranks_as_rey_at_grande():
    """§1 reyes=8: a 3 is a rey for ordering: 3-7-6-5 equals 12-7-6-5 and beats 11-11-11-11."""
    assert compare(G, "3o 7o 6o 5o", "12c 7c 6c 5c") == 0
    assert compare(G, "3 4 4 4", "11 11 11 11") == 1


def test_s1_reyes8_two_ranks_as_as_at_chica():
    """§1 reyes=8: a 2 is an as: 2-4-5-6 equals 1-4-5-6 at chica; 2 is lower than 4."""
    assert compare(C, "2o 4o 5o 6o", "1c 4c 5c 6c") == 0
    assert compare(C, "2 5 5 5", "4 4 4 4") == 1


def test_s1_reyes8_three_and_rey_make_pares():
    """§1 reyes=8: 3 + 12 is a par of reyes, 2 + 1 a par of ases; 3-3-12-12 is duples of reyes."""
    assert info("3 12 5 4").pares == 1
    assert info("2 1 5 4").pares == 1
    assert info("3 3 12 12").pares == 3
    # a par of reyes made with a 3 beats a par of caballos
    assert compare(P, "3 12 5 4", "11 11 5 4") == 1
    # 3-3-12-12 (four reyes: duples of reyes) beats 12-12-1-1 (reyes + ases)
    assert compare(P, "3 3 12 12", "12 12 1 1") == 1
    # 2-2-1-1 is four ases: duples of ases, same as 1-1-1-1
    assert compare(P, "2 2 1 1", "1 1 1 1") == 0


def test_s1_reyes8_values():
    """§1 reyes=8: 3 is worth 10, 2 is worth 1 (juego and punto)."""
    assert info("3 3 11 1").total == 31
    assert info("3 3 11 1").juego
    assert info("2 2 12 12").total == 22
    assert info("3 2 7 6").total == 24


def test_s1_reyes4_three_and_two_are_ordinary():
    """§1 reyes=4: 3 and 2 are ordinary cards: ordering 4 > 3 > 2 > as, values 3 and 2."""
    assert compare(G, "3o 7o 6o 5o", "12c 7c 6c 5c", reyes=4) == -1
    assert compare(G, "4 1 1 1", "3 2 2 2", reyes=4) == 1
    assert compare(G, "3 1 1 1", "2 2 2 1", reyes=4) == 1
    assert compare(G, "2 1 1 1", "1 1 1 1", reyes=4) == 1
    assert compare(C, "2 12 12 12", "1 12 12 12", reyes=4) == -1
    assert info("3 3 11 1", reyes=4).total == 17
    assert not info("3 3 11 1", reyes=4).juego
    assert info("2 2 12 12", reyes=4).total == 24
    # no par between a 3 and a rey, or a 2 and an as
    assert info("3 12 5 4", reyes=4).pares == 0
    assert info("2 1 5 4", reyes=4).pares == 0
    # a par of treses is a par of its own rank: below a par of cuatros, above a par of doses
    assert compare(P, "3 3 12 11", "4 4 1 5", reyes=4) == -1
    assert compare(P, "3 3 1 5", "2 2 12 11", reyes=4) == 1


def test_s1_reyes4_same_cards_in_a_hand():
    """§1 reyes=4 in a hand: 3-3-11-1 has a par of treses and 17 (no juego); with reyes=8 the same
    cards are a par of reyes and 31."""
    specs = ["3 3 11 1", "7 6 5 4", "10 6 5 4", "7 6 5 4"]
    h4 = pass_all(cut(make_hand(specs, rules=Rules(reyes=4))))
    h8 = pass_all(cut(make_hand(specs, rules=Rules(reyes=8))))
    assert h4.result()["winners"]["juego"] is None
    assert h4.result()["winners"]["punto"] is not None
    assert h8.result()["winners"]["juego"] == 0
    assert h8.result()["winners"]["punto"] is None


def test_s1_rank_order_at_grande():
    """§1: rey > caballo > sota > 7 > 6 > 5 > 4 > as (reyes=8)."""
    order = ["12", "11", "10", "7", "6", "5", "4", "1"]
    for hi, lo in itertools.pairwise(order):
        assert compare(G, f"{hi} 1 1 1", f"{lo} 1 1 1") == 1, (hi, lo)


def test_s1_suits_never_matter():
    """§1: suits never matter."""
    for lance in Lance:
        assert compare(lance, "12o 11o 10o 1o", "12b 11c 10e 1c") == 0


def test_s1_values():
    """§1: rey, caballo, sota = 10; as = 1; others their number."""
    assert info("12 11 10 1").total == 31
    assert info("7 6 5 4").total == 22
    assert info("1 1 1 1").total == 4
    assert info("12 12 12 12").total == 40


# --- §1 ties: nearest the mano wins -----------------------------------------------------------


@pytest.mark.parametrize(
    ("mano", "tied", "winner"),
    [
        (0, (1, 3), 1),  # mano not involved: seat 1 is nearer seat 0 than seat 3
        (2, (3, 1), 3),  # order 2, 3, 0, 1
        (2, (0, 1), 0),
        (1, (0, 3), 3),  # order 1, 2, 3, 0
        (3, (2, 0), 0),  # order 3, 0, 1, 2
        (0, (0, 2), 0),
    ],
)
def test_s1_ties_go_to_seat_nearest_mano(mano, tied, winner):
    """§1 ties: two equal best hands at Grande and at Chica: the one nearer the mano wins, even
    when the mano is not in the tie."""
    best = {tied[0]: "12o 12c 7o 6o", tied[1]: "12e 12b 7c 6c"}
    other = ["11 10 5 4", "11 10 5 4"]
    specs = [best.get(s) or other.pop() for s in range(4)]
    h = make_hand(specs, mano=mano)
    w = pass_all(cut(h)).result()["winners"]
    assert w["grande"] == winner
    # chica: the tied hands are the lowest ones when they are made of ases
    best = {tied[0]: "1o 1c 4o 5o", tied[1]: "1e 1b 4c 5c"}
    other = ["11 10 6 7", "11 10 6 7"]
    specs = [best.get(s) or other.pop() for s in range(4)]
    w = pass_all(cut(make_hand(specs, mano=mano))).result()["winners"]
    assert w["chica"] == winner


def test_s1_tie_decides_the_pair_that_scores():
    """§1 + §5: mano=1, seats 0 and 3 tie at Grande → seat 3 (order 1, 2, 3, 0) and pair 1 takes
    the point of Grande en paso."""
    specs = ["12o 12c 7o 6o", "11 10 5 4", "11 10 5 4", "12e 12b 7c 6c"]
    h = pass_all(cut(make_hand(specs, mano=1)))
    assert h.result()["winners"]["grande"] == 3
    assert h.ledger[0].lance is Lance.GRANDE
    assert (h.ledger[0].team, h.ledger[0].tantos, h.ledger[0].kind) == (1, 1, "paso")


# --- §3 Grande and Chica ----------------------------------------------------------------------


def test_s3_grande_card_by_card_high_to_low():
    """§3 Grande: sorted high to low, the higher first difference wins."""
    assert compare(G, "12 12 5 4", "12 11 11 11") == 1
    assert compare(G, "12 7 6 5", "12 7 6 4") == 1
    assert compare(G, "11 11 11 11", "12 1 1 1") == -1
    assert compare(G, "5 12 4 12", "12 12 5 1") == 1  # order of dealing does not matter


def test_s3_chica_card_by_card_low_to_high():
    """§3 Chica: sorted low to high, the lower first difference wins."""
    assert compare(C, "1 1 4 12", "1 1 5 6") == 1
    assert compare(C, "1 4 5 6", "4 4 4 4") == 1
    assert compare(C, "1 1 1 12", "1 1 1 11") == -1
    assert compare(C, "6 5 4 1", "1 4 5 7") == 1


# --- §3 Pares ---------------------------------------------------------------------------------


def test_s3_pares_kinds():
    """§3: par = exactly two equal; medias = three; duples = two pairs or four equal."""
    assert info("12 12 5 4").pares == 1
    assert info("12 12 12 4").pares == 2
    assert info("12 12 4 4").pares == 3
    assert info("7 7 7 7").pares == 3
    assert info("12 11 5 4").pares == 0


def test_s3_duples_beat_medias_beat_par():
    """§3 Pares: duples > medias > par, whatever the ranks."""
    assert compare(P, "4 4 5 5", "12 12 12 1") == 1
    assert compare(P, "4 4 4 5", "12 12 11 1") == 1
    assert compare(P, "4 4 5 1", "12 11 10 7") == 1


def test_s3_par_and_medias_by_rank():
    """§3: par vs par and medias vs medias, the higher rank wins; unpaired cards never count."""
    assert compare(P, "12 12 5 4", "11 11 10 7") == 1
    assert compare(P, "10 10 10 1", "7 7 7 12") == 1
    assert compare(P, "5 5 1 4", "4 4 12 11") == 1
    assert compare(P, "12 12 7 5", "12 12 6 4") == 0
    assert compare(P, "7 7 7 12", "7 7 7 1") == 0


def test_s3_four_equal_are_duples_of_that_rank():
    """§3: four equal cards count as two pairs of that rank: 7777 beats 7744, loses to 12-12-1-1."""
    assert compare(P, "7 7 7 7", "7 7 4 4") == 1
    assert compare(P, "7 7 7 7", "12 12 1 1") == -1
    assert compare(P, "7 7 7 7", "7 7 7 12") == 1  # duples beat medias
    assert compare(P, "11 11 11 11", "12 12 1 1") == -1
    assert compare(P, "11 11 11 11", "11 11 10 10") == 1
    assert compare(P, "1 1 1 1", "12 12 12 11") == 1
    assert compare(P, "1 1 1 1", "4 4 1 1") == -1  # ases+ases vs cuatros+ases: higher pair


def test_s3_duples_higher_pair_then_lower_pair():
    """§3: duples vs duples: higher pair, then lower pair (reyes+ases > caballos+caballos >
    caballos+sotas)."""
    assert compare(P, "12 12 1 1", "11 11 11 11") == 1
    assert compare(P, "11 11 11 11", "11 11 10 10") == 1
    assert compare(P, "12 12 4 4", "11 11 10 10") == 1
    assert compare(P, "12 12 5 5", "12 12 4 4") == 1
    assert compare(P, "12 12 5 5", "5 5 12 12") == 0


def test_s3_four_sevens_against_seven_seven_four_four_in_a_hand():
    """§3 in a hand (one deck has only four 7s, so 7777 meets other duples): seat 2's 7777
    beats the mano's 6-6-4-4; the mano's 7777 loses to seat 1's 12-12-1-1."""
    specs = ["6 6 4 4", "11 10 5 1", "7 7 7 7", "11 10 5 1"]
    h = pass_all(cut(make_hand(specs)))
    assert h.result()["winners"]["pares"] == 2
    specs = ["7 7 7 7", "12 12 1 1", "11 10 5 4", "11 10 5 6"]
    h = pass_all(cut(make_hand(specs)))
    assert h.result()["winners"]["pares"] == 1


# --- §3 Juego and Punto -----------------------------------------------------------------------


JUEGO_HANDS = {
    31: "12 11 10 1",
    32: "12 11 5 7",
    40: "12 12 11 10",
    37: "12 11 10 7",
    36: "12 11 10 6",
    35: "12 11 10 5",
    34: "12 11 10 4",
    33: "12 11 7 6",
}


def test_s3_juego_order():
    """§3 Juego: 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33."""
    order = [31, 32, 40, 37, 36, 35, 34, 33]
    for total in order:
        assert info(JUEGO_HANDS[total]).total == total
        assert info(JUEGO_HANDS[total]).juego
    for hi, lo in itertools.pairwise(order):
        assert compare(J, JUEGO_HANDS[hi], JUEGO_HANDS[lo]) == 1, (hi, lo)
    assert compare(J, JUEGO_HANDS[31], JUEGO_HANDS[33]) == 1
    assert compare(J, JUEGO_HANDS[40], JUEGO_HANDS[33]) == 1


def test_s3_juego_is_31_or_more():
    """§3: juego is 31 or more; 4–30 have none."""
    assert info("12 11 10 1").juego
    assert not info("12 11 7 1").juego  # 28
    assert not info("12 12 5 5").juego  # 30


def test_s3_punto_order():
    """§3 Punto: higher total wins: 30 best, down to 4."""
    assert compare(PT, "12 12 5 5", "12 12 5 4") == 1  # 30 > 29
    assert compare(PT, "7 6 5 4", "7 6 5 1") == 1  # 22 > 19
    assert compare(PT, "1 1 1 4", "1 1 1 1") == 1  # 7 > 4
    assert info("1 1 1 1").total == 4


def test_s3_juego_order_in_a_hand():
    """§3 in a hand: seat 3 with 31 beats seat 0 (mano) with 32 and seat 1 with 40."""
    specs = ["12 11 5 7", "12 12 11 10", "7 6 5 4", "12 11 10 1"]
    h = pass_all(cut(make_hand(specs)))
    assert h.result()["winners"]["juego"] == 3
    assert h.result()["winners"]["punto"] is None


def test_s3_punto_in_a_hand():
    """§3: nobody has juego: Punto goes to the highest total (30 at seat 2)."""
    specs = ["12 11 7 1", "11 10 6 1", "12 10 5 5", "7 6 4 1"]
    h = pass_all(cut(make_hand(specs)))
    assert h.result()["winners"]["juego"] is None
    assert h.result()["winners"]["punto"] == 2


# --- §3 la real -------------------------------------------------------------------------------


def test_s3_real_beats_every_31_even_the_mano():
    """§3 [variant real]: 7-7-7-sota beats every other 31, even the mano's."""
    assert compare(J, "7 7 7 10", "12 11 10 1", real=True) == 1
    specs = ["12 11 10 1", "7 7 7 10", "12 11 10 1", "12 11 6 7"]
    h = pass_all(cut(make_hand(specs, rules=Rules(real=True))))
    assert h.result()["winners"]["juego"] == 1
    # its base value is still 3 (§5): pair 1 holds the real (3) and seat 3's 33 (2)
    juego = [s for s in h.ledger if s.lance is Lance.JUEGO]
    assert [(s.team, s.tantos, s.kind) for s in juego] == [(1, 5, "base")]


def test_s3_real_off_is_an_ordinary_31():
    """§3 real off (default): 7-7-7-sota is an ordinary 31; the mano's 31 wins the tie."""
    assert compare(J, "7 7 7 10", "12 11 10 1") == 0
    specs = ["12 11 10 1", "7 7 7 10", "12 11 10 1", "12 11 6 7"]
    h = pass_all(cut(make_hand(specs)))
    assert h.result()["winners"]["juego"] == 0


def test_s3_two_reales_tie():
    """§3 real: between two reales the usual tie rule applies (equal for the lance), whichever
    is compared first; only 7-7-7-sota is la real: 7-7-7-caballo, also 31, is an ordinary one."""
    assert compare(J, "7o 7c 7e 10o", "7o 7c 7b 10c", real=True) == 0
    assert compare(J, "7o 7c 7b 10c", "7o 7c 7e 10o", real=True) == 0
    assert compare(J, "7o 7c 7e 10o", "7o 7c 7b 11c", real=True) == 1
    assert compare(J, "7o 7c 7b 11c", "7o 7c 7e 10o", real=True) == -1
