"""docs/rules.md §2: dealing, the mus phase, discards, replacements, reshuffles and mus corrido."""

from __future__ import annotations

import pytest
from helpers_rules import cards, ledger, make_hand, pass_all

from musbot.engine import DECK, Hand, IllegalAction, InvalidDeal, NotYourTurn, Rules
from musbot.engine import events as ev
from musbot.engine.actions import MUS, NO_HAY_MUS, PASO, descarte, envido
from musbot.engine.cards import parse_card
from musbot.engine.evaluation import Lance
from musbot.engine.hand import Phase

# Four hands with one suit each, so every card is easy to follow.
SUITED = ["12o 11o 10o 7o", "12c 11c 10c 7c", "12e 11e 10e 7e", "12b 11b 10b 7b"]


def c(code: str) -> int:
    return parse_card(code)


def all_mus(h: Hand) -> None:
    for _ in range(4):
        h.apply(h.to_act, MUS)  # type: ignore[arg-type]


def _fields(event: ev.Event) -> tuple:
    """An event's public fields, in order."""
    return tuple(getattr(event, name) for name in event.__match_args__)


def held(h: Hand, seat: int) -> set[int]:
    return set(h.view(seat).cards)


# --- dealing -----------------------------------------------------------------------------------


def test_s2_deal_one_card_at_a_time_starting_with_the_mano():
    """§2: four cards to each seat, one at a time, starting with the mano (mano 2)."""
    deck = list(DECK)
    h = Hand.deal(Rules(), deck, mano=2)
    assert h.view(2).cards == (deck[0], deck[4], deck[8], deck[12])
    assert h.view(3).cards == (deck[1], deck[5], deck[9], deck[13])
    assert h.view(0).cards == (deck[2], deck[6], deck[10], deck[14])
    assert h.view(1).cards == (deck[3], deck[7], deck[11], deck[15])
    assert h.to_act == 2


def test_s2_deal_with_secure_shuffle_gives_16_distinct_cards():
    """§2: Hand.deal with the default (secure) shuffle deals 16 distinct cards, 4 a seat."""
    h = Hand.deal(Rules(), mano=0)
    dealt = [card for s in range(4) for card in h.view(s).cards]
    assert len(dealt) == 16
    assert len(set(dealt)) == 16


def test_s2_invalid_deals_are_refused():
    """§1/§2: a card twice, or a hand of the wrong size, is not a deal from one Spanish deck."""
    with pytest.raises(InvalidDeal):
        Hand(Rules(), [cards("12 11 10 7"), cards("12 11 10 7")] * 2)
    with pytest.raises(InvalidDeal):
        Hand(Rules(), [[c("12o"), c("11o"), c("10o")], [c("12c"), c("11c"), c("10c"), c("7c")],
                       [c("12e"), c("11e"), c("10e"), c("7e")],
                       [c("12b"), c("11b"), c("10b"), c("7b")]])


# --- the mus phase -----------------------------------------------------------------------------


def test_s2_mus_is_said_in_order_from_the_mano():
    """§2: in playing order from the mano (mano 2: 2, 3, 0, 1) each says mus or no hay mus."""
    h = make_hand(SUITED, mano=2)
    seen = []
    for _ in range(4):
        seen.append(h.to_act)
        h.apply(h.to_act, MUS)
    assert seen == [2, 3, 0, 1]
    assert h.phase is Phase.DESCARTE


def test_s2_mus_out_of_turn_and_wrong_words():
    """§2: out of turn → NotYourTurn; betting words during the mus phase are illegal."""
    h = make_hand(SUITED, mano=0)
    with pytest.raises(NotYourTurn) as refused:
        h.apply(1, MUS)
    assert (refused.value.code, refused.value.params) == ("not_your_turn", {"seat": 1, "to_act": 0})
    with pytest.raises(IllegalAction):
        h.apply(0, envido())
    with pytest.raises(IllegalAction):
        h.apply(0, PASO)
    assert h.to_act == 0
    assert h.phase is Phase.MUS


@pytest.mark.parametrize(
    ("mano", "cutter_offset"),
    [(0, 0), (0, 1), (0, 2), (0, 3), (2, 1), (3, 2)],
)
def test_s2_first_no_hay_mus_ends_the_phase_mano_opens(mano, cutter_offset):
    """§2: the first «no hay mus» ends the phase at once; the mano opens Grande, whoever cut."""
    h = make_hand(SUITED, mano=mano)
    for _ in range(cutter_offset):
        h.apply(h.to_act, MUS)
    cutter = (mano + cutter_offset) % 4
    h.apply(cutter, NO_HAY_MUS)
    assert h.phase is Phase.LANCE
    assert h.lance is Lance.GRANDE
    assert h.mano == mano
    assert h.to_act == mano


