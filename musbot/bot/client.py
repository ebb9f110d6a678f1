"""The Discord bot: :class:`MusBot` owns one :class:`~musbot.table.TableManager` and its
:class:`~musbot.discordio.DiscordTransport`; the cogs in ``cogs/`` (loaded in :meth:`setup_hook`)
only translate Discord input into table calls. Without the privileged message content intent
the bot still plays through buttons and slash commands, and says so once at start-up.

What it is built from, each given what it uses: the transport, the table manager, the storage
start-up and the restored tables asleep (``storage.py``), the idle tables' sweeper
(``musbot.discordio.idle``). Once the database is open the bot dispatches ``storage_open``: what
else reads the database at start-up (the cogs' listeners ``on_storage_open``, the tournaments'
runner) waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import pkgutil
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from musbot.ai import warm
from musbot.coach.reviewer import REVIEWER
from musbot.config import Config
from musbot.discordio import DYNAMIC_ITEMS, DiscordTransport
from musbot.discordio.card_emojis import CardEmojis
from musbot.discordio.direct import DirectMessages
from musbot.discordio.failures import refuse_forged, report
from musbot.discordio.governor import Limits
from musbot.discordio.idle import IdleTables
from musbot.discordio.locales import hear
from musbot.discordio.markup import NO_MENTIONS
from musbot.discordio.relay import Relay
from musbot.discordio.translator import CatalogueTranslator
from musbot.discordio.venue import DiscordVenue
from musbot.i18n import DISCORD, compile_all
from musbot.pictures.worker import Drawer
from musbot.runtime import collect_periodically, tune_gc
from musbot.storage import Database, DatabaseClosed, ServerSettings, StorageError
from musbot.table import Clock, RealClock, Table, TableManager
from musbot.table.persist import TablePersister
from musbot.tournament.live import TournamentRunner, wall_clock

from .storage import Sleepers, StorageStart

if TYPE_CHECKING:
    from musbot.metrics import Metrics

log = logging.getLogger(__package__)  # the bot's log, one name for all of it

COMMAND_PREFIX = "!"
BOT_DELAY = 1.2
"""Seconds a bot «thinks» at a Discord table, so people can follow the moves."""
CLOSING_EDITS_SECONDS = 5.0
"""How long a shutdown without persistence waits for the tables' last edits («Mesa cerrada»)."""
CLOSING_READINGS_SECONDS = 5.0
"""How long a shutdown with persistence waits to store what the tables' bots learnt of their
people since the last store (``TablePersister.store_readings``)."""
PICTURES = Drawer()
"""The running bot's worker for pictures (``musbot.pictures.worker``)."""
CLOSING_REVIEWS_SECONDS = 3.0
"""How long a shutdown waits for the reviews in flight to be answered that they cannot be."""
FIRST_EXTENSION = "cogs.mesa"
"""Owns the ``/mus`` group, to which the other feature cogs add their subcommands."""

__all__ = ["BOT_DELAY", "PICTURES", "MusBot", "ShardedMusBot", "extensions", "make_bot",
           "make_intents"]


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
    """Every module in ``cogs/`` (one per feature): the table's first (it owns ``/mus``), the
    others in name order."""
    import cogs

    names = sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)
                   if not m.name.startswith("_"))
    return [FIRST_EXTENSION, *(n for n in names if n != FIRST_EXTENSION)]


