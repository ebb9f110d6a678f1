"""One alarm per table for its turn clock's next step.

Every move re-arms the clock, so the scheduled alarm is kept whenever it goes off no later than
the new time and, when it goes off early, it schedules itself for the rest: a busy bot
otherwise pushes and cancels an entry in the event loop's timer heap on every move of every
table. What rings runs as a task (it takes the table's lock like any command).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .clock import Clock, Pending

log = logging.getLogger(__name__)


class Alarm:
    """Calls ``ring`` (a coroutine function) once the time last :meth:`set` has come."""

    __slots__ = ("_at", "_clock", "_due", "_pending", "_ring", "_task")

    def __init__(self, clock: Clock, ring: Callable[[], Awaitable[None]]) -> None:
        self._clock = clock
        self._ring = ring
        self._due: float | None = None
        """When it is to ring (None: not set)."""
        self._pending: Pending | None = None
        self._at = 0.0
        """When the clock's pending callback goes off."""
        self._task: asyncio.Task[None] | None = None

    def set(self, at: float | None) -> None:
        """Rings at ``at`` (None: not at all), instead of any time set before."""
        self._due = at
        if at is None:
            return
        if self._pending is not None and self._at <= at:
            return
        if self._pending is not None:
            self._pending.cancel()
        self._at = at
        self._pending = self._clock.call_later(at - self._clock.now(), self._wake)

    def cancel(self) -> None:
        """For good (the table closes or is suspended): nothing is left pending."""
        self._due = None
        pending, self._pending = self._pending, None
        if pending is not None:
            pending.cancel()
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def _wake(self) -> None:
        self._pending = None
        due = self._due
        if due is None:
            return
        left = due - self._clock.now()
        if left > 0:
            self._at = due
            self._pending = self._clock.call_later(left, self._wake)
            return
        self._due = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await self._ring()
        except asyncio.CancelledError:
            raise
        except Exception:  # a clock must never die silently nor take the table down
            log.exception("turn clock failed")
