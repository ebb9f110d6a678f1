"""``musbot db check``, ``db migrate``, ``db backup`` (issue 27) and ``db hand`` (issue 46), on a
real SQLite file and a
real PostgreSQL database: an old schema is reported and then migrated, a newer one refused
untouched, a live database backed up under a stream of writes into a checked copy that holds
every hand finished before the backup began."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from db_helpers import create_pg_database, drop_pg_database, four, hand, select

from musbot.cli import main
from musbot.engine.cards import CARD_CODES
from musbot.replay import replay
from musbot.storage import SCHEMA_VERSION, Database
from musbot.storage.maintenance import backup, inspect
from musbot.storage.schema import MIGRATIONS, split_statements

PG_ENV = "MUSBOT_TEST_POSTGRES"


async def old_schema(target: str, version: int) -> None:
    """The database as a musbot of schema ``version`` left it: its migrations only."""
    if target.startswith("postgresql"):
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                               " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            for m in MIGRATIONS["postgresql"][:version]:
                await conn.execute(m.sql)
                await conn.execute("INSERT INTO schema_version VALUES ($1, $2, 'then')",
                                   m.version, m.name)
        finally:
            await conn.close()
        return
    raw = sqlite3.connect(target, isolation_level=None)
    raw.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL)")
    for m in MIGRATIONS["sqlite"][:version]:
        for statement in split_statements(m.sql):
            raw.execute(statement)
        raw.execute("INSERT INTO schema_version VALUES (?, ?, 'then')", (m.version, m.name))
    raw.close()


async def stored_version(target: str) -> int:
    return (await inspect(target)).version


async def newer_schema(target: str) -> None:
    """A database a newer musbot migrated: one version past what this code knows."""
    async with Database(target) as db:
        await db._write(lambda tx: tx.execute(
            "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
            SCHEMA_VERSION + 1, "from_the_future", "later"))


def cli(*words: str) -> int:
    return main([*words, "--idioma", "en"])


def fingerprint(target: str) -> bytes | None:
    """The SQLite file's bytes (None for PostgreSQL, checked through its schema instead)."""
    return None if target.startswith("postgresql") else Path(target).read_bytes()


async def test_check_reports_an_old_schema_and_changes_nothing_then_migrate_brings_it_up(
        target: str, capsys: pytest.CaptureFixture[str]) -> None:
    await old_schema(target, 2)
    later = MIGRATIONS["postgresql" if target.startswith("postgresql") else "sqlite"][2:]
    names = ", ".join(f"{m.version:04d}_{m.name}" for m in later)  # every one since 0002
    assert names.startswith("0003_live_journal, 0004_drop_timers")
    before = fingerprint(target)
    assert await asyncio.to_thread(cli, "db", "check", "--db", target) == 0
    out = capsys.readouterr().out
    assert f"schema:     version 2 (this musbot knows up to {SCHEMA_VERSION})" in out
    assert f"migrations: {len(later)} pending ({names})" in out
    assert "players 0" in out
    assert fingerprint(target) == before  # looked at, not touched
    found = await inspect(target)
    assert (found.version, [m.version for m in found.pending]) == \
        (2, list(range(3, SCHEMA_VERSION + 1)))

    assert await asyncio.to_thread(cli, "db", "migrate", "--db", target) == 0
    assert f"migrated from schema version 2 to {SCHEMA_VERSION} ({names})" in \
        capsys.readouterr().out
    assert await stored_version(target) == SCHEMA_VERSION
    assert await asyncio.to_thread(cli, "db", "check", "--db", target) == 0
    assert "migrations: none pending" in capsys.readouterr().out
    assert await asyncio.to_thread(cli, "db", "migrate", "--db", target) == 0
    assert "nothing to migrate" in capsys.readouterr().out


async def test_a_schema_newer_than_the_code_is_refused_in_one_sentence_untouched(
        target: str, capsys: pytest.CaptureFixture[str]) -> None:
    await newer_schema(target)
    before = fingerprint(target)
    for command in ("check", "migrate"):
        assert await asyncio.to_thread(cli, "db", command, "--db", target) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].endswith(
            f"its schema (version {SCHEMA_VERSION + 1}) is newer than this musbot knows (up to "
            f"{SCHEMA_VERSION}): upgrade musbot, or restore the backup taken before the "
            "update. Nothing was changed."), err
        assert len(err) == 1
    assert fingerprint(target) == before
    assert await stored_version(target) == SCHEMA_VERSION + 1


