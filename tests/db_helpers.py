"""Reading and writing a test database directly (one transaction each, in the storage layer's
common SQL form), and the PostgreSQL databases the tests create and drop."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from musbot.storage import Database, SeatRecord


async def select(db: Database, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query, as plain tuples, in a read transaction."""
    rows = await db._read(lambda tx: tx.fetch(sql, *params))
    return [tuple(row) for row in rows]


async def execute(db: Database, sql: str, params: Sequence[Any] = ()) -> int:
    """One statement in a write transaction; rows changed."""
    return await db._write(lambda tx: tx.execute(sql, *params))


async def select_in(target: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """:func:`select` on a database that is not open here (another process's)."""
    async with Database(target) as db:
        return await select(db, sql, params)


def with_database(url: str, name: str) -> str:
    """The server URL ``url`` naming database ``name`` instead of its own (``urlunsplit``
    would drop the ``//`` of a URL without a host, ``postgresql:///db?host=/socket/dir``)."""
    parts = urlsplit(url)
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}/{name}{query}"


async def create_pg_database(server: str) -> str:
    """A new, empty database on the test server; its URL."""
    name = f"musbot_test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return with_database(server, name)


async def drop_pg_database(server: str, url: str) -> None:
    """Drops a database :func:`create_pg_database` made, closing what is still connected."""
    name = urlsplit(url).path.lstrip("/")
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def four(users: tuple[int, int, int, int] = (1, 2, 3, 4)) -> list[SeatRecord]:
    return [SeatRecord.human(seat, user, f"p{user}") for seat, user in enumerate(users)]


PAIR_1_DEAL: list[list[str]] = [["1o", "4c", "5e", "6b"], ["12o", "12c", "12e", "12b"],
                                 ["7o", "7c", "10e", "11b"], ["1c", "1e", "5o", "6c"]]
"""A deal where pair 1 has the best hand at every lance: seat 1 four reyes (grande, duples, 40),
seat 3 the best chica (as, as, 5, 6). Seat 2 has pares and juego too, seat 0 neither."""
PAIR_0_DEAL: list[list[str]] = [*PAIR_1_DEAL[1:], PAIR_1_DEAL[0]]
"""The same hands one seat round: pair 0 has the best at every lance."""


def hand(scores: list[int], game_winner: int | None = None,
         actions: list[list[Any]] | None = None,
         ledger: list[dict[str, Any]] | None = None,
         deal: list[list[str]] = PAIR_1_DEAL) -> tuple[dict[str, Any], dict[str, Any]]:
    """A transcript/result pair in docs/replay.md form. Storage stores the result as given; it
    plays the transcript (a real deal and legal actions, stopping anywhere) only to find the
    órdagos of a record that does not carry them."""
    transcript = {"rules": {"reyes": 8, "puntos": 40, "real": False}, "mano": 0,
                  "scores": [0, 0], "hands": deal, "deck": [],
                  "actions": actions or [[0, "no hay mus"]]}
    result: dict[str, Any] = {"winners": {}, "ledger": ledger or [], "scores": scores,
                              "game_winner": game_winner, "finished": True}
    return transcript, result
