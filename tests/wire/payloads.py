"""JSON objects as Discord sends them, for the gateway (READY, GUILD_CREATE, MESSAGE_CREATE,
INTERACTION_CREATE…) and for REST answers. discord.py parses these with its own code, so a
field it requires and Discord always sends must be here, or the bot under test would crash
where the real one would not."""

from __future__ import annotations

import re
from typing import Any

import discord

from .state import (
    DM,
    EPHEMERAL,
    PRIVATE_THREAD,
    THREADS,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    World,
)

DEFAULT_EVERYONE = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, create_private_threads=True, embed_links=True,
    attach_files=True, add_reactions=True,
    read_message_history=True, use_application_commands=True, use_external_emojis=True,
).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
ADMINISTRATOR = discord.Permissions(administrator=True).value
MENTION = re.compile(r"<@!?(\d+)>")


def user_payload(user: FakeUser) -> dict[str, Any]:
    return {"id": str(user.id), "username": user.handle, "global_name": user.name,
            "discriminator": "0", "avatar": None, "bot": user.bot, "public_flags": 0}


def member_payload(world: World, guild: FakeGuild, user: FakeUser, *,
                   with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    roles = [str(r) for r in sorted(guild.member_roles.get(user.id, set()))]
    data: dict[str, Any] = {"roles": roles, "joined_at": world.ids.iso(guild.joined_at),
                            "deaf": False, "mute": False, "flags": 0, "pending": False,
                            "nick": guild.nicks.get(user.id), "avatar": None,
                            "premium_since": None}
    if with_user:
        data["user"] = user_payload(user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def bot_permissions(world: World, channel: FakeChannel) -> int:
    """The bot's permissions in a guild channel, as Discord computes them: @everyone's and
    its roles', then the channel's overwrites (@everyone's, its roles', its own member's; a
    thread follows its parent); an administrator has them all."""
    if channel.guild_id is None:
        return DEFAULT_EVERYONE
    guild = world.guilds[channel.guild_id]
    me = world.bot_user.id
    roles = guild.member_roles.get(me, set())
    value = guild.everyone_permissions
    for role in roles:
        value |= guild.roles[role].permissions
    if value & ADMINISTRATOR:
        return discord.Permissions.all().value
    target = world.channels.get(channel.parent_id) if channel.parent_id else channel
    if target is None:
        return value
    allow, deny = target.overwrites.get(guild.everyone_role, (0, 0))
    value = (value & ~deny) | allow
    allow = deny = 0
    for role in roles:
        role_allow, role_deny = target.overwrites.get(role, (0, 0))
        allow, deny = allow | role_allow, deny | role_deny
    value = (value & ~deny) | allow
    allow, deny = target.overwrites.get(me, (0, 0))
    value = (value & ~deny) | allow
    if not target.bot_can_send:
        value &= ~SEND_MESSAGES
    return value


def overwrites_payload(world: World, channel: FakeChannel) -> list[dict[str, Any]]:
    guild = world.guilds[channel.guild_id] if channel.guild_id is not None else None
    found = []
    for target, (allow, deny) in channel.overwrites.items():
        role = guild is not None and (target == guild.everyone_role or target in guild.roles)
        found.append({"id": str(target), "type": 0 if role else 1, "allow": str(allow),
                      "deny": str(deny)})
    if not channel.bot_can_send:
        found.append({"id": str(world.bot_user.id), "type": 1, "allow": "0",
                      "deny": str(SEND_MESSAGES)})
    return found


def channel_payload(world: World, channel: FakeChannel) -> dict[str, Any]:
    last = channel.messages[-1] if channel.messages else None
    base: dict[str, Any] = {"id": str(channel.id), "type": channel.type,
                            "last_message_id": None if last is None else str(last)}
    if channel.type == DM:
        assert channel.recipient_id is not None
        base.update(recipients=[user_payload(world.users[channel.recipient_id])], flags=0)
        return base
    base.update(guild_id=str(channel.guild_id), name=channel.name, position=channel.position,
                nsfw=False, rate_limit_per_user=0, flags=0)
    if channel.type in THREADS:
        base.update(parent_id=str(channel.parent_id), owner_id=str(world.bot_user.id),
                    message_count=len(channel.messages), member_count=1,
                    thread_metadata={"archived": channel.archived,
                                     "auto_archive_duration": 1440,
                                     "archive_timestamp": world.ids.iso(),
                                     "locked": channel.locked,
                                     **({"invitable": False}
                                        if channel.type == PRIVATE_THREAD else {})})
        return base
    base.update(topic=None, parent_id=None,
                permission_overwrites=overwrites_payload(world, channel))
    return base


def role_payload(role_id: int, name: str, permissions: int, position: int) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "permissions": str(permissions),
            "position": position, "color": 0, "hoist": False, "managed": False,
            "mentionable": False, "flags": 0}


def guild_payload(world: World, guild: FakeGuild, *, joined: bool = False) -> dict[str, Any]:
    """GUILD_CREATE: the whole server, with the bot's own member so ``guild.me`` and
    ``channel.permissions_for(guild.me)`` work. ``joined``: the bot was just added to it, which
    Discord tells by leaving ``unavailable`` out (discord.py then says ``on_guild_join``, not
    ``on_guild_available``)."""
    live = [world.channels[c] for c in guild.channels if not world.channels[c].deleted]
    everyone = role_payload(guild.everyone_role, "@everyone", guild.everyone_permissions, 0)
    roles = [role_payload(r.id, r.name, r.permissions, r.position)
             for r in guild.roles.values()]
    system = guild.system_channel_id
    data = {
        "id": str(guild.id), "name": guild.name, "icon": None, "splash": None,
        "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
        "preferred_locale": guild.locale, "features": [],
        "system_channel_id": None if system is None else str(system), "system_channel_flags": 0,
        "roles": [everyone, *roles], "emojis": [], "stickers": [], "large": False,
        "unavailable": False, "member_count": len(guild.members | {world.bot_user.id}),
        "joined_at": world.ids.iso(guild.joined_at),
        "members": [member_payload(world, guild, world.bot_user)],
        "channels": [channel_payload(world, c) for c in live if c.type not in THREADS],
        "threads": [channel_payload(world, c) for c in live if c.type in THREADS],
        "voice_states": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [],
    }
    if joined:
        del data["unavailable"]
    return data


def ready_payload(world: World, app_flags: int, session_id: str,
                  shard: tuple[int, int] | None = None) -> dict[str, Any]:
    """READY lists every server as unavailable; a GUILD_CREATE for each follows. With
    ``shard`` (id, count): that shard's READY, with only its servers."""
    me = user_payload(world.bot_user) | {"verified": True, "mfa_enabled": False, "flags": 0}
    data: dict[str, Any] = {
        "v": 10, "user": me, "session_id": session_id, "session_type": "normal",
        "resume_gateway_url": "wss://gateway.discord.gg",
        "guilds": [{"id": str(g.id), "unavailable": True}
                   for g in world.guilds.values() if g.present and
                   (shard is None or (g.id >> 22) % shard[1] == shard[0])],
        "application": {"id": str(world.application_id), "flags": app_flags},
        "private_channels": [], "relationships": [], "presences": [],
        "user_settings": {}, "guild_join_requests": [], "geo_ordered_rtc_regions": [],
        "auth": {},
    }
    if shard is not None:
        data["shard"] = list(shard)
    return data


def app_info_payload(world: World, app_flags: int) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``: discord.py reads ``flags`` for the intents granted."""
    return {"id": str(world.application_id), "name": world.bot_user.name, "icon": None,
            "description": "", "bot_public": True, "bot_require_code_grant": False,
            "owner": user_payload(world.owner), "verify_key": "0" * 64, "flags": app_flags,
            "summary": "", "team": None, "rpc_origins": [], "tags": [],
            "bot": user_payload(world.bot_user), "redirect_uris": [],
            "interactions_endpoint_url": None}


def message_payload(world: World, msg: FakeMessage, *, gateway: bool = False,
                    reference_depth: int = 1) -> dict[str, Any]:
    author = world.users[msg.author]
    reactions: dict[str, list[int]] = {}
    for emoji, user_id in msg.reactions:
        reactions.setdefault(emoji, []).append(user_id)
    mentions = [user_payload(world.users[int(m)]) for m in MENTION.findall(msg.content)
                if int(m) in world.users]
    data: dict[str, Any] = {
        "id": str(msg.id), "channel_id": str(msg.channel_id), "author": user_payload(author),
        "content": msg.content, "timestamp": world.ids.iso(msg.created_at),
        "edited_timestamp": world.ids.iso(msg.edits[-1].at) if msg.edits else None,
        "tts": False, "mention_everyone": False, "mentions": mentions, "mention_roles": [],
        "attachments": msg.attachments, "embeds": msg.embeds, "components": msg.components,
        "pinned": False, "type": msg.type, "flags": msg.flags,
        "reactions": [{"emoji": {"id": None, "name": e}, "count": len(u),
                       "me": world.bot_user.id in u, "count_details": {"burst": 0,
                                                                        "normal": len(u)},
                       "burst_colors": [], "me_burst": False, "burst_me": False,
                       "burst_count": 0} for e, u in reactions.items()],
    }
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
        data["application_id"] = str(world.application_id)
    if msg.interaction_id is not None:
        inter = world.interactions[msg.interaction_id]
        data["interaction_metadata"] = {
            "id": str(inter.id), "type": inter.type,
            "user": user_payload(world.users[inter.user_id]),
            "authorizing_integration_owners": {"0": str(inter.guild_id)} if inter.guild_id
            else {"1": str(inter.user_id)}}
    if msg.reference is not None:
        ref = world.messages_by_id.get(msg.reference)
        data["message_reference"] = {"type": 0, "message_id": str(msg.reference),
                                     "channel_id": str(msg.channel_id)}
        if reference_depth > 0:
            data["referenced_message"] = None if ref is None or ref.deleted else \
                message_payload(world, ref, reference_depth=0)
    channel = world.channels[msg.channel_id]
    if gateway and channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
        if not author.bot or author.id == world.bot_user.id:
            guild = world.guilds[channel.guild_id]
            data["member"] = member_payload(world, guild, author, with_user=False)
    return data


def without_content(data: dict[str, Any]) -> dict[str, Any]:
    """A guild message as a bot without the message content intent receives it."""
    data = data | {"content": "", "embeds": [], "attachments": [], "components": []}
    data.pop("poll", None)  # left out, not null: discord.py parses a present poll
    return data


def interaction_payload(world: World, inter: FakeInteraction, data: dict[str, Any] | None,
                        message: FakeMessage | None = None) -> dict[str, Any]:
    """INTERACTION_CREATE: who, where (a partial channel), the token, and the data."""
    channel = world.channels[inter.channel_id]
    user = world.users[inter.user_id]
    perms = bot_permissions(world, channel)
    payload: dict[str, Any] = {
        "id": str(inter.id), "application_id": str(world.application_id), "type": inter.type,
        "token": inter.token, "version": 1, "channel_id": str(channel.id),
        "channel": channel_payload(world, channel) | {"permissions": str(perms)},
        "app_permissions": str(perms), "locale": user.locale, "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if data is not None:
        payload["data"] = data
    if inter.guild_id is not None:
        guild = world.guilds[inter.guild_id]
        payload.update(guild_id=str(guild.id), guild_locale=guild.locale, context=0,
                       guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                       member=member_payload(world, guild, user,
                                             permissions=guild.member_permissions(user.id)),
                       authorizing_integration_owners={"0": str(guild.id)})
    else:
        payload.update(user=user_payload(user), context=1,
                       authorizing_integration_owners={"1": str(user.id)})
    if message is not None:
        payload["message"] = message_payload(world, message)
    return payload


def is_ephemeral(flags: Any) -> bool:
    return bool(int(flags or 0) & EPHEMERAL)
