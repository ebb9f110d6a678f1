"""Issue 42: every ``musbot`` command fed what a hostile tester typed — a directory, ``/dev/null``,
a file that is not a database, a path that is not there, a file nobody may read, a destination
in a folder that does not exist or under ``/proc``, numbers out of range — answers with one
sentence on standard error and exit status 2: never a traceback, never a file made or changed.

Each command line runs in this process (``musbot.cli.main``), which is what the real command
runs, so a refusal costs milliseconds: none of them may start the work it refuses.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from musbot.cli import main
from musbot.storage import Database

UNREADABLE_PROC = Path("/proc/sys/vm/compact_memory")
"""A regular file nobody may read, root included (/proc/sys checks its own modes)."""


def _refused_by_proc() -> bool:
    try:
        UNREADABLE_PROC.read_bytes()
    except PermissionError:
        return True
    except OSError:
        return False
    return False


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    for name in ("MUSBOT_DB", "MUSBOT_DATA_DIR", "DISCORD_CLIENT_ID", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """The exit status of ``musbot ARGV`` and what it said on standard error, argparse's usage
    lines left out (they come before its one line of error)."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = err.splitlines()
    if lines and lines[0].startswith("usage:"):
        lines = [line for line in lines[1:] if not line.startswith(" ")]
    return status, lines


