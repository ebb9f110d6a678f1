"""What only the PostgreSQL backend has to face, on a real server: databases it must refuse
untouched, other sessions' locks, transactions that conflict with other processes', a server
that cannot be reached, and publish/subscribe between processes. The behaviour both backends
share is in test_storage.py; SQLite's counterparts are in test_storage_sqlite.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from db_helpers import four, hand, select

from musbot.storage import (
    SCHEMA_VERSION,
    Database,
    DatabaseLocked,
    DatabaseTooNew,
    DatabaseUnavailable,
    ForeignDatabase,
    ratings,
)
from musbot.storage.postgres import MIGRATION_LOCK, PostgresBackend, numbered

on_postgresql = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
"""A test of a PostgreSQL database (the ``target`` fixture's): skipped without a server."""


async def fingerprint(url: str) -> list[Any]:
    """Every table of the database's schema with its rows, to show it was left untouched."""
    conn = await asyncpg.connect(url)
    try:
        tables = [row[0] for row in await conn.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() ORDER BY table_name")]
        return [(table, [tuple(row) for row in await conn.fetch(
            f"SELECT * FROM {table} ORDER BY 1")]) for table in tables]
    finally:
        await conn.close()


def backend_of(db: Database) -> PostgresBackend:
    backend = db.backend
    assert isinstance(backend, PostgresBackend)
    return backend


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target, busy_timeout=0.2) as database:
        yield database


# --- databases to refuse ------------------------------------------------------------------------

@on_postgresql
async def test_a_newer_schema_is_refused_and_untouched(target: str) -> None:
    async with Database(target) as db:
        await db.create_league(1, "Liga")
    conn = await asyncpg.connect(target)
    await conn.execute("INSERT INTO schema_version VALUES ($1, 'from_the_future', 'x')",
                       SCHEMA_VERSION + 1)
    await conn.close()
    before = await fingerprint(target)
    with pytest.raises(DatabaseTooNew, match=r"version \d+ is newer") as info:
        await Database.open(target)
    assert info.value.found == SCHEMA_VERSION + 1
    assert await fingerprint(target) == before


@on_postgresql
async def test_a_database_that_is_not_ours_is_refused_and_untouched(target: str) -> None:
    conn = await asyncpg.connect(target)
    await conn.execute("CREATE TABLE users (id BIGINT PRIMARY KEY); INSERT INTO users VALUES (7)")
    await conn.close()
    before = await fingerprint(target)
    with pytest.raises(ForeignDatabase, match="not created by musbot"):
        await Database.open(target)
    assert await fingerprint(target) == before == [("users", [(7,)])]


@on_postgresql
async def test_a_migration_under_way_elsewhere_is_waited_for_then_database_locked(
        target: str) -> None:
    """Another process migrating (holding the migration lock) longer than busy_timeout."""
    other = await asyncpg.connect(target)
    try:
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        started = time.monotonic()
        with pytest.raises(DatabaseLocked, match="locked by another process"):
            await Database.open(target, busy_timeout=0.2)
        assert time.monotonic() - started >= 0.15
    finally:
        await other.close()
    async with Database(target) as db:  # the lock gone, it opens and migrates
        assert await db.schema_version() == SCHEMA_VERSION


@on_postgresql
async def test_a_lock_held_elsewhere_gives_database_locked(db: Database, target: str) -> None:
    other = await asyncpg.connect(target)
    try:
        tx = other.transaction()
        await tx.start()
        await other.execute("LOCK TABLE live_tables IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(DatabaseLocked):
            await db.save_table(1, 1, {"x": 1})
        await tx.rollback()
    finally:
        await other.close()
    assert await db.save_table(1, 1, {"x": 1}) == 1  # the failed write left no trace


async def test_a_server_that_cannot_be_reached_is_database_unavailable() -> None:
    """A closed port: nothing to wait for, and the message names the database without its
    password."""
    with pytest.raises(DatabaseUnavailable, match="unavailable") as info:
        await Database.open("postgresql://bot:s3cret@127.0.0.1:1/musbot")
    assert "s3cret" not in str(info.value) and "bot@127.0.0.1:1/musbot" in str(info.value)
    assert isinstance(info.value, DatabaseLocked), "retried later, like a locked database"


# --- conflicts with other transactions ----------------------------------------------------------

@on_postgresql
async def test_a_write_that_loses_a_conflict_runs_again_from_the_start(
        db: Database, target: str) -> None:
    """Finishing a match reads its players' ratings and writes them back. Another session
    changes one of them meanwhile and commits: the server aborts the finish (serializable),
    which runs again and starts from the rating that session left."""
    lid = (await db.create_league(1, "Liga")).league_id
    first = await db.start_match(four(), league_id=lid)
    await db.record_hand(first, 1, *hand([40, 0], game_winner=0))
    await db.record_finished_match(first, 0)
    second = await db.start_match(four(), league_id=lid)
    await db.record_hand(second, 1, *hand([40, 0], game_winner=0))
    [(mu, sigma)] = await select(db, "SELECT mu, sigma FROM ratings WHERE user_id = 1")

    other = await asyncpg.connect(target)
    try:
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = 1")
        finishing = asyncio.ensure_future(db.record_finished_match(second, 0))
        await wait_for_a_lock_wait(other)
        assert not finishing.done()
        await tx.commit()
        await finishing
    finally:
        await other.close()
    assert backend_of(db).retries == 1
    before = {u: tuple(r) for u, *r in await select(
        db, "SELECT user_id, mu, sigma FROM rating_history WHERE match_id = ?", [first])}
    before[1] = (mu + 1, sigma)
    expected = ratings.rate([[before[1], before[3]], [before[2], before[4]]], 0)
    assert await select(db, "SELECT mu, sigma FROM ratings WHERE user_id = 1") \
        == [expected[0][0]]


async def wait_for_a_lock_wait(conn: asyncpg.Connection) -> None:
    """Until some session of the database waits for a lock."""
    for _ in range(500):
        waiting = await conn.fetchval(
            "SELECT COUNT(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE NOT l.granted AND a.datname = current_database()")
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("nobody waited for the lock")


# --- the common SQL form ------------------------------------------------------------------------

def test_placeholders_are_numbered_outside_string_literals() -> None:
    assert numbered("SELECT ? WHERE a = ? AND b = '?' AND c = ?") \
        == "SELECT $1 WHERE a = $2 AND b = '?' AND c = $3"


@on_postgresql
async def test_the_journal_is_kept_alike_on_both_backends(db: Database, tmp_path: Path) -> None:
    """Each journal entry is a row of its own (migration 0008), numbered alike and read back
    alike on both backends, whatever JSON it holds; a whole save empties it on both."""
    entries: list[Any] = [[0, "paso", 0, []], {"ñ": "órdago", "n": 1.5}, [3, "envido", 2, [1]]]
    async with Database(tmp_path / "musbot.db") as lite:
        for store in (db, lite):
            await store.save_table(1, 1, {"n": 1})
            await store.append_to_journal(1, entries[:1])
            await store.append_to_journal(1, entries[1:])
        numbered = [await select(store, "SELECT seq FROM live_moves ORDER BY seq")
                    for store in (db, lite)]
        saved = [await store.load_table(1) for store in (db, lite)]
        assert numbered[0] == numbered[1] == [(1,), (2,), (3,)]
        assert [(s.journal, s.version) for s in saved if s is not None] == [(entries, 4)] * 2
        for store in (db, lite):
            assert await store.save_table(1, 1, {"n": 2}) == 5
        assert [await select(store, "SELECT COUNT(*) FROM live_moves") for store in (db, lite)] \
            == [[(0,)], [(0,)]]


# --- publish/subscribe --------------------------------------------------------------------------

@on_postgresql
async def test_payloads_published_reach_every_listener_until_it_stops(
        db: Database, target: str) -> None:
    heard: list[tuple[str, str]] = []
    got = asyncio.Event()

    async def on_dm(payload: str) -> None:
        heard.append(("dm", payload))
        got.set()

    def on_other(payload: str) -> None:
        heard.append(("other", payload))
        got.set()

    async def published(sender: Database, channel: str, payload: str) -> None:
        got.clear()
        await sender.notify(channel, payload)
        await asyncio.wait_for(got.wait(), 5)

    async with Database(target) as sender:  # another process's
        await db.listen("dm", on_dm)
        await db.listen("other", on_other)
        await published(sender, "dm", '{"user": 12, "text": "órdago"}')
        await published(sender, "other", "x")
        await db.unlisten("dm", on_dm)
        await sender.notify("dm", "not heard")
        await published(sender, "other", "y")
        await db.unlisten("other")
        await sender.notify("other", "not heard either")
        await asyncio.sleep(0.1)
    assert heard == [("dm", '{"user": 12, "text": "órdago"}'), ("other", "x"), ("other", "y")]


@on_postgresql
async def test_a_listener_whose_connection_drops_listens_again(db: Database, target: str,
                                                               caplog: pytest.LogCaptureFixture
                                                               ) -> None:
    """A server restart or a network cut ends the listening connection; the relay of DMs
    between processes must not stay deaf until the bot restarts."""
    heard: asyncio.Queue[str] = asyncio.Queue()
    await db.listen("dm", heard.put_nowait)
    backend = db._backend
    assert isinstance(backend, PostgresBackend) and backend._listener is not None
    pid = backend._listener.get_server_pid()
    async with Database(target) as other:
        await other.notify("dm", "before")
        assert await asyncio.wait_for(heard.get(), 5) == "before"
        async with other._backend._connection() as conn:  # type: ignore[attr-defined]
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
        for _ in range(100):  # until a new connection listens
            await asyncio.sleep(0.05)
            if backend._listener is not None and not backend._listener.is_closed() and \
                    backend._listener.get_server_pid() != pid:
                break
        await other.notify("dm", "after")
        assert await asyncio.wait_for(heard.get(), 5) == "after"
    assert "listening again" in caplog.text


@on_postgresql
async def test_a_live_tables_lane_whose_connection_drops_writes_on_a_new_one(
        db: Database, target: str) -> None:
    """A live table's writes keep a connection of their own (its lane); when the server ends it
    (a restart, a network cut) the next write takes a new one instead of failing for ever."""
    await db.save_table(100, 1, {"n": 1})
    lane = backend_of(db)._lanes[100 % len(backend_of(db)._lanes)]
    assert lane.conn is not None
    pid = lane.conn.get_server_pid()
    async with Database(target) as other, \
            other._backend._connection() as conn:  # type: ignore[attr-defined]
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
    for _ in range(100):  # until this side sees the connection closed
        if lane.conn.is_closed():
            break
        await asyncio.sleep(0.02)
    assert await db.append_to_journal(100, [[0, "paso"]])
    assert lane.conn is not None and lane.conn.get_server_pid() != pid
    assert await db.save_table(100, 1, {"n": 2}) == 3
    assert (await db.load_table(100)).state == {"n": 2}  # type: ignore[union-attr]
