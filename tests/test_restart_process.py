"""A real crash: a separate Python process plays tables, saving after every action, and is killed
with SIGKILL mid-game; the database must stay sound and its tables must play on to the end.
Twice: with seeded decks (every save a whole state) and with decks that are not saved, whose
moves within a hand go to the tables' journals; on both backends.

Run as a script, this module is that process: ``python test_restart_process.py DB SEED KIND``.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from db_helpers import select, select_in
from table_helpers import FakeTransport, persistent, play_humans

from musbot.engine import Rules, Shuffler, seeded_shuffler
from musbot.settings import TableSettings
from musbot.storage import Database
from musbot.table import ManualClock, Table, TableManager
from musbot.table.persist import SeededShuffler

CHANNELS = (1, 2, 3)
RULES = Rules(juegos=1)


def shuffler(seed: int, kind: str) -> Shuffler:
    """«seeded»: saved with the table (whole saves); otherwise not, so moves go to journals."""
    return SeededShuffler(seed) if kind == "seeded" else seeded_shuffler(seed)


async def boot(target: str, seed: int, kind: str) -> tuple[Database, TableManager]:
    db = await Database.open(target)
    _, manager = await persistent(db, FakeTransport(), clock=ManualClock(),
                                  shuffler=shuffler(seed, kind), rng=random.Random(seed),
                                  first_mano=0)
    return db, manager


async def worker(target: str, seed: int, kind: str) -> None:
    """Plays forever (rematch after rematch), one person's action at a time on each table,
    printing a line after each saved action so the parent knows when to strike."""
    _, manager = await boot(target, seed, kind)
    for channel in CHANNELS:
        if manager.get(channel) is None:
            table = manager.open(channel, TableSettings(rules=RULES), guild_id=1)
            await table.join(channel * 10 + 1, f"A{channel}")
            await table.join(channel * 10 + 2, f"B{channel}")
            await table.start(channel * 10 + 1)
    people = random.Random(seed)
    saved = 0
    while True:
        for table in manager:
            if table.lifecycle == "finished":
                await table.rematch()
            else:
                await play_humans(table, people, max_steps=1)
            saved += 1
            print(f"saved {saved}", flush=True)


def run_and_kill(target: str, seed: int, kind: str, after: int) -> None:
    process = subprocess.Popen([sys.executable, __file__, target, str(seed), kind],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    try:
        for _ in range(after):
            line = process.stdout.readline()
            assert line.startswith("saved"), f"the worker stopped: {line!r}"
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL


def integrity(target: str) -> list[str]:
    """SQLite's check of the file the killed process left, from a plain connection (the
    PostgreSQL server keeps its own consistency)."""
    if Database(target).dialect != "sqlite":
        return ["ok"]
    conn = sqlite3.connect(target)
    try:
        return [row[0] for row in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
@pytest.mark.parametrize("kind", ["seeded", "journaled"])
def test_sigkill_mid_game_leaves_a_sound_database_that_plays_on(target: str, kind: str) -> None:
    rng = random.Random(2026)
    journaled = 0
    for run in range(3):  # killed, restarted (restoring), killed again…
        run_and_kill(target, seed=run, kind=kind, after=rng.randrange(30, 90))
        assert integrity(target) == ["ok"]
        journaled += journal_entries(target)
    assert (journaled > 0) == (kind == "journaled"), "killed with moves only in journals"
    asyncio.run(finish_everything(target, kind))


def journal_entries(target: str) -> int:
    [(entries,)] = asyncio.run(select_in(
        target, "SELECT COUNT(*) FROM live_moves"))
    return int(entries)


async def finish_everything(target: str, kind: str) -> None:
    db, manager = await boot(target, seed=99, kind=kind)
    try:
        tables: list[Table] = list(manager)
        assert sorted(t.channel_id for t in tables) == list(CHANNELS)
        people = random.Random(7)
        for table in tables:
            assert table.lifecycle in ("playing", "finished")
            if table.lifecycle == "finished":
                await table.rematch()
            await play_humans(table, people)
            assert table.lifecycle == "finished" and table.match is not None
            assert table.state.records.outbox == []
            key = table.state.records.info["key"] if table.state.records.info else None
            [(match_id, winner)] = await select(
                db, "SELECT match_id, winner_team FROM matches WHERE match_key = ?", (key,))
            assert winner == table.match.winner
            assert len(await db.match_hands(match_id)) == table.match.hand_number
            # Every match before this one was finished or is the one still open when killed.
        [(unfinished,)] = await select(db, "SELECT COUNT(*) FROM matches WHERE ended_at IS NULL")
        assert unfinished == 0
    finally:
        for table in manager:
            table.suspend()
        await db.close()


if __name__ == "__main__":
    asyncio.run(worker(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
