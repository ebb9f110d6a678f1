"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL database (issue 18), each on its own
wire double (``shard_node.py``): league tables in a server of each shard; a player of the
shard-1 table discards by DM and with the DM's buttons, which Discord delivers to shard 0 only;
shard 1's process is killed with SIGKILL mid-hand and started again: its table resumes where it
was, shard 0's never paused (and told shard 1's players their table was restoring); both league
matches finish at once; standings and ratings equal the same matches recorded one after the
other."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from db_helpers import select

from musbot.storage import Database, SeatRecord

HERE = Path(__file__).resolve().parent
NODE = HERE / "shard_node.py"
TIMEOUT = 240.0
"""Real seconds one command may take (a whole match on the fake clock takes a few)."""

RESTART_LATER = 20_000.0
"""Seconds after the first world's the restarted world's new snowflakes start: past any id the
killed process made (its fake clock ran for well under that)."""

on_postgresql = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


class Node:
    """A child process running one shard; :meth:`ask` sends a command and reads its answer."""

    def __init__(self, db: str, shard: int, logs: Path, epoch: float, later: float = 0.0
                 ) -> None:
        self.shard = shard
        self.log = (logs / f"shard{shard}-{int(later)}.log").open("w")
        env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
        self.proc = subprocess.Popen(
            [sys.executable, str(NODE), db, str(shard), str(epoch), str(later)], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)

    def send(self, op: str, **args: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.log.flush()
            raise AssertionError(f"shard {self.shard} exited: {self.proc.poll()}; see its log "
                                 f"{self.log.name}:\n{Path(self.log.name).read_text()[-3000:]}")
        answer: dict[str, Any] = json.loads(line)
        assert answer.pop("ok"), answer.get("trace")
        return answer

    def ask(self, op: str, **args: Any) -> dict[str, Any]:
        self.send(op, **args)
        return self.receive()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.log.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ask("stop")
                self.proc.wait(timeout=20)
            except Exception:
                self.proc.kill()
        self.log.close()


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[Callable[..., Node]]:
    started: list[Node] = []
    epoch = time.time()  # every process's world counts its snowflakes from here

    def start(db: str, shard: int, later: float = 0.0) -> Node:
        node = Node(db, shard, tmp_path, epoch, later)
        started.append(node)
        return node

    yield start
    for node in started:
        node.close()


@on_postgresql
def test_two_processes_share_one_database_relay_dms_and_survive_a_kill(
        target: str, nodes: Callable[..., Node], new_target: Callable[[], Any]) -> None:
    a, b = nodes(target, 0), nodes(target, 1)
    ready_a, ready_b = a.ask("ready"), b.ask("ready")
    assert ready_a["tables"] == ready_b["tables"] == []
    assert len(ready_a["guilds"]) == len(ready_b["guilds"]) == 1
    assert ready_a["guilds"] != ready_b["guilds"], "each process has its shard's server"
    for node, guild in ((a, "Txoko"), (b, "Sagardotegi")):
        node.ask("league", guild=guild, name="Otoño")
        node.ask("open", guild=guild, league="Otoño")

    # A DM discard by a player whose table is on shard 1: written to shard 0, applied on 1.
    b.ask("play", guild="Sagardotegi", until={"discard": "Eneko"})
    hint = b.ask("discard_hint", guild="Sagardotegi", user="Eneko")
    answered = a.ask("dm", user="Eneko", text=hint["text"])
    assert answered["answers"] == [], "the owner answers in its own world, not shard 0"
    after = b.ask("state", guild="Sagardotegi")
    assert "Eneko" not in after["awaited"], after

    # The DM's discard buttons: pressed on shard 0, the owner edits the DM message.
    b.ask("play", guild="Sagardotegi", until={"discard": "Fermín"})
    hint = b.ask("discard_hint", guild="Sagardotegi", user="Fermín")
    prompt = _discard_prompt(b, "Fermín")
    a.ask("mirror", data=b.ask("export", message=prompt["id"])["data"])
    first = hint["positions"][0]
    toggle = next(c for c in prompt["custom_ids"] if c.startswith("mus:dt:")
                  and c.endswith(f":{first}"))
    pressed = a.ask("press", user="Fermín", message=prompt["id"], custom_id=toggle)
    assert pressed["response_type"] == 6, "shard 0 acknowledged it without changing it"
    edited = _message(b, "Fermín", prompt["id"])
    assert any(c.endswith(f":{1 << first}") for c in edited["custom_ids"]
               if c.startswith("mus:dc:")), edited
    a.ask("mirror", data=b.ask("export", message=prompt["id"])["data"])
    confirm = next(c for c in edited["custom_ids"] if c.startswith("mus:dc:"))
    a.ask("press", user="Fermín", message=prompt["id"], custom_id=confirm)
    assert "Fermín" not in b.ask("state", guild="Sagardotegi")["awaited"]

    # Both play on; shard 1's process is killed mid-hand.
    a.ask("play", guild="Txoko", until={"moves": 4})
    before = b.ask("play", guild="Sagardotegi", until={"hand": 2, "actions": 2})
    assert before["state"] == "playing" and before["actions"] > 0
    b.kill()
    paused_at = a.ask("state", guild="Txoko")
    went_on = a.ask("play", guild="Txoko", until={"moves": 3})
    assert went_on["moves"] == paused_at["moves"] + 3, "shard 0's table never paused"
    told = a.ask("dm", user="Garazi", text="cartas")["answers"]
    assert told == ["Tu mesa se está restaurando tras un reinicio del bot: repite en unos "
                    "segundos."], told

    # Started again with the same shard: the table is back where it was.
    b = nodes(target, 1, later=RESTART_LATER)
    ready = b.ask("ready")
    assert ready["tables"] == [ready["channels"]["Sagardotegi"]]
    b.ask("advance", seconds=2)
    assert any("Mesa restaurada" in text for text in b.ask("seen", guild="Sagardotegi")["texts"])
    resumed = b.ask("state", guild="Sagardotegi")
    assert {k: resumed[k] for k in ("state", "hand", "actions", "scores", "phase")} == \
        {k: before[k] for k in ("state", "hand", "actions", "scores", "phase")}

    # Both league matches finish at the same time.
    for node, guild in ((a, "Txoko"), (b, "Sagardotegi")):
        node.send("play", guild=guild, until={"finished": True})
    assert a.receive()["state"] == b.receive()["state"] == "finished"

    asyncio.run(_compare_with_sequential_replay(target, new_target))


def _discard_prompt(node: Node, user: str) -> dict[str, Any]:
    """The last DM with discard buttons the person received from ``node``."""
    prompts = [m for m in node.ask("dms", user=user)["messages"]
               if any(c.startswith("mus:dc:") for c in m["custom_ids"])]
    assert prompts, f"no discard prompt reached {user}"
    return prompts[-1]


def _message(node: Node, user: str, message_id: int) -> dict[str, Any]:
    return next(m for m in node.ask("dms", user=user)["messages"] if m["id"] == message_id)


async def _compare_with_sequential_replay(target: str, new_target: Callable[[], Any]) -> None:
    """Every stored match, recorded again one after the other (in the order they finished)
    into a fresh database: the same standings and ratings."""
    async with Database(target) as db:
        together = await _outcome(db)
        matches = await select(db, "SELECT match_id, league_id, rules, winner_team, final_score,"
                                   " rated, guild_id, channel_id FROM matches"
                                   " ORDER BY ended_at, match_id")
        leagues = {league_id: (guild, name) for league_id, guild, name in await select(
            db, "SELECT league_id, guild_id, name FROM leagues")}
        members = await select(db, "SELECT league_id, user_id FROM league_members"
                                   " ORDER BY league_id, user_id")
        names = dict(await select(db, "SELECT user_id, display_name FROM players"))
        seats = {m: await select(db, "SELECT seat, kind, player_id, bot FROM match_seats"
                                     " WHERE match_id = ? ORDER BY seat", [m])
                 for m, *_ in matches}
        hands = {m: await select(db, "SELECT number, transcript, result FROM hands"
                                     " WHERE match_id = ? ORDER BY number", [m])
                 for m, *_ in matches}
    assert len(matches) == 2 and all(m[3] is not None for m in matches), matches
    async with Database(await new_target()) as fresh:
        league_ids = {}
        for old, (guild, name) in sorted(leagues.items()):
            league_ids[old] = (await fresh.create_league(guild, name)).league_id
        for old, user in members:
            await fresh.join_league(league_ids[old], user, names[user])
        for match_id, league_id, rules, winner, final, rated, guild, channel in matches:
            records = [SeatRecord.human(seat, user, names[user]) if kind == "player"
                       else SeatRecord.robot(seat, bot) for seat, kind, user, bot in
                       seats[match_id]]
            new_id = await fresh.start_match(records, rules=json.loads(rules),
                                             league_id=league_ids[league_id],
                                             guild_id=guild, channel_id=channel)
            for number, transcript, result in hands[match_id]:
                await fresh.record_hand(new_id, number, json.loads(transcript),
                                        json.loads(result))
            await fresh.record_finished_match(new_id, winner, final_score=json.loads(final),
                                              rated=bool(rated))
        assert await _outcome(fresh) == together


async def _outcome(db: Database) -> dict[str, Any]:
    leagues = await select(db, "SELECT league_id, guild_id, name FROM leagues ORDER BY name,"
                               " guild_id")
    return {
        "standings": [(guild, name, await db.standings(league_id))
                      for league_id, guild, name in leagues],
        "ratings": sorted(await select(
            db, "SELECT l.guild_id, r.user_id, r.mu, r.sigma, r.matches FROM ratings r"
                " JOIN seasons s ON s.season_id = r.season_id"
                " JOIN leagues l ON l.league_id = s.league_id")),
    }
