"""docs/rules.md §4: betting within a lance (who speaks, in which order, what a refusal pays)."""

from __future__ import annotations

import pytest
from helpers_rules import d1, d2, ledger, pass_all, pass_lance, play

from musbot.engine import IllegalAction, NotYourTurn
from musbot.engine.actions import NO_QUIERO, ORDAGO, PASO, QUIERO, envido, mas
from musbot.engine.evaluation import Lance


def to_pares(h):
    pass_lance(h)  # grande
    pass_lance(h)  # chica
    assert h.lance is Lance.PARES
    return h


# --- §4.1 who speaks ---------------------------------------------------------------------------


def test_s4_1_grande_everyone_speaks_in_order_from_mano():
    """§4.1: at Grande all four speak, in playing order from the mano (mano 2: 2, 3, 0, 1)."""
    h = d1(mano=2)
    assert h.lance is Lance.GRANDE
    seen = []
    while h.lance is Lance.GRANDE:
        seen.append(h.to_act)
        h.apply(h.to_act, PASO)
    assert seen == [2, 3, 0, 1]
    assert seen[-1] == h.postre == 1  # the postre (seat before the mano) speaks last
    assert h.lance is Lance.CHICA
    assert h.to_act == 2


def test_s4_1_pares_only_declared_holders_speak():
    """§4.1: at Pares only players who declared sí speak (seats 0, 1, 2; seat 3 has none)."""
    h = to_pares(d2())
    assert h.to_act == 0
    assert h.view(0).speakers == (0, 1, 2)
    assert h.view(0).declarations[Lance.PARES] == (True, True, True, False)
    with pytest.raises(IllegalAction) as refused:
        h.apply(3, PASO)
    assert refused.value.code == "pares_only"
    seen = []
    while h.lance is Lance.PARES:
        seen.append(h.to_act)
        h.apply(h.to_act, PASO)
    assert seen == [0, 1, 2]
    assert h.lance is Lance.JUEGO


def test_s4_1_juego_only_declared_holders_speak():
    """§4.1: at Juego only holders speak; seat 3 (16) may not."""
    h = to_pares(d2())
    pass_lance(h)
    assert h.lance is Lance.JUEGO
    assert h.view(0).speakers == (0, 1, 2)
    with pytest.raises(IllegalAction) as refused:
        h.apply(3, envido())
    assert refused.value.code == "juego_only"
    h.apply(0, envido())
    with pytest.raises(IllegalAction):  # seat 3 cannot answer for pair 1 either
        h.apply(3, QUIERO)


def test_s4_1_non_holder_cannot_answer_at_pares():
    """§4.1 + §4.3: at Pares seat 1 alone answers for pair 1 (seat 3 has no pares): his no quiero
    refuses the bet at once; pair 0 takes 1."""
    h = to_pares(d2())
    h.apply(0, envido())
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.lance is Lance.JUEGO
    assert ledger(h) == [(0, 1, "pares", "deje")]


def test_s4_out_of_turn_is_refused_and_changes_nothing():
    """§4.1: speaking goes in order; out of turn → NotYourTurn naming who speaks, nothing
    changes."""
    h = d1()
    with pytest.raises(NotYourTurn) as refused:
        h.apply(1, envido())
    assert refused.value.params == {"seat": 1, "to_act": 0}
    assert h.to_act == 0
    assert h.standing_bet == 0
    h.apply(0, envido())
    with pytest.raises(NotYourTurn) as refused:
        h.apply(3, QUIERO)
    assert refused.value.params == {"seat": 3, "to_act": 1}
    with pytest.raises(NotYourTurn):
        h.apply(2, QUIERO)  # the bettor's own partner does not answer
    assert h.to_act == 1


# --- §4.2 passing before any bet -------------------------------------------------------------


def test_s4_2_everyone_passes_lance_en_paso():
    """§4.2: if every eligible player passes, the lance is en paso (Grande: 1 to the best hand)."""
    h = d1()
    pass_lance(h)
    assert h.lance is Lance.CHICA
    assert ledger(h) == []  # nothing until the tanteo
    pass_all(h)
    assert (0, 1, "grande", "paso") in ledger(h)


