"""Live tables: each table in play's last saved state and the journal of moves made since, what a
restart restores. Written after every move of every table, so these are the hot writes (see
the backends' ``write_live``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from functools import cache, partial
from typing import Any

import orjson

from .documents import entry_json, state_json
from .models import SHARD_SHIFT, LiveTable, TablePlace
from .store import Store
from .tx import Row, Tx

_SAVE_SQL = (
    "INSERT INTO live_tables (channel_id, guild_id, state, version, updated_at)"
    " VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel_id) DO UPDATE SET"
    " guild_id = excluded.guild_id, state = excluded.state, journal = '[]',"
    " version = live_tables.version + 1, updated_at = excluded.updated_at RETURNING version")

@cache
def _journal_sql(dialect: str, entries: int) -> str:
    """The one statement that appends ``entries`` entries to a table's journal, given them (on
    PostgreSQL, as one comma-separated text), their count, the time and the channel. No
    RETURNING: on SQLite it costs as much again as the rest of the statement, and the journal's
    caller needs only to know that the row was there."""
    if dialect == "sqlite":
        appended = "json_insert(journal" + ", '$[#]', json(?)" * entries + ")"
    else:
        # The same text SQLite's json_insert writes (the entries are compact already), added to
        # the end of the document rather than parsed and written again.
        appended = ("(left(journal::text, -1) || CASE WHEN journal::text = '[]' THEN ''"
                    " ELSE ',' END || ?::text || ']')::json")
    return (f"UPDATE live_tables SET journal = {appended}, version = version + ?,"
            " updated_at = ? WHERE channel_id = ?")


_LIVE_COLUMNS = "channel_id, guild_id, state, version, updated_at, journal"

_SEATED_SQL = {
    "sqlite": (
        "SELECT channel_id, guild_id FROM live_tables WHERE EXISTS (SELECT 1 FROM"
        " json_each(state, '$.seats') WHERE CAST(json_extract(value, '$.user_id') AS TEXT) = ?)"
        " ORDER BY channel_id"),
    "postgresql": (
        "SELECT channel_id, guild_id FROM live_tables WHERE json_typeof(state->'seats') = 'array'"
        " AND EXISTS (SELECT 1 FROM json_array_elements(state->'seats') AS seat"
        " WHERE seat->>'user_id' = ?) ORDER BY channel_id"),
}
"""Reads the seats in the saved states (the table layer's ``seats``: ``{"user_id": …}`` or
null): asked only for a DM that this process's tables cannot answer, so no index is kept."""


async def _save_row(tx: Tx, now: str, row: tuple[int, int | None, str]) -> int:
    """Writes one save; returns the table's new version."""
    return int(await tx.fetchval(_SAVE_SQL, *row, now))


async def _journal_rows(tx: Tx, now: str, channel_id: int, entries: Sequence[str]) -> bool:
    """Appends JSON ``entries`` to the table's journal; False (nothing written) if the table has
    no saved row."""
    values = [",".join(entries)] if tx.dialect == "postgresql" else list(entries)
    sql = _journal_sql(tx.dialect, len(entries))
    return await tx.execute(sql, *values, len(entries), now, channel_id) == 1


async def _delete_row(tx: Tx, now: str, channel_id: int) -> bool:
    return await tx.execute("DELETE FROM live_tables WHERE channel_id = ?", channel_id) > 0


def _live_table(row: Row) -> LiveTable:
    channel_id, guild_id, state, version, updated_at, journal = row
    return LiveTable(channel_id, guild_id, orjson.loads(state), version,
                     datetime.fromisoformat(updated_at), orjson.loads(journal))


def shard_filter(shards: tuple[int, Collection[int]]) -> tuple[str, list[int]]:
    """The WHERE clause and parameters of the live tables that ``shards`` (shard count, this
    process's shard ids) restore. A table outside any guild (a DM, the terminal) belongs to
    shard 0, which is where Discord sends direct messages."""
    count, ids = shards[0], sorted(set(shards[1]))
    if count < 1 or not ids or not all(0 <= i < count for i in ids):
        raise ValueError(f"shard ids must be among 0..{count - 1}, not {ids}")
    marks = ",".join("?" * len(ids))
    where = f"((guild_id >> {SHARD_SHIFT}) % ?) IN ({marks})"
    if 0 in ids:
        where = f"(guild_id IS NULL OR {where})"
    return f" WHERE {where}", [count, *ids]


class LiveTables(Store):
    async def save_table(self, channel_id: int, guild_id: int | None,
                         state: Mapping[str, Any] | bytes) -> int:
        """Replace the table's saved state (and empty its journal); returns its new version once
        it is committed. A table's saves and journal entries are committed in the order they
        were made, and each caller returns only after its own is committed, so an acknowledged
        action is never lost. ``state`` may come encoded already
        (:func:`~musbot.storage.documents.state_document`)."""
        text = state.decode() if isinstance(state, bytes) else state_json(state)
        row = (channel_id, guild_id, text)
        return int(await self._backend.write_live(
            channel_id, partial(_save_row, row=row)))

    async def append_to_journal(self, channel_id: int, entries: Sequence[Any]) -> bool:
        """Appends ``entries`` (JSON values, in order) to the table's journal, which its next
        :meth:`save_table` empties: what a table in play writes after a move instead of its
        whole state. Same guarantees and order as :meth:`save_table`. False, with nothing
        written, if the table has no saved state to add to."""
        if not entries:
            return True
        encoded = [entry_json(entry) for entry in entries]
        return bool(await self._backend.write_live(
            channel_id, partial(_journal_rows, channel_id=channel_id, entries=encoded)))

    async def load_tables(self, shards: tuple[int, Collection[int]] | None = None
                          ) -> list[LiveTable]:
        """The saved tables, to restore them at start-up: every one, or with ``shards``
        (shard count, shard ids) only those of this process's shards (:func:`shard_filter`)."""
        where, params = shard_filter(shards) if shards is not None else ("", [])
        rows = await self._read(lambda tx: tx.fetch(
            f"SELECT {_LIVE_COLUMNS} FROM live_tables{where} ORDER BY channel_id", *params))
        return [_live_table(row) for row in rows]

    async def load_table(self, channel_id: int) -> LiveTable | None:
        row = await self._read(lambda tx: tx.fetchrow(
            f"SELECT {_LIVE_COLUMNS} FROM live_tables WHERE channel_id = ?", channel_id))
        return _live_table(row) if row else None

    async def seated_tables(self, user_id: int) -> list[TablePlace]:
        """Where the user sits, in every process's saved tables: which process a DM sent to shard
        0 belongs to."""
        rows = await self._read(lambda tx: tx.fetch(_SEATED_SQL[tx.dialect], str(user_id)))
        return [TablePlace(int(channel), guild) for channel, guild in rows]

    async def table_place(self, channel_id: int) -> TablePlace | None:
        """Where a saved table is played (None: no such table saved)."""
        row = await self._read(lambda tx: tx.fetchrow(
            "SELECT channel_id, guild_id FROM live_tables WHERE channel_id = ?", channel_id))
        return None if row is None else TablePlace(int(row[0]), row[1])

    async def delete_table(self, channel_id: int) -> bool:
        """Forget a table that closed; False if there was none. In order with the table's saves,
        like them."""
        return bool(await self._backend.write_live(
            channel_id, partial(_delete_row, channel_id=channel_id)))
