"""Bots that learn from showdowns (issues #5 and #28): the table reads each player as a person
does, by how their words matched the cards shown at the end of each hand, and «dificil» plays
against what it read.

The bench calls the optional ``hand_over`` hook once per hand with the seat's own view only, and
the table's :class:`~musbot.ai.memory.OpponentMemory` learns from the spectator's view of the
hand (so the privacy tests of :mod:`tests.test_ai_levels` still hold): a random player's bets mean
nothing, a «normal» player's mean what they say.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from helpers_rules import cards, shuffled_hand

from musbot.ai import arena
from musbot.ai.base import Player
from musbot.ai.dificil import DificilBot
from musbot.ai.memory import OpponentMemory
from musbot.ai.randombot import RandomBot
from musbot.ai.reading import DEFAULT_MODEL
from musbot.ai.worlds import Likelihood
from musbot.engine import (
    NO_HAY_MUS,
    NO_QUIERO,
    PASO,
    Hand,
    Rules,
    SeatView,
    envido,
    seeded_shuffler,
    tables,
)
from musbot.engine.randomplay import random_action


class Counting(RandomBot):
    """A random player that records every ``hand_over`` call it gets."""

    def __init__(self) -> None:
        self.seen: list[SeatView] = []

    def hand_over(self, view: SeatView) -> None:
        self.seen.append(view)


def _with(monkeypatch: pytest.MonkeyPatch, name: str, factory: Callable[[], Player]) -> None:
    levels = arena.bench_levels()
    monkeypatch.setattr(arena, "bench_levels", lambda: {**levels, name: factory})


def test_the_bench_calls_the_hook_once_per_hand_with_the_seats_own_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bots: list[Counting] = []

    def make() -> Counting:
        bots.append(Counting())
        return bots[-1]

    _with(monkeypatch, "counting", make)
    result = arena.play_game("counting", "random", 4, 0, Rules(juegos=1, puntos=20))
    assert len(bots) == 2
    for bot in bots:
        assert len(bot.seen) == result.hands
        numbers = [v.hand_number for v in bot.seen]
        assert len(set(numbers)) == len(numbers)  # one call per hand
        seats = {v.seat for v in bot.seen}
        assert len(seats) == 1  # always its own seat…
        for view in bot.seen:
            assert view.phase == "terminada" and not view.legal  # …of the hand just over
            if view.revealed is None:  # before a showdown nothing but its own cards
                continue
            assert view.revealed[view.seat] == view.cards


@pytest.mark.parametrize("seed", [1, 2])
def test_the_table_learns_that_random_players_say_nothing_and_normal_ones_do(
        seed: int) -> None:
    # Three matches at one table (even games of the bench: level A sits at seats 0 and 2).
    memory = OpponentMemory()
    for game in (0, 2, 4):
        arena.play_game("normal", "random", seed, game, Rules(juegos=1, puntos=40), memory)
    for seat in (0, 2):  # «normal»'s rule fits better than anybody is assumed to at first…
        assert memory.reading(f"seat:{seat}").model().normal > DEFAULT_MODEL.normal
    for seat in (1, 3):
        assert memory.reading(f"seat:{seat}").model().normal < 0.2  # …not a random player


def _weak_and_strong_for_seat_1() -> tuple[SeatView, list[int], list[int]]:
    """Seat 1 opened the Grande with an envido; seat 0's view, and two deals it cannot tell
    apart but by seat 1's cards: rubbish, or three kings."""
    h = Hand(Rules(), [cards("4o 5c 6o 7b"), cards("12o 12c 12e 1b"), cards("4c 5e 6b 7o"),
                       cards("1o 1c 4e 5o")], cards("10c 10e"), mano=0)
    h.apply(0, NO_HAY_MUS)
    h.apply(0, PASO)
    h.apply(1, envido(2))
    h.apply(2, NO_QUIERO)
    t = tables(8, False)
    weak = [t.index(x) for x in (cards("4o 5c 6o 7b"), cards("4e 5b 6c 7c"),
                                 cards("4c 5e 6b 7o"), cards("1o 1c 4e 5o"))]
    strong = list(weak)
    strong[1] = t.index(cards("12o 12c 12e 1b"))
    return h.view(0), weak, strong


