"""``musbot run``: the Discord bot process.

:class:`MusBot` owns one :class:`~musbot.table.TableManager` and its
:class:`~musbot.discordio.DiscordTransport`; the cogs in ``cogs/`` (loaded in :meth:`setup_hook`)
only translate Discord input into table calls. Without the privileged message content intent
the bot still plays through buttons and slash commands, and says so once at start-up.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import pkgutil
from collections.abc import Callable

import discord
from discord.ext import commands

from musbot.config import Config, ConfigError, add_run_arguments, config_from_args
from musbot.discordio import DYNAMIC_ITEMS, DiscordTransport
from musbot.discordio.texts import dt
from musbot.runtime import collect_periodically, tune_gc
from musbot.storage import Database
from musbot.table import Clock, TableManager
from musbot.table.persist import TablePersister, start_persistence

log = logging.getLogger(__name__)

COMMAND_PREFIX = "!"
BOT_DELAY = 1.2
"""Seconds a bot «thinks» at a Discord table, so people can follow the moves."""
CLOSING_EDITS_SECONDS = 5.0
"""How long a shutdown without persistence waits for the tables' last edits («Mesa cerrada»)."""

__all__ = ["MusBot", "add_run_arguments", "extensions", "make_intents", "run_bot",
           "run_command"]