def test_s2_all_mus_then_discards_in_order_from_the_mano():
    """§2: all four say mus → each discards, in order from the mano (mano 1: 1, 2, 3, 0)."""
    h = make_hand(SUITED, "1o 1c 1e 1b 4o 4c 4e 4b", mano=1)
    all_mus(h)
    assert h.phase is Phase.DESCARTE
    assert h.to_act == 1
    h.apply(1, descarte(c("12c"), c("11c")))
    assert h.to_act == 2
    with pytest.raises(NotYourTurn):
        h.apply(3, descarte(c("7b")))
    h.apply(2, descarte(c("7e")))
    assert h.to_act == 3
    h.apply(3, descarte(c("12b"), c("11b"), c("10b")))
    assert h.to_act == 0
    h.apply(0, descarte(c("7o")))
    # §2: replacements from the top of the deck, each seat all at once, in order from the mano.
    assert held(h, 1) == {c("10c"), c("7c"), c("1o"), c("1c")}
    assert held(h, 2) == {c("12e"), c("11e"), c("10e"), c("1e")}
    assert held(h, 3) == {c("7b"), c("1b"), c("4o"), c("4c")}
    assert held(h, 0) == {c("12o"), c("11o"), c("10o"), c("4e")}
    # then a new mus round starts, again from the mano
    assert h.phase is Phase.MUS
    assert h.to_act == 1


def test_s2_number_discarded_is_public_cards_are_not():
    """§2: the number discarded is public, the cards are not."""
    h = make_hand(SUITED, "1o 1c 1e 1b 4o 4c 4e 4b", mano=0)
    all_mus(h)
    h.apply(0, descarte(c("7o")))
    h.apply(1, descarte(c("12c"), c("11c")))
    h.apply(2, descarte(c("7e")))
    h.apply(3, descarte(c("12b"), c("11b"), c("10b")))
    v = h.view(2)
    assert v.discards == ((1, 2, 1, 3),)
    assert v.revealed is None
    assert set(v.cards) == {c("12e"), c("11e"), c("10e"), c("1b")}
    discarded = [_fields(e) for e in v.history if isinstance(e, ev.Discarded)]
    assert discarded == [(0, 1), (1, 2), (2, 1), (3, 3)]  # (seat, how many): counts, not cards


def test_s2_discard_one_to_four_cards_held():
    """§2: each discards 1 to 4 cards (at least one) that he holds."""
    h = make_hand(SUITED, "1o 1c 1e 1b 4o 4c 4e 4b 5o 5c", mano=0)
    all_mus(h)
    with pytest.raises(IllegalAction):
        h.apply(0, descarte())
    with pytest.raises(IllegalAction) as refused:
        h.apply(0, descarte(c("12c")))  # seat 1's card
    assert (refused.value.code, refused.value.params) == ("discard_not_held", {"card": "12c"})
    with pytest.raises(IllegalAction):
        h.apply(0, descarte(c("1o")))  # still in the deck
    with pytest.raises(IllegalAction):
        h.apply(0, descarte(c("12o"), c("12o")))
    with pytest.raises(IllegalAction):
        h.apply(0, MUS)
    assert h.to_act == 0
    h.apply(0, descarte(c("12o"), c("11o"), c("10o"), c("7o")))  # all four is fine
    h.apply(1, descarte(c("7c")))
    h.apply(2, descarte(c("7e")))
    h.apply(3, descarte(c("7b")))
    assert held(h, 0) == {c("1o"), c("1c"), c("1e"), c("1b")}
    assert held(h, 1) == {c("12c"), c("11c"), c("10c"), c("4o")}


def test_s2_rounds_repeat():
    """§2: rounds repeat without limit: three mus rounds, then a cut; lances from the mano."""
    deck = "1o 1c 1e 1b 4o 4c 4e 4b 5o 5c 5e 5b"
    h = make_hand(SUITED, deck, mano=3)
    for _ in range(3):
        assert h.phase is Phase.MUS
        assert h.to_act == 3
        all_mus(h)
        for _ in range(4):
            seat = h.to_act
            h.apply(seat, descarte(h.view(seat).cards[0]))
    assert len(h.view(0).discards) == 3
    h.apply(3, MUS)
    h.apply(0, NO_HAY_MUS)
    assert h.lance is Lance.GRANDE
    assert h.to_act == 3


