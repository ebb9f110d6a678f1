"""``/liga …`` and ``/mus perfil`` with mocked interactions over a real database file: who may do
what, what is private, what each refusal says."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.ext import commands
from table_helpers import FakeTransport, play_humans, seat_humans

from cogs._common import attach_mus_commands
from cogs.liga import Liga
from cogs.perfil import Perfil
from musbot.engine import Rules
from musbot.storage import Database
from musbot.table import ManualClock, TableManager
from musbot.table.persist import SeededShuffler, start_persistence

GUILD = 1
CHANNEL = 100
ADMIN = discord.Permissions(manage_guild=True)
MEMBER = discord.Permissions.none()


@dataclass
class Reply:
    text: str
    ephemeral: bool
    extra: dict[str, Any]


@dataclass
class FakeResponse:
    replies: list[Reply]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool = False,
                           **extra: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.replies.append(Reply(content, ephemeral, extra))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self.done = True


@dataclass
class FakeFollowup:
    replies: list[Reply]

    async def send(self, content: str, *, ephemeral: bool = False, **extra: Any) -> None:
        self.replies.append(Reply(content, ephemeral, extra))


@dataclass
class FakeInteraction:
    """What the cogs read from a ``discord.Interaction``; ``replies`` is what they answered."""

    user_id: int = 1
    name: str = "Ana"
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    guild_id: int | None = GUILD
    channel_id: int | None = CHANNEL
    replies: list[Reply] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.user = SimpleNamespace(id=self.user_id, display_name=self.name)
        self.response = FakeResponse(self.replies)
        self.followup = FakeFollowup(self.replies)

    @property
    def reply(self) -> Reply:
        (only,) = self.replies
        return only


def user(user_id: int, name: str) -> Any:
    return SimpleNamespace(id=user_id, display_name=name)


async def fake_bot(path: Path) -> Any:
    """What the cogs use of the bot: ``db``, ``tables`` and ``persister``."""
    db = await Database.open(path)
    tables = TableManager(FakeTransport(), clock=ManualClock(), turn_seconds=None,
                          shuffler=SeededShuffler(3), rng=random.Random(3), first_mano=0)
    persister = await start_persistence(db, tables)
    return SimpleNamespace(db=db, tables=tables, persister=persister)


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Any]:
    made = await fake_bot(tmp_path / "musbot.db")
    yield made
    await made.db.close()


async def play_league_match(bot: Any, league_id: int | None, humans: int = 4) -> None:
    table = bot.tables.open(CHANNEL, Rules(juegos=1), guild_id=GUILD, league_id=league_id)
    await seat_humans(table, humans)
    await table.start(1)
    await play_humans(table, random.Random(8))
    await bot.tables.close(CHANNEL)


async def call(command: Any, cog: Any, interaction: FakeInteraction, **options: Any) -> Reply:
    """Runs a cog's slash command as Discord would, after its checks."""
    await command.callback(cog, interaction, **options)
    return interaction.replies[-1]


async def invoke(command: Any, interaction: FakeInteraction, **options: Any) -> Reply:
    """Runs a ``/mus`` subcommand (built in the cog, already bound to it)."""
    await command.callback(interaction, **options)
    return interaction.replies[-1]


# --- /liga --------------------------------------------------------------------------------------


async def test_crear_needs_manage_server(bot: Any) -> None:
    cog = Liga(bot)
    reply = await call(Liga.crear, cog, FakeInteraction(permissions=MEMBER), nombre="Otoño")
    assert reply.ephemeral and "Gestionar servidor" in reply.text
    assert await bot.db.leagues(GUILD) == []
    reply = await call(Liga.crear, cog, FakeInteraction(permissions=ADMIN), nombre="Otoño")
    assert not reply.ephemeral and "Liga «Otoño» creada" in reply.text
    again = await call(Liga.crear, cog, FakeInteraction(permissions=ADMIN), nombre="otono")
    assert again.ephemeral and "Ya existe" in again.text
    blank = await call(Liga.crear, cog, FakeInteraction(permissions=ADMIN), nombre="  ")
    assert blank.ephemeral and "nombre" in blank.text
    assert [lg.name for lg in await bot.db.leagues(GUILD)] == ["Otoño"]


