"""``FakeDiscord``: the test-facing double. Real ``discord.Client``/``commands.Bot`` objects
connect to it; only their HTTP side is replaced (``bot.http.request`` and the webhook adapter),
and gateway events reach their connection state's parsers as the gateway would send them."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import discord

from .errors import WireError
from .gateway import (
    Attachment,
    attachment_context,
    feed,
    privileged_refusal,
    run_in,
    settle,
    wants,
)
from .payloads import (
    DEFAULT_EVERYONE,
    MENTION,
    channel_payload,
    guild_payload,
    interaction_payload,
    message_payload,
    ready_payload,
    role_payload,
    without_content,
)
from .people import command_data, modal_data, pressable
from .recorder import Call, Recorder, Report
from .state import (
    DM,
    GUILD_TEXT,
    ClockLike,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    World,
)
from .webhooks import FakeWebhookAdapter, install_default, uninstall_default

MESSAGE_CONTENT = 1 << 18
MESSAGE_CONTENT_LIMITED = 1 << 19
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


class FakeDiscord(World):
    """Discord, as far as a bot can tell. ``message_content``: whether the portal grants the
    privileged message content intent (``limited``: the unverified-app flag, bit 19, rather
    than bit 18). ``global_limit``: REST calls per second before a global 429 (None: off)."""

    def __init__(self, clock: ClockLike, *, message_content: bool = True,
                 limited: bool = False, app_flags: int | None = None,
                 global_limit: int | None = 50, echo: bool = True,
                 guild_ready_timeout: float = 0.01, epoch: float | None = None) -> None:
        super().__init__(clock, epoch=epoch)
        if app_flags is None:
            app_flags = (MESSAGE_CONTENT_LIMITED if limited else MESSAGE_CONTENT) \
                if message_content else 0
        self.app_flags = app_flags
        self.echo = echo
        """Send the bot the gateway events its own changes cause (MESSAGE_CREATE of its own
        messages…), as Discord does."""
        self.guild_ready_timeout = guild_ready_timeout
        self.recorder = Recorder(self, global_limit=global_limit)
        self.adapter = FakeWebhookAdapter(self)
        self._attached: dict[discord.Client, Attachment] = {}

    # The world, before or while bots are connected.

    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False) -> int:
        return self._new_user(name, bot=bot, dms_open=dms_open).id

    def set_dms(self, user: int, *, open: bool) -> None:
        self.user(user).dms_open = open

    def add_guild(self, name: str, *, permissions: int = DEFAULT_EVERYONE,
                  owner: int | None = None, locale: str = "es-ES", bot_in: bool = True) -> int:
        """A server; with ``bot_in`` the bot is in it (a connected bot joins it now, empty).
        Without, it is set up first and the bot added later with :meth:`invite`."""
        guild_id = self.ids.next()
        self.guilds[guild_id] = FakeGuild(guild_id, name, owner or self.owner.id, guild_id,
                                          permissions, joined_at=self.now(), locale=locale,
                                          present=bot_in)
        if bot_in:
            self._broadcast("GUILD_CREATE", lambda: guild_payload(self, self.guilds[guild_id],
                                                                  joined=True))
        return guild_id

    def add_text_channel(self, guild: int, name: str, *, bot_can_send: bool = True,
                         position: int | None = None, system: bool = False) -> int:
        """A text channel (``system``: the server's system channel, where Discord posts its own
        notices)."""
        record = self.guilds[guild]
        channel = FakeChannel(self.ids.next(), GUILD_TEXT, name, guild,
                              position=len(record.channels) if position is None else position,
                              bot_can_send=bot_can_send)
        self.channels[channel.id] = channel
        record.channels.append(channel.id)
        if system:
            record.system_channel_id = channel.id
        if record.present:
            self._broadcast("CHANNEL_CREATE", lambda: channel_payload(self, channel))
        return channel.id

    def add_role(self, guild: int, name: str, permissions: int) -> int:
        record = self.guilds[guild]
        role = FakeRole(self.ids.next(), name, permissions, position=len(record.roles) + 1)
        record.roles[role.id] = role
        if record.present:
            self._broadcast("GUILD_ROLE_CREATE", lambda: {
                "guild_id": str(guild),
                "role": role_payload(role.id, role.name, role.permissions, role.position)})
        return role.id

    def give_role(self, guild: int, user: int, role: int) -> None:
        """``user`` gets ``role`` (and with it its permissions, in the interactions they make
        from now on)."""
        record = self.guilds[guild]
        if role not in record.roles:
            raise ValueError(f"server {guild} has no role {role}")
        record.members.add(user)
        record.member_roles.setdefault(user, set()).add(role)

    async def invite(self, bot: discord.Client, guild: int) -> None:
        """The bot is added to a server (made with ``bot_in=False``, or left): GUILD_CREATE with
        the whole server, as Discord sends it for a join."""
        record = self.guilds[guild]
        if record.present:
            raise ValueError(f"the bot is already in server {guild}")
        record.present = True
        record.joined_at = self.now()
        self.gateway(bot)
        self._broadcast("GUILD_CREATE", lambda: guild_payload(self, record, joined=True))
        await settle()

    def add_thread(self, channel: int, name: str) -> int:
        thread = self.add_thread_record(self.channels[channel], name)
        self._broadcast("THREAD_CREATE", lambda: channel_payload(self, thread))
        return thread.id

    def dm_channel(self, user: int) -> int:
        """The user's DM channel with the bot (made when first needed, as Discord does)."""
        return self.dm_channel_for(self.user(user)).id

    # Connecting bots.

    async def connect(self, bot: discord.Client, token: str = "wire-token",
                      *, timeout: float = 5.0) -> None:
        """Installs the doubles on ``bot``, logs in (``setup_hook`` runs), sends READY and a
        GUILD_CREATE per server, and returns once ``on_ready`` has run."""
        if bot in self._attached:
            raise RuntimeError("this bot is already connected to the world")
        attachment = Attachment(bot, attachment_context(self))
        self._attached[bot] = attachment
        bot.http.request = self.recorder.bind(bot.http)  # type: ignore[method-assign]
        install_default(self)
        try:
            await run_in(attachment, bot.login(token))
            if privileged_refusal(bot, self.app_flags):
                raise discord.PrivilegedIntentsRequired(None)
            bot.ws = attachment.socket  # type: ignore[assignment]
            bot._connection.guild_ready_timeout = self.guild_ready_timeout
            session = secrets.token_hex(16)
            feed(self, attachment, "READY", ready_payload(self, self.app_flags, session))
            for guild in self.guilds.values():
                if guild.present:
                    feed(self, attachment, "GUILD_CREATE", guild_payload(self, guild))
            await asyncio.wait_for(bot.wait_until_ready(), timeout)
            attachment.ready = True
            await settle()
        except BaseException:
            await self.disconnect(bot)
            raise

    async def disconnect(self, bot: discord.Client) -> None:
        """``bot.close()``, then :meth:`detach`. The world (messages, interactions) stays."""
        attachment = self._attached.get(bot)
        if attachment is None:
            return
        attachment.ready = False
        try:
            await run_in(attachment, bot.close())
        finally:
            self.detach(bot)

    def detach(self, bot: discord.Client) -> None:
        """Restores the bot's own HTTP client and, once no bot is attached, discord.py's
        default webhook adapter."""
        attachment = self._attached.pop(bot, None)
        if "request" in vars(bot.http):
            del bot.http.request
        if attachment is not None and bot.ws is attachment.socket:  # type: ignore[comparison-overlap]
            bot.ws = None  # type: ignore[assignment]
        if not self._attached:
            uninstall_default(self)

    async def close(self) -> None:
        for bot in list(self._attached):
            await self.disconnect(bot)

    @asynccontextmanager
    async def connected(self, bot: discord.Client) -> AsyncIterator[discord.Client]:
        await self.connect(bot)
        try:
            yield bot
        finally:
            await self.disconnect(bot)

    def attached_bots(self) -> list[discord.Client]:
        return list(self._attached)

    def gateway(self, bot: discord.Client) -> Attachment:
        """The bot's connection (its fed events, its presence updates)."""
        attachment = self._attached.get(bot)
        if attachment is None or not attachment.ready:
            raise RuntimeError("the bot is not connected to this world (await connect first)")
        return attachment

    async def settle(self, rounds: int = 50) -> None:
        await settle(rounds)

    # Gateway events: people acting, and changes to the world.

    async def send(self, bot: discord.Client, user: int, channel: int, content: str) -> int:
        """``user`` posts ``content`` in a server channel (or thread): MESSAGE_CREATE."""
        target = self.channels[channel]
        if target.type == DM or target.deleted:
            raise ValueError("send() is for live server channels; use dm() for DMs")
        assert target.guild_id is not None
        self.guilds[target.guild_id].members.add(user)
        return await self._user_message(bot, user, target, content)

    async def dm(self, bot: discord.Client, user: int, content: str) -> int:
        """``user`` writes to the bot in their DM channel: MESSAGE_CREATE without a guild."""
        return await self._user_message(bot, user, self.dm_channel_for(self.user(user)),
                                        content)

    async def _user_message(self, bot: discord.Client, user: int, channel: FakeChannel,
                            content: str) -> int:
        attachment = self.gateway(bot)
        msg = self.add_message(FakeMessage(self.ids.next(), channel.id, self.user(user).id,
                                           self.now(), content=content))
        guild = channel.guild_id is not None
        if wants(bot, "MESSAGE_CREATE", guild):
            data = message_payload(self, msg, gateway=True)
            mentioned = str(self.bot_user.id) in MENTION.findall(content)
            if guild and not bot._connection._intents.message_content and not mentioned:
                data = without_content(data)
            feed(self, attachment, "MESSAGE_CREATE", data)
        await settle()
        return msg.id

    async def press(self, bot: discord.Client, user: int, message_id: int, custom_id: str,
                    *, values: list[str] | None = None) -> FakeInteraction:
        """``user`` presses a button (or picks ``values`` in a select) on a message."""
        msg, data = pressable(self, user, message_id, custom_id, values)
        return await self._interact(bot, COMPONENT, user, self.channels[msg.channel_id], data,
                                    msg, custom_id=custom_id)

    async def slash(self, bot: discord.Client, user: int, channel: int, command: str, /,
                    options: Mapping[str, Any] | None = None, **kwargs: Any
                    ) -> FakeInteraction:
        """``user`` runs ``/command`` (subcommands as words: ``"mus mesa"``) with options
        given as keywords (or ``options`` for names that are not identifiers)."""
        target = self.channels[channel]
        given = {**(options or {}), **kwargs}
        data = command_data(self, target, command, given, user=user)
        if target.guild_id is not None:
            self.guilds[target.guild_id].members.add(user)
        return await self._interact(bot, APPLICATION_COMMAND, user, target, data, None,
                                    command=command)

    async def autocomplete(self, bot: discord.Client, user: int, channel: int, command: str,
                           /, focused: str, typed: str = "", **others: Any
                           ) -> FakeInteraction:
        """``user`` types ``typed`` into the option ``focused`` of ``/command`` (the other
        options as keywords, as far as filled in): an autocomplete interaction, which the bot
        answers with choices (:attr:`FakeInteraction.choices`)."""
        target = self.channels[channel]
        data = command_data(self, target, command, {**others, focused: typed}, user=user,
                            focused=focused)
        if target.guild_id is not None:
            self.guilds[target.guild_id].members.add(user)
        return await self._interact(bot, AUTOCOMPLETE, user, target, data, None,
                                    command=command)

    async def submit_modal(self, bot: discord.Client, user: int, inter: FakeInteraction,
                           values: Mapping[str, Any]) -> FakeInteraction:
        """``user`` submits the modal the bot answered ``inter`` with."""
        data = modal_data(inter, user, values)
        inter.modal_submitted = True
        origin = self.messages_by_id.get(inter.message_id) if inter.message_id else None
        return await self._interact(bot, MODAL_SUBMIT, user, self.channels[inter.channel_id],
                                    data, origin, custom_id=data["custom_id"])

    async def _interact(self, bot: discord.Client, kind: int, user: int, channel: FakeChannel,
                        data: dict[str, Any], message: FakeMessage | None, *,
                        custom_id: str | None = None, command: str | None = None
                        ) -> FakeInteraction:
        attachment = self.gateway(bot)
        if channel.deleted:
            raise ValueError("that channel was deleted")
        inter = FakeInteraction(
            self.ids.next(), secrets.token_urlsafe(150), kind, self.user(user).id, channel.id,
            channel.guild_id, self.now(), {}, self,
            message_id=None if message is None else message.id, custom_id=custom_id,
            command=command)
        self.interactions[inter.id] = inter
        self.by_token[inter.token] = inter
        inter.payload = interaction_payload(self, inter, data, message)
        feed(self, attachment, "INTERACTION_CREATE", inter.payload)
        await settle()
        return inter

    async def delete_channel(self, bot: discord.Client, channel: int) -> None:
        """Someone deletes a server channel: CHANNEL_DELETE."""
        target = self.channels[channel]
        data = channel_payload(self, target)
        target.deleted = True
        self._broadcast("CHANNEL_DELETE", lambda: data)
        await settle()

    async def remove_guild(self, bot: discord.Client, guild: int) -> None:
        """The bot is removed from a server: GUILD_DELETE (without ``unavailable``)."""
        self.guilds[guild].present = False
        self._broadcast("GUILD_DELETE", lambda: {"id": str(guild)})
        await settle()

    def emit(self, event: str, data: dict[str, Any], channel: FakeChannel) -> None:
        if self.echo:
            self._broadcast(event, lambda: data, guild=channel.guild_id is not None)

    def _broadcast(self, event: str, make: Any, *, guild: bool = True) -> None:
        """Schedules ``event`` for every connected bot that receives it, as the gateway
        sends it: after the change, not inside the request that made it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for attachment in self._attached.values():
            if attachment.ready and wants(attachment.bot, event, guild):
                loop.call_soon(self._deliver, attachment, event, make())

    def _deliver(self, attachment: Attachment, event: str, data: dict[str, Any]) -> None:
        if attachment.ready and self._attached.get(attachment.bot) is attachment:
            feed(self, attachment, event, data)

    # What tests read.

    @property
    def calls(self) -> list[Call]:
        return self.recorder.calls

    def report(self) -> Report:
        return self.recorder.report()

    def message(self, message_id: int) -> FakeMessage:
        return self.messages_by_id[message_id]

    def messages(self, channel: int, *, deleted: bool = True) -> list[FakeMessage]:
        """Every message posted in the channel, oldest first (ephemeral ones are not in a
        channel: see :meth:`ephemerals`); ``deleted=False`` leaves out the deleted ones."""
        found = [self.messages_by_id[i] for i in self.channels[channel].messages]
        return found if deleted else [m for m in found if not m.deleted]

    def dms(self, user: int) -> list[FakeMessage]:
        """What the bot sent ``user`` by DM."""
        record = self.user(user)
        if record.dm_channel is None:
            return []
        return [m for m in self.messages(record.dm_channel) if m.author == self.bot_user.id]

    def ephemerals(self, user: int) -> list[FakeMessage]:
        """The ephemeral interaction messages only ``user`` saw."""
        return [self.messages_by_id[i] for i in self.ephemeral.get(user, [])]

    def user_record(self, user: int) -> FakeUser:
        return self.user(user)

    def refusal(self, status: int, code: int) -> list[Call]:
        """The calls Discord refused with this status and code."""
        return [c for c in self.calls if c.status == status and c.code == code]

    def __repr__(self) -> str:
        return (f"<FakeDiscord guilds={len(self.guilds)} channels={len(self.channels)} "
                f"messages={len(self.messages_by_id)} calls={len(self.calls)}>")


__all__ = ["FakeDiscord", "WireError"]
