"""docs/rules.md §3 (declarations, lances without betting) and §5 (the tanteo: what each lance
scores, in which order, and the game ending at the target)."""

from __future__ import annotations

import pytest
from helpers_rules import D2, cut, d1, d2, ledger, make_hand, pass_all, pass_lance, play

from musbot.engine import IllegalAction, Rules
from musbot.engine import events as ev
from musbot.engine.actions import NO_QUIERO, ORDAGO, PASO, QUIERO, envido
from musbot.engine.evaluation import Lance

# --- §3 declarations and lances without betting ------------------------------------------------


def test_s3_declarations_are_made_for_everyone_truthfully():
    """§3: before Pares and Juego every player's sí/no is declared, truthfully, and shown."""
    h = d2(mano=2)
    pass_lance(h)
    pass_lance(h)
    assert h.lance is Lance.PARES
    for seat in range(4):
        assert h.view(seat).declarations[Lance.PARES] == (True, True, True, False)
    assert h.view(2).speakers == (2, 0, 1)  # in order from the mano (seat 2)
    pass_lance(h)
    assert h.lance is Lance.JUEGO
    for seat in range(4):
        assert h.view(seat).declarations[Lance.JUEGO] == (True, True, True, False)
    assert h.view(2).speakers == (2, 0, 1)


def test_s3_nobody_has_pares_lance_skipped_and_punto_played():
    """§3: nobody has pares → Pares skipped; nobody has juego → Punto, betting among all four."""
    h = d1()
    pass_lance(h)
    pass_lance(h)
    assert h.lance is Lance.PUNTO
    assert h.to_act == 0
    assert h.view(0).speakers == (0, 1, 2, 3)
    assert ev.LanceWithoutBetting(Lance.PARES, None) in h.events
    seen = []
    while not h.finished:
        seen.append(h.to_act)
        h.apply(h.to_act, PASO)
    assert seen == [0, 1, 2, 3]


def test_s3_only_one_pair_with_pares_no_betting_base_at_tanteo():
    """§3: only pair 1 has pares (seat 1 par, seat 3 medias): no betting; pair 1 scores 1 + 2 = 3
    at the tanteo. Then Punto (nobody has juego)."""
    specs = ["12 11 7 1", "10 10 6 4", "11 7 5 1", "6 6 6 1"]
    # Grande seat 0 (pair 0); Chica seat 2 (A 5 7 C, pair 0); Punto seat 1 (30, pair 1).
    h = cut(make_hand(specs))
    pass_lance(h)
    pass_lance(h)
    assert h.lance is Lance.PUNTO
    assert ev.LanceWithoutBetting(Lance.PARES, 1) in h.events
    pass_lance(h)
    assert h.finished
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (0, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
        (1, 1, "punto", "paso"),
    ]
    assert h.scores == [2, 4]


def test_s3_only_one_pair_with_juego_no_betting_base_at_tanteo():
    """§3: nobody has pares and only pair 0 has juego (31 + 35): no betting at all after Chica;
    pair 0 scores 3 + 2 = 5 at the tanteo."""
    specs = ["12 11 10 1", "7 6 5 4", "12 11 10 5", "7 6 4 1"]
    # Grande seat 2 (R C S 5), Chica seat 3 (A 4 6 7).
    h = cut(make_hand(specs))
    pass_lance(h)
    pass_lance(h)
    assert h.finished
    assert ev.LanceWithoutBetting(Lance.JUEGO, 0) in h.events
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (0, 5, "juego", "base"),
    ]
    assert h.result()["winners"]["punto"] is None


def test_s3_only_one_pair_with_pares_nobody_may_bet_there():
    """§3: when only one pair has pares there is no Pares betting: after Chica it is Juego."""
    specs = ["12 12 11 1", "7 6 5 4", "7 7 10 10", "11 10 6 5"]
    # pares: seats 0 and 2 (pair 0) only. juego: seat 0 (31), seat 1 (22 no), seat 2 (34),
    # seat 3 (31): both pairs → Juego is bet.
    h = cut(make_hand(specs))
    pass_lance(h)
    pass_lance(h)
    assert h.lance is Lance.JUEGO
    assert h.view(0).speakers == (0, 2, 3)
    with pytest.raises(IllegalAction):
        h.apply(1, envido())


