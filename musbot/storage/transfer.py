"""``musbot db copy SRC DST``: a whole musbot database into an empty one, from SQLite into
PostgreSQL (or back, or between two of a kind), to move a bot onto a server.

The copy reads the source in one snapshot and writes the target in one transaction, which it
commits only once the target checks out against what it read: the rows of every table, and
every stored hand's transcript and result as text. So the target ends up with the whole,
checked copy or stays as it was. Stop the bot first: the source is read as it was when the copy
began, and what the bot writes after that stays behind. Running it again finds the copy made
and changes nothing; a target that holds anything else is refused untouched.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from .backend import Snapshot
from .database import Database
from .errors import CopyMismatch, StorageError, TargetNotEmpty
from .tx import Dialect, Tx

TABLES = ("players", "servers", "live_tables", "leagues", "league_members", "seasons",
          "matches", "match_seats", "games", "hands", "ledger", "ordagos", "ratings",
          "rating_history", "player_readings")
"""Every table of musbot's schema (but ``schema_version``, which each side's own migrations
write), each after the tables it references."""

_CATALOG: dict[Dialect, tuple[str, str]] = {
    "sqlite": ("SELECT name FROM sqlite_master WHERE type = 'table'"
               " AND name NOT LIKE 'sqlite_%'",
               "SELECT name FROM pragma_table_info(?) ORDER BY cid"),
    "postgresql": ("SELECT table_name FROM information_schema.tables"
                   " WHERE table_schema = current_schema()",
                   "SELECT column_name FROM information_schema.columns"
                   " WHERE table_schema = current_schema() AND table_name = ?"
                   " ORDER BY ordinal_position"),
}
"""A database's tables, and a table's columns."""

_HANDS = "SELECT hand_id, transcript, result FROM hands ORDER BY hand_id"


@dataclass(frozen=True, slots=True)
class CopyReport:
    rows: dict[str, int]
    """Rows of each table, the same on both sides."""
    already: bool
    """The target held this copy already: nothing was written."""


async def _columns(db: Database) -> dict[str, tuple[str, ...]]:
    """Each table's columns, after checking the database has exactly musbot's tables."""
    tables_sql, columns_sql = _CATALOG[db.dialect]
    found = {row[0] for row in await db._read(lambda tx: tx.fetch(tables_sql))}
    if found != {*TABLES, "schema_version"}:
        raise StorageError(f"{db.where}: tables {sorted(found ^ {*TABLES, 'schema_version'})} "
                           "are not what this musbot's copy knows (see transfer.TABLES)")

    async def read(tx: Tx) -> dict[str, tuple[str, ...]]:
        return {table: tuple(row[0] for row in await tx.fetch(columns_sql, table))
                for table in TABLES}

    return await db._read(read)


async def _counts(snapshot: Snapshot) -> dict[str, int]:
    counts = {}
    for table in TABLES:
        async for [(count, *_)] in snapshot.rows(f"SELECT COUNT(*) FROM {table}"):
            counts[table] = int(count)
    return counts


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


async def _hands(snapshot: Snapshot) -> AsyncIterator[tuple[int, bytes, bytes]]:
    """Every hand's id and the digests of its transcript's and result's text, by id."""
    async for batch in snapshot.rows(_HANDS):
        for hand_id, transcript, result in batch:
            yield int(hand_id), _digest(transcript), _digest(result)


async def _holds(snapshot: Snapshot, counts: dict[str, int],
                 hands: list[tuple[int, bytes, bytes]]) -> bool:
    """Whether the database holds these rows and exactly these hands' texts."""
    if await _counts(snapshot) != counts:
        return False
    return [hand async for hand in _hands(snapshot)] == hands


async def copy_database(source_target: str, target_target: str) -> CopyReport:
    """Copies the database ``source_target`` names into the empty one ``target_target`` names
    (both as ``MUSBOT_DB`` takes them); see the module docstring."""
    async with Database(source_target) as source, Database(target_target) as target:
        if (source.dialect, source.where) == (target.dialect, target.where):
            raise ValueError(f"{source.where}: the source and the target are one database")
        columns = await _columns(source)
        if await _columns(target) != columns:
            raise StorageError(f"{target.where}: its tables' columns differ from the source's")
        async with source.backend.snapshot() as snapshot:
            counts = await _counts(snapshot)
            hands = [hand async for hand in _hands(snapshot)]
            async with target.backend.snapshot() as there:
                held = await _counts(there)
                if any(held.values()):
                    if await _holds(there, counts, hands):
                        return CopyReport(counts, already=True)
                    raise TargetNotEmpty(target.where, sum(held.values()),
                                         sum(1 for n in held.values() if n))
            async with target.backend.loader() as loader:
                for table in TABLES:
                    names = ", ".join(columns[table])
                    async for batch in snapshot.rows(f"SELECT {names} FROM {table}"):
                        await loader.insert(table, columns[table], [tuple(r) for r in batch])
                if not await _holds(loader, counts, hands):
                    raise CopyMismatch(target.where)  # rolled back: the target stays empty
        return CopyReport(counts, already=False)


def run_copy(source: str, target: str, *, say: Callable[[str], object] = print) -> int:
    """``musbot db copy``: 0 when the target holds the copy, 2 (with a sentence why) when it
    was refused or could not be opened, 1 when the copy does not check out."""
    try:
        report = asyncio.run(copy_database(source, target))
    except CopyMismatch as exc:
        print(f"musbot db copy: {exc}", file=sys.stderr)
        return 1
    except (StorageError, ValueError) as exc:
        print(f"musbot db copy: {exc}", file=sys.stderr)
        return 2
    rows = sum(report.rows.values())
    for table in TABLES:
        say(f"{table:>16} {report.rows[table]:>9}")
    if report.already:
        say(f"the target already holds this copy ({rows} rows): nothing was written")
    else:
        say(f"copied {rows} rows; every table's rows counted and every hand's transcript and "
            f"result ({report.rows['hands']} hands) compared as text on both sides")
    return 0
