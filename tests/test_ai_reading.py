"""Reading the players at a table (issue #28): what «dificil» learns of how each player bets, from
what the table showed everybody, and how it plays against what it learnt.

A reading is learnt from a spectator's view of each finished hand (the words, the declarations,
the hands shown at the showdown), never from a seat's own cards; it survives JSON (a person's is
stored per server), and a decision gets it frozen (:class:`OpponentModel`), so what «dificil»
does depends on the seat's view, its señas and those public models only.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from helpers_rules import cards, showdown_view
from hypothesis import given, settings
from hypothesis import strategies as st

from musbot.ai import DificilBot, NormalBot
from musbot.ai.base import ask
from musbot.ai.memory import OpponentMemory
from musbot.ai.reading import (
    ANSWER,
    BANDS,
    COUNT_CAP,
    DEFAULT_MODEL,
    OPEN,
    ORDAGO_ANSWER,
    ORDAGO_WORD,
    PRIOR,
    Reading,
    band,
)
from musbot.ai.styles import farolero, pasivo, prudente
from musbot.engine import (
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Hand,
    Lance,
    Rules,
    envido,
    seeded_shuffler,
)

SEATS = [f"seat:{s}" for s in range(4)]


def _play_hands(players: list[Any], hands: int, seed: int) -> OpponentMemory:
    """``hands`` independent hands (scores 0–0) of these players, learnt by one memory."""
    memory = OpponentMemory()
    rng = random.Random(seed)
    for n in range(hands):
        h = Hand.deal(Rules(senas=False), mano=n % 4, shuffler=seeded_shuffler(f"{seed}/{n}"))
        while h.to_act is not None:
            seat = h.to_act
            h.apply(seat, players[seat].decide(h.view(seat), rng))
        memory.learn(h.view(-1), SEATS)
    return memory


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.tuples(st.sampled_from([OPEN, ANSWER, ORDAGO_ANSWER]),
                                st.floats(0.0, 1.0), st.integers(0, 3), st.integers(0, 3)),
                      max_size=400),
       base=st.lists(st.floats(0.0, 50.0), min_size=96, max_size=96))
def test_one_hands_reading_is_learnt_bit_for_bit_as_any_other(
        words: list[tuple[int, float, int, int]], base: list[float]) -> None:
    """A hand's words are counted in a reading that knows its few cells, whose órdago rarity
    and merge read only those: the same floats, to the last bit, as reading every cell
    (past :data:`COUNT_CAP` a situation is scaled whole and the reading reads every cell)."""
    sparse, dense = Reading(sparse=True), Reading()
    for sit, strength, said, expected in words:
        if sit == ORDAGO_ANSWER:
            said, expected = said % 2, expected % 2
        sparse.observe(sit, strength, said, expected)
        dense.observe(sit, strength, said, expected)
        assert sparse.rarity() == dense.rarity()
        assert sparse.fit == dense.fit
    assert sparse.counts.tobytes() == dense.counts.tobytes()
    into_sparse, into_dense = Reading(), Reading()
    for into in (into_sparse, into_dense):
        into.counts = array(into.counts.typecode, base)
    into_sparse.merge(sparse)
    into_dense.merge(dense)
    assert into_sparse.counts.tobytes() == into_dense.counts.tobytes()
    assert into_sparse.rarity() == into_dense.rarity()
    assert into_sparse.to_json() == into_dense.to_json()


def test_a_reading_round_trips_through_json() -> None:
    memory = _play_hands([NormalBot(), farolero(), NormalBot(), farolero()], 12, seed=3)
    for who in SEATS:
        reading = memory.reading(who)
        assert reading.words > 0
        again = Reading.from_json(reading.to_json())
        assert again.to_json() == reading.to_json()
        assert again.model().normal == pytest.approx(reading.model().normal, abs=1e-3)
        assert Reading.from_json(again.to_json()).model() == again.model()  # stable once stored
    assert OpponentMemory.from_json(memory.to_json()).to_json() == memory.to_json()


@pytest.mark.parametrize("damage", [
    {"v": 2}, {"counts": [[[0.0] * 4] * 6] * 2}, {"counts": [[[-1.0] * 4] * 6] * 3},
    {"counts": "nada"}, {"fit": "x"}, {"mus": [3.0, 1.0]}, {"words": -1}, {"fit": float("nan")},
])
def test_a_damaged_reading_is_refused(damage: dict[str, Any]) -> None:
    good = Reading().to_json()
    with pytest.raises(ValueError):
        Reading.from_json({**good, **damage})
    broken = dict(good)
    del broken["counts"]
    with pytest.raises(ValueError):
        Reading.from_json(broken)


def test_it_learns_only_from_what_the_table_showed() -> None:
    h = Hand.deal(Rules(), mano=0, shuffler=seeded_shuffler(1))
    with pytest.raises(ValueError):
        OpponentMemory().learn(h.view(0), SEATS)  # a seat's view holds its cards


def _deje_that_wins_the_game(hidden: list[str]) -> Hand:
    """Pair 0 at 39 takes a deje at Grande: the game ends there, without a showdown."""
    h = Hand(Rules(), [cards("12o 12c 1e 5b"), cards(hidden[0]), cards("4o 5c 6e 7b"),
                       cards(hidden[1])], [], mano=0, scores=(39, 0), validate=False)
    h.apply(0, NO_HAY_MUS)
    h.apply(0, envido(2))
    h.apply(1, NO_QUIERO)
    h.apply(3, NO_QUIERO)
    assert h.finished and h.view(-1).revealed is None
    return h


def test_a_hand_without_a_showdown_teaches_nothing_of_hidden_cards() -> None:
    """Two deals alike in everything public: what is learnt is alike too (here, nothing)."""
    memories = []
    for hidden in (["4c 5e 6b 7o", "10o 10c 11e 11b"], ["10e 10b 11o 11c", "4e 5o 6c 7c"]):
        memory = OpponentMemory()
        memory.learn(_deje_that_wins_the_game(hidden).view(-1), SEATS)
        memories.append(memory.to_json())
    assert memories[0] == memories[1] == {}


def test_it_tells_a_bluffer_and_a_cautious_player_from_normal() -> None:
    memory = _play_hands([NormalBot(), farolero(), NormalBot(), prudente()], 60, seed=5)
    normal, bluffer, cautious = (memory.reading(SEATS[s]) for s in (0, 1, 3))
    assert normal.model().normal > 0.9, normal.fit  # «normal»'s rule foretells it best
    assert bluffer.model().normal < 0.1, bluffer.fit  # the bluffer's own table does
    weak = band(0.2)
    assert bluffer.model().table[OPEN][weak][2] > 0.2  # it opens weak hands with a bet…
    assert cautious.model().table[OPEN][weak][2] < 0.05  # …the cautious player never does
    assert cautious.model().table[OPEN][weak][3] < 0.02


def test_an_ordago_is_read_as_rare_as_the_player_makes_it() -> None:
    """A player seen passing and betting hand after hand without an órdago throws one only with
    the goods: a hand short of the top band is not among those it throws with. A bluffer's
    órdagos say little. Pooled over the bands, before a band's few hands could tell."""
    memory = _play_hands([NormalBot(), pasivo(), NormalBot(), farolero()], 20, seed=4)
    quiet, bluffer = memory.reading(SEATS[1]), memory.reading(SEATS[3])
    assert quiet.rarity() < 0.4 < 2.0 < bluffer.rarity()
    near = band(0.96)  # good, not the best
    prior = PRIOR[OPEN][near][ORDAGO_WORD]
    assert quiet.model().table[OPEN][near][ORDAGO_WORD] < 0.5 * prior
    assert bluffer.model().table[OPEN][near][ORDAGO_WORD] > prior
    top = len(BANDS)  # the top band's share is the prior's and what was seen there, as before
    assert Reading().model().table[OPEN][top][ORDAGO_WORD] == PRIOR[OPEN][top][ORDAGO_WORD]
    assert all(sum(row) == pytest.approx(1.0) for sit in quiet.model().table for row in sit)


