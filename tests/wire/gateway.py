"""The gateway without a websocket: events go to ``bot._connection.parsers[...]``, the same
functions discord.py's websocket hands them to, run in a context whose webhook adapter is the
double's, so the tasks they start (command callbacks, views, listeners) answer interactions
through the world. Also the stand-in for ``bot.ws``."""

from __future__ import annotations

import asyncio
import contextvars
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.shard import Shard
from discord.webhook.async_ import async_context

from .errors import UnsupportedRoute

if TYPE_CHECKING:
    from .fake import FakeDiscord

SETTLE_ROUNDS = 50


async def settle(rounds: int = SETTLE_ROUNDS) -> None:
    """Lets every ready task run until things go quiet; the fake clock does not move."""
    for _ in range(rounds):
        await asyncio.sleep(0)


class FakeGatewaySocket:
    """What the bot reaches through ``bot.ws`` once connected: presence updates are recorded,
    member chunking and voice are not modelled."""

    def __init__(self, shard_id: int | None = None) -> None:
        self.open = True
        self.latency = 0.05
        self.shard_id = shard_id
        self.presences: list[dict[str, Any]] = []

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(self, *, activity: discord.BaseActivity | None = None,
                              status: str | None = None, since: float = 0.0) -> None:
        self.presences.append({"activity": None if activity is None else activity.to_dict(),
                               "status": status, "since": since})

    async def close(self, code: int = 1000) -> None:
        self.open = False

    async def request_chunks(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedRoute("member chunking is not modelled by the wire double")

    async def voice_state(self, *args: Any, **kwargs: Any) -> None:
        raise UnsupportedRoute("voice is not modelled by the wire double")


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; events outside any guild (DMs) go to
    shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass
class Attachment:
    """A bot connected to the world."""

    bot: discord.Client
    context: contextvars.Context
    socket: FakeGatewaySocket = field(default_factory=FakeGatewaySocket)
    """The connection (a sharded bot's first shard's)."""
    ready: bool = False
    events: list[tuple[float, str]] = field(default_factory=list)
    """(fake time, event name) of every event fed to this bot."""
    shard_count: int | None = None
    """None: an unsharded bot, which receives every event."""
    shards: dict[int, FakeGatewaySocket] = field(default_factory=dict)
    """Shard id -> its connection, for a sharded bot."""

    def receives(self, guild_id: int | None) -> bool:
        """Whether the gateway sends this bot the events of that guild (None: of DMs)."""
        return self.shard_count is None or shard_of(guild_id, self.shard_count) in self.shards


def open_shards(bot: discord.AutoShardedClient, attachment: Attachment) -> None:
    """What ``launch_shards`` leaves behind, without websockets: the state's shard count and
    ids, and one discord.py ``Shard`` per id around its fake socket, never launched, so
    ``bot.shards``, ``latency``, ``get_shard``, ``change_presence`` and ``close()`` run
    discord.py's own code."""
    assert bot.shard_count is not None and bot.shard_ids is not None
    bot._connection.shard_count = bot.shard_count
    bot._connection.shard_ids = bot.shard_ids
    bot._reconnect = True  # type: ignore[attr-defined]  # connect() sets it; Shard reads it
    registry: dict[int, Shard] = bot._AutoShardedClient__shards  # type: ignore[attr-defined]
    queue = bot._AutoShardedClient__queue  # type: ignore[attr-defined]  # made by login
    for shard_id, socket in attachment.shards.items():
        registry[shard_id] = Shard(socket, bot, queue.put_nowait)  # type: ignore[arg-type]
    attachment.socket = attachment.shards[bot.shard_ids[0]]


def attachment_context(world: FakeDiscord) -> contextvars.Context:
    context = contextvars.copy_context()
    context.run(async_context.set, world.adapter)
    return context


def feed(world: FakeDiscord, attachment: Attachment, event: str, data: dict[str, Any]) -> None:
    """One gateway dispatch, as discord.py's websocket delivers it (synchronously, to the
    parser), in a copy of the bot's context."""
    parser = attachment.bot._connection.parsers[event]
    attachment.events.append((world.now(), event))
    attachment.context.copy().run(parser, data)


def run_in(attachment: Attachment, coro: Any) -> asyncio.Task[Any]:
    """A task in the bot's context (for ``login`` and ``close``, whose tasks then inherit the
    double's webhook adapter)."""
    return asyncio.get_running_loop().create_task(coro, context=attachment.context.copy())


def wants(bot: discord.Client, event: str, guild_id: int | None) -> bool:
    """Whether the gateway sends this event (of that guild; None: of a DM) to a bot with
    these intents."""
    intents = bot._connection._intents
    if event.startswith("MESSAGE_"):
        return intents.guild_messages if guild_id is not None else intents.dm_messages
    return intents.guilds


def privileged_refusal(bot: discord.Client, app_flags: int) -> bool:
    """Whether IDENTIFY would be closed with 4014: a privileged intent the portal does not
    grant (bit 18/19 message content, 14/15 members, 12/13 presences)."""
    intents = bot._connection._intents
    asked = [(intents.message_content, 18), (intents.members, 14), (intents.presences, 12)]
    return any(on and not app_flags & ((1 << bit) | (1 << (bit + 1))) for on, bit in asked)
