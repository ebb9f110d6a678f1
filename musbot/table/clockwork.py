"""The turn clock as data: when a person's turn is due a reminder, then runs out, and what
running out means (the seat's bot plays that one turn; the third time in a row it keeps the
seat until «vuelvo»). Pure: the time comes in as ``now``; the runner sets one alarm for
:attr:`TableState.deadline <musbot.table.state.TableState.deadline>` and calls :func:`tick`
when it rings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .result import Alert, Result, Save

if TYPE_CHECKING:
    from musbot.engine import Action

    from .state import TableState

REMINDER_SECONDS = 15.0
"""The reminder comes when this much of a turn's time is left."""
MAX_EXPIRIES = 3
"""Turns in a row the clock runs out on before a bot keeps the seat until «vuelvo»."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """``step`` is due at ``at`` for the ``turn``-th action's ``seat``."""

    turn: int
    seat: int
    at: float
    step: Literal["remind", "expire"]


def arm(state: TableState, now: float) -> None:
    """Times the person to act, if there is one and the table has a clock. A deadline is kept
    while it is for the same turn and seat: a seña or a note does not buy time."""
    seconds = state.settings.turn_seconds
    seat = state.person_to_act()
    if seconds is None or seat is None:
        state.deadline = None
        return
    current = state.deadline
    if current is not None and current.turn == state.turn and current.seat == seat:
        return
    if seconds > REMINDER_SECONDS:
        state.deadline = Deadline(state.turn, seat, now + seconds - REMINDER_SECONDS, "remind")
    else:
        state.deadline = Deadline(state.turn, seat, now + seconds, "expire")


def _due(state: TableState, now: float) -> Deadline | None:
    """The step due by ``now`` that still stands."""
    due = state.deadline
    if due is None or due.at > now:
        return None
    if due.turn != state.turn or state.person_to_act() != due.seat:
        return None
    return due


def expiring(state: TableState, now: float) -> int | None:
    """The seat whose turn runs out at :func:`tick` by ``now``, if any: the runner may think its
    bot's move beforehand (off the event loop)."""
    due = _due(state, now)
    return due.seat if due is not None and due.step == "expire" else None


def tick(state: TableState, now: float, action: Action | None = None) -> Result:
    """The clock's step due by ``now``, if any (nothing when the turn moved on meanwhile). A
    turn that runs out is played by the seat's bot: ``action`` if it was thought already."""
    if state.deadline is None or state.deadline.at > now:
        return Result()
    due = _due(state, now)
    if due is None:
        state.deadline = None
        return Result()
    occupant = state.seats[due.seat]
    assert occupant is not None and occupant.user_id is not None
    if due.step == "remind":
        state.deadline = Deadline(due.turn, due.seat, due.at + REMINDER_SECONDS, "expire")
        return Result(notices=[Alert(occupant.user_id, "reminder")])
    state.deadline = None
    occupant.expiries += 1
    shown = state.names()[due.seat]
    state.say("expired", name=shown)
    keeps = occupant.expiries >= MAX_EXPIRIES
    if keeps:
        state.say("away", name=shown)
    result = Result(save=Save.WHOLE, shown=True)
    result.merge(state.bot_move(due.seat, action))
    if keeps:  # after the move: a match it ended was still played by the person
        occupant.away = True
        state.records.bot_took_over()
    return result


__all__ = ["MAX_EXPIRIES", "REMINDER_SECONDS", "Deadline", "arm", "expiring", "tick"]
