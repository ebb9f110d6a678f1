"""The storage layer on real SQLite files: opening, migrations, refusals, live tables, records."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from db_helpers import select
from hypothesis import given
from hypothesis import strategies as st

from musbot.engine.match import Match
from musbot.engine.rules import Rules
from musbot.storage import (
    SCHEMA_VERSION,
    ConflictingHand,
    CorruptDatabase,
    Database,
    DatabaseClosed,
    DatabaseLocked,
    DatabaseTooNew,
    ForeignDatabase,
    MatchFinished,
    SeatRecord,
    ServerSettings,
    UnknownMatch,
    connection,
)
from musbot.storage.connection import MIGRATIONS, Migration, iso, split_statements, utcnow
from musbot.storage.records import find_ordagos

ROOT = Path(__file__).resolve().parents[1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def four(users: tuple[int, int, int, int] = (1, 2, 3, 4)) -> list[SeatRecord]:
    return [SeatRecord.human(seat, user, f"p{user}") for seat, user in enumerate(users)]


def hand(scores: list[int], game_winner: int | None = None,
         actions: list[list[Any]] | None = None,
         ledger: list[dict[str, Any]] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A transcript/result pair in REPLAY.md form; storage does not replay it."""
    transcript = {"rules": {"reyes": 8, "puntos": 40, "real": False}, "mano": 0,
                  "scores": [0, 0], "hands": [["12o", "12c", "1e", "5b"]] * 4, "deck": [],
                  "actions": actions or [[0, "no hay mus"]]}
    result: dict[str, Any] = {"winners": {}, "ledger": ledger or [], "scores": scores,
              "game_winner": game_winner, "finished": True}
    return transcript, result


@pytest.fixture
async def db(tmp_path: Path):
    async with Database(tmp_path / "musbot.db", busy_timeout=0.2) as database:
        yield database


# --- opening and migrations ---------------------------------------------------------------------

async def test_fresh_file_is_migrated_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "musbot.db"
    async with Database(path) as db:
        assert await db.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT version, name FROM schema_version").fetchall()
        assert rows == [(m.version, m.name) for m in MIGRATIONS]
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "servers", "live_tables", "matches", "match_seats", "games", "hands",
            "ledger", "ordagos", "leagues", "league_members", "seasons", "ratings",
            "rating_history"} <= tables


async def test_reopening_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    async with Database(path) as db:
        await db.save_table(10, 1, {"n": 1})
    for _ in range(2):
        async with Database(path) as db:
            assert (await db.load_tables())[0].state == {"n": 1}
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == SCHEMA_VERSION