# --- §5 the tanteo -----------------------------------------------------------------------------


def test_s5_all_pass_base_values_summed_over_both_partners():
    """§5: everyone passes: Grande 1, Chica 1, Pares base of the winning pair (seat 1 duples 3),
    Juego base of the winning pair summed over both partners (31 + 31 = 3 + 3)."""
    h = pass_all(d2())
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
        (0, 6, "juego", "base"),
    ]
    assert h.scores == [7, 4]
    assert h.game_winner is None


def test_s5_pares_base_summed_over_both_partners():
    """§5: pares base summed over both partners: seat 1 duples (3) + seat 3 par (1) = 4."""
    specs = ["12 12 11 1", "11 11 10 10", "7 7 7 10", "5 5 4 6"]
    # Chica: seat 0 (A C R R) beats seat 3 (4 5 5 6).
    h = pass_all(cut(make_hand(specs)))
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (0, 1, "chica", "paso"),
        (1, 4, "pares", "base"),
        (0, 6, "juego", "base"),
    ]


def test_s5_base_values_medias_duples_juego():
    """§5: par 1, medias 2, duples 3, juego 31 = 3, other juego = 2 (pair 0 scores everything)."""
    specs = ["12 12 12 1", "7 6 5 4", "11 11 10 10", "7 6 5 1"]
    # pair 0: medias (2) + duples (3) = 5; juego 31 (3) + 40 (2) = 5; pair 1 nothing.
    h = pass_all(cut(make_hand(specs)))
    assert (0, 5, "pares", "base") in ledger(h)
    assert (0, 5, "juego", "base") in ledger(h)


def test_s5_punto_en_paso_pays_1():
    """§5 Punto en paso: 1 to the best punto (seat 1, pair 1)."""
    h = pass_all(d1())
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 1, "punto", "paso"),
    ]
    assert h.scores == [1, 2]


def test_s5_punto_accepted_bet_pays_bet_plus_1():
    """§5 Punto accepted: the bet + 1."""
    h = d1()
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido()), (1, QUIERO))
    assert h.finished
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 2, "punto", "apuesta"),
        (1, 1, "punto", "punto"),
    ]
    assert h.scores == [1, 4]


def test_s5_punto_deje_pays_1_now_and_1_more_at_the_end():
    """§5 Punto won by a deje: 1 at once and 1 more at the end, to the deje winner (pair 0), even
    though seat 1 (pair 1) holds the best punto."""
    h = d1()
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido()), (1, NO_QUIERO), (3, NO_QUIERO))
    assert ledger(h) == [
        (0, 1, "punto", "deje"),
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (0, 1, "punto", "punto"),
    ]
    assert h.scores == [3, 1]


def test_s5_grande_deje_nothing_more():
    """§5 Grande won by a deje: nothing more at the tanteo."""
    h = d1()
    play(h, (0, PASO), (1, envido()), (2, NO_QUIERO), (0, NO_QUIERO))
    pass_all(h)
    assert ledger(h) == [
        (1, 1, "grande", "deje"),
        (1, 1, "chica", "paso"),
        (1, 1, "punto", "paso"),
    ]


def test_s5_dejes_are_scored_the_moment_they_happen():
    """§5: a deje is scored at once, before the hand ends."""
    h = d1()
    play(h, (0, envido()), (1, NO_QUIERO), (3, NO_QUIERO))
    assert not h.finished
    assert h.scores == [1, 0]
    assert h.view(2).scores == (1, 0)


def test_s5_pares_deje_winner_scores_base_with_worse_cards():
    """§5 Pares won by a deje: base values of the deje winner's pair (par 1 + medias 2), however
    bad their cards (seat 1's duples are better)."""
    h = d2()
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido()), (1, NO_QUIERO))
    pass_all(h)
    assert ledger(h) == [
        (0, 1, "pares", "deje"),
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (0, 3, "pares", "base"),
        (0, 6, "juego", "base"),
    ]
    assert h.scores == [11, 1]


