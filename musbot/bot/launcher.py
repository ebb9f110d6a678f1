"""``musbot run``: the process around the bot. What it decides before the bot exists (the
configuration, where the database is, the log), what it serves beside it (the metrics and
``/healthz``), and how it stops (SIGTERM as Ctrl-C: every table saved, the database closed).
The bot itself is :class:`~musbot.bot.client.MusBot`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from musbot.config import Config, ConfigError, base_text, check_database, config_from_args
from musbot.console import cli_language, connection_problem
from musbot.i18n import CLI, DISCORD
from musbot.logs import setup_logging

from .client import PICTURES, MusBot, make_bot

if TYPE_CHECKING:
    from musbot.metrics import Metrics, MetricsServer

log = logging.getLogger(__package__)  # the bot's log, one name for all of it

__all__ = ["STOP_SIGNALS", "run_bot", "run_command", "start_metrics", "stop_on_signals"]


STOP_SIGNALS = (signal.SIGTERM,)
"""What ``systemctl stop`` sends. SIGINT (Ctrl-C) already stops the bot the same way: asyncio
cancels the main task, and ``async with bot`` closes it."""


def stop_on_signals(bot: MusBot) -> Callable[[], None]:
    """SIGTERM closes ``bot`` as Ctrl-C does (:meth:`MusBot.close`: every table suspended, which
    was saved with its last move, and the database closed, its log copied into the file), instead
    of the process dying mid-call; the next start restores the tables. Returns what takes the
    handler away again."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop(signum: int) -> None:
        if closing:
            return
        log.warning("%s: saving the tables and stopping", signal.Signals(signum).name)
        closing.append(loop.create_task(bot.close()))

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)

    def remove() -> None:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)

    return remove


def _readings(current: list[MusBot]) -> Any:
    """The figures a bot keeps anyway, read from whichever bot runs now (see ``_serve``)."""
    from musbot.metrics import LiveReadings

    return LiveReadings(tables=lambda: len(current[-1].tables) if current else 0,
                    queued=lambda: current[-1].transport.governor.queued() if current else 0,
                    answers=lambda: current[-1].transport.guard.answers if current else {},
                    not_sent=lambda: current[-1].transport.guard.not_sent if current else 0,
                    gateway=lambda: current[-1].latency if current else None)


def _health(current: list[MusBot]) -> tuple[bool, str]:
    """Well: connected to Discord's gateway, and the database takes saves."""
    if not current or current[-1].is_closed():
        return False, "stopped"
    bot = current[-1]
    if not bot.is_ready():
        return False, "connecting"
    if not bot.storage_ready:
        return False, "database unavailable"
    return True, "ok"


async def start_metrics(config: Config, current: list[MusBot]
                        ) -> tuple[Metrics | None, MetricsServer | None]:
    """MUSBOT_METRICS: the registry, served at its address (None, None when not set)."""
    if config.metrics is None:
        return None, None
    from musbot.config import address
    from musbot.metrics import Metrics, MetricsServer

    metrics = Metrics()
    metrics.registry.register(_readings(current))
    server = MetricsServer(metrics, lambda: _health(current))
    host, port = address(config.metrics)
    bound = await server.start(host, port)
    log.info("metrics at http://%s:%d/metrics (and /healthz)", *bound)
    return metrics, server


async def _serve(config: Config, make: Callable[..., MusBot] = make_bot) -> None:
    """Runs until stopped (SIGTERM or Ctrl-C); retried once without message content if the
    gateway refuses it."""
    # discord.py warns at every start that PyNaCl and davey (voice) are missing; a bot without
    # voice needs neither. These flags are its own «already warned»: nothing else is muted.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    current: list[MusBot] = []
    metrics, server = await start_metrics(config, current)
    try:
        for message_content in (True, False):
            extra = {"metrics": metrics} if metrics is not None else {}
            bot = make(config, message_content=message_content, **extra)
            bot.tune_runtime = make is make_bot  # the real process; never a test's stand-in
            bot.sync_card_emojis = True
            if make is make_bot:  # the pictures drawn on the other core, ready at once
                bot.transport.draw = PICTURES
                PICTURES.start()
            current.append(bot)
            remove = stop_on_signals(bot)
            try:
                async with bot:
                    await bot.start(config.token or "")
                return
            except discord.PrivilegedIntentsRequired:
                # The portal's flags said yes but the gateway says no; the next bot's
                # check_message_content() gives the one warning.
                if not message_content:
                    raise
            finally:
                remove()
    finally:
        if server is not None:
            await server.stop()


def run_bot(config: Config, *, print_fn: Callable[[str], None] | None = None,
            lang: str = "es", database: str | None = None) -> int:
    """The exit status of ``musbot run``: guidance and 2 without a token; 1 when Discord cannot
    be reached or refuses the token, or the metrics' address cannot be served, in one sentence;
    else the bot, until stopped (0). A connection lost later is discord.py's to retry, as it
    does. ``database``: the start-up line that says which database it opens."""
    import sys

    import aiohttp


    def say(text: str) -> None:
        if print_fn is None:
            print(text, file=sys.stderr)
        else:
            print_fn(text)

    if not config.token:
        say(DISCORD("no_token", lang))
        return 2
    setup_logging(config.log_level, config.log_format)
    if database is not None:
        logging.getLogger("musbot").info("%s", database)
    try:
        asyncio.run(_serve(config))
    except discord.LoginFailure:
        say(DISCORD("bad_token", lang))
        return 1
    except (aiohttp.ClientConnectionError, TimeoutError) as problem:
        say(connection_problem(problem, lang))
        return 1
    except OSError as problem:  # the metrics' address taken, or not this machine's
        say(CLI("metrics_failed", lang, address=config.metrics,
                reason=problem.strerror or problem))
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def run_command(args: argparse.Namespace) -> int:
    """``musbot run`` from parsed arguments (see :func:`musbot.config.add_run_arguments`), in
    the run's language (:func:`musbot.console.cli_language`). Where the database is, is
    checked once there is a token, before anything else: a missing directory or a file this
    user cannot write is one sentence and exit 2, never a new, empty database somewhere else."""
    import sys


    lang = getattr(args, "idioma", None) or cli_language()
    try:
        config = config_from_args(args)
        if not config.token:
            return run_bot(config, lang=lang)  # how to get one comes first
        exists = check_database(config, lang)
    except ConfigError as problem:
        print(DISCORD("bad_config", lang, error=problem.message(lang)), file=sys.stderr)
        return 2
    if exists is None:
        from musbot.storage.database import backend_for

        database = CLI("db_where_server", lang, db=backend_for(config.db).where)
    else:
        database = CLI("db_where" if exists else "db_where_new", lang, db=config.db,
                       base=base_text(config, lang))
    return run_bot(config, lang=lang, database=database)
