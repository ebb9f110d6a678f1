"""The tables where nothing happens close by themselves: nobody sat down, played, or asked to see
them for the server's ``idle_minutes`` (``/musadmin config``). A table left open is a seat nobody
else can take and a channel nobody else can use. What counts as something happening is what the
table's board saw: a change, or the table shown again (``Boards.changed_at``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Container

from musbot.table import Clock, Table, TableError, TableManager
from musbot.table.clock import Pending

from .boards import Boards

log = logging.getLogger(__name__)

IDLE_SWEEP_SECONDS = 60.0
"""How often the idle tables are looked for."""
PAUSED_IDLE_SECONDS = 24 * 3600.0
"""A paused table (the bot lost its channel, its people were told) waits at least this long for
its permissions to come back before it closes as idle: whoever manages the server may be away."""


class IdleTables:
    """Closes the idle tables of ``tables``, saying so on their page, every
    :data:`IDLE_SWEEP_SECONDS`. ``boards`` say when each last changed; ``asleep`` holds the
    channels of restored tables not resumed yet (left alone); ``minutes(guild_id)`` is a
    server's ``idle_minutes`` (0: never)."""

    def __init__(self, tables: TableManager, boards: Boards, clock: Clock, *,
                 asleep: Container[int], minutes: Callable[[int | None], Awaitable[int]]
                 ) -> None:
        self.tables = tables
        self.boards = boards
        self.clock = clock
        self.asleep = asleep
        self._idle_minutes = minutes
        self._alarm: Pending | None = None
        self._sweep: asyncio.Task[int] | None = None

    def start(self) -> None:
        self._alarm = self.clock.call_later(IDLE_SWEEP_SECONDS, self._ring)

    def stop(self) -> None:
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        if self._sweep is not None:
            self._sweep.cancel()

    def _ring(self) -> None:
        self.start()
        if self._sweep is None or self._sweep.done():
            self._sweep = asyncio.get_running_loop().create_task(self.sweep())

    async def sweep(self) -> int:
        """Closes the idle tables now; returns how many."""
        now = self.clock.now()
        minutes_of: dict[int | None, int] = {}
        closed = 0
        for table in list(self.tables):
            since = self.boards.changed_at(table.channel_id)
            if since is None or table.lifecycle == "closed" or \
                    table.channel_id in self.asleep or table.state.entry.entrants:
                continue  # a tournament's table: its grace time and its organiser decide
            if table.guild_id not in minutes_of:
                minutes_of[table.guild_id] = await self._idle_minutes(table.guild_id)
            minutes = minutes_of[table.guild_id]
            limit = minutes * 60.0
            if table.hidden is not None:
                limit = max(limit, PAUSED_IDLE_SECONDS)
            if not minutes or now - since < limit:
                continue

            def stirred(table: Table = table, limit: float = limit) -> bool:
                """Looked at again under the table's lock: a move may have come meanwhile."""
                last = self.boards.changed_at(table.channel_id)
                return last is not None and self.clock.now() - last < limit

            try:
                if not await self.tables.close(table.channel_id, "closed_idle",
                                               unless=stirred, minutes=minutes):
                    continue
            except TableError:
                continue  # closed meanwhile
            log.info("table %s closed after %d idle minutes", table.channel_id, minutes)
            closed += 1
        return closed


__all__ = ["IDLE_SWEEP_SECONDS", "PAUSED_IDLE_SECONDS", "IdleTables"]