async def test_outside_a_server(bot: Any) -> None:
    reply = await call(Liga.tabla, Liga(bot), FakeInteraction(guild_id=None), nombre="x")
    assert reply.ephemeral and "servidor" in reply.text


async def test_unirse_unknown_league_and_double_join(bot: Any) -> None:
    cog = Liga(bot)
    reply = await call(Liga.unirse, cog, FakeInteraction(), nombre="Nada")
    assert reply.ephemeral and "No hay ninguna liga «Nada»" in reply.text
    assert "ninguna (créala con /liga crear)" in reply.text
    await bot.db.create_league(GUILD, "Otoño")
    reply = await call(Liga.unirse, cog, FakeInteraction(), nombre="Nada")
    assert "Ligas: Otoño." in reply.text
    reply = await call(Liga.unirse, cog, FakeInteraction(), nombre="OTOÑO")
    assert reply.ephemeral and "Te has unido a la liga «Otoño»" in reply.text
    twice = await call(Liga.unirse, cog, FakeInteraction(), nombre="Otoño")
    assert twice.ephemeral and "Ya eres de la liga" in twice.text
    league = await bot.db.get_league(GUILD, "Otoño")
    assert await bot.db.league_members(league.league_id) == [1]


async def test_new_season_keeps_history(bot: Any) -> None:
    cog = Liga(bot)
    league = await bot.db.create_league(GUILD, "Otoño")
    await play_league_match(bot, league.league_id)
    refused = await call(Liga.temporada_nueva, cog, FakeInteraction(permissions=MEMBER),
                         nombre="Otoño")
    assert refused.ephemeral and "Gestionar servidor" in refused.text
    assert (await bot.db.get_league(GUILD, "Otoño")).season.number == 1
    reply = await call(Liga.temporada_nueva, cog, FakeInteraction(permissions=ADMIN),
                       nombre="Otoño")
    assert not reply.ephemeral and "cerrada la temporada 1" in reply.text
    assert "empieza la temporada 2" in reply.text
    current = await call(Liga.tabla, cog, FakeInteraction(), nombre="Otoño")
    assert "temporada 2" in current.text and "P1" in current.text  # members stay listed
    old = await call(Liga.tabla, cog, FakeInteraction(), nombre="Otoño", temporada=1)
    assert not old.ephemeral and "temporada 1 (cerrada)" in old.text
    lines = old.text.splitlines()
    assert any(line.startswith("#  Jugador") for line in lines)
    rows = [line for line in lines if line[:1].isdigit()]
    assert len(rows) == 4 and all(" 1 " in row for row in rows)
    missing = await call(Liga.tabla, cog, FakeInteraction(), nombre="Otoño", temporada=9)
    assert missing.ephemeral and "no tiene temporada 9" in missing.text


async def test_partidas_lists_recent_results(bot: Any) -> None:
    cog = Liga(bot)
    league = await bot.db.create_league(GUILD, "Otoño")
    empty = await call(Liga.partidas, cog, FakeInteraction(), nombre="Otoño")
    assert "Todavía no hay partidas" in empty.text
    await play_league_match(bot, league.league_id)
    reply = await call(Liga.partidas, cog, FakeInteraction(), nombre="Otoño")
    assert not reply.ephemeral
    [line] = reply.text.splitlines()[1:]
    assert " ganan a " in line and "puntúa" in line


