"""SQLite's own file handling: a damaged file, a file from a newer musbot or another program,
another process's lock, the write-ahead log and its checkpoints, a full disk, and where each
write runs (the loop's connection or the database thread). The behaviour both backends share
is in test_storage.py."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import textwrap
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest
from db_helpers import four, hand, select

from musbot.settings import TableSettings
from musbot.storage import (
    SCHEMA_VERSION,
    ConstraintViolation,
    CorruptDatabase,
    Database,
    DatabaseFull,
    DatabaseLocked,
    DatabaseTooNew,
    ForeignDatabase,
    NotificationsUnavailable,
    ServerSettings,
    live,
    sqlite,
)
from musbot.storage.schema import split_statements
from musbot.storage.sqlite import SqliteBackend, run_sync
from musbot.storage.tx import Tx

ROOT = Path(__file__).resolve().parents[1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def backend_of(db: Database) -> SqliteBackend:
    backend = db.backend
    assert isinstance(backend, SqliteBackend)
    return backend


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database(tmp_path / "musbot.db", busy_timeout=0.2) as database:
        yield database


# --- opening ------------------------------------------------------------------------------------

async def test_a_new_file_is_made_in_its_folder_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "musbot.db"
    async with Database(f"sqlite:///{path}") as db:
        assert db.where == str(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    async with Database(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 'x')",
                     (SCHEMA_VERSION + 1,))
    conn.close()
    before = digest(path)
    with pytest.raises(DatabaseTooNew, match=r"version \d+ is newer") as info:
        await Database.open(path)
    assert info.value.found == SCHEMA_VERSION + 1
    assert digest(path) == before


@pytest.mark.parametrize("damage", ["garbage", "page"])
async def test_corrupt_file_is_refused_and_untouched(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "musbot.db"
    if damage == "garbage":
        path.write_bytes(b"this is not a database " * 400)
    else:
        # A valid header with a damaged table page: only the integrity check notices.
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name, at)")
            conn.execute("CREATE TABLE t (x)")
            conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
        conn.close()
        data = bytearray(path.read_bytes())
        data[4096 * 3: 4096 * 3 + 600] = b"\xff" * 600
        path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(CorruptDatabase, match="damaged"):
        await Database.open(path)
    assert digest(path) == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


async def test_a_database_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id)")
    conn.close()
    with pytest.raises(ForeignDatabase):
        await Database.open(path)


async def test_a_file_that_cannot_be_opened_leaves_no_thread_behind(tmp_path: Path) -> None:
    """Issue 42: ``musbot db copy DIR new.db`` said why in one sentence, then, now and then, a
    traceback «Event loop is closed» from aiosqlite's thread, still answering the failed open
    after the command's event loop had closed."""
    import threading

    from musbot.storage import DatabaseUnavailable

    def workers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if "connection_worker" in t.name}

    before = workers()
    for _ in range(5):
        with pytest.raises(DatabaseUnavailable):
            await Database(tmp_path).connect()  # a directory
        assert not workers() - before


async def test_locked_file_at_open_gives_database_locked(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name, at)")
        started = time.monotonic()
        with pytest.raises(DatabaseLocked, match="locked by another process"):
            await Database.open(path, busy_timeout=0.2)
        assert time.monotonic() - started >= 0.15
    finally:
        holder.close()


