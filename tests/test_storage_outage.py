"""The database goes away while tables play (issue 23), on both backends: a PostgreSQL server of
the test's own, stopped and started by it (never the shared one), and an SQLite file whose
writes fail the way a full disk fails them (the driver's own error, injected in the backend).

A separate process plays tables, saving after every move, and says on its standard output what
each table showed (how many moves it had applied, and its match as stored) and every move that
was refused. The database goes away; once every table has refused a move, the process is
killed (SIGKILL), the database comes back, and the tables are restored from it: every move
anyone was shown is there, and none that was refused.

The bot itself started while PostgreSQL is down keeps trying, opens no new table meanwhile,
and restores its saved tables once the server is up.

Run as a script, this module is the playing process: ``python test_storage_outage.py DB FLAG``
(``FLAG``: a file whose existence makes SQLite's writes fail; ``-`` for none).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from db_helpers import select
from discord_match import make_scene, open_and_start, page_lines, public_texts
from pg_cluster import PgCluster, pg_cluster
from table_helpers import FakeTransport, persistent

from musbot.ai import HeuristicBot
from musbot.bot import MusBot
from musbot.bot.storage import Sleepers
from musbot.config import Config
from musbot.engine import Rules, seeded_shuffler
from musbot.i18n import TABLE, error_text
from musbot.settings import TableSettings
from musbot.storage import Database
from musbot.table import ManualClock, NotSaved, Table, TableError
from musbot.table.saved import from_json
from musbot.tournament import Settings, Stage, Tournament, stamp
from musbot.tournament.live import wall_clock

if TYPE_CHECKING:
    pass

__all__ = ["pg_cluster"]

CHANNELS = range(1, 7)
RULES = Rules(juegos=1)
FULL = "database or disk is full"


def digest(table: Table) -> str:
    """The table's match as stored, in a few characters."""
    match = table.match
    text = json.dumps(None if match is None else match.snapshot(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- the playing process ---------------------------------------------------------------------


async def worker(target: str, flag: str) -> None:
    """Plays forever, one person's move at a time on each table (bots answer at once), and
    prints a line whenever a table shows something new or refuses a move."""
    db = await Database.open(target)
    if flag != "-":
        def fault(_stage: str, _name: str) -> None:
            if os.path.exists(flag):
                raise sqlite3.OperationalError(FULL)

        db.backend.fault = fault
    transport = FakeTransport()
    last: dict[int, int] = {}
    changed = transport.changed

    def showing(table: Table) -> None:
        changed(table)
        if last.get(table.channel_id) != table.state.turn:
            last[table.channel_id] = table.state.turn
            print(json.dumps({"shown": table.channel_id, "turn": table.state.turn,
                              "match": digest(table)}), flush=True)

    transport.changed = showing  # type: ignore[method-assign]
    _, manager = await persistent(db, transport, shuffler=seeded_shuffler(3),
                                  rng=random.Random(3), first_mano=0)
    for channel in CHANNELS:
        table = manager.open(channel, TableSettings(rules=RULES, turn_seconds=None), guild_id=1)
        await table.join(channel * 10, f"A{channel}")
        await table.join(channel * 10 + 1, f"B{channel}")
        await table.start(channel * 10)
    people = random.Random(4)
    while True:
        for table in manager:
            match = table.match
            assert match is not None
            seat = match.to_act
            first = table.channel_id * 10
            try:
                if table.lifecycle == "finished":
                    await table.rematch(first)
                else:
                    assert seat is not None
                    # A bot's turn only while paused (its move was undone): the person of seat
                    # 0 tries to speak, and is refused.
                    user = first + seat if seat < 2 else first
                    await table.act(user, HeuristicBot().decide(match.view(seat), people))
            except NotSaved:
                refused = {"refused": table.channel_id, "turn": table.state.turn}
                print(json.dumps(refused), flush=True)
        await asyncio.sleep(0.01)


# --- the test ----------------------------------------------------------------------------------


class Lines:
    """The worker's lines, read on a thread: what each table showed last, what was refused."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.shown: dict[int, dict[str, Any]] = {}
        self.refused: list[dict[str, Any]] = []
        self.count = 0
        self._queue: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None
        stdout = process.stdout

        def read() -> None:
            for line in stdout:
                self._queue.put(line)
            self._queue.put(None)

        threading.Thread(target=read, daemon=True).start()

    def until(self, done: Any, timeout: float = 60.0) -> None:
        """Reads lines until ``done()`` (or the end of the output, with ``done`` None)."""
        deadline = time.monotonic() + timeout
        while done is None or not done():
            line = self._queue.get(timeout=max(0.1, deadline - time.monotonic()))
            if line is None:
                assert done is None, "the worker stopped"
                return
            item = json.loads(line)
            self.count += 1
            if "shown" in item:
                self.shown[item["shown"]] = item
            else:
                self.refused.append(item)


def kill_mid_outage(target: str, flag: str, begin: Any, end: Any) -> Lines:
    """The worker plays, the database goes away (``begin``); once every table has refused a
    move the worker is killed, and the database comes back (``end``)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    process = subprocess.Popen([sys.executable, __file__, target, flag], env=env,
                               stdout=subprocess.PIPE, text=True)
    lines = Lines(process)
    try:
        lines.until(lambda: len(lines.shown) == len(CHANNELS) and lines.count > 150)
        begin()
        lines.until(lambda: {r["refused"] for r in lines.refused} == set(CHANNELS)
                    and len(lines.refused) > 3 * len(CHANNELS), timeout=30.0)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        lines.until(None)  # what it had printed before it died
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        end()
    assert process.returncode == -signal.SIGKILL
    return lines


async def check_restored(target: str, lines: Lines) -> None:
    """Every table as the database gives it back is the one last shown: every move shown is
    stored (and its finished hands), and no refused move is."""
    async with Database(target) as db:
        saved = {s.channel_id: s for s in await db.load_tables()}
        assert sorted(saved) == list(CHANNELS)
        for channel in CHANNELS:
            table = Table(from_json(saved[channel].state, journal=saved[channel].journal),
                          FakeTransport(), clock=ManualClock())
            shown = lines.shown[channel]
            refused = [r["turn"] for r in lines.refused if r["refused"] == channel]
            assert table.state.turn == shown["turn"], (channel, table.state.turn, shown)
            assert digest(table) == shown["match"], channel
            assert refused and min(refused) == table.state.turn, "refused moves stored nothing"
            match = table.match
            info = table.state.records.info
            assert match is not None and info is not None
            stored = await select(db, "SELECT COUNT(*) FROM hands h JOIN matches m"
                                      " ON m.match_id = h.match_id WHERE m.match_key = ?",
                                  [info["key"]])
            waiting = [r for r in table.state.records.outbox if r["kind"] == "hand"
                       and r["match"]["key"] == info["key"]]
            finished = match.hand_number - (0 if match.finished else 1)
            assert stored[0][0] + len(waiting) >= finished, "every finished hand is kept"
        assert sum(len(s.journal) for s in saved.values()) > 0, "moves in the journals too"


@pytest.fixture
def pg_target(pg_cluster: PgCluster) -> Iterator[str]:
    name = f"outage_{uuid.uuid4().hex[:12]}"
    _admin(pg_cluster, f'CREATE DATABASE "{name}"')
    yield pg_cluster.url(name)
    _admin(pg_cluster, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _admin(cluster: PgCluster, sql: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(cluster.url())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


def test_postgresql_stopped_mid_game_loses_no_move_shown_and_stores_none_refused(
        pg_cluster: PgCluster, pg_target: str) -> None:
    lines = kill_mid_outage(pg_target, "-", begin=pg_cluster.stop, end=pg_cluster.start)
    asyncio.run(check_restored(pg_target, lines))


def test_sqlite_failing_writes_mid_game_lose_no_move_shown_and_store_none_refused(
        tmp_path: Path) -> None:
    target, flag = tmp_path / "musbot.db", tmp_path / "disk-full"
    lines = kill_mid_outage(str(target), str(flag), begin=flag.touch,
                            end=lambda: flag.unlink(missing_ok=True))
    asyncio.run(check_restored(str(target), lines))
    conn = sqlite3.connect(target)
    try:
        assert [row[0] for row in conn.execute("PRAGMA integrity_check")] == ["ok"]
    finally:
        conn.close()


async def test_a_bot_started_with_postgresql_down_restores_its_tables_once_it_is_up(
        pg_cluster: PgCluster, pg_target: str, tmp_path: Path,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    woken: list[tuple[str, int]] = []
    wake = Sleepers.wake

    async def watching(self: Sleepers, restored: Table) -> bool:
        woken.append((digest(restored), restored.state.turn))
        return await wake(self, restored)

    monkeypatch.setattr(Sleepers, "wake", watching)
    scene = make_scene(tmp_path, ["Ana"])
    config = Config(token="x", db=pg_target)
    scene.bot = MusBot(config, clock=scene.clock)
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    ana = scene.people[0]
    for _ in range(3):
        await scene.shown_turn(ana)
        await scene.play_turn(ana)
    saved = digest(scene.table()), scene.table().state.turn
    await scene.world.disconnect(scene.bot)  # the bot stops, its tables saved
    pg_cluster.stop()
    try:
        scene.bot = MusBot(config, clock=scene.clock)
        with caplog.at_level(logging.WARNING, logger="musbot.bot"):
            await scene.world.connect(scene.bot)
            for _ in range(8):  # at the start, then after 1, 2 and 4 s
                await scene.advance(1)
                await _io_done(scene)
        attempts = [r for r in caplog.records if "unavailable" in r.getMessage()]
        assert len(attempts) == 4, "one line per attempt, every attempt"
        assert scene.bot.tables.get(scene.channel) is None
        refused = await scene.slash(ana, "mus mesa")
        assert refused.ephemeral_texts() == [error_text(TableError("storage_down"), "es")]
        assert scene.bot.tables.get(scene.channel) is None, "no table played unsaved"
    finally:
        pg_cluster.start()
    for _ in range(40):  # the next attempt, 8 s after the last
        if scene.bot.tables.get(scene.channel) is not None and not scene.bot.asleep:
            break
        await scene.advance(1)
        await _io_done(scene)
    await scene.advance(2)  # the edit of the table message
    assert woken == [saved], "restored as it was saved, then woken"
    assert any("Mesa restaurada" in text for text in public_texts(scene.world, scene.channel))
    await scene.shown_turn(ana)
    await scene.play_turn(ana)
    assert scene.table().state.turn > saved[1]
    await scene.world.disconnect(scene.bot)


async def test_the_tournaments_carry_on_once_the_database_is_up_after_an_outage_at_start(
        pg_cluster: PgCluster, pg_target: str, tmp_path: Path) -> None:
    """The runner starts through the bot's ``storage_open``: a tournament whose sign-ups
    closed while the bot could not read it is drawn once the database answers, and its match
    opens in a thread of its own."""
    scene = make_scene(tmp_path, ["Ana"])
    config = Config(token="x", db=pg_target)
    scene.bot = MusBot(config, clock=scene.clock)
    wall = scene.bot.wall or wall_clock(scene.clock)
    async with Database(pg_target) as db:
        t = Tournament.new(Settings("Kopa", games_to_win=1,
                                    signup_deadline=stamp(wall() + timedelta(seconds=5))),
                           seed=1, now=wall())
        for first, second in ((901, 902), (903, 904)):
            t.sign_up(first, f"P{first}", partner=second, now=wall())
            t.sign_up(second, f"P{second}", partner=first, now=wall())
        await db.create_tournament(scene.guild, t, created_by=None, channel_id=scene.channel)
    pg_cluster.stop()
    try:
        await scene.world.connect(scene.bot)
        for _ in range(8):  # past the deadline, the database still down
            await scene.advance(1)
            await _io_done(scene)
        assert scene.bot.get_cog("Txapelketa") is not None
        made = scene.bot._tournaments
        assert made is None or not made.started, "no runner without its database"
    finally:
        pg_cluster.start()
    for _ in range(40):  # the next attempt, at most 16 s after the last
        runner = scene.bot._tournaments
        if runner is not None and runner.cups and \
                next(iter(runner.cups.values())).tournament.phase is Stage.RUNNING:
            break
        await scene.advance(1)
        await _io_done(scene)
    assert runner is not None and runner.started
    [cup] = runner.cups.values()
    assert cup.tournament.phase is Stage.RUNNING, "drawn at the first look after the outage"
    await scene.advance(2)
    await _io_done(scene)
    [match] = cup.tournament.ready()
    place = cup.places[match.id]
    assert scene.bot.tables.get(place) is not None, "its table opened in its thread"
    assert place != scene.channel
    await scene.world.disconnect(scene.bot)


async def test_on_discord_a_move_that_cannot_be_saved_is_answered_and_the_table_pauses(
        tmp_path: Path) -> None:
    """The SQLite file's disk fills up mid-hand: the typed move is answered, to its author, with
    the sentence for it; the table message says once that the table is paused; the move is
    not made; once the disk takes writes again the table says it goes on, and the move is
    made."""
    scene = make_scene(tmp_path, ["Ana", "Bea"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    ana = await _whose_turn(scene)
    full = True

    def disk(_stage: str, _name: str) -> None:
        if full:
            raise sqlite3.OperationalError(FULL)

    assert scene.bot.db is not None
    scene.bot.db.backend.fault = disk
    table = scene.table()
    turn = table.state.turn
    await scene.shown_turn(ana)
    await scene.play_turn(ana)  # the hand's first word: typed in the channel
    await scene.advance(2)
    refused = error_text(TableError("not_saved"), "es")
    assert refused == "No puedo guardar la jugada; repite en unos segundos."
    assert refused in public_texts(scene.world, scene.channel)
    assert table.state.turn == turn and table.paused
    paused = TABLE("paused_db")
    assert sum(line == paused for line in page_lines(scene.live_message())) == 1
    await scene.advance(20)  # attempts every few seconds, in vain
    assert sum(line == paused for line in page_lines(scene.live_message())) == 1
    full = False
    await scene.advance(6)
    assert not table.paused and page_lines(scene.live_message())[-1] == TABLE("resumed_db")
    await scene.shown_turn(ana)
    await scene.play_turn(ana)
    assert table.state.turn > turn
    await scene.world.disconnect(scene.bot)


async def _whose_turn(scene: Any) -> Any:
    """The person whose turn it is, once the bots have played."""
    table = scene.table()
    for _ in range(60):
        person = next((p for p in scene.people if table.state.awaits(p.user)), None)
        if person is not None:
            return person
        await scene.advance(1)
    raise AssertionError("nobody's turn")


async def _io_done(scene: Any) -> None:
    """Lets a connection attempt finish (real I/O, which the fake clock does not wait for)."""
    for _ in range(20):
        await asyncio.sleep(0.01)
    await scene.settle()


if __name__ == "__main__":
    asyncio.run(worker(sys.argv[1], sys.argv[2]))
