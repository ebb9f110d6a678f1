"""In-memory stand-ins for the few discord.py objects :class:`DiscordTransport` talks to.

``musbot bench`` drives the real transport with these: every embed, text and view is built
exactly as for Discord, then counted instead of sent, by the REST route the call would take and
by channel in 5-second windows (Discord's per-channel limits), so the benchmark measures musbot
and the calls it would make, not the network. Nothing is kept of a message beyond its id and the
counters (a long run must not grow).
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import orjson

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
OPEN_DM = "POST /users/@me/channels"
WINDOW = 5.0


@dataclass
class RenderStats:
    """What the transport produced: calls by route, characters and buttons, and the worst
    5-second window of each kind in any one channel."""

    calls: Counter[str] = field(default_factory=Counter)
    dm_posts: int = 0
    chars: int = 0
    buttons: int = 0
    worst: Counter[str] = field(default_factory=Counter)
    """The most calls of each route in one channel within any 5 s."""
    now: Callable[[], float] = lambda: 0.0
    _recent: dict[tuple[int, str], deque[float]] = field(default_factory=dict)

    def count(self, route: str, channel_id: int | None, content: str | None = None,
              kwargs: dict[str, Any] | None = None) -> None:
        """One call; ``channel_id`` None: a call on no channel (opening a DM channel)."""
        self.calls[route] += 1
        if channel_id is not None:
            self._window(route, channel_id)
        self.chars += len(content or "")
        kwargs = kwargs or {}
        embed: discord.Embed | None = kwargs.get("embed")
        if embed is not None:
            # What discord.py sends for it: to_dict(), encoded as JSON (with orjson, which it
            # uses when installed, as it is with musbot).
            self.chars += len(orjson.dumps(embed.to_dict()))
        view: discord.ui.View | None = kwargs.get("view")
        if view is not None:
            self.buttons += len(view.to_components())

    def _window(self, route: str, channel_id: int) -> None:
        now = self.now()
        recent = self._recent.setdefault((channel_id, route), deque())
        recent.append(now)
        while recent and recent[0] <= now - WINDOW:
            recent.popleft()
        if len(recent) > self.worst[route]:
            self.worst[route] = len(recent)

    @property
    def budget_calls(self) -> int:
        """Every call counted here is one of the bot's global budget (interaction callbacks,
        which are not, never reach these stand-ins)."""
        return sum(self.calls.values())


_ids = itertools.count(10**17)


class MemoryMessage:
    """A message: ``edit`` and ``delete`` are counted and forgotten."""

    __slots__ = ("channel", "id")

    def __init__(self, channel: MemoryChannel, message_id: int) -> None:
        self.channel = channel
        self.id = message_id

    async def edit(self, **kwargs: Any) -> MemoryMessage:
        self.channel.stats.count(EDIT, self.channel.id, kwargs.get("content"), kwargs)
        return self

    async def delete(self) -> None:
        self.channel.stats.count(DELETE, self.channel.id)

    def to_reference(self, **kwargs: Any) -> discord.MessageReference:
        return discord.MessageReference(message_id=self.id, channel_id=self.channel.id)


class MemoryChannel:
    """A guild text channel (the table's) or a user's DM channel."""

    __slots__ = ("_public", "guild", "id", "name", "stats")

    def __init__(self, channel_id: int, stats: RenderStats, *, guild: str | None = "Bench",
                 name: str = "mus", public: bool = True) -> None:
        self.id = channel_id
        self.name = name
        self.guild = SimpleNamespace(name=guild, id=1) if guild is not None else None
        self.stats = stats
        self._public = public

    async def send(self, content: str | None = None, **kwargs: Any) -> MemoryMessage:
        self.stats.count(POST, self.id, content, kwargs)
        if not self._public:
            self.stats.dm_posts += 1
        return MemoryMessage(self, next(_ids))

    def get_partial_message(self, message_id: int) -> MemoryMessage:
        return MemoryMessage(self, message_id)


class MemoryClient:
    """What :class:`DiscordTransport` uses of a ``discord.Client``: channels by id, made on
    first use, and DM channels opened on demand (counted)."""

    def __init__(self, now: Callable[[], float] | None = None) -> None:
        self.stats = RenderStats()
        if now is not None:
            self.stats.now = now
        self.channels: dict[int, MemoryChannel] = {}

    def channel(self, channel_id: int) -> MemoryChannel:
        found = self.channels.get(channel_id)
        if found is None:
            found = self.channels[channel_id] = MemoryChannel(channel_id, self.stats)
        return found

    def get_channel(self, channel_id: int) -> MemoryChannel:
        """Every channel is reachable (a restored table speaks in its channel at once)."""
        return self.channel(channel_id)

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> MemoryChannel:
        found = self.channels.get(channel_id)
        if found is None:
            found = self.channels[channel_id] = MemoryChannel(
                channel_id, self.stats, guild=None, public=False)
        return found

    async def create_dm(self, user: Any) -> MemoryChannel:
        self.stats.count(OPEN_DM, None)
        return self.get_partial_messageable(10**18 + int(user.id))