class Places:
    """The paths of a hostile command line, made in a folder of the test's own."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / "folder"
        self.folder.mkdir()
        self.junk = root / "notes.txt"
        self.junk.write_text("not a database\n" * 100)
        self.missing = root / "missing.db"
        self.nowhere = root / "no-such-folder" / "x.db"
        self.live = root / "live.db"
        asyncio.run(_made(self.live))
        self.foreign = root / "other.db"
        raw = sqlite3.connect(self.foreign)
        raw.execute("CREATE TABLE things (x)")
        raw.close()
        self.unreadable = self._unreadable()

    def _unreadable(self) -> Path | None:
        if _refused_by_proc():
            return UNREADABLE_PROC
        import os

        if os.geteuid() == 0:
            return None  # root reads any file of its own: no unreadable file to give
        path = self.root / "secret.db"
        path.write_bytes(self.live.read_bytes())
        path.chmod(0)
        return path

    def fill(self, words: list[str]) -> list[str]:
        names = {"{folder}": self.folder, "{junk}": self.junk, "{missing}": self.missing,
                 "{nowhere}": self.nowhere, "{live}": self.live, "{foreign}": self.foreign,
                 "{unreadable}": self.unreadable, "{root}": self.root}
        filled = []
        for word in words:
            for name, path in names.items():
                if name in word:
                    if path is None:
                        pytest.skip("no unreadable file here (root, and no /proc/sys)")
                    word = word.replace(name, str(path))
            filled.append(word)
        return filled

    def contents(self) -> dict[str, bytes | None]:
        """Every file under the folder, and its bytes (the live database's own SQLite files
        left out: opening it read-only may make them)."""
        return {str(p.relative_to(self.root)): p.read_bytes() if p.is_file() else None
                for p in sorted(self.root.rglob("*")) if not p.name.startswith("live.db")}


async def _made(path: Path) -> None:
    async with Database(path):
        pass


@pytest.fixture
def places(tmp_path: Path) -> Iterator[Places]:
    made = Places(tmp_path)
    journal = Path("/dev/null-journal")
    had_journal = journal.exists()
    yield made
    assert journal.exists() == had_journal, "SQLite made /dev/null-journal: /dev/null was opened"


BAD_DATABASES = [
    ("{folder}", "{folder} is a directory, not a database: give the path of the database file"),
    ("/dev/null", "/dev/null is not a regular file (it is a device, a pipe or a socket)"),
    ("{junk}", "{junk} is not an SQLite database (its first bytes are not SQLite's)"),
    ("{missing}", "{missing} does not exist (nothing was created)"),
    ("{unreadable}", "{unreadable} cannot be read ("),
    ("{foreign}", "{foreign}: this database was not created by musbot"),
]
"""What ``--db`` (or ``db copy``'s SRC) named, and what the refusal says of it."""

DB_COMMANDS = [["db", "check", "--db"], ["db", "migrate", "--db"],
               ["db", "backup", "{root}/copy.db", "--db"]]


@pytest.mark.parametrize(("given", "says"), BAD_DATABASES, ids=[g for g, _ in BAD_DATABASES])
@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_every_db_command_refuses_what_is_not_a_database_in_one_sentence(
        command: list[str], given: str, says: str, places: Places,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``db check --db DIR`` and ``--db /dev/null`` said «does not exist»; a file that is not a
    database was a traceback for ``db backup``, an unreadable one for every command."""
    before = places.contents()
    status, err = run(places.fill([*command, given]), capsys)
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith("musbot db: ") and places.fill([says])[0] in err[0], err
    assert places.contents() == before


@pytest.mark.parametrize(("given", "says"), BAD_DATABASES, ids=[g for g, _ in BAD_DATABASES])
def test_db_copy_refuses_a_source_that_is_not_a_database_in_one_sentence(
        given: str, says: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    before = places.contents()
    status, err = run(places.fill(["db", "copy", given, "{root}/copy.db"]), capsys)
    if given == "{missing}":
        says = "{missing} does not exist: there is nothing to copy (nothing was created)"
    assert status == 2 and len(err) == 1, err
    assert places.fill([says])[0] in err[0], err
    assert places.contents() == before


BAD_TARGETS = [
    ("{folder}", "{folder} is a directory, not a database"),
    ("/dev/null", "/dev/null is not a regular file"),
    ("{junk}", "{junk} is not an SQLite database"),
    ("{nowhere}", "musbot db copy: the directory {root}/no-such-folder does not exist "
                  "(nothing was created)."),
    ("/proc/musbot.db", "musbot db copy: cannot write in /proc ("),
    ("{unreadable}", "{unreadable} cannot be read ("),
    ("{foreign}", "{foreign}: this database was not created by musbot"),
]


@pytest.mark.parametrize(("given", "says"), BAD_TARGETS, ids=[g for g, _ in BAD_TARGETS])
def test_db_copy_refuses_a_target_it_cannot_make_or_use_in_one_sentence(
        given: str, says: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    """A target in a folder that does not exist was made, folder and all; /dev/null was opened
    (and SQLite made /dev/null-journal beside it, as root)."""
    before = places.contents()
    status, err = run(places.fill(["db", "copy", "{live}", given]), capsys)
    assert status == 2 and len(err) == 1, err
    assert places.fill([says])[0] in err[0], err
    assert places.contents() == before


BAD_BACKUP_DESTINATIONS = [
    ("/dev/null", "musbot db backup: /dev/null exists already"),
    ("{junk}", "musbot db backup: {junk} exists already"),
    ("{nowhere}", "musbot db backup: the directory {root}/no-such-folder does not exist "
                  "(nothing was written)."),
    ("/proc/musbot.db", "musbot db backup: cannot write in /proc ("),
    ("/proc", "musbot db backup: cannot write in /proc ("),
]


@pytest.mark.parametrize(("given", "says"), BAD_BACKUP_DESTINATIONS,
                         ids=[g for g, _ in BAD_BACKUP_DESTINATIONS])
def test_db_backup_refuses_a_destination_it_cannot_write_in_one_sentence(
        given: str, says: str, places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    before = places.contents()
    status, err = run(places.fill(["db", "backup", given, "--db", "{live}"]), capsys)
    assert status == 2 and len(err) == 1, err
    assert places.fill([says])[0] in err[0], err
    assert places.contents() == before


BAD_ENV_FILES = [
    ("{folder}", "«{folder}» is a directory, not an environment file (--env-file)"),
    ("{missing}", "there is no environment file «{missing}» (--env-file)"),
    ("{unreadable}", "the environment file «{unreadable}» cannot be read ("),
    ("{root}/binary.env", "the environment file «{root}/binary.env» is not text (UTF-8)"),
]


@pytest.mark.parametrize(("given", "says"), BAD_ENV_FILES, ids=[g for g, _ in BAD_ENV_FILES])
@pytest.mark.parametrize("command", [["run"], ["invite"],
                                     ["db", "check"]], ids=" ".join)
def test_an_env_file_that_cannot_be_read_is_one_sentence(
        command: list[str], given: str, says: str, places: Places,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--env-file DIR`` said «there is no environment file»; an unreadable one, or one that is
    not text, was a traceback (PermissionError, UnicodeDecodeError)."""
    (places.root / "binary.env").write_bytes(b"\xff\xfe\x00 DISCORD_TOKEN=x")
    status, err = run(places.fill([*command, "--env-file", given]), capsys)
    assert status == 2 and len(err) == 1, err
    assert places.fill([says])[0] in err[0], err


def test_env_file_may_be_dev_null(places: Places, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty environment, said the usual way: no settings from a file."""
    status, err = run(["invite", "123456789012345678", "--env-file", "/dev/null"], capsys)
    assert status == 0 and err == []


# --- sqlite:/// URLs --------------------------------------------------------------------------

def test_sqlite_urls_read_as_sqlalchemy_reads_them(tmp_path: Path) -> None:
    """Three slashes and a relative path, four for an absolute one (``sqlite:////var/x.db``),
    as SQLAlchemy, which most readers know them from, reads them; everywhere a database is
    named: MUSBOT_DB (relative to its base, like a plain relative path), ``--db``, the storage."""
    from musbot.config import resolve_db
    from musbot.storage.database import backend_for
    from musbot.storage.sqlite import SqliteBackend

    data = tmp_path / "data"
    assert resolve_db("sqlite:////srv/musbot/x.db", str(data))[0] == "/srv/musbot/x.db"
    assert resolve_db("sqlite:///x.db", str(data))[0] == str(data / "x.db")
    assert resolve_db("sqlite:///sub/x.db", cwd=tmp_path)[0] == str(tmp_path / "sub" / "x.db")
    assert resolve_db("sub/x.db", cwd=tmp_path)[0] == str(tmp_path / "sub" / "x.db")
    for url, path in (("sqlite:////srv/musbot/x.db", Path("/srv/musbot/x.db")),
                      ("sqlite:///sub/x.db", Path("sub/x.db"))):
        backend = backend_for(url)
        assert isinstance(backend, SqliteBackend) and backend.path == path


def test_db_commands_take_both_forms_and_say_which_was_read(
        places: Places, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42's tester wrote ``sqlite:///tmp/x/live.db`` for an absolute path and read
    «/here/tmp/x/live.db does not exist»: right, but not why. The refusal now says that three
    slashes are relative and gives the four-slash URL."""
    monkeypatch.chdir(places.root)
    live = places.live
    for url in (f"sqlite:///{live}", "sqlite:///live.db"):  # four slashes, then relative
        assert run(["db", "check", "--db", url], capsys)[0] == 0
    capsys.readouterr()
    rest = str(live).lstrip("/")
    status, err = run(["db", "check", "--db", f"sqlite:///{rest}"], capsys)
    assert status == 2 and err == [
        f"musbot db: {places.root / rest} does not exist (nothing was created); sqlite:/// with "
        f"three slashes is a relative path: an absolute one takes four, sqlite:////{rest}"]
    status, err = run(["db", "copy", f"sqlite:///{rest}", "copy.db"], capsys)
    assert status == 2 and err == [
        f"musbot db copy: {rest} does not exist: there is nothing to copy (nothing was "
        f"created); sqlite:/// with three slashes is a relative path: an absolute one takes "
        f"four, sqlite:////{rest}"]
    assert not (places.root / "copy.db").exists()


# --- every option of every command, at the boundary --------------------------------------------

A_ID = "123456789012345678"
BAD_OPTIONS = [
    # bench engine: --runs 0 was StatisticsError, --hands -5 printed negative hands per second
    (["bench", "engine", "--runs", "0"],
     "argument --runs: must be a whole number above 0, not «0»"),
    (["bench", "engine", "--hands", "-5"], "argument --hands: must be a whole number above 0"),
    (["bench", "engine", "--comparisons", "0"], "argument --comparisons: must be a whole number "
                                                "above 0"),
    (["bench", "engine", "--seed", "x"], "argument --seed: 'x' is not a number"),
    # bench ai: 0 games «won» 0/0, 0 workers
    (["bench", "ai", "--games", "0"], "argument --games: must be a whole number above 0"),
    (["bench", "ai", "--workers", "0"], "argument --workers: must be a whole number from 1 to 64"),
    (["bench", "ai", "--progress", "-1"], "argument --progress: must be a whole number of 0 or "
                                          "more, not «-1»"),
    (["bench", "ai", "--a", "genio"], "there are no bots of level «genio»; levels:"),
    # bench load: ZeroDivisionError for --tables 0, --minutes 0, --rate 0; --rate -5 never ended
    (["bench", "load", "--tables", "0"], "argument --tables: must be a whole number above 0"),
    (["bench", "load", "--minutes", "0"], "argument --minutes: must be a number above 0 and at "
                                          "most 1440, not «0»"),
    (["bench", "load", "--minutes", "nan"], "argument --minutes: must be a number above 0"),
    (["bench", "load", "--minutes", "inf"], "argument --minutes: must be a number above 0"),
    (["bench", "load", "--rate", "-5"], "argument --rate: must be a number above 0 and at most "
                                        "1000000, not «-5»"),
    (["bench", "load", "--closed-seconds", "-1"], "argument --closed-seconds: must be a number "
                                                  "above 0 and at most 3600"),
    (["bench", "load", "--outage", "nan"], "argument --outage: must be a number above 0"),
    (["bench", "load", "--restore", "{folder}"], "argument --restore: «{folder}» is a directory, "
                                                 "not a database"),
    (["bench", "load", "--restore", "/dev/null"], "argument --restore: «/dev/null» is not a "
                                                  "regular file"),
    (["bench", "load", "--restore", "{junk}"], "argument --restore: «{junk}» is not an SQLite "
                                               "database"),
    (["bench", "load", "--restore", "{missing}"], "argument --restore: «{missing}» does not "
                                                  "exist"),
    (["bench", "load", "--db", "/dev/null"], "argument --db: «/dev/null» exists already"),
    (["bench", "load", "--metrics", "nowhere"], "argument --metrics:"),
    # bench discord (was right already)
    (["bench", "discord", "--matches", "0"], "argument --matches: must be a whole number from 1 "
                                             "to 10000"),
    (["bench", "discord", "--think", "nan"], "argument --think: must be a number of seconds"),
    # bench repaso: --hands 0 was IndexError
    (["bench", "repaso", "--hands", "0"], "argument --hands: must be a whole number above 0"),
    # bench txapelketa: --pairs 1 was TournamentError; --out DIR failed after the whole
    # tournament (IsADirectoryError)
    (["bench", "txapelketa", "--pairs", "1"], "argument --pairs: must be a whole number from 2 "
                                              "to 4096, not «1»"),
    (["bench", "txapelketa", "--pairs", "300"], "musbot bench txapelketa: the double format takes "
                                                "at most 256 pairs, not 300 (nothing was played)."),
    (["bench", "txapelketa", "--late", "2"], "argument --late: must be a number from 0 to 1, "
                                             "not «2»"),
    (["bench", "txapelketa", "--late", "nan"], "argument --late: must be a number from 0 to 1"),
    (["bench", "txapelketa", "--out", "{folder}"], "argument --out: «{folder}» is a directory: "
                                                   "give a file's name"),
    (["bench", "txapelketa", "--out", "{nowhere}"], "argument --out: the directory "
                                                    "{root}/no-such-folder does not exist"),
    (["bench", "txapelketa", "--out", "/proc/x.png"], "argument --out: cannot write in /proc ("),
    (["bench", "txapelketa", "--db", "{folder}"], "argument --db: «{folder}» is a directory: "
                                                  "give a file's name"),
    (["bench", "txapelketa", "--db", "{live}"], "argument --db: «{live}» exists already: the "
                                                "benchmark writes only into a new database"),
    (["bench", "txapelketa", "--db", "{nowhere}"], "argument --db: the directory "
                                                   "{root}/no-such-folder does not exist"),
    # play (its numbers were checked already)
    (["play", "--puntos", "0"], "argument --puntos: must be a whole number from 1 to 1000"),
    (["play", "--jugadores", "3"], "argument --jugadores: invalid choice: 3"),
    # repaso
    (["repaso", "{junk}", "--asiento", "0"], "argument --asiento: must be a whole number from 1 "
                                             "to 6, not «0»"),
    (["repaso", "{folder}", "--asiento", "1"], "Cannot read «{folder}»: it is a folder, not a "
                                               "file."),
    (["replay", "{missing}", "--idioma", "en"], None),  # a JSON answer on stdout: docs/replay.md
    # invite: 29 digits said «(digits only)»; 2⁶⁴ and Arabic-Indic digits made a URL
    (["invite", "9" * 29], "musbot invite: that is not an application id: a Discord id has 17 "
                           "to 20 digits, and «" + "9" * 29 + "» has 29."),
    (["invite", str(2**64)], "musbot invite: that is not an application id: a Discord id is at "
                             "most 18446744073709551615 (2⁶⁴ − 1), not «18446744073709551616»."),
    (["invite", "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨"], "musbot invite: that is not an application id: a "
                                        "Discord id is only the digits 0 to 9"),
    (["invite", A_ID, "--guild", "-5"], "argument --guild: a Discord id is only the digits 0 to "
                                        "9, not «-5»"),
    (["invite", A_ID, "--guild", "0"], "argument --guild: a Discord id has 17 to 20 digits, and "
                                       "«0» has 1"),
    # run
    (["run", "--dev-guild", "-1"], "argument --dev-guild: a Discord id is only the digits 0 to 9"),
    (["run", "--shards", "0"], "MUSBOT_SHARDS (--shards) must be a number of shards"),
]


@pytest.mark.parametrize(("argv", "says"), BAD_OPTIONS, ids=[" ".join(a) for a, _ in BAD_OPTIONS])
def test_every_option_refuses_a_bad_value_in_one_sentence_before_any_work(
        argv: list[str], says: str | None, places: Places,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command line is refused before it starts its work: were one to start, a benchmark
    of the defaults would take minutes, and this test milliseconds."""
    import time

    monkeypatch.chdir(places.root)
    before = places.contents()
    started = time.perf_counter()
    status, err = run(places.fill(argv), capsys)
    assert status == 2, err
    if says is None:
        assert err == []
    else:
        assert len(err) == 1, err
        assert places.fill([says])[0] in err[0], err
    assert time.perf_counter() - started < 2.0
    assert places.contents() == before


# --- Ctrl-C reaches the workers too ------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_during_bench_ai_with_workers_is_quiet() -> None:
    """Ctrl-C goes to every process of the terminal's foreground group: each of ``bench ai
    --workers 2``'s workers printed «Process ForkPoolWorker-1: Traceback … KeyboardInterrupt».
    (The review's worker at the terminal table: tests/test_terminal.py.)"""
    import os
    import signal
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "LANG": "C.UTF-8", "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"}
    bench = subprocess.Popen(
        [sys.executable, "-m", "musbot", "bench", "ai", "--games", "400", "--workers", "2",
         "--progress", "1", "--idioma", "en"], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert bench.stdout is not None
        assert bench.stdout.readline().startswith(b"  \xe2\x80\xa6 1 games")  # workers at work
        # The group's processes take the signal in no set order: the workers first here, so
        # that one which would print has the time to before the parent ends the pool.
        workers = Path(f"/proc/{bench.pid}/task/{bench.pid}/children").read_text().split()
        assert len(workers) == 2, workers
        for worker in workers:
            os.kill(int(worker), signal.SIGINT)
        time.sleep(0.3)
        os.killpg(bench.pid, signal.SIGINT)
        asked = time.monotonic()
        _, err = bench.communicate(timeout=10)
    finally:
        bench.kill()
    assert bench.returncode == 130 and time.monotonic() - asked < 5
    assert err == b"", err.decode()


@pytest.mark.parametrize(("value", "reason"), [
    ("-5", "a Discord id is only the digits 0 to 9, not «-5»"),
    ("42", "a Discord id has 17 to 20 digits, and «42» has 2"),
    (str(2**64), "a Discord id is at most 18446744073709551615 (2⁶⁴ − 1), not "
                 "«18446744073709551616»"),
])
def test_dev_guild_id_in_the_environment_is_a_discord_id(
        value: str, reason: str, places: Places, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As ``run --dev-guild``: DEV_GUILD_ID=-5 was taken, and the slash commands synced to a
    server that cannot be."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DEV_GUILD_ID", value)
    status, err = run(["run"], capsys)
    assert status == 2 and err == [
        f"Invalid configuration: DEV_GUILD_ID must be a server's id: {reason}"]
