"""docs/rules.md §1 (mano moves on), §2 (mus corrido in a match) and §6 (games, vacas, partida)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from helpers_rules import cards

from musbot.engine import DECK, IllegalAction, Match, Rules, seeded_shuffler
from musbot.engine import events as ev
from musbot.engine.actions import MUS, NO_HAY_MUS, ORDAGO, PASO, QUIERO

# A rigged deck: dealt one card at a time from the mano (§2), the mano gets four reyes, the next
# seat 7-6-5-4, the mano's partner four ases, the last seat 7-6-5-4. All passing, the mano's pair
# takes Grande 1, Chica 1 (four ases), Pares 3 + 3 (only that pair has pares: no betting) and
# Juego 2 (only the mano has juego: 40): 10 tantos a hand.
_RELATIVE = [cards("12o 12c 12e 12b"), cards("7o 6o 5o 4o"), cards("1o 1c 1e 1b"),
             cards("7c 6c 5c 4c")]
_RIGGED = [_RELATIVE[k % 4][k // 4] for k in range(16)]
_RIGGED += [card for card in DECK if card not in _RIGGED]


def rigged(pool: Sequence[int]) -> list[int]:
    """Shuffler: a full deck comes out rigged; a reshuffle keeps its order."""
    return list(_RIGGED) if len(pool) == 40 else list(pool)


def play_hand_passing(m: Match) -> None:
    """The mano cuts and everyone passes every lance, until the hand ends."""
    number = m.hand_number
    m.apply(m.to_act, NO_HAY_MUS)  # type: ignore[arg-type]
    while m.hand_number == number and not m.finished:
        m.apply(m.to_act, PASO)  # type: ignore[arg-type]


def play_hand_ordago(m: Match) -> int:
    """The mano cuts, calls órdago at Grande, the next seat accepts: the mano's pair wins."""
    mano = m.hand.mano
    m.apply(mano, NO_HAY_MUS)
    m.apply(mano, ORDAGO)
    m.apply((mano + 1) % m.n, QUIERO)
    return mano % 2


def test_s2_rigged_deal_is_dealt_from_the_mano():
    """§2 (dealing one card at a time from the mano) checks the rigged deck used below."""
    m = Match(Rules(), first_mano=2, shuffler=rigged)
    assert set(m.hand.view(2).cards) == set(cards("12o 12c 12e 12b"))
    assert set(m.hand.view(0).cards) == set(cards("1o 1c 1e 1b"))


def test_s1_mano_moves_to_the_next_seat_after_each_hand():
    """§1: after each hand the mano moves to the next seat; scores carry over between hands."""
    m = Match(Rules(), first_mano=1, shuffler=seeded_shuffler(7))
    manos = []
    for _ in range(5):
        manos.append(m.hand.mano)
        play_hand_passing(m)
        if m.games == [0, 0]:
            assert m.hand.initial_scores == tuple(m.scores)
    assert manos == [1, 2, 3, 0, 1]


def test_s1_first_mano_of_a_match_is_random():
    """§1: the first mano of a match is random (all four seats come up)."""
    seen = {Match(Rules()).hand.mano for _ in range(200)}
    assert seen == {0, 1, 2, 3}


def test_s6_scores_carry_over_then_reset_after_a_game():
    """§6: a game is won by reaching the target; scores then reset to 0–0. The rigged deck gives
    10 to the mano's pair each hand: 10–0, 10–10, 20–10, 20–20, 30–20, 30–30, then 40 → game."""
    m = Match(Rules(), first_mano=0, shuffler=rigged)
    expected = [[10, 0], [10, 10], [20, 10], [20, 20], [30, 20], [30, 30]]
    for scores in expected:
        play_hand_passing(m)
        assert m.scores == scores
        assert m.hand.initial_scores == tuple(scores)
        assert m.games == [0, 0]
    play_hand_passing(m)
    assert m.games == [1, 0]
    assert m.scores == [0, 0]
    assert m.hand.initial_scores == (0, 0)
    assert m.hand.mano == 3  # the mano still moves on after a game


