"""Bots that learn from showdowns (issue #5): «dificil» reads the others' words as a person does,
by how they matched the cards shown at the end of each hand.

The bench calls the optional ``hand_over`` hook once per hand with the seat's own view only (so
the privacy tests of :mod:`tests.test_ai_levels` still hold), and what «dificil» learns there
sets how much a player's words say about its cards and how that player answers in its rollouts:
a random player's bets mean nothing, a «normal» player's mean what they say.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from helpers_rules import cards

from musbot.ai import arena
from musbot.ai.base import Player
from musbot.ai.dificil import PRIOR_RATE, DificilBot, _Model
from musbot.ai.randombot import RandomBot
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


def _learnt(monkeypatch: pytest.MonkeyPatch, opponent: str, seed: int) -> list[DificilBot]:
    bots: list[DificilBot] = []

    def make() -> DificilBot:
        bots.append(DificilBot(worlds=16, tries=200))
        return bots[-1]

    _with(monkeypatch, "learning", make)
    arena.play_game("learning", opponent, seed, 0, Rules(juegos=1, puntos=40))
    return bots


@pytest.mark.parametrize("seed", [1, 2])
def test_dificil_learns_that_random_players_say_nothing_and_normal_ones_do(
        monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    # Game 0 of the bench: the learning pair sits at seats 0 and 2 (made in seat order).
    for me, bot in zip((0, 2), _learnt(monkeypatch, "random", seed), strict=True):
        rates = bot.rates()
        assert rates[me] == pytest.approx(PRIOR_RATE)  # nothing learnt about itself
        for opp in (1, 3):
            assert rates[opp] > 0.3, rates  # a handful of showdowns is enough
    for bot in _learnt(monkeypatch, "normal", seed):
        rates = bot.rates()
        for opp in (1, 3):
            assert bot.expected_odd[opp] > 0  # it did see them at showdowns…
            assert rates[opp] <= PRIOR_RATE  # …and they play as «normal» would


def test_a_random_players_bet_no_longer_says_it_is_strong() -> None:
    """Seat 1 opened the Grande with an envido: under «normal» that means kings; once seat 1 is
    known to speak at random, the worlds where it holds rubbish count as much as the others."""
    h = Hand(Rules(), [cards("4o 5c 6o 7b"), cards("12o 12c 12e 1b"), cards("4c 5e 6b 7o"),
                       cards("1o 1c 4e 5o")], cards("10c 10e"), mano=0)
    h.apply(0, NO_HAY_MUS)
    h.apply(0, PASO)
    h.apply(1, envido(2))
    h.apply(2, NO_QUIERO)
    view = h.view(0)
    t = tables(8, False)
    weak = [t.index(x) for x in (cards("4o 5c 6o 7b"), cards("4e 5b 6c 7c"),
                                 cards("4c 5e 6b 7o"), cards("1o 1c 4e 5o"))]
    trusting = _Model(view, (0.0, PRIOR_RATE, PRIOR_RATE, PRIOR_RATE)).likelihood(weak)
    wary = _Model(view, (0.0, 1.0, PRIOR_RATE, PRIOR_RATE)).likelihood(weak)
    assert trusting < 0.2 and wary == 1.0


def test_learning_keeps_dificil_legal_and_reproducible() -> None:
    """The hook changes later decisions, never their legality nor their determinism."""
    short = Rules(juegos=1, puntos=20)
    one = arena.play_game("dificil", "random", 8, 1, short)
    two = arena.play_game("dificil", "random", 8, 1, short)
    assert (one.a_won, one.diff, one.hands, len(one.times_a)) == \
        (two.a_won, two.diff, two.hands, len(two.times_a))


def test_a_fresh_bot_plays_as_before_learning() -> None:
    """No showdown seen yet: the prior (a few random words in «normal»'s play) is all it uses,
    so a bot restored after a restart simply starts over."""
    bot = DificilBot()
    assert bot.rates() == [pytest.approx(PRIOR_RATE)] * 4
    rng = random.Random(3)
    h = Hand.deal(Rules(), mano=0, shuffler=seeded_shuffler(3))
    while h.to_act is not None and h.phase.value != "lance":
        h.apply(h.to_act, random_action(h.legal_actions(h.to_act), rng))
    seat = h.to_act
    assert seat is not None and h.phase.value == "lance"  # this deal reaches the betting
    assert h.is_legal(seat, bot.decide(h.view(seat), random.Random(1)))
