"""What a storage backend does for the :class:`~musbot.storage.Database` facade: open and migrate
its database, run transactions (:mod:`~musbot.storage.tx`), and the few things only one backend
can do. The SQLite one is :mod:`~musbot.storage.sqlite`, the PostgreSQL one
:mod:`~musbot.storage.postgres`."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol, TypeVar

from .errors import NotificationsUnavailable
from .tx import Dialect, LiveWork, Row, Work

T = TypeVar("T")

Listener = Callable[[str], Awaitable[None] | None]
"""Called with each payload published on a channel (:meth:`Backend.listen`)."""


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


class ReadView(Protocol):
    """One consistent read of a whole database, for ``musbot db copy``."""

    def rows(self, sql: str) -> AsyncIterator[list[Row]]:
        """The query's rows, a batch at a time."""
        ...


class Loader(ReadView, Protocol):
    """One write transaction that fills tables, for ``musbot db copy``; its :meth:`rows` read
    what it wrote, before it commits."""

    async def insert(self, table: str, columns: Sequence[str],
                     rows: Sequence[Sequence[Any]]) -> None: ...


class Backend(ABC):
    """One database, opened by :meth:`connect`. Every transaction goes through :meth:`read`,
    :meth:`write` or :meth:`write_live`."""

    dialect: ClassVar[Dialect]

    def __init__(self, *, busy_timeout: float, clock: Callable[[], datetime]) -> None:
        self.busy_timeout = busy_timeout
        """Seconds to wait for another connection's lock before
        :class:`~musbot.storage.errors.DatabaseLocked`."""
        self._clock = clock
        self.fault: Callable[[str, str], None] | None = None
        """Called inside every write as ``fault(stage, name)``: a transaction's at its
        ``"begin"`` (nothing read yet) and before its ``"commit"`` (its statements done), a
        live table's write before its one statement (``"live"``); ``name`` is the transaction
        body's (:func:`~musbot.storage.tx.work_name`), ``"live"`` for a live write. None in
        production. Fault tests set it to make writes fail the way the driver fails (raising
        the driver's own error), to freeze the process in the middle of a write and kill it
        there, or to hold two processes' transactions open together."""

    @property
    @abstractmethod
    def where(self) -> str:
        """The database as error messages name it (never with a password)."""

    @property
    @abstractmethod
    def is_open(self) -> bool: ...

    @abstractmethod
    async def connect(self) -> None:
        """Checks the database (refusing a damaged, foreign or newer one untouched), then
        migrates it to :data:`~musbot.storage.schema.SCHEMA_VERSION`."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def read(self, work: Work[T]) -> T:
        """``work`` as one read transaction: one snapshot for all its queries."""

    @abstractmethod
    async def write(self, work: Work[T]) -> T:
        """``work`` as one write transaction, committed if it returns, rolled back if it raises,
        and serializable: as if no other transaction ran at the same time."""

    @abstractmethod
    async def write_live(self, key: int, work: LiveWork[T]) -> T:
        """A live table's write (``key``: its channel), returning once committed; the writes
        of one table are committed in the order they were asked for. ``work`` is a single
        statement, atomic by itself, so it needs no transaction around it."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[ReadView]: ...

    @abstractmethod
    def loader(self) -> AbstractAsyncContextManager[Loader]: ...

    @abstractmethod
    async def checkpoint(self) -> None:
        """Makes the database's own log start again, where the backend keeps one."""

    @abstractmethod
    async def scrub(self, tables: Sequence[str]) -> None:
        """What rows deleted or changed in ``tables`` left in the database's files is
        overwritten now (``/mus olvidarme``: a forgotten name must not stay there)."""

    async def notify(self, channel: str, payload: str) -> None:
        raise NotificationsUnavailable(self.dialect)

    async def listen(self, channel: str, callback: Listener) -> None:
        raise NotificationsUnavailable(self.dialect)

    async def unlisten(self, channel: str, callback: Listener | None = None) -> None:
        raise NotificationsUnavailable(self.dialect)

    def now(self) -> str:
        return iso_now() if self._clock is utcnow else iso(self._clock())
