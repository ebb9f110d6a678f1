"""The bot levels (issue #5): always legal, blind to hidden cards, reproducible, benchmarked.

Strength is measured by ``musbot bench ai`` (figures, not tests); these tests only pin down what
must hold whatever the figures: every decision is legal, a decision depends on the seat's view and
señas alone, a seed gives the same game, and the benchmark prints its JSON line.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from helpers_rules import cards as hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musbot.ai import DEFAULT_LEVEL, LEVELS, DificilBot, NormalBot, Player, SenaSeen, make_player
from musbot.ai.arena import bench_levels, play_game, play_games, wilson
from musbot.ai.dificil import BIG_BET, BIG_BET_MIN, BIG_TRUST
from musbot.ai.normal import bet_action, race
from musbot.ai.odds import game_value, generate, odds
from musbot.ai.reading import DEFAULT_MODEL
from musbot.cli import main
from musbot.engine import (
    NO_HAY_MUS,
    ORDAGO,
    PASO,
    Hand,
    Lance,
    Match,
    Rules,
    envido,
    seeded_shuffler,
    tables,
)
from musbot.engine.cards import DECK
from musbot.engine.randomplay import random_action
from musbot.engine.senas import senas_posibles

ALL = sorted(bench_levels())


def _partner_senas(match: Match, seat: int) -> tuple[SenaSeen, ...]:
    """What a table would have told ``seat``: every seña its partner's hand shows."""
    rules = match.rules
    n = rules.jugadores
    out = []
    for mate in range(seat % 2, n, 2):
        if mate != seat:
            cards = match.view(mate).cards
            out += [SenaSeen(mate, s, True) for s in senas_posibles(cards, rules)[:1]]
    return tuple(out)


RULES = st.sampled_from([Rules(juegos=1), Rules(reyes=4, puntos=30, juegos=1),
                         Rules(real=True, mus_corrido=True, juegos=1),
                         Rules.for_players(2, juegos=1), Rules.for_players(6, juegos=1)])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, seed=st.integers(0, 10**6), steps=st.integers(0, 120),
       scores=st.tuples(st.integers(0, 39), st.integers(0, 39)))
def test_every_level_is_legal_after_any_random_history(rules: Rules, seed: int, steps: int,
                                                       scores: tuple[int, int]) -> None:
    rng = random.Random(seed)
    match = Match(rules, first_mano=seed % rules.jugadores, shuffler=seeded_shuffler(seed))
    target = rules.puntos
    match.scores = [min(scores[0], target - 1), min(scores[1], target - 1)]
    match.hand = Hand.deal(rules, mano=match.mano, scores=match.scores,
                           shuffler=seeded_shuffler(seed + 1))
    for _ in range(steps):
        if match.finished:
            return
        seat = match.to_act
        assert seat is not None
        match.apply(seat, random_action(match.legal_actions(seat), rng))
    if match.finished:
        return
    seat = match.to_act
    assert seat is not None
    view = match.view(seat)
    for level in ALL:
        player = bench_levels()[level]()
        for senas in ((), _partner_senas(match, seat)):
            action = player.decide(view, random.Random(seed), senas)
            assert match.hand.is_legal(seat, action), (level, action, view.legal)
        for sena in player.choose_senas(view, random.Random(seed)):
            assert sena in senas_posibles(view.cards, rules)


