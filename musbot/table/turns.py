"""The turn clock of one table: a reminder when little time is left, then the expiry, when the
seat's bot plays that turn (:class:`TurnKeeper`).

Every move re-arms the clock, so the scheduled alarm is kept whenever it goes off no
later than the new deadline and, when it goes off early, it schedules itself for the rest: a busy
bot otherwise pushes and cancels an entry in the event loop's timer heap on every move of every
table. Each step runs as a task that takes the table's lock, like any command, and only for the
turn it was armed for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from . import render
from .clock import Alarm, Clock
from .seating import TableError

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)

DEFAULT_TURN_SECONDS = 60.0
"""A turn's time when the server sets none (``/mus config tiempo``)."""
MIN_TURN_SECONDS = 15.0
MAX_TURN_SECONDS = 600.0
REMINDER_SECONDS = 15.0
"""The reminder comes when this much time is left."""

Step = Callable[[int, int], Awaitable[None]]
"""A step of the clock for (turn, seat); it runs with the table's lock held."""


def check_turn_seconds(seconds: float) -> None:
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise TableError("bad_timeout", seconds=seconds)


class TurnClock:
    """Times the turn of the person to act. ``locked`` runs a coroutine with the table's lock
    held; ``remind`` and ``expire`` are the table's steps."""

    def __init__(self, clock: Clock, locked: Callable[[Callable[[], Awaitable[None]]],
                                                      Awaitable[None]],
                 remind: Step, expire: Step, *, label: object = None) -> None:
        self.clock = clock
        self._locked = locked
        self._remind = remind
        self._expire = expire
        self._label = label
        """Names the table in the log."""
        self._alarm: Alarm | None = None
        self._alarm_at = 0.0
        self._due: tuple[float, Callable[[], Awaitable[None]]] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self, seconds: float, turn: int, seat: int) -> None:
        """The turn of ``seat`` (the table's ``turn``-th action) has ``seconds`` to be played."""
        self._cancel_task()
        if seconds > REMINDER_SECONDS:
            self._set(seconds - REMINDER_SECONDS, lambda: self._remind(turn, seat))
        else:
            self._set(seconds, lambda: self._expire(turn, seat))

    def after_reminder(self, turn: int, seat: int) -> None:
        """The reminder was given: the expiry comes when the rest of the time is up."""
        if self._due is None:
            self._set(REMINDER_SECONDS, lambda: self._expire(turn, seat))

    def stop(self) -> None:
        """Nobody's turn is timed (a bot's turn, the end of the match)."""
        self._cancel_task()
        self._due = None

    def cancel(self) -> None:
        """For good (the table closes or is suspended): no alarm is left pending."""
        self._due = None
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        self._cancel_task()

    def _set(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        due = self.clock.now() + seconds
        self._due = (due, step)
        if self._alarm is not None and self._alarm_at <= due:
            return
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm_at = due
        self._alarm = self.clock.call_later(seconds, self._ring)

    def _ring(self) -> None:
        self._alarm = None
        if self._due is None:
            return
        due, step = self._due
        left = due - self.clock.now()
        if left > 0:
            self._alarm_at = due
            self._alarm = self.clock.call_later(left, self._ring)
            return
        self._due = None
        self._task = asyncio.get_running_loop().create_task(self._run(step))

    async def _run(self, step: Callable[[], Awaitable[None]]) -> None:
        try:
            await self._locked(step)
        except asyncio.CancelledError:
            raise
        except Exception:  # a timer must never die silently nor take the table down
            log.exception("turn timer failed on table %s", self._label)

    def _cancel_task(self) -> None:
        task, self._task = self._task, None
        # A step re-arms the clock after an expiry: it must not cancel its own task.
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()


MAX_EXPIRIES = 3
"""Expiries in a row before a bot takes the seat over until «vuelvo»."""


class TurnKeeper:
    """The turn clock of a table and what running out of time means: a reminder to the
    person, then their seat's bot plays that one turn; the third time in a row the bot keeps the
    seat until «vuelvo». Its steps run with the table's lock held."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.clock = TurnClock(table.clock, table._locked, self._remind, self._time_up,
                               label=table.channel_id)

    def arm(self) -> None:
        """Times the person to act now, if a person is to act and the table has a clock."""
        table = self.table
        match = table.match
        self.clock.stop()
        if table.turn_seconds is None or table.state != "playing" or match is None:
            return
        seat = match.to_act
        occupant = table.seats[seat] if seat is not None else None
        if seat is None or occupant is None or occupant.bot_plays:
            return
        self.clock.start(table.turn_seconds, table.turn, seat)

    def stop(self) -> None:
        self.clock.stop()

    def cancel(self) -> None:
        self.clock.cancel()

    async def _remind(self, turn: int, seat: int) -> None:
        table = self.table
        occupant = table.seats[seat]
        if (turn != table.turn or table.state != "playing" or occupant is None
                or occupant.user_id is None):
            return
        await table.notify.alert(occupant.user_id, render.t(
            "reminder", table.lang, mention=table.transport.mention(occupant.user_id),
            seconds=int(REMINDER_SECONDS)))
        if turn == table.turn:
            self.clock.after_reminder(turn, seat)

    async def _time_up(self, turn: int, seat: int) -> None:
        table = self.table
        if turn == table.turn and table.state == "playing":
            await self._expire(seat)
            await table._changed()

    async def _expire(self, seat: int) -> None:
        table = self.table
        occupant = table.seats[seat]
        table._require_match()
        if occupant is None or occupant.bot_plays:
            return
        occupant.expiries += 1
        table.mark_changed()
        table._say("expired", name=occupant.name)
        events = table._apply(seat, await table.bots.think(seat))
        if occupant.expiries >= MAX_EXPIRIES:
            occupant.away = True
            table._bot_took_over()
            table._say("away", name=occupant.name)
        await table._advance(events)
