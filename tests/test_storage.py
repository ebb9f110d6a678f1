"""The storage layer on both backends (a real SQLite file, a real PostgreSQL database): opening,
migrations, live tables, records, privacy, crash safety. What only one backend has is in
test_storage_sqlite.py and test_storage_postgres.py."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from db_helpers import execute, four, hand, select, select_in
from hypothesis import given
from hypothesis import strategies as st
from test_ordagos import CASES as ORDAGO_CASES

from musbot.engine.evaluation import Lance
from musbot.engine.events import Ordago
from musbot.engine.match import Match
from musbot.engine.rules import Rules
from musbot.settings import TableSettings
from musbot.storage import (
    SCHEMA_VERSION,
    ConflictingHand,
    ConstraintViolation,
    Database,
    DatabaseClosed,
    DriverError,
    MatchFinished,
    SeatRecord,
    ServerSettings,
    TablePlace,
    UnknownMatch,
    ratings,
    schema,
)
from musbot.storage.backend import iso, iso_now, utcnow
from musbot.storage.documents import document_json
from musbot.storage.schema import MIGRATIONS, Migration

ROOT = Path(__file__).resolve().parents[1]

TABLES_SQL = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table'",
    "postgresql": "SELECT table_name FROM information_schema.tables"
                  " WHERE table_schema = current_schema()",
}


async def table_names(db: Database) -> set[str]:
    return {row[0] for row in await select(db, TABLES_SQL[db.dialect])}


def add_migration(monkeypatch: pytest.MonkeyPatch, extra: Migration) -> None:
    """This musbot with one more migration, the same on both backends."""
    monkeypatch.setattr(schema, "MIGRATIONS",
                        {d: (*m, extra) for d, m in schema.MIGRATIONS.items()})
    monkeypatch.setattr(schema, "SCHEMA_VERSION", extra.version)


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target, busy_timeout=0.2) as database:
        yield database


# --- opening and migrations ---------------------------------------------------------------------

async def test_a_new_database_is_migrated_and_recorded(target: str) -> None:
    async with Database(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION == len(MIGRATIONS["sqlite"])
        rows = await select(db, "SELECT version, name FROM schema_version ORDER BY version")
        assert rows == [(m.version, m.name) for m in MIGRATIONS[db.dialect]]
        assert await table_names(db) >= {
            "players", "servers", "live_tables", "live_moves", "matches", "match_seats", "games",
            "hands",
            "ledger", "ordagos", "leagues", "league_members", "seasons", "ratings",
            "rating_history"}
        assert "timers" not in await table_names(db), "0004 dropped it"


def test_both_backends_have_the_same_migrations() -> None:
    """A schema version means the same tables everywhere: PostgreSQL's own files replace
    migrations of the same number and name, never add one."""
    sqlite, postgresql = MIGRATIONS["sqlite"], MIGRATIONS["postgresql"]
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]
    assert [m.version for m in sqlite] == list(range(1, SCHEMA_VERSION + 1))
    assert sqlite[3].sql == postgresql[3].sql, "0004 is common to both"


async def test_reopening_is_idempotent(target: str) -> None:
    async with Database(target) as db:
        await db.save_table(10, 1, {"n": 1})
    for _ in range(2):
        async with Database(target) as db:
            assert (await db.load_tables())[0].state == {"n": 1}
    assert await select_in(target, "SELECT COUNT(*) FROM schema_version") == [(SCHEMA_VERSION,)]


async def test_foreign_keys_are_on(db: Database) -> None:
    with pytest.raises(ConstraintViolation):
        await execute(db, "INSERT INTO league_members VALUES (999, 999, 'x')")


async def test_pending_migrations_apply_in_order_and_keep_data(
        target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Database(target) as db:
        await db.save_table(1, 1, {"kept": True})
    add_migration(monkeypatch, Migration(SCHEMA_VERSION + 1, "add_notes",
                                         "CREATE TABLE notes (x INTEGER);\n"
                                         "INSERT INTO notes VALUES (1);"))
    async with Database(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION + 1
        assert (await db.load_tables())[0].state == {"kept": True}
        assert await select(db, "SELECT x FROM notes") == [(1,)]


async def test_a_failing_migration_changes_nothing(
        target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with Database(target):
        pass
    add_migration(monkeypatch, Migration(
        SCHEMA_VERSION + 1, "broken",
        "CREATE TABLE half_done (x INTEGER);\nALTER TABLE no_such_table ADD COLUMN y INTEGER;"))
    with pytest.raises(DriverError, match="no_such_table") as refused:
        await Database.open(target)
    # The driver's own error stays the cause, for the log.
    assert isinstance(refused.value.__cause__, (sqlite3.OperationalError,
                                                asyncpg.UndefinedTableError))
    monkeypatch.undo()
    async with Database(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        assert "half_done" not in await table_names(db)


async def test_a_version_1_database_is_upgraded(target: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(schema, "MIGRATIONS", {d: m[:1] for d, m in MIGRATIONS.items()})
        patch.setattr(schema, "SCHEMA_VERSION", 1)
        async with Database(target) as db:  # a table saved by a musbot of schema 1
            await execute(db, "INSERT INTO live_tables (channel_id, guild_id, state, updated_at)"
                              " VALUES (1, 1, '{\"old\": true}', '2026-01-01T00:00:00+00:00')")
    async with Database(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        saved = await db.load_table(1)
        assert saved is not None and saved.state == {"old": True} and saved.journal == []
        assert await db.append_to_journal(1, [[0, "paso", 0, []]])
        assert "timers" not in await table_names(db)


async def test_several_opening_at_once_migrate_once(target: str) -> None:
    """Connections opening a new database together: one migrates, the others wait for it and
    find the work done (SQLite: the write lock; PostgreSQL: an advisory lock)."""
    opened = [Database(target, busy_timeout=10) for _ in range(4)]
    try:
        failures = await asyncio.gather(*(db.connect() for db in opened),
                                        return_exceptions=True)
        assert failures == [None] * 4
        for db in opened:
            assert await db.schema_version() == SCHEMA_VERSION
        rows = await select(opened[0], "SELECT version FROM schema_version ORDER BY version")
        assert rows == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    finally:
        for db in opened:
            await db.close()


OPENER = """
import asyncio, sys
from musbot.storage import Database