def test_s6_games_make_a_vaca_and_the_partida():
    """§6: juegos=3 (default): the first pair to win 3 games wins a vaca; vacas=1 (default): that
    wins the partida. Mano 0, 1, 2, 3, 0 wins games for pairs 0, 1, 0, 1, 0."""
    m = Match(Rules(puntos=10), first_mano=0, shuffler=rigged)
    assert Rules().juegos == 3 and Rules().vacas == 1
    history = []
    told = []
    for _ in range(4):
        hand = m.hand
        play_hand_passing(m)
        told += [e.games for e in hand.events if isinstance(e, ev.GameWon)]
        history.append(list(m.games))
        assert m.scores == [0, 0]
    assert history == [[1, 0], [1, 1], [2, 1], [2, 2]]
    assert not m.finished
    hand = m.hand
    play_hand_passing(m)
    assert m.vacas == [1, 0]
    # Each won game tells the count with it, the one that wins the vaca too (then reset).
    told += [e.games for e in hand.events if isinstance(e, ev.GameWon)]
    assert told == [(1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
    assert m.games == [0, 0]
    assert m.finished
    assert m.winner == 0
    assert m.to_act is None
    with pytest.raises(IllegalAction):
        m.apply(0, MUS)


def test_s6_accepted_ordago_wins_a_game_and_vacas_variant():
    """§6: an accepted órdago wins a game; [variant] juegos=1, vacas=2: pair 0 wins vacas in
    hands 1 and 3, pair 1 in hand 2; the partida ends 2–1 with games reset after each vaca."""
    m = Match(Rules(juegos=1, vacas=2), first_mano=0, shuffler=rigged)
    assert play_hand_ordago(m) == 0
    assert m.vacas == [1, 0]
    assert m.games == [0, 0]
    assert not m.finished
    assert play_hand_ordago(m) == 1
    assert m.vacas == [1, 1]
    events = []
    mano = m.hand.mano
    events += m.apply(mano, NO_HAY_MUS)
    events += m.apply(mano, ORDAGO)
    events += m.apply((mano + 1) % 4, QUIERO)
    assert m.vacas == [2, 1]
    assert m.winner == 0
    assert ev.VacaWon(0, (2, 1)) in events
    assert ev.MatchWon(0) in events


def test_s6_ordago_game_keeps_games_count():
    """§6: games won by an accepted órdago count like any other: manos 0, 1, 2 win them for
    pairs 0, 1, 0: games 2–1, scores 0–0."""
    m = Match(Rules(), first_mano=0, shuffler=rigged)
    play_hand_ordago(m)
    play_hand_ordago(m)
    play_hand_ordago(m)
    assert m.games == [2, 1]
    assert m.scores == [0, 0]


# --- mus corrido in a match -------------------------------------------------------------------


def test_s2_corrido_only_the_first_hand_of_each_game():
    """§2 [mus corrido]: only the first hand of each game is corrido."""
    m = Match(Rules(mus_corrido=True), first_mano=0, shuffler=rigged)
    assert m.hand.corrido
    play_hand_passing(m)  # the mano cuts: 10–0, no game yet
    assert m.games == [0, 0]
    assert not m.hand.corrido
    play_hand_ordago(m)  # game to pair 1 (mano 1)
    assert m.games == [0, 1]
    assert m.hand.corrido  # a new game: corrido again
    play_hand_passing(m)
    assert not m.hand.corrido


def test_s2_corrido_off_by_default_in_a_match():
    """§2: mus corrido is off by default: the first cutter does not become mano."""
    m = Match(Rules(), first_mano=0, shuffler=rigged)
    assert not m.hand.corrido
    m.apply(0, MUS)
    m.apply(1, NO_HAY_MUS)
    assert m.hand.mano == 0
    assert m.to_act == 0


def test_s2_corrido_in_a_match_cutter_becomes_mano():
    """§2 [mus corrido]: in the first hand of a game, the first to cut becomes the mano."""
    m = Match(Rules(mus_corrido=True), first_mano=0, shuffler=rigged)
    m.apply(0, MUS)
    m.apply(1, NO_HAY_MUS)
    assert m.hand.mano == 1
    assert m.to_act == 1
