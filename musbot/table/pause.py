"""A table whose change could not be saved goes back to what is stored, and pauses until the
database takes its saves again.

A move is done only once it is saved. When a table's :class:`~musbot.table.runner.Persist`
cannot store a change it raises :class:`Unsaved`, carrying the table as last stored; the runner
then:

1. goes back to exactly that state (the saved document and the journal entries stored after it,
   as a restart would restore it), keeping its page objects, which the transport holds;
2. refuses the command that caused it (:class:`NotSaved`, «no puedo guardar la jugada; repite
   en unos segundos»), and every command after it while paused, without trying to save;
3. stops its turn clock and its bots, and says once on its page that it is paused for the
   database (a notice that cannot be stored: the one thing shown unsaved);
4. tries again by itself (:class:`Backoff`: after :data:`FIRST_RETRY_SECONDS`, doubling up to
   :data:`MAX_RETRY_SECONDS`; at once when another table's save was stored): a save of the
   table as it is. Once one is stored it says it plays on, and the turn clock and the bots
   start again as after a restart.

The same waits time the table's next saves while match records wait in its outbox (stored with
its state, so never lost): until every one is stored.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from .clock import Clock, Pending
from .seats import TableError

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.5
MAX_RETRY_SECONDS = 5.0
"""A paused table tries to save again after half a second, then after twice as long each time,
up to this: it plays on at most this long after the database is back."""

_jitter = random.Random()
"""Spreads the attempts of tables that paused together (never a table's own generator: a seeded
table's bots must decide as they would have)."""


class Unsaved(Exception):
    """Raised by a persister that could not store a table's change (``error`` says why: a
    :class:`~musbot.storage.StorageError`). ``state`` and ``journal`` are the table as last
    stored, the document and the journal entries after it (``state`` None: nothing was ever
    stored), which the table goes back to."""

    def __init__(self, error: BaseException, state: dict[str, Any] | None,
                 journal: Sequence[Any] = ()) -> None:
        super().__init__(str(error))
        self.error = error
        self.state = state
        self.journal = list(journal)


class NotSaved(TableError):
    """A command refused because its change could not be saved (or the table is paused for
    its database): nothing of it happened, and it may be repeated in a few seconds."""

    def __init__(self) -> None:
        super().__init__("not_saved")


class Backoff:
    """Attempts on a clock, each after twice the wait of the one before up to
    :data:`MAX_RETRY_SECONDS`, each run with ``lock`` held."""

    __slots__ = ("_alarm", "_task", "attempt", "clock", "delay", "lock")

    def __init__(self, clock: Clock, lock: asyncio.Lock,
                 attempt: Callable[[], Awaitable[None]]) -> None:
        self.clock = clock
        self.lock = lock
        self.attempt = attempt
        self.delay = FIRST_RETRY_SECONDS
        self._alarm: Pending | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def pending(self) -> bool:
        return self._alarm is not None or self._task is not None

    def schedule(self, *, at_once: bool = False) -> None:
        """The next attempt, after the current wait (or ``at_once``); the wait after it
        doubles."""
        self.cancel()
        seconds = 0.0 if at_once else self.delay * _jitter.uniform(0.8, 1.0)
        self.delay = min(self.delay * 2, MAX_RETRY_SECONDS)
        self._alarm = self.clock.call_later(seconds, self._ring)

    def reset(self) -> None:
        self.cancel()
        self.delay = FIRST_RETRY_SECONDS

    def cancel(self) -> None:
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def _ring(self) -> None:
        self._alarm = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            async with self.lock:
                if self._task is asyncio.current_task():
                    self._task = None
                await self.attempt()
        except asyncio.CancelledError:
            raise
        except Exception:  # an attempt must never die silently: the next one is due
            log.exception("an attempt to save a table failed")
            self.schedule()


__all__ = ["FIRST_RETRY_SECONDS", "MAX_RETRY_SECONDS", "Backoff", "NotSaved", "Unsaved"]