async def main():
    async with Database(sys.argv[1], busy_timeout=20) as db:
        print(await db.schema_version(), flush=True)

asyncio.run(main())
"""


def test_several_processes_opening_at_once_migrate_once(target: str, tmp_path: Path) -> None:
    script = tmp_path / "opener.py"
    script.write_text(OPENER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, str(script), target], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    outputs = [proc.communicate(timeout=60) for proc in procs]
    assert [(proc.returncode, out.strip()) for proc, (out, _) in zip(procs, outputs,
                                                                     strict=True)] \
        == [(0, str(SCHEMA_VERSION))] * 3, outputs
    rows = asyncio.run(select_in(target, "SELECT version FROM schema_version ORDER BY version"))
    assert rows == [(v,) for v in range(1, SCHEMA_VERSION + 1)]


async def test_closed_database_says_so(target: str) -> None:
    db = Database(target)
    with pytest.raises(DatabaseClosed):
        await db.load_tables()
    with pytest.raises(DatabaseClosed):
        await db.save_table(1, 1, {})


def test_a_database_is_named_by_a_path_or_a_url(tmp_path: Path) -> None:
    assert Database(tmp_path / "a.db").dialect == "sqlite"
    assert Database(f"sqlite:///{tmp_path}/a.db").where == f"{tmp_path}/a.db"
    assert Database("sqlite:///data/musbot.db").where == "data/musbot.db"
    pg = Database("postgresql://bot:s3cret@db.example:5432/musbot")
    assert pg.dialect == "postgresql" and "s3cret" not in pg.where
    assert Database("postgres:///musbot?host=/run/postgresql").dialect == "postgresql"
    for wrong in ("mysql://x/y", "postgresql:/musbot", "sqlite://musbot.db"):
        with pytest.raises(ValueError, match="unknown database URL"):
            Database(wrong)


# --- servers and live tables --------------------------------------------------------------------

async def test_server_settings_round_trip(db: Database) -> None:
    assert await db.server_settings(5) == ServerSettings()
    settings = ServerSettings(TableSettings(rules=Rules(reyes=4, puntos=30, real=True),
                                            turn_seconds=45, language="en"),
                              allowed_channels=frozenset({7, 8}))
    await db.save_server_settings(5, settings)
    assert await db.server_settings(5) == settings


def test_server_settings_keep_unknown_keys() -> None:
    data = {"rules": {"reyes": 4, "future_variant": 1}, "language": "en", "from_v9": [1]}
    settings = ServerSettings.from_dict(data)
    assert settings.table.rules.reyes == 4
    assert settings.table.turn_seconds == ServerSettings().table.turn_seconds
    # An older musbot's «no timer» (turn_timer 0) is read as the one meaning of none.
    assert ServerSettings.from_dict({"turn_timer": 0}).table.turn_seconds is None
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


async def test_a_journal_written_before_its_own_rows_plays_on_after_the_migration(
        target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migration 0008 moves each live table's journal from a column of its row (0003) into rows
    of its own: a table saved by an older musbot, with moves in its journal, is restored with
    the same moves in the same order, the same version and the same time of its last write,
    and its next whole save empties it."""
    with monkeypatch.context() as older:
        older.setattr(schema, "MIGRATIONS", {d: m[:7] for d, m in schema.MIGRATIONS.items()})
        older.setattr(schema, "SCHEMA_VERSION", 7)
        async with Database(target) as db:
            assert await db.schema_version() == 7
            journal = [[0, "mus", 0, []], [1, "envido", 5, []], {"ñ": "órdago"}, "x", 2.5]
            await execute(db, "INSERT INTO live_tables (channel_id, guild_id, state, version,"
                          " updated_at, journal) VALUES (?, ?, ?, ?, ?, ?)",
                          [7, 3, '{"n": 1}', 6, "2026-11-27T04:00:00+00:00",
                           json.dumps(journal, ensure_ascii=False)])
            await execute(db, "INSERT INTO live_tables (channel_id, guild_id, state, version,"
                          " updated_at) VALUES (?, ?, ?, ?, ?)",
                          [8, 3, '{"n": 2}', 1, "2026-11-27T04:00:00+00:00"])
    async with Database(target) as db:
        assert await db.schema_version() == SCHEMA_VERSION
        tables = {t.channel_id: t for t in await db.load_tables()}
        assert (tables[7].state, tables[7].journal, tables[7].version) == \
            ({"n": 1}, journal, 6)
        assert tables[7].updated_at == datetime(2026, 11, 27, 4, tzinfo=UTC)
        assert (tables[8].journal, tables[8].version) == ([], 1)
        assert await db.append_to_journal(7, [[2, "quiero", 0, []]])
        saved = await db.load_table(7)
        assert saved is not None and saved.journal == [*journal, [2, "quiero", 0, []]]
        assert saved.version == 7 and saved.updated_at > tables[7].updated_at
        assert await db.save_table(7, 3, {"n": 3}) == 8
        assert await select(db, "SELECT COUNT(*) FROM live_moves") == [(0,)]
        assert await db.delete_table(7) and await db.append_to_journal(8, [[0, "paso", 0, []]])
        assert await db.delete_table(8)
        assert await select(db, "SELECT COUNT(*) FROM live_moves") == [(0,)], "gone with it"


