"""The table's commands that are not moves nor seats: closing, the league it counts for, news on
its page, forgetting a person, and what the transport reports back (a DM refused, the messages
showing a page). Pure like the state's own commands (see ``state.py``); a table not being played
(asleep, hidden, paused, suspended) is ``halts.py``'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from musbot.i18n import TABLE
from musbot.words import visible_name

from .result import Alert, Direct, Result, Save, command
from .seats import TableError
from .state import TableState


def close(state: TableState, key: str, **params: object) -> Result:
    """Closes the table for good, its page saying why (``key``, with ``params``); a match in
    play counts nowhere."""
    if state.lifecycle == "closed":
        return Result()
    if state.lifecycle == "playing":
        state.records.add("abandon")
    state.lifecycle = "closed"
    state.deadline = None
    state.say(key, **params)
    state.page.final = True
    return Result(save=Save.WHOLE, shown=True)


def close_unreachable(state: TableState) -> Result:
    """The table's channel is gone: each person seated is told by DM, and the table closes."""
    if state.lifecycle == "closed":
        return Result()
    notices = [Direct(user_id, "closed_gone") for user_id in state.humans()]
    result = close(state, "closed_gone")
    result.notices = notices + result.notices
    return result


@command
def set_league(state: TableState, league_id: int | None) -> Result:
    """Makes the table count for a league (or a friendly one again); only before the match, so
    nobody finds out afterwards that a result counted."""
    state.require_open()
    if state.lifecycle == "playing":
        raise TableError("already_started")
    state.league_id = league_id
    return Result(save=Save.WHOLE)


def announce(state: TableState, text: str) -> Result:
    """A line of news on the page."""
    state.pages.note(text)
    return Result(save=Save.WHOLE, shown=True)


def ratings(state: TableState, changes: Sequence[Any]) -> Result:
    """A league match's new ratings, on the page (``changes``: storage's rating changes)."""
    shown = state.names()
    names = {s.user_id: shown[i] for i, s in enumerate(state.seats) if s is not None}
    parts = [TABLE("rating_change", state.lang, name=names.get(c.user_id, "?"),
                   before=c.before, after=c.after, delta=c.delta) for c in changes]
    return announce(state, TABLE("ratings", state.lang, list=", ".join(parts)))


def scrub_user(state: TableState, user_id: int, name: str) -> Result:
    """«Forget me»: a seated person keeps the seat under a neutral ``name``; the match records
    (the one in play and those waiting to be stored) no longer name them, nor, where the person
    no longer sits, hold their id; the pages say the neutral name; the bots forget how they bet
    (``readings.py``). Nothing to save: nothing of theirs was here."""
    seat = state.seat_of(user_id)
    found = seat is not None or state.records.held_by(user_id)
    old_names = state.records.forget(
        user_id, keep_id=seat is not None and state.lifecycle == "playing")
    if seat is not None:
        occupant = state.seats[seat]
        assert occupant is not None
        old_names.add(occupant.name)
        occupant.name = name
    if state.opener_id == user_id and seat is None:
        state.opener_id = None  # closing the table is left to whoever manages it
        found = True
    if state.readings.forget(user_id, seated=seat is not None):
        found = True  # how they bet, as the bots read it
    if state.handbook.forget(user_id):
        found = True  # the hands they may review
    state.left_deal.discard(user_id)
    match = state.match
    events = match.hand.events if match is not None else []
    old_names |= {visible_name(old) for old in old_names}  # as the pages showed them
    for old in sorted(old_names - {name, ""}, key=len, reverse=True):
        state.pages.rename(old, name, events, state.page_tail(), state.event_renderer())
    return Result(save=Save.WHOLE, shown=True) if found else Result()


def dm_refused(state: TableState, user_id: int) -> Result:
    """The person cannot get DMs: the channel is told, once a hand, without any card, to use
    «Ver mis cartas»."""
    seat = state.seat_of(user_id)
    occupant = state.seats[seat] if seat is not None else None
    if occupant is None or occupant.user_id is None or occupant.dm_warned:
        return Result()
    occupant.dm_warned = True
    return Result(save=Save.WHOLE, notices=[Alert(user_id, "dm_closed", offer="cards")])


def remember_refs(state: TableState, page_number: int, refs: list[tuple[int, int]]) -> Result:
    """The transport's references to the messages showing a page, saved so that after a
    restart it edits them rather than show the same moves again."""
    if state.pages.remember(page_number, refs) and state.lifecycle != "closed":
        return Result(save=Save.WHOLE)
    return Result()


__all__ = ["announce", "close", "close_unreachable", "dm_refused", "ratings", "remember_refs",
           "scrub_user", "set_league"]