def _situation_totals(reading: Reading) -> list[float]:
    return [sum(reading.count(sit, b, w) for b in range(len(BANDS) + 1) for w in range(4))
            for sit in (OPEN, ANSWER, ORDAGO_ANSWER)]


def test_learning_is_spread_over_neighbouring_bands_and_fades() -> None:
    reading = Reading()
    reading.observe(ANSWER, 0.7, 0, expected=1)
    assert reading.count(ANSWER, band(0.7), 0) == 1.0
    assert 0 < reading.count(ANSWER, band(0.7) - 1, 0) < 1
    assert 0 < reading.count(ANSWER, band(0.7) + 1, 0) < 1
    for _ in range(2000):
        reading.observe(ORDAGO_ANSWER, 0.95, 1, expected=1)
    assert _situation_totals(reading)[ORDAGO_ANSWER] <= 300.0 + 1e-6
    assert reading.count(ANSWER, band(0.7), 1) == 0.0  # other words untouched


def test_what_a_table_learns_fades_the_old_words_too() -> None:
    """The cap on words kept per situation holds on the table's path, where each hand is learnt
    apart and merged in, and when a stored reading meets what the table learnt meanwhile: a
    player who changes is followed however long they have been read."""
    memory = OpponentMemory()
    view = showdown_view(3)
    who = ["user:7", "bot:1:normal", "user:8", None]
    memory.learn(view, who)
    once = _situation_totals(memory.reading("user:7"))
    assert 0 < max(once) < COUNT_CAP
    for _ in range(int(COUNT_CAP / max(once)) * 3):
        memory.learn(view, who)
    totals = _situation_totals(memory.reading("user:7"))
    assert max(totals) == pytest.approx(COUNT_CAP)
    assert all(t <= COUNT_CAP + 1e-9 for t in totals)
    stored = Reading()
    stored.merge(memory.reading("user:7"))
    stored.merge(memory.reading("user:7"))  # a stored reading meets the table's
    assert all(t <= COUNT_CAP + 1e-9 for t in _situation_totals(stored))