def test_s4_2_players_who_passed_still_answer():
    """§4.2/§4.4: seats 0 and 1 pass, seat 2 bets; seat 3 answers first, then seat 1, who passed
    before the bet and is not eliminated by it."""
    h = d1()
    play(h, (0, PASO), (1, PASO), (2, envido()))
    assert h.to_act == 3
    h.apply(3, NO_QUIERO)
    assert h.to_act == 1
    h.apply(1, QUIERO)
    assert h.lance is Lance.CHICA
    pass_all(h)
    assert ledger(h)[0] == (0, 2, "grande", "apuesta")


# --- §4.3 answering ----------------------------------------------------------------------------


def test_s4_3_answer_starts_with_first_opponent_after_bettor():
    """§4.3: 0 envido → seat 1 answers; no quiero hands the decision to seat 3; quiero binds."""
    h = d1()
    h.apply(0, envido())
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.to_act == 3
    h.apply(3, QUIERO)
    assert h.lance is Lance.CHICA
    assert h.to_act == 0
    pass_all(h)
    assert ledger(h) == [
        (0, 2, "grande", "apuesta"),
        (1, 1, "chica", "paso"),
        (1, 1, "punto", "paso"),
    ]
    assert h.scores == [2, 2]


def test_s4_3_first_answerer_after_bettor_wraps_round():
    """§4.3: seat 3 bets (0, 1, 2 passed): seat 0 answers first, then seat 2."""
    h = d1()
    play(h, (0, PASO), (1, PASO), (2, PASO), (3, envido()))
    assert h.to_act == 0
    h.apply(0, NO_QUIERO)
    assert h.to_act == 2
    h.apply(2, NO_QUIERO)
    assert h.lance is Lance.CHICA
    assert ledger(h) == [(1, 1, "grande", "deje")]


def test_s4_3_quiero_by_first_answerer_binds_the_pair():
    """§4.3: quiero by the first answerer binds his pair; his partner does not speak."""
    h = d1()
    play(h, (0, envido()), (1, QUIERO))
    assert h.lance is Lance.CHICA
    assert h.to_act == 0


def test_s4_3_paso_against_a_bet_is_no_quiero():
    """§4.3: paso against a standing bet eliminates like no quiero; both → refused, 1 to pair 0."""
    h = d1()
    play(h, (0, envido()), (1, PASO))
    assert h.to_act == 3
    h.apply(3, PASO)
    assert h.lance is Lance.CHICA
    assert ledger(h) == [(0, 1, "grande", "deje")]
    assert h.scores == [1, 0]


def test_s4_3_refused_when_no_one_of_the_pair_is_left():
    """§4.3: 1 envido; 2 and 0 say no quiero → refused, pair 1 takes 1 at once."""
    h = d1()
    play(h, (0, PASO), (1, envido()))
    assert h.to_act == 2
    h.apply(2, NO_QUIERO)
    assert h.to_act == 0
    h.apply(0, NO_QUIERO)
    assert h.lance is Lance.CHICA
    assert h.scores == [0, 1]
    assert ledger(h) == [(1, 1, "grande", "deje")]


# --- §4.4 raises -------------------------------------------------------------------------------


def test_s4_4_example_first_branch():
    """§4.4 example: 0 envido; 1 raises; now 2 answers first, then 0 if 2 says no quiero."""
    h = d1()
    play(h, (0, envido()), (1, mas(2)))
    assert h.to_act == 2
    h.apply(2, NO_QUIERO)
    assert h.to_act == 0
    h.apply(0, QUIERO)
    assert h.lance is Lance.CHICA
    pass_all(h)
    assert ledger(h)[0] == (0, 4, "grande", "apuesta")


def test_s4_4_example_second_branch():
    """§4.4 example: if 2 raises again, 3 answers first (then 1)."""
    h = d1()
    play(h, (0, envido()), (1, mas(2)), (2, mas(2)))
    assert h.to_act == 3
    h.apply(3, NO_QUIERO)
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.lance is Lance.CHICA
    assert ledger(h) == [(0, 4, "grande", "deje")]  # 2 + 2 accepted before 2's raise


