"""Opening the SQLite file safely and running numbered migrations (the RoboDanny way: .sql files
applied in order, each recorded in ``schema_version``).

Opening checks the file before changing anything: a damaged file, a file from a newer musbot or a
file that is not ours is refused with the file left exactly as it was, so that nothing is lost by
starting the wrong version of the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable
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

CHECKPOINT_EVERY = 10_000
"""Commits on the loop's connection between two checkpoints (a page each, 40 MB of log at
most). Each checkpoint ends with a short one on the loop (see
:meth:`Connection._run_checkpoint`), a stall of every table at once that a busy loop then needs
several times as long to catch up on. Every 1,000 commits that was every half second at 2,000
moves a second; now every five. The thread's part copies each page once however often it was
rewritten, so it does not grow with the interval."""


WAL_SIZE_LIMIT = 64 * 2**20
"""Bytes the write-ahead log file is cut back to when it starts again (above what
:data:`CHECKPOINT_EVERY` commits write, so normally never: cutting it is a truncate on the
loop). SQLite reuses the file and keeps it at its largest size otherwise: 70 MB after
``musbot bench load`` opened its thousand tables."""

WRITE_CACHE_KB = 8192
"""Page cache of the loop's connection: a thousand live tables' rows and what they touch."""


class _WriteLockBusy(Exception):
    """Another connection holds the write lock: the write goes to the database thread."""


def _is_busy(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY") \
        or "database is locked" in str(exc).lower()


async def _on_thread(conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(raw connection)`` on aiosqlite's thread. aiosqlite has no public call for this:
    its worker queue (``_execute``) is used here and nowhere else."""
    return await conn._execute(work, conn._conn)


