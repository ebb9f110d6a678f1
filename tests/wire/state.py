"""The world the double keeps: users, guilds, channels, every message ever posted (with its
edits and deletion) and every interaction. Tests assert on this, never on what the bot
believes: a test that reads the bot's own objects passes whatever Discord would have done."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from . import errors

if TYPE_CHECKING:
    from .emojis import FakeEmoji

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ADMINISTRATOR = discord.Permissions(administrator=True).value
ALL_PERMISSIONS = discord.Permissions.all().value

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREADS = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})


class ClockLike(Protocol):
    """What the double needs of a clock (``musbot.table.clock.ManualClock`` fits)."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class Snowflakes:
    """Ids as Discord makes them: 19-digit ints whose timestamp is the fake clock's time, so
    ``discord.utils.snowflake_time`` of an interaction is its creation on the fake clock."""

    def __init__(self, clock: ClockLike, epoch: float | None = None) -> None:
        self._clock = clock
        self._origin = clock.now()
        self._epoch_ms = int((time.time() if epoch is None else epoch) * 1000)
        self._last = 0
        self._increment = 0
        self.process: int | None = None
        """The process bits (12-16) every id from now on carries (None: 1, unforced). Two
        mirrored worlds, built identically, are given different ones once built, so the ids
        each issues from then on never meet (see ``FakeDiscord.import_message``)."""
        self._reserved: set[int] = set()

    def unix_ms(self, at: float | None = None) -> int:
        at = self._clock.now() if at is None else at
        return self._epoch_ms + int((at - self._origin) * 1000)

    def iso(self, at: float | None = None) -> str:
        """An ISO 8601 timestamp, as payloads carry them, for fake-clock time ``at``."""
        ms = self.unix_ms(at)
        moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
        return moment.isoformat()

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new id, greater than every one issued before. ``shard``: (shard id, shard count)
        the id must fall on (``(id >> 22) % count``, as Discord shards a guild): the smallest
        such id from here, its timestamp pushed forward by at most ``count - 1`` ms."""
        ms = self.unix_ms()
        value = ((ms - DISCORD_EPOCH_MS) << 22) | (1 << 17) | ((self.process or 1) << 12) \
            | (self._increment & 0xFFF)
        self._increment += 1
        value = max(value, self._last + 1)
        while True:
            fixed = value if shard is None else on_shard(value, *shard)
            if self.process is not None:
                fixed = with_process(fixed, self.process)
            if fixed in self._reserved:
                fixed += 1
            if fixed == value:
                break
            value = fixed
        self._last = value
        return value

    def reserve(self, value: int) -> None:
        """An id issued by another world (a mirrored message): never issued here."""
        self._reserved.add(value)


def on_shard(value: int, shard_id: int, shard_count: int) -> int:
    """The smallest id not below ``value`` whose shard is ``shard_id`` of ``shard_count``."""
    if not 0 <= shard_id < shard_count:
        raise ValueError(f"no shard {shard_id} among {shard_count}")
    skip = (shard_id - (value >> 22)) % shard_count
    return value if skip == 0 else ((value >> 22) + skip) << 22


def with_process(value: int, process: int) -> int:
    """The smallest id not below ``value`` whose process bits are ``process``."""
    if not 0 <= process < 32:
        raise ValueError(f"process bits are 0..31, not {process}")
    high, mid = value >> 17, (value >> 12) & 0x1F
    if mid == process:
        return value
    return ((high if mid < process else high + 1) << 17) | (process << 12)


@dataclass
class FakeUser:
    id: int
    name: str
    """The display name Discord shows (``global_name``)."""
    bot: bool = False
    dms_open: bool = True
    dm_channel: int | None = None
    username: str | None = None
    """The unique handle (``username``); the display name in lower case unless given."""
    locale: str = "es-ES"
    """Their Discord client's language, which their interactions carry (``interaction.locale``:
    ``fr``, ``en-GB``…)."""

    @property
    def handle(self) -> str:
        return self.username if self.username is not None else self.name.lower()


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    everyone_role: int
    everyone_permissions: int
    channels: list[int] = field(default_factory=list)
    members: set[int] = field(default_factory=set)
    present: bool = True
    """Whether the bot is in it (``remove_guild`` clears it, ``invite`` sets it)."""
    joined_at: float = 0.0
    locale: str = "es-ES"
    """The server's preferred locale (``guild.preferred_locale``)."""
    system_channel_id: int | None = None
    roles: dict[int, FakeRole] = field(default_factory=dict)
    """The roles besides @everyone."""
    member_roles: dict[int, set[int]] = field(default_factory=dict)
    """User id -> the ids of the roles they were given."""
    nicks: dict[int, str] = field(default_factory=dict)
    """User id -> their nickname in this server."""

    def member_permissions(self, user_id: int) -> int:
        """A member's server-wide permissions, as Discord computes them: the owner and an
        administrator have every permission; anyone else @everyone's and their roles'."""
        value = self.everyone_permissions
        for role in self.member_roles.get(user_id, set()):
            value |= self.roles[role].permissions
        if user_id == self.owner_id or value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value


