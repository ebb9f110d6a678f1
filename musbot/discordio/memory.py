"""In-memory stand-ins for the few discord.py objects :class:`DiscordTransport` talks to.

``musbot bench load`` drives the real transport with these: every embed, text and view is built
exactly as on Discord, then counted instead of sent, so the benchmark measures musbot and not
the network. Nothing is kept of a message beyond the counters (a long run must not grow).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
import orjson


@dataclass
class RenderStats:
    """What the transport produced: messages, edits, characters and buttons."""

    public: int = 0
    private: int = 0
    edits: int = 0
    chars: int = 0
    buttons: int = 0

    def count(self, content: str | None, kwargs: dict[str, Any]) -> None:
        self.chars += len(content or "")
        embed: discord.Embed | None = kwargs.get("embed")
        if embed is not None:
            # What discord.py sends for it: to_dict(), encoded as JSON (with orjson, which it
            # uses when installed, as it is with musbot).
            self.chars += len(orjson.dumps(embed.to_dict()))
        view: discord.ui.View | None = kwargs.get("view")
        if view is not None:
            self.buttons += len(view.to_components())


class MemoryMessage:
    """A sent message: ``edit`` renders what it is given and forgets it."""

    __slots__ = ("id", "stats")

    def __init__(self, message_id: int, stats: RenderStats) -> None:
        self.id = message_id
        self.stats = stats

    async def edit(self, **kwargs: Any) -> MemoryMessage:
        self.stats.edits += 1
        self.stats.count(kwargs.get("content"), kwargs)
        return self


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
        if self._public:
            self.stats.public += 1
        else:
            self.stats.private += 1
        self.stats.count(content, kwargs)
        return MemoryMessage(self.id, self.stats)


class MemoryUser:
    __slots__ = ("dm", "id", "mention", "name")

    def __init__(self, user_id: int, stats: RenderStats) -> None:
        self.id = user_id
        self.name = f"P{user_id}"
        self.mention = f"<@{user_id}>"
        self.dm = MemoryChannel(user_id, stats, guild=None, public=False)

    async def send(self, content: str | None = None, **kwargs: Any) -> MemoryMessage:
        return await self.dm.send(content, **kwargs)


class MemoryClient:
    """What :class:`DiscordTransport` uses of a ``discord.Client``: channels and users by id,
    made on first use."""

    def __init__(self) -> None:
        self.stats = RenderStats()
        self.channels: dict[int, MemoryChannel] = {}
        self.users: dict[int, MemoryUser] = {}

    def channel(self, channel_id: int) -> MemoryChannel:
        found = self.channels.get(channel_id)
        if found is None:
            found = self.channels[channel_id] = MemoryChannel(channel_id, self.stats)
        return found

    def get_channel(self, channel_id: int) -> MemoryChannel:
        """Every channel is reachable (a restored table speaks in its channel at once)."""
        return self.channel(channel_id)

    def get_user(self, user_id: int) -> MemoryUser:
        found = self.users.get(user_id)
        if found is None:
            found = self.users[user_id] = MemoryUser(user_id, self.stats)
        return found

    async def fetch_user(self, user_id: int) -> MemoryUser:
        return self.get_user(user_id)