def _transaction(raw: sqlite3.Connection, begin: str,
                 work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` between ``begin`` and COMMIT; rolled back if anything raises."""
    raw.execute(begin)
    try:
        out = work(raw)
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
                raw.execute("ROLLBACK")
        raise
    return out


def _sync_file(name: str) -> None:
    """Flushes the file's written pages to the disk (what SQLite's own sync of it does)."""
    fd = os.open(name, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


_this_second: tuple[int, str] = (-1, "")


def iso_now() -> str:
    """``iso(utcnow())`` for the saves of every move: the date and time are formatted once a
    second, only the microseconds on every call."""
    global _this_second
    second, nanos = divmod(time.time_ns(), 1_000_000_000)
    if second != _this_second[0]:
        _this_second = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{_this_second[1]}.{nanos // 1000:06d}+00:00"


class Connection:
    """Two connections to one file: the event loop's own, for writes, and aiosqlite's, whose
    thread runs the reads (and a write when the loop's connection would have to wait). See
    :meth:`_write` and :meth:`_fetch`."""

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
        self._direct: sqlite3.Connection | None = None
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None

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
            await _on_thread(conn, self._prepare)
            self._direct = self._open_direct()
        except sqlite3.Error as exc:
            await conn.close()
            self._reraise(exc)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        if self._direct is not None:
            direct, self._direct = self._direct, None
            direct.close()
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
            self._checkpoint = None
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()  # the last connection to close checkpoints the log

    async def schema_version(self) -> int:
        return await self._fetch(self._stored_version)

    # --- opening ------------------------------------------------------------------------------

    def _prepare(self, raw: sqlite3.Connection) -> None:
        """Runs on the database thread, in one trip."""
        raw.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        # Read-only checks first: until they pass, nothing may be written to the file.
        verdict = [row[0] for row in raw.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise CorruptDatabase(self.path, "; ".join(str(v) for v in verdict[:3]))
        found = self._stored_version(raw)
        if found > SCHEMA_VERSION:
            raise DatabaseTooNew(self.path, found, SCHEMA_VERSION)
        raw.execute("PRAGMA foreign_keys = ON")
        # WAL: readers never block the writer; NORMAL sync keeps every commit across a crash
        # of the process (a power cut may lose the last commits, never consistency).
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute("PRAGMA synchronous = NORMAL")
        if found < SCHEMA_VERSION:
            _transaction(raw, "BEGIN IMMEDIATE", self._migrate)

    def _stored_version(self, raw: sqlite3.Connection) -> int:
        tables = {row[0] for row in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "schema_version" not in tables:
            if tables - {"sqlite_sequence"}:
                raise ForeignDatabase(self.path)
            return 0
        return int(raw.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0)

    def _migrate(self, raw: sqlite3.Connection) -> None:
        """All pending migrations in one transaction: the file is either fully upgraded or
        unchanged."""
        raw.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        # Read again under the write lock: another process may have migrated meanwhile.
        found = self._stored_version(raw)
        if found > SCHEMA_VERSION:
            raise DatabaseTooNew(self.path, found, SCHEMA_VERSION)
        for migration in MIGRATIONS[found:]:
            for statement in split_statements(migration.sql):
                raw.execute(statement)
            raw.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, self._now()))
        problems = raw.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise StorageError(f"migration left broken references: {problems[:3]}")

    # --- transactions -------------------------------------------------------------------------
    #
    # Every transaction is one synchronous function of a raw ``sqlite3.Connection``, run whole in
    # one place: a write on the event loop's own connection (:meth:`_write`), a read on the
    # database thread (:meth:`_fetch`). No transaction is ever held open across an ``await``, so
    # no lock is needed between coroutines and the write lock is held for microseconds.

    def _require(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise self._not_open()
        return self._conn

    def _not_open(self) -> DatabaseClosed:
        return DatabaseClosed(f"{self.path}: the database is not open")

    def _open_direct(self) -> sqlite3.Connection:
        """The event loop's own connection, for writes.

        A busy bot writes after every action of every table. Through aiosqlite each write is a
        round trip to its thread, and on a loop that is busy most of the time the thread waits
        for the GIL at each step of the trip: a few milliseconds of SQL became tens of
        milliseconds of waiting. Written here instead, a write costs only its own SQL: with WAL
        and ``synchronous = NORMAL`` a commit appends to the log without an fsync. The two
        things that could block the loop are kept off it: ``busy_timeout = 0`` (another
        connection's lock sends the write to the thread, :meth:`_write`) and
        ``wal_autocheckpoint = 0`` (checkpoints, the only fsyncs, are mostly done on the
        thread, :meth:`_checkpoint_soon`).

        A writer process of its own, answering each write once committed, was measured too
        (``musbot bench load``, 200 tables): the wait for a save went from 0.06 / 0.44 ms at
        p50 / p99 to 0.56 / 12.7 ms at best. Every move waits for its own commit, so a disk
        stall delays the same moves in either process, and the answer adds turns of a busy
        loop; the loop saved no CPU (the pipe's frame cost what the statement did)."""
        raw = sqlite3.connect(self.path, isolation_level=None)
        try:
            raw.execute("PRAGMA busy_timeout = 0")
            raw.execute("PRAGMA foreign_keys = ON")
            raw.execute("PRAGMA synchronous = NORMAL")
            raw.execute("PRAGMA wal_autocheckpoint = 0")
            raw.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
            # Only this connection writes, so its cache stays valid from one write to the next:
            # big enough for every live table's row, a save reads nothing from the file.
            raw.execute(f"PRAGMA cache_size = -{WRITE_CACHE_KB}")
        except BaseException:
            raw.close()
            raise
        return raw

    def _write_here(self, work: Callable[[sqlite3.Connection], T], *,
                    one_statement: bool = False) -> T:
        """``work`` as one write transaction on the loop's connection, now. Raises
        :class:`_WriteLockBusy` (nothing written) if another connection holds the write lock.
        ``one_statement``: ``work`` runs a single statement, atomic by itself, so it runs
        without BEGIN and COMMIT (half the cost of a save)."""
        raw = self._direct
        if raw is None:
            raise self._not_open()
        try:
            out = work(raw) if one_statement else _transaction(raw, "BEGIN IMMEDIATE", work)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _WriteLockBusy from exc
            self._reraise(exc)
        except sqlite3.Error as exc:
            self._reraise(exc)
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY:
            self._checkpoint_soon()
        return out

    async def _write_there(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` as one write transaction on the database thread, which waits for the write
        lock up to ``busy_timeout`` (then :class:`DatabaseLocked`)."""
        return await self._in_thread(lambda raw: _transaction(raw, "BEGIN IMMEDIATE", work))

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """One write transaction: committed if ``work`` returns, rolled back if it raises. At once
        on the loop's connection when the write lock is free (nearly always: every write of
        this process goes through here and none waits), on the database thread when another
        process or a delayed write holds it."""
        try:
            return self._write_here(work)
        except _WriteLockBusy:
            return await self._write_there(work)

    async def _fetch(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` as one read transaction (one snapshot for all its queries) on the database
        thread, in one trip: a large read never stalls the event loop."""
        return await self._in_thread(lambda raw: _transaction(raw, "BEGIN", work))

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``work`` with the raw connection on aiosqlite's thread, in one trip (every
        awaited statement would be a trip of its own, each waiting for a turn of a busy loop);
        SQLite's errors come back as ours (:meth:`_reraise`)."""
        try:
            return await _on_thread(self._require(), work)
        except sqlite3.Error as exc:
            self._reraise(exc)

    async def checkpoint(self) -> None:
        """Copies the log into the database now, as every :data:`CHECKPOINT_EVERY` commits
        (``musbot bench load`` after opening its tables, to measure the steady state)."""
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        # As the one checkpoint task, so that no other one starts meanwhile.
        self._checkpoint_soon()
        assert self._checkpoint is not None
        await self._checkpoint

    def _checkpoint_soon(self) -> None:
        """Copies the write-ahead log into the database so that the log starts again from its
        beginning instead of growing. SQLite would do it inside the commit that crosses its
        threshold, on the loop, copying hundreds of pages and syncing the file."""
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        self._commits = 0
        self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        """The bulk of the log is copied on the thread while the loop keeps writing; then the
        loop's connection copies the few pages written meanwhile. Only a checkpoint that
        reaches the end of the log lets the next write start it again, and the loop is the
        one place where no write can land during it.

        That last step stops every table while it runs, and most of it was waiting for the
        disk: it syncs the log and then the file. So the thread copies twice (the second pass
        takes what the first one's tens of milliseconds let in) and then syncs both files
        itself, and the loop's syncs find next to nothing to write. In ``musbot bench load``
        (26 checkpoints each way) the loop's step went from 7.2–7.5 ms at p50, 11–12 at p90
        and 12–15 at most, to 1.7–2.3, 4.2–5.3 and 5.5–9.0."""
        passive = "PRAGMA wal_checkpoint(PASSIVE)"
        files = [f"{self.path}-wal", str(self.path)]

        def bulk(raw: sqlite3.Connection) -> None:
            raw.execute(passive).fetchall()
            raw.execute(passive).fetchall()
            for name in files:
                with contextlib.suppress(OSError):  # only saves the loop time: never fatal
                    _sync_file(name)

        # A failed one is left to the next (and closing the database checkpoints anyway).
        with contextlib.suppress(sqlite3.Error, StorageError, ValueError):
            await self._in_thread(bulk)
            if self._direct is not None:
                self._direct.execute(passive).fetchall()

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
        return iso_now() if self._clock is utcnow else iso(self._clock())
