"""What an administrator does to a database besides running the bot on it: look at it without
changing it (:func:`inspect`, and one stored hand: :func:`stored_hand`), bring its schema up to
date (:func:`migrate`) and back it up while the bot runs (:func:`backup`).

An SQLite file in WAL mode cannot be copied as a file while the bot writes: the last commits
live in ``musbot.db-wal`` until a checkpoint, and a copy of the two files taken a moment apart
need not agree. :func:`backup` uses SQLite's online backup API instead, in one step, so the copy
is the database as one read transaction saw it (the bot's writes go on meanwhile, into the log),
then checks the copy before giving it its name. On PostgreSQL it runs ``pg_dump`` on a snapshot
whose row counts it reads itself, so the counts it prints are the dump's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from . import schema
from .database import POSTGRES_SCHEMES, backend_for
from .errors import (
    CorruptDatabase,
    DatabaseTooNew,
    DatabaseUnavailable,
    ForeignDatabase,
    StorageError,
)
from .schema import Migration
from .sqlite import SqliteBackend
from .sqlite_file import sqlite_file
from .transfer import TABLES
from .tx import Dialect

PG_DUMP = "pg_dump"
PG_RESTORE = "pg_restore"


class BackupRefused(StorageError):
    """The backup's destination cannot be used (it exists, its directory does not, or nothing
    can be written there)."""

    def __init__(self, key: str, where: Path, detail: str = "") -> None:
        super().__init__(f"{where}: {key} {detail}".rstrip())
        self.key, self.where, self.detail = key, where, detail


class BackupFailed(StorageError):
    """The copy was made but does not check out, or ``pg_dump`` failed: no file was left."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where, self.detail = where, detail


class NoPgDump(StorageError):
    """``pg_dump`` is not installed here: the caller says how to run it."""

    def __init__(self, url: str) -> None:
        super().__init__(f"{PG_DUMP} not found")
        self.url = url


@dataclass(frozen=True, slots=True)
class Inspection:
    """A database as it is, nothing changed: its integrity (SQLite; ``None`` on PostgreSQL,
    whose server checks its own pages), schema version, what migrating would apply and how many
    rows each of musbot's tables holds."""

    where: str
    dialect: Dialect
    integrity: tuple[str, ...] | None
    version: int
    rows: dict[str, int]

    @property
    def sound(self) -> bool:
        return self.integrity is None or self.integrity == ("ok",)

    @property
    def too_new(self) -> bool:
        return self.version > schema.SCHEMA_VERSION

    @property
    def pending(self) -> tuple[Migration, ...]:
        return schema.MIGRATIONS[self.dialect][self.version:]


@dataclass(frozen=True, slots=True)
class Backup:
    """What :func:`backup` wrote and found in it."""

    path: Path
    bytes: int
    version: int
    rows: dict[str, int]
    seconds: float
    dialect: Dialect


