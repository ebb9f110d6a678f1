"""The SQLite file itself: what is wrong with a path (none there, a folder, not a database, a
newer musbot's), SQLite's errors translated into the storage's own, and the work run on a
connection's thread. Apart from :mod:`musbot.storage.sqlite` (the backend) so that the commands
that only look at a file (``musbot db check``, ``db copy``) read this alone."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, TypeVar

import aiosqlite

from .errors import (
    ConstraintViolation,
    CorruptDatabase,
    DatabaseClosed,
    DatabaseFull,
    DatabaseLocked,
    DatabaseUnavailable,
    DriverError,
    StorageError,
)

T = TypeVar("T")

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (an empty file is an empty database)."""


class _WriteLockBusy(Exception):
    """Another connection holds the write lock: the write goes to the database thread."""


def _is_busy(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY") \
        or "database is locked" in str(exc).lower()


_UNAVAILABLE_NAMES = ("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_PERM",
                      "SQLITE_NOMEM", "SQLITE_AUTH", "SQLITE_NOLFS")
_UNAVAILABLE_TEXTS = ("unable to open", "disk i/o error", "readonly database",
                      "out of memory", "access permission denied")
_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def translate(exc: BaseException, where: str | os.PathLike[str], busy_timeout: float
              ) -> StorageError:
    """The storage error a failure of SQLite or of the disk under it is (see
    :mod:`musbot.storage.errors`): locked, damaged, full, unavailable (cannot be opened, read or
    written), closed, a broken constraint; anything else a :class:`DriverError`. Ours are
    returned as they are."""
    if isinstance(exc, StorageError):
        return exc
    place = Path(where)
    detail = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, OSError):
        if exc.errno in _FULL_ERRNOS:
            return DatabaseFull(place, detail)
        return DatabaseUnavailable(place, detail)
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintViolation(str(exc))
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    if isinstance(exc, sqlite3.ProgrammingError) and "closed" in text:
        return DatabaseClosed(f"{place}: the database is not open")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in text:
        return DatabaseLocked(place, busy_timeout)
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "not a database" in text \
            or "malformed" in text:
        return CorruptDatabase(place, str(exc))
    if name.startswith("SQLITE_FULL") or "database or disk is full" in text:
        return DatabaseFull(place, detail)
    if name.startswith(_UNAVAILABLE_NAMES) or any(t in text for t in _UNAVAILABLE_TEXTS):
        return DatabaseUnavailable(place, detail)
    return DriverError(f"{place}: {detail}")


async def _on_thread(conn: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work(raw connection)`` on aiosqlite's thread. aiosqlite has no public call for this:
    its worker queue (``_execute``) is used here and nowhere else."""
    return await conn._execute(work, conn._conn)


class NoDatabase(StorageError):
    """The SQLite file named does not exist: looking at it must not create it."""

    def __init__(self, where: Path) -> None:
        super().__init__(f"{where} does not exist")
        self.where = where


class NotADatabase(StorageError):
    """Something is at the path named, but not an SQLite file this process can read: a
    directory, a device (``/dev/null``), a file of another kind, one it may not read. Refused
    before SQLite opens it, which would answer «unable to open database file» or «file is not a
    database», and beside a device would make a journal file."""

    KEYS: ClassVar[dict[str, str]] = {
        "directory": "db_directory", "special": "db_special", "unreadable": "db_unreadable",
        "not_sqlite": "db_not_sqlite"}
    """Each reason and its sentence in the ``CLI`` catalogue."""

    def __init__(self, where: Path, reason: str, detail: str = "") -> None:
        super().__init__(f"{where}: {reason} {detail}".rstrip())
        self.where, self.reason, self.detail = where, reason, detail

    @property
    def key(self) -> str:
        return self.KEYS[self.reason]


def sqlite_file(path: Path) -> Path:
    """``path``, when it is an SQLite database file this process can read; else
    :class:`NoDatabase` (nothing there) or :class:`NotADatabase` (why not), so that a command
    that only reads a database never gets SQLite's own words for a wrong path."""
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise NoDatabase(path) from None
    except OSError as exc:
        raise NotADatabase(path, "unreadable", exc.strerror or str(exc)) from None
    if stat.S_ISDIR(mode):
        raise NotADatabase(path, "directory")
    if not stat.S_ISREG(mode):
        raise NotADatabase(path, "special")
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise NotADatabase(path, "unreadable", exc.strerror or str(exc)) from None
    if head and head != SQLITE_HEADER:
        raise NotADatabase(path, "not_sqlite")
    return path