@dataclass
class FakeChannel:
    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    bot_can_send: bool = True
    deleted: bool = False
    messages: list[int] = field(default_factory=list)
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Permission overwrites: a role's or a member's id -> (allowed, denied) bits."""
    archived: bool = False
    locked: bool = False
    members: set[int] = field(default_factory=set)
    """A private thread's members: who sees it (and those who manage threads)."""
    """A thread's state: archived (Discord's quiet timer, or a moderator), locked (a moderator:
    only those who manage threads post there or open it again)."""


@dataclass(frozen=True)
class Edit:
    """One change to a message: when (fake clock), the request body, and through what
    (``rest``, ``interaction`` for a callback, ``webhook`` for the interaction webhook)."""

    at: float
    payload: Mapping[str, Any]
    via: str


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: int
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    edits: list[Edit] = field(default_factory=list)
    deleted: bool = False
    deleted_at: float | None = None
    ephemeral_for: int | None = None
    """The one user who sees it (an ephemeral interaction message), else None."""
    interaction_id: int | None = None
    webhook_id: int | None = None
    reference: int | None = None
    reactions: list[tuple[str, int]] = field(default_factory=list)
    type: int = 0
    pinged: frozenset[int] = frozenset()
    """The users Discord notified when the message was posted (its content's mentions that
    ``allowed_mentions`` let through, and the replied-to author if allowed); never for an
    ephemeral message, nor for an edit."""
    pinged_everyone: bool = False
    """«@everyone» or «@here» went off."""
    pinged_roles: frozenset[int] = frozenset()

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        """A deferred response still «thinking»."""
        return bool(self.flags & LOADING)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for c in walk_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        return None

    def labels(self) -> list[str]:
        return [str(c["label"]) for c in walk_components(self.components) if c.get("label")]

    def texts(self) -> list[str]:
        """Everything a person reads: content, embed texts, button labels."""
        out = [self.content] if self.content else []
        for embed in self.embeds:
            out += [embed.get(k) or "" for k in ("title", "description")]
            out += [(embed.get(k) or {}).get(s) or "" for k, s in (("author", "name"),
                                                                   ("footer", "text"))]
            for fld in embed.get("fields") or []:
                out += [fld.get("name") or "", fld.get("value") or ""]
        out += self.labels()
        return [t for t in out if t]

    def text(self) -> str:
        return "\n".join(self.texts())


USER_MENTION = re.compile(r"(?<!\\)<@!?([0-9]{15,21})>")
ROLE_MENTION = re.compile(r"(?<!\\)<@&([0-9]{15,21})>")
MASS_MENTION = re.compile(r"(?<!\\)@(everyone|here)\b")


