"""The transaction interface every storage query is written against, so that each transaction is
written once for both backends.

A transaction is a coroutine function of a :class:`Tx` (a :data:`Work`). Its SQL has one common
form: ``?`` placeholders (PostgreSQL's ``$1`` are made from them), rows as positional tuples,
constraint failures as :class:`~musbot.storage.errors.ConstraintViolation`. Where the two dialects
must differ (the journal append, a catalog query) the body picks its SQL by :attr:`Tx.dialect`.

A body must do nothing but talk to its ``tx``: on SQLite it is driven to its end without an
event loop (:func:`musbot.storage.sqlite.run_sync`), and on PostgreSQL a write is run again from
the start after a serialization failure.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

T = TypeVar("T")

Dialect: TypeAlias = Literal["sqlite", "postgresql"]

Row: TypeAlias = Sequence[Any]
"""A result row: a tuple on SQLite, an ``asyncpg.Record`` on PostgreSQL; read by position."""


class Tx(Protocol):
    """One open transaction (or, for a single statement, one autocommitted statement)."""

    @property
    def dialect(self) -> Dialect: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Runs one statement; returns how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        """The first row of a query that returns at most one."""
        ...

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of :meth:`fetchrow`, None without a row."""
        ...


Work: TypeAlias = Callable[[Tx], Coroutine[Any, Any, T]]
"""A transaction body."""

LiveWork: TypeAlias = Callable[[Tx, str], Coroutine[Any, Any, T]]
"""A live table's write, given the time to stamp it with (taken when it is written, which for a
queued write is later than when it was asked for)."""


def work_name(work: Callable[..., Any]) -> str:
    """What a transaction body is called in logs and fault hooks (``functools.partial``s by the
    function they wrap): ``Matches.record_finished_match.<locals>.write``."""
    func = getattr(work, "func", work)
    return str(getattr(func, "__qualname__", None) or type(work).__name__)
