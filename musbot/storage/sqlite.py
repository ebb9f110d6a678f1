"""The SQLite backend: one file, no server, the default.

Opening checks the file before changing anything: a damaged file, a file from a newer musbot or a
file that is not ours is refused with the file left exactly as it was, so that nothing is lost by
starting the wrong version of the bot.

Every transaction body (:mod:`~musbot.storage.tx`) runs whole in one place, never suspended:
:class:`SqliteTx`'s coroutines return at once, so :func:`run_sync` drives a body to its end
without an event loop, on the event loop's own connection for a write
(:meth:`SqliteBackend._write_here`) or on aiosqlite's thread for a read, in one trip.

A little over 500 lines, on purpose: the write path's parts (the loop's connection, the queue of
writes that found the lock taken, the checkpoints) share the two connections' state and are one
design; apart, each would reach into the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, NoReturn, TypeVar

import aiosqlite

from . import schema
from .backend import Backend, Loader, ReadView, utcnow
from .errors import (
    ConstraintViolation,
    CorruptDatabase,
    DatabaseClosed,
    DatabaseLocked,
    DatabaseTooNew,
    ForeignDatabase,
    StorageError,
)
from .schema import split_statements
from .sqlite_file import (
    _is_busy,
    _on_thread,
    _WriteLockBusy,
    translate,
)
from .tx import Dialect, LiveWork, Row, Work, work_name

T = TypeVar("T")

DEFAULT_PATH = Path("data/musbot.db")

CHECKPOINT_EVERY = 10_000
"""Commits on the loop's connection between two checkpoints (a page each, 40 MB of log at
most). Each checkpoint ends with a short one on the loop (see
:meth:`SqliteBackend._run_checkpoint`), a stall of every table at once that a busy loop then
needs several times as long to catch up on, so they are rare. The thread's part copies each
page once however often it was rewritten, so it does not grow with the interval."""


CHECKPOINT_PASSES = 8
"""The most passes the thread makes over the log before the loop's last step…"""
CHECKPOINT_LEFT = 64
"""…which stop once this many pages or fewer were left behind (what the loop copies, with what
it writes meanwhile)."""

WAL_SIZE_LIMIT = 64 * 2**20
"""Bytes the write-ahead log file is cut back to when it starts again (above what
:data:`CHECKPOINT_EVERY` commits write, so normally never: cutting it is a truncate on the
loop). SQLite reuses the file and keeps it at its largest size otherwise, which a burst (a
thousand tables opened at once) leaves large."""

WRITE_CACHE_KB = 2048
"""Page cache of the loop's connection: SQLite's own default. The pages it does not hold are in
the system's file cache: at a thousand tables, 8 MB saved no time (p99 of a save's wait
0.70 ms, against 0.66) for 6 KB more per table."""


async def _stopped(opening: aiosqlite.Connection) -> None:
    """Waits for the thread of a connection that failed to open: aiosqlite stops it but does
    not wait, and a thread still answering after the event loop has closed (a command that
    exits at once, ``musbot db copy DIR …``) prints «RuntimeError: Event loop is closed» after
    the one sentence that said why."""
    thread = getattr(opening, "_thread", None)
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join, 5.0)


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


def run_sync(body: Coroutine[Any, Any, T]) -> T:
    """Runs a transaction body to its end at once. The body awaits only :class:`SqliteTx`,
    whose coroutines never suspend, so it finishes in one step; one that would wait for
    something else is a bug, stopped here rather than left half done."""
    try:
        body.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    body.close()
    raise RuntimeError("an SQLite transaction body awaited something other than its Tx")


class SqliteTx:
    """:class:`~musbot.storage.tx.Tx` on a raw ``sqlite3`` connection: every call runs the
    statement at once."""

    __slots__ = ("raw",)
    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            return self.raw.execute(sql, args).rowcount
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.raw.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            return self.raw.execute(sql, args).fetchall()
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        """``fetchall``, not ``fetchone``: a statement on its own (autocommit) commits when it
        finishes, and only one stepped to its end reports a failed commit (a full disk)
        instead of dropping it unseen."""
        try:
            rows = self.raw.execute(sql, args).fetchall()
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """As :meth:`fetchrow` (not calling it: this is a save's one statement)."""
        try:
            rows = self.raw.execute(sql, args).fetchall()
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc
        return rows[0][0] if rows else None