def test_s4_4_raise_by_second_answerer_binds_and_bettor_partner_answers_first():
    """§4.3–4.4: 1 envido; 2 no quiero; 0 raises (binds pair 0); pair 1 answers from seat 1."""
    h = d1()
    play(h, (0, PASO), (1, envido()), (2, NO_QUIERO), (0, mas(2)))
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.to_act == 3
    h.apply(3, NO_QUIERO)
    assert ledger(h) == [(0, 2, "grande", "deje")]


def test_s4_4_eliminated_player_stays_out():
    """§4.3–4.4: 0 envido; 1 no quiero (eliminated); 3 raises; 0 answers first and raises; pair 1
    answers with seat 3 only; his no quiero refuses: pair 0 takes 4."""
    h = d1()
    play(h, (0, envido()), (1, NO_QUIERO), (3, mas(2)))
    assert h.to_act == 0
    h.apply(0, mas(2))
    assert h.to_act == 3
    with pytest.raises(NotYourTurn):
        h.apply(1, QUIERO)
    h.apply(3, NO_QUIERO)
    assert h.lance is Lance.CHICA
    assert ledger(h) == [(0, 4, "grande", "deje")]


def test_s4_raise_adds_to_the_standing_total():
    """§4: while a bet stands, «envido» is 2 más and «envido N» is N más: 2 + 5 = 7."""
    h = d1()
    play(h, (0, envido()), (1, envido(5)))
    assert h.standing_bet == 7
    h.apply(2, envido())
    assert h.standing_bet == 9
    h.apply(3, QUIERO)
    pass_all(h)
    assert ledger(h)[0] == (0, 9, "grande", "apuesta")


def test_s4_bet_minimum_and_raise_needs_a_bet():
    """§4: envido N and N más need N ≥ 2; a raise or an answer needs a standing bet."""
    h = d1()
    with pytest.raises(IllegalAction):
        h.apply(0, envido(1))
    with pytest.raises(IllegalAction):
        h.apply(0, mas(2))
    with pytest.raises(IllegalAction):
        h.apply(0, QUIERO)
    with pytest.raises(IllegalAction):
        h.apply(0, NO_QUIERO)
    h.apply(0, envido(3))
    with pytest.raises(IllegalAction):
        h.apply(1, mas(1))
    h.apply(1, QUIERO)
    pass_all(h)
    assert ledger(h)[0] == (0, 3, "grande", "apuesta")


def test_s4_nothing_raises_an_ordago():
    """§4: nothing can raise an órdago: only quiero or no quiero."""
    h = d1()
    h.apply(0, ORDAGO)
    for action in (mas(2), envido(), envido(10), ORDAGO):
        with pytest.raises(IllegalAction):
            h.apply(1, action)
    assert set(h.legal_actions(1)) == {QUIERO, NO_QUIERO}


# --- §4.5 refused bets --------------------------------------------------------------------------


def test_s4_5_refused_first_bet_pays_1():
    """§4.5: a refused first bet pays 1 (envido 5 refused → 1)."""
    h = d1()
    play(h, (0, envido(5)), (1, NO_QUIERO), (3, NO_QUIERO))
    assert ledger(h) == [(0, 1, "grande", "deje")]


@pytest.mark.parametrize("envido_mas", [mas(2), envido()])
def test_s4_5_example_no_quiero_after_several_raises(envido_mas):
    """§4.5 example: envido (2), 3 más (5), envido más (7), no quiero → the raiser's pair
    takes 5."""
    h = d1()
    play(h, (0, envido()), (1, mas(3)), (2, envido_mas))
    assert h.to_act == 3
    play(h, (3, NO_QUIERO), (1, NO_QUIERO))
    assert ledger(h) == [(0, 5, "grande", "deje")]
    assert h.scores == [5, 0]
    assert h.lance is Lance.CHICA


def test_s4_5_ordago_refused_as_first_bet_pays_1():
    """§4.5: an órdago refused as the first bet → 1."""
    h = d1()
    play(h, (0, ORDAGO), (1, NO_QUIERO), (3, NO_QUIERO))
    assert ledger(h) == [(0, 1, "grande", "deje")]
    assert h.game_winner is None
    assert h.lance is Lance.CHICA


