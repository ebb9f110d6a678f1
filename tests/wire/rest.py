"""The REST routes a bot reaches with its token (``bot.http``): users and DMs, channels and
messages, reactions, threads, application commands. Each answers as Discord does, refusals
included; rate limits and the global budget are the recorder's business, not these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from . import errors, limits
from .errors import WireError, form_error
from .payloads import (
    app_info_payload,
    bot_permissions,
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    user_payload,
)
from .routing import Reply, Request, Router
from .state import DM, PRIVATE_THREAD, PUBLIC_THREAD, THREADS, FakeChannel, FakeMessage

if TYPE_CHECKING:
    from .fake import FakeDiscord

rest = Router()
NO_CONTENT: Reply = (204, "")
CANNOT_EDIT_OTHERS = 50005
VIEW = discord.Permissions(view_channel=True).value
MANAGE_MESSAGES = discord.Permissions(manage_messages=True).value


@rest("GET /users/@me")
def get_me(world: FakeDiscord, req: Request) -> Reply:
    return 200, user_payload(world.bot_user) | {"verified": True, "mfa_enabled": False,
                                                 "flags": 0}


@rest("GET /oauth2/applications/@me")
def get_application(world: FakeDiscord, req: Request) -> Reply:
    return 200, app_info_payload(world, world.app_flags)


@rest("GET /users/{user_id}")
def get_user(world: FakeDiscord, req: Request) -> Reply:
    return 200, user_payload(world.user(req.id("user_id")))


@rest("POST /users/@me/channels")
def open_dm(world: FakeDiscord, req: Request) -> Reply:
    """Opens (or returns) the DM channel: this works even if the user's DMs are closed; only
    sending there is refused."""
    recipient = req.body().get("recipient_id")
    if recipient is None:
        raise errors.required("recipient_id")
    return 200, channel_payload(world, world.dm_channel_for(world.user(int(recipient))))


@rest("GET /channels/{channel_id}")
def get_channel(world: FakeDiscord, req: Request) -> Reply:
    channel = world.channel(req.id("channel_id"))
    _may_view(world, channel)
    return 200, channel_payload(world, channel)


@rest("GET /guilds/{guild_id}")
def get_guild(world: FakeDiscord, req: Request) -> Reply:
    guild = world.guilds.get(req.id("guild_id"))
    if guild is None or not guild.present:
        raise errors.WireError(403, errors.MISSING_ACCESS, "Missing Access")
    data = guild_payload(world, guild)
    for key in ("channels", "threads", "members", "voice_states", "presences", "joined_at",
                "large", "member_count"):
        data.pop(key, None)
    return 200, data


@rest("GET /guilds/{guild_id}/members/{user_id}")
def get_member(world: FakeDiscord, req: Request) -> Reply:
    guild = world.guilds.get(req.id("guild_id"))
    if guild is None or not guild.present:
        raise errors.unknown("guild")
    user = world.user(req.id("user_id"))
    if user.id not in guild.members and user.id != world.bot_user.id:
        raise WireError(404, 10007, "Unknown Member")
    return 200, member_payload(world, guild, user)


def _may_view(world: FakeDiscord, channel: FakeChannel) -> discord.Permissions:
    """The bot's permissions there; 403/50001 if it cannot see the channel."""
    perms = discord.Permissions(bot_permissions(world, channel))
    if channel.type != DM and not perms.view_channel:
        raise WireError(403, errors.MISSING_ACCESS, "Missing Access")
    return perms


MANAGE_THREADS = discord.Permissions(manage_threads=True).value


def _open_thread(world: FakeDiscord, channel: FakeChannel, *, posting: bool = False) -> None:
    """A call about a thread's messages: refused while it is archived (400/50083), but a new
    message opens an archived thread that is not locked, as Discord does; a locked one takes
    new messages only from who manages threads (400/160005)."""
    if channel.type not in THREADS:
        return
    manages = bool(bot_permissions(world, channel) & MANAGE_THREADS)
    if channel.locked and not manages and (posting or channel.archived):
        if channel.archived:
            raise WireError(400, errors.THREAD_ARCHIVED, "Thread is archived")
        raise WireError(400, errors.THREAD_LOCKED, "Thread is locked")
    if channel.archived:
        if not posting:
            raise WireError(400, errors.THREAD_ARCHIVED, "Thread is archived")
        channel.archived = False
        world.emit("THREAD_UPDATE", channel_payload(world, channel), channel)


