"""The feature cogs (``/musadmin config``, ``/mus perfil``, ``/mus olvidarme``, ``/liga …``, the
welcome) driven through the wire double (``tests/wire``): the real :class:`MusBot` with a real
SQLite file in ``tmp_path``, a server with four players and an admin (Manage Server through a
role), and waits that cover the database's own thread. Tests assert on what reached «Discord»."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord_match import Person, Scene, make_scene, play_to_the_end
from wire import FakeInteraction, FakeMessage

import musbot.bot.storage
from musbot.storage import Database
from musbot.table import ManualClock

PLAYERS = ("Ana", "Beñat", "Carmen", "Dani")
MANAGE_SERVER = discord.Permissions(manage_guild=True).value
ANSWER_WAIT = 10.0
"""Real seconds a test waits for the bot to finish answering (its database work runs on a
thread), before giving up and letting the assertions say what is missing."""
DEFERRED, CHOICES = 5, 8
"""Interaction response types: a deferral («thinking…»), autocomplete choices."""
BUSY_TIMEOUT = 5.0
"""How long the bot's database waits for another process's write lock (``Database.open``'s
default, which ``MusBot`` uses)."""


@dataclass
class Server(Scene):
    """A :class:`Scene` (guild «Txoko», channel «mus», the players) with an admin."""

    admin: Person
    db_path: Path

    async def answered(self, inter: FakeInteraction) -> FakeInteraction:
        """Waits (real time, the fake clock stands still) until the bot has answered ``inter``
        and filled any «thinking…» message, then until it is quiet."""
        deadline = time.monotonic() + ANSWER_WAIT
        while time.monotonic() < deadline and not _complete(inter):
            await self.world.settle()
            await asyncio.sleep(0.002)
        await self.settle()
        return inter

    async def ask(self, person: Person, command: str, /, *, channel: int | None = None,
                  **options: Any) -> FakeInteraction:
        """``person`` runs ``/command`` (in the server's channel unless told) and the bot
        answers."""
        inter = await self.world.slash(self.bot, person.user, channel or self.channel, command,
                                       **options)
        return await self.answered(inter)

    async def complete(self, person: Person, command: str, option: str, typed: str
                       ) -> list[str]:
        """The choices the bot offers ``person`` while they type ``typed`` into ``option``."""
        inter = await self.world.autocomplete(self.bot, person.user, self.channel, command,
                                              option, typed)
        await self.answered(inter)
        assert inter.response_type == CHOICES, inter.attempts
        return [str(choice["value"]) for choice in inter.choices]

    def person(self, name: str) -> Person:
        return next(p for p in [*self.people, self.admin] if p.name == name)

    async def play_match(self, players: Sequence[str] = PLAYERS, *,
                         league: str | None = None) -> None:
        """A short match (5 tantos, one juego) at a table opened in the channel by the first
        player, marked for ``league`` before it starts; ``players`` sit in seat order, bots
        take the empty seats. The table stays open, its match finished."""
        people = [self.person(name) for name in players]
        first = people[0]
        opened = await self.ask(first, "mus mesa", puntos=5, juegos=1)
        assert opened.response_type is not None, opened.attempts
        await self.advance(1)
        for person in people:
            seat = PLAYERS.index(person.name)
            await self.press(person, "join1" if seat % 2 == 0 else "join2")
            await self.advance(1)
        if league is not None:
            marked = await self.ask(first, "liga mesa", nombre=league)
            assert "cuenta para la liga" in public(marked), marked.texts()
        await self.press(first, "start")
        await play_to_the_end(self)

    def saved_states(self) -> list[str]:
        """The live tables' saved states as the database file holds them now."""
        with closing_db(self.db_path) as raw:
            return [state for (state,) in raw.execute("SELECT state FROM live_tables")]


def _complete(inter: FakeInteraction) -> bool:
    return inter.response_type is not None and not any(m.loading for m in inter.messages())


def make_server(tmp_path: Path, people: Sequence[str] = PLAYERS, **world_options: Any
                ) -> Server:
    scene = make_scene(tmp_path, people, **world_options)
    world = scene.world
    admins = world.add_role(scene.guild, "Admins", MANAGE_SERVER)
    admin = Person(world.add_user("Maite"), "Maite")
    world.give_role(scene.guild, admin.user, admins)
    return Server(world, scene.clock, scene.bot, scene.guild, scene.channel, scene.people,
                  admin=admin, db_path=tmp_path / "musbot.db")


@asynccontextmanager
async def connected(server: Server) -> AsyncIterator[Server]:
    async with server.world.connected(server.bot):
        await server.settle()
        yield server


@contextmanager
def closing_db(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection to the database file (autocommit)."""
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        yield raw
    finally:
        raw.close()


def only(inter: FakeInteraction) -> FakeMessage:
    """The one message the interaction produced."""
    messages = inter.messages()
    assert len(messages) == 1, [(m.ephemeral, m.text()) for m in messages]
    return messages[0]


def private(inter: FakeInteraction) -> str:
    """The text of the interaction's one message, which only its author saw."""
    message = only(inter)
    assert message.ephemeral, f"should be private: {message.text()!r}"
    return message.text()


def public(inter: FakeInteraction) -> str:
    """The text the channel saw from the interaction: exactly one public message (besides,
    perhaps, a private acknowledgement to its author)."""
    shown = [m for m in inter.messages() if not m.ephemeral]
    assert len(shown) == 1, [(m.ephemeral, m.text()) for m in inter.messages()]
    return shown[0].text()


def waiting_for_a_lock(monkeypatch: pytest.MonkeyPatch, clock: ManualClock) -> None:
    """SQLite's wait for another process's write lock, on the fake clock: a write that finds
    the lock taken waits the bot's ``busy_timeout`` (5 s) there; the real wait is cut to
    50 ms so the test stays fast."""

    class LockWaitOnTheFakeClock(Database):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["busy_timeout"] = 0.05
            super().__init__(*args, **kwargs)

        async def _write_there(self, work: Any) -> Any:
            await clock.sleep(BUSY_TIMEOUT)
            return await super()._write_there(work)

    monkeypatch.setattr(musbot.bot.storage, "Database", LockWaitOnTheFakeClock)