def test_s5_pares_accepted_bet_plus_base():
    """§5 Pares accepted: the bet + base values of the winning pair (seat 1's duples: 2 + 3)."""
    h = d2()
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido()), (1, QUIERO))
    pass_all(h)
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 2, "pares", "apuesta"),
        (1, 3, "pares", "base"),
        (0, 6, "juego", "base"),
    ]


def test_s5_juego_accepted_bet_plus_base():
    """§5 Juego accepted: the bet + base values (pair 0: 2 + 6)."""
    h = d2()
    pass_lance(h)
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido()), (1, QUIERO))
    assert h.finished
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
        (0, 2, "juego", "apuesta"),
        (0, 6, "juego", "base"),
    ]
    assert h.scores == [9, 4]


def test_s5_juego_deje_winner_scores_own_base():
    """§5 Juego won by a deje: base values of the deje winner's pair (seat 1's 40 = 2), though
    pair 0 holds the better juego."""
    h = d2()
    pass_lance(h)
    pass_lance(h)
    pass_lance(h)
    play(h, (0, PASO), (1, envido()), (2, NO_QUIERO), (0, NO_QUIERO))
    assert h.finished
    assert ledger(h) == [
        (1, 1, "juego", "deje"),
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
        (1, 2, "juego", "base"),
    ]
    assert h.scores == [1, 7]


def test_s5_grande_and_chica_accepted_bets():
    """§5: Grande and Chica accepted: the bet to the best hand, no extra point."""
    h = d1()
    play(h, (0, envido(3)), (1, QUIERO))
    play(h, (0, envido()), (1, envido()), (2, QUIERO))
    pass_all(h)
    assert ledger(h) == [
        (0, 3, "grande", "apuesta"),
        (1, 4, "chica", "apuesta"),
        (1, 1, "punto", "paso"),
    ]


# --- §5 the game ends at the target ------------------------------------------------------------


def test_s5_target_reached_mid_tanteo_stops_scoring():
    """§5: 39–38: Grande en paso gives pair 0 its 40th point first; nothing after is added, though
    pair 1 would have got 1 + 3 more. The winner is who got there first."""
    h = pass_all(d2(scores=(39, 38)))
    assert ledger(h) == [(0, 1, "grande", "paso")]
    assert h.scores == [40, 38]
    assert h.game_winner == 0


def test_s5_scores_may_pass_the_target_by_that_steps_amount():
    """§5 + docs/replay.md: 30–38: grande 31–38, chica 31–39, pares base 3 → 31–42: game to pair 1;
    the juego base (6 to pair 0) is not added."""
    h = pass_all(d2(scores=(30, 38)))
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
    ]
    assert h.scores == [31, 42]
    assert h.game_winner == 1


def test_s5_bet_reaches_target_before_base_values():
    """§5: each lance adds its bet first, then its base values: from 0–36, grande 1–36, chica 1–37,
    the accepted pares bet of 3 → 1–40 ends the game before the pares base values."""
    h = d2(scores=(0, 36))
    pass_lance(h)
    pass_lance(h)
    play(h, (0, envido(3)), (1, QUIERO))
    pass_all(h)
    # grande 1–36, chica 1–37, pares bet 3 → 1–40: game over before the pares base.
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "apuesta"),
    ]
    assert h.scores == [1, 40]
    assert h.game_winner == 1


def test_s5_deje_reaching_target_ends_the_game_mid_hand():
    """§5: a deje that reaches the target ends the game at once, mid-hand."""
    h = d1(scores=(0, 39))
    play(h, (0, PASO), (1, envido()), (2, NO_QUIERO), (0, NO_QUIERO))
    assert h.finished
    assert h.game_winner == 1
    assert h.scores == [0, 40]
    assert ledger(h) == [(1, 1, "grande", "deje")]
    assert h.to_act is None
    with pytest.raises(IllegalAction):
        h.apply(0, PASO)


