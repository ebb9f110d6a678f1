"""docs/rules.md §8: individual (2 players) and trios (6 players, teams 0-2-4 vs 1-3-5,
target 50)."""

from __future__ import annotations

import pytest
from helpers_rules import cut, ledger, make_hand, pass_all, pass_lance, play

from musbot.engine import IllegalAction, InvalidDeal, Match, Rules, seeded_shuffler
from musbot.engine.actions import MUS, NO_HAY_MUS, NO_QUIERO, PASO, QUIERO, descarte, envido
from musbot.engine.evaluation import Lance
from musbot.engine.hand import Phase

# --- individual ------------------------------------------------------------------------------

# Seat 0: R R C A (par, 31). Seat 1: 7 7 7 S (medias, 31).
# Grande seat 0; Chica seat 0 (A first); Pares seat 1 (medias 2, own only); Juego seat 0 (31, mano).
SOLO = ["12 12 11 1", "7 7 7 10"]


def test_s8_individual_all_pass_base_values_only_own():
    """§8 individual: all rules with pairs of one; base values only the player's own."""
    h = pass_all(cut(make_hand(SOLO, rules=Rules(jugadores=2))))
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (0, 1, "chica", "paso"),
        (1, 2, "pares", "base"),
        (0, 3, "juego", "base"),
    ]
    assert h.scores == [5, 2]


def test_s8_individual_no_quiero_refuses_at_once():
    """§8 + §4.3: a pair of one: the opponent's no quiero refuses the bet at once."""
    h = cut(make_hand(SOLO, rules=Rules(jugadores=2)))
    h.apply(0, envido())
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.lance is Lance.CHICA
    assert ledger(h) == [(0, 1, "grande", "deje")]


def test_s8_individual_turns_and_mus():
    """§8 individual: mano 1 speaks first; both mus → discards from the mano."""
    h = make_hand(SOLO, "4o 4c", mano=1, rules=Rules(jugadores=2))
    assert h.to_act == 1
    h.apply(1, MUS)
    h.apply(0, MUS)
    assert h.phase is Phase.DESCARTE
    assert h.to_act == 1
    h.apply(1, descarte(h.view(1).cards[0]))
    h.apply(0, descarte(h.view(0).cards[0]))
    assert h.to_act == 1
    assert h.phase is Phase.MUS
    assert len(set(h.view(1).cards) | set(h.view(0).cards)) == 8


def test_s8_individual_ties_go_to_the_mano():
    """§8 + §1: mano 1; both hands equal at Grande: seat 1 wins."""
    h = pass_all(cut(make_hand(["12 11 5 4", "12 11 5 4"], mano=1, rules=Rules(jugadores=2))))
    assert h.result()["winners"]["grande"] == 1
    assert ledger(h)[0] == (1, 1, "grande", "paso")


def test_s8_player_count_must_match_the_rules():
    """§8: the number of hands is the table's number of players."""
    with pytest.raises(InvalidDeal):
        make_hand(SOLO, rules=Rules())


# --- trios ----------------------------------------------------------------------------------

# mano 0. Team 0 = seats 0, 2, 4; team 1 = seats 1, 3, 5.
#   0: R R C A   par (1), 31 (3)       1: C C S S  duples (3), 40 (2)
#   2: 7 7 7 S   medias (2), 31 (3)    3: A 4 5 6  nothing, 16
#   4: R C S A   nothing, 31 (3)       5: A 4 5 6  nothing, 16
# Grande seat 0 (team 0). Chica: seats 3 and 5 tie, seat 3 (team 1). Pares: seat 1 (team 1,
# base 3). Juego: 31s at 0, 2, 4: seat 0 (team 0), base summed over the team 3 + 3 + 3 = 9.
TRIOS = ["12 12 11 1", "11 11 10 10", "7 7 7 10", "5 4 6 1", "12 11 10 1", "6 5 4 1"]


def trios(**kw):
    return cut(make_hand(TRIOS, rules=Rules.for_players(6), **kw))


def test_s8_trios_default_target_is_50():
    """§8 trios: target 50 by default."""
    assert Rules.for_players(6).puntos == 50
    assert Rules.for_players(6).jugadores == 6
    assert Rules.for_players(6, puntos=40).puntos == 40


def test_s8_a_table_turned_into_trios_gets_their_target():
    """§8 through :meth:`Rules.with_`, as ``/mus mesa jugadores:6`` asks it: 50 unless the
    target is chosen too; no other change moves the target."""
    assert Rules().with_(jugadores=6).puntos == 50
    assert Rules(puntos=30).with_(jugadores=6).puntos == 50
    assert Rules().with_(jugadores=6, puntos=30).puntos == 30
    trios = Rules.for_players(6, puntos=45)
    assert trios.with_(jugadores=6).puntos == 45, "already trios"
    assert trios.with_(juegos=2).puntos == 45
    assert trios.with_(jugadores=4).puntos == 45, "leaving trios keeps the target"
    assert Rules().with_(jugadores=2).puntos == 40


def test_s8_trios_all_pass_base_values_summed_over_the_team():
    """§8 trios: base values summed over the team (juego 3 + 3 + 3)."""
    h = pass_all(trios())
    assert ledger(h) == [
        (0, 1, "grande", "paso"),
        (1, 1, "chica", "paso"),
        (1, 3, "pares", "base"),
        (0, 9, "juego", "base"),
    ]
    assert h.scores == [10, 4]


