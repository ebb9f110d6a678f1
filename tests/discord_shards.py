"""A sharded bot on the wire double: two servers, one on each of two shards, four players in
each and an admin in both, and :class:`~musbot.bot.ShardedMusBot` processes on one
PostgreSQL database. The world is built the same way every time (same epoch, same order), so
two OS processes that each build it agree on every id (``shard_node.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord_cogs import MANAGE_SERVER, Server
from discord_match import Person, seeded
from wire import FakeDiscord

from musbot.bot import MusBot, ShardedMusBot
from musbot.config import Config
from musbot.table import ManualClock

SHARDS = 2
SERVERS = {"Txoko": (0, ("Ana", "Beñat", "Carmen", "Dani")),
           "Sagardotegi": (1, ("Eneko", "Fermín", "Garazi", "Dani"))}
"""Each server's shard and players (in seat order). Dani plays in both: two matches that finish
at once in two processes both rate her."""


@dataclass
class Cluster:
    """One world; the bots of the shards this process runs (``bots``, by shard)."""

    world: FakeDiscord
    clock: ManualClock
    db: str
    people: list[Person]
    admin: Person
    guilds: dict[str, int]
    channels: dict[str, int]
    bots: dict[int, MusBot] = field(default_factory=dict)

    def bot(self, shard: int, **options: Any) -> MusBot:
        """The bot process of ``shard`` (made, not connected)."""
        config = Config(token="wire-token", db=self.db, shard_count=SHARDS, shard_ids=(shard,))
        options.setdefault("table_defaults", seeded(f"shard {shard}"))
        bot = ShardedMusBot(config, clock=self.clock, **options)
        self.bots[shard] = bot
        return bot

    async def connect(self, shard: int, **options: Any) -> MusBot:
        bot = self.bot(shard, **options)
        await self.world.connect(bot)
        return bot

    async def stop(self, shard: int) -> None:
        """The process of ``shard`` stops (its tables are saved, as on SIGTERM)."""
        bot = self.bots.pop(shard)
        await self.world.disconnect(bot)

    def server(self, name: str) -> Server:
        """The scene of server ``name`` as its shard's process plays it; the other processes
        are waited for too (they relay the DMs)."""
        shard, names = SERVERS[name]
        bot = self.bots[shard]
        others = [b for s, b in sorted(self.bots.items()) if s != shard]
        people = [self.person(n) for n in names]
        return Server(self.world, self.clock, bot, self.guilds[name], self.channels[name],
                      people, others=others, admin=self.admin, db_path=Path("/nonexistent"))

    def person(self, name: str) -> Person:
        return next(p for p in [*self.people, self.admin] if p.name == name)


def build(db: str, epoch: float | None = None) -> Cluster:
    """The world every process builds alike (given the same ``epoch``, the wall-clock time its
    snowflakes start from): users, both servers (an Admins role with Manage Server given to
    Maite), a «mus» channel in each, and every person's DM channel."""
    clock = ManualClock()
    world = FakeDiscord(clock, epoch=epoch)
    unique = dict.fromkeys(name for _, names in SERVERS.values() for name in names)
    people = [Person(world.add_user(name), name) for name in unique]
    admin = Person(world.add_user("Maite"), "Maite")
    guilds: dict[str, int] = {}
    channels: dict[str, int] = {}
    for name, (shard, _) in SERVERS.items():
        guild = world.add_guild(name, shard=(shard, SHARDS))
        guilds[name] = guild
        channels[name] = world.add_text_channel(guild, "mus")
        admins = world.add_role(guild, "Admins", MANAGE_SERVER)
        world.give_role(guild, admin.user, admins)
    for person in (*people, admin):
        world.dm_channel(person.user)
    return Cluster(world, clock, db, people, admin, guilds, channels)


async def open_table(server: Server, *, league: str | None = None, league_id: int | None = None,
                     puntos: int = 5, juegos: int = 1) -> None:
    """The first player opens a short match (``puntos`` tantos, ``juegos`` to win), everyone
    sits in order (pairs alternate), the table is marked for ``league`` (with ``/liga mesa``;
    or for the league ``league_id``, of any server, directly), and it starts."""
    first = server.people[0]
    opened = await server.ask(first, "mus mesa", puntos=puntos, juegos=juegos)
    assert opened.response_type is not None, opened.attempts
    await server.advance(1)
    for i, person in enumerate(server.people):
        await server.press(person, "join1" if i % 2 == 0 else "join2")
        await server.advance(1)
    if league is not None:
        marked = await server.ask(first, "liga mesa", nombre=league)
        assert marked.response_type is not None, marked.attempts
    if league_id is not None:
        await server.table().set_league(league_id)
    await server.press(first, "start")


async def found_league(server: Server, name: str) -> None:
    """The admin creates the league and the server's players join it."""
    created = await server.ask(server.admin, "musadmin liga crear", nombre=name)
    assert created.response_type is not None, created.attempts
    for person in server.people:
        await server.ask(person, "liga unirse", nombre=name)