class MusTree(app_commands.CommandTree[Any]):
    """The bot's command tree: every slash command and autocomplete hears its author first
    (their client's language, their saved choice), so that its answers are in their
    language (``discordio/locales.py``)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        try:
            await hear(interaction)
        except Exception:  # hearing a language must never leave a command unanswered
            log.exception("the language of interaction %s could not be read", interaction.id)
        return not await refuse_forged(interaction)  # options as the command declares them


class MusBot(commands.Bot):
    def __init__(self, config: Config, *, message_content: bool = True,
                 clock: Clock | None = None, persist: bool = True,
                 bot_delay: float = BOT_DELAY, table_defaults: dict[str, Any] | None = None,
                 wall: Callable[[], datetime] | None = None,
                 metrics: Metrics | None = None, **options: Any) -> None:
        """``table_defaults``: more keyword arguments for the table manager (a seeded
        ``shuffler`` and ``rng`` make a test's deals and bots the same on every run).
        ``wall``: the date and time tournaments are stamped with (default: now, moving with
        ``clock``); a test that restarts its bot on a fake clock passes one that restarts
        with it. ``metrics``: counts the bot's moves, saves and Discord calls
        (``musbot.metrics``)."""
        if metrics is not None:
            options.setdefault("http_trace", metrics.trace())
        self._asked = make_intents(message_content)
        """The intents this bot asks for: the object it hands discord.py, which sends it at
        IDENTIFY (:meth:`check_message_content` may take one back before that)."""
        super().__init__(command_prefix=commands.when_mentioned_or(COMMAND_PREFIX),
                         intents=self._asked, help_command=None,
                         allowed_mentions=NO_MENTIONS, tree_cls=MusTree,
                         **options)
        self.config = config
        self.clock: Clock = clock or RealClock()
        self.wall = wall
        self.metrics = metrics
        limits = Limits().share(len(config.own_shards), config.shard_count) \
            if config.shard_count is not None else None
        self.transport = DiscordTransport(self, clock=clock, limits=limits,
                                          waited=metrics.waited if metrics else None)
        self.persist = persist
        """Save every table after each change and restore them at start-up (MUSBOT_DB)."""
        self.persister: TablePersister | None = TablePersister() if persist else None
        saving = self.persister if self.persister is None or metrics is None \
            else metrics.persist(self.persister)
        self.tables = TableManager(self.transport, clock=clock, bot_delay=bot_delay,
                                   persist=saving, **(table_defaults or {}))
        self.sleepers = Sleepers(self, self.tables, self.transport)
        """Restored tables not resumed yet, woken with their channels (``storage.py``)."""
        self.storage: StorageStart | None = None if self.persister is None else StorageStart(
            config, self.persister, self.tables, self.sleepers, self.clock,
            ready=self.is_ready, opened=self._storage_opened, metrics=metrics)
        """Opens the database at start-up, again and again while it cannot be reached."""
        self.dms = DirectMessages(self.tables, self.transport, self.sleepers.awake)
        """Words sent by DM to this process's tables (``discordio/direct.py``)."""
        self.idle = IdleTables(self.tables, self.transport.boards, self.transport.clock,
                               asleep=self.sleepers.asleep, minutes=self.idle_minutes)
        """Closes the tables where nothing happens (``discordio/idle.py``)."""
        self.relay: Relay | None = None
        """Sharded on PostgreSQL: DMs for tables of other processes' shards (``relay.py``)."""
        self.card_emojis = CardEmojis()
        """The cards as the application's emojis (their markup, or today's text until all are
        uploaded: ``discordio/card_emojis.py``)."""
        self.sync_card_emojis = False
        """Upload the cards' emojis at start-up: set by ``musbot run``; tests that want it too."""
        self.tune_runtime = False
        """Tune the process's garbage collector after start-up (:func:`musbot.runtime.tune_gc`):
        set by ``musbot run``, which owns the process; tests leave theirs alone."""
        self._collector: asyncio.Task[None] | None = None
        self._tournaments: TournamentRunner | None = None

    @property
    def tournaments(self) -> TournamentRunner:
        """The tournaments' runner (``musbot.tournament.live``), one per bot, made once its
        database is open; :class:`DatabaseClosed` (answered like any storage failure) before."""
        if self._tournaments is None:
            db = self.db
            if db is None:
                raise DatabaseClosed("the database could not be opened at start-up")
            config = self.config
            shards = (config.shard_count, config.own_shards) \
                if config.shard_count is not None else None
            self._tournaments = TournamentRunner(
                db, self.tables, DiscordVenue(self, self.transport), clock=self.clock,
                wall=self.wall or wall_clock(self.clock), shards=shards)
        return self._tournaments

    @property
    def db(self) -> Database | None:
        """The database, once open (None without persistence, or until it opens)."""
        return self.storage.db if self.storage is not None else None

    @property
    def asleep(self) -> dict[int, Table]:
        """Restored tables not resumed yet: their channel has not been seen since the start."""
        return self.sleepers.asleep

    @property
    def message_content(self) -> bool:
        """Whether typed moves can be read (the privileged intent is requested and granted)."""
        return self.intents.message_content

    async def setup_hook(self) -> None:
        self.transport.guard.install(self.http)  # every REST call from here on
        self.check_message_content()
        if self.storage is not None:
            await self.storage.open()
        self.idle.start()
        for name in extensions():
            await self.load_extension(name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error  # type: ignore[assignment]
        await self.tree.set_translator(CatalogueTranslator())  # names in the client's language
        await self.sync_commands()
        warm()  # before any table plays: its first showdown would build these
        compile_all()  # and its first sentence, in whatever language it speaks
        if self.sync_card_emojis:  # in the background: the list, then what is missing
            self.card_emojis.start(self, clock=self.clock, upload=0 in self.config.own_shards)
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
        if self._asked.message_content and not granted:
            # The bot's own Intents, which discord.py keeps as given and sends at IDENTIFY.
            self._asked.message_content = False
        if not self.message_content:
            log.warning(DISCORD("intent_missing"))
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

    @property
    def storage_ready(self) -> bool:
        """Whether a new table may open: its moves can be saved (the database is open, and its
        last save was stored). A bot without persistence (tests, demos) is always ready."""
        persister = self.persister
        return persister is None or (persister.connected and not persister.down)

    async def _storage_opened(self, db: Database, where: str) -> None:
        """The database is open and the saved tables restored: the relay starts, and then
        whoever waits for ``storage_open``."""
        await self._start_relay(db, where)
        self.dispatch("storage_open")  # its listeners run as tasks: no wait on them here

    async def _start_relay(self, db: Database, where: str) -> None:
        config = self.config
        if config.shard_count is not None and db.dialect == "postgresql":
            relay = Relay(db, config.shard_count, config.own_shards, tables=self.tables,
                          transport=self.transport, dms=self.dms)
            try:
                await relay.start()
            except Exception:
                log.exception("DMs for other shards' tables cannot be relayed (%s)", where)
            else:
                self.relay = relay

    async def idle_minutes(self, guild_id: int | None) -> int:
        """After how many minutes without a change a server's table closes (0: never)."""
        db = self.db
        if db is None or guild_id is None:
            return ServerSettings().idle_minutes
        try:
            return (await db.server_settings(guild_id)).idle_minutes
        except StorageError:
            return ServerSettings().idle_minutes

    # --- restored tables wake up with their channels (``storage.py``) -------------------------

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.sleepers.guild_available(guild)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers (shards %s)", self.user, len(self.guilds),
                 ",".join(map(str, self.config.own_shards)) if self.config.sharded else "-")
        self.sleepers.wake_all()

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.sleepers.guild_removed(guild)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.sleepers.channel_gone(channel.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self.sleepers.channel_gone(thread.id)

    async def awake_table(self, table: Table) -> bool:
        """Before a command reaches a restored table: see :meth:`Sleepers.awake`."""
        return await self.sleepers.awake(table)

    # --- the one error path -------------------------------------------------------------------

    async def on_app_command_error(self, interaction: discord.Interaction[Any],
                                   error: app_commands.AppCommandError) -> None:
        await report(interaction, error, table=self.tables.get(interaction.channel_id or 0))

    async def on_command_error(self, ctx: commands.Context[Any],  # type: ignore[override]
                               error: commands.CommandError) -> None:
        await report(ctx, error, table=self.tables.get(ctx.channel.id))

    async def close(self) -> None:
        """With persistence the tables are suspended (saved, timers and bots stopped) to go on
        after the restart, and what their bots learnt of their people is stored; without it
        they are closed with a goodbye."""
        if self._collector is not None:
            self._collector.cancel()
        if self._tournaments is not None:
            self._tournaments.stop()
        if self.storage is not None:
            self.storage.stop()
        self.idle.stop()
        self.card_emojis.stop()
        self.sleepers.stop()
        try:
            if self.persister is not None:
                self.tables.suspend_all()
                await self.transport.cancel_edits()  # the restart shows every table again
                await asyncio.wait_for(self.persister.store_readings(self.tables),
                                       CLOSING_READINGS_SECONDS)
            else:
                await self.tables.close_all()
                # «Mesa cerrada» on each table message, within the channel's budget.
                await asyncio.wait_for(self.transport.flush(), CLOSING_EDITS_SECONDS)
        except Exception:
            log.warning("stopping tables failed", exc_info=True)
        # Reviews in flight are answered (that they cannot be now), then the worker goes.
        await REVIEWER.stop(CLOSING_REVIEWS_SECONDS)
        PICTURES.close()
        if self.relay is not None:
            await self.relay.stop()
            self.relay = None
        if self.storage is not None:
            await self.storage.close()
        await super().close()


class ShardedMusBot(MusBot, commands.AutoShardedBot):
    """A process running some of the bot's gateway shards (``--shards``, ``--shard-ids``): it
    restores and plays the tables of its shards' servers; with PostgreSQL, the processes
    relay each other the DMs that Discord sends to shard 0 alone."""

    def __init__(self, config: Config, **options: Any) -> None:
        if config.shard_count is None:
            raise ValueError("a sharded bot needs a shard count")
        super().__init__(config, shard_count=config.shard_count,
                         shard_ids=list(config.own_shards), **options)


def make_bot(config: Config, **options: Any) -> MusBot:
    """The bot ``config`` asks for: sharded with ``--shards``, else one plain connection."""
    if config.sharded:
        return ShardedMusBot(config, **options)
    return MusBot(config, **options)
