"""``musbot run``: configuration, guidance without a token, start-up wiring. No gateway."""

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
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from musbot import bot as botmod
from musbot.bot import MusBot, extensions, make_intents, run_bot, run_command
from musbot.config import Config, ConfigError, add_run_arguments, load_config
from musbot.discordio import DYNAMIC_ITEMS


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
    env.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=123\nMUSBOT_DB=/tmp/x.db\n")
    config = load_config(env, environ={})
    assert (config.token, config.dev_guild_id, config.db) == ("from-file", 123, "/tmp/x.db")
    assert "from-file" not in repr(config)
    assert load_config(env, environ={"DISCORD_TOKEN": "real"}).token == "real"
    empty = load_config(None, environ={})
    assert (empty.token, empty.dev_guild_id, empty.db) == (None, None, "data/musbot.db")
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
    assert len(lines) <= 3  # discord.py's «logging in», the sentence, the other warning


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
    config = Config(token="x.y.z", db_path=Path("unused.db"))
    assert run_bot(config, print_fn=printed.append, lang=lang) == 1
    assert printed == [sentence]


def test_intents_are_the_minimum() -> None:
    intents = make_intents()
    assert intents.guilds and intents.guild_messages and intents.dm_messages
    assert intents.message_content
    assert not intents.members and not intents.presences
    assert not make_intents(message_content=False).message_content


def test_every_cog_is_an_extension() -> None:
    names = extensions()
    assert {"cogs.chat", "cogs.mesa"} <= set(names) and names == sorted(names)
    assert not any(name.split(".")[-1].startswith("_") for name in names)


def _flags(**values: bool) -> Any:
    return SimpleNamespace(gateway_message_content=values.get("full", False),
                           gateway_message_content_limited=values.get("limited", False))


async def test_setup_hook_loads_cogs_registers_buttons_and_syncs_to_dev_guild(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bot = MusBot(Config(token="x", dev_guild_id=42), persist=False)
    monkeypatch.setattr(type(bot), "application", SimpleNamespace(flags=_flags(full=True)))
    bot.tree.sync = AsyncMock(return_value=[])  # type: ignore[method-assign]
    copy = MagicMock()
    bot.tree.copy_global_to = copy  # type: ignore[method-assign]
    await bot.setup_hook()
    assert set(bot.extensions) == set(extensions())
    assert bot.get_command("mus") is not None
    assert "mus" in {c.name for c in bot.tree.get_commands()}
    copy.assert_called_once()
    assert copy.call_args.kwargs["guild"].id == 42
    assert bot.tree.sync.await_args.kwargs["guild"].id == 42
    registered = set(bot._connection._view_store._dynamic_items.values())
    assert registered == set(DYNAMIC_ITEMS)
    assert bot.message_content
    await bot.close()


async def test_global_sync_without_dev_guild(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = MusBot(Config(token="x"), persist=False)
    monkeypatch.setattr(type(bot), "application", SimpleNamespace(flags=_flags(limited=True)))
    bot.tree.sync = AsyncMock(return_value=[])  # type: ignore[method-assign]
    await bot.sync_commands()
    assert bot.tree.sync.await_args.kwargs == {}
    await bot.close()


async def test_without_message_content_the_bot_warns_once_and_stops_asking(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    bot = MusBot(Config(token="x"), persist=False)
    monkeypatch.setattr(type(bot), "application", SimpleNamespace(flags=_flags()))
    with caplog.at_level(logging.WARNING, logger="musbot.bot"):
        assert bot.check_message_content() is False
    assert not bot.intents.message_content
    [record] = caplog.records
    assert "Message Content" in record.getMessage()
    await bot.close()


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


async def test_tables_survive_a_restart_through_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from discord_fakes import FakeChannel

    config = Config(token="x", db=str(tmp_path / "sub" / "musbot.db"))
    monkeypatch.setattr(MusBot, "application", SimpleNamespace(flags=_flags(full=True)))
    monkeypatch.setattr(MusBot, "sync_commands", AsyncMock())
    first = MusBot(config)
    await first.setup_hook()
    assert first.persister is not None
    channel = FakeChannel(700)
    table = first.tables.open(700, guild_id=1)
    first.transport.bind(700, channel)  # type: ignore[arg-type]
    await table.join(5, "Ane")
    await table.start(5)
    await first.close()  # suspended and saved, not closed
    assert "Se cierra la mesa." not in channel.contents()

    second = MusBot(config)
    monkeypatch.setattr(second, "get_channel", lambda channel_id: channel)
    await second.setup_hook()
    restored = second.tables.get(700)
    assert restored is not None and restored.seat_of(5) == 0
    await second.on_ready()
    assert channel.sent[-1].embed is not None  # a fresh table message
    assert second.transport.boards[700].message is not None
    await second.close()


async def test_a_database_that_cannot_be_opened_is_logged_without_its_password(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The bot plays on without restart safety, and the log names the database, never the
    password MUSBOT_DB may hold."""
    monkeypatch.setattr(MusBot, "application", SimpleNamespace(flags=_flags(full=True)))
    monkeypatch.setattr(MusBot, "sync_commands", AsyncMock())
    for db in ("postgresql://bot:s3cret@127.0.0.1:1/musbot", "mysql://bot:s3cret@db/musbot"):
        bot = MusBot(Config(token="x", db=db))
        with caplog.at_level(logging.ERROR):
            await bot.setup_hook()
        assert bot.db is None and bot.persister is None
        assert "unavailable" in caplog.text and "s3cret" not in caplog.text
        caplog.clear()
        await bot.close()
