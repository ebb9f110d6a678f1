"""One OS process of a sharded musbot, on its own wire double (built like every other process's,
so ids agree), driven by the test in ``test_shard_processes.py``:
``python shard_node.py DB SHARD EPOCH [LATER]``. Each line on stdin is a JSON command, each
answer one JSON line on stdout. ``EPOCH`` is the wall-clock time every process's world starts
its snowflakes from; ``LATER`` (seconds) starts this world's new snowflakes that much later: a
restarted process must not make ids its previous life already used.

Players of shard 0's server discard by DM (Discord brings DMs here); shard 1's use the «Ver mis
cartas» buttons in their channel, except where the test relays a DM through shard 0 itself (Dani,
who plays in both, uses the buttons in both).

Two commands reach into the process's database backend (its fault hook, a test seam):
``freeze_at_next_write`` stops the whole process inside its next write, for the test to kill it
there; ``finish_together`` holds the first league finish's transaction open, its ratings read and
written, until the other process's finish has begun, so that both read the same ratings."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from discord_cogs import Server
from discord_match import Person, public_texts
from discord_shards import SERVERS, Cluster, build, found_league, open_table

from musbot.ai import HeuristicBot
from musbot.engine import ActionKind


class Node:
    def __init__(self, cluster: Cluster, shard: int) -> None:
        self.cluster = cluster
        self.shard = shard
        self.moves = 0
        """Moves the people here made (typed, pressed, by DM)."""

    def server(self, guild: str) -> Server:
        return self.cluster.server(guild)

    def person(self, name: str) -> Person:
        return self.cluster.person(name)

    # --- commands -------------------------------------------------------------------------

    async def ready(self) -> dict[str, Any]:
        bot = self.cluster.bots[self.shard]
        return {"shard": self.shard, "tables": sorted(t.channel_id for t in bot.tables),
                "guilds": sorted(g.id for g in bot.guilds),
                "channels": self.cluster.channels}

    async def league(self, guild: str, name: str) -> dict[str, Any]:
        await found_league(self.server(guild), name)
        return {}

    async def open(self, guild: str, league: str | None = None, juegos: int = 2,
                   league_of: str | None = None) -> dict[str, Any]:
        """Two juegos to win: a match of two hands at least, so there is a second to kill.
        ``league_of``: the table counts for the league ``league`` of that other server."""
        league_id = None
        if league_of is not None:
            db = self.cluster.bots[self.shard].db
            assert db is not None and league is not None
            league_id = (await db.get_league(self.cluster.guilds[league_of], league)).league_id
            league = None
        await open_table(self.server(guild), league=league, league_id=league_id, juegos=juegos)
        return await self.state(guild)

    async def state(self, guild: str) -> dict[str, Any]:
        server = self.server(guild)
        table = server.bot.tables.get(server.channel)
        if table is None:
            return {"state": None}
        match = table.match
        awaited = [p.name for p in server.people if table.state.awaits(p.user)]
        if match is None:
            return {"state": table.lifecycle, "awaited": awaited}
        return {"state": table.lifecycle, "hand": match.hand_number,
                "actions": len(match.hand.actions), "scores": list(match.scores),
                "phase": match.view(-1).phase, "awaited": awaited, "moves": self.moves,
                "turn": table.state.turn, "clock": self.cluster.clock.now()}

    async def play(self, guild: str, until: dict[str, Any], limit: float = 4 * 3600.0
                   ) -> dict[str, Any]:
        """The people's turns as they come, until ``until``: ``{"finished": true}``,
        ``{"discard": name}`` (that person's discard is awaited), ``{"hand": n, "actions": k}``
        (hand n has k actions), or ``{"moves": k}`` (k more moves by people)."""
        server = self.server(guild)
        table = server.table()
        start = self.moves
        waited = 0.0
        while waited < limit:
            match = table.match
            assert match is not None
            if self._reached(server, until, start):
                break
            if table.lifecycle != "playing":
                raise AssertionError(f"the match ended before {until}")
            seat = match.to_act
            person = next((p for p in server.people if table.seat_of(p.user) == seat), None)
            if person is not None and table.state.awaits(person.user):
                await server.advance(1.0)
                waited += 1.0
                if table.state.awaits(person.user) and match.to_act == seat and \
                        not self._reached(server, until, start):
                    await server.play_turn(person)
                    self.moves += 1
            else:
                await server.advance(0.5)
                waited += 0.5
        else:
            raise AssertionError(f"not reached in {limit} s: {until}")
        if until.get("finished"):
            await server.advance(10)  # the last edits, within the channel's budget
        return await self.state(guild)

    def _reached(self, server: Server, until: dict[str, Any], start: int) -> bool:
        table = server.table()
        match = table.match
        assert match is not None
        if until.get("finished"):
            return table.lifecycle == "finished"
        if "discard" in until:
            person = self.person(until["discard"])
            return match.view(-1).phase == "descarte" and table.state.awaits(person.user)
        if "hand" in until:
            return match.hand_number > until["hand"] or (
                match.hand_number == until["hand"] and
                len(match.hand.actions) >= until.get("actions", 0))
        return self.moves - start >= until["moves"]

    async def discard_hint(self, guild: str, user: str) -> dict[str, Any]:
        """What the person would discard now (the harness knows their cards)."""
        server = self.server(guild)
        table = server.table()
        person = self.person(user)
        seat = table.seat_of(person.user)
        assert table.match is not None and seat is not None
        view = table.match.view(seat)
        action = HeuristicBot().decide(view, person.rng)
        assert action.kind is ActionKind.DESCARTE, action
        return {"text": action.text(), "positions": [view.cards.index(c) for c in action.cards]}

    async def dm(self, user: str, text: str) -> dict[str, Any]:
        """``user`` writes to the bot (this process must hold shard 0)."""
        person = self.person(user)
        bot = self.cluster.bots[self.shard]
        before = len(self.cluster.world.dms(person.user))
        await self.cluster.world.dm(bot, person.user, text)
        await self._settle()
        return {"answers": [m.content for m in self.cluster.world.dms(person.user)[before:]
                            if m.author != person.user]}

    async def seen(self, guild: str) -> dict[str, Any]:
        """What the server's channel shows: every text the bot sent there, in order."""
        server = self.server(guild)
        return {"texts": public_texts(self.cluster.world, server.channel)}

    async def dms(self, user: str) -> dict[str, Any]:
        person = self.person(user)
        return {"messages": [{"id": m.id, "content": m.content, "custom_ids": m.custom_ids()}
                             for m in self.cluster.world.dms(person.user)]}

    async def export(self, message: int) -> dict[str, Any]:
        return {"data": self.cluster.world.export_message(message)}

    async def mirror(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"id": self.cluster.world.import_message(data)}

    async def press(self, user: str, message: int, custom_id: str) -> dict[str, Any]:
        person = self.person(user)
        bot = self.cluster.bots[self.shard]
        inter = await self.cluster.world.press(bot, person.user, message, custom_id)
        await self._settle()
        return {"response_type": inter.response_type, "texts": inter.ephemeral_texts()}

    async def freeze_at_next_write(self, marker: str) -> dict[str, Any]:
        """The process's next write to the database stops it, in the middle of that write:
        ``marker`` is created, and the process waits there (for the test's SIGKILL)."""
        db = self.cluster.bots[self.shard].db
        assert db is not None

        def freeze(stage: str, name: str) -> None:
            Path(marker).write_text(f"{stage} {name}")
            while True:  # the whole process, mid-write: nothing else runs until it is killed
                time.sleep(1.0)

        db.backend.fault = freeze
        return {}

    async def finish_together(self, folder: str, other: int) -> dict[str, Any]:
        """The first league finish's transaction, its ratings read and written, waits before
        its commit until shard ``other``'s finish has begun (half a second more, for that one
        to read the ratings too): the two read the same ratings, whichever commits first."""
        db = self.cluster.bots[self.shard].db
        assert db is not None
        waited = False

        def barrier(stage: str, name: str) -> None:
            nonlocal waited
            if "record_finished_match" not in name:
                return
            if stage == "begin":
                (Path(folder) / f"began-{self.shard}").touch()
            elif stage == "commit" and not waited:
                waited = True
                deadline = time.monotonic() + 120.0
                while not (Path(folder) / f"began-{other}").exists():
                    assert time.monotonic() < deadline, "the other finish never began"
                    time.sleep(0.01)
                time.sleep(0.5)

        db.backend.fault = barrier
        return {}

    async def advance(self, seconds: float) -> dict[str, Any]:
        await self.cluster.clock.advance(seconds)
        await self._settle()
        return {}

    async def stop(self) -> dict[str, Any]:
        await self.cluster.stop(self.shard)
        return {}

    async def _settle(self) -> None:
        guild = next(g for g, (s, _) in SERVERS.items() if s == self.shard)
        await self.server(guild).settle()


async def main(db: str, shard: int, epoch: float, later: float) -> None:
    cluster = build(db, epoch)
    cluster.world.ids.process = 2 + shard  # ids made from here on differ from the other's
    if later:
        cluster.world.ids._epoch_ms += int(later * 1000)
    for guild_shard, names in SERVERS.values():
        for name in names:
            person = cluster.person(name)
            person.wants_mus = True  # every hand has discards
            if guild_shard != 0:
                person.discard_by = "buttons"  # their DMs reach shard 0 only
    await cluster.connect(shard)
    node = Node(cluster, shard)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        command = json.loads(line)
        op = command.pop("op")
        try:
            result = {"ok": True, **await getattr(node, op)(**command)}
        except Exception as problem:
            result = {"ok": False, "error": repr(problem), "trace": traceback.format_exc()}
        print(json.dumps(result), flush=True)
        if op == "stop":
            break
    if shard in cluster.bots:
        await cluster.stop(shard)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]),
                     float(sys.argv[4]) if len(sys.argv) > 4 else 0.0))