def test_s2_cut_in_a_later_round_mano_still_opens():
    """§2: after a discard round, seat 2 cuts; the mano (0) opens the lances."""
    h = make_hand(SUITED, "1o 1c 1e 1b", mano=0)
    all_mus(h)
    for seat in range(4):
        h.apply(seat, descarte(h.view(seat).cards[0]))
    h.apply(0, MUS)
    h.apply(1, MUS)
    h.apply(2, NO_HAY_MUS)
    assert h.to_act == 0
    assert h.mano == 0


# --- reshuffles --------------------------------------------------------------------------------


def _discard_first(h: Hand, *extra: str) -> list[int]:
    """Every seat, from the mano, discards its first card (plus ``extra`` for the last seat)."""
    out = []
    for k in range(4):
        seat = h.to_act
        cs = [h.view(seat).cards[0]]
        if k == 3:
            cs += [c(x) for x in extra]
        out.append(cs)
        h.apply(seat, descarte(*cs))
    return out


def test_s2_reshuffle_lone_waiting_player_keeps_own_discards_aside():
    """§2: the deck (3 cards) runs out when only seat 3 still waits: his own discard stays aside;
    the new deck is the other discards in discard order (docs/replay.md, reshuffles=[])."""
    h = make_hand(SUITED, "1o 1c 1e", mano=0, reshuffles=[])
    all_mus(h)
    _discard_first(h)  # 12o, 12c, 12e, 12b
    assert held(h, 0) == {c("11o"), c("10o"), c("7o"), c("1o")}
    assert held(h, 1) == {c("11c"), c("10c"), c("7c"), c("1c")}
    assert held(h, 2) == {c("11e"), c("10e"), c("7e"), c("1e")}
    assert held(h, 3) == {c("11b"), c("10b"), c("7b"), c("12o")}
    assert h.reshuffles == [[c("12o"), c("12c"), c("12e")]]
    assert ev.Reshuffled(3, 1) in h.events


def test_s2_reshuffle_lone_player_partly_served():
    """§2: seat 3 discards two, gets the last card of the deck and still waits alone: both his
    discards stay aside."""
    h = make_hand(SUITED, "1o 1c 1e 1b", mano=0, reshuffles=[])
    all_mus(h)
    _discard_first(h, "11b")  # seat 3 discards 12b and 11b
    assert held(h, 3) == {c("10b"), c("7b"), c("1b"), c("12o")}
    assert h.reshuffles == [[c("12o"), c("12c"), c("12e")]]


def test_s2_reshuffle_with_several_waiting_takes_every_discard():
    """§2: the deck (1 card) runs out with three players waiting: all discards of the table,
    the waiting players' own included, make the new deck (discard order)."""
    h = make_hand(SUITED, "1o", mano=0, reshuffles=[])
    all_mus(h)
    _discard_first(h)
    assert h.reshuffles == [[c("12o"), c("12c"), c("12e"), c("12b")]]
    assert held(h, 0) == {c("11o"), c("10o"), c("7o"), c("1o")}
    assert held(h, 1) == {c("11c"), c("10c"), c("7c"), c("12o")}
    assert held(h, 2) == {c("11e"), c("10e"), c("7e"), c("12c")}
    assert held(h, 3) == {c("11b"), c("10b"), c("7b"), c("12e")}
    assert ev.Reshuffled(4, 0) in h.events


def test_s2_reshuffle_order_from_the_mano():
    """§2: with mano 2 the lone last player is seat 1; seat 1's discard stays aside."""
    h = make_hand(SUITED, "1o 1c 1e", mano=2, reshuffles=[])
    all_mus(h)
    _discard_first(h)  # order 2, 3, 0, 1: 12e, 12b, 12o, 12c
    assert held(h, 2) == {c("11e"), c("10e"), c("7e"), c("1o")}
    assert held(h, 3) == {c("11b"), c("10b"), c("7b"), c("1c")}
    assert held(h, 0) == {c("11o"), c("10o"), c("7o"), c("1e")}
    assert held(h, 1) == {c("11c"), c("10c"), c("7c"), c("12e")}


