"""A table whose change could not be saved: it goes back to what is stored, and pauses until the
database takes its saves again.

A move is done only once it is saved. When the table's save hook cannot store a change it
raises :class:`Unsaved`, carrying the table as last stored; the table then (:meth:`Pause.begin`):

1. goes back to exactly that state (``state.reload``: the saved document and the journal
   entries stored after it, as a restart would restore it, in place), so what anyone sees or
   does next starts from what is stored;
2. refuses the command that caused it (:class:`NotSaved`, «no puedo guardar la jugada; repite
   en unos segundos»), and every command after it while paused, without trying to save;
3. stops its turn clock and its bots, and says once on its page that it is paused for the
   database (a notice that cannot be stored, the one thing shown unsaved);
4. tries again by itself (:meth:`Pause.retry`, after :data:`FIRST_RETRY_SECONDS`, doubling up
   to :data:`MAX_RETRY_SECONDS`; at once when told another table's save was stored,
   :meth:`Pause.hurry`): a save of the table as it is. Once one is stored it says it plays on,
   saves that, and the turn clock and the bots start again as after a restart.

The same waits (:class:`Backoff`) time the table's next saves while match records wait in its
outbox (stored with its state, so never lost): until the hook has stored every one.

One log line when a table pauses and one when it plays on, whatever the number of moves
refused or of attempts in between.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import render
from .clock import Alarm
from .seating import TableError

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.5
MAX_RETRY_SECONDS = 5.0
"""A paused table tries to save again after half a second, then after twice as long each time,
up to this: it plays on at most this long after the database is back."""

_jitter = random.Random()
"""Spreads the attempts of tables that paused together (never a table's own generator: a seeded
table's bots must decide as they would have)."""


class Unsaved(Exception):
    """Raised by a save hook that could not store the table's change (``error`` says why: a
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
    """Attempts of one table, on its clock, each after twice the wait of the one before up to
    :data:`MAX_RETRY_SECONDS`; ``attempt`` runs with the table's lock held."""

    __slots__ = ("_alarm", "_task", "attempt", "delay", "table")

    def __init__(self, table: Table, attempt: Callable[[], Awaitable[None]]) -> None:
        self.table = table
        self.attempt = attempt
        self.delay = FIRST_RETRY_SECONDS
        self._alarm: Alarm | None = None
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
        self._alarm = self.table.clock.call_later(seconds, self._ring)

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
        table = self.table
        try:
            async with table._lock:
                if self._task is asyncio.current_task():
                    self._task = None
                await self.attempt()
        except asyncio.CancelledError:
            raise
        except Exception:  # an attempt must never die silently: the next one is due
            log.exception("table %s: an attempt to save failed", table.channel_id)
            self.schedule()


class Pause:
    """The pause of one table for its database; its steps run with the table's lock held."""

    __slots__ = ("active", "attempts", "since", "table")

    def __init__(self, table: Table) -> None:
        self.table = table
        self.active = False
        self.since: float | None = None
        """When the pause began, on the table's clock."""
        self.attempts = Backoff(table, self.retry)

    def begin(self, failure: Unsaved) -> None:
        """A change could not be saved: the table goes back to what is stored and pauses."""
        from .state import reload

        table = self.table
        reload(table, failure.state, failure.journal)
        table.turns.cancel()
        table.bots.cancel()
        if not self.active:
            self.active = True
            self.since = table.clock.now()
            self.attempts.reset()
            code = getattr(failure.error, "code", type(failure.error).__name__)
            log.warning("table %s: a change could not be saved (%s: %s); paused until the "
                        "database takes it", table.channel_id, code, failure.error)
        notice = render.t("paused_db", table.lang)
        if not table.page.notes or table.page.notes[-1][1] != notice:
            table.pages.note(notice)  # once: a second failure in a row says nothing new
        table._show()
        self.attempts.schedule()

    def cancel(self) -> None:
        """No attempt left pending (the table is suspended or closed)."""
        self.attempts.cancel()

    def hurry(self) -> None:
        """The database took another table's save: the next attempt now, not after its wait."""
        if self.active:
            self.attempts.schedule(at_once=True)

    async def retry(self) -> None:
        """One attempt (lock held): the table saved as it is; once stored, it plays on."""
        table = self.table
        hook = table.on_change
        if not self.active or hook is None:
            return
        table.mark_changed()  # the whole state: the journal's last entries may be missing
        try:
            await hook(table)
        except Unsaved:
            self.attempts.schedule()
            return
        self.active = False
        self.attempts.reset()
        since, self.since = self.since, None
        log.warning("table %s: saving again after %.1f s paused; playing on", table.channel_id,
                    table.clock.now() - (since or 0.0))
        table._say("resumed_db")
        try:
            await table._changed()
        except NotSaved:
            return  # paused again (begin) at once
        table._show()
        await table._play_on()