@rest("PATCH /channels/{channel_id}")
def edit_channel(world: FakeDiscord, req: Request) -> Reply:
    """A thread's archived and locked states (the only channel edit the bot makes): opening an
    archived thread needs Send Messages in Threads, and Manage Threads if it is locked."""
    channel = world.channel(req.id("channel_id"))
    perms = _may_view(world, channel)
    if channel.type not in THREADS:
        raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
    body = req.body()
    if "locked" in body and bool(body["locked"]) != channel.locked and not perms.manage_threads:
        raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
    if body.get("archived") is False and channel.archived:
        if (channel.locked and not perms.manage_threads) or not perms.send_messages_in_threads:
            raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
        channel.archived = False
    elif body.get("archived") is True:
        channel.archived = True
    if "locked" in body:
        channel.locked = bool(body["locked"])
    world.emit("THREAD_UPDATE", channel_payload(world, channel), channel)
    return 200, channel_payload(world, channel)


def _may_send(world: FakeDiscord, channel: FakeChannel, *, reply: bool = False) -> None:
    """A new message (``reply``: one that quotes another, which needs Read Message History)."""
    if channel.type == DM:
        assert channel.recipient_id is not None
        recipient = world.users[channel.recipient_id]
        if recipient.bot or not recipient.dms_open:
            raise WireError(403, errors.CANNOT_DM_USER, "Cannot send messages to this user")
        return
    perms = discord.Permissions(bot_permissions(world, channel))
    if not perms.view_channel:
        raise WireError(403, errors.MISSING_ACCESS, "Missing Access")
    allowed = perms.send_messages_in_threads if channel.type in THREADS \
        else perms.send_messages
    if not allowed or (reply and not perms.read_message_history):
        raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")


@rest("POST /channels/{channel_id}/messages")
def create_message(world: FakeDiscord, req: Request) -> Reply:
    channel = world.channel(req.id("channel_id"))
    body = req.body()
    limits.check_message(body, files=len(req.files))
    if body.get("flags") and int(body["flags"]) & limits.EPHEMERAL:
        raise form_error("flags", "MESSAGE_FLAGS_INVALID", "Ephemeral messages need an "
                         "interaction")
    reference = None
    ref = body.get("message_reference")
    if ref:
        target = world.messages_by_id.get(int(ref.get("message_id", 0)))
        if target is None or target.deleted or target.channel_id != channel.id:
            if ref.get("fail_if_not_exists", True):
                raise form_error("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                 "Unknown message")
        else:
            reference = target.id
    _may_send(world, channel, reply=ref is not None)
    _open_thread(world, channel, posting=True)
    msg = world.post(channel, world.bot_user.id, body, req.files, reference=reference,
                     type=19 if reference else 0)
    world.emit("MESSAGE_CREATE", message_payload(world, msg, gateway=True), channel)
    return 200, message_payload(world, msg)


@rest("GET /channels/{channel_id}/messages")
def history(world: FakeDiscord, req: Request) -> Reply:
    channel = world.channel(req.id("channel_id"))
    if not _may_view(world, channel).read_message_history and channel.type != DM:
        return 200, []
    limit = int(req.query.get("limit", 50))
    before = int(req.query.get("before", 1 << 64))
    after = int(req.query.get("after", 0))
    found = [world.messages_by_id[i] for i in reversed(channel.messages)]
    found = [m for m in found if not m.deleted and after < m.id < before]
    if "after" in req.query:
        found = found[::-1][:limit][::-1]
    return 200, [message_payload(world, m) for m in found[:limit]]


@rest("GET /channels/{channel_id}/messages/{message_id}")
def get_message(world: FakeDiscord, req: Request) -> Reply:
    channel = world.channel(req.id("channel_id"))
    _may_view(world, channel)
    return 200, message_payload(world, world.visible_message(channel, req.id("message_id")))


def _own(world: FakeDiscord, req: Request) -> tuple[FakeChannel, FakeMessage]:
    channel = world.channel(req.id("channel_id"))
    _may_view(world, channel)
    msg = world.visible_message(channel, req.id("message_id"))
    _open_thread(world, channel)
    return channel, msg


@rest("PATCH /channels/{channel_id}/messages/{message_id}")
def edit_message(world: FakeDiscord, req: Request) -> Reply:
    channel, msg = _own(world, req)
    if msg.author != world.bot_user.id:
        raise WireError(403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another "
                        "user")
    body = req.body()
    limits.check_edit({"content": msg.content, "embeds": msg.embeds,
                       "components": msg.components, "attachments": msg.attachments},
                      body, files=len(req.files))
    world.edit(msg, body, req.files, via="rest")
    world.emit("MESSAGE_UPDATE", message_payload(world, msg, gateway=True), channel)
    return 200, message_payload(world, msg)


@rest("DELETE /channels/{channel_id}/messages/{message_id}")
def delete_message(world: FakeDiscord, req: Request) -> Reply:
    channel, msg = _own(world, req)
    if msg.author != world.bot_user.id:
        if channel.type == DM:
            raise WireError(403, 50003, "Cannot execute action on a DM channel")
        if not bot_permissions(world, channel) & MANAGE_MESSAGES:
            raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
    world.delete(msg)
    data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(channel.id)}
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    world.emit("MESSAGE_DELETE", data, channel)
    return NO_CONTENT


