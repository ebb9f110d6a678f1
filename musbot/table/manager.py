"""Every live table of a bot process: one per channel, many at once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from musbot.engine import Rules

from .clock import Clock
from .seating import TableError
from .table import ChangeHook, Table
from .transport import Transport


class TableManager:
    """The registry the Discord cogs talk to: find, open and close the table of a channel.

    ``defaults`` are keyword arguments for every new :class:`Table` (clock, turn_seconds,
    bot_delay, lang, …); :meth:`open` may override them per table. ``on_change`` is given to
    every table (see :mod:`musbot.table.persist`, which sets it)."""

    def __init__(self, transport: Transport, *, clock: Clock | None = None,
                 on_change: ChangeHook | None = None, **defaults: Any) -> None:
        self.transport = transport
        self.clock = clock
        self.on_change = on_change
        self.defaults = defaults
        self._tables: dict[int, Table] = {}

    def get(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def open(self, channel_id: int, rules: Rules | None = None, **overrides: Any) -> Table:
        """A new table in the channel; refused if one is live there."""
        if channel_id in self._tables:
            raise TableError("table_exists")
        table = Table(channel_id, self.transport, rules=rules, **self.table_options(**overrides))
        self._tables[channel_id] = table
        return table

    def table_options(self, **overrides: Any) -> dict[str, Any]:
        """The keyword arguments a table of this manager is built with (restored ones too)."""
        options = {**self.defaults, **overrides}
        if self.clock is not None:
            options.setdefault("clock", self.clock)
        options.setdefault("on_change", self.on_change)
        options["on_close"] = self._forget
        return options

    def adopt(self, table: Table) -> None:
        """Registers a table built elsewhere (restored from the database)."""
        if table.channel_id in self._tables:
            raise TableError("table_exists")
        self._tables[table.channel_id] = table

    def tables_of(self, user_id: int) -> list[Table]:
        """The open tables where the user sits, in the order they were opened."""
        return [t for t in self._tables.values()
                if t.state != "closed" and t.seat_of(user_id) is not None]

    def table_for(self, user_id: int) -> tuple[Table | None, bool]:
        """Where a command sent by DM (``descarto``, ``seña``, ``cartas``) goes, for someone who
        may sit at several tables (a finished one still open, say): the table waiting for them
        (their turn), else one with a match in play, else the last opened. The second value
        says whether they sit at another table too, so the answer can name this one."""
        seated = self.tables_of(user_id)
        if not seated:
            return None, False
        playing = [t for t in seated if t.state == "playing"]
        waiting = [t for t in playing if t.awaits(user_id)]
        chosen = waiting[0] if waiting else playing[0] if playing else seated[-1]
        return chosen, len(seated) > 1

    async def close(self, channel_id: int, reason: str = "closed", **params: object) -> None:
        """Closes the channel's table for good, its page saying why (see :meth:`Table.close`)."""
        table = self._tables.get(channel_id)
        if table is None:
            raise TableError("no_table")
        await table.close(reason, **params)
        self._tables.pop(channel_id, None)

    async def close_all(self) -> None:
        """Close every table for good (with persistence, their saved states are deleted too);
        for a restart use :meth:`suspend_all`."""
        for channel_id in list(self._tables):
            await self.close(channel_id)

    def suspend_all(self) -> None:
        """Clean shutdown before a restart: stop every timer and bot, keep every table as
        saved."""
        for table in self._tables.values():
            table.suspend()

    async def handle_text(self, channel_id: int, user_id: int, text: str) -> bool:
        """Routes a channel message to its table; False when there is none or it is chat."""
        table = self._tables.get(channel_id)
        if table is None:
            return False
        return await table.handle_text(user_id, text)

    def _forget(self, table: Table) -> None:
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))