async def test_foreign_keys_are_on(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await db._write(
            lambda raw: raw.execute("INSERT INTO league_members VALUES (999, 999, 'x')"))


async def test_pending_migrations_apply_in_order_and_keep_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "musbot.db"
    async with Database(path) as db:
        await db.save_table(1, 1, {"kept": True})
    extra = Migration(SCHEMA_VERSION + 1, "add_notes",
                      "CREATE TABLE notes (x);\nINSERT INTO notes VALUES (1);")
    monkeypatch.setattr(connection, "MIGRATIONS", (*MIGRATIONS, extra))
    monkeypatch.setattr(connection, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    async with Database(path) as db:
        assert await db.schema_version() == SCHEMA_VERSION + 1
        assert (await db.load_tables())[0].state == {"kept": True}
        assert await select(db, "SELECT x FROM notes") == [(1,)]


async def test_failing_migration_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "musbot.db"
    async with Database(path):
        pass
    broken = Migration(SCHEMA_VERSION + 1, "broken",
                       "CREATE TABLE half_done (x);\nALTER TABLE no_such_table ADD COLUMN y;")
    monkeypatch.setattr(connection, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(connection, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await Database.open(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() \
            == (SCHEMA_VERSION,)
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'"
                            ).fetchall() == []
    conn.close()


async def test_version_1_file_is_upgraded(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "musbot.db"
    with monkeypatch.context() as patch:
        patch.setattr(connection, "MIGRATIONS", MIGRATIONS[:1])
        patch.setattr(connection, "SCHEMA_VERSION", 1)
        async with Database(path):
            pass
    with sqlite3.connect(path) as conn:  # a table saved by a musbot of schema 1
        conn.execute("INSERT INTO live_tables (channel_id, guild_id, state, updated_at)"
                     " VALUES (1, 1, '{\"old\": true}', '2026-01-01T00:00:00+00:00')")
    conn.close()
    async with Database(path) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        saved = await db.load_table(1)
        assert saved is not None and saved.state == {"old": True} and saved.journal == []
        assert await db.append_to_journal(1, [[0, "paso", 0, []]])
        assert await select(db, "SELECT name FROM sqlite_master WHERE name = 'timers'") == []


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
    holder = sqlite3.connect(db.path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(DatabaseLocked):
            await db.save_table(1, 1, {"x": 1})
    finally:
        holder.close()
    assert await db.save_table(1, 1, {"x": 1}) == 1  # the failed transaction left no trace


async def test_closed_database_says_so(tmp_path: Path) -> None:
    db = Database(tmp_path / "musbot.db")
    with pytest.raises(DatabaseClosed):
        await db.load_tables()


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


# --- servers and live tables --------------------------------------------------------------------

async def test_server_settings_round_trip(db: Database) -> None:
    assert await db.server_settings(5) == ServerSettings()
    settings = ServerSettings(rules=Rules(reyes=4, puntos=30, real=True), turn_timer=45,
                              language="en", allowed_channels=frozenset({7, 8}))
    await db.save_server_settings(5, settings)
    assert await db.server_settings(5) == settings


def test_server_settings_keep_unknown_keys() -> None:
    data = {"rules": {"reyes": 4, "future_variant": 1}, "language": "en", "from_v9": [1]}
    settings = ServerSettings.from_dict(data)
    assert settings.rules.reyes == 4 and settings.turn_timer == ServerSettings().turn_timer
    assert settings.to_dict()["from_v9"] == [1]


async def test_live_tables_round_trip(db: Database) -> None:
    assert await db.load_tables() == []
    assert await db.save_table(100, 1, {"seats": ["a", "b"], "ñ": "órdago"}) == 1
    assert await db.save_table(100, 1, {"seats": ["a", "b", "c"]}) == 2
    assert await db.save_table(200, None, {"terminal": True}) == 1
    tables = await db.load_tables()
    assert [(t.channel_id, t.guild_id, t.version) for t in tables] == [(100, 1, 2), (200, None, 1)]
    assert tables[0].state == {"seats": ["a", "b", "c"]}
    assert await db.delete_table(100) is True
    assert await db.delete_table(100) is False
    assert [t.channel_id for t in await db.load_tables()] == [200]
    assert await db.load_table(100) is None


async def test_a_live_tables_journal_grows_in_order_until_its_next_save(db: Database) -> None:
    assert await db.append_to_journal(100, [[0, "paso", 0, []]]) is False, "no saved state"
    assert await db.load_table(100) is None, "and nothing written"
    await db.save_table(100, 1, {"n": 1})
    assert await db.append_to_journal(100, [[0, "paso", 0, []]])
    assert await db.append_to_journal(100, [[1, "envido", 2, []], {"ñ": "órdago"}])
    assert await db.append_to_journal(100, [])
    saved = await db.load_table(100)
    assert saved is not None and saved.state == {"n": 1} and saved.version == 4
    assert saved.journal == [[0, "paso", 0, []], [1, "envido", 2, []], {"ñ": "órdago"}]
    await db.save_table(200, None, {"other": True})
    assert await db.save_table(100, 1, {"n": 2}) == 5
    assert [(t.channel_id, t.state, t.journal) for t in await db.load_tables()] == \
        [(100, {"n": 2}, []), (200, {"other": True}, [])]


JSON_DOCS = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text()
    | st.sampled_from([0.1, 0.25, 1.0, -2.5]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@given(JSON_DOCS)
def test_stored_documents_are_written_as_the_standard_encoder_wrote_them(doc: Any) -> None:
    """A hand stored again (from a table's outbox after a restart) is compared as text with
    the one stored before, maybe by an older musbot: the text must not change with the
    encoder."""
    from musbot.storage.database import _json

    assert _json(doc) == json.dumps(doc, ensure_ascii=False, separators=(",", ":"),
                                    sort_keys=True)


async def test_live_table_states_keep_their_json(db: Database) -> None:
    state = {"big": 2**62 + 1, "f": 0.1, "nested": [{"ñ": None, "t": True}], "e": "", "z": -0}
    await db.save_table(2**62, 2**61, state)
    saved = await db.load_table(2**62)
    assert saved is not None and saved.state == state and saved.guild_id == 2**61
    # JSON has no NaN: a non-finite float is written as null (orjson), never as invalid JSON
    # that a restart could not read. The state's floats are validated where they are set
    # (turn seconds 15–600, seña cazada 0–1).
    await db.save_table(1, 1, {"nan": float("nan")})
    saved = await db.load_table(1)
    assert saved is not None and saved.state == {"nan": None}


async def test_concurrent_writers_are_serialised(db: Database, tmp_path: Path) -> None:
    """Coroutines sharing one Database, and a second connection to the same file, all land."""
    async with Database(db.path, busy_timeout=5) as other:
        await asyncio.gather(*(
            (db if i % 2 else other).save_table(i % 5, 1, {"i": i}) for i in range(60)))
    tables = await db.load_tables()
    assert [t.version for t in tables] == [12] * 5


# --- matches and hands --------------------------------------------------------------------------

async def test_record_match_and_hands(db: Database) -> None:
    match_id = await db.start_match(four(), rules=Rules(), channel_id=100, guild_id=1)
    ordago = [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"], [3, "quiero"]]
    steps = [{"pair": 1, "tantos": 0, "lance": "grande", "kind": "ordago"}]
    await db.record_hand(match_id, 1, *hand([12, 7],
                                            ledger=[{"pair": 0, "tantos": 12, "lance": "grande",
                                                     "kind": "apuesta"}]))
    await db.record_hand(match_id, 2, *hand([12, 7], game_winner=1, actions=ordago, ledger=steps))
    await db.record_hand(match_id, 3, *hand([40, 3], game_winner=0))
    await db.record_hand(match_id, 4, *hand([10, 40], game_winner=1))
    assert await db.record_finished_match(match_id, 1, final_score={"games": [1, 2]}) == []

    hands = await db.match_hands(match_id)
    assert [r["scores"] for _, r in hands] == [[12, 7], [12, 7], [40, 3], [10, 40]]
    games = await select(
        db, "SELECT number, winner_team, score_0, score_1 FROM games ORDER BY number")
    assert games == [(1, 1, 12, 7), (2, 0, 40, 3), (3, 1, 10, 40)]
    hand_games = await select(db, "SELECT game_number FROM hands ORDER BY number")
    assert [g[0] for g in hand_games] == [1, 1, 2, 3]
    [row] = await select(
        db, "SELECT winner_team, games_0, games_1, tantos_0, tantos_1, final_score, rated"
        " FROM matches")
    assert row == (1, 1, 2, 62, 50, '{"games":[1,2]}', 0)
    ledger = await select(db, "SELECT pair, tantos, kind FROM ledger")
    assert ledger == [(0, 12, "apuesta"), (1, 0, "ordago")]
    ordagos = await select(db, "SELECT caller_seat, accepter_seat, lance, winner_team FROM ordagos")
    assert ordagos == [(0, 3, "grande", 1)]
    with pytest.raises(MatchFinished):
        await db.record_hand(match_id, 5, *hand([0, 0]))
    with pytest.raises(MatchFinished):
        await db.record_finished_match(match_id, 0)
    with pytest.raises(UnknownMatch):
        await db.record_hand(999, 1, *hand([0, 0]))


async def test_record_hand_is_idempotent_but_refuses_a_different_hand(db: Database) -> None:
    match_id = await db.start_match(four())
    first = await db.record_hand(match_id, 1, *hand([3, 0]))
    assert await db.record_hand(match_id, 1, *hand([3, 0])) == first
    with pytest.raises(ConflictingHand):
        await db.record_hand(match_id, 1, *hand([0, 3]))
    assert len(await db.match_hands(match_id)) == 1


def count_trips(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the trips to aiosqlite's thread from now on (the list's one element)."""
    conn = db._require()
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
    with pytest.raises(ValueError, match=r"hand 2 is not a REPLAY\.md"):
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
        holder = sqlite3.connect(db.path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            first = asyncio.ensure_future(db.save_table(1, 1, {"n": 1}))
            settings = asyncio.ensure_future(
                db.save_server_settings(5, ServerSettings(language="en")))
            ticks = 0
            for _ in range(10):
                await asyncio.sleep(0.01)
                ticks += 1
            assert not first.done() and not settings.done()
            moved = asyncio.ensure_future(db.append_to_journal(1, ["after n=1"]))
            second = asyncio.ensure_future(db.save_table(1, 1, {"n": 2}))
            moved_again = asyncio.ensure_future(db.append_to_journal(1, ["after n=2"]))
            await asyncio.sleep(0.01)
            assert db._late_writer is not None and not second.done() and not moved.done()
        finally:
            holder.execute("COMMIT")
            holder.close()
        assert ticks == 10
        assert (await first, await moved, await second, await moved_again) == (2, True, 4, True)
        await settings
        saved = await db.load_table(1)
        assert saved is not None and (saved.state, saved.version) == ({"n": 2}, 5)
        assert saved.journal == ["after n=2"], "the journal entries kept their places"
        assert (await db.server_settings(5)).language == "en"
        assert await db.save_table(1, 1, {"n": 3}) == 6  # back on the loop's connection
        assert db._late_writer is None


async def wal_high_water(db: Database, saves: int) -> int:
    """The log's size after ``saves`` saves a millisecond apart (a loop that never waits would
    keep the database thread from the GIL, and its checkpoints with it)."""
    for i in range(saves):
        await db.save_table(i % 7, 1, {"n": i, "pad": "x" * 3000})
        await asyncio.sleep(0.001)
    return Path(f"{db.path}-wal").stat().st_size


async def test_checkpoints_keep_the_log_small_without_the_loop_connection_doing_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints on its own (that is where SQLite copies pages and
    syncs the file); every CHECKPOINT_EVERY of its commits the thread copies the log and the
    loop only its last pages, so the log starts again instead of growing."""
    monkeypatch.setattr(connection, "CHECKPOINT_EVERY", 20)
    async with Database(tmp_path / "a.db") as db:
        [(auto,)] = db._direct.execute("PRAGMA wal_autocheckpoint")  # type: ignore[union-attr]
        assert auto == 0
        bounded = await wal_high_water(db, 400)
    monkeypatch.setattr(connection, "CHECKPOINT_EVERY", 10**9)
    async with Database(tmp_path / "b.db") as db:
        unbounded = await wal_high_water(db, 400)
    assert unbounded > 400 * 4096  # a page or more per save, never copied back
    assert bounded < 0.4 * unbounded, (bounded, unbounded)


async def test_the_log_file_is_cut_back_once_it_starts_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite reuses the log file at its largest size; after a burst (a thousand tables opened
    at once) it is cut back to WAL_SIZE_LIMIT when it starts again."""
    monkeypatch.setattr(connection, "WAL_SIZE_LIMIT", 64 * 1024)
    monkeypatch.setattr(connection, "CHECKPOINT_EVERY", 10**9)
    async with Database(tmp_path / "a.db") as db:
        wal = Path(f"{db.path}-wal")
        for i in range(300):
            await db.save_table(i, 1, {"pad": "x" * 3000})
        assert wal.stat().st_size > 1_000_000
        await db._run_checkpoint()
        await db.save_table(1, 1, {"n": 1})
        assert wal.stat().st_size <= 64 * 1024


def log_restarts(db: Database) -> int:
    """How many times the log has started again from its beginning: the checkpoint sequence
    number in its header, which SQLite bumps at each restart. Read from the file, since asking
    SQLite (``PRAGMA wal_checkpoint``) would itself checkpoint."""
    with open(f"{db.path}-wal", "rb") as wal:
        return int.from_bytes(wal.read(16)[12:16], "big")


async def test_a_checkpoint_lets_the_log_start_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``checkpoint()`` copies the whole log, so the next write starts it from the beginning;
    the thread's own syncs of the files only save the loop time, and a file it cannot sync
    (another platform, a file system that refuses) changes nothing else."""
    monkeypatch.setattr(connection, "CHECKPOINT_EVERY", 10**9)
    synced: list[str] = []
    monkeypatch.setattr(connection, "_sync_file", synced.append)
    async with Database(tmp_path / "a.db") as db:
        await db.save_table(0, 1, {"n": 0})
        restarts = log_restarts(db)
        for i in range(300):
            await db.save_table(i, 1, {"pad": "x" * 3000})
        before = await db.save_table(1, 1, {"n": 0})
        assert log_restarts(db) == restarts, "nothing checkpointed yet: the log only grew"
        await db.checkpoint()
        assert synced == [f"{db.path}-wal", str(db.path)]
        assert await db.save_table(1, 1, {"n": 1}) == before + 1
        assert log_restarts(db) == restarts + 1

        def refuse(name: str) -> None:
            raise OSError(22, "fsync refused", name)

        monkeypatch.setattr(connection, "_sync_file", refuse)
        for i in range(300):
            await db.save_table(i, 1, {"pad": "y" * 3000})
        await db.checkpoint()
        await db.save_table(1, 1, {"n": 2})
        assert log_restarts(db) == restarts + 2
        saved = await db.load_table(1)
        assert saved is not None and saved.state == {"n": 2}


async def test_start_match_with_a_key_is_retryable(db: Database) -> None:
    first = await db.start_match(four(), key="table-100-match-1")
    assert await db.start_match(four(), key="table-100-match-1") == first
    assert await db.start_match(four(), key="table-100-match-2") != first


async def test_start_match_validates_seats(db: Database) -> None:
    with pytest.raises(ValueError, match="2, 4 or 6"):
        await db.start_match(four()[:3])
    with pytest.raises(ValueError, match="one seat"):
        await db.start_match(four((1, 2, 1, 4)))
    with pytest.raises(ValueError, match="different number"):
        await db.start_match(four(), rules=Rules(jugadores=2))
    with pytest.raises(ValueError):
        SeatRecord(0)


async def test_abandoned_match_counts_nowhere(db: Database) -> None:
    match_id = await db.start_match(four())
    await db.abandon_match(match_id)
    with pytest.raises(MatchFinished):
        await db.record_finished_match(match_id, 0)
    assert (await db.player_profile(1)).matches == 0


def test_find_ordagos_refused_and_spelling() -> None:
    actions = [[1, "Ordago"], [2, "no quiero"], [0, "paso"], [1, "envido"]]
    transcript, result = hand([1, 0], actions=actions)
    [refused] = find_ordagos(transcript, result)
    assert (refused.caller_seat, refused.accepter_seat, refused.winner_team) == (1, None, 1)


async def test_engine_hands_are_recorded(db: Database) -> None:
    """Whole matches played by the real engine (random legal actions) go in as they come out."""
    rng = random.Random(4)
    match = Match(Rules(puntos=10, juegos=1), first_mano=0,
                  shuffler=lambda cards: rng.sample(list(cards), len(cards)))
    match_id = await db.start_match(four(), rules=match.rules)
    while not match.finished:
        current, number = match.hand, match.hand_number
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions(seat)
        no_mus = [a for a in legal if a.text() == "no hay mus"]
        match.apply(seat, no_mus[0] if no_mus and rng.random() < 0.5 else rng.choice(legal))
        if current.finished:
            await db.record_hand(match_id, number, current.transcript(), current.result())
    assert match.winner is not None
    await db.record_finished_match(match_id, match.winner, final_score=match.summary())
    hands = await db.match_hands(match_id)
    assert len(hands) == match.hand_number
    assert json.loads(json.dumps(hands[0][0])) == hands[0][0]
    profile = await db.player_profile(1)
    assert profile.matches == 1 and profile.won == (match.winner == 0)


# --- privacy ------------------------------------------------------------------------------------

async def test_forget_player_anonymises_past_results(db: Database) -> None:
    league = await db.create_league(1, "Liga", created_by=2)
    match_id = await db.start_match(four(), league_id=league.league_id)
    await db.record_hand(match_id, 1, *hand([40, 3], game_winner=0))
    await db.record_finished_match(match_id, 0)
    assert await db.forget_player(2) is True
    assert await db.forget_player(12345) is False

    assert await db.player_name(2) is None
    assert 2 not in await db.league_members(league.league_id)
    assert (await db.get_league(1, "Liga")).created_by is None
    assert await db.rating_history(2, league.league_id) == []
    assert (await db.player_profile(2)).matches == 0
    [standing_ids] = [[s.user_id for s in await db.standings(league.league_id)]]
    assert 2 not in standing_ids and {1, 3} <= set(standing_ids)
    [result] = await db.recent_results(league.league_id)
    assert [s.kind for s in result.seats] == ["player", "anonymous", "player", "player"]
    assert result.seats[1].user_id is None and result.seats[1].name is None
    with sqlite3.connect(db.path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM match_seats WHERE player_id = 2").fetchone() \
            == (0,)
        assert conn.execute("SELECT forgotten, display_name FROM players WHERE user_id = 2"
                             ).fetchone() == (1, None)
    conn.close()
    # Other players keep their record; the forgotten player may come back as a new player.
    assert (await db.player_profile(1)).won == 1
    await db.join_league(league.league_id, 2, "back")
    assert await db.player_name(2) == "back"


# --- crash safety -------------------------------------------------------------------------------

WRITER = """
import asyncio, sys
from musbot.storage import Database

async def main():
    async with Database(sys.argv[1], busy_timeout=5) as db:
        n = 0
        while True:
            n += 1
            await db.save_table(1, 2, {"n": n, "pad": "x" * 2000})
            print(n, flush=True)

asyncio.run(main())
"""


def test_sigkill_while_writing_loses_nothing_committed(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE,
                            text=True, env=env, cwd=tmp_path)
    last = 0
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 20
        while last < 200 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            last = int(line)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        # The child may have run ahead of our reading: its last words are still in the pipe.
        for line in proc.stdout.read().split():
            last = int(line)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert last >= 200, "the writer did not get going"
    assert proc.returncode == -signal.SIGKILL

    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()

    async def reopen() -> int:
        async with Database(path) as db:
            [table] = await db.load_tables()
            return int(table.state["n"])


    saved = asyncio.run(reopen())
    # Every printed number was committed; one more may have committed before the kill landed.
    assert saved in (last, last + 1)


async def test_concurrent_saves_are_committed_together_each_with_its_version(
        db: Database) -> None:
    """Group commit: saves that queue up while one is written go in the next statement; every
    caller returns only after its own row is committed, with the version it made."""
    first = await asyncio.gather(*(db.save_table(channel, 1, {"n": channel})
                                   for channel in range(1, 601)))
    assert first == [1] * 600
    again = await asyncio.gather(db.save_table(7, 1, {"n": "a"}), db.save_table(7, 1, {"n": "b"}),
                                 db.save_table(8, None, {"n": "c"}))
    assert again == [2, 3, 2]
    saved = {t.channel_id: t for t in await db.load_tables()}
    assert len(saved) == 600
    assert saved[7].state == {"n": "b"} and saved[7].version == 3
    assert saved[8].guild_id is None and saved[600].state == {"n": 600}


async def test_a_failed_group_save_fails_its_callers_and_the_next_ones_still_work(
        db: Database) -> None:
    await db.close()
    with pytest.raises(DatabaseClosed):
        await asyncio.gather(db.save_table(1, 1, {"x": 1}), db.save_table(2, 1, {"x": 2}))
    await db.connect()
    assert await db.save_table(1, 1, {"x": 1}) == 1


def test_the_fast_clock_text_is_the_stored_timestamp_format() -> None:
    """Issue 6: saves stamp ``iso_now()``, formatted once a second; it must read exactly as
    ``iso(utcnow())`` (same width, so text order stays time order), across a second's edge."""
    seconds = set()
    while len(seconds) < 2:  # until the second changes (at most one second)
        before = iso(utcnow())
        now = connection.iso_now()
        after = iso(utcnow())
        assert len(now) == len(before) and before <= now <= after
        assert datetime.fromisoformat(now).tzinfo == UTC
        seconds.add(now[:19])


async def test_a_full_disk_fails_the_save_and_keeps_what_was_saved(db: Database) -> None:
    """A save the file cannot take is an error for its caller, never a silent loss, and the
    state saved before it stays whole."""
    await db.save_table(1, 1, {"n": 1})
    direct = db._direct
    assert direct is not None
    [(pages,)] = direct.execute("PRAGMA page_count").fetchall()
    # Bigger than the pages the file has free (a migration's dropped table left some).
    [(free,)] = direct.execute("PRAGMA freelist_count").fetchall()
    [(page_size,)] = direct.execute("PRAGMA page_size").fetchall()
    direct.execute(f"PRAGMA max_page_count = {pages}")
    try:
        with pytest.raises(sqlite3.OperationalError, match="full"):
            await db.save_table(2, 1, {"pad": "x" * (free * page_size + 20000)})
    finally:
        direct.execute("PRAGMA max_page_count = 1073741823")
    saved = await db.load_table(1)
    assert saved is not None and saved.state == {"n": 1}
    assert await db.load_table(2) is None
    assert await db.save_table(2, 1, {"n": 2}) == 1
