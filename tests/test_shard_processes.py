"""Two bot processes, shards 0 and 1 of 2, on one PostgreSQL database (issue 18), each on its own
wire double (``shard_node.py``): a table in a server of each shard, both counting for one league
(the shard-0 server's) and sharing a player; a player of the shard-1 table discards by DM and with
the DM's buttons, which Discord delivers to shard 0 only; shard 1's process is frozen inside a
write to the database and killed there (SIGKILL) mid-hand, while shard 0 plays on at its own pace,
and is started again: its table resumes where it was; both league matches finish at once, each
process's finish reading the shared player's rating before the other's commits; the league's
standings and ratings are those of the two matches one after the other, computed here from the
stored hands (replayed by the rules engine) and OpenSkill itself, not by the code under test."""

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
from openskill.models import PlackettLuce

from musbot.replay import replay_hand
from musbot.storage import Database

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


SHARD_0_MOVES_SECONDS = 10.0
"""Seconds shard 0 may take for three of its people's moves, on its clock (a second of thought
each: three) and in real time (a second or two): a wait for the stuck process, or for a lock it
holds in the database (5 s before the lock timeout), shows as more."""


@on_postgresql
def test_two_processes_share_one_database_relay_dms_and_survive_a_kill(
        target: str, nodes: Callable[..., Node], tmp_path: Path) -> None:
    a, b = nodes(target, 0), nodes(target, 1)
    ready_a, ready_b = a.ask("ready"), b.ask("ready")
    assert ready_a["tables"] == ready_b["tables"] == []
    assert len(ready_a["guilds"]) == len(ready_b["guilds"]) == 1
    assert ready_a["guilds"] != ready_b["guilds"], "each process has its shard's server"
    a.ask("league", guild="Txoko", name="Otoño")
    a.ask("open", guild="Txoko", league="Otoño")
    # The product offers a server's leagues to its own tables; here the other server's table
    # counts for it too (set on the table), so that two processes write one league's rows.
    b.ask("open", guild="Sagardotegi", league="Otoño", league_of="Txoko")

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

    # Both play on; shard 1's process stops inside its next write to the database (the save
    # of its next move, or of a message's reference), and shard 0 goes on meanwhile.
    a.ask("play", guild="Txoko", until={"moves": 4})
    before = b.ask("play", guild="Sagardotegi", until={"hand": 2, "actions": 2})
    assert before["state"] == "playing" and before["actions"] > 0
    frozen = tmp_path / "frozen"
    b.ask("freeze_at_next_write", marker=str(frozen))
    b.send("play", guild="Sagardotegi", until={"moves": 1})
    _wait_for(frozen)
    paused_at, began = a.ask("state", guild="Txoko"), time.monotonic()
    went_on = a.ask("play", guild="Txoko", until={"moves": 3})
    assert went_on["turn"] >= paused_at["turn"] + 3, "three moves applied, none refused"
    assert went_on["clock"] - paused_at["clock"] <= SHARD_0_MOVES_SECONDS, \
        "shard 0's table went on at its own pace, never waiting for the stuck process"
    assert time.monotonic() - began < SHARD_0_MOVES_SECONDS, "nor for its database's locks"
    b.kill()
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

    # Both league matches finish at the same time: each finish reads Dani's rating before the
    # other's commits.
    together = tmp_path / "finish"
    together.mkdir()
    a.ask("finish_together", folder=str(together), other=1)
    b.ask("finish_together", folder=str(together), other=0)
    for node, guild in ((a, "Txoko"), (b, "Sagardotegi")):
        node.send("play", guild=guild, until={"finished": True})
    assert a.receive()["state"] == b.receive()["state"] == "finished"
    assert sorted(p.name for p in together.iterdir()) == ["began-0", "began-1"]

    asyncio.run(_compare_with_one_after_the_other(target))


def _wait_for(marker: Path) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not marker.exists():
        assert time.monotonic() < deadline, f"{marker} never appeared"
        time.sleep(0.02)