def test_a_random_players_bet_no_longer_says_it_is_strong() -> None:
    """Under a player nobody knows, an envido says «strong»; once seat 1 is read as a random
    player, the worlds where it holds rubbish count nearly as much as the others."""
    view, weak, strong = _weak_and_strong_for_seat_1()
    memory = OpponentMemory()
    arena.play_game("random", "random", 3, 0, Rules(juegos=1, puntos=40), memory)
    wild = memory.reading("seat:1").model()
    unknown = Likelihood(view, (DEFAULT_MODEL,) * 4)
    read = Likelihood(view, (DEFAULT_MODEL, wild, DEFAULT_MODEL, DEFAULT_MODEL))
    assert unknown.likelihood(weak) < 0.3 * unknown.likelihood(strong)
    assert read.likelihood(weak) > 0.5 * read.likelihood(strong)


def test_learning_keeps_dificil_legal_and_reproducible() -> None:
    """The table's reading changes later decisions, never their legality nor their
    determinism."""
    short = Rules(juegos=1, puntos=20)
    one = arena.play_game("dificil", "random", 8, 1, short)
    two = arena.play_game("dificil", "random", 8, 1, short)
    assert (one.a_won, one.diff, one.hands, len(one.times_a)) == \
        (two.a_won, two.diff, two.hands, len(two.times_a))


def test_a_fresh_bot_is_legal_before_anybody_is_read() -> None:
    """No showdown seen yet: every player is taken for :data:`DEFAULT_MODEL`, so a bot restored
    after a restart (or at a new table) simply starts from there."""
    bot = DificilBot()
    rng = random.Random(3)
    h = Hand.deal(Rules(), mano=0, shuffler=seeded_shuffler(3))
    while h.to_act is not None and h.phase.value != "lance":
        h.apply(h.to_act, random_action(h.legal_actions(h.to_act), rng))
    seat = h.to_act
    assert seat is not None and h.phase.value == "lance"  # this deal reaches the betting
    assert h.is_legal(seat, bot.decide(h.view(seat), random.Random(1)))


def test_the_likelihood_as_arrays_is_the_likelihood_world_by_world() -> None:
    """The coach weighs thousands of worlds with :meth:`Likelihood.weights`; each must weigh
    what «dificil»'s own :meth:`Likelihood.likelihood` does (one rule), with the bets, the mus
    words, the partner's silence and the discard counts, señas on and off."""
    import numpy as np

    from musbot.ai import NormalBot

    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        rules = Rules(senas=seed % 2 == 0)
        h = shuffled_hand(seed, rules)
        bot = NormalBot()
        while h.to_act is not None:
            seat = h.to_act
            view = h.view(seat)
            if view.phase == "lance":
                t = tables(rules.reyes, rules.real)
                likely = Likelihood(view, (DEFAULT_MODEL,) * 4, discards=True)
                arrays = likely.weights()
                mine = t.index(view.cards)
                worlds = np.array([[mine if s == seat else rng.randrange(len(t.infos))
                                    for s in range(4)] for _ in range(40)])
                got = arrays.of(worlds)
                for row, w in zip(worlds, got, strict=True):
                    assert w == pytest.approx(likely.likelihood([int(x) for x in row]),
                                              rel=1e-9)
                    checked += 1
            h.apply(seat, bot.decide(view, rng))
    assert checked >= 200


def test_a_discard_of_one_card_says_the_hand_kept_three_worth_keeping() -> None:
    """A player who threw one card away kept three: four reyes fit it, a hand of four
    unrelated low cards fits it less (:data:`~musbot.ai.reading.DISCARD_ODD`); after a discard
    of four any hand fits."""
    from musbot.ai.reading import DISCARD_ODD, discard_fit

    t = tables(8, False)
    reyes, rubbish = t.index(cards("12o 12c 12e 3b")), t.index(cards("4o 5c 6e 7b"))
    one = discard_fit(8, 1, 1)
    assert one[reyes] == 1.0 and one[rubbish] == DISCARD_ODD
    assert set(discard_fit(8, 1, 4)) == {1.0}
