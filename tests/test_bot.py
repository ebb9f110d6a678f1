"""``musbot run``: configuration, guidance without a token, start-up wiring (through the wire
double: what the bot asks of Discord at login, command sync, the intents it requests)."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from wire import FakeDiscord

from musbot.bot import MusBot, extensions, make_intents, run_bot, run_command
from musbot.bot import launcher as botmod
from musbot.config import Config, ConfigError, add_run_arguments, load_config
from musbot.discordio import DYNAMIC_ITEMS
from musbot.discordio.venue import DeadlineChoice, NewPlace, ResultAnswer
from musbot.table import ManualClock


def test_run_bot_without_token_prints_guidance_and_returns_2() -> None:
    printed: list[str] = []
    assert run_bot(Config(token=None), print_fn=printed.append) == 2
    [text] = printed
    assert "discord.com/developers/applications" in text
    assert "Message Content Intent" in text
    assert "musbot play" in text


def test_run_command_without_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """No token anywhere (no .env here, none in the environment): guidance on standard error
    and exit status 2, an error like any other."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    parser = argparse.ArgumentParser()
    add_run_arguments(parser, "es")
    assert run_command(parser.parse_args([])) == 2
    captured = capsys.readouterr()
    assert "Falta DISCORD_TOKEN" in captured.err and captured.out == ""


def test_bad_dev_guild_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=mi-servidor\n")
    with pytest.raises(ConfigError):
        load_config(env, environ={})
    args = argparse.Namespace(env_file=str(env), dev_guild=None, idioma="es")
    assert run_command(args) == 2
    assert capsys.readouterr().err == (
        "Configuración no válida: DEV_GUILD_ID debe ser el id de un servidor (un número), "
        "no «mi-servidor»\n")
    args.idioma = "en"
    assert run_command(args) == 2
    assert capsys.readouterr().err == (
        "Invalid configuration: DEV_GUILD_ID must be a server id (a number), not «mi-servidor»\n")


def test_load_config_reads_env_file_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=123456789012345678\nMUSBOT_DB=/tmp/x.db\n")
    config = load_config(env, environ={})
    assert (config.token, config.dev_guild_id, config.db) == \
        ("from-file", 123456789012345678, "/tmp/x.db")
    assert "from-file" not in repr(config)
    assert load_config(env, environ={"DISCORD_TOKEN": "real"}).token == "real"
    empty = load_config(None, environ={})
    assert (empty.token, empty.dev_guild_id, empty.db) == \
        (None, None, str(Path.cwd() / "data" / "musbot.db"))
    secret = load_config(None, environ={"MUSBOT_DB": "postgresql://bot:s3cret@db/musbot"})
    assert secret.db == "postgresql://bot:s3cret@db/musbot" and "s3cret" not in repr(secret)


REPO = Path(__file__).resolve().parent.parent

NO_ROUTE = """
import logging, socket, sys
import discord.http
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()  # nothing listens there now: every connection is refused, no network needed
discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
from musbot.cli import main
status = main(sys.argv[1:])
logging.getLogger("discord.client").warning("otro aviso")
sys.exit(status)
"""