def _run(work: Work[T], fault: Callable[[str, str], None] | None = None
         ) -> Callable[[sqlite3.Connection], T]:
    """``work`` as a synchronous function of the raw connection (in its transaction);
    ``fault`` (the backend's, see :attr:`~musbot.storage.backend.Backend.fault`) runs before
    its statements and after them."""
    if fault is None:
        return lambda raw: run_sync(work(SqliteTx(raw)))

    def run(raw: sqlite3.Connection) -> T:
        name = work_name(work)
        fault("begin", name)
        out = run_sync(work(SqliteTx(raw)))
        fault("commit", name)
        return out

    return run


_PendingWrite = tuple[LiveWork[Any], "asyncio.Future[Any]"]
"""A queued live-table write and its caller's future."""


async def _write_all(tx: SqliteTx, batch: list[_PendingWrite], now: str) -> list[Any]:
    return [await work(tx, now) for work, _ in batch]


def _answer_writes(batch: list[_PendingWrite], outcome: list[Any] | BaseException) -> None:
    """Each waiting writer gets its result, or the error that stopped the batch."""
    for i, (_, done) in enumerate(batch):
        if done.done():
            continue
        if isinstance(outcome, BaseException):
            done.set_exception(outcome)
        else:
            done.set_result(outcome[i])


