"""Opening the SQLite file safely and running numbered migrations (the RoboDanny way: .sql files
applied in order, each recorded in ``schema_version``).

Opening checks the file before changing anything: a damaged file, a file from a newer musbot or a
file that is not ours is refused with the file left exactly as it was, so that nothing is lost by
starting the wrong version of the bot.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import NoReturn, Self, TypeVar

import aiosqlite

from .errors import (
    CorruptDatabase,
    DatabaseClosed,
    DatabaseLocked,
    DatabaseTooNew,
    ForeignDatabase,
    StorageError,
)

T = TypeVar("T")

DEFAULT_PATH = Path("data/musbot.db")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations() -> tuple[Migration, ...]:
    """The migrations shipped in this package, by number; a gap is a packaging bug."""
    folder = resources.files("musbot.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError("migrations must be numbered 0001, 0002, … without gaps")
    return tuple(found)


MIGRATIONS = load_migrations()
SCHEMA_VERSION = len(MIGRATIONS)
"""The newest schema this code knows."""


def split_statements(sql: str) -> list[str]:
    """Statements of a migration, one per ``execute`` (``executescript`` would commit the
    migration's transaction behind our back)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise ValueError(f"incomplete SQL statement at the end of a migration: {leftover[0]!r}")
    return statements


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(when: datetime) -> str:
    """Stored timestamps are UTC ISO-8601 of one width, so that text order is time order."""
    return when.astimezone(UTC).isoformat(timespec="microseconds")


class Connection:
    """One aiosqlite connection, serialised by an asyncio lock so that the transactions of
    concurrent coroutines never interleave on it."""

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        busy_timeout: float = 5.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        """Seconds to wait for another process's lock before :class:`DatabaseLocked`."""
        self._clock = clock
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        busy_timeout: float = 5.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> Self:
        db = cls(path, busy_timeout=busy_timeout, clock=clock)
        await db.connect()
        return db

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def connect(self) -> None:
        """Check the file, then migrate it to :data:`SCHEMA_VERSION`."""
        if self._conn is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await self._prepare(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()

    async def backup(self, dest: str | os.PathLike[str]) -> Path:
        """A consistent, compacted copy of the database at ``dest`` (which must not exist), taken
        while the bot runs: before an upgrade, or nightly."""
        target = Path(dest)
        if target.exists():
            raise FileExistsError(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            conn = self._require()
            try:
                await conn.execute("VACUUM INTO ?", (str(target),))
            except sqlite3.Error as exc:
                self._reraise(exc)
        return target

    async def schema_version(self) -> int:
        async with self._read() as conn:
            return await self._stored_version(conn)

    # --- opening ------------------------------------------------------------------------------

    async def _prepare(self, conn: aiosqlite.Connection) -> None:
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            # Read-only checks first: until they pass, nothing may be written to the file.
            verdict = [row[0] for row in await conn.execute_fetchall("PRAGMA integrity_check")]
            if verdict != ["ok"]:
                raise CorruptDatabase(self.path, "; ".join(str(v) for v in verdict[:3]))
            found = await self._stored_version(conn)
            if found > SCHEMA_VERSION:
                raise DatabaseTooNew(self.path, found, SCHEMA_VERSION)
            await conn.execute("PRAGMA foreign_keys = ON")
            # WAL: readers never block the writer; NORMAL sync keeps every commit across a crash
            # of the process (a power cut may lose the last commits, never consistency).
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            if found < SCHEMA_VERSION:
                await self._migrate(conn)
        except sqlite3.Error as exc:
            self._reraise(exc)

    async def _stored_version(self, conn: aiosqlite.Connection) -> int:
        tables = {row[0] for row in await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_version" not in tables:
            if tables - {"sqlite_sequence"}:
                raise ForeignDatabase(self.path)
            return 0
        rows = list(await conn.execute_fetchall("SELECT MAX(version) FROM schema_version"))
        return int(rows[0][0] or 0)

    async def _migrate(self, conn: aiosqlite.Connection) -> None:
        """All pending migrations in one transaction: the file is either fully upgraded or
        unchanged."""
        await conn.execute("BEGIN IMMEDIATE")
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            # Read again under the write lock: another process may have migrated meanwhile.
            found = await self._stored_version(conn)
            if found > SCHEMA_VERSION:
                raise DatabaseTooNew(self.path, found, SCHEMA_VERSION)
            for migration in MIGRATIONS[found:]:
                for statement in split_statements(migration.sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, self._now()))
            problems = await conn.execute_fetchall("PRAGMA foreign_key_check")
            if problems:
                raise StorageError(f"migration left broken references: {list(problems)[:3]}")
            await conn.execute("COMMIT")
        except BaseException:
            await self._rollback(conn)
            raise

    # --- transactions -------------------------------------------------------------------------

    def _require(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise DatabaseClosed(f"{self.path}: the database is not open")
        return self._conn

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        async with self._session("BEGIN IMMEDIATE") as conn:
            yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction, so that the queries of one call see one snapshot."""
        async with self._session("BEGIN") as conn:
            yield conn

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for one statement that is atomic by itself (autocommit): no BEGIN or
        COMMIT, so one trip to the database thread instead of three. The lock still keeps it
        out of another coroutine's open transaction."""
        async with self._lock:
            conn = self._require()
            try:
                yield conn
            except sqlite3.Error as exc:
                self._reraise(exc)

    @asynccontextmanager
    async def _session(self, begin: str) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            conn = self._require()
            try:
                await conn.execute(begin)
            except sqlite3.Error as exc:
                self._reraise(exc)
            try:
                yield conn
                await conn.execute("COMMIT")
            except sqlite3.Error as exc:
                await self._rollback(conn)
                self._reraise(exc)
            except BaseException:
                await self._rollback(conn)
                raise

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``work`` with the raw connection on the database thread, in one trip. Every
        awaited statement is a trip, and each trip's answer waits for a turn of a busy event
        loop; a write of several statements (a finished hand: the hand, its ledger, its
        órdagos, the game) would hold the connection for several turns while every table's
        save waits behind it. The caller holds the lock (inside :meth:`_tx` or
        :meth:`_tx_in_thread`). aiosqlite has no public call for this: its worker queue
        (``_execute``) is used here and nowhere else."""
        conn = self._require()
        return await conn._execute(work, conn._conn)

    async def _tx_in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction run entirely on the database thread (see :meth:`_in_thread`):
        committed if ``work`` returns, rolled back if it raises."""

        def transaction(raw: sqlite3.Connection) -> T:
            raw.execute("BEGIN IMMEDIATE")
            try:
                out = work(raw)
            except BaseException:
                if raw.in_transaction:
                    raw.execute("ROLLBACK")
                raise
            raw.execute("COMMIT")
            return out

        async with self._lock:
            try:
                return await self._in_thread(transaction)
            except sqlite3.Error as exc:
                self._reraise(exc)

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        try:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite already rolled back (e.g. after a disk error); nothing left to undo

    def _reraise(self, exc: sqlite3.Error) -> NoReturn:
        """Turn the SQLite errors a caller can act on into ours; let the others (bugs) through."""
        name = getattr(exc, "sqlite_errorname", "")
        text = str(exc).lower()
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
            raise DatabaseLocked(self.path, self.busy_timeout) from exc
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "not a database" in text \
                or "malformed" in text:
            raise CorruptDatabase(self.path, str(exc)) from exc
        raise exc

    def _now(self) -> str:
        return iso(self._clock())