def test_a_table_memory_keeps_people_for_their_server() -> None:
    memory = OpponentMemory()
    learnt = _play_hands([NormalBot()] * 4, 4, seed=2)
    assert memory.wanted([7, 8]) == [7, 8]
    memory.fetched(7, None)  # nothing stored for 7
    memory.readings["user:8"] = Reading()
    memory.readings["user:8"].merge(learnt.reading("seat:0"))  # learnt before 8's was fetched
    stored = Reading()
    stored.merge(learnt.reading("seat:1"))
    memory.fetched(8, stored)
    assert memory.wanted([7, 8, 9]) == [9]
    both = memory.reading("user:8")
    assert both.words == learnt.reading("seat:0").words + learnt.reading("seat:1").words
    assert memory.due() == {}  # nothing new since fetched
    view = showdown_view(3)
    memory.learn(view, ["user:7", "bot:1:normal", "user:8", None])
    assert set(memory.due()) == {7, 8}
    memory.stored([7])
    assert set(memory.due()) == {8}
    memory.learn(view, ["user:7", "bot:1:normal", "user:8", None])
    assert set(memory.due(held=[7, 8], every=2)) == {8}  # 7's second hand since stored
    assert memory.due(held=[7, 8], every=3) == {}  # both seated, too few hands…
    assert set(memory.due(held=[7], every=3)) == {8}  # …but 8 left
    memory.forget(8)
    assert "user:8" not in memory.readings and set(memory.due()) == {7}
    assert memory.wanted([8]) == [8]
    assert "bot:1:normal" in memory.readings and "seat:3" not in memory.readings


def test_models_are_frozen_snapshots() -> None:
    memory = OpponentMemory()
    before = memory.models(SEATS)
    assert before == (DEFAULT_MODEL,) * 4
    memory.learn(showdown_view(4), SEATS)
    after = memory.models(SEATS)
    assert after != before and before == (DEFAULT_MODEL,) * 4
    assert memory.models(SEATS) == after  # the same until the next hand is learnt


def _thrower(strong_only: bool) -> Reading:
    """A player seen going to órdago 40 times: only with ≥ 0.9 or with anything."""
    reading = Reading()
    rng = random.Random(1)
    for _ in range(40):
        p = rng.uniform(0.9, 1.0) if strong_only else rng.random()
        reading.observe(OPEN, p, 3, expected=0 if p < 0.97 else 3)
        q = rng.random()
        reading.observe(OPEN, q, 0 if strong_only or q > 0.5 else 3, expected=0)
    return reading


def test_dificil_accepts_an_ordago_from_a_bluffer_and_not_from_a_cautious_player() -> None:
    """Issue #28: the same cards, the same órdago, two throwers: one goes to órdago only with the
    goods, the other with anything."""
    h = Hand(Rules(senas=False), [cards("5c 6e 7b 4e"), cards("5o 6c 7e 4c"),
                                  cards("12o 12c 7e 4b"), cards("1o 1c 5e 6b")], [], mano=1,
             validate=False)
    h.apply(1, NO_HAY_MUS)
    h.apply(1, ORDAGO)  # the mano opens the Grande with an órdago
    view = h.view(2)
    assert view.ordago and view.to_act == 2
    bot = DificilBot()
    answers = {}
    for name, strong_only in (("cautious", True), ("bluffer", False)):
        models = list(OpponentMemory().models(SEATS))
        models[1] = _thrower(strong_only).model()
        answers[name] = ask(bot, view, random.Random(2), (), tuple(models))
    assert answers == {"cautious": NO_QUIERO, "bluffer": QUIERO}, answers