async def test_mesa_marks_the_table_before_the_match(bot: Any) -> None:
    cog = Liga(bot)
    league = await bot.db.create_league(GUILD, "Otoño")
    none = await call(Liga.mesa, cog, FakeInteraction(), nombre="Otoño")
    assert none.ephemeral and "No hay ninguna mesa" in none.text
    table = bot.tables.open(CHANNEL, Rules(), guild_id=GUILD)
    await table.join(1, "Ana")
    stranger = await call(Liga.mesa, cog, FakeInteraction(user_id=9), nombre="Otoño")
    assert stranger.ephemeral and "sentado" in stranger.text
    unknown = await call(Liga.mesa, cog, FakeInteraction(), nombre="Nada")
    assert unknown.ephemeral and table.league_id is None
    reply = await call(Liga.mesa, cog, FakeInteraction(), nombre="Otoño")
    assert not reply.ephemeral and "cuenta para la liga «Otoño»" in reply.text
    assert table.league_id == league.league_id
    friendly = await call(Liga.mesa, cog, FakeInteraction(user_id=9, permissions=ADMIN))
    assert "amistosa" in friendly.text and table.league_id is None
    await table.start(1)
    late = await call(Liga.mesa, cog, FakeInteraction(), nombre="Otoño")
    assert late.ephemeral and "ya ha empezado" in late.text and table.league_id is None


async def test_league_name_autocomplete(bot: Any) -> None:
    cog = Liga(bot)
    for name in ("Otoño", "Primavera"):
        await bot.db.create_league(GUILD, name)
    complete: Any = cog._league_names
    choices = await complete(FakeInteraction(), "pri")
    assert [c.value for c in choices] == ["Primavera"]


# --- /mus perfil --------------------------------------------------------------------------------


async def test_profile_with_rating_chart(bot: Any) -> None:
    cog = Perfil(bot)
    league = await bot.db.create_league(GUILD, "Otoño")
    await play_league_match(bot, league.league_id)
    interaction = FakeInteraction()
    await invoke(cog.command, interaction)
    reply = interaction.reply
    assert reply.ephemeral, "private unless shared"
    lines = reply.text.splitlines()
    assert lines[0] == "**P1** · liga «Otoño»"
    assert lines[1].startswith("Partidas: 1 (")
    assert lines[2].startswith("Pareja favorita: P3 (1 partidas")
    assert lines[3].startswith("Órdagos: ")
    assert lines[4].startswith("Puntuación: ")
    chart = reply.extra["file"]
    assert isinstance(chart, discord.File) and chart.filename.endswith(".png")
    assert chart.fp.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_profile_of_someone_else_shared_and_of_nobody(bot: Any) -> None:
    cog = Perfil(bot)
    await play_league_match(bot, None, humans=2)
    interaction = FakeInteraction()
    await invoke(cog.command, interaction, usuario=user(2, "P2"), publico=True)
    reply = interaction.reply
    assert not reply.ephemeral and reply.text.startswith("**P2**")
    assert "Pareja favorita: todavía ninguna" in reply.text and "file" not in reply.extra
    interaction = FakeInteraction()
    await invoke(cog.command, interaction, usuario=user(77, "Zoe"))
    assert "Zoe todavía no ha terminado ninguna partida" in interaction.reply.text
    interaction = FakeInteraction()
    await invoke(cog.command, interaction, liga="Nada")
    assert interaction.reply.ephemeral and "No hay ninguna liga «Nada»" in interaction.reply.text


# --- the /mus group -----------------------------------------------------------------------------


async def test_subcommands_join_the_mus_group_whatever_the_load_order(bot: Any) -> None:
    client = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    client.db, client.tables = bot.db, bot.tables  # type: ignore[attr-defined]
    for name in ("cogs.bienvenida", "cogs.config", "cogs.liga", "cogs.mesa", "cogs.perfil",
                 "cogs.privacidad"):
        await client.load_extension(name)
    assert attach_mus_commands(client) == 0, "nothing left waiting"
    mus = client.tree.get_command("mus")
    assert isinstance(mus, discord.app_commands.Group)
    assert {"config", "perfil", "olvidarme", "mesa"} <= {c.name for c in mus.commands}
    liga = client.tree.get_command("liga")
    assert isinstance(liga, discord.app_commands.Group)
    assert {c.name for c in liga.commands} == {"crear", "unirse", "temporada", "tabla",
                                               "partidas", "mesa"}
    await client.unload_extension("cogs.perfil")
    assert mus.get_command("perfil") is None
