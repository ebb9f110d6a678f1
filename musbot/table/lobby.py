"""The seating commands of a :class:`~musbot.table.state.TableState`: sit down, add a bot, leave,
come back. Pure like the state's own commands (see there); each checks before it changes."""

from __future__ import annotations

from musbot.ai import LEVELS

from . import render
from .result import HandDealt, Result, Save, command
from .seats import Seat, TableError
from .state import TableState
from .upkeep import close


@command
def join(state: TableState, user_id: int, name: str, pair: int | None = None) -> Result:
    """Sits a person (``result.seat``); mid-match they take over a bot's seat."""
    state.require_open()
    already = state.seat_of(user_id)
    if already is not None:
        raise TableError("already_seated", number=already + 1)
    if user_id in state.left_deal and state.lifecycle == "playing":
        raise TableError("left_this_deal")
    pair = state.entry.pair_of(user_id, pair)
    seat = state.seating.free_seat(pair, take_bots=True)
    old = state.seats[seat]
    state.seats[seat] = Seat(name=name, user_id=user_id)
    shown = state.names()[seat]
    result = Result(save=Save.WHOLE, shown=True, seat=seat)
    if old is not None and state.lifecycle == "playing":
        state.say("took_bot_seat", name=shown, seat=seat + 1)
        result.notices.append(HandDealt(user_id, seat))
    else:
        state.say("joined", name=shown, seat=seat + 1,
                  pair=render.pair_text(state.rules.team(seat), state.names(), state.players,
                                        state.lang))
        if state.entry and state.lifecycle == "waiting" and state.entry.seated(state.humans()):
            result.merge(state.start(user_id).check())  # all four sat down: it begins
    return result


@command
def leave(state: TableState, user_id: int) -> Result:
    """Frees the seat; mid-match a bot plays it, and a table left without people closes."""
    seat = state.require_seat(user_id)
    person = state.seats[seat]
    assert person is not None
    shown = state.names()[seat]
    if state.lifecycle != "playing":
        state.seats[seat] = None
        state.say("left", name=shown)
        return Result(save=Save.WHOLE, shown=True)
    state.seats[seat] = Seat.robot(person.name, state.settings.bot_level)
    state.records.bot_took_over()
    match = state.match
    if match is not None and not match.finished:
        state.handbook.left(seat, len(match.hand.actions))
        state.left_deal.add(user_id)
    state.say("left_bot", name=shown)
    if not state.humans():
        return close(state, "closed_empty")
    return Result(save=Save.WHOLE, shown=True)


@command
def add_bot(state: TableState, pair: int | None = None, level: str | None = None) -> Result:
    """Sits a bot before the match (``result.seat``); empty seats get bots at the start anyway."""
    state.require_open()
    if state.lifecycle == "playing":
        raise TableError("already_started")
    if state.entry:
        raise TableError("table_reserved")
    level = level or state.settings.bot_level
    if level not in LEVELS:
        raise TableError("unknown_level", level=level)
    seat = state.seating.free_seat(pair, take_bots=False)
    state.seats[seat] = state.bot_seat(seat, level)
    state.say("bot_added", level=level, seat=seat + 1)
    return Result(save=Save.WHOLE, shown=True, seat=seat)


@command
def come_back(state: TableState, user_id: int) -> Result:
    """«vuelvo»: the person takes the seat back from the bot."""
    seat = state.require_seat(user_id)
    person = state.seats[seat]
    assert person is not None
    if not person.away:
        raise TableError("not_away")
    person.away = False
    person.expiries = 0
    state.say("back", name=state.names()[seat])
    return Result(save=Save.WHOLE, shown=True)


__all__ = ["add_bot", "come_back", "join", "leave"]