def test_run_without_a_route_to_discord_says_so_in_one_sentence(tmp_path: Path) -> None:
    """A real ``musbot run`` with a token, whose login cannot connect: 87 lines of aiohttp
    traceback before; now one sentence, exit 1. The two voice warnings of every start (PyNaCl,
    davey) are gone, and only they: a later discord.py warning is still shown."""
    env = {**os.environ, "DISCORD_TOKEN": "x.y.z", "LANG": "C.UTF-8", "PYTHONPATH": str(REPO),
           "MUSBOT_DB": str(tmp_path / "musbot.db")}
    done = subprocess.run([sys.executable, "-c", NO_ROUTE, "run"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr and "aiohttp" not in done.stderr
    assert "PyNaCl" not in done.stderr and "davey" not in done.stderr
    lines = done.stderr.splitlines()
    assert "No se puede conectar con 127.0.0.1: conexión rechazada." in lines
    assert lines[-1].endswith("otro aviso")
    # The database it opens, discord.py's «logging in», the sentence, the other warning.
    assert lines[0].endswith(f"INFO     musbot: base de datos {tmp_path / 'musbot.db'}, nueva: "
                             f"se crea ahora (rutas relativas desde el directorio de trabajo "
                             f"({tmp_path}), pues no hay .env)")
    assert len(lines) <= 4


async def _no_dns(self: MusBot, token: str, *, reconnect: bool = True) -> None:
    import aiohttp

    key = SimpleNamespace(host="discord.com", port=443, ssl=True)
    raise aiohttp.ClientConnectorDNSError(key, socket.gaierror(-2, "Name or service not known"))


@pytest.mark.parametrize(("lang", "sentence"), [
    ("es", "No se puede conectar con discord.com: no se encuentra ese nombre (¿hay conexión a "
           "internet?)."),
    ("en", "Cannot connect to discord.com: that name cannot be found (is there an internet "
           "connection?)."),
])
def test_run_without_name_resolution_says_so_in_one_sentence(
        monkeypatch: pytest.MonkeyPatch, lang: str, sentence: str) -> None:
    """The newcomer's case: ``ClientConnectorDNSError`` at login (the client's start fails)."""
    monkeypatch.setattr(MusBot, "start", _no_dns)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)
    printed: list[str] = []
    config = Config(token="x.y.z", db="unused.db")
    assert run_bot(config, print_fn=printed.append, lang=lang) == 1
    assert printed == [sentence]


def test_intents_are_the_minimum() -> None:
    intents = make_intents()
    assert intents.guilds and intents.guild_messages and intents.dm_messages
    assert intents.message_content
    assert not intents.members and not intents.presences
    assert not make_intents(message_content=False).message_content


def test_every_cog_is_an_extension_and_the_table_cog_loads_first() -> None:
    names = extensions()
    assert {"cogs.chat", "cogs.mesa"} <= set(names)
    assert names[0] == "cogs.mesa", "it owns /mus, which the other feature cogs join"
    assert names[1:] == sorted(names[1:])
    assert not any(name.split(".")[-1].startswith("_") for name in names)


async def _connected(world: FakeDiscord, config: Config, **options: Any) -> MusBot:
    bot = MusBot(config, clock=world.clock, **options)  # type: ignore[arg-type]
    await world.connect(bot)
    return bot


async def test_start_up_syncs_one_mus_group_to_the_dev_guild_and_registers_the_buttons() -> None:
    world = FakeDiscord(ManualClock())
    guild = world.add_guild("Txoko")
    bot = await _connected(world, Config(token="x", dev_guild_id=guild), persist=False)
    [sync] = [c for c in world.calls if c.route.startswith("PUT /applications")]
    assert sync.route == "PUT /applications/{application_id}/guilds/{guild_id}/commands"
    assert str(guild) in sync.path
    names = {command["name"]: command for command in sync.json}
    assert {"mus", "liga", "musadmin"} <= set(names)
    subcommands = {option["name"] for option in names["mus"]["options"]}
    assert {"mesa", "unirse", "empezar", "perfil", "olvidarme"} <= subcommands
    assert "config" in {option["name"] for option in names["musadmin"]["options"]}
    assert set(bot.extensions) == set(extensions())
    assert set(bot._connection._view_store._dynamic_items.values()) == \
        {*DYNAMIC_ITEMS, NewPlace, ResultAnswer, DeadlineChoice}, \
        "the tables' buttons and the tournaments' own"
    assert bot.message_content
    await world.disconnect(bot)


async def test_without_a_dev_guild_commands_sync_globally() -> None:
    world = FakeDiscord(ManualClock(), limited=True)
    world.add_guild("Txoko")
    bot = await _connected(world, Config(token="x"), persist=False)
    routes = [c.route for c in world.calls if c.route.startswith("PUT /applications")]
    assert routes == ["PUT /applications/{application_id}/commands"]
    assert bot.message_content, "the limited flag (an unverified bot) grants it too"
    await world.disconnect(bot)


async def test_without_message_content_the_bot_warns_once_and_stops_asking(
        caplog: pytest.LogCaptureFixture) -> None:
    """The portal does not grant the intent: asking for it would close the gateway (4014,
    which the double raises as discord.py does); the bot stops asking, says so once, and still
    plays through buttons and slash commands."""
    world = FakeDiscord(ManualClock(), message_content=False)
    world.add_guild("Txoko")
    with caplog.at_level(logging.WARNING, logger="musbot.bot"):
        bot = await _connected(world, Config(token="x"), persist=False)
    assert not bot.intents.message_content
    [record] = [r for r in caplog.records if r.name == "musbot.bot"]
    assert "Message Content" in record.getMessage()
    await world.disconnect(bot)


async def test_privileged_intent_refusal_retries_without_it() -> None:
    made: list[bool] = []

    class Fake:
        def __init__(self, config: Config, *, message_content: bool) -> None:
            made.append(message_content)
            self.message_content = message_content

        async def __aenter__(self) -> Fake:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def start(self, token: str) -> None:
            if self.message_content:
                raise discord.PrivilegedIntentsRequired(None)

    await botmod._serve(Config(token="x"), make=Fake)  # type: ignore[arg-type]
    assert made == [True, False]


async def test_a_database_that_cannot_be_opened_is_logged_without_its_password(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The bot keeps trying (opening no table meanwhile), and the log names the database,
    never the password MUSBOT_DB may hold."""
    for db in ("postgresql://bot:s3cret@127.0.0.1:1/musbot", "mysql://bot:s3cret@db/musbot"):
        world = FakeDiscord(ManualClock())
        world.add_guild("Txoko")
        with caplog.at_level(logging.WARNING):
            bot = await _connected(world, Config(token="x", db=db))
        assert bot.db is None and bot.persister is not None and not bot.persister.connected
        assert not bot.storage_ready
        assert "unavailable" in caplog.text and "s3cret" not in caplog.text
        caplog.clear()
        await world.disconnect(bot)
