"""``musbot run``: the Discord bot process.

:class:`MusBot` owns one :class:`~musbot.table.TableManager` and its
:class:`~musbot.discordio.DiscordTransport`; the cogs in ``cogs/`` (loaded in :meth:`setup_hook`)
only translate Discord input into table calls. Without the privileged message content intent
the bot still plays through buttons and slash commands, and says so once at start-up.

Tables saved by the last run are restored in :meth:`setup_hook` but resumed only once the
gateway has delivered their channel (:meth:`wake`): before that nobody could see their moves.
A table whose channel is gone is closed, and its players told by DM. A database that cannot be
reached at start-up is tried again in the background until it answers (:meth:`open_storage`):
no new table opens meanwhile, and the saved ones are restored once it does. Then, and not before,
the bot dispatches ``storage_open``: what else reads the database at start-up (the cogs'
listeners ``on_storage_open``, the tournaments' runner) waits for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import pkgutil
import signal
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from musbot.ai import warm
from musbot.config import (
    Config,
    ConfigError,
    add_run_arguments,
    base_text,
    check_database,
    config_from_args,
)
from musbot.console import cli_language, cli_text, connection_problem
from musbot.discordio import DYNAMIC_ITEMS, DiscordTransport
from musbot.discordio.card_emojis import CardEmojis
from musbot.discordio.failures import refuse_forged, report
from musbot.discordio.governor import Limits
from musbot.discordio.markup import NO_MENTIONS
from musbot.discordio.relay import Relay
from musbot.discordio.speech import hear
from musbot.discordio.texts import dt
from musbot.discordio.translator import CatalogueTranslator
from musbot.logs import setup_logging
from musbot.pictures.worker import Drawer
from musbot.runtime import collect_periodically, tune_gc
from musbot.storage import Database, StorageError
from musbot.table import Clock, RealClock, Table, TableManager
from musbot.table.persist import TablePersister
from musbot.table.repaso import REVIEWER

if TYPE_CHECKING:
    from musbot.metrics import Metrics, MetricsServer

log = logging.getLogger(__name__)

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
STORAGE_FIRST_RETRY = 1.0
STORAGE_MAX_RETRY = 30.0
"""Seconds between attempts to open a database that could not be opened at start-up: one,
then twice as long each time, up to this."""

__all__ = ["MusBot", "ShardedMusBot", "add_run_arguments", "extensions", "make_bot",
           "make_intents", "run_bot", "run_command"]


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
    language (``discordio/speech.py``)."""

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
        super().__init__(command_prefix=commands.when_mentioned_or(COMMAND_PREFIX),
                         intents=make_intents(message_content), help_command=None,
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
        self.db: Database | None = None
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
        self.asleep: dict[int, Table] = {}
        """Restored tables not resumed yet: their channel has not been seen since the start."""
        self._waking: set[asyncio.Task[None]] = set()
        self._collector: asyncio.Task[None] | None = None
        self._storage: asyncio.Task[None] | None = None
        """Opening the database again and again while it cannot be reached."""

    @property
    def message_content(self) -> bool:
        """Whether typed moves can be read (the privileged intent is requested and granted)."""
        return self.intents.message_content

    async def setup_hook(self) -> None:
        self.transport.guard.install(self.http)  # every REST call from here on
        self.check_message_content()
        if self.persist:
            await self.open_storage()
        for name in extensions():
            await self.load_extension(name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error  # type: ignore[assignment]
        await self.tree.set_translator(CatalogueTranslator())  # names in the client's language
        await self.sync_commands()
        warm()  # before any table plays: its first showdown would build these
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

    @property
    def storage_ready(self) -> bool:
        """Whether a new table may open: its moves can be saved (the database is open, and its
        last save was stored). A bot without persistence (tests, demos) is always ready."""
        persister = self.persister
        return persister is None or (persister.connected and not persister.down)

    async def open_storage(self) -> None:
        """Opens MUSBOT_DB and restores the saved tables, asleep until their channels can be
        reached. A database that cannot be opened now (a server down, a disk not mounted) is
        tried again in the background, waiting :data:`STORAGE_FIRST_RETRY` seconds and then
        twice as long each time up to :data:`STORAGE_MAX_RETRY`, with one log line per
        attempt; meanwhile no new table opens (:attr:`storage_ready`), and once it answers the
        saved tables are restored and woken as their channels are reached."""
        delay = STORAGE_FIRST_RETRY
        if await self._open_storage_once(delay):
            return

        async def keep_trying() -> None:
            nonlocal delay
            while True:
                await self.clock.sleep(delay)
                delay = min(delay * 2, STORAGE_MAX_RETRY)
                if await self._open_storage_once(delay):
                    self._storage = None
                    return

        self._storage = asyncio.get_running_loop().create_task(keep_trying())

    async def _open_storage_once(self, next_delay: float) -> bool:
        """One attempt: the database opened, the saved tables restored asleep (and those whose
        channel is known woken, when the gateway is up already), the relay started. False,
        logged in one line, if the database cannot be used now."""
        where = "MUSBOT_DB"  # until it is known to name a database: it may hold a password
        db: Database | None = None
        config = self.config
        try:
            db = Database(config.db)
            where = db.where
            await db.connect()
            shards = (config.shard_count, config.own_shards) \
                if config.shard_count is not None else None
            assert self.persister is not None
            self.persister.use(db)
            await self.persister.restore(self.tables, shards=shards)
        except Exception as problem:
            if self.persister is not None:
                self.persister.use(None)
            if db is not None:
                with contextlib.suppress(Exception):
                    await db.close()
            detail = str(problem) if isinstance(problem, StorageError) else \
                f"{where}: {type(problem).__name__}: {problem}"
            log.warning("database unavailable (%s); trying again in %.0f s, and no new table "
                        "opens until then", detail, next_delay)
            return False
        self.db = db
        self.asleep = {table.channel_id: table for table in self.tables}
        log.info("database %s open: %d saved tables restored", where, len(self.asleep))
        if self.metrics is not None:
            self.metrics.restored.set(len(self.asleep))
        if self.is_ready():
            self._wake_restored()
        await self._start_relay(db, where)
        self.dispatch("storage_open")  # its listeners run as tasks: no wait on them here
        return True

    async def _start_relay(self, db: Database, where: str) -> None:
        config = self.config
        if config.shard_count is not None and db.dialect == "postgresql":
            relay = Relay(self, db, config.shard_count, config.own_shards)
            try:
                await relay.start()
            except Exception:
                log.exception("DMs for other shards' tables cannot be relayed (%s)", where)
            else:
                self.relay = relay

    # --- restored tables wake up with their channels ------------------------------------------

    async def on_guild_available(self, guild: discord.Guild) -> None:
        for table in [t for t in self.asleep.values() if t.guild_id == guild.id]:
            self._wake_soon(table)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers (shards %s)", self.user, len(self.guilds),
                 ",".join(map(str, self.config.own_shards)) if self.config.sharded else "-")
        self._wake_restored()

    def _wake_restored(self) -> None:
        """The restored tables, once the gateway is up: each wakes if its server is delivered,
        and closes if the bot is no longer in it."""
        known = {guild.id for guild in self.guilds}
        for table in list(self.asleep.values()):
            if table.guild_id is not None and table.guild_id not in known:
                self.asleep.pop(table.channel_id, None)
                self._spawn(table.close_unreachable())  # no longer in that server
            else:
                self._wake_soon(table)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for table in [t for t in self.tables if t.guild_id == guild.id]:
            self.asleep.pop(table.channel_id, None)
            await table.close_unreachable()

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._channel_gone(thread.id)

    async def _channel_gone(self, channel_id: int) -> None:
        table = self.tables.get(channel_id)
        if table is not None:
            self.asleep.pop(channel_id, None)
            await table.close_unreachable()

    def _wake_soon(self, table: Table) -> None:
        self._spawn(self.wake(table))

    async def wake(self, table: Table) -> bool:
        """Resumes a restored table if its channel can be reached now: the messages that showed
        its pages are brought up to date, «mesa restaurada», and its bots play on. True if the
        table is awake (now or before); a channel that no longer exists closes the table."""
        if self.asleep.get(table.channel_id) is not table:
            return True
        channel: Any = self.get_channel(table.channel_id)
        guild = self.get_guild(table.guild_id) if table.guild_id is not None else None
        if channel is None and guild is not None and not guild.unavailable:
            try:
                channel = await self.fetch_channel(table.channel_id)  # an archived thread
            except (discord.NotFound, discord.Forbidden):
                self.asleep.pop(table.channel_id, None)
                await table.close_unreachable()
                return False
            except discord.HTTPException:
                return False
        if channel is None:
            return False  # its server is not delivered yet (an outage): it sleeps on
        if self.asleep.pop(table.channel_id, None) is None:
            return True  # woken meanwhile by another event
        self.transport.bind(table.channel_id, channel)
        self.transport.restore(table)
        await table.resume()
        return True

    async def awake_table(self, table: Table) -> bool:
        """Before a command reaches a restored table: wake it if its channel is reachable;
        False while it cannot be (its server not delivered yet after a restart)."""
        if table.channel_id not in self.asleep:
            return True
        return await self.wake(table)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._waking.add(task)
        task.add_done_callback(self._waking.discard)

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
        if self._storage is not None:
            self._storage.cancel()
        self.card_emojis.stop()
        for task in list(self._waking):
            task.cancel()
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
        if self.db is not None:
            try:
                await self.db.close()
            except Exception:
                log.warning("closing the database failed", exc_info=True)
            self.db = None
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
    from musbot.metrics import Readings

    return Readings(tables=lambda: len(current[-1].tables) if current else 0,
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
            if make is make_bot:  # the showdowns drawn on the other core
                bot.transport.draw = PICTURES
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
        say(dt("no_token", lang))
        return 2
    setup_logging(config.log_level, config.log_format)
    if database is not None:
        logging.getLogger("musbot").info("%s", database)
    try:
        asyncio.run(_serve(config))
    except discord.LoginFailure:
        say(dt("bad_token", lang))
        return 1
    except (aiohttp.ClientConnectionError, TimeoutError) as problem:
        say(connection_problem(problem, lang))
        return 1
    except OSError as problem:  # the metrics' address taken, or not this machine's
        say(cli_text("metrics_failed", lang, address=config.metrics,
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
        print(dt("bad_config", lang, error=problem.message(lang)), file=sys.stderr)
        return 2
    if exists is None:
        from musbot.storage.database import backend_for

        database = cli_text("db_where_server", lang, db=backend_for(config.db).where)
    else:
        database = cli_text("db_where" if exists else "db_where_new", lang, db=config.db,
                            base=base_text(config, lang))
    return run_bot(config, lang=lang, database=database)
