"""The bot's storage at start-up: the database opened (again and again while it cannot be
reached), the tables the last run saved restored asleep, and each woken once the gateway has
delivered its channel.

A database that cannot be reached at start-up is tried again in the background until it
answers (:meth:`StorageStart.open`): no new table opens meanwhile (``MusBot.storage_ready``),
and the saved ones are restored once it does. A restored table resumes only once its channel can
be reached (:meth:`Sleepers.wake`): before that nobody could see its moves. A table whose channel
is gone is closed, and its players told by DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from musbot.config import Config
from musbot.discordio import DiscordTransport
from musbot.storage import Database, StorageError
from musbot.table import Clock, Table, TableManager
from musbot.table.persist import TablePersister

if TYPE_CHECKING:
    from musbot.metrics import Metrics

log = logging.getLogger(__package__)  # the bot's log, one name for all of it

STORAGE_FIRST_RETRY = 1.0
STORAGE_MAX_RETRY = 30.0
"""Seconds between attempts to open a database that could not be opened at start-up: one,
then twice as long each time, up to this."""


class Sleepers:
    """Restored tables not resumed yet (:attr:`asleep`, one of the four ways a table is not
    played: :mod:`musbot.table.halts`): their channel has not been seen since the start.
    ``client`` is asked for channels and servers; ``transport`` shows a table that wakes."""

    def __init__(self, client: discord.Client, tables: TableManager,
                 transport: DiscordTransport) -> None:
        self.client = client
        self.tables = tables
        self.transport = transport
        self.asleep: dict[int, Table] = {}
        """Restored tables by channel, until they wake."""
        self._waking: set[asyncio.Task[Any]] = set()

    def restored(self) -> int:
        """Every table of the manager was just restored: all asleep. How many."""
        self.asleep.clear()
        self.asleep.update((table.channel_id, table) for table in self.tables)
        return len(self.asleep)

    def wake_all(self) -> None:
        """The restored tables, once the gateway is up: each wakes if its server is delivered,
        and closes if the bot is no longer in it."""
        known = {guild.id for guild in self.client.guilds}
        for table in list(self.asleep.values()):
            if table.guild_id is not None and table.guild_id not in known:
                self.asleep.pop(table.channel_id, None)
                self._spawn(table.close_unreachable())  # no longer in that server
            else:
                self._wake_soon(table)

    def guild_available(self, guild: discord.Guild) -> None:
        for table in [t for t in self.asleep.values() if t.guild_id == guild.id]:
            self._wake_soon(table)

    async def guild_removed(self, guild: discord.Guild) -> None:
        for table in [t for t in self.tables if t.guild_id == guild.id]:
            self.asleep.pop(table.channel_id, None)
            await table.close_unreachable()

    async def channel_gone(self, channel_id: int) -> None:
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
        client = self.client
        channel: Any = client.get_channel(table.channel_id)
        guild = client.get_guild(table.guild_id) if table.guild_id is not None else None
        if channel is None and guild is not None and not guild.unavailable:
            try:
                channel = await client.fetch_channel(table.channel_id)  # an archived thread
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

    async def awake(self, table: Table) -> bool:
        """Before a command reaches a restored table: wake it if its channel is reachable;
        False while it cannot be (its server not delivered yet after a restart)."""
        if table.channel_id not in self.asleep:
            return True
        return await self.wake(table)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._waking.add(task)
        task.add_done_callback(self._waking.discard)

    def stop(self) -> None:
        for task in list(self._waking):
            task.cancel()


class StorageStart:
    """Opens ``config``'s database for ``persister`` and restores its tables into ``tables``,
    asleep in ``sleepers``; ``opened(db, where)`` then starts what needs the database open
    (the relay, the listeners of ``storage_open``). ``ready()``: whether the gateway is up,
    so the tables restored can wake at once."""

    def __init__(self, config: Config, persister: TablePersister, tables: TableManager,
                 sleepers: Sleepers, clock: Clock, *, ready: Callable[[], bool],
                 opened: Callable[[Database, str], Awaitable[None]],
                 metrics: Metrics | None = None) -> None:
        self.config = config
        self.persister = persister
        self.tables = tables
        self.sleepers = sleepers
        self.clock = clock
        self.ready = ready
        self.opened = opened
        self.metrics = metrics
        self.db: Database | None = None
        self._retrying: asyncio.Task[None] | None = None
        """Opening the database again and again while it cannot be reached."""

    async def open(self) -> None:
        """Opens MUSBOT_DB and restores the saved tables, asleep until their channels can be
        reached. A database that cannot be opened now (a server down, a disk not mounted) is
        tried again in the background, waiting :data:`STORAGE_FIRST_RETRY` seconds and then
        twice as long each time up to :data:`STORAGE_MAX_RETRY`, with one log line per
        attempt; meanwhile no new table opens, and once it answers the saved tables are
        restored and woken as their channels are reached."""
        delay = STORAGE_FIRST_RETRY
        if await self._open_once(delay):
            return

        async def keep_trying() -> None:
            nonlocal delay
            while True:
                await self.clock.sleep(delay)
                delay = min(delay * 2, STORAGE_MAX_RETRY)
                if await self._open_once(delay):
                    self._retrying = None
                    return

        self._retrying = asyncio.get_running_loop().create_task(keep_trying())

    async def _open_once(self, next_delay: float) -> bool:
        """One attempt: the database opened, the saved tables restored asleep (and those whose
        channel is known woken, when the gateway is up already), then :attr:`opened`. False,
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
            self.persister.use(db)
            await self.persister.restore(self.tables, shards=shards)
        except Exception as problem:
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
        restored = self.sleepers.restored()
        log.info("database %s open: %d saved tables restored", where, restored)
        if self.metrics is not None:
            self.metrics.restored.set(restored)
        if self.ready():
            self.sleepers.wake_all()
        await self.opened(db, where)
        return True

    def stop(self) -> None:
        """No more attempts."""
        if self._retrying is not None:
            self._retrying.cancel()

    async def close(self) -> None:
        if self.db is not None:
            try:
                await self.db.close()
            except Exception:
                log.warning("closing the database failed", exc_info=True)
            self.db = None


__all__ = ["STORAGE_FIRST_RETRY", "STORAGE_MAX_RETRY", "Sleepers", "StorageStart"]