def sqlite_path(target: str) -> Path | None:
    """The SQLite file ``target`` names (None for PostgreSQL)."""
    backend = backend_for(target)
    return backend.path if isinstance(backend, SqliteBackend) else None


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file (nor create it)."""
    sqlite_file(path)
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
    except sqlite3.Error as exc:  # gone or locked away since it was looked at
        raise DatabaseUnavailable(path, str(exc)) from exc


def _sqlite_rows(raw: sqlite3.Connection) -> dict[str, int]:
    present = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return {table: int(raw.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            for table in TABLES if table in present}


def _inspect_sqlite(path: Path) -> Inspection:
    backend = SqliteBackend(path)
    raw = _read_only(path)
    try:
        raw.execute("BEGIN")  # one snapshot for the version and the counts
        verdict = tuple(str(row[0]) for row in raw.execute("PRAGMA integrity_check"))
        version = backend._stored_version(raw)
        rows = _sqlite_rows(raw) if verdict == ("ok",) else {}
        raw.execute("ROLLBACK")
    except sqlite3.DatabaseError as exc:  # not a database at all: «file is not a database»
        raise CorruptDatabase(path, str(exc)) from exc
    finally:
        raw.close()
    return Inspection(str(path), "sqlite", verdict, version, rows)


async def _pg_connect(url: str):  # type: ignore[no-untyped-def]
    import asyncpg

    from .postgres import CONNECT_TIMEOUT, DRIVER_ERRORS, public_url

    try:
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except DRIVER_ERRORS as exc:
        raise DatabaseUnavailable(public_url(url), f"{type(exc).__name__}: {exc}") from exc


async def _pg_rows(conn) -> dict[str, int]:  # type: ignore[no-untyped-def]
    present = {row[0] for row in await conn.fetch(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
    return {table: int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
            for table in TABLES if table in present}


async def _inspect_postgres(url: str) -> Inspection:
    from .postgres import PostgresBackend

    backend = PostgresBackend(url)
    conn = await _pg_connect(url)
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            version = await backend._stored_version(conn)
            rows = await _pg_rows(conn)
    finally:
        await conn.close()
    return Inspection(backend.where, "postgresql", None, version, rows)


async def inspect(target: str) -> Inspection:
    """The database ``target`` names (as ``MUSBOT_DB`` takes it), read and changed in nothing:
    a missing SQLite file is :class:`NoDatabase`, not a new one."""
    path = sqlite_path(target)
    if path is None:
        return await _inspect_postgres(target)
    return await asyncio.to_thread(_inspect_sqlite, path)


StoredHand = tuple[Any, Any]
"""A finished hand as the bot stored it: its docs/replay.md transcript and result."""
HAND = "SELECT transcript, result FROM hands WHERE hand_id = {}"


def _sqlite_hand(path: Path, hand_id: int) -> tuple[str, str] | None:
    raw = _read_only(path)
    try:
        row = raw.execute(HAND.format("?"), (hand_id,)).fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            raise ForeignDatabase(path) from exc
        raise CorruptDatabase(path, str(exc)) from exc
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabase(path, str(exc)) from exc
    finally:
        raw.close()
    return None if row is None else (str(row[0]), str(row[1]))


async def _pg_hand(url: str, hand_id: int) -> tuple[str, str] | None:
    import asyncpg

    from .postgres import public_url

    conn = await _pg_connect(url)
    try:
        row = await conn.fetchrow(HAND.format("$1").replace("transcript, result",
                                                            "transcript::text, result::text"),
                                  hand_id)
    except asyncpg.UndefinedTableError as exc:
        raise ForeignDatabase(public_url(url)) from exc
    finally:
        await conn.close()
    return None if row is None else (str(row[0]), str(row[1]))


async def stored_hand(target: str, hand_id: int) -> StoredHand | None:
    """The finished hand ``hand_id`` (the ``hands`` table's key) of the database ``target``
    names, read and changed in nothing: what ``musbot db hand`` writes, for ``musbot replay``
    to score again. None when there is no such hand."""
    path = sqlite_path(target)
    row = await _pg_hand(target, hand_id) if path is None else \
        await asyncio.to_thread(_sqlite_hand, path, hand_id)
    return None if row is None else (json.loads(row[0]), json.loads(row[1]))


async def migrate(target: str) -> tuple[Inspection, Inspection]:
    """Applies the pending migrations (all in one transaction, as a bot's start does); the
    database before and after. A database newer than this code is refused untouched
    (:class:`DatabaseTooNew`)."""
    from .database import Database

    before = await inspect(target)
    if before.too_new:
        raise DatabaseTooNew(before.where, before.version, schema.SCHEMA_VERSION)
    async with Database(target):
        pass  # opening migrates
    return before, await inspect(target)


# --- backups --------------------------------------------------------------------------------

def destination(dest: Path, now: datetime | None = None) -> Path:
    """The file a backup goes to: ``dest``, or a new dated name in it when it is a directory
    (``musbot-20250101-120000.db``, for a daily timer). Never an existing file."""
    dest = dest.expanduser().absolute()
    if dest.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        dest = dest / f"musbot-{stamp}.db"
    if dest.exists() or dest.is_symlink():
        raise BackupRefused("exists", dest)
    if not dest.parent.is_dir():
        raise BackupRefused("no_folder", dest.parent)
    return dest


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def _work_folder(dest: Path) -> Iterator[Path]:
    """A new folder beside ``dest`` that only this user may enter, where the copy and SQLite's
    journal are written before the copy is named; removed afterwards, whatever happened.
    ``mkdtemp`` makes it under a fresh, unpredictable name (never an existing path, never
    through a link): nobody can plant a link where the copy will be written, as
    ``ln -s victim.db nightly.db.part`` did when the copy was ``DEST.part``."""
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent))
    except OSError as exc:
        raise BackupRefused("not_writable", dest.parent, exc.strerror or str(exc)) from None
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _name(copy: Path, dest: Path) -> None:
    """Gives the checked copy its name without replacing whatever took that name since
    :func:`destination` found it free (a file, a link, even a dangling one): a hard link is
    refused where anything is. Where the file system has none, the bytes go into a file created
    with ``O_EXCL | O_NOFOLLOW``, refused the same way."""
    try:
        os.link(copy, dest)
        return
    except FileExistsError:
        raise BackupRefused("exists", dest) from None
    except OSError:
        pass  # no hard links on this file system (EPERM, ENOTSUP, EXDEV…)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(dest, flags, 0o644)
    except FileExistsError:
        raise BackupRefused("exists", dest) from None
    try:
        with copy.open("rb") as source, os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(source, out)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        dest.unlink(missing_ok=True)
        raise


def _source_version(source: Path) -> int:
    """The schema version of the database to back up, read before anything is written: a file
    that is not SQLite, or an SQLite database that is not musbot's, is refused naming it."""
    raw = _read_only(source)
    try:
        return SqliteBackend(source)._stored_version(raw)
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabase(source, str(exc)) from exc
    finally:
        raw.close()


def _backup_sqlite(source: Path, dest: Path) -> Backup:
    """The online backup into a new file of a private folder beside ``dest``
    (:func:`_work_folder`), in one step (one read transaction on the source, so one consistent
    state of it, while its writers go on into the log); the copy set to a plain rollback journal
    (one self-contained file), checked, synced, then named ``dest`` (:func:`_name`). A copy that
    does not check out is removed with its folder."""
    started = datetime.now(UTC)
    _source_version(source)
    with _work_folder(dest) as work:
        copy = work / dest.name
        src = _read_only(source)
        try:
            out = sqlite3.connect(copy, isolation_level=None)
            try:
                src.backup(out)
                out.execute("PRAGMA journal_mode = DELETE")
            finally:
                out.close()
        except sqlite3.Error as exc:  # the disk filled up, the folder went away…
            raise BackupFailed(str(dest), str(exc)) from exc
        finally:
            src.close()
        found = _inspect_sqlite(copy)
        if not found.sound:
            raise BackupFailed(str(dest), "; ".join(found.integrity or ())[:200])
        _fsync(copy)
        _name(copy, dest)
    with contextlib.suppress(OSError):
        _fsync(dest.parent)
    seconds = (datetime.now(UTC) - started).total_seconds()
    return Backup(dest, dest.stat().st_size, found.version, found.rows, seconds, "sqlite")


def _without_password(url: str) -> tuple[str, str | None]:
    """The URL without its password (which would show in ``ps``), and the password for
    ``PGPASSWORD``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}{netloc}")), parts.password


def pg_dump_command(url: str, dest: Path) -> list[str]:
    """The ``pg_dump`` that makes a backup of ``url`` (its password not in it)."""
    bare, _ = _without_password(url)
    return [PG_DUMP, "--format=custom", "--no-owner", f"--file={dest}", f"--dbname={bare}"]


async def _run(command: list[str], env: dict[str, str]) -> str:
    process = await asyncio.create_subprocess_exec(
        *command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = await process.communicate()
    if process.returncode != 0:
        raise BackupFailed(command[0], err.decode(errors="replace").strip()[:500])
    return out.decode(errors="replace")


async def _backup_postgres(url: str, dest: Path) -> Backup:
    """``pg_dump`` on a snapshot exported by a transaction that counts the rows in the same
    snapshot; the dump then listed by ``pg_restore`` to check it holds every table's data."""
    from .postgres import public_url

    if shutil.which(PG_DUMP) is None or shutil.which(PG_RESTORE) is None:
        raise NoPgDump(public_url(url))
    started = datetime.now(UTC)
    _, password = _without_password(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    with _work_folder(dest) as work:
        part = work / dest.name  # pg_dump writes through whatever the name is: a new folder's
        conn = await _pg_connect(url)
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                snapshot = await conn.fetchval("SELECT pg_export_snapshot()")
                from .postgres import PostgresBackend

                version = await PostgresBackend(url)._stored_version(conn)
                rows = await _pg_rows(conn)
                command = pg_dump_command(url, part)
                await _run([*command[:1], f"--snapshot={snapshot}", *command[1:]], env)
        finally:
            await conn.close()
        listing = await _run([PG_RESTORE, "--list", str(part)], env)
        dumped = {line.split()[-2] for line in listing.splitlines()
                  if " TABLE DATA " in line and not line.startswith(";")}
        missing = sorted({*rows, "schema_version"} - dumped)
        if missing:
            raise BackupFailed(str(dest), f"no data for {', '.join(missing)} in the dump")
        _name(part, dest)
    seconds = (datetime.now(UTC) - started).total_seconds()
    return Backup(dest, dest.stat().st_size, version, rows, seconds, "postgresql")


async def backup(target: str, dest: Path) -> Backup:
    """A checked copy of the live database ``target`` names into ``dest`` (a new file, or a
    directory for a dated one); see the module docstring."""
    path = sqlite_path(target)
    out = destination(dest)
    if path is None:
        return await _backup_postgres(target, out)
    return await asyncio.to_thread(_backup_sqlite, path, out)


def is_postgresql(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)
