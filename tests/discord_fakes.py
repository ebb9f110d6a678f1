"""Fakes for the Discord tests: channels, messages, users and interactions that record what the
bot sends, as discord.py's own tests do with mocks. No network, no gateway."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from musbot.discordio import DiscordTransport
from musbot.engine import Rules, seeded_shuffler
from musbot.table import ManualClock, Table, TableManager

CHANNEL_ID = 500
GUILD_NAME = "Txoko"
CHANNEL_NAME = "mus"


def forbidden(code: int = 50007) -> discord.Forbidden:
    """The error discord.py raises when a user's DMs are closed."""
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code,  # type: ignore[arg-type]
                                        "message": "Cannot send messages to this user"})


@dataclass
class Sent:
    content: str | None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    def texts(self) -> list[str]:
        """Everything readable: content, embed, button labels."""
        out = [self.content or ""]
        if self.embed is not None:
            out += [self.embed.title or "", self.embed.description or "",
                    self.embed.footer.text or ""]
        if self.view is not None:
            # A DynamicItem wraps the real button: its label is on ``.item``.
            out += [str(getattr(getattr(item, "item", item), "label", "") or "")
                    for item in self.view.children]
        return out


class FakeMessage:
    _ids = 1000

    def __init__(self, channel: FakeChannel, sent: Sent) -> None:
        FakeMessage._ids += 1
        self.id = FakeMessage._ids
        self.channel = channel
        self.sent = sent
        self.edits: list[Sent] = []
        self.reply = AsyncMock(side_effect=self._reply)
        self.add_reaction = AsyncMock()

    async def edit(self, **kwargs: Any) -> FakeMessage:
        self.edits.append(Sent(kwargs.get("content"), kwargs.get("embed"), kwargs.get("view"),
                               kwargs))
        return self

    async def _reply(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        return await self.channel.send(content, **kwargs)


class FakeChannel:
    """A text channel in a server (or a DM channel when ``guild`` is None)."""

    def __init__(self, channel_id: int = CHANNEL_ID, *, guild: bool = True,
                 manage_channels: bool = False) -> None:
        self.id = channel_id
        self.name = CHANNEL_NAME
        self.guild = SimpleNamespace(name=GUILD_NAME, id=1) if guild else None
        self.sent: list[Sent] = []
        self.messages: list[FakeMessage] = []
        self.manage_channels = manage_channels

    async def send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        sent = Sent(content, kwargs.get("embed"), kwargs.get("view"), kwargs)
        self.sent.append(sent)
        message = FakeMessage(self, sent)
        self.messages.append(message)
        return message

    def permissions_for(self, member: Any) -> discord.Permissions:
        return discord.Permissions(manage_channels=self.manage_channels)

    def contents(self) -> list[str]:
        return [s.content or "" for s in self.sent]


class FakeUser:
    def __init__(self, user_id: int, name: str | None = None, *, dm_closed: bool = False,
                 bot: bool = False) -> None:
        self.id = user_id
        self.name = name or f"P{user_id}"
        self.display_name = self.name
        self.mention = f"<@{user_id}>"
        self.bot = bot
        self.dm_closed = dm_closed
        self.dm = FakeChannel(9000 + user_id, guild=False)
        self.send = AsyncMock(side_effect=self._send)

    async def _send(self, content: str | None = None, **kwargs: Any) -> FakeMessage:
        if self.dm_closed:
            raise forbidden()
        return await self.dm.send(content, **kwargs)

    def dms(self) -> list[str]:
        return self.dm.contents()


class FakeBot:
    """What the transport and the cogs use of :class:`musbot.bot.MusBot`."""

    def __init__(self) -> None:
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.tables: TableManager
        self.transport: DiscordTransport
        self.command_context = SimpleNamespace(valid=False)

    def user(self, user_id: int, **kwargs: Any) -> FakeUser:
        if user_id not in self.users:
            self.users[user_id] = FakeUser(user_id, **kwargs)
        return self.users[user_id]

    def get_user(self, user_id: int) -> FakeUser | None:
        return self.users.get(user_id)

    async def fetch_user(self, user_id: int) -> FakeUser:
        return self.user(user_id)

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return self.channels.get(channel_id)

    async def get_context(self, message: Any) -> Any:
        return self.command_context


@dataclass
class Env:
    bot: FakeBot
    clock: ManualClock
    transport: DiscordTransport
    tables: TableManager
    channel: FakeChannel

    async def open(self, rules: Rules | None = None, *, announce: bool = True) -> Table:
        table = self.tables.open(self.channel.id, rules, opener_id=1)
        self.transport.bind(self.channel.id, self.channel)  # type: ignore[arg-type]
        if announce:
            await self.transport.announce(self.channel.id)
        return table

    def board_message(self) -> FakeMessage:
        board = self.transport.boards[self.channel.id]
        assert isinstance(board.message, FakeMessage)
        return board.message


def make_env(seed: int = 1, **table_options: Any) -> Env:
    bot = FakeBot()
    clock = ManualClock()
    transport = DiscordTransport(bot, clock=clock)  # type: ignore[arg-type]
    options: dict[str, Any] = {"turn_seconds": None, "bot_delay": 0.0,
                               "rng": random.Random(seed), "shuffler": seeded_shuffler(seed),
                               "first_mano": 0}
    options.update(table_options)
    tables = TableManager(transport, clock=clock, **options)
    transport.tables = tables
    bot.tables = tables
    bot.transport = transport
    channel = FakeChannel()
    bot.channels[channel.id] = channel
    return Env(bot, clock, transport, tables, channel)


class FakeResponse:
    """``interaction.response``: records every call and knows whether it answered."""

    def __init__(self) -> None:
        self.done = False
        self.send_message = AsyncMock(side_effect=self._answer)
        self.defer = AsyncMock(side_effect=self._answer)
        self.edit_message = AsyncMock(side_effect=self._answer)
        self.send_modal = AsyncMock(side_effect=self._answer)

    async def _answer(self, *args: Any, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True

    def is_done(self) -> bool:
        return self.done


def make_interaction(bot: FakeBot, user: FakeUser) -> MagicMock:
    interaction = MagicMock(spec=discord.Interaction)
    interaction.client = bot
    interaction.user = user
    interaction.response = FakeResponse()
    interaction.followup = SimpleNamespace(send=AsyncMock())
    interaction.edit_original_response = AsyncMock()
    return interaction


def ephemeral_texts(interaction: MagicMock) -> list[str]:
    """Every ephemeral answer of an interaction (first response or follow-ups)."""
    calls = list(interaction.response.send_message.await_args_list)
    calls += list(interaction.followup.send.await_args_list)
    return [str(c.args[0] if c.args else c.kwargs.get("content")) for c in calls
            if c.kwargs.get("ephemeral")]
