"""The storage API the rest of musbot uses: one :class:`Database` facade over a backend, made of
one mixin per concern (players, servers, live tables, matches, leagues, profiles,
tournaments, the bots' readings of players)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Self

from .backend import Backend, Listener, utcnow
from .leagues import Leagues
from .live import LiveTables
from .matches import Matches
from .players import Players
from .profiles import Profiles
from .readings import Readings
from .servers import Servers
from .sqlite import DEFAULT_PATH, SqliteBackend
from .tournaments import Tournaments
from .tx import Dialect

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite:///"


def backend_for(target: str | os.PathLike[str], *, busy_timeout: float = 5.0,
                clock: Callable[[], datetime] = utcnow) -> Backend:
    """The backend a ``MUSBOT_DB`` value names: ``postgresql://…`` (or ``postgres://…``) a
    PostgreSQL database, a path or an ``sqlite:`` URL an SQLite file, read as SQLAlchemy reads
    it: ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``."""
    text = os.fspath(target)
    if text.startswith(POSTGRES_SCHEMES):
        from .postgres import PostgresBackend  # asyncpg only where it is used

        return PostgresBackend(text, busy_timeout=busy_timeout, clock=clock)
    if text.startswith(SQLITE_SCHEME):
        text = text[len(SQLITE_SCHEME):]
    elif scheme := re.match(r"[A-Za-z][A-Za-z0-9+.-]+:", text):
        # A URL (not a drive letter): one mistyped must not become a file of that name.
        raise ValueError(f"unknown database URL {scheme[0]}…: use a file path, "
                         "sqlite:///path or postgresql://…")
    return SqliteBackend(Path(text), busy_timeout=busy_timeout, clock=clock)


def absolute_reading(target: str) -> str | None:
    """For ``sqlite:///x/y.db`` (three slashes: a relative path, as SQLAlchemy reads it), the
    URL of the absolute path its writer may have meant, ``sqlite:////x/y.db``; None for any
    other value. Said when the relative file is not there."""
    if not target.startswith(SQLITE_SCHEME) or target[len(SQLITE_SCHEME):].startswith("/"):
        return None
    return f"{SQLITE_SCHEME}/{target[len(SQLITE_SCHEME):]}"


class Database(Players, Servers, LiveTables, Matches, Leagues, Profiles, Tournaments, Readings):
    """musbot's database. Open with ``await Database.open(target)`` or
    ``async with Database(target) as db``, where ``target`` is what :func:`backend_for` takes.

    Every public method is one transaction, written once for both backends
    (:mod:`~musbot.storage.tx`)."""

    def __init__(self, target: str | os.PathLike[str] = DEFAULT_PATH, *,
                 busy_timeout: float = 5.0, clock: Callable[[], datetime] = utcnow) -> None:
        self._backend = backend_for(target, busy_timeout=busy_timeout, clock=clock)

    @classmethod
    async def open(cls, target: str | os.PathLike[str] = DEFAULT_PATH, *,
                   busy_timeout: float = 5.0, clock: Callable[[], datetime] = utcnow) -> Self:
        """Opens the database, refusing a damaged one, one from a newer musbot or one that is
        not musbot's (errors in :mod:`~musbot.storage.errors`), and migrates it."""
        db = cls(target, busy_timeout=busy_timeout, clock=clock)
        await db.connect()
        return db

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def backend(self) -> Backend:
        return self._backend

    @property
    def dialect(self) -> Dialect:
        return self._backend.dialect

    @property
    def where(self) -> str:
        """The database as messages name it (a PostgreSQL URL without its password)."""
        return self._backend.where

    @property
    def is_open(self) -> bool:
        return self._backend.is_open

    async def connect(self) -> None:
        await self._backend.connect()

    async def close(self) -> None:
        await self._backend.close()

    async def schema_version(self) -> int:
        return await self._backend.schema_version()

    async def checkpoint(self) -> None:
        """SQLite: copies the write-ahead log into the file now (``musbot bench load``, to
        measure the steady state); PostgreSQL's server does its own."""
        await self._backend.checkpoint()

    # --- between processes (PostgreSQL) ------------------------------------------------------

    async def notify(self, channel: str, payload: str) -> None:
        """Publishes ``payload`` to every process listening on ``channel``, once this
        transaction commits (at once: it is its own). Raises
        :class:`~musbot.storage.errors.NotificationsUnavailable` on SQLite, where one process
        runs the bot."""
        await self._backend.notify(channel, payload)

    async def listen(self, channel: str, callback: Listener) -> None:
        """Calls ``callback(payload)`` for every payload published on ``channel`` from now on
        (a coroutine callback runs as a task), over a connection of its own."""
        await self._backend.listen(channel, callback)

    async def unlisten(self, channel: str, callback: Listener | None = None) -> None:
        """Stops ``callback`` (every callback of the channel when None) hearing ``channel``."""
        await self._backend.unlisten(channel, callback)