async def test_load_tables_restores_only_the_shards_asked_for(db: Database) -> None:
    """A process running some of the bot's shards restores the tables of their guilds (Discord's
    shard of a guild: ``(guild_id >> 22) % shard_count``); a table outside any guild is shard
    0's, where direct messages arrive."""
    guilds = {100: 5 << 22, 101: 6 << 22, 102: 7 << 22, 103: (2**62 // 4 << 2) + 3, 104: None}
    for channel, guild in guilds.items():
        await db.save_table(channel, guild, {"c": channel})
    shard_of = {c: None if g is None else (g >> 22) % 3 for c, g in guilds.items()}
    for ids in ([0], [1], [2], [0, 2], [1, 2]):
        tables = await db.load_tables(shards=(3, ids))
        expected = [c for c, s in shard_of.items() if s in ids or (s is None and 0 in ids)]
        assert [t.channel_id for t in tables] == expected, ids
    assert len(await db.load_tables(shards=(1, [0]))) == len(guilds)
    assert len(await db.load_tables()) == len(guilds)
    for bad in ((3, [3]), (0, [0]), (2, [])):
        with pytest.raises(ValueError, match="shard ids"):
            await db.load_tables(shards=bad)


async def test_the_tables_a_user_sits_at_and_where_a_table_is_played(db: Database) -> None:
    """What shard 0 asks before relaying a DM: which saved tables seat this person, and in
    which guild (so on which shard) a table is played."""
    big = 2**63 - 7  # a snowflake past 2**53, where a float would round it
    seat = {"name": "x", "away": False, "expiries": 0, "dm_warned": False, "level": None}
    await db.save_table(300, 7 << 22, {"seats": [dict(seat, user_id=big), None,
                                                 dict(seat, user_id=None), None]})
    await db.save_table(100, None, {"seats": [dict(seat, user_id=5), dict(seat, user_id=big)]})
    await db.save_table(200, 8 << 22, {"seats": [dict(seat, user_id=6)]})
    await db.save_table(400, 9 << 22, {"no seats": True})
    assert await db.seated_tables(big) == [TablePlace(100, None), TablePlace(300, 7 << 22)]
    assert await db.seated_tables(big - 1) == []
    assert await db.seated_tables(6) == [TablePlace(200, 8 << 22)]
    assert [p.shard(2) for p in await db.seated_tables(big)] == [0, 1]
    assert await db.table_place(200) == TablePlace(200, 8 << 22)
    assert await db.table_place(999) is None
    await db.delete_table(300)
    assert await db.seated_tables(big) == [TablePlace(100, None)]


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
    assert document_json(doc) == json.dumps(doc, ensure_ascii=False, separators=(",", ":"),
                                            sort_keys=True)


async def test_stored_documents_keep_their_text(db: Database) -> None:
    """Both backends give a document back exactly as it was written (PostgreSQL's ``json``,
    unlike ``jsonb``, keeps the text), which is what a hand stored again is compared with."""
    transcript = {"z": 1, "a": ["órdago", "ñ", "\u2028", 1.5e300, -0.0], "m": {"b": None}}
    result = {"ledger": [], "scores": [3, 0], "game_winner": None, "é": "\t"}
    match_id = await db.start_match(four(), rules={"puntos": 40})
    await db.record_hand(match_id, 1, transcript, result)
    [(t, r)] = await select(db, "SELECT transcript, result FROM hands")
    assert (t, r) == (document_json(transcript), document_json(result))
    assert await select(db, "SELECT rules FROM matches") == [('{"puntos":40}',)]
    assert await db.record_hand(match_id, 1, transcript, result)  # the same hand: a no-op


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


async def test_concurrent_writers_are_serialised(db: Database, target: str) -> None:
    """Coroutines sharing one Database, and a second connection to the same database, all
    land."""
    async with Database(target, busy_timeout=5) as other:
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


ORDAGO_ROWS = ("SELECT caller_seat, accepter_seat, lance, winner_team FROM ordagos"
               " ORDER BY ordago_id")


async def test_ordagos_are_stored_as_the_engine_gave_them(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's hand record carries the engine's órdagos: stored as they are, the transcript
    is not played again for them."""
    def no_replay(_: object) -> None:
        raise AssertionError("the órdagos were given")

    monkeypatch.setattr("musbot.storage.matches.replay_hand", no_replay)
    match_id = await db.start_match(four())
    given = [Ordago(0, Lance.GRANDE, None, 0), Ordago(2, Lance.PUNTO, 1, 1)]
    await db.record_hand(match_id, 1, *hand([1, 0]), [o.to_dict() for o in given])
    await db.record_hand(match_id, 2, *hand([1, 0], actions=[[0, "no hay mus"], [0, "órdago"],
                                                             [1, "quiero"]]), [])
    assert await select(db, ORDAGO_ROWS) == [(0, None, "grande", 0), (2, 1, "punto", 1)]
    with pytest.raises(ValueError, match="hand 3's órdagos"):
        await db.record_hand(match_id, 3, *hand([1, 0]), [{"caller": 0}])


@pytest.mark.parametrize(("deal", "actions", "expected"), [case[1:] for case in ORDAGO_CASES],
                         ids=[case[0] for case in ORDAGO_CASES])
async def test_a_hand_record_without_ordagos_gets_them_from_the_engine(
        db: Database, deal: list[list[str]], actions: list[list[Any]],
        expected: list[Ordago]) -> None:
    """A hand record saved by an earlier musbot has no órdagos: the engine plays its
    transcript and says them."""
    match_id = await db.start_match(four())
    await db.record_hand(match_id, 1, *hand([0, 0], actions=actions, deal=deal))
    assert await select(db, ORDAGO_ROWS) == [
        (o.caller, o.accepter, o.lance.nombre, o.winner) for o in expected]


async def test_a_transcript_that_does_not_replay_keeps_its_hand(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    """Never the case for a table's hand; if it were, the hand and the game it ended are kept
    and only its órdagos are missing (and said so)."""
    match_id = await db.start_match(four())
    transcript, result = hand([40, 3], game_winner=0, actions=[[1, "órdago"]])
    with caplog.at_level(logging.WARNING, logger="musbot.storage.matches"):
        await db.record_hand(match_id, 1, transcript, result)
    assert "stored without its órdagos" in caplog.text
    assert await select(db, "SELECT number, winner_team FROM games") == [(1, 0)]
    assert await select(db, ORDAGO_ROWS) == []


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


async def test_ids_and_ratings_keep_every_bit(db: Database) -> None:
    """Discord ids use all 64 bits and ratings are doubles: what goes in comes out unchanged
    (PostgreSQL's BIGINT and double precision, as SQLite's INTEGER and REAL)."""
    big = (2**62, 2**62 + 1, 2**62 + 2, 2**62 + 3)
    league = await db.create_league(2**63 - 1, "Liga", created_by=big[0])
    match_id = await db.start_match(four(big), league_id=league.league_id,
                                    channel_id=2**63 - 2, guild_id=2**63 - 1)
    await db.record_hand(match_id, 1, *hand([40, 0], game_winner=0))
    await db.record_finished_match(match_id, 0)
    expected = ratings.rate([[ratings.initial()] * 2] * 2, 0)
    stored = dict(await select(db, "SELECT user_id, mu FROM ratings"))
    assert set(stored) == set(big)
    assert [stored[big[0]], stored[big[1]]] == [expected[0][0][0], expected[1][0][0]]
    [(sigma,)] = await select(db, "SELECT sigma FROM ratings WHERE user_id = ?", [big[0]])
    assert sigma == expected[0][0][1]
    assert (await db.get_league(2**63 - 1, "liga")).created_by == big[0]


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
    assert await select(db, "SELECT COUNT(*) FROM match_seats WHERE player_id = 2") == [(0,)]
    assert await select(db, "SELECT forgotten, display_name FROM players WHERE user_id = 2") \
        == [(1, None)]
    # Other players keep their record; the forgotten player may come back as a new player.
    assert (await db.player_profile(1)).won == 1
    await db.join_league(league.league_id, 2, "back")
    assert await db.player_name(2) == "back"


async def test_a_person_s_language_is_saved_changed_and_forgotten(db: Database) -> None:
    """``/mus idioma``: one row per person who chose (issue 25), a Discord id of 64 bits
    included; a language musbot does not speak is refused before the database is asked; the
    choice goes with ``/mus olvidarme``, which knows the person by it alone."""
    big = 2**63 - 1
    assert await db.person_language(7) is None
    await db.set_person_language(7, "eu")
    await db.set_person_language(big, "fr")
    assert await db.person_language(7) == "eu"
    await db.set_person_language(7, "fr")
    assert await db.person_languages([7, big, 8]) == {7: "fr", big: "fr"}
    assert await db.person_languages([]) == {}
    with pytest.raises(ValueError, match="unknown language"):
        await db.set_person_language(7, "de")
    with pytest.raises(ValueError):
        await db.set_person_language(7, "")
    assert await db.person_language(7) == "fr"
    await db.set_person_language(big, None)  # back to the client's
    assert await db.person_language(big) is None
    assert await db.forget_player(7) is True  # never played: known by their language
    assert await db.person_language(7) is None
    assert await select(db, "SELECT COUNT(*) FROM person_languages") == [(0,)]
    assert await db.forget_player(7) is False


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


def test_sigkill_while_writing_loses_nothing_committed(target: str, tmp_path: Path) -> None:
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script), target], stdout=subprocess.PIPE,
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

    async def reopen() -> int:
        async with Database(target) as db:
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
        now = iso_now()
        after = iso(utcnow())
        assert len(now) == len(before) and before <= now <= after
        assert datetime.fromisoformat(now).tzinfo == UTC
        seconds.add(now[:19])