def _same_public_other_cards(seed: int) -> tuple[Hand, Hand]:
    """Two hands where seat 0 holds the same cards and everything public is equal (same
    declarations), but the other three seats hold different cards."""
    rng = random.Random(seed)
    t = tables(8, False)
    deck = rng.sample(DECK, 40)
    mine, rest = deck[:4], deck[4:]
    first = [mine, rest[0:4], rest[4:8], rest[8:12]]

    def declared(hands: list[list[int]]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
        idx = [t.index(h) for h in hands]
        return tuple(t.has_pares[i] for i in idx), tuple(t.has_juego[i] for i in idx)

    want = declared(first)
    while True:
        other = rng.sample(rest, 12)
        second = [mine, other[0:4], other[4:8], other[8:12]]
        if declared(second) == want and second != first:
            break
    hands = []
    for deal in (first, second):
        used = {c for h in deal for c in h}
        h = Hand(Rules(), deal, [c for c in DECK if c not in used], mano=1)
        hands.append(h)
    return hands[0], hands[1]


ENOUGH_COMPARISONS = 8
"""Seat 0's decisions compared per seed: one walk through a hand gives one to four (seat 0 does
not speak at a lance its opponents settle first), so several walks are taken."""


@pytest.mark.parametrize("seed", range(6))
def test_decisions_ignore_the_cards_a_seat_cannot_see(seed: int) -> None:
    checked = 0
    for walk in range(30):
        if checked >= ENOUGH_COMPARISONS:
            break
        checked += _compare_decisions(seed, random.Random(f"{seed}/{walk}"))
    assert checked >= ENOUGH_COMPARISONS


def _compare_decisions(seed: int, rng: random.Random) -> int:
    """One random walk through two deals that differ only in what seat 0 cannot see, comparing
    every decision of every level for seat 0 on the way; how many points were compared."""
    a, b = _same_public_other_cards(seed)
    a.apply(1, NO_HAY_MUS)
    b.apply(1, NO_HAY_MUS)
    checked = 0
    while not a.finished:
        seat = a.to_act
        assert seat is not None and seat == b.to_act
        if seat == 0:
            view_a, view_b = a.view(0), b.view(0)
            assert view_a == view_b  # the engine gives the seat nothing else…
            for level in ALL:  # …and no level finds another way to the hidden cards
                player = bench_levels()[level]()
                assert (player.decide(view_a, random.Random(seed))
                        == player.decide(view_b, random.Random(seed)))
            checked += 1
        action = random_action(a.legal_actions(seat), rng)
        a.apply(seat, action)
        b.apply(seat, action)
        if a.lance is not b.lance:  # a lance skipped in one deal only: public info differs
            break
    return checked


def test_dificil_samples_only_worlds_that_fit_the_public_information() -> None:
    h = Hand(Rules(), [hand("12o 12c 5o 1b"), hand("4o 4c 6e 7b"), hand("5c 5e 6b 10o"),
                       hand("4e 5b 6o 7c")], hand("10c 10e"), mano=0)
    h.apply(0, NO_HAY_MUS)
    while h.lance is not Lance.PARES:
        assert h.to_act is not None
        h.apply(h.to_act, h.legal_actions(h.to_act)[0])  # paso
    view = h.view(0)
    t = tables(8, False)
    told = [SenaSeen(2, next(iter(senas_posibles(h.hands[2], Rules())), None), True)] \
        if senas_posibles(h.hands[2], Rules()) else []
    worlds = DificilBot().sample(view, random.Random(1), told)
    assert worlds
    declared = view.declarations[Lance.PARES]
    for hands, weight in worlds:
        assert weight > 0
        assert hands[0] == list(view.cards)
        assert len({c for hh in hands for c in hh}) == 16
        for seat in range(1, 4):
            assert t.has_pares[t.index(hands[seat])] == declared[seat]


def test_dificil_weighs_a_big_envite_only_with_the_goods_against_strangers() -> None:
    """The big envite is weighed with a strong hand, or with any hand against opponents read
    as playing by «normal»'s rule (who fold to size), never as a bluff against strangers."""
    bot = DificilBot()
    normalish = replace(DEFAULT_MODEL, normal=BIG_TRUST)
    seen = {"weak": 0, "strong": 0}
    for n in range(80):
        h = Hand.deal(Rules(senas=False), mano=n % 4, shuffler=seeded_shuffler(f"big/{n}"))
        h.apply(h.mano, NO_HAY_MUS)
        view = h.view(h.to_act)
        strong = bot.normal.chance(view, view.lance, ()) >= BIG_BET_MIN
        strangers = bot.options(view, (), (DEFAULT_MODEL,) * 4)
        assert (envido(BIG_BET) in strangers) == strong
        assert envido(BIG_BET) in bot.options(view, (), (normalish,) * 4)
        seen["strong" if strong else "weak"] += 1
    assert min(seen.values()) > 5, seen
    assert PASO in strangers


@pytest.mark.parametrize("level", ["facil", "normal", "dificil"])
def test_deterministic_for_a_seed(level: str) -> None:
    short = Rules(juegos=1, puntos=10)
    one = play_game(level, "random", 5, 0, short)
    two = play_game(level, "random", 5, 0, short)
    assert (one.a_won, one.diff, one.hands, len(one.times_a)) == \
        (two.a_won, two.diff, two.hands, len(two.times_a))


def test_games_do_not_depend_on_the_number_of_workers() -> None:
    single = [(g.a_won, g.diff, g.hands) for g in play_games("normal", "facil", 4, 3, 1)]
    double = [(g.a_won, g.diff, g.hands) for g in play_games("normal", "facil", 4, 3, 2)]
    assert single == double


def test_bench_ai_prints_the_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--a", "normal", "--b", "random", "--games", "3", "--seed", "2",
                 "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(last)
    assert {"games", "win_rate", "ci95", "decision_ms_p50", "decision_ms_p99"} <= set(data)
    assert data["games"] == 3
    lo, hi = data["ci95"]
    assert 0.0 <= lo <= data["win_rate"] <= hi <= 1.0


def test_registry_levels_and_default() -> None:
    assert DEFAULT_LEVEL == "normal"
    assert {"facil", "normal", "dificil"} <= set(LEVELS)
    for level in LEVELS:
        player = make_player(level)
        assert isinstance(player, Player) and player.level == level
    assert "random" in bench_levels() and "random" not in LEVELS


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_odds_tables_ship_and_make_sense() -> None:
    o = odds(8)
    t = tables(8, False)
    best = t.index(hand("12o 12c 12e 12b"))
    worst = t.index(hand("4o 5c 6e 7b"))
    assert o.grande[best][0] == 1.0
    assert o.grande[worst][3] < 0.4  # the partner may still hold a good grande
    # Ties go to the mano: the same hand is worth more as mano than as postre.
    mid = t.index(hand("12o 11c 7e 1b"))
    assert o.grande[mid][0] > o.grande[mid][3]
    small = generate(8, samples=5, seed=1)
    assert small == generate(8, samples=5, seed=1)
    assert len(small["grande"]) == len(t.infos)  # type: ignore[arg-type]


def test_score_value_and_scoring_order() -> None:
    assert game_value(0, 0, 40) == pytest.approx(0.5, abs=1e-9)
    assert game_value(35, 10, 40) > game_value(10, 10, 40) > game_value(10, 35, 40)
    # Both one tanto short: whoever takes the Grande (scored first) wins the game.
    assert race(39, 39, 40, [(0.3, 1, 1), (0.9, 1, 1)]) == pytest.approx((0.3, 0.7))
    # Far from the target nobody finishes this hand.
    assert race(0, 0, 40, [(0.5, 1, 1)]) == (0.0, 0.0)


def test_normal_throws_the_ordago_when_the_game_is_otherwise_lost() -> None:
    # A fair chance at the lance is worth the game when staying is nearly hopeless…
    assert bet_action(Lance.GRANDE, 0.7, 0, 1, False, 0, 5, 38, 40, None, stay=0.05) == ORDAGO
    # …and not when the pair is doing well.
    assert bet_action(Lance.GRANDE, 0.7, 0, 1, False, 0, 30, 10, 40, None) != ORDAGO
    # A refusal that hands them the game is never chosen when the call has any chance.
    called = bet_action(Lance.GRANDE, 0.3, 0, 1, True, 1, 10, 39, 40, None)
    assert called.kind.value == "quiero"


def test_normal_reads_the_declarations() -> None:
    # Medias of sotas: strong when the opponents declared no pares… vs both declaring.
    h = Hand(Rules(), [hand("10o 10c 10e 4b"), hand("4o 5c 6e 7b"), hand("4c 5e 6b 11o"),
                       hand("12e 12b 1o 7c")], hand("1c 1e"), mano=0)
    h.apply(0, NO_HAY_MUS)
    while h.lance is not Lance.PARES:
        h.apply(h.to_act, h.legal_actions(h.to_act)[0])
    view = h.view(0)
    bot = NormalBot()
    assert bot.chance(view, Lance.PARES) < odds(8).pares[t_index(view.cards)][0][0]


def t_index(cards: tuple[int, ...]) -> int:
    return tables(8, False).index(cards)


def test_terminal_takes_a_level_per_seat() -> None:
    from musbot.terminal import parse_play_args, run_play

    args = parse_play_args(["--auto", "--seed", "4", "--juegos", "1", "--puntos", "10",
                            "--niveles", "facil,normal,dificil,normal"])
    lines: list[str] = []
    assert run_play(args, output=lines.append) == 0
    text = "\n".join(lines)
    for seat, level in enumerate(["facil", "normal", "dificil", "normal"], start=1):
        assert f"Un bot ({level}) se sienta en el asiento {seat}" in text
    with pytest.raises(SystemExit):
        parse_play_args(["--niveles", "facil,experto"])
