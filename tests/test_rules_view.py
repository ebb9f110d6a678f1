"""What one seat may know: own cards only until the showdown (docs/rules.md §2 «the cards are not»
public, §4.7 «all hands are shown», §5 «hands are shown»)."""

from __future__ import annotations

import pytest
from helpers_rules import D2, cut, make_hand, pass_all, play

from musbot.engine import events as ev
from musbot.engine.actions import ORDAGO, QUIERO, envido


def _no_showdown(v) -> bool:
    return not any(isinstance(e, ev.Showdown) for e in v.history)


def test_view_before_showdown_holds_only_own_cards():
    """§2/§5: before the showdown a seat's view holds only its own cards."""
    h = make_hand(D2)
    dealt = [tuple(x) for x in h.dealt]
    for seat in range(4):
        v = h.view(seat)
        assert v.cards == dealt[seat]
        assert v.revealed is None
        assert _no_showdown(v)
    cut(h)
    play(h, (0, envido()), (1, QUIERO))
    for seat in range(4):
        v = h.view(seat)
        assert v.cards == dealt[seat]
        assert v.revealed is None
        assert _no_showdown(v)


def test_view_after_showdown_holds_every_hand():
    """§5: after the last lance the hands are shown: every seat sees all four."""
    h = pass_all(cut(make_hand(D2)))
    dealt = tuple(tuple(x) for x in h.dealt)
    for seat in range(4):
        v = h.view(seat)
        assert v.revealed is not None
        assert tuple(tuple(x) for x in v.revealed) == dealt


def test_view_after_accepted_ordago_holds_every_hand():
    """§4.7: an accepted órdago: all hands are shown."""
    h = cut(make_hand(D2))
    play(h, (0, ORDAGO), (1, QUIERO))
    dealt = tuple(tuple(x) for x in h.dealt)
    for seat in range(4):
        assert tuple(tuple(x) for x in h.view(seat).revealed) == dealt


def test_view_legal_actions_only_for_the_seat_to_act():
    """§4.1: only the seat to act has actions."""
    h = cut(make_hand(D2))
    assert h.view(0).legal
    for seat in (1, 2, 3):
        assert h.view(seat).legal == ()


def test_replay_result_of_an_unfinished_hand():
    """docs/replay.md output: when the hand is not over, finished is false, to_act is the seat to
    speak, and the ledger/scores hold only what was scored so far (a §5 deje, at once)."""
    from helpers_rules import ledger

    from musbot.engine.actions import NO_QUIERO

    h = cut(make_hand(["12 11 7 1", "11 10 6 4", "10 7 5 1", "7 6 4 1"], scores=(3, 4)))
    play(h, (0, envido()), (1, NO_QUIERO), (3, NO_QUIERO))
    out = h.result()
    assert out["finished"] is False
    assert out["to_act"] == 0
    assert out["scores"] == [4, 4]
    assert out["game_winner"] is None
    assert ledger(h) == [(0, 1, "grande", "deje")]


def test_a_view_cannot_be_changed_by_whoever_holds_it():
    """§2: a view is what the engine let one seat see; its reader (a DM, a bot) cannot add to it
    or alter it, and a new view of the same seat is unchanged by any attempt."""
    h = make_hand(D2)
    v = h.view(1)
    for field, value in (("cards", tuple(h.dealt[0])), ("revealed", (tuple(h.dealt[0]),)),
                         ("seat", 0)):
        with pytest.raises(AttributeError):
            setattr(v, field, value)
    with pytest.raises(AttributeError):
        v.__dict__  # noqa: B018 — nothing beyond its fields to write into
    assert h.view(1) == v and v.cards == tuple(h.dealt[1])