def test_a_missing_file_is_refused_and_not_created(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.db"
    for words in (("check",), ("migrate",), ("backup", str(tmp_path / "copy.db"))):
        assert cli("db", *words, "--db", str(missing)) == 2
        assert capsys.readouterr().err == \
            f"musbot db: {missing} does not exist (nothing was created).\n"
    assert sorted(tmp_path.iterdir()) == []


def test_a_damaged_file_is_said_so_and_left_as_it_was(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database, " * 512)
    for command in ("check", "migrate"):
        assert cli("db", command, "--db", str(junk)) == 1
        assert "the database is damaged (file is not a database)" in capsys.readouterr().err
    assert junk.read_bytes() == b"not a database, " * 512


async def play_some(db: Database, hands: int) -> int:
    match_id = await db.start_match(four())
    for number in range(1, hands + 1):
        transcript, result = hand([number, 0])
        await db.record_hand(match_id, number, transcript, result)
    return match_id


async def test_a_backup_of_a_live_sqlite_database_under_writes_holds_every_hand_before_it(
        tmp_path: Path) -> None:
    """A writer task records hand after hand on the database while the backup runs (on its own
    thread, as a separate ``musbot db backup`` process would read): the copy passes
    ``integrity_check`` and holds every hand committed before the backup began."""
    live = tmp_path / "live.db"
    async with Database(live) as db:
        await play_some(db, 50)  # something in the file already, and in its log
        stop = asyncio.Event()
        written: list[int] = []

        async def writer() -> None:
            while not stop.is_set():
                match_id = await db.start_match(four())
                transcript, result = hand([1, 0])
                await db.record_hand(match_id, 1, transcript, result)
                written.append(match_id)
                await asyncio.sleep(0)

        task = asyncio.create_task(writer())
        while len(written) < 20:
            await asyncio.sleep(0.001)
        before = len(await select(db, "SELECT hand_id FROM hands"))
        ids_before = {row[0] for row in await select(db, "SELECT hand_id FROM hands")}
        made = await backup(str(live), tmp_path)
        during = len(written)
        stop.set()
        await task
    assert during > 20, "the writer must have gone on while the backup ran"
    raw = sqlite3.connect(made.path)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, self-made
    copied = {row[0] for row in raw.execute("SELECT hand_id FROM hands")}
    version = raw.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    raw.close()
    assert ids_before <= copied and len(copied) >= before
    assert made.rows["hands"] == len(copied) and version == SCHEMA_VERSION
    assert made.path.parent == tmp_path and made.path.name.startswith("musbot-")
    assert not list(tmp_path.glob("*.part"))
    async with Database(made.path) as copy:  # and the bot opens it as it is
        assert len(await select(copy, "SELECT hand_id FROM hands")) == len(copied)


async def test_backup_from_the_command_line_prints_what_it_wrote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    live = tmp_path / "live.db"
    async with Database(live) as db:
        await play_some(db, 3)
        dest = tmp_path / "copy.db"
        assert await asyncio.to_thread(cli, "db", "backup", str(dest), "--db", str(live)) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{dest}: {dest.stat().st_size} bytes, a copy of {live} (schema "
                               f"version {SCHEMA_VERSION}, integrity ok, ")
    assert "3 hands" in lines[0] and "hands 3" in lines[1]
    # An existing destination is never overwritten; a missing directory is not made.
    size = dest.stat().st_size
    assert await asyncio.to_thread(cli, "db", "backup", str(dest), "--db", str(live)) == 2
    assert "exists already" in capsys.readouterr().err and dest.stat().st_size == size
    assert await asyncio.to_thread(cli, "db", "backup", str(tmp_path / "no" / "x.db"), "--db",
                                   str(live)) == 2
    assert "does not exist (nothing was written)" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


async def made_at(path: Path) -> None:
    async with Database(path):
        pass


def test_backup_finds_the_database_as_musbot_run_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No --db: MUSBOT_DB of the .env, relative to the .env's directory, from anywhere."""
    home = tmp_path / "bot"
    (home / "data").mkdir(parents=True)
    (home / ".env").write_text("MUSBOT_DB=data/musbot.db\n")
    asyncio.run(made_at(home / "data" / "musbot.db"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("MUSBOT_DB", raising=False)
    monkeypatch.delenv("MUSBOT_DATA_DIR", raising=False)
    assert cli("db", "check", "--env-file", str(home / ".env")) == 0
    assert f"database:   {home / 'data' / 'musbot.db'}" in capsys.readouterr().out
    assert list(elsewhere.iterdir()) == []


@pytest.fixture
async def pg_url() -> object:
    server = os.environ.get(PG_ENV)
    if not server:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set under CI")
        pytest.skip(f"needs {PG_ENV}")
    made: list[str] = []

    async def make() -> str:
        made.append(await create_pg_database(server))
        return made[-1]

    yield make
    for url in made:
        await drop_pg_database(server, url)


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
async def test_a_postgresql_backup_is_a_pg_dump_that_restores_to_the_same_rows(
        pg_url: Callable[[], object], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = await pg_url()  # type: ignore[misc]
    async with Database(url) as db:
        await play_some(db, 4)
        dest = tmp_path / "musbot.dump"
        assert await asyncio.to_thread(cli, "db", "backup", str(dest), "--db", url) == 0
        rows = {table: n for table, n in (await inspect(url)).rows.items()}
    out = capsys.readouterr().out
    assert f"{dest}: " in out and "pg_dump of " in out and "4 hands" in out
    restored = await pg_url()  # type: ignore[misc]
    done = subprocess.run(["pg_restore", "--no-owner", f"--dbname={restored}", str(dest)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (await inspect(restored)).rows == rows
    assert (await inspect(restored)).version == SCHEMA_VERSION


async def test_without_pg_dump_backup_says_how_without_the_password(
        pg_url: Callable[[], object], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = await pg_url()  # type: ignore[misc]
    async with Database(url):
        pass
    with_password = url.replace("postgresql://", "postgresql://postgres:s3cret@localhost", 1) \
        if url.startswith("postgresql:///") else url
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump here
    dest = tmp_path / "x.dump"
    assert await asyncio.to_thread(cli, "db", "backup", str(dest), "--db", with_password) == 1
    err = capsys.readouterr().err
    assert "pg_dump is not installed here" in err and "pg_dump --format=custom" in err
    assert "s3cret" not in err and not dest.exists()


# --- musbot db hand: a stored hand, written for musbot replay (issue 46) ------------------------

async def _exported(capsys: pytest.CaptureFixture[str], hand_id: int, target: str,
                    *more: str) -> Any:
    assert await asyncio.to_thread(main, ["db", "hand", str(hand_id), "--db", target, *more]) == 0
    return json.loads(capsys.readouterr().out)


async def test_a_stored_hand_is_written_as_a_transcript_replay_scores_to_its_result(
        target: str, capsys: pytest.CaptureFixture[str]) -> None:
    """«Anybody can check any score» held only for hand-written files: `musbot db hand ID`
    writes one the bot stored, `--result` what it stored as its outcome, reading the database
    without changing it (a missing hand: exit 2 and a sentence)."""
    from musbot.engine import Hand, Rules
    from musbot.engine.cards import parse_card
    from musbot.engine.randomplay import random_action

    rng = random.Random(5)
    deck = [parse_card(c) for c in CARD_CODES]
    rng.shuffle(deck)
    played = Hand(Rules(), [deck[i:i + 4] for i in range(0, 16, 4)], deck[16:])
    while played.to_act is not None:
        played.apply(played.to_act, random_action(played.legal_actions(played.to_act), rng))
    async with Database(target) as db:
        match = await db.start_match(four())
        hand_id = await db.record_hand(match, 1, played.transcript(), played.result())
    before = await inspect(target)
    transcript = await _exported(capsys, hand_id, target)
    assert transcript == played.transcript()
    assert replay(transcript) == await _exported(capsys, hand_id, target, "--result") == \
        played.result()
    missing = ["--idioma", "eu", "db", "hand", str(hand_id + 1), "--db", target]
    assert await asyncio.to_thread(main, missing) == 2
    assert f"ez dago {hand_id + 1} eskurik" in capsys.readouterr().err
    assert await inspect(target) == before


async def test_100_hands_of_a_bench_load_run_replay_to_their_stored_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 46: a short `bench load` run (four tables of random moves through the real table
    layer and storage), then 100 of its stored hands, spread over the run, each written by
    `musbot db hand` and scored again by the replay to the result the bot stored."""
    from musbot.bench.databases import Scratch
    from musbot.bench.load import run_load

    scratch = Scratch(str(tmp_path / "load.db"), "sqlite")
    await scratch.create()
    figures = await run_load(4, 0.01, 60.0, 1.0, 1, scratch, tune=False)
    ids = [row[0] for row in sqlite3.connect(scratch.target).execute(
        "SELECT hand_id FROM hands ORDER BY hand_id")]
    assert len(ids) == figures["hands"] >= 100
    checked = ids[:: len(ids) // 100][:100]
    written = tmp_path / "hand.json"
    for hand_id in checked:
        written.write_text(json.dumps(await _exported(capsys, hand_id, scratch.target)))
        assert await asyncio.to_thread(main, ["replay", str(written)]) == 0
        replayed = capsys.readouterr().out
        stored = ["db", "hand", str(hand_id), "--db", scratch.target, "--result"]
        assert await asyncio.to_thread(main, stored) == 0
        assert capsys.readouterr().out == replayed, hand_id  # line for line, as documented
    assert len(checked) == 100