async def test_writer_lock_held_elsewhere_gives_database_locked(db: Database) -> None:
    holder = sqlite3.connect(db.where, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(DatabaseLocked):
            await db.save_table(1, 1, {"x": 1})
    finally:
        holder.close()
    assert await db.save_table(1, 1, {"x": 1}) == 1  # the failed transaction left no trace


def test_split_statements_keeps_triggers_whole() -> None:
    sql = textwrap.dedent("""\
        -- a comment
        CREATE TABLE a (x);
        CREATE TRIGGER t AFTER INSERT ON a BEGIN
            UPDATE a SET x = 1; DELETE FROM a WHERE x = 2;
        END;
        -- trailing comment
    """)
    statements = split_statements(sql)
    assert len(statements) == 2 and statements[1].endswith("END;")
    with pytest.raises(ValueError):
        split_statements("CREATE TABLE b (x)")


# --- where each transaction runs ----------------------------------------------------------------

def test_a_transaction_body_that_would_wait_is_stopped() -> None:
    """A body runs to its end at once (SqliteTx never suspends); one that awaits anything else
    is a bug, stopped instead of left half done."""

    async def body(tx: Tx) -> int:
        await asyncio.sleep(0)
        return 1

    with pytest.raises(RuntimeError, match="awaited something other than its Tx"):
        run_sync(body(None))  # type: ignore[arg-type]


def count_trips(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the trips to aiosqlite's thread from now on (the list's one element)."""
    conn = backend_of(db)._require()
    trips = [0]
    execute = conn._execute

    async def counted(*args: object, **kwargs: object) -> object:
        trips[0] += 1
        return await execute(*args, **kwargs)

    monkeypatch.setattr(conn, "_execute", counted)
    return trips


async def test_a_match_is_written_without_a_trip_to_the_thread_and_a_bad_hand_leaves_nothing(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 6: on a busy loop every trip to the database thread waits for the GIL at each
    step, so the writes of play (saves, a match's start, its hands, its end) run on the loop's
    own connection; a hand's rows are still one transaction."""
    trips = count_trips(db, monkeypatch)
    match_id = await db.start_match(four())
    await db.save_table(1, 1, {"n": 1})
    steps = [{"pair": 1, "tantos": 0, "lance": "grande", "kind": "ordago"}]
    ordago = [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"], [3, "quiero"]]
    await db.record_hand(match_id, 1, *hand([12, 40], game_winner=1, actions=ordago,
                                            ledger=steps))
    bad = hand([1, 0], ledger=[{"pair": 0}])
    with pytest.raises(ValueError, match=r"hand 2 is not a docs/replay\.md"):
        await db.record_hand(match_id, 2, *bad)
    await db.record_finished_match(match_id, 1)
    assert trips == [0]
    monkeypatch.undo()
    assert len(await db.match_hands(match_id)) == 1  # rolled back: no hand 2
    [(games,)] = await select(db, "SELECT COUNT(*) FROM games")
    [(ordagos,)] = await select(db, "SELECT COUNT(*) FROM ordagos")
    assert (games, ordagos) == (1, 1)


async def test_a_write_that_finds_the_lock_taken_waits_on_the_thread_not_the_loop(
        tmp_path: Path) -> None:
    """The loop's connection never waits for a lock (busy_timeout 0): while another process
    holds the write lock, writes go to the database thread, which waits for it, and the loop
    keeps running. Saves made meanwhile follow them there, in order."""
    async with Database(tmp_path / "musbot.db", busy_timeout=5) as db:
        await db.save_table(1, 1, {"n": 0})
        holder = sqlite3.connect(db.where, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            first = asyncio.ensure_future(db.save_table(1, 1, {"n": 1}))
            settings = asyncio.ensure_future(
                db.save_server_settings(5, ServerSettings(TableSettings(language="en"))))
            ticks = 0
            for _ in range(10):
                await asyncio.sleep(0.01)
                ticks += 1
            assert not first.done() and not settings.done()
            moved = asyncio.ensure_future(db.append_to_journal(1, ["after n=1"]))
            second = asyncio.ensure_future(db.save_table(1, 1, {"n": 2}))
            moved_again = asyncio.ensure_future(db.append_to_journal(1, ["after n=2"]))
            await asyncio.sleep(0.01)
            assert backend_of(db)._late_writer is not None
            assert not second.done() and not moved.done()
        finally:
            holder.execute("COMMIT")
            holder.close()
        assert ticks == 10
        assert (await first, await moved, await second, await moved_again) == (2, True, 4, True)
        await settings
        saved = await db.load_table(1)
        assert saved is not None and (saved.state, saved.version) == ({"n": 2}, 5)
        assert saved.journal == ["after n=2"], "the journal entries kept their places"
        assert (await db.server_settings(5)).table.language == "en"
        assert await db.save_table(1, 1, {"n": 3}) == 6  # back on the loop's connection
        assert backend_of(db)._late_writer is None


# --- the write-ahead log -------------------------------------------------------------------------

async def wal_high_water(db: Database, saves: int) -> int:
    """The log's size after ``saves`` saves a millisecond apart (a loop that never waits would
    keep the database thread from the GIL, and its checkpoints with it)."""
    for i in range(saves):
        await db.save_table(i % 7, 1, {"n": i, "pad": "x" * 3000})
        await asyncio.sleep(0.001)
    return Path(f"{db.where}-wal").stat().st_size


async def test_checkpoints_keep_the_log_small_without_the_loop_connection_doing_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints on its own (that is where SQLite copies pages and
    syncs the file); every CHECKPOINT_EVERY of its commits the thread copies the log and the
    loop only its last pages, so the log starts again instead of growing."""
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 20)
    async with Database(tmp_path / "a.db") as db:
        direct = backend_of(db)._direct
        assert direct is not None
        [(auto,)] = direct.execute("PRAGMA wal_autocheckpoint")
        assert auto == 0
        bounded = await wal_high_water(db, 400)
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 10**9)
    async with Database(tmp_path / "b.db") as db:
        unbounded = await wal_high_water(db, 400)
    assert unbounded > 400 * 4096  # a page or more per save, never copied back
    assert bounded < 0.4 * unbounded, (bounded, unbounded)


async def test_the_log_file_is_cut_back_once_it_starts_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite reuses the log file at its largest size; after a burst (a thousand tables opened
    at once) it is cut back to WAL_SIZE_LIMIT when it starts again."""
    monkeypatch.setattr(sqlite, "WAL_SIZE_LIMIT", 64 * 1024)
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 10**9)
    async with Database(tmp_path / "a.db") as db:
        wal = Path(f"{db.where}-wal")
        for i in range(300):
            await db.save_table(i, 1, {"pad": "x" * 3000})
        assert wal.stat().st_size > 1_000_000
        await backend_of(db)._run_checkpoint()
        await db.save_table(1, 1, {"n": 1})
        assert wal.stat().st_size <= 64 * 1024


def log_restarts(db: Database) -> int:
    """How many times the log has started again from its beginning: the checkpoint sequence
    number in its header, which SQLite bumps at each restart. Read from the file, since asking
    SQLite (``PRAGMA wal_checkpoint``) would itself checkpoint."""
    with open(f"{db.where}-wal", "rb") as wal:
        return int.from_bytes(wal.read(16)[12:16], "big")


async def test_a_checkpoint_lets_the_log_start_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``checkpoint()`` copies the whole log, so the next write starts it from the beginning;
    the thread's own syncs of the files only save the loop time, and a file it cannot sync
    (another platform, a file system that refuses) changes nothing else."""
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 10**9)
    synced: list[str] = []
    monkeypatch.setattr(sqlite, "_sync_file", synced.append)
    async with Database(tmp_path / "a.db") as db:
        await db.save_table(0, 1, {"n": 0})
        restarts = log_restarts(db)
        for i in range(300):
            await db.save_table(i, 1, {"pad": "x" * 3000})
        before = await db.save_table(1, 1, {"n": 0})
        assert log_restarts(db) == restarts, "nothing checkpointed yet: the log only grew"
        await db.checkpoint()
        assert synced == [f"{db.where}-wal", db.where]
        assert await db.save_table(1, 1, {"n": 1}) == before + 1
        assert log_restarts(db) == restarts + 1

        def refuse(name: str) -> None:
            raise OSError(22, "fsync refused", name)

        monkeypatch.setattr(sqlite, "_sync_file", refuse)
        for i in range(300):
            await db.save_table(i, 1, {"pad": "y" * 3000})
        await db.checkpoint()
        await db.save_table(1, 1, {"n": 2})
        assert log_restarts(db) == restarts + 2
        saved = await db.load_table(1)
        assert saved is not None and saved.state == {"n": 2}


async def test_a_full_disk_fails_the_save_and_keeps_what_was_saved(db: Database) -> None:
    """A save the file cannot take is an error for its caller, never a silent loss, and the
    state saved before it stays whole."""
    await db.save_table(1, 1, {"n": 1})
    direct = backend_of(db)._direct
    assert direct is not None
    [(pages,)] = direct.execute("PRAGMA page_count").fetchall()
    # Bigger than the pages the file has free (a migration's dropped table left some).
    [(free,)] = direct.execute("PRAGMA freelist_count").fetchall()
    [(page_size,)] = direct.execute("PRAGMA page_size").fetchall()
    direct.execute(f"PRAGMA max_page_count = {pages}")
    try:
        with pytest.raises(DatabaseFull, match="full") as full:
            await db.save_table(2, 1, {"pad": "x" * (free * page_size + 20000)})
        assert full.value.code == "db_full"
    finally:
        direct.execute("PRAGMA max_page_count = 1073741823")
    saved = await db.load_table(1)
    assert saved is not None and saved.state == {"n": 1}
    assert await db.load_table(2) is None
    assert await db.save_table(2, 1, {"n": 2}) == 1


async def test_publish_and_subscribe_say_they_need_postgresql(db: Database) -> None:
    """One process runs a bot on SQLite: there is nobody to notify."""
    for call in (db.notify("dm", "x"), db.listen("dm", print), db.unlisten("dm")):
        with pytest.raises(NotificationsUnavailable, match="need PostgreSQL"):
            await call


async def test_one_journal_entry_is_refused_for_a_missing_table_only(tmp_path: Path) -> None:
    """The one-entry append (storage/live.py) leaves a missing row to the foreign key: False
    then, on the loop's connection and in a batch on the database thread alike, where the
    writes beside it are kept; any other constraint failing is an error, not «no saved row»."""
    async with Database(tmp_path / "musbot.db", busy_timeout=5) as db:
        await db.save_table(1, 1, {"n": 0})
        backend = backend_of(db)
        with pytest.raises(ConstraintViolation):  # not JSON: the CHECK refuses it
            await backend.write_live(1, partial(live._journal_rows, channel_id=1,
                                                entries=["not json"]))
        assert await db.append_to_journal(2, [[0, "paso", 0, []]]) is False
        holder = sqlite3.connect(db.where, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            before = asyncio.ensure_future(db.append_to_journal(1, [[0, "mus"]]))
            missing = asyncio.ensure_future(db.append_to_journal(2, [[1, "mus"]]))
            after = asyncio.ensure_future(db.append_to_journal(1, [[2, "mus"]]))
            await asyncio.sleep(0.01)
            assert backend._late_writer is not None
        finally:
            holder.execute("COMMIT")
            holder.close()
        assert (await before, await missing, await after) == (True, False, True)
        saved = await db.load_table(1)
        assert saved is not None and saved.journal == [[0, "mus"], [2, "mus"]]
        assert saved.version == 3
        assert await db.load_table(2) is None
