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
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from musbot.i18n import CLI

from .backend import ReadView
from .database import Database, absolute_reading, backend_for
from .errors import (
    CopyMismatch,
    CorruptDatabase,
    DatabaseLocked,
    DatabaseTooNew,
    DatabaseUnavailable,
    ForeignDatabase,
    StorageError,
    TargetNotEmpty,
)
from .sqlite import SqliteBackend
from .sqlite_file import NoDatabase, NotADatabase, sqlite_file
from .tx import Dialect, Tx

TABLES = ("players", "servers", "live_tables", "live_moves", "leagues", "league_members",
          "seasons", "matches", "match_seats", "games", "hands", "ledger", "ordagos", "ratings",
          "rating_history", "person_languages", "person_calls", "tournaments",
          "tournament_people", "tournament_podium", "tournament_tables", "pair_ratings",
          "pair_rating_keys", "player_readings")
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


class SameDatabase(StorageError):
    """``musbot db copy`` was given one database twice."""

    def __init__(self, where: str) -> None:
        super().__init__(f"{where}: the source and the target are one database")
        self.where = where


class TablesDiffer(StorageError):
    """A side's tables are not the ones this musbot's copy knows."""

    def __init__(self, where: str) -> None:
        super().__init__(f"{where}: its tables are not what this musbot's copy knows "
                         "(see transfer.TABLES)")
        self.where = where


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
        raise TablesDiffer(db.where)

    async def read(tx: Tx) -> dict[str, tuple[str, ...]]:
        return {table: tuple(row[0] for row in await tx.fetch(columns_sql, table))
                for table in TABLES}

    return await db._read(read)


async def _counts(snapshot: ReadView) -> dict[str, int]:
    counts = {}
    for table in TABLES:
        async for [(count, *_)] in snapshot.rows(f"SELECT COUNT(*) FROM {table}"):
            counts[table] = int(count)
    return counts


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


async def _hands(snapshot: ReadView) -> AsyncIterator[tuple[int, bytes, bytes]]:
    """Every hand's id and the digests of its transcript's and result's text, by id."""
    async for batch in snapshot.rows(_HANDS):
        for hand_id, transcript, result in batch:
            yield int(hand_id), _digest(transcript), _digest(result)


async def _holds(snapshot: ReadView, counts: dict[str, int],
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
            raise SameDatabase(source.where)
        columns = await _columns(source)
        if await _columns(target) != columns:
            raise TablesDiffer(target.where)
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


def _sqlite_path(target: str) -> Path | None:
    backend = backend_for(target)
    return backend.path if isinstance(backend, SqliteBackend) else None


def refusal(source: str, target: str) -> tuple[str, dict[str, object]] | None:
    """Why the SQLite files named cannot be copied from or into (a ``CLI`` key and its values),
    found before anything is opened: opening makes a missing file and its folders, and beside a
    device SQLite makes a journal (``/dev/null-journal``). The source must be an SQLite file
    this process can read; the target too, or a new file in a folder that takes files."""
    source_path, target_path = _sqlite_path(source), _sqlite_path(target)
    try:
        if source_path is not None:
            try:
                sqlite_file(source_path)
            except NoDatabase:
                meant = absolute_reading(source)
                if meant is not None:
                    return "copy_no_source_url", {"source": source_path, "url": meant}
                return "copy_no_source", {"source": source_path}
        if target_path is not None and target_path.exists():
            sqlite_file(target_path)
    except NotADatabase as exc:
        return exc.key, {"where": exc.where, "detail": exc.detail}
    if target_path is None or target_path.exists():
        return None
    folder = target_path.parent
    if not folder.is_dir():
        return "copy_no_folder", {"folder": folder}
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return "copy_not_writable", {"folder": folder, "detail": exc.strerror or str(exc)}
    return None


def run_copy(source: str, target: str, *, lang: str = "es",
             say: Callable[[str], object] = print) -> int:
    """``musbot db copy``: 0 when the target holds the copy, 2 (with a sentence why) when it
    was refused or could not be opened, 1 when the copy does not check out. Every word in
    ``lang``; a source that does not exist is refused before anything is opened or made."""
    def refuse(key: str, status: int = 2, **params: object) -> int:
        print(CLI(key, lang, **params), file=sys.stderr)
        return status

    for given in (source, target):  # a mistyped URL is refused before anything is made
        try:
            backend_for(given)
        except ValueError:
            return refuse("copy_bad_url", scheme=given.split(":", 1)[0] + ":")
    refused = refusal(source, target)
    if refused is not None:
        key, params = refused
        return refuse(key, **params)
    try:
        report = asyncio.run(copy_database(source, target))
    except CopyMismatch as exc:
        return refuse("copy_mismatch", 1, where=exc.where)
    except TargetNotEmpty as exc:
        return refuse("copy_not_empty", where=exc.where, rows=exc.rows, tables=exc.tables)
    except SameDatabase as exc:
        return refuse("copy_same", where=exc.where)
    except TablesDiffer as exc:
        return refuse("copy_tables_differ", where=exc.where)
    except DatabaseUnavailable as exc:
        return refuse("copy_unavailable", where=exc.where, detail=exc.detail)
    except DatabaseLocked as exc:
        return refuse("copy_locked", where=exc.where, timeout=f"{exc.timeout:g}")
    except CorruptDatabase as exc:
        return refuse("copy_corrupt", where=exc.where, detail=exc.detail)
    except DatabaseTooNew as exc:
        return refuse("copy_too_new", where=exc.where, found=exc.found, known=exc.known)
    except ForeignDatabase as exc:
        return refuse("copy_foreign", where=exc.where)
    except StorageError as exc:  # none other is known: its own words, at least
        return refuse("copy_failed", detail=exc)
    rows = sum(report.rows.values())
    for table in TABLES:
        say(f"{table:>16} {report.rows[table]:>9}")
    if report.already:
        say(CLI("copy_already", lang, rows=rows))
    else:
        say(CLI("copy_done", lang, rows=rows, hands=report.rows["hands"]))
    return 0