def test_dificil_plays_without_models_as_against_unknown_players() -> None:
    h = Hand.deal(Rules(), mano=0, shuffler=seeded_shuffler(3))
    rng = random.Random(3)
    while h.to_act is not None and h.lance is None:
        h.apply(h.to_act, NormalBot().decide(h.view(h.to_act), rng))
    assert h.lance is Lance.GRANDE and h.to_act is not None
    view = h.view(h.to_act)
    bot = DificilBot(worlds=24)
    plain = bot.decide(view, random.Random(1))
    told = bot.decide(view, random.Random(1), models=(DEFAULT_MODEL,) * 4)
    assert plain == told and h.is_legal(h.to_act, plain)
    assert PASO in view.legal


def _accepter(light: bool) -> Reading:
    """A player seen answering 60 órdagos: accepting with anything, or only with ≥ 0.9."""
    reading = Reading()
    rng = random.Random(5)
    for _ in range(60):
        p = rng.random()
        reading.observe(ORDAGO_ANSWER, p, 1 if light or p >= 0.9 else 0, expected=0)
    return reading


def _ordago_spot() -> Any:
    """Seat 0, mano, opens the Grande with two kings, a seven and a six: good, not the nuts."""
    h = Hand(Rules(senas=False), [cards("12o 12c 7b 6e"), cards("5o 6c 7e 4c"),
                                  cards("5c 6e 7b 4e"), cards("1o 1c 5e 6b")], [], mano=0,
             validate=False)
    h.apply(0, NO_HAY_MUS)
    view = h.view(0)
    assert view.lance is Lance.GRANDE and view.to_act == 0 and ORDAGO in view.legal
    return view


def test_an_ordago_is_thrown_at_a_light_caller_not_at_one_who_calls_with_the_goods() -> None:
    """Issue #28: an órdago is judged by the worlds where it is accepted, each counted by how
    likely the opponents' readings make their «quiero» with that world's cards. A player who
    calls only with the goods calls it where the bot's two kings lose; one who calls with anything
    calls it where they win."""
    from musbot.ai.dificil import ORDAGO_CALLED_WIN, ordago_fate
    from musbot.ai.rollout import _Replay

    view = _ordago_spot()
    bot = DificilBot()
    fates = {}
    for name, light in (("light", True), ("goods", False)):
        models = list(OpponentMemory().models(SEATS))
        models[1] = models[3] = _accepter(light).model()
        worlds = bot.sample(view, random.Random(3), (), models)
        fates[name] = ordago_fate(view, worlds, models, _Replay(view, models))
    light, goods = fates["light"], fates["goods"]
    assert light.called_win >= ORDAGO_CALLED_WIN > goods.called_win, (light, goods)
    # Those who accept only with the goods accept in fewer worlds, and those few weigh less.
    assert goods.accepted < light.accepted and goods.effective < light.effective


def test_an_ordago_few_worlds_accept_proves_little() -> None:
    """Issue #28: the share won when accepted is shrunk towards a loss by how few worlds, in
    effect, accepted it."""
    from musbot.ai.dificil import ORDAGO_DOUBT, OrdagoFate

    assert OrdagoFate(2.0, 2.0, 2.0).called_win == pytest.approx(2 / (2 + ORDAGO_DOUBT))
    assert OrdagoFate(50.0, 40.0, 50.0).called_win == pytest.approx(0.8 * 50 / (50 + ORDAGO_DOUBT))
    assert OrdagoFate(0.0, 0.0, 0.0).called_win == 0.0


def test_a_readings_rarity_is_kept_only_while_its_counts_are_unchanged() -> None:
    """``rarity`` is remembered between the words it weighs (issue 24: it was worked out again
    at every word of every hand learnt); whatever changes the counts (a word observed, a reading
    merged, one read back) makes it worked out afresh, to the same value as a reading that
    never remembered it."""

    def afresh(reading: Reading) -> float:
        copy = Reading()
        copy.counts = array("d", reading.counts)
        return copy.rarity()

    rng = random.Random(24)
    reading, other = Reading(), Reading()
    for step in range(400):
        target = reading if rng.random() < 0.7 else other
        target.observe(rng.randrange(3), rng.random(), rng.randrange(4), rng.randrange(4))
        if step % 50 == 49:
            reading.merge(other)
        assert reading.rarity() == afresh(reading)
    assert reading.rarity() != Reading().rarity()  # it did learn something of órdagos
    back = Reading.from_json(reading.to_json())
    assert back.rarity() == afresh(back)