def test_s4_5_ordago_refused_over_standing_2_pays_2():
    """§4.5: an órdago refused over a standing 2 → 2."""
    h = d1()
    play(h, (0, envido()), (1, ORDAGO), (2, NO_QUIERO), (0, NO_QUIERO))
    assert ledger(h) == [(1, 2, "grande", "deje")]
    assert h.scores == [0, 2]


def test_s4_5_ordago_refused_over_raises_pays_the_standing_total():
    """§4.5: envido (2), 3 más (5), órdago refused → 5."""
    h = d1()
    play(h, (0, envido()), (1, mas(3)), (2, ORDAGO), (3, NO_QUIERO), (1, NO_QUIERO))
    assert ledger(h) == [(0, 5, "grande", "deje")]


# --- §4.6 accepted bets; §4.8 the cards decide --------------------------------------------------


def test_s4_6_accepted_bet_is_resolved_at_the_showdown_by_the_cards():
    """§4.6 + §4.8: at Chica 0 envido, 1 quiero: nothing is scored yet; at the tanteo the bet goes
    to seat 3's pair (best chica), though seat 3 never spoke in that lance."""
    h = d1()
    pass_lance(h)
    play(h, (0, envido()), (1, QUIERO))
    assert h.lance is Lance.PUNTO
    assert ledger(h) == []
    pass_all(h)
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 2, "chica", "apuesta"),
        (1, 1, "punto", "paso"),
    ]
    assert h.scores == [1, 3]


def test_s4_8_bettor_with_worse_cards_loses_the_bet():
    """§4.8: pair 1 bets at Grande and pair 0 accepts: seat 0 holds the best grande, pair 0 wins."""
    h = d1()
    play(h, (0, PASO), (1, envido(4)), (2, QUIERO))
    pass_all(h)
    assert ledger(h)[0] == (0, 4, "grande", "apuesta")


# --- §4.7 órdago ----------------------------------------------------------------------------------


def test_s4_7_accepted_ordago_wins_the_game_for_the_best_hand():
    """§4.7: pair 1 calls órdago at Grande, pair 0 accepts: seat 0 has the best grande, so pair 0
    wins the game outright; the scores stay as before (10–20)."""
    h = d1(scores=(10, 20))
    play(h, (0, PASO), (1, ORDAGO), (2, QUIERO))
    assert h.finished
    assert h.game_winner == 0
    assert h.scores == [10, 20]
    assert ledger(h) == [(0, 0, "grande", "ordago")]
    assert h.view(3).revealed is not None  # all hands are shown


def test_s4_7_accepted_ordago_keeps_earlier_dejes():
    """§4.7 + docs/replay.md: the score after an órdago is as it stood before it (deje included)."""
    h = d1()
    play(h, (0, envido()), (1, NO_QUIERO), (3, NO_QUIERO))  # grande: pair 0 takes 1
    play(h, (0, ORDAGO), (1, QUIERO))  # chica: seat 3 holds the best chica
    assert h.finished
    assert h.game_winner == 1
    assert h.scores == [1, 0]
    assert ledger(h) == [(0, 1, "grande", "deje"), (1, 0, "chica", "ordago")]


def test_s4_7_accepted_ordago_ignores_the_score():
    """§4.7: whatever the score: pair 1 at 0 wins against pair 0 at 39 (punto: seat 1 has 30)."""
    h = d1(scores=(39, 0))
    pass_lance(h)
    pass_lance(h)
    assert h.lance is Lance.PUNTO
    play(h, (0, ORDAGO), (1, QUIERO))
    assert h.game_winner == 1
    assert h.scores == [39, 0]


def test_s4_7_bet_of_40_is_not_an_ordago():
    """§4.7: a plain bet of 40 is scored at the end like any other bet; the hand goes on."""
    h = d1()
    play(h, (0, envido(40)), (1, QUIERO))
    assert not h.finished
    assert h.game_winner is None
    assert h.lance is Lance.CHICA
    pass_all(h)
    assert ledger(h) == [(0, 40, "grande", "apuesta")]
    assert h.game_winner == 0
    assert h.scores == [40, 0]
