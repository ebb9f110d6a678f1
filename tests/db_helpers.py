"""Reading a test database directly, as one read transaction on the database thread."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from musbot.storage import Database


async def select(db: Database, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    return await db._fetch(lambda raw: [tuple(row) for row in raw.execute(sql, params)])
