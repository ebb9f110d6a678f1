"""The first bot level: always legal, reproducible, and it uses its partner's señas."""

from __future__ import annotations

import random

import pytest
from helpers_rules import cards as hand

from musbot.ai import LEVELS, HeuristicBot, Player, SenaSeen, make_player, register_level
from musbot.engine import (
    ENVIDO,
    MUS,
    NO_HAY_MUS,
    PASO,
    Action,
    ActionKind,
    Hand,
    Match,
    Rules,
    parse_card,
    seeded_shuffler,
)
from musbot.engine.senas import Sena, senas_posibles


def play_match(rules: Rules, seed: int,
               bot: HeuristicBot | None = None) -> list[tuple[int, Action]]:
    """A whole match of four bots, checking every action against the engine before applying."""
    bot = bot or HeuristicBot()
    rng = random.Random(seed)
    match = Match(rules, first_mano=seed % rules.jugadores, shuffler=seeded_shuffler(seed))
    played: list[tuple[int, Action]] = []
    while not match.finished:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        action = bot.decide(view, rng)
        assert match.hand.is_legal(seat, action), (action, view.legal)
        if action.kind in (ActionKind.ENVIDO, ActionKind.MAS):
            assert action.amount >= 2
        match.apply(seat, action)
        played.append((seat, action))
        assert len(played) < 20_000, "a match of bots should end"
    return played


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(reyes=4, puntos=30),
    Rules(real=True, mus_corrido=True, juegos=1),
    Rules.for_players(2, juegos=1),
    Rules.for_players(6, juegos=1),
], ids=["default", "4reyes", "real-corrido", "2p", "6p"])
def test_always_legal_over_random_matches(rules: Rules) -> None:
    for seed in range(6):
        play_match(rules, seed)


def test_deterministic_for_a_seed() -> None:
    assert play_match(Rules(), 42) == play_match(Rules(), 42)
    assert play_match(Rules(), 42) != play_match(Rules(), 43)


def test_registry() -> None:
    assert isinstance(make_player("facil"), HeuristicBot)
    assert isinstance(make_player(), Player)
    with pytest.raises(KeyError):
        make_player("imposible")
    register_level("test-level", HeuristicBot)
    try:
        assert isinstance(make_player("test-level"), HeuristicBot)
    finally:
        del LEVELS["test-level"]


def test_cuts_with_a_great_hand_and_asks_mus_with_rubbish() -> None:
    bot = HeuristicBot()
    rules = Rules()
    great = Hand(rules, [hand("12o 12c 3e 1b"), hand("4o 5c 6e 7b"), hand("4c 5e 6b 7o"),
                         hand("4e 5b 6o 7c")], hand("10o 10c"), mano=0)
    assert bot.decide(great.view(0), random.Random(1)) == NO_HAY_MUS
    poor = Hand(rules, [hand("4o 5c 6e 11b"), hand("12o 12c 3e 1b"), hand("4c 5e 6b 7o"),
                        hand("4e 5b 6o 7c")], hand("10o 10c"), mano=0)
    assert bot.decide(poor.view(0), random.Random(1)) == MUS


def test_discards_keep_reyes_and_pairs() -> None:
    rules = Rules()
    h = Hand(rules, [hand("12o 5c 5e 7b"), hand("4o 6c 6e 7o"), hand("4c 11e 6b 10o"),
                     hand("4e 11b 6o 7c")], hand("10c 10e 10b 1o 1c 1e 1b 2o 2c 2e"), mano=0)
    for seat in range(4):
        h.apply(seat, MUS)
    action = HeuristicBot().decide(h.view(0), random.Random(0))
    assert action.kind is ActionKind.DESCARTE
    assert set(action.cards) == {parse_card("7b")}


def test_partners_sena_turns_a_pass_into_a_bet() -> None:
    # A weak grande (no reyes) with a partner who signalled tres reyes: the pair is strong.
    rules = Rules()
    h = Hand(rules, [hand("4o 5c 6e 7b"), hand("4c 5e 6b 7o"), hand("12o 12c 12e 1b"),
                     hand("4e 5b 6o 7c")], hand("10o 10c"), mano=0)
    h.apply(0, NO_HAY_MUS)
    view = h.view(0)
    bot = HeuristicBot(bluff=0.0, ordago=0.0)
    assert bot.decide(view, random.Random(3)) == PASO
    told = [SenaSeen(2, Sena.TRES_REYES, partner=True)]
    assert bot.decide(view, random.Random(3), told) == ENVIDO
    # The same seña caught from an opponent is not the pair's strength.
    caught = [SenaSeen(1, Sena.TRES_REYES, partner=False)]
    assert bot.decide(view, random.Random(3), caught) == PASO


def test_chooses_only_true_senas() -> None:
    bot = HeuristicBot(sena_rate=1.0)
    rules = Rules(real=True)
    rng = random.Random(5)
    match = Match(rules, first_mano=0, shuffler=seeded_shuffler(5))
    for _ in range(200):
        for seat in range(4):
            view = match.view(seat)
            chosen = bot.choose_senas(view, rng)
            assert set(chosen) <= set(senas_posibles(view.cards, rules))
            if senas_posibles(view.cards, rules):
                assert chosen
        seat = match.to_act
        assert seat is not None
        match.apply(seat, bot.decide(match.view(seat), rng))


def test_warm_builds_what_a_first_showdown_and_a_first_decision_ask_for() -> None:
    """``warm`` at start-up: the first hand learnt and the first bets of a «normal» bot under
    those rules then build nothing (built at a showdown, they stopped every table of the bot
    for a fifth of a second)."""
    from musbot.ai import NormalBot, normal, odds, warm
    from musbot.ai.memory import OpponentMemory
    from musbot.engine.randomplay import random_action

    rules = Rules(puntos=37)
    warm(rules)
    built = [odds.odds, odds.game_values, normal.sena_hints, normal.keep_values]
    misses = [f.cache_info().misses for f in built]
    rng = random.Random(4)
    match = Match(rules, first_mano=0, shuffler=lambda deck: rng.sample(list(deck), len(deck)))
    bot = NormalBot()
    memory = OpponentMemory()
    hands = 0
    while hands < 3:
        hand_now, seat = match.hand, match.to_act
        action = bot.decide(match.view(seat), rng) if seat % 2 else \
            random_action(match.legal_actions(seat), rng)
        match.apply(seat, action)
        if hand_now.finished:
            memory.learn(hand_now.view(-1), ["user:1", "user:2", "user:3", "user:4"])
            hands += 1
    assert memory.readings, "hands were learnt"
    assert [f.cache_info().misses for f in built] == misses
