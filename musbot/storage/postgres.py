"""The PostgreSQL backend (asyncpg), for a bot run by several processes on one database.

What SQLite never had to face is other processes writing at the same time. Every write
transaction is SERIALIZABLE, so that a read-modify-write (a season's ratings after a match)
behaves as if the transactions had run one after the other; the server aborts one of two that
conflict, and :meth:`PostgresBackend.write` runs it again from the start. A live table's writes,
single statements on rows no other process writes, commit in their own order
(:meth:`PostgresBackend.write_live`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import inspect
import logging
import random
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.exceptions import InternalClientError

from . import schema
from .backend import Backend, Listener, Loader, ReadView, utcnow
from .errors import (
    ConstraintViolation,
    DatabaseClosed,
    DatabaseFull,
    DatabaseLocked,
    DatabaseTooNew,
    DatabaseUnavailable,
    DriverError,
    ForeignDatabase,
    StorageError,
)
from .tx import Dialect, LiveWork, Row, Work, work_name

T = TypeVar("T")

log = logging.getLogger(__name__)

MIGRATION_LOCK = int.from_bytes(b"musbot", "big")
"""The advisory lock a process holds while it migrates, so that several opening one database
at once migrate it once."""

RETRIES = 12
"""Attempts of a write transaction that keeps losing to concurrent ones, before
:class:`DatabaseUnavailable`."""

POOL_SIZE = 10
LIVE_LANES = 3
"""Connections kept for live tables' writes besides the pool (:class:`_LiveLane`)."""

RELISTEN_FIRST_DELAY = 0.1
RELISTEN_MAX_DELAY = 5.0
"""Seconds between attempts to listen again after the listening connection was lost."""

CONNECT_TIMEOUT = 10.0
"""Seconds a new connection may take (asyncpg's own default is a minute, which a server that
is down but still routed would make every table wait)."""

_RETRYABLE = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
_UNREACHABLE = (OSError, asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError,
                asyncpg.InsufficientResourcesError, asyncpg.InvalidCatalogNameError,
                asyncpg.InvalidAuthorizationSpecificationError,
                asyncpg.ReadOnlySQLTransactionError, asyncpg.InterfaceError,
                InternalClientError)
"""Errors that mean the server (or this database on it) cannot be used now, not a bug: it is
down, restarting, out of connections or of room, read-only (a failover), or the connection
broke on the client's side (asyncpg's «cannot switch to state 12; another operation is in
progress» after a cancelled statement)."""
DRIVER_ERRORS = (asyncpg.PostgresError, *_UNREACHABLE)
"""Everything asyncpg and the network raise."""


def translate(exc: BaseException, where: str, busy_timeout: float) -> StorageError:
    """The storage error a failure of PostgreSQL, of asyncpg or of the network is (see
    :mod:`musbot.storage.errors`); ours are returned as they are."""
    if isinstance(exc, StorageError):
        return exc
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return ConstraintViolation(str(exc))
    if isinstance(exc, asyncpg.LockNotAvailableError):
        return DatabaseLocked(where, busy_timeout)
    if isinstance(exc, asyncpg.DiskFullError) or \
            (isinstance(exc, OSError) and exc.errno == errno.ENOSPC):
        return DatabaseFull(where, detail)
    if isinstance(exc, _UNREACHABLE):
        return DatabaseUnavailable(where, detail)
    return DriverError(f"{where}: {detail}")


def breaks_connection(exc: BaseException) -> bool:
    """Whether a connection that raised ``exc`` may be in a state no one can use: anything but
    the server refusing one statement (a constraint, a conflict), which leaves it idle. Such a
    connection is closed and replaced, whatever the error (a cancelled statement leaves asyncpg
    mid-operation)."""
    while isinstance(exc, StorageError) and exc.__cause__ is not None:
        exc = exc.__cause__
    if isinstance(exc, StorageError):
        return False  # ours, raised by a transaction's body: the connection is fine
    return not isinstance(exc, asyncpg.PostgresError) or isinstance(
        exc, (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError))


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The common SQL form's ``?`` placeholders as PostgreSQL's ``$1, $2, …`` (a ``?`` inside a
    string literal is left alone)."""
    out: list[str] = []
    count, quoted = 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        elif char == "?" and not quoted:
            count += 1
            out.append(f"${count}")
            continue
        out.append(char)
    return "".join(out)


def _changed(status: str) -> int:
    """Rows a statement changed, from its status ("UPDATE 3", "INSERT 0 1", "CREATE TABLE")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def public_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}{netloc}"))


