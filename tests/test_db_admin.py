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
    """An SQLite database whose pages are damaged (a file that is not SQLite at all is refused as
    that, exit 2: tests/test_cli_hostile.py)."""
    damaged = tmp_path / "damaged.db"
    asyncio.run(made_at(damaged))
    data = bytearray(damaged.read_bytes())
    page = 4096
    data[2 * page:len(data) - page] = b"\xff" * (len(data) - 3 * page)  # all but 3 pages
    damaged.write_bytes(bytes(data))
    for command in ("check", "migrate"):
        assert cli("db", command, "--db", str(damaged)) == 1
        err = capsys.readouterr().err
        assert "the database is damaged (" in err and err.count("\n") == 1, err
    assert damaged.read_bytes() == bytes(data)


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


def backup_of(live: Path, dest: Path) -> int:
    return cli("db", "backup", str(dest), "--db", str(live))


def names(folder: Path) -> list[str]:
    """What is in ``folder`` but the live database and SQLite's files beside it."""
    return [p.name for p in folder.iterdir() if not p.name.startswith("live.db")]


def test_a_backup_never_writes_through_a_link_planted_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: with ``ln -s victim.db nightly.db.part``, the backup wrote into victim.db and
    named ``nightly.db`` a link to it. Every name the copy could have used, planted as a link to
    a file of someone else's, is left alone; the copy is a plain file of its own."""
    live = tmp_path / "live.db"
    asyncio.run(made_at(live))
    victim = tmp_path / "victim.db"
    victim.write_bytes(b"someone else's file")
    dest = tmp_path / "nightly.db"
    planted = [tmp_path / f"nightly.db{suffix}" for suffix in (
        ".part", ".part-journal", ".part-wal", ".part-shm", "-journal", "-wal", "-shm")]
    for link in planted:
        link.symlink_to(victim)
    assert backup_of(live, dest) == 0, capsys.readouterr().err
    assert victim.read_bytes() == b"someone else's file"
    assert not dest.is_symlink() and dest.is_file()
    assert all(link.is_symlink() and link.resolve() == victim for link in planted)
    # immutable: the link planted as its journal is not the copy's to read.
    raw = sqlite3.connect(f"{dest.as_uri()}?immutable=1", uri=True)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()
    assert sorted(names(tmp_path)) == sorted(
        ["victim.db", "nightly.db", *(link.name for link in planted)])


def no_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system without hard links (FAT, some network ones): ``link`` is refused."""
    import errno

    from musbot.storage import maintenance

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(maintenance.os, "link", refused)


@pytest.mark.parametrize("links", [True, False], ids=["hard links", "no hard links"])
def test_a_destination_that_appears_during_the_backup_is_not_overwritten(
        links: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A link planted at the destination after it was found free, while the copy is made: the
    copy is not named over it (nor written through it), and nothing of the copy is left."""
    from musbot.storage import maintenance

    if not links:
        no_hard_links(monkeypatch)
    live = tmp_path / "live.db"
    asyncio.run(made_at(live))
    victim = tmp_path / "victim.db"
    victim.write_bytes(b"someone else's file")
    dest = tmp_path / "nightly.db"
    found_free = maintenance.destination

    def then_planted(*args: object, **kwargs: object) -> Path:
        free = found_free(*args, **kwargs)  # type: ignore[arg-type]
        free.symlink_to(victim)
        return free

    monkeypatch.setattr(maintenance, "destination", then_planted)
    assert backup_of(live, dest) == 2
    assert capsys.readouterr().err == \
        f"musbot db backup: {dest} exists already: give a new name, or a directory " \
        "(nothing was written).\n"
    assert victim.read_bytes() == b"someone else's file" and dest.is_symlink()
    assert sorted(names(tmp_path)) == ["nightly.db", "victim.db"]


def test_without_hard_links_the_copy_is_written_into_a_new_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    no_hard_links(monkeypatch)
    live = tmp_path / "live.db"
    asyncio.run(made_at(live))
    dest = tmp_path / "nightly.db"
    assert backup_of(live, dest) == 0, capsys.readouterr().err
    assert not dest.is_symlink() and names(tmp_path) == ["nightly.db"]
    raw = sqlite3.connect(f"{dest.as_uri()}?mode=ro", uri=True)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()


def test_a_backup_of_what_is_not_a_musbot_database_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: ``--db`` naming a file that is not a database was a traceback
    (``sqlite3.DatabaseError: file is not a database``); an SQLite database of another program
    was refused naming the copy's temporary file. Both are refused in one sentence naming the
    source, exit 2, and nothing is written."""
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    foreign = tmp_path / "other.db"
    raw = sqlite3.connect(foreign)
    raw.execute("CREATE TABLE things (x)")
    raw.close()
    out = tmp_path / "out"
    out.mkdir()
    assert backup_of(junk, out / "copy.db") == 2
    assert capsys.readouterr().err == (
        f"musbot db: {junk} is not an SQLite database (its first bytes are not SQLite's): "
        "check the path (nothing was changed).\n")
    assert backup_of(foreign, out / "copy.db") == 2
    assert capsys.readouterr().err == (
        f"musbot db: {foreign}: this database was not created by musbot (it has tables but no "
        "musbot schema record); refusing to use it.\n")
    assert list(out.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc here")
def test_a_backup_into_a_folder_that_takes_no_files_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: a destination under /proc was a traceback (``unable to open database
    file``)."""
    live = tmp_path / "live.db"
    asyncio.run(made_at(live))
    for dest in (Path("/proc/musbot.db"), Path("/proc")):
        assert backup_of(live, dest) == 2
        err = capsys.readouterr().err
        assert err.startswith("musbot db backup: cannot write in /proc (") and \
            err.endswith("); nothing was written.\n") and err.count("\n") == 1, err


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

    for attempt in range(1, 4):  # a busy machine plays fewer hands in the closed second
        scratch = Scratch(str(tmp_path / f"load{attempt}.db"), "sqlite")
        await scratch.create()
        figures = await run_load(4, 0.01, 60.0, attempt * 1.0, 1, scratch, tune=False)
        if figures["hands"] >= 100:
            break
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
