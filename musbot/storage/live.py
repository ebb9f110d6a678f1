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
from .errors import ConstraintViolation
from .models import SHARD_SHIFT, LiveTable, TablePlace
from .store import Store
from .tx import Row, Tx

_SAVE_SQL = {
    # The trigger of migration 0008 removes the table's journal entries as the state changes.
    "sqlite": (
        "INSERT INTO live_tables (channel_id, guild_id, state, version, updated_at)"
        " VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel_id) DO UPDATE SET"
        " guild_id = excluded.guild_id, state = excluded.state,"
        " version = live_tables.version + 1 + (SELECT COUNT(*) FROM live_moves"
        " WHERE live_moves.channel_id = excluded.channel_id),"
        " updated_at = excluded.updated_at RETURNING version"),
    "postgresql": (
        "WITH gone AS (DELETE FROM live_moves WHERE channel_id = ? RETURNING 1)"
        " INSERT INTO live_tables (channel_id, guild_id, state, version, updated_at)"
        " VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel_id) DO UPDATE SET"
        " guild_id = excluded.guild_id, state = excluded.state,"
        " version = live_tables.version + 1 + (SELECT COUNT(*) FROM gone),"
        " updated_at = excluded.updated_at RETURNING version"),
}
"""A whole save: the table's row written, its journal emptied, in one statement. The version
counts every save and journal entry since the table's first save."""


@cache
def _journal_sql(dialect: str, entries: int) -> str:
    """The one statement that appends ``entries`` entries to a table's journal, given the time,
    the entries and the channel; it writes nothing for a table with no saved row. Each entry is
    a row of its own (migration 0008), numbered after the table's last one."""
    if dialect == "sqlite":
        values = ", ".join(f"({n}, ?)" for n in range(1, entries + 1))
        source, number, entry = f"(VALUES {values}) AS v", "v.column1", "v.column2"
    else:
        values = ", ".join(f"({n}, ?::text)" for n in range(1, entries + 1))
        source, number, entry = f"(VALUES {values}) AS v (n, entry)", "v.n", "v.entry::json"
    return ("INSERT INTO live_moves (channel_id, seq, entry, at) SELECT t.channel_id,"
            " COALESCE((SELECT MAX(seq) FROM live_moves AS m WHERE m.channel_id = t.channel_id),"
            f" 0) + {number}, {entry}, ? FROM live_tables AS t, {source}"
            " WHERE t.channel_id = ?")


_LIVE_COLUMNS = "channel_id, guild_id, state, version, updated_at"
_MOVES = ("SELECT m.channel_id, m.entry, m.at FROM live_moves AS m"
          " JOIN live_tables AS t ON t.channel_id = m.channel_id")
"""The journal entries of the live tables (with a WHERE on ``t`` or ``guild_id``)."""

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
    args = row if tx.dialect == "sqlite" else (row[0], *row)
    return int(await tx.fetchval(_SAVE_SQL[tx.dialect], *args, now))


_APPEND_ONE_SQLITE = (
    "INSERT INTO live_moves (channel_id, seq, entry, at) VALUES (?, (SELECT COALESCE(MAX(seq),"
    " 0) + 1 FROM live_moves WHERE channel_id = ?), ?, ?)")
"""One entry, the commonest append, on SQLite: cheaper there than :func:`_journal_sql`'s join
with the table's row, as the foreign key refuses a table with no saved row anyway."""


async def _journal_rows(tx: Tx, now: str, channel_id: int, entries: Sequence[str]) -> bool:
    """Appends JSON ``entries`` to the table's journal; False (nothing written) if the table has
    no saved row."""
    if tx.dialect == "sqlite" and len(entries) == 1:
        try:
            return await tx.execute(_APPEND_ONE_SQLITE, channel_id, channel_id, entries[0],
                                    now) == 1
        except ConstraintViolation:
            # SQLite undoes just the statement: the transaction, if any, goes on.
            if await tx.fetchval("SELECT 1 FROM live_tables WHERE channel_id = ?",
                                 channel_id) is None:
                return False
            raise
    sql = _journal_sql(tx.dialect, len(entries))
    return await tx.execute(sql, now, *entries, channel_id) == len(entries)


async def _delete_row(tx: Tx, now: str, channel_id: int) -> bool:
    """The table's row, and with it its journal (``ON DELETE CASCADE``)."""
    return await tx.execute("DELETE FROM live_tables WHERE channel_id = ?", channel_id) > 0


async def _live_tables(tx: Tx, where: str, params: Sequence[Any]) -> list[LiveTable]:
    """The saved tables ``where`` selects (a clause on ``live_tables AS t``), each with its
    journal, from one snapshot."""
    rows = await tx.fetch(
        f"SELECT {_LIVE_COLUMNS} FROM live_tables AS t{where} ORDER BY channel_id", *params)
    moves = await tx.fetch(f"{_MOVES}{where} ORDER BY m.channel_id, m.seq", *params)
    journals: dict[int, list[tuple[str, str]]] = {}
    for channel_id, entry, at in moves:
        journals.setdefault(int(channel_id), []).append((entry, at))
    return [_live_table(row, journals.get(int(row[0]), [])) for row in rows]


def _live_table(row: Row, journal: Sequence[tuple[str, str]]) -> LiveTable:
    channel_id, guild_id, state, version, updated_at = row
    last = max([updated_at, *(at for _, at in journal)])
    return LiveTable(channel_id, guild_id, orjson.loads(state), version + len(journal),
                     datetime.fromisoformat(last), [orjson.loads(entry) for entry, _ in journal])


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
        return await self._read(lambda tx: _live_tables(tx, where, params))

    async def load_table(self, channel_id: int) -> LiveTable | None:
        found = await self._read(lambda tx: _live_tables(
            tx, " WHERE t.channel_id = ?", [channel_id]))
        return found[0] if found else None

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