def test_s2_cards_set_aside_return_in_a_later_reshuffle():
    """§2: the set-aside discards are discards on the table for the next reshuffle."""
    h = make_hand(SUITED, "1o 1c 1e", mano=0, reshuffles=[])
    all_mus(h)
    _discard_first(h)  # deck left: 12c, 12e; 12b aside
    all_mus(h)
    _discard_first(h)  # 11o, 11c, 11e, 11b
    # seats 0 and 1 get 12c and 12e; then seats 2 and 3 wait: the new deck is 12b (set aside
    # last round) + this round's discards
    assert held(h, 0) == {c("10o"), c("7o"), c("1o"), c("12c")}
    assert held(h, 1) == {c("10c"), c("7c"), c("1c"), c("12e")}
    assert h.reshuffles[1] == [c("12b"), c("11o"), c("11c"), c("11e"), c("11b")]
    assert held(h, 2) == {c("10e"), c("7e"), c("1e"), c("12b")}
    assert held(h, 3) == {c("10b"), c("7b"), c("12o"), c("11o")}


def test_s2_explicit_reshuffles_are_used():
    """docs/replay.md: a given reshuffle is the new deck, top first; it must hold the right
    cards."""
    h = make_hand(SUITED, "1o 1c 1e", mano=0, reshuffles=[[c("12e"), c("12c"), c("12o")]])
    all_mus(h)
    _discard_first(h)
    assert held(h, 3) == {c("11b"), c("10b"), c("7b"), c("12e")}
    h = make_hand(SUITED, "1o 1c 1e", mano=0, reshuffles=[[c("12b"), c("12c"), c("12o")]])
    all_mus(h)
    with pytest.raises(InvalidDeal):
        _discard_first(h)  # 12b was set aside: it cannot be in the new deck


def test_s2_secure_reshuffle_never_gives_back_the_lone_players_discards():
    """§2 with the secure shuffle (reshuffles=None): seat 3 gets one of the others' discards."""
    for _ in range(30):
        h = make_hand(SUITED, "1o 1c 1e", mano=0)
        all_mus(h)
        _discard_first(h)
        new = held(h, 3) - {c("11b"), c("10b"), c("7b")}
        assert len(new) == 1
        assert new <= {c("12o"), c("12c"), c("12e")}


# --- mus corrido -------------------------------------------------------------------------------


def test_s2_corrido_first_to_cut_becomes_mano():
    """§2 [mus corrido]: the first player to cut becomes the mano and opens the lances."""
    h = make_hand(SUITED, mano=0, corrido=True)
    h.apply(0, MUS)
    h.apply(1, MUS)
    h.apply(2, NO_HAY_MUS)
    assert h.mano == 2
    assert h.to_act == 2
    assert h.view(0).mano == 2
    assert ev.ManoChanged(2) in h.events


def test_s2_corrido_mano_cutting_stays_mano():
    """§2 [mus corrido]: the mano himself cuts: he stays mano."""
    h = make_hand(SUITED, mano=1, corrido=True)
    h.apply(1, NO_HAY_MUS)
    assert h.mano == 1
    assert h.to_act == 1


def test_s2_without_corrido_the_cutter_does_not_become_mano():
    """§2: mus corrido off (default): seat 2 cuts, the mano stays seat 0."""
    h = make_hand(SUITED, mano=0)
    h.apply(0, MUS)
    h.apply(1, MUS)
    h.apply(2, NO_HAY_MUS)
    assert h.mano == 0
    assert h.to_act == 0


def test_s2_corrido_new_mano_wins_the_ties():
    """§2 + §1: in a corrido hand seat 2 cuts and becomes mano; seats 0 and 3 tie at Grande and
    the order is now 2, 3, 0, 1: seat 3 (pair 1) wins the point."""
    specs = ["12o 12c 7o 6o", "11 10 5 4", "11 10 5 4", "12e 12b 7c 6c"]
    h = make_hand(specs, mano=0, corrido=True)
    h.apply(0, MUS)
    h.apply(1, MUS)
    h.apply(2, NO_HAY_MUS)
    pass_all(h)
    assert h.result()["winners"]["grande"] == 3
    assert ledger(h)[0] == (1, 1, "grande", "paso")


def test_s2_corrido_next_mus_round_starts_from_the_mano():
    """§2: «in playing order from the mano, each player says mus»; mus corrido only makes the
    first to cut the mano. After a full discard round in a corrido hand nobody has cut yet, so the
    mano (seat 0) still speaks first."""
    h = make_hand(SUITED, "1o 1c 1e 1b", mano=0, corrido=True)
    all_mus(h)
    assert h.to_act == 0
    for _ in range(4):
        seat = h.to_act
        h.apply(seat, descarte(h.view(seat).cards[0]))
    assert h.phase is Phase.MUS
    assert h.mano == 0
    assert h.to_act == 0