def pings(content: str, allowed: Mapping[str, Any] | None, replied_author: int | None
          ) -> tuple[frozenset[int], bool, frozenset[int]]:
    """Who a new message notifies, as Discord decides: the mentions in its content (a mention
    escaped with a backslash is text), filtered by ``allowed_mentions`` (absent: every kind
    parsed, and the replied-to author notified); embeds never notify."""
    users = {int(m) for m in USER_MENTION.findall(content)}
    roles = {int(m) for m in ROLE_MENTION.findall(content)}
    mass = MASS_MENTION.search(content) is not None
    if allowed is None:
        parse, listed_users, listed_roles, replied = {"users", "roles", "everyone"}, set(), \
            set(), True
    else:
        parse = set(allowed.get("parse") or ())
        listed_users = {int(u) for u in allowed.get("users") or ()}
        listed_roles = {int(r) for r in allowed.get("roles") or ()}
        replied = bool(allowed.get("replied_user", False))
    pinged = users if "users" in parse else users & listed_users
    if replied and replied_author is not None:
        pinged = pinged | {replied_author}
    pinged_roles = roles if "roles" in parse else roles & listed_roles
    return frozenset(pinged), mass and "everyone" in parse, frozenset(pinged_roles)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk_components(c.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                yield from walk_components([c[key]])


@dataclass(frozen=True)
class Answer:
    """One attempt at the interaction's initial response (``POST …/callback``), accepted or
    not: ``status`` 200/204, or the refusal's status and ``code``."""

    at: float
    type: int
    data: Mapping[str, Any] | None
    status: int
    code: int | None = None


@dataclass
class FakeInteraction:
    """An interaction the world sent the bot, and what the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created_at: float
    payload: dict[str, Any]
    world: World
    message_id: int | None = None
    """The message whose component was pressed (component interactions, modal submits)."""
    custom_id: str | None = None
    command: str | None = None
    attempts: list[Answer] = field(default_factory=list)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    deferred_ephemeral: bool = False

    @property
    def responses(self) -> list[Answer]:
        """The accepted initial responses (Discord accepts one)."""
        return [a for a in self.attempts if a.status < 300]

    @property
    def response_type(self) -> int | None:
        """The callback type Discord accepted (4 message, 5 deferred message, 6 deferred
        update, 7 update message, 9 modal), or None if the bot never answered in time."""
        return self.responses[0].type if self.responses else None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The choices an autocomplete interaction was answered with (none if unanswered)."""
        for answer in self.responses:
            if answer.type == 8 and answer.data is not None:
                return list(answer.data.get("choices") or [])
        return []

    @property
    def refusals(self) -> list[Answer]:
        return [a for a in self.attempts if a.status >= 300]

    def messages(self) -> list[FakeMessage]:
        """What this interaction produced: the original response message (if it made one),
        then the followups."""
        ids = ([self.original_id] if self.original_id is not None else []) + self.followup_ids
        return [self.world.messages_by_id[i] for i in dict.fromkeys(ids)]

    @property
    def original(self) -> FakeMessage | None:
        return None if self.original_id is None else self.world.messages_by_id[self.original_id]

    def texts(self) -> list[str]:
        return [t for m in self.messages() for t in m.texts()]

    def ephemeral_texts(self) -> list[str]:
        return [t for m in self.messages() if m.ephemeral for t in m.texts()]

    def public_texts(self) -> list[str]:
        return [t for m in self.messages() if not m.ephemeral for t in m.texts()]


class World:
    """The state, and the lookups route handlers need (which refuse as Discord refuses)."""

    def __init__(self, clock: ClockLike, *, epoch: float | None = None) -> None:
        self.clock = clock
        self.ids = Snowflakes(clock, epoch)
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages_by_id: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.ephemeral: dict[int, list[int]] = {}
        """User id -> ephemeral messages shown to that user."""
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_ids: dict[tuple[int | None, int, str], int] = {}
        self.app_emojis: dict[int, FakeEmoji] = {}
        """The application's own emojis (``wire/emojis.py``): the world's, so a restarted bot
        finds them."""
        self.faults: dict[str, list[errors.WireError]] = {}
        """Route → refusals it answers next, before its handler runs (:meth:`fail`)."""
        self.bot_user = FakeUser(self.ids.next(), "MusBot", bot=True)
        self.users[self.bot_user.id] = self.bot_user
        self.application_id = self.bot_user.id
        self.owner = self._new_user("Owner")

    def _new_user(self, name: str, *, bot: bool = False, dms_open: bool = True) -> FakeUser:
        user = FakeUser(self.ids.next(), name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def now(self) -> float:
        return self.clock.now()

    def fail(self, route: str, status: int, code: int = 0, message: str = "",
             *, times: int = 1) -> None:
        """The next ``times`` calls to ``route`` (``"POST /applications/{application_id}/emojis"``)
        are refused with ``status`` (403, 429, 500, 503…) and JSON ``code``, whatever they ask:
        Discord having a bad minute. A 429 says to retry after a second."""
        refusal = errors.WireError(status, code, message or errors.REASONS.get(status, "Error"))
        self.faults.setdefault(route, []).extend([refusal] * times)

    # Lookups that refuse as Discord does.

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[int(user_id)]
        except (KeyError, ValueError):
            raise errors.unknown("user") from None

    def channel(self, channel_id: int) -> FakeChannel:
        """A channel the bot can reach: unknown or deleted → 404/10003; in a server the bot
        left → 403/50001."""
        try:
            channel = self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise errors.unknown("channel") from None
        if channel.deleted:
            raise errors.unknown("channel")
        if channel.guild_id is not None and not self.guilds[channel.guild_id].present:
            raise errors.WireError(403, errors.MISSING_ACCESS, "Missing Access")
        return channel

    def visible_message(self, channel: FakeChannel, message_id: int) -> FakeMessage:
        """A message of that channel, as REST sees it (ephemeral ones are invisible)."""
        msg = self.messages_by_id.get(int(message_id))
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise errors.unknown("message")
        return msg

    def dm_channel_for(self, user: FakeUser) -> FakeChannel:
        """The user's DM channel with the bot, made on first use as Discord makes it."""
        if user.dm_channel is None:
            channel = FakeChannel(self.ids.next(), DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            user.dm_channel = channel.id
        return self.channels[user.dm_channel]

    def add_message(self, msg: FakeMessage) -> FakeMessage:
        self.messages_by_id[msg.id] = msg
        if msg.ephemeral_for is not None:
            self.ephemeral.setdefault(msg.ephemeral_for, []).append(msg.id)
        else:
            self.channels[msg.channel_id].messages.append(msg.id)
        return msg

    # Changes, shared by the REST and the interaction routes.

    def post(self, channel: FakeChannel, author: int, body: Mapping[str, Any],
             files: list[Any] | tuple[Any, ...] = (), **extra: Any) -> FakeMessage:
        """A new message from a (checked) body: content, embeds, components, flags, files;
        and the notifications it sends (see :func:`pings`)."""
        msg = FakeMessage(self.ids.next(), channel.id, author, self.now(), **extra)
        self._apply(msg, body, files)
        if not msg.ephemeral:
            replied = self.messages_by_id.get(msg.reference) if msg.reference else None
            msg.pinged, msg.pinged_everyone, msg.pinged_roles = pings(
                msg.content, body.get("allowed_mentions"),
                replied.author if replied is not None else None)
        return self.add_message(msg)

    def pings(self, *, channel: int | None = None) -> list[tuple[int, int]]:
        """(message id, user id) of every notification the bot's messages sent (in
        ``channel``), oldest first; «@everyone» counts as user 0."""
        found = []
        for msg in self.messages_by_id.values():
            if msg.author != self.bot_user.id or (channel is not None
                                                  and msg.channel_id != channel):
                continue
            found += [(msg.id, user) for user in sorted(msg.pinged)]
            if msg.pinged_everyone:
                found.append((msg.id, 0))
        return found

    def edit(self, msg: FakeMessage, body: Mapping[str, Any], files: list[Any] | tuple[Any, ...]
             = (), *, via: str) -> None:
        self._apply(msg, body, files)
        msg.edits.append(Edit(self.now(), dict(body), via))

    def _apply(self, msg: FakeMessage, body: Mapping[str, Any],
               files: list[Any] | tuple[Any, ...]) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "embeds" in body:
            msg.embeds = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (EPHEMERAL | LOADING)
            msg.flags = (int(body["flags"]) & ~(EPHEMERAL | LOADING)) | keep
        if "attachments" in body or files:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in msg.attachments if str(a["id"]) in kept_ids]
            msg.attachments = kept + [self._attachment(msg, f) for f in files]

    def _attachment(self, msg: FakeMessage, file: Any) -> dict[str, Any]:
        attachment_id = self.ids.next()
        url = (f"https://cdn.discordapp.com/attachments/{msg.channel_id}/{attachment_id}/"
               f"{file.filename}")
        return {"id": str(attachment_id), "filename": file.filename, "size": file.size,
                "url": url, "proxy_url": url, "content_type": "application/octet-stream"}

    def delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        msg.deleted_at = self.now()

    def emit(self, event: str, data: dict[str, Any], channel: FakeChannel) -> None:
        """A gateway event the change causes (MESSAGE_CREATE for the bot's own message…).
        The world alone sends nothing; :class:`wire.FakeDiscord` delivers to connected bots."""

    def add_thread_record(self, parent: FakeChannel, name: str, *,
                          kind: int = PUBLIC_THREAD) -> FakeChannel:
        assert parent.guild_id is not None
        thread = FakeChannel(self.ids.next(), kind, name, parent.guild_id,
                             parent_id=parent.id)
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].channels.append(thread.id)
        return thread