def test_s5_target_variant_30():
    """§5 [variant puntos]: with puntos=30, 29–0 and Grande en paso to pair 0 ends the game."""
    h = pass_all(cut(make_hand(D2, scores=(29, 0), rules=Rules(puntos=30))))
    assert ledger(h) == [(0, 1, "grande", "paso")]
    assert h.game_winner == 0


def test_s5_default_target_is_40():
    """§5: puntos = 40 by default: from 33–0 the game ends at the juego base (34 + 6 = 40)."""
    assert Rules().puntos == 40
    h = pass_all(d2(scores=(33, 0)))
    # 33 + 1 (grande) = 34; + 6 (juego) = 40 → game over at the juego base.
    assert h.game_winner == 0
    assert h.scores == [40, 4]


# --- §1 ties at Pares, Juego and Punto decide the pair that scores ------------------------------


@pytest.mark.parametrize(("mano", "pair"), [(0, 0), (1, 1), (2, 0), (3, 0)])
def test_s1_pares_tie_between_pairs_goes_nearest_mano(mano, pair):
    """§1 + §5: seats 0 and 1 both hold a par of cincos: the one nearer the mano takes the pares
    base (1); only with mano 1 (order 1, 2, 3, 0) is it seat 1."""
    specs = ["5 5 1 4", "5 5 1 6", "12 11 7 1", "10 7 6 4"]
    h = pass_all(cut(make_hand(specs, mano=mano)))
    assert h.result()["winners"]["pares"] == (1 if pair else 0)
    assert (pair, 1, "pares", "base") in ledger(h)


@pytest.mark.parametrize(("mano", "pair"), [(0, 0), (1, 1), (2, 1), (3, 1)])
def test_s1_juego_tie_between_pairs_goes_nearest_mano(mano, pair):
    """§1 + §5: seats 0 and 3 both hold 31: the nearer to the mano takes the juego base (3)."""
    specs = ["12 11 10 1", "7 6 5 4", "7 6 5 4", "12 11 10 1"]
    h = pass_all(cut(make_hand(specs, mano=mano)))
    assert h.result()["winners"]["juego"] == (3 if pair else 0)
    assert ledger(h)[-1] == (pair, 3, "juego", "base")


@pytest.mark.parametrize(("mano", "pair"), [(0, 0), (1, 1), (2, 0), (3, 0)])
def test_s1_punto_tie_between_pairs_goes_nearest_mano(mano, pair):
    """§1 + §5: seats 0 and 1 both hold 30 (no juego anywhere): the nearer to the mano takes
    the point of Punto en paso."""
    specs = ["12 11 6 4", "12 11 6 4", "7 5 4 1", "7 6 5 1"]
    h = pass_all(cut(make_hand(specs, mano=mano)))
    assert h.result()["winners"]["punto"] == (1 if pair else 0)
    assert ledger(h)[-1] == (pair, 1, "punto", "paso")


# --- §4.7 órdago at the other lances ---------------------------------------------------------


def test_s4_7_ordago_at_pares_best_pares_wins_the_game():
    """§4.7: órdago at Pares accepted: seat 1's duples win the game for pair 1."""
    h = d2(scores=(30, 5))
    pass_lance(h)
    pass_lance(h)
    play(h, (0, ORDAGO), (1, QUIERO))
    assert h.game_winner == 1
    assert h.scores == [30, 5]
    assert ledger(h) == [(1, 0, "pares", "ordago")]


def test_s4_7_ordago_at_juego_best_juego_wins_the_game():
    """§4.7: órdago at Juego (called by pair 1, holding 40) accepted: seat 0's 31 wins."""
    h = d2()
    pass_lance(h)
    pass_lance(h)
    pass_lance(h)
    play(h, (0, PASO), (1, ORDAGO), (2, QUIERO))
    assert h.game_winner == 0
    assert ledger(h) == [(0, 0, "juego", "ordago")]


def test_s4_7_ordago_over_a_bet_accepted():
    """§4.7: an órdago over a standing bet, accepted: the best grande (seat 0) wins the game for
    pair 0 though pair 1 called it."""
    h = d1()
    play(h, (0, envido()), (1, ORDAGO), (2, QUIERO))
    assert h.finished
    assert h.game_winner == 0
    assert h.scores == [0, 0]