def _discard_prompt(node: Node, user: str) -> dict[str, Any]:
    """The last DM with discard buttons the person received from ``node``."""
    prompts = [m for m in node.ask("dms", user=user)["messages"]
               if any(c.startswith("mus:dc:") for c in m["custom_ids"])]
    assert prompts, f"no discard prompt reached {user}"
    return prompts[-1]


def _message(node: Node, user: str, message_id: int) -> dict[str, Any]:
    return next(m for m in node.ask("dms", user=user)["messages"] if m["id"] == message_id)


async def _compare_with_one_after_the_other(target: str) -> None:
    """The league's standings and ratings as stored, against the two matches counted one after
    the other in the order their finishes committed: each stored hand replayed by the rules
    engine (its result must be the stored one), the games and tantos summed here, and the
    ratings from OpenSkill's Plackett-Luce model itself (its defaults; docs: display = 1000 +
    40·(mu − 3·sigma))."""
    async with Database(target) as db:
        [(league_id,)] = await select(db, "SELECT league_id FROM leagues")
        matches = await select(db, "SELECT match_id, winner_team FROM matches"
                                   " WHERE league_id = ? ORDER BY ended_at, match_id",
                               [league_id])
        seats = {m: await select(db, "SELECT seat, player_id FROM match_seats"
                                     " WHERE match_id = ? ORDER BY seat", [m])
                 for m, _ in matches}
        hands = {m: await select(db, "SELECT transcript, result FROM hands"
                                     " WHERE match_id = ? ORDER BY number", [m])
                 for m, _ in matches}
        standings = await db.standings(league_id)
        stored = await select(db, "SELECT user_id, mu, sigma, matches FROM ratings")
    assert len(matches) == 2 and all(winner is not None for _, winner in matches), matches
    shared = {p for _, p in seats[matches[0][0]]} & {p for _, p in seats[matches[1][0]]}
    assert len(shared) == 1, "one player in both matches"
    model = PlackettLuce()
    skill: dict[int, Any] = {}
    line: dict[int, list[int]] = {}  # played, won, games diff, tantos diff
    for match_id, winner in matches:
        games, tantos = [0, 0], [0, 0]
        for transcript, result in hands[match_id]:
            outcome = replay_hand(json.loads(transcript)).result()
            assert outcome == json.loads(result), "the stored hand is what the rules give"
            if outcome["game_winner"] is not None:
                games[outcome["game_winner"]] += 1
                tantos = [tantos[0] + outcome["scores"][0], tantos[1] + outcome["scores"][1]]
        assert winner == (0 if games[0] > games[1] else 1)
        teams = [[player for seat, player in seats[match_id] if seat % 2 == team]
                 for team in (0, 1)]
        rated = model.rate([[skill.get(p) or model.rating() for p in team] for team in teams],
                           ranks=[1, 2] if winner == 0 else [2, 1])
        for team, players in enumerate(teams):
            for player, new in zip(players, rated[team], strict=True):
                skill[player] = new
                row = line.setdefault(player, [0, 0, 0, 0])
                row[0] += 1
                row[1] += team == winner
                row[2] += games[team] - games[1 - team]
                row[3] += tantos[team] - tantos[1 - team]
    expected = {(player, played, won, played - won, games_diff, tantos_diff,
                 round(1000 + 40 * (skill[player].mu - 3 * skill[player].sigma)))
                for player, (played, won, games_diff, tantos_diff) in line.items()}
    assert {(s.user_id, s.played, s.won, s.lost, s.games_diff, s.tantos_diff, s.rating)
            for s in standings} == expected
    assert len(stored) == len(skill) == 7
    for user_id, mu, sigma, count in stored:
        assert count == line[user_id][0]
        assert mu == pytest.approx(skill[user_id].mu, abs=1e-9), user_id
        assert sigma == pytest.approx(skill[user_id].sigma, abs=1e-9), user_id