def make_intents(message_content: bool = True) -> discord.Intents:
    """Only what the bot uses: servers and channels, guild and DM messages, and (privileged)
    the text of guild messages, for moves typed in the channel."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = message_content
    return intents


def extensions() -> list[str]:
    """Every module in ``cogs/`` (one per feature), in name order."""
    import cogs

    return sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)
                  if not m.name.startswith("_"))


def attach_mus_commands(bot: commands.Bot) -> None:
    """Other cogs add ``/mus`` subcommands that wait for the group of ``cogs.mesa``; whatever
    order the extensions loaded in, attach what is still waiting."""
    try:
        from cogs._common import attach_mus_commands as attach
    except ImportError:
        return
    attach(bot)


class MusBot(commands.Bot):
    def __init__(self, config: Config, *, message_content: bool = True,
                 clock: Clock | None = None, persist: bool = True) -> None:
        super().__init__(command_prefix=commands.when_mentioned_or(COMMAND_PREFIX),
                         intents=make_intents(message_content), help_command=None,
                         allowed_mentions=discord.AllowedMentions(everyone=False, roles=False))
        self.config = config
        self.transport = DiscordTransport(self, clock=clock)
        self.tables = TableManager(self.transport, clock=clock, bot_delay=BOT_DELAY)
        self.transport.tables = self.tables
        self.persist = persist
        """Save every table after each change and restore them at start-up (MUSBOT_DB)."""
        self.db: Database | None = None
        self.persister: TablePersister | None = None
        self.tune_runtime = False
        """Tune the process's garbage collector after start-up (:func:`musbot.runtime.tune_gc`):
        set by ``musbot run``, which owns the process; tests leave theirs alone."""
        self._restored_announced = False
        self._collector: asyncio.Task[None] | None = None

    @property
    def message_content(self) -> bool:
        """Whether typed moves can be read (the privileged intent is requested and granted)."""
        return self.intents.message_content

    async def setup_hook(self) -> None:
        self.check_message_content()
        if self.persist:
            await self.open_storage()
        for name in extensions():
            await self.load_extension(name)
        attach_mus_commands(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()
        if self.tune_runtime:
            tune_gc()  # start-up is over: what exists now lives as long as the process
            self._collector = asyncio.get_running_loop().create_task(collect_periodically())

    def check_message_content(self) -> bool:
        """After login, before the gateway: if the portal does not grant the message content
        intent, stop asking for it (asking would close the connection with 4014) and warn once."""
        app = self.application
        flags = app.flags if app is not None else None
        granted = flags is None or flags.gateway_message_content or \
            flags.gateway_message_content_limited
        if self.intents.message_content and not granted:
            # discord.py has no public setter once the client exists; IDENTIFY reads this value.
            self._connection._intents.message_content = False
        if not self.message_content:
            log.warning(dt("intent_missing"))
        return self.message_content

    async def sync_commands(self) -> None:
        """To DEV_GUILD_ID at once while developing; globally (can take a while) otherwise."""
        guild_id = self.config.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def open_storage(self) -> None:
        """Opens MUSBOT_DB and restores the saved tables, silently: channels cannot be reached
        before the gateway is ready (see :meth:`on_ready`). A database that cannot be opened
        leaves the bot playing without restart safety, and says so."""
        where = "MUSBOT_DB"  # until it is known to name a database: it may hold a password
        try:
            db = Database(self.config.db)
            where = db.where
            await db.connect()
            self.db = db
            self.persister = await start_persistence(self.db, self.tables, announce=False)
        except Exception:
            log.exception("database %s unavailable: tables will not survive a restart", where)
            self.persister = None

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if self.persister is not None and not self._restored_announced:
            self._restored_announced = True  # on_ready comes again after every reconnection
            await self.announce_restored()

    async def announce_restored(self) -> None:
        """«Mesa restaurada» in each restored table's channel, and a fresh table message there
        (the old one's buttons still work, but it is no longer edited)."""
        assert self.persister is not None
        await self.persister.announce_restored()
        for table in self.tables:
            board = self.transport.boards.get(table.channel_id)
            if board is not None and board.message is not None:
                continue
            try:
                await self.transport.announce(table.channel_id)
            except Exception:
                log.warning("cannot post the table message in channel %s", table.channel_id,
                            exc_info=True)

    async def close(self) -> None:
        """With persistence the tables are suspended (saved, timers stopped) to go on after the
        restart; without it they are closed with a goodbye."""
        if self._collector is not None:
            self._collector.cancel()
        try:
            if self.persister is not None:
                self.tables.suspend_all()
                self.transport.cancel_edits()  # the restart announces every table anyway
            else:
                await self.tables.close_all()
                # «Mesa cerrada» on each table message, within its edit interval.
                await asyncio.wait_for(self.transport.flush(), CLOSING_EDITS_SECONDS)
        except Exception:
            log.warning("stopping tables failed", exc_info=True)
        if self.db is not None:
            try:
                await self.db.close()
            except Exception:
                log.warning("closing the database failed", exc_info=True)
            self.db = None
        await super().close()


async def _serve(config: Config, make: Callable[..., MusBot] = MusBot) -> None:
    """Runs until stopped; retried once without message content if the gateway refuses it."""
    for message_content in (True, False):
        bot = make(config, message_content=message_content)
        bot.tune_runtime = make is MusBot  # the real process; never a test's stand-in
        try:
            async with bot:
                await bot.start(config.token or "")
            return
        except discord.PrivilegedIntentsRequired:
            # The portal's flags said yes but the gateway says no; the next bot's
            # check_message_content() gives the one warning.
            if not message_content:
                raise


def run_bot(config: Config, *, print_fn: Callable[[str], None] = print) -> int:
    """The exit status of ``musbot run``: guidance (and 0) without a token, else the bot."""
    if not config.token:
        print_fn(dt("no_token"))
        return 0
    discord.utils.setup_logging()
    # At DEBUG discord.http logs request bodies, DMs included: those hold cards. Never below INFO.
    http_log = logging.getLogger("discord.http")
    http_log.setLevel(max(http_log.getEffectiveLevel(), logging.INFO))
    try:
        asyncio.run(_serve(config))
    except discord.LoginFailure:
        print_fn(dt("bad_token"))
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def run_command(args: argparse.Namespace) -> int:
    """``musbot run`` from parsed arguments (see :func:`musbot.config.add_run_arguments`)."""
    try:
        config = config_from_args(args)
    except ConfigError as problem:
        print(dt("bad_config", error=problem))
        return 2
    return run_bot(config)