def test_s8_trios_target_50_not_40():
    """§8 trios: from 40–0 the grande point (41) does not end the game; the juego base (50) does."""
    h = pass_all(trios(scores=(40, 0)))
    assert ledger(h)[-1] == (0, 9, "juego", "base")
    assert h.scores == [50, 4]
    assert h.game_winner == 0


def test_s8_trios_speaking_order_and_holders():
    """§8 + §4.1: six seats speak from the mano; at Pares only holders (0, 1, 2), at Juego only
    holders (0, 1, 2, 4)."""
    h = trios()
    seen = []
    while h.lance is Lance.GRANDE:
        seen.append(h.to_act)
        h.apply(h.to_act, PASO)
    assert seen == [0, 1, 2, 3, 4, 5]
    pass_lance(h)
    assert h.lance is Lance.PARES
    assert h.view(0).speakers == (0, 1, 2)
    with pytest.raises(IllegalAction):
        h.apply(4, PASO)
    pass_lance(h)
    assert h.lance is Lance.JUEGO
    assert h.view(0).speakers == (0, 1, 2, 4)


def test_s8_trios_answer_order_among_three():
    """§8 + §4.3: seat 0 bets: seats 1, 3, 5 answer in order; each no quiero hands on."""
    h = trios()
    h.apply(0, envido())
    assert h.to_act == 1
    h.apply(1, NO_QUIERO)
    assert h.to_act == 3
    h.apply(3, NO_QUIERO)
    assert h.to_act == 5
    h.apply(5, QUIERO)
    assert h.lance is Lance.CHICA
    pass_all(h)
    assert ledger(h)[0] == (0, 2, "grande", "apuesta")


def test_s8_trios_answer_order_wraps_after_the_bettor():
    """§8 + §4.3: seat 3 bets: team 0 answers from the first after him: 4, 0, 2; all refuse."""
    h = trios()
    play(h, (0, PASO), (1, PASO), (2, PASO), (3, envido()))
    assert h.to_act == 4
    h.apply(4, NO_QUIERO)
    assert h.to_act == 0
    h.apply(0, NO_QUIERO)
    assert h.to_act == 2
    h.apply(2, NO_QUIERO)
    assert ledger(h) == [(1, 1, "grande", "deje")]


def test_s8_trios_raise_answered_by_first_non_eliminated_after_raiser():
    """§8 + §4.4: 0 envido; 1 no quiero; 3 raises: team 0 answers 4, 0, 2; 4 raises: team 1
    answers 5, then 3 (1 is eliminated)."""
    h = trios()
    play(h, (0, envido()), (1, NO_QUIERO), (3, envido()))
    assert h.to_act == 4
    h.apply(4, envido())
    assert h.to_act == 5
    h.apply(5, NO_QUIERO)
    assert h.to_act == 3
    h.apply(3, NO_QUIERO)
    assert ledger(h) == [(0, 4, "grande", "deje")]


def test_s8_trios_pares_answer_only_holders():
    """§8 + §4.1: at Pares seat 1 bets; team 0 holders answer: 2 then 0 (4 has no pares)."""
    h = trios()
    pass_lance(h)
    pass_lance(h)
    play(h, (0, PASO), (1, envido()))
    assert h.to_act == 2
    h.apply(2, NO_QUIERO)
    assert h.to_act == 0
    h.apply(0, NO_QUIERO)
    assert ledger(h) == [(1, 1, "pares", "deje")]


def test_s8_trios_match_mano_moves_round_six_seats():
    """§8 + §1: in a trios match the mano moves 5 → 0 → 1."""
    m = Match(Rules.for_players(6), first_mano=5, shuffler=seeded_shuffler(3))
    manos = []
    for _ in range(3):
        manos.append(m.hand.mano)
        number = m.hand_number
        m.apply(m.to_act, NO_HAY_MUS)  # type: ignore[arg-type]
        while m.hand_number == number:
            m.apply(m.to_act, PASO)  # type: ignore[arg-type]
    assert manos == [5, 0, 1]


# --- whose team: the engine's answer, asked everywhere ------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_teams_alternate_seats(players: int) -> None:
    """§1, §8: seats 0, 2, 4 against 1, 3, 5, whatever the count; a seat's view, a stored seat
    and the rules say the same."""
    from musbot.storage import SeatRecord

    rules = Rules.for_players(players)
    assert rules.team_seats(0) + rules.team_seats(1) == \
        tuple(range(0, players, 2)) + tuple(range(1, players, 2))
    match = Match(rules, first_mano=0, shuffler=seeded_shuffler(1))
    for seat in range(players):
        team = Rules.team(seat)
        assert seat in rules.team_seats(team)
        assert all(seat in rules.opponents(other) for other in rules.opponents(seat))
        assert set(rules.partners(seat)) == set(rules.team_seats(team)) - {seat}
        view = match.view(seat)
        assert (view.team, view.partners) == (team, rules.partners(seat))
        assert match.hand.team(seat) == team == SeatRecord.robot(seat).team


def test_the_team_of_a_seat_is_asked_of_the_engine() -> None:
    """Outside the engine nobody works a team out with ``% 2``: they ask :class:`Rules` (the
    arena's ``index % 2`` is a game's number)."""
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    sources = sorted([*(repo / "musbot").rglob("*.py"), *(repo / "cogs").rglob("*.py")])
    found = [f"{path.relative_to(repo)}:{n}" for path in sources
             if "engine" not in path.parts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "% 2" in line and "index % 2" not in line]
    assert found == []
