"""``FakeDiscord``: the test-facing double. Real ``discord.Client``/``commands.Bot`` objects
connect to it; only their HTTP side is replaced (``bot.http.request`` and the webhook adapter),
and gateway events reach their connection state's parsers as the gateway would send them."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import discord

from .errors import WireError
from .gateway import (
    Attachment,
    FakeGatewaySocket,
    attachment_context,
    feed,
    open_shards,
    privileged_refusal,
    run_in,
    settle,
    shard_of,
    wants,
)
from .payloads import (
    DEFAULT_EVERYONE,
    MENTION,
    channel_payload,
    guild_payload,
    interaction_payload,
    member_payload,
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
    THREADS,
    ClockLike,
    Edit,
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
        self.inputs: list[tuple[int, dict[str, Any]]] = []
        """What people did, each with how many calls the bot had made by then
        (``wire.look`` writes them among the calls)."""
        self.adapter = FakeWebhookAdapter(self)
        self._attached: dict[discord.Client, Attachment] = {}

    # The world, before or while bots are connected.

    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False,
                 username: str | None = None, locale: str = "es-ES") -> int:
        """A person (``name``: the display name; ``username``: the handle, by default the
        name in lower case; ``locale``: their client's language)."""
        user = self._new_user(name, bot=bot, dms_open=dms_open)
        user.username = username
        user.locale = locale
        return user.id

    def set_locale(self, user: int, locale: str) -> None:
        """The person switches their Discord client to another language."""
        self.users[user].locale = locale

    def set_nick(self, guild: int, user: int, nick: str | None) -> None:
        """``user``'s nickname in the server (what their interactions and messages carry from
        now on)."""
        record = self.guilds[guild]
        record.members.add(user)
        if nick is None:
            record.nicks.pop(user, None)
        else:
            record.nicks[user] = nick

    def set_dms(self, user: int, *, open: bool) -> None:
        self.user(user).dms_open = open

    def add_guild(self, name: str, *, permissions: int = DEFAULT_EVERYONE,
                  owner: int | None = None, locale: str = "es-ES", bot_in: bool = True,
                  shard: tuple[int, int] | None = None) -> int:
        """A server; with ``bot_in`` the bot is in it (a connected bot joins it now, empty).
        Without, it is set up first and the bot added later with :meth:`invite`. ``shard``:
        (shard id, shard count) its id must fall on (with a fake clock every id would fall
        on one shard)."""
        guild_id = self.ids.next(shard=shard)
        self.guilds[guild_id] = FakeGuild(guild_id, name, owner or self.owner.id, guild_id,
                                          permissions, joined_at=self.now(), locale=locale,
                                          present=bot_in)
        if bot_in:
            self._broadcast("GUILD_CREATE", lambda: guild_payload(self, self.guilds[guild_id],
                                                                  joined=True),
                            guild_id=guild_id)
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
            self._broadcast("CHANNEL_CREATE", lambda: channel_payload(self, channel),
                            guild_id=guild)
        return channel.id

    def add_role(self, guild: int, name: str, permissions: int) -> int:
        record = self.guilds[guild]
        role = FakeRole(self.ids.next(), name, permissions, position=len(record.roles) + 1)
        record.roles[role.id] = role
        if record.present:
            self._broadcast("GUILD_ROLE_CREATE", lambda: {
                "guild_id": str(guild),
                "role": role_payload(role.id, role.name, role.permissions, role.position)},
                guild_id=guild)
        return role.id

    def give_role(self, guild: int, user: int, role: int) -> None:
        """``user`` gets ``role`` (and with it its permissions, in the interactions they make
        from now on). The bot itself is told of its own roles (GUILD_MEMBER_UPDATE, which
        Discord sends for the current user whatever the intents)."""
        record = self.guilds[guild]
        if role not in record.roles:
            raise ValueError(f"server {guild} has no role {role}")
        record.members.add(user)
        record.member_roles.setdefault(user, set()).add(role)
        self._member_updated(record, user)

    def take_role(self, guild: int, user: int, role: int) -> None:
        record = self.guilds[guild]
        record.member_roles.get(user, set()).discard(role)
        self._member_updated(record, user)

    def _member_updated(self, record: FakeGuild, user: int) -> None:
        if user == self.bot_user.id and record.present:
            self._broadcast("GUILD_MEMBER_UPDATE", lambda: member_payload(
                self, record, self.bot_user) | {"guild_id": str(record.id)},
                guild_id=record.id)

    def set_role_permissions(self, guild: int, role: int, permissions: int) -> None:
        """A server's role (its id, or the server's for @everyone) gets these permissions:
        GUILD_ROLE_UPDATE."""
        record = self.guilds[guild]
        if role == record.everyone_role:
            record.everyone_permissions = permissions
            name, position = "@everyone", 0
        else:
            found = record.roles[role]
            found.permissions = permissions
            name, position = found.name, found.position
        if record.present:
            self._broadcast("GUILD_ROLE_UPDATE", lambda: {
                "guild_id": str(guild), "role": role_payload(role, name, permissions,
                                                             position)}, guild_id=guild)

    def set_overwrite(self, channel: int, target: int, *, allow: int = 0, deny: int = 0
                      ) -> None:
        """The channel's permission overwrite for a role or a member (the bot's own user id
        for the bot): CHANNEL_UPDATE. Both 0 removes it."""
        record = self.channels[channel]
        if allow or deny:
            record.overwrites[target] = (allow, deny)
        else:
            record.overwrites.pop(target, None)
        if record.guild_id is not None and self.guilds[record.guild_id].present:
            self._broadcast("CHANNEL_UPDATE", lambda: channel_payload(self, record),
                            guild_id=record.guild_id)

    async def invite(self, bot: discord.Client, guild: int) -> None:
        """The bot is added to a server (made with ``bot_in=False``, or left): GUILD_CREATE with
        the whole server, as Discord sends it for a join (to the bot holding its shard)."""
        record = self.guilds[guild]
        if record.present:
            raise ValueError(f"the bot is already in server {guild}")
        record.present = True
        record.joined_at = self.now()
        self.gateway(bot)
        self._broadcast("GUILD_CREATE", lambda: guild_payload(self, record, joined=True),
                        guild_id=guild)
        await settle()

    def add_thread(self, channel: int, name: str) -> int:
        thread = self.add_thread_record(self.channels[channel], name)
        self._broadcast("THREAD_CREATE", lambda: channel_payload(self, thread),
                        guild_id=thread.guild_id)
        return thread.id

    def dm_channel(self, user: int) -> int:
        """The user's DM channel with the bot (made when first needed, as Discord does)."""
        return self.dm_channel_for(self.user(user)).id

    # Connecting bots.

    async def connect(self, bot: discord.Client, token: str = "wire-token",
                      *, timeout: float = 5.0) -> None:
        """Installs the doubles on ``bot``, logs in (``setup_hook`` runs), sends READY and a
        GUILD_CREATE per server, and returns once ``on_ready`` has run. An
        ``AutoShardedClient`` (``shard_count`` and ``shard_ids`` given) gets a READY per shard
        it holds, each followed by that shard's servers only; several, holding different
        shards of the application as separate processes would, may be attached at once."""
        if bot in self._attached:
            raise RuntimeError("this bot is already connected to the world")
        attachment = Attachment(bot, attachment_context(self))
        if isinstance(bot, discord.AutoShardedClient):
            self._claim_shards(bot, attachment)
        self._attached[bot] = attachment
        bot.http.request = self.recorder.bind(bot.http)  # type: ignore[method-assign]
        install_default(self)
        try:
            await run_in(attachment, bot.login(token))
            if privileged_refusal(bot, self.app_flags):
                raise discord.PrivilegedIntentsRequired(min(attachment.shards, default=None))
            bot._connection.guild_ready_timeout = self.guild_ready_timeout
            if isinstance(bot, discord.AutoShardedClient):
                open_shards(bot, attachment)
                count = attachment.shard_count
                assert count is not None
                for shard_id in attachment.shards:
                    self._identify(attachment, (shard_id, count))
            else:
                bot.ws = attachment.socket  # type: ignore[assignment]
                self._identify(attachment, None)
            await asyncio.wait_for(bot.wait_until_ready(), timeout)
            attachment.ready = True
            await settle()
        except BaseException:
            await self.disconnect(bot)
            raise

    def _claim_shards(self, bot: discord.AutoShardedClient, attachment: Attachment) -> None:
        """The shards a sharded bot holds, refused as ``launch_shards`` would not run without
        them, or when another attached bot holds one (the routing would be ambiguous)."""
        count, ids = bot.shard_count, bot.shard_ids
        if count is None or ids is None:
            raise ValueError("a sharded bot needs shard_count and shard_ids to connect to the "
                             "world (it does not ask GET /gateway/bot for a count)")
        if not ids or len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            raise ValueError(f"shard_ids {list(ids)}: distinct shard ids in 0..{count - 1}")
        for other in self._attached.values():
            if other.shard_count is not None and other.shard_count != count:
                raise ValueError(f"the attached bots use {other.shard_count} shards, not {count}")
            held = sorted(set(ids) & set(other.shards))
            if held:
                raise ValueError(f"shard(s) {held} of {count} are held by another attached bot")
        attachment.shard_count = count
        attachment.shards = {i: FakeGatewaySocket(i) for i in ids}

    def _identify(self, attachment: Attachment, shard: tuple[int, int] | None) -> None:
        """One session: READY (``shard``: that shard's), then a GUILD_CREATE per server it
        lists."""
        session = secrets.token_hex(16)
        feed(self, attachment, "READY", ready_payload(self, self.app_flags, session, shard))
        for guild in self.guilds.values():
            if guild.present and (shard is None or shard_of(guild.id, shard[1]) == shard[0]):
                feed(self, attachment, "GUILD_CREATE", guild_payload(self, guild))

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

    def receiver(self, channel_id: int) -> discord.Client:
        """The attached bot Discord delivers that channel's events to: the one holding its
        server's shard, or shard 0 for a DM channel (an unsharded bot holds every shard)."""
        channel = self.channels[channel_id]
        found = [a.bot for a in self._attached.values()
                 if a.ready and a.receives(channel.guild_id)]
        if len(found) != 1:
            where = "a DM" if channel.guild_id is None else f"server {channel.guild_id}"
            raise LookupError(f"{len(found)} attached bots receive the events of channel "
                              f"{channel_id} ({where}); one was expected")
        return found[0]

    def _route(self, bot: discord.Client, guild_id: int | None) -> Attachment:
        """The bot's connection, if Discord sends it the events of that server (None: of
        DMs); a test cannot hand an event to a shard Discord would not send it to."""
        attachment = self.gateway(bot)
        if not attachment.receives(guild_id):
            count = attachment.shard_count or 1
            where = "DMs" if guild_id is None else f"server {guild_id}"
            raise ValueError(f"Discord sends the events of {where} to shard "
                             f"{shard_of(guild_id, count)} of {count}; this bot holds shard(s) "
                             f"{sorted(attachment.shards)} (see world.receiver(channel))")
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
        attachment = self._route(bot, target.guild_id)
        self.guilds[target.guild_id].members.add(user)
        return await self._user_message(attachment, user, target, content)

    async def dm(self, bot: discord.Client, user: int, content: str) -> int:
        """``user`` writes to the bot in their DM channel: MESSAGE_CREATE without a guild
        (sent to shard 0 only)."""
        attachment = self._route(bot, None)
        return await self._user_message(attachment, user, self.dm_channel_for(self.user(user)),
                                        content)

    async def _user_message(self, attachment: Attachment, user: int, channel: FakeChannel,
                            content: str) -> int:
        bot = attachment.bot
        msg = self.add_message(FakeMessage(self.ids.next(), channel.id, self.user(user).id,
                                           self.now(), content=content))
        self._input({"event": "MESSAGE_CREATE", "user_id": str(user),
                     "channel_id": str(channel.id), "dm": channel.type == DM,
                     "message_id": str(msg.id), "content": content})
        guild = channel.guild_id is not None
        if wants(bot, "MESSAGE_CREATE", channel.guild_id):
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
        channel = self.channels[msg.channel_id]
        attachment = self._route(bot, channel.guild_id)
        return await self._interact(attachment, COMPONENT, user, channel, data, msg,
                                    custom_id=custom_id)

    async def slash(self, bot: discord.Client, user: int, channel: int, command: str, /,
                    options: Mapping[str, Any] | None = None, *,
                    forge: Callable[[dict[str, Any]], None] | None = None, **kwargs: Any
                    ) -> FakeInteraction:
        """``user`` runs ``/command`` (subcommands as words: ``"mus mesa"``) with options
        given as keywords (or ``options`` for names that are not identifiers). ``forge``
        changes the payload as a hostile client could before the gateway delivers it (a
        locale that is no string, an integer option given as text)."""
        target = self.channels[channel]
        given = {**(options or {}), **kwargs}
        data = command_data(self, target, command, given, user=user)
        attachment = self._route(bot, target.guild_id)
        if target.guild_id is not None:
            self.guilds[target.guild_id].members.add(user)
        return await self._interact(attachment, APPLICATION_COMMAND, user, target, data, None,
                                    command=command, forge=forge)

    async def autocomplete(self, bot: discord.Client, user: int, channel: int, command: str,
                           /, focused: str, typed: str = "", **others: Any
                           ) -> FakeInteraction:
        """``user`` types ``typed`` into the option ``focused`` of ``/command`` (the other
        options as keywords, as far as filled in): an autocomplete interaction, which the bot
        answers with choices (:attr:`FakeInteraction.choices`)."""
        target = self.channels[channel]
        data = command_data(self, target, command, {**others, focused: typed}, user=user,
                            focused=focused)
        attachment = self._route(bot, target.guild_id)
        if target.guild_id is not None:
            self.guilds[target.guild_id].members.add(user)
        return await self._interact(attachment, AUTOCOMPLETE, user, target, data, None,
                                    command=command)

    async def submit_modal(self, bot: discord.Client, user: int, inter: FakeInteraction,
                           values: Mapping[str, Any]) -> FakeInteraction:
        """``user`` submits the modal the bot answered ``inter`` with."""
        data = modal_data(inter, user, values)
        channel = self.channels[inter.channel_id]
        attachment = self._route(bot, channel.guild_id)
        inter.modal_submitted = True
        origin = self.messages_by_id.get(inter.message_id) if inter.message_id else None
        return await self._interact(attachment, MODAL_SUBMIT, user, channel, data, origin,
                                    custom_id=data["custom_id"])

    async def _interact(self, attachment: Attachment, kind: int, user: int,
                        channel: FakeChannel, data: dict[str, Any], message: FakeMessage | None,
                        *, custom_id: str | None = None, command: str | None = None,
                        forge: Callable[[dict[str, Any]], None] | None = None
                        ) -> FakeInteraction:
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
        self._input({"event": "INTERACTION_CREATE", "user_id": str(user),
                     "channel_id": str(channel.id), "dm": channel.type == DM,
                     "kind": {COMPONENT: "component", MODAL_SUBMIT: "modal"}.get(kind, "command"),
                     "interaction_id": str(inter.id), "token": inter.token, "data": data,
                     "message_id": None if message is None else str(message.id),
                     "label": custom_id or command})
        if forge is not None:
            forge(inter.payload)
        feed(self, attachment, "INTERACTION_CREATE", inter.payload)
        await settle()
        return inter

    def _input(self, event: dict[str, Any]) -> None:
        user = self.users.get(int(event["user_id"]))
        self.inputs.append((len(self.recorder.calls), {
            "via": "gateway", "virt": self.now(), "author": getattr(user, "name", "?"),
            **event}))

    async def delete_channel(self, bot: discord.Client, channel: int) -> None:
        """Someone deletes a server channel (CHANNEL_DELETE) or a thread (THREAD_DELETE)."""
        target = self.channels[channel]
        data = channel_payload(self, target)
        target.deleted = True
        if target.type in THREADS:
            data = {key: data[key] for key in ("id", "guild_id", "parent_id", "type")}
            self._broadcast("THREAD_DELETE", lambda: data, guild_id=target.guild_id)
        else:
            self._broadcast("CHANNEL_DELETE", lambda: data, guild_id=target.guild_id)
        await settle()

    async def close_thread(self, bot: discord.Client, thread: int, *, locked: bool = True,
                           archived: bool = True) -> None:
        """A moderator locks and archives a thread (or opens it again): THREAD_UPDATE."""
        target = self.channels[thread]
        target.locked, target.archived = locked, archived
        self._broadcast("THREAD_UPDATE", lambda: channel_payload(self, target),
                        guild_id=target.guild_id)
        await settle()

    async def remove_guild(self, bot: discord.Client, guild: int) -> None:
        """The bot is removed from a server: GUILD_DELETE (without ``unavailable``)."""
        self.guilds[guild].present = False
        self._broadcast("GUILD_DELETE", lambda: {"id": str(guild)}, guild_id=guild)
        await settle()

    def emit(self, event: str, data: dict[str, Any], channel: FakeChannel) -> None:
        if self.echo:
            self._broadcast(event, lambda: data, guild_id=channel.guild_id)

    def _broadcast(self, event: str, make: Any, *, guild_id: int | None) -> None:
        """Schedules ``event`` (of that server; None: of a DM) for every connected bot that
        receives it, as the gateway sends it: to the shard holding the server (DMs: shard 0),
        after the change, not inside the request that made it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for attachment in self._attached.values():
            if attachment.ready and attachment.receives(guild_id) and \
                    wants(attachment.bot, event, guild_id):
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

    # Two worlds standing for one Discord (two processes, each with its own double).

    def export_message(self, message_id: int) -> dict[str, Any]:
        """A message as a JSON-serialisable record for :meth:`import_message` into another
        world: Discord is one, but two processes' doubles are two, so a DM one shard's bot
        posted must be copied to the world where shard 0 receives the press on it."""
        msg = self.messages_by_id[message_id]
        channel = self.channels[msg.channel_id]
        record = {
            "id": msg.id, "author": msg.author, "created_at": msg.created_at,
            "channel": {"id": channel.id, "type": channel.type, "guild_id": channel.guild_id,
                        "recipient_id": channel.recipient_id},
            "content": msg.content, "embeds": msg.embeds, "components": msg.components,
            "attachments": msg.attachments, "flags": msg.flags,
            "edits": [{"at": e.at, "payload": dict(e.payload), "via": e.via}
                      for e in msg.edits],
            "deleted": msg.deleted, "deleted_at": msg.deleted_at,
            "ephemeral_for": msg.ephemeral_for, "interaction_id": msg.interaction_id,
            "webhook_id": msg.webhook_id, "reference": msg.reference,
            "reactions": [list(r) for r in msg.reactions], "type": msg.type,
        }
        return dict(json.loads(json.dumps(record)))  # a copy, and proof it serialises

    def import_message(self, data: Mapping[str, Any]) -> int:
        """Copies a record of :meth:`export_message` here with its id (again: updates the
        copy) and returns the id. Its channel and author must be here (both worlds built
        identically), except a DM channel, made here with that id if its person has none
        yet. Give the two worlds different ``ids.process`` once built, so the ids each issues
        never meet; an id taken here by another message is refused. No gateway event is sent,
        and the interaction that made the message stays in its own world."""
        record = json.loads(json.dumps(dict(data)))
        channel = self._mirror_channel(record["channel"])
        author, created = int(record["author"]), float(record["created_at"])
        if author not in self.users:
            raise ValueError(f"author {author} is not in this world: build both identically")
        msg_id = int(record["id"])
        existing = self.messages_by_id.get(msg_id)
        if existing is not None and (existing.channel_id, existing.author,
                                     existing.created_at) != (channel.id, author, created):
            raise ValueError(f"id {msg_id} is another message here: set the worlds' "
                             "ids.process apart once built")
        made_by = self.interactions.get(record["interaction_id"] or 0)
        fields: dict[str, Any] = {
            "content": record["content"], "embeds": record["embeds"],
            "components": record["components"], "attachments": record["attachments"],
            "flags": record["flags"],
            "edits": [Edit(e["at"], e["payload"], e["via"]) for e in record["edits"]],
            "deleted": record["deleted"], "deleted_at": record["deleted_at"],
            "ephemeral_for": record["ephemeral_for"],
            "interaction_id": made_by.id if made_by is not None and
            made_by.channel_id == channel.id else None,
            "webhook_id": record["webhook_id"], "reference": record["reference"],
            "reactions": [(e, u) for e, u in record["reactions"]], "type": record["type"]}
        if existing is None:
            self.ids.reserve(msg_id)
            self.add_message(FakeMessage(msg_id, channel.id, author, created, **fields))
        else:
            vars(existing).update(fields)
        return msg_id

    def _mirror_channel(self, data: Mapping[str, Any]) -> FakeChannel:
        """The imported message's channel here (a DM channel made if need be)."""
        channel_id = int(data["id"])
        kind = (data["type"], data["guild_id"], data["recipient_id"])
        channel = self.channels.get(channel_id)
        if channel is not None:
            if (channel.type, channel.guild_id, channel.recipient_id) != kind:
                raise ValueError(f"channel {channel_id} is another channel here")
            return channel
        if data["type"] != DM or data["recipient_id"] not in self.users:
            raise ValueError(f"channel {channel_id} is not in this world: only DM channels "
                             "are made on import; build both worlds identically")
        person = self.users[data["recipient_id"]]
        if person.dm_channel is not None:
            raise ValueError(f"{person.name}'s DM channel here is {person.dm_channel}, not "
                             f"{channel_id}: make it while building both worlds "
                             "(world.dm_channel(user)), so it is one")
        channel = FakeChannel(channel_id, DM, recipient_id=person.id)
        self.ids.reserve(channel_id)
        self.channels[channel_id] = channel
        person.dm_channel = channel_id
        return channel

    def user_record(self, user: int) -> FakeUser:
        return self.user(user)

    def refusal(self, status: int, code: int) -> list[Call]:
        """The calls Discord refused with this status and code."""
        return [c for c in self.calls if c.status == status and c.code == code]

    def invalid_requests(self, channel: int | None = None) -> list[Call]:
        """The calls Discord counts towards its ban of 10,000 invalid requests in 10 minutes
        (answered 401, 403 or 429) (about ``channel``)."""
        return [c for c in self.calls if c.status in (401, 403, 429)
                and (channel is None or c.channel_id == channel)]

    def __repr__(self) -> str:
        return (f"<FakeDiscord guilds={len(self.guilds)} channels={len(self.channels)} "
                f"messages={len(self.messages_by_id)} calls={len(self.calls)}>")


__all__ = ["FakeDiscord", "WireError"]