class SqliteBackend(Backend):
    """Two connections to one file: the event loop's own, for writes, and aiosqlite's, whose
    thread runs the reads (and a write when the loop's connection would have to wait). See
    :meth:`write` and :meth:`read`."""

    dialect = "sqlite"

    def __init__(self, path: str | os.PathLike[str] = DEFAULT_PATH, *,
                 busy_timeout: float = 5.0, clock: Callable[[], datetime] = utcnow) -> None:
        super().__init__(busy_timeout=busy_timeout, clock=clock)
        self.path = Path(path)
        self._conn: aiosqlite.Connection | None = None
        self._direct: sqlite3.Connection | None = None
        self._commits = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._late_saves: list[_PendingWrite] = []
        self._late_writer: asyncio.Task[None] | None = None

    @property
    def where(self) -> str:
        return str(self.path)

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def connect(self) -> None:
        if self._conn is not None:
            return
        opening: aiosqlite.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            opening = aiosqlite.connect(self.path, isolation_level=None)
            conn = await opening
        except (sqlite3.Error, OSError) as exc:
            if opening is not None:
                await _stopped(opening)
            self._reraise(exc)
        try:
            await self._prepare_patiently(conn)
            self._direct = self._open_direct()
        except (sqlite3.Error, OSError) as exc:
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
        return await self._in_thread(lambda raw: _transaction(raw, "BEGIN", self._stored_version))

    # --- opening ------------------------------------------------------------------------------

    async def _prepare_patiently(self, conn: aiosqlite.Connection) -> None:
        """:meth:`_prepare`, tried again while another connection opening the same new file
        holds a lock in a way SQLite answers «busy» at once rather than wait for (to avoid a
        deadlock, it does not call the busy handler then), within ``busy_timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout
        while True:
            try:
                await _on_thread(conn, self._prepare)
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or loop.time() >= deadline:
                    raise
            await asyncio.sleep(0.02)

    def _prepare(self, raw: sqlite3.Connection) -> None:
        """Runs on the database thread, in one trip."""
        raw.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
        # Read-only checks first: until they pass, nothing may be written to the file.
        verdict = [row[0] for row in raw.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise CorruptDatabase(self.path, "; ".join(str(v) for v in verdict[:3]))
        found = self._stored_version(raw)
        if found > schema.SCHEMA_VERSION:
            raise DatabaseTooNew(self.path, found, schema.SCHEMA_VERSION)
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("PRAGMA secure_delete = ON")  # see scrub(): on every connection
        # WAL: readers never block the writer; NORMAL sync keeps every commit across a crash
        # of the process (a power cut may lose the last commits, never consistency).
        raw.execute("PRAGMA journal_mode = WAL")
        raw.execute("PRAGMA synchronous = NORMAL")
        if found < schema.SCHEMA_VERSION:
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
        if found > schema.SCHEMA_VERSION:
            raise DatabaseTooNew(self.path, found, schema.SCHEMA_VERSION)
        for migration in schema.MIGRATIONS["sqlite"][found:]:
            for statement in split_statements(migration.sql):
                raw.execute(statement)
            raw.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, self.now()))
        problems = raw.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise StorageError(f"migration left broken references: {problems[:3]}")

    # --- transactions -------------------------------------------------------------------------
    #
    # Every transaction runs whole in one place: a write on the event loop's own connection
    # (:meth:`_write_here`), a read on the database thread (:meth:`read`). No transaction is
    # ever held open across an ``await``, so no lock is needed between coroutines and the write
    # lock is held for microseconds.

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
        connection's lock sends the write to the thread, :meth:`write`) and
        ``wal_autocheckpoint = 0`` (checkpoints, the only fsyncs, are mostly done on the
        thread, :meth:`_checkpoint_soon`).

        A writer process of its own, answering each write once committed, would not do
        better: every move waits for its own commit, so a disk stall delays the same moves in
        either process, the answer adds turns of a busy loop, and the loop saves no CPU (the
        pipe's frame costs what the statement does)."""
        raw = sqlite3.connect(self.path, isolation_level=None)
        try:
            raw.execute("PRAGMA busy_timeout = 0")
            raw.execute("PRAGMA foreign_keys = ON")
            raw.execute("PRAGMA secure_delete = ON")
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

    def _write_here(self, work: Work[T], *, one_statement: bool = False) -> T:
        """``work`` as one write transaction on the loop's connection, now. Raises
        :class:`_WriteLockBusy` (nothing written) if another connection holds the write lock.
        ``one_statement``: ``work`` runs a single statement, atomic by itself, so it runs
        without BEGIN and COMMIT (half the cost of a save)."""
        raw = self._direct
        if raw is None:
            raise self._not_open()
        try:
            if one_statement:
                if self.fault is not None:
                    self.fault("live", "live")
                out = run_sync(work(SqliteTx(raw)))
            else:
                out = _transaction(raw, "BEGIN IMMEDIATE", _run(work, self.fault))
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _WriteLockBusy from exc
            self._reraise(exc)
        except (sqlite3.Error, OSError) as exc:
            self._reraise(exc)
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY:
            self._checkpoint_soon()
        return out

    async def _write_there(self, work: Work[T]) -> T:
        """``work`` as one write transaction on the database thread, which waits for the write
        lock up to ``busy_timeout`` (then :class:`DatabaseLocked`)."""
        run = _run(work, self.fault)
        return await self._in_thread(lambda raw: _transaction(raw, "BEGIN IMMEDIATE", run))

    async def write(self, work: Work[T]) -> T:
        """At once on the loop's connection when the write lock is free (nearly always: every
        write of this process goes through here and none waits), on the database thread when
        another process or a delayed write holds it. SQLite has one writer at a time, so every
        write transaction is serializable."""
        try:
            return self._write_here(work)
        except _WriteLockBusy:
            return await self._write_there(work)

    async def write_live(self, key: int, work: LiveWork[T]) -> T:
        """Written at once on the loop's connection, where a commit appends a page or two to
        the log, so the caller does not even yield. While another connection holds the write
        lock, the live writes of every table queue up for the database thread and are written
        there together, in the order they were made (a table's later save never overtakes an
        earlier one); each caller returns only after its own write is committed, so an
        acknowledged action is never lost."""
        loop = asyncio.get_running_loop()
        if self._late_writer is None:
            try:
                now = self.now()
                return self._write_here(lambda tx: work(tx, now), one_statement=True)
            except _WriteLockBusy:
                self._late_writer = loop.create_task(self._write_late())
        done: asyncio.Future[Any] = loop.create_future()
        self._late_saves.append((work, done))
        return await done  # type: ignore[no-any-return]

    async def _write_late(self) -> None:
        """The live-table writes that found the write lock taken, in order, through the
        database thread, each batch in one transaction."""
        try:
            while self._late_saves:
                batch, self._late_saves = self._late_saves, []
                now = self.now()
                try:
                    results = await self._write_there(partial(_write_all, batch=batch, now=now))
                except BaseException as exc:
                    _answer_writes(batch, exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                _answer_writes(batch, results)
        finally:
            self._late_writer = None

    async def read(self, work: Work[T]) -> T:
        """On the database thread, in one trip: a large read never stalls the event loop."""
        return await self._in_thread(lambda raw: _transaction(raw, "BEGIN", _run(work)))

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Runs ``work`` with the raw connection on aiosqlite's thread, in one trip (every
        awaited statement would be a trip of its own, each waiting for a turn of a busy loop);
        SQLite's errors come back as ours (:meth:`_reraise`)."""
        try:
            return await _on_thread(self._require(), work)
        except (sqlite3.Error, OSError) as exc:
            self._reraise(exc)

    # --- the whole file at once (musbot db copy) ----------------------------------------------

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ReadView]:
        """A read transaction on the database thread held across awaits, so that the rows come
        a batch at a time from one snapshot. Nothing else may read meanwhile."""
        await self._in_thread(lambda raw: raw.execute("BEGIN"))
        try:
            yield _SqliteSnapshot(self)
        finally:
            await self._in_thread(lambda raw: raw.execute("ROLLBACK"))

    @contextlib.asynccontextmanager
    async def loader(self) -> AsyncIterator[Loader]:
        """One write transaction on the database thread, held across awaits."""
        await self._in_thread(lambda raw: raw.execute("BEGIN IMMEDIATE"))
        try:
            yield _SqliteLoader(self)
        except BaseException:
            await self._in_thread(lambda raw: raw.execute("ROLLBACK"))
            raise
        await self._in_thread(lambda raw: raw.execute("COMMIT"))

    # --- checkpoints --------------------------------------------------------------------------

    async def checkpoint(self) -> None:
        """Copies the log into the database now, as every :data:`CHECKPOINT_EVERY` commits
        (``musbot bench load`` after opening its tables, to measure the steady state)."""
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        # As the one checkpoint task, so that no other one starts meanwhile.
        self._checkpoint_soon()
        assert self._checkpoint is not None
        await self._checkpoint

    async def scrub(self, tables: Sequence[str]) -> None:
        """Every connection runs with ``secure_delete`` on, so what a write removes from a page
        (a row's old version, a freed page) is overwritten with zeros there, whatever SQLite's
        build defaults to. The log still holds the pages' earlier versions: it is copied into
        the file and cut to nothing (a TRUNCATE checkpoint), on the database thread, after the
        checkpoint in progress; a reader in the way is waited for, as long as a write would
        be (``busy_timeout``), else :class:`DatabaseLocked`."""
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        deadline = asyncio.get_running_loop().time() + self.busy_timeout
        while True:
            busy, _, _ = await self._in_thread(
                lambda raw: raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone())
            if not busy:
                return
            if asyncio.get_running_loop().time() >= deadline:
                raise DatabaseLocked(self.path, self.busy_timeout)
            await asyncio.sleep(0.02)

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
        disk: it syncs the log and then the file. So the thread copies until few pages are
        left (each pass takes what the last one's milliseconds let in) and then syncs both
        files itself, and the loop's syncs find next to nothing to write."""
        passive = "PRAGMA wal_checkpoint(PASSIVE)"
        files = [f"{self.path}-wal", str(self.path)]

        def bulk(raw: sqlite3.Connection) -> None:
            for _ in range(CHECKPOINT_PASSES):  # each pass takes what the last one let in
                _, log, copied = raw.execute(passive).fetchone()
                if log - copied <= CHECKPOINT_LEFT:
                    break
            for name in files:
                with contextlib.suppress(OSError):  # only saves the loop time: never fatal
                    _sync_file(name)

        # A failed one is left to the next (and closing the database checkpoints anyway).
        with contextlib.suppress(sqlite3.Error, StorageError, ValueError):
            await self._in_thread(bulk)
            if self._direct is not None:
                self._direct.execute(passive).fetchall()

    def _reraise(self, exc: BaseException) -> NoReturn:
        """SQLite's errors, and the disk's, as ours (:func:`translate`)."""
        raise translate(exc, self.path, self.busy_timeout) from exc


class _SqliteSnapshot:
    def __init__(self, backend: SqliteBackend) -> None:
        self._backend = backend

    async def rows(self, sql: str) -> AsyncIterator[list[Row]]:
        cursor = await self._backend._in_thread(lambda raw: raw.execute(sql))
        while batch := await self._backend._in_thread(lambda raw: cursor.fetchmany(500)):
            yield batch


class _SqliteLoader(_SqliteSnapshot):
    async def insert(self, table: str, columns: Sequence[str],
                     rows: Sequence[Sequence[Any]]) -> None:
        sql = (f"INSERT INTO {table} ({', '.join(columns)})"
               f" VALUES ({', '.join('?' * len(columns))})")
        await self._backend._in_thread(lambda raw: raw.executemany(sql, rows))
