"""``/mus config``, ``/mus olvidarme``, the welcome message, and what people are told when the
database file is locked, damaged or from a newer musbot (real files; nothing may be lost)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from table_helpers import FakeTransport
from test_cogs_liga import (
    ADMIN,
    CHANNEL,
    GUILD,
    MEMBER,
    FakeInteraction,
    Reply,
    call,
    fake_bot,
    invoke,
)

from cogs._common import storage_problem
from cogs.bienvenida import Bienvenida, welcome_channel
from cogs.config import Config, channel_allowed, table_options
from cogs.liga import Liga
from cogs.privacidad import Privacidad
from musbot.engine import Rules
from musbot.storage import (
    SCHEMA_VERSION,
    CorruptDatabase,
    Database,
    DatabaseTooNew,
    ServerSettings,
)
from musbot.table import TableManager


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Any]:
    made = await fake_bot(tmp_path / "musbot.db")
    yield made
    await made.db.close()


async def configure(cog: Config, interaction: FakeInteraction, **options: Any) -> str:
    await invoke(cog.command, interaction, **options)
    reply = interaction.reply
    assert reply.ephemeral, "settings are answered privately"
    return reply.text


# --- /mus config --------------------------------------------------------------------------------


async def test_config_needs_manage_server(bot: Any) -> None:
    text = await configure(Config(bot), FakeInteraction(permissions=MEMBER), reyes=4)
    assert "Gestionar servidor" in text
    assert await bot.db.server_settings(GUILD) == ServerSettings()


async def test_config_shows_and_changes_every_setting(bot: Any) -> None:
    cog = Config(bot)
    shown = await configure(cog, FakeInteraction(permissions=ADMIN))
    assert "8 reyes · a 40 tantos · 3 juegos por vaca" in shown
    assert "Canales para mesas: todos" in shown and "Idioma: español" in shown
    channel = SimpleNamespace(id=555)
    text = await configure(cog, FakeInteraction(permissions=ADMIN), reyes=4, puntos=30,
                           juegos=2, vacas=3, real=True, corrido=True, senas=False,
                           sena_cazada=25, tiempo=90, idioma="en", permitir_canal=channel)
    assert text.startswith("Saved.") and "4 reyes · to 30 tantos" in text
    assert "Table channels: <#555>" in text and "Turn timer: 90 s" in text
    settings = await bot.db.server_settings(GUILD)
    assert settings.rules == Rules(reyes=4, puntos=30, juegos=2, vacas=3, real=True,
                                   mus_corrido=True, senas=False, sena_cazada=0.25)
    assert settings.language == "en" and settings.allowed_channels == {555}
    options = table_options(settings)
    assert options == {"rules": settings.rules, "lang": "en", "turn_seconds": 90.0}
    assert channel_allowed(settings, SimpleNamespace(id=555))
    assert channel_allowed(settings, SimpleNamespace(id=777, parent_id=555)), "a thread"
    assert not channel_allowed(settings, SimpleNamespace(id=777))
    text = await configure(cog, FakeInteraction(permissions=ADMIN), tiempo=0,
                           quitar_canal=channel)
    settings = await bot.db.server_settings(GUILD)
    assert "Turn timer: none" in text and table_options(settings)["turn_seconds"] is None
    assert channel_allowed(settings, SimpleNamespace(id=777))


async def test_bad_settings_are_refused_and_nothing_changes(bot: Any) -> None:
    cog = Config(bot)
    text = await configure(cog, FakeInteraction(permissions=ADMIN), tiempo=5)
    assert "0 (sin límite) o de 15 a 600" in text
    assert await bot.db.server_settings(GUILD) == ServerSettings()


async def test_open_tables_keep_their_rules(bot: Any) -> None:
    cog = Config(bot)
    await configure(cog, FakeInteraction(permissions=ADMIN), reyes=4)
    settings = await bot.db.server_settings(GUILD)
    table = bot.tables.open(CHANNEL, guild_id=GUILD, **table_options(settings))
    await configure(cog, FakeInteraction(permissions=ADMIN), reyes=8, puntos=30)
    assert table.rules.reyes == 4 and table.rules.puntos == 40
    assert "4 reyes" in table.status()


# --- /mus olvidarme -----------------------------------------------------------------------------


async def test_forget_me_asks_first_then_scrubs_everything(bot: Any) -> None:
    cog = Privacidad(bot)
    league = await bot.db.create_league(GUILD, "Otoño")
    await bot.db.join_league(league.league_id, 1, "Ana Secreta")
    table = bot.tables.open(CHANNEL, Rules(), guild_id=GUILD)
    await table.join(1, "Ana Secreta")
    ask = FakeInteraction()
    await invoke(cog.command, ask)
    assert ask.reply.ephemeral and "confirmar:True" in ask.reply.text
    assert table.names()[0] == "Ana Secreta"
    done = FakeInteraction()
    await invoke(cog.command, done, confirmar=True)
    assert done.reply.ephemeral and "te ha olvidado" in done.reply.text
    assert table.names()[0] == "Jugador 1"
    assert await bot.db.player_name(1) is None
    assert await bot.db.league_members(league.league_id) == []
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and "Ana Secreta" not in str(saved.state)
    nobody = FakeInteraction(user_id=404)
    await invoke(cog.command, nobody, confirmar=True)
    assert nobody.reply.ephemeral and "no guarda nada tuyo" in nobody.reply.text


# --- welcome ------------------------------------------------------------------------------------


def channel(channel_id: int, position: int, *, writable: bool) -> Any:
    permissions = discord.Permissions(view_channel=True, send_messages=writable)
    sent: list[str] = []

    async def send(text: str, **_: Any) -> None:
        sent.append(text)

    return SimpleNamespace(id=channel_id, position=position, sent=sent, send=send,
                           permissions_for=lambda member: permissions)


def guild(system: Any, channels: list[Any], locale: str = "es-ES") -> Any:
    return SimpleNamespace(id=GUILD, me=object(), system_channel=system, text_channels=channels,
                           preferred_locale=locale)


async def test_welcome_prefers_the_system_channel() -> None:
    cog = Bienvenida(SimpleNamespace())  # type: ignore[arg-type]
    system, general = channel(1, 5, writable=True), channel(2, 0, writable=True)
    await cog.on_guild_join(guild(system, [general, system]))
    assert len(system.sent) == 1 and "/mus mesa" in system.sent[0] and not general.sent
    muted = channel(1, 5, writable=False)
    later, first, closed = (channel(3, 2, writable=True), channel(4, 1, writable=True),
                            channel(5, 0, writable=False))
    await cog.on_guild_join(guild(muted, [later, closed, first], locale="en-US"))
    assert first.sent and "Open a table" in first.sent[0]
    assert not later.sent and not muted.sent and not closed.sent
    assert welcome_channel(guild(None, [closed])) is None


# --- the database file: locked, damaged, too new ------------------------------------------------


async def test_locked_database_is_explained_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    db = await Database.open(path, busy_timeout=0.1)
    await db.create_league(GUILD, "Otoño")
    client: Any = SimpleNamespace(db=db, tables=TableManager(FakeTransport()))
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process writing for a long time
        interaction = FakeInteraction(permissions=ADMIN)
        await call(Liga.crear, Liga(client), interaction, nombre="Primavera")
        reply = interaction.reply
        assert reply.ephemeral
        assert "ocupada" in reply.text and "No se ha perdido nada" in reply.text
    finally:
        other.execute("ROLLBACK")
        other.close()
    interaction = FakeInteraction(permissions=ADMIN)
    await call(Liga.crear, Liga(client), interaction, nombre="Primavera")
    assert "creada" in interaction.reply.text
    assert [lg.name for lg in await db.leagues(GUILD)] == ["Otoño", "Primavera"]
    await db.close()


async def test_damaged_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    with pytest.raises(CorruptDatabase) as problem:
        await Database.open(path)
    assert path.read_bytes() == before
    assert "dañada" in storage_problem(problem.value)
    assert "damaged" in storage_problem(problem.value, "en")


async def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    db = await Database.open(path)
    await db.create_league(GUILD, "Otoño")
    await db.close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                     (SCHEMA_VERSION + 1, "future", "2030-01-01"))
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNew) as problem:
        await Database.open(path)
    assert path.read_bytes() == before
    assert "versión más nueva" in storage_problem(problem.value)


async def test_commands_explain_a_database_that_could_not_be_opened() -> None:
    client: Any = SimpleNamespace(db=None, tables=TableManager(FakeTransport()))
    runs: list[Callable[[FakeInteraction], Awaitable[Reply]]] = [
        lambda i: call(Liga.crear, Liga(client), i, nombre="Otoño"),
        lambda i: call(Liga.tabla, Liga(client), i, nombre="Otoño"),
        lambda i: invoke(Config(client).command, i),
        lambda i: invoke(Privacidad(client).command, i, confirmar=True),
    ]
    for run in runs:
        interaction = FakeInteraction(permissions=ADMIN)
        reply = await run(interaction)
        assert reply.ephemeral and "no se pudo abrir al arrancar" in reply.text