class PgTx:
    """:class:`~musbot.storage.tx.Tx` on one asyncpg connection."""

    __slots__ = ("conn",)
    dialect: ClassVar[Dialect] = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        with _constraints():
            return _changed(await self.conn.execute(numbered(sql), *args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _constraints():
            await self.conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        with _constraints():
            return list(await self.conn.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        with _constraints():
            row = await self.conn.fetchrow(numbered(sql), *args)
        return row  # type: ignore[no-any-return]

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with _constraints():
            return await self.conn.fetchval(numbered(sql), *args)


@contextlib.contextmanager
def _constraints() -> Iterator[None]:
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise ConstraintViolation(str(exc)) from exc


async def _keep_session(_conn: asyncpg.Connection) -> None:
    """What a connection going back to the pool needs reset: nothing, since none of our
    transactions changes its session (no SET, no LISTEN: that has its own connection, advisory
    locks only for the transaction). asyncpg's default (``RESET ALL``, ``UNLISTEN *``…) would
    cost every write a second round trip to the server; it still rolls back a transaction left
    open."""


class _LiveLane:
    """A connection of its own for live tables' writes, and the lock that lets one write at a
    time use it. A table's writes always take the same lane, and asyncio's locks are fair, so
    they are committed in the order they were asked for, while other lanes write other tables'
    in parallel. Kept open rather than taken from the pool for every write: giving a connection
    back to asyncpg's pool costs a task and a turn of the event loop, on the hottest writes
    there are."""

    __slots__ = ("conn", "lock")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.conn: asyncpg.Connection | None = None


class PostgresBackend(Backend):
    """A pool of connections to one PostgreSQL database, and one more for :meth:`listen`."""

    dialect = "postgresql"

    def __init__(self, url: str, *, busy_timeout: float = 5.0,
                 clock: Callable[[], datetime] = utcnow, pool_size: int = POOL_SIZE) -> None:
        super().__init__(busy_timeout=busy_timeout, clock=clock)
        self.url = url
        self.pool_size = pool_size
        self.retries = 0
        """Write transactions run again after a conflict, since the database was opened."""
        self._pool: asyncpg.Pool | None = None
        self._lanes = [_LiveLane() for _ in range(LIVE_LANES)]
        self._listener: asyncpg.Connection | None = None
        self._callbacks: dict[tuple[str, Listener], Callable[..., None]] = {}
        self._heard: set[asyncio.Future[Any]] = set()
        """Coroutine callbacks running (kept here: the loop holds its tasks weakly)."""
        self._relistening: asyncio.Future[None] | None = None

    @property
    def where(self) -> str:
        return public_url(self.url)

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    async def connect(self) -> None:
        if self._pool is not None:
            return
        with self._translated():
            # min_size=0: asyncpg keeps no floor of connections, which with the server down it
            # would try to restore in the background, logging a traceback at every attempt.
            pool = await asyncpg.create_pool(
                self.url, min_size=0, max_size=self.pool_size, reset=_keep_session,
                server_settings=self._session(), timeout=CONNECT_TIMEOUT)
        try:
            with self._translated():
                async with pool.acquire() as conn:
                    await self._prepare(conn)
        except BaseException:
            pool.terminate()
            raise
        self._pool = pool

    def _session(self) -> dict[str, str]:
        # lock_timeout: a lock held elsewhere for longer than busy_timeout is
        # DatabaseLocked, as on SQLite.
        return {"lock_timeout": str(int(self.busy_timeout * 1000)), "application_name": "musbot"}

    async def close(self) -> None:
        if self._relistening is not None:
            self._relistening.cancel()
        if self._listener is not None:
            listener, self._listener = self._listener, None
            self._callbacks.clear()
            with contextlib.suppress(*DRIVER_ERRORS):
                await listener.close()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            for lane in self._lanes:
                async with lane.lock:  # after the write on its way
                    conn, lane.conn = lane.conn, None
                    if conn is not None and not conn.is_closed():
                        with contextlib.suppress(*DRIVER_ERRORS):
                            await conn.close()
            try:
                await asyncio.wait_for(pool.close(), CONNECT_TIMEOUT)
            except (TimeoutError, *DRIVER_ERRORS):
                pool.terminate()  # a server gone mid-close: its connections are dropped

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return await self._stored_version(conn)

    async def checkpoint(self) -> None:
        """Nothing to do: the server checkpoints its own log."""

    async def scrub(self, tables: Sequence[str]) -> None:
        """An UPDATE or DELETE leaves the row's old version in the table's files (a dead tuple)
        until VACUUM, and a plain VACUUM only marks its space free: ``VACUUM FULL`` writes the
        tables anew and drops their old files. It locks each table while it runs (a few
        milliseconds for musbot's, which hold one row per player and per live table; the
        tables' saves wait meanwhile). The server's own write-ahead log, its archives and
        replicas keep what they hold until they are recycled: the README says so."""
        async with self._connection() as conn:
            await conn.execute(f"VACUUM FULL {', '.join(tables)}")

    # --- opening ------------------------------------------------------------------------------

    async def _prepare(self, conn: asyncpg.Connection) -> None:
        """Read-only checks first, then every pending migration in one transaction, under an
        advisory lock: a process that waited for it finds the work done."""
        found = await self._stored_version(conn)
        if found > schema.SCHEMA_VERSION:
            raise DatabaseTooNew(self.where, found, schema.SCHEMA_VERSION)
        if found == schema.SCHEMA_VERSION:
            return
        # READ COMMITTED: each statement sees what committed before it, so the version read
        # once the lock is held is the one the last holder left.
        async with conn.transaction(isolation="read_committed"):
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            found = await self._stored_version(conn)
            if found > schema.SCHEMA_VERSION:
                raise DatabaseTooNew(self.where, found, schema.SCHEMA_VERSION)
            for migration in schema.MIGRATIONS["postgresql"][found:]:
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version, migration.name, self.now())

    async def _stored_version(self, conn: asyncpg.Connection) -> int:
        tables = {row[0] for row in await conn.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")}
        if "schema_version" not in tables:
            if tables:
                raise ForeignDatabase(self.where)
            return 0
        return int(await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0)

    # --- transactions -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self) -> Iterator[None]:
        """Every driver error as ours (:func:`translate`), but a serialization failure, which
        :meth:`write` runs the transaction again for."""
        try:
            yield
        except _RETRYABLE:
            raise
        except DRIVER_ERRORS as exc:
            raise translate(exc, self.where, self.busy_timeout) from exc

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool; the server's failures as ours, and a connection that
        failed in a way that may have broken it closed, so the pool opens a new one."""
        if self._pool is None:
            raise DatabaseClosed(f"{self.where}: the database is not open")
        with self._translated():
            async with self._pool.acquire() as conn:
                try:
                    yield conn
                except BaseException as exc:
                    if breaks_connection(exc):
                        conn.terminate()
                    raise

    async def read(self, work: Work[T]) -> T:
        """REPEATABLE READ, read only: one snapshot of what had committed when it began."""
        async with self._connection() as conn, \
                conn.transaction(isolation="repeatable_read", readonly=True):
            return await work(PgTx(conn))

    async def write(self, work: Work[T]) -> T:
        """SERIALIZABLE, run again from the start when the server aborts it for a conflict with
        a concurrent transaction (after a short random wait, longer each time): a transaction
        body does nothing but talk to its ``tx``, so running it again is safe."""
        for attempt in range(1, RETRIES + 1):
            try:
                async with self._connection() as conn, \
                        conn.transaction(isolation="serializable"):
                    if self.fault is None:
                        return await work(PgTx(conn))
                    self.fault("begin", work_name(work))
                    out = await work(PgTx(conn))
                    self.fault("commit", work_name(work))
                    return out
            except _RETRYABLE as exc:
                if attempt == RETRIES:
                    raise DatabaseUnavailable(
                        self.where, f"gave up after {RETRIES} conflicts: {exc}") from exc
                self.retries += 1
                await asyncio.sleep(random.uniform(0, 0.002 * 2**attempt))
        raise AssertionError("unreachable")

    async def write_live(self, key: int, work: LiveWork[T]) -> T:
        """In the order asked for, table by table, on the table's lane (:class:`_LiveLane`),
        the single statement committing on its own."""
        lane = self._lanes[key % len(self._lanes)]
        async with lane.lock:
            conn: asyncpg.Connection = await self._lane_connection(lane)
            try:
                with self._translated():
                    if self.fault is not None:
                        self.fault("live", "live")
                    return await work(PgTx(conn), self.now())
            except BaseException as exc:
                if breaks_connection(exc):
                    conn.terminate()  # a new one for the next write
                    if lane.conn is conn:
                        lane.conn = None
                raise

    async def _lane_connection(self, lane: _LiveLane) -> asyncpg.Connection:
        """The lane's connection, a new one if it has none or lost it (the server restarted,
        the network cut it, or a write failed in a way that may have broken it)."""
        if self._pool is None:
            raise DatabaseClosed(f"{self.where}: the database is not open")
        if lane.conn is not None and lane.conn.is_closed():
            lane.conn = None
        if lane.conn is None:
            with self._translated():
                lane.conn = await asyncpg.connect(self.url, server_settings=self._session(),
                                                  timeout=CONNECT_TIMEOUT)
        return lane.conn

    # --- the whole database at once (musbot db copy) ------------------------------------------

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ReadView]:
        async with self._connection() as conn, \
                conn.transaction(isolation="repeatable_read", readonly=True):
            yield _PgSnapshot(conn)

    @contextlib.asynccontextmanager
    async def loader(self) -> AsyncIterator[Loader]:
        """One transaction; at its end every identity column's sequence moves past the ids the
        copied rows brought, so that the next new row gets a fresh one."""
        async with self._connection() as conn, conn.transaction():
            yield _PgLoader(conn)
            identities = await conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'")
            for table, column in identities:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}")

    # --- publish/subscribe --------------------------------------------------------------------

    async def notify(self, channel: str, payload: str) -> None:
        async with self._connection() as conn:
            await conn.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(self, channel: str, callback: Listener) -> None:
        if self._pool is None:
            raise DatabaseClosed(f"{self.where}: the database is not open")
        if (channel, callback) in self._callbacks:
            return
        if self._listener is None or self._listener.is_closed():
            with self._translated():
                self._listener = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
            self._listener.add_termination_listener(self._listener_lost)
            self._callbacks.clear()

        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            outcome = callback(payload)
            if inspect.isawaitable(outcome):
                task = asyncio.ensure_future(outcome)
                self._heard.add(task)
                task.add_done_callback(self._heard.discard)

        with self._translated():
            await self._listener.add_listener(channel, heard)
        self._callbacks[(channel, callback)] = heard

    def _listener_lost(self, _conn: object) -> None:
        """The listening connection dropped (server restart, network): listen again on a new
        one, in the background, until the database is closed. What was published meanwhile is
        lost, which is why a relay waits for an acknowledgement."""
        if self._callbacks and self._pool is not None and self._relistening is None:
            log.warning("%s: the connection listening on %s was lost; listening again",
                        self.where, sorted({channel for channel, _ in self._callbacks}))
            self._relistening = asyncio.ensure_future(self._listen_again())

    async def _listen_again(self) -> None:
        delay = RELISTEN_FIRST_DELAY
        try:
            while self._pool is not None and self._callbacks:
                await asyncio.sleep(delay)
                try:
                    listener = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
                    for (channel, _), heard in list(self._callbacks.items()):
                        await listener.add_listener(channel, heard)
                except DRIVER_ERRORS:
                    delay = min(delay * 2, RELISTEN_MAX_DELAY)
                    continue
                if self._pool is None:  # closed meanwhile
                    await listener.close()
                    return
                listener.add_termination_listener(self._listener_lost)
                self._listener = listener
                log.warning("%s: listening again", self.where)
                return
        finally:
            self._relistening = None

    async def unlisten(self, channel: str, callback: Listener | None = None) -> None:
        if self._listener is None:
            return
        for (heard_channel, wanted), heard in list(self._callbacks.items()):
            if heard_channel == channel and callback in (None, wanted):
                del self._callbacks[(heard_channel, wanted)]
                with self._translated():
                    await self._listener.remove_listener(channel, heard)


class _PgSnapshot:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def rows(self, sql: str) -> AsyncIterator[list[Row]]:
        batch: list[Row] = []
        async for record in self._conn.cursor(numbered(sql), prefetch=500):
            batch.append(record)
            if len(batch) == 500:
                yield batch
                batch = []
        if batch:
            yield batch


class _PgLoader(_PgSnapshot):
    async def insert(self, table: str, columns: Sequence[str],
                     rows: Sequence[Sequence[Any]]) -> None:
        with _constraints():
            await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))
