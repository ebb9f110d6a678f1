"""The benchmark's opponent styles and how ``musbot bench ai`` plays them (issue #28).

Each style is a few fixed thresholds on the seat's strength at the lance; these tests pin down
what makes each one itself (the cautious one never bluffs and goes to órdago only with the goods,
the bluffer bets rubbish, the passive one folds). Legality and blindness to hidden cards are
:mod:`tests.test_ai_levels`' business: it plays every bench level, styles included. The bench
plays duplicate deals with the pairs swapped and prints every órdago's fate.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers_rules import cards

from musbot.ai import LEVELS, NormalBot
from musbot.ai.arena import DuplicateShuffler, bench_levels, play_game
from musbot.ai.styles import FAROLERO, PASIVO, PRUDENTE, STYLES, Style, StyleBot
from musbot.cli import main
from musbot.engine import (
    DECK,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    ActionKind,
    Hand,
    Match,
    Rules,
    SeatView,
    envido,
    seeded_shuffler,
)
from musbot.engine.randomplay import random_action

_K = ActionKind


def test_styles_are_bench_levels_not_table_levels() -> None:
    assert {"prudente", "farolero", "pasivo"} == set(STYLES)
    for name in STYLES:
        assert name in bench_levels() and name not in LEVELS
        assert bench_levels()[name]().level == name


def _lance_views(count: int, seed: int) -> list[SeatView]:
    """Views at a betting decision, from random walks through seeded deals."""
    views: list[SeatView] = []
    rng = random.Random(seed)
    n = 0
    while len(views) < count:
        h = Hand.deal(Rules(senas=False), mano=n % 4, shuffler=seeded_shuffler(f"{seed}/{n}"))
        n += 1
        while h.to_act is not None:
            seat = h.to_act
            view = h.view(seat)
            if view.lance is not None:
                views.append(view)
            h.apply(seat, random_action(view.legal, rng))
    return views


@pytest.mark.parametrize("style", [PRUDENTE, FAROLERO, PASIVO])
def test_each_style_bets_by_its_thresholds(style: Style) -> None:
    bot = StyleBot("test", style)
    strength = NormalBot()
    for k, view in enumerate(_lance_views(300, seed=3)):
        assert view.lance is not None
        s = strength.chance(view, view.lance)
        action = bot.decide(view, random.Random(k))
        kinds = {a.kind for a in view.legal}
        if view.ordago:  # an órdago is answered by the strength alone
            assert action == (QUIERO if s >= style.accept else NO_QUIERO)
        elif s >= style.ordago and _K.ORDAGO in kinds:
            assert action == ORDAGO
        elif action.kind in (_K.ENVIDO, _K.MAS, _K.ORDAGO):
            # a bet or raise below the thresholds is a bluff, as often as the style allows
            assert s >= min(style.open, style.raise_) or style.bluff or style.raise_bluff \
                or style.ordago_bluff, (view.bet, s, action)


def test_the_cautious_player_never_bluffs_and_the_bluffer_does() -> None:
    views = _lance_views(600, seed=4)
    strength = NormalBot()
    bluffs = dict.fromkeys(STYLES, 0)
    for name, make in STYLES.items():
        bot = make()
        for k, view in enumerate(views):
            assert view.lance is not None
            action = bot.decide(view, random.Random(k))
            if action.kind in (_K.ENVIDO, _K.MAS, _K.ORDAGO) and \
                    strength.chance(view, view.lance) < 0.4:
                bluffs[name] += 1
    assert bluffs["prudente"] == 0 and bluffs["pasivo"] == 0
    assert bluffs["farolero"] > 30


def test_the_passive_player_folds_what_the_cautious_one_calls() -> None:
    # Seat 1 answers seat 0's envido at Grande with a middling hand.
    h = Hand(Rules(senas=False), [cards("12o 12c 12e 1b"), cards("12b 11c 7e 4b"),
                                  cards("4o 5c 6e 7b"), cards("1o 1c 5e 6b")], [], mano=0,
             validate=False)
    h.apply(0, NO_HAY_MUS)
    h.apply(0, envido(2))
    view = h.view(1)
    s = NormalBot().chance(view, view.lance)  # type: ignore[arg-type]
    assert PRUDENTE.call <= s < PASIVO.call
    assert StyleBot("prudente", PRUDENTE).decide(view, random.Random(1)) == QUIERO
    assert StyleBot("pasivo", PASIVO).decide(view, random.Random(1)) == NO_QUIERO
    # Opening with nothing: the bluffer sometimes bets, the others pass.
    weak = Hand(Rules(senas=False), [cards("4o 5c 6e 7b"), cards("12b 11c 7e 4b"),
                                     cards("4c 5e 6b 7o"), cards("1o 1c 5o 6c")], [], mano=0,
                validate=False)
    weak.apply(0, NO_HAY_MUS)
    opening = weak.view(0)
    said = {StyleBot("farolero", FAROLERO).decide(opening, random.Random(k)).kind
            for k in range(40)}
    assert _K.ENVIDO in said and _K.PASO in said
    for style in (PRUDENTE, PASIVO):
        assert StyleBot("x", style).decide(opening, random.Random(2)) == PASO


def test_the_two_games_of_a_duplicate_deal_the_same_hands_with_the_pairs_swapped() -> None:
    decks = []
    for index in (6, 7):
        shuffler = DuplicateShuffler(f"9:{index // 2}")
        match = Match(Rules(juegos=1), first_mano=(index // 2) % 4, shuffler=shuffler)
        decks.append((match.hand.dealt, shuffler(list(DECK)), shuffler(list(DECK[:20]))))
    assert decks[0][:2] == decks[1][:2]  # the first hand, and the deck of the next one
    other = DuplicateShuffler("9:4")
    assert Match(Rules(juegos=1), first_mano=0, shuffler=other).hand.dealt != decks[0][0]
    one, two = play_game("normal", "prudente", 9, 6), play_game("normal", "prudente", 9, 7)
    assert (one.index, two.index) == (6, 7)  # level A sat at pair 0, then at pair 1


def test_bench_ai_plays_a_style_and_tells_every_ordagos_fate(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ai", "--a", "normal", "--b", "farolero", "--games", "6", "--seed",
                 "3", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.strip().startswith("órdagos:") for line in out)
    data = json.loads(out[-1])
    for side in ("a", "b"):
        tally = data["ordagos"][side]
        assert set(tally) == {"called", "accepted", "forced", "won", "won_forced"}
        assert tally["called"] >= tally["accepted"] >= max(tally["won"], tally["forced"])
        assert tally["forced"] >= tally["won_forced"]
    assert data["ordagos"]["b"]["called"] > 0  # the bluffer goes to órdago in six games