@rest("PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
def add_reaction(world: FakeDiscord, req: Request) -> Reply:
    channel, msg = _own(world, req)
    perms = discord.Permissions(bot_permissions(world, channel))
    if channel.type != DM and not (perms.add_reactions and perms.read_message_history):
        raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
    key = (req.params["emoji"], world.bot_user.id)
    if key not in msg.reactions:
        msg.reactions.append(key)
    return NO_CONTENT


@rest("DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
def remove_reaction(world: FakeDiscord, req: Request) -> Reply:
    _, msg = _own(world, req)
    key = (req.params["emoji"], world.bot_user.id)
    if key in msg.reactions:
        msg.reactions.remove(key)
    return NO_CONTENT


@rest("POST /channels/{channel_id}/typing")
def typing(world: FakeDiscord, req: Request) -> Reply:
    _may_view(world, world.channel(req.id("channel_id")))
    return NO_CONTENT


@rest("POST /channels/{channel_id}/threads",
      "POST /channels/{channel_id}/messages/{message_id}/threads")
def create_thread(world: FakeDiscord, req: Request) -> Reply:
    parent = world.channel(req.id("channel_id"))
    if parent.type != 0:
        raise WireError(400, 50024, "Cannot execute action on this channel type")
    if "message_id" in req.params:
        world.visible_message(parent, req.id("message_id"))
    name = req.body().get("name")
    limits.check_length("name", name, 100, need=True)
    kind = int(req.body().get("type") or PUBLIC_THREAD)
    if kind not in THREADS or (kind == PRIVATE_THREAD and "message_id" in req.params):
        raise WireError(400, 50035, "Invalid Form Body")
    needed = "create_private_threads" if kind == PRIVATE_THREAD else "create_public_threads"
    if not getattr(discord.Permissions(bot_permissions(world, parent)), needed):
        raise WireError(403, errors.MISSING_PERMISSIONS, "Missing Permissions")
    thread = world.add_thread_record(parent, str(name), kind=kind)
    thread.members.add(world.bot_user.id)
    data = channel_payload(world, thread) | {"newly_created": True}
    world.emit("THREAD_CREATE", data, thread)
    return 201, channel_payload(world, thread)


@rest("PUT /channels/{channel_id}/thread-members/{user_id}")
def add_thread_member(world: FakeDiscord, req: Request) -> Reply:
    """The bot adds someone to a thread (a private one: who may see it)."""
    channel = world.channel(req.id("channel_id"))
    _may_view(world, channel)
    if channel.type not in THREADS:
        raise WireError(400, 50024, "Cannot execute action on this channel type")
    user = req.id("user_id")
    if user not in world.users:
        raise WireError(404, 10013, "Unknown User")
    channel.members.add(user)
    return NO_CONTENT


def _commands(world: FakeDiscord, req: Request, guild_id: int | None) -> Reply:
    if req.id("application_id") != world.application_id:
        raise WireError(403, 50001, "Missing Access")
    if guild_id is not None:
        guild = world.guilds.get(guild_id)
        if guild is None or not guild.present:
            raise WireError(403, errors.MISSING_ACCESS, "Missing Access")
    if req.method == "GET":
        stored = world.guild_commands.get(guild_id, []) if guild_id else world.global_commands
        return 200, stored
    payload = req.json if isinstance(req.json, list) else []
    limits.check_commands(payload)
    synced = []
    for command in payload:
        key = (guild_id, int(command.get("type", 1)), command["name"])
        command_id = world.command_ids.setdefault(key, world.ids.next())
        data = {"id": str(command_id), "application_id": str(world.application_id),
                "version": str(world.ids.next()), "type": 1, "description": "",
                "default_member_permissions": None, "nsfw": False} | command
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        synced.append(data)
    if guild_id is None:
        world.global_commands = synced
    else:
        world.guild_commands[guild_id] = synced
    return 200, synced


@rest("PUT /applications/{application_id}/commands",
      "GET /applications/{application_id}/commands")
def global_commands(world: FakeDiscord, req: Request) -> Reply:
    return _commands(world, req, None)


@rest("PUT /applications/{application_id}/guilds/{guild_id}/commands",
      "GET /applications/{application_id}/guilds/{guild_id}/commands")
def guild_commands(world: FakeDiscord, req: Request) -> Reply:
    return _commands(world, req, req.id("guild_id"))
