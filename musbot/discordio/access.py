"""Where the bot may speak: a table whose channel stops letting it post pauses, and plays on when
Discord shows the permissions back.

A server's settings change under the bot: its role loses Send Messages, the channel hides it.
The gateway's update says so (the bot's permissions as discord.py's cache computes them), or
else the first refused call does (:class:`~musbot.discordio.guard.RequestGuard`); from then on
nothing is asked of that channel, the table pauses (its clock stops, its bots wait) and the
people seated are told once, by DM, what is missing. Each change of permissions Discord sends (a
channel, a role, the bot's own member) and each interaction in the channel (which carries the
bot's permissions there) is checked against what a table needs; once it has it all, the table
shows itself again at the bottom of the channel, its page saying it was paused, and play
resumes.

Nothing here calls Discord to find out: the gateway's cache and the interactions say it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord

from musbot.i18n import DISCORD
from musbot.table import Clock, Table

from .boards import Boards
from .bookkeeping import Bookkeeping
from .governor import Governor
from .guard import MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_CLOSED, THREAD_LOCKED, RequestGuard
from .messenger import Messenger

log = logging.getLogger(__name__)

NEEDED = ("view_channel", "send_messages", "embed_links", "read_message_history")
"""What a table needs of its channel: to see it, to post (its pages are embeds), and to answer
a typed move by quoting it."""


def needed(channel: Any) -> tuple[str, ...]:
    """:data:`NEEDED`, in a thread with Send Messages in Threads instead of Send Messages."""
    if isinstance(channel, discord.Thread):
        return tuple("send_messages_in_threads" if p == "send_messages" else p for p in NEEDED)
    return NEEDED


def missing(channel: Any, permissions: discord.Permissions) -> list[str]:
    """The permissions a table needs that ``permissions`` lacks, by name; those that follow
    from another left out (Discord takes Read Message History from who cannot see a channel,
    Embed Links from who cannot post there: giving back the first gives them back)."""
    wanted = needed(channel)
    lacking = [name for name in wanted if not getattr(permissions, name)]
    if wanted[0] in lacking:
        return [wanted[0]]
    if wanted[1] in lacking:
        return [name for name in lacking if name != "embed_links"]
    return lacking


def closed_thread(channel: Any, permissions: discord.Permissions | None = None) -> bool:
    """A thread a moderator locked: only those who manage threads post there (an archived one
    that is not locked opens again at the bot's next message)."""
    manages = permissions is not None and permissions.manage_threads
    return isinstance(channel, discord.Thread) and channel.locked and not manages


def permissions_text(names: list[str], lang: str) -> str:
    """«Enviar mensajes, Insertar enlaces»: as the server's settings name them."""
    return ", ".join(DISCORD(f"perm_{name}", lang) for name in names)


def own_permissions(channel: Any) -> discord.Permissions | None:
    """The bot's permissions in the channel as the gateway last told them (None: unknown)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return None
    return channel.permissions_for(me)  # type: ignore[no-any-return]


class Access:
    """The channels a table lost: their calls stopped at ``governor``, their tables (on
    ``boards``) paused and resumed, the people seated told through ``messenger``; the client's
    cache says what the bot may do in a channel."""

    def __init__(self, client: discord.Client, governor: Governor, clock: Clock, boards: Boards,
                 messenger: Messenger, bookkeeping: Bookkeeping) -> None:
        self.client = client
        self.governor = governor
        self.boards = boards
        self.messenger = messenger
        self.bookkeeping = bookkeeping
        self.guard = RequestGuard(clock, on_refused=self._refused)
        self.pauses = 0
        """Tables paused since start-up."""

    # --- a channel refused the bot ------------------------------------------------------------

    def _refused(self, channel_id: int, code: int) -> None:
        """The guard's hook: a call to the channel was refused; its table (shown there)
        pauses."""
        self.governor.block(channel_id)
        table = self.boards.table(channel_id)
        if table is not None:
            self.bookkeeping.spawn(self._pause(table, code))

    async def _pause(self, table: Table, code: int) -> None:
        channel_id = table.channel_id
        lang = table.lang
        channel = self.client.get_channel(channel_id)
        if code in THREAD_CLOSED and await self._reopen(channel):
            return
        name = str(getattr(channel, "name", channel_id))
        guild = getattr(getattr(channel, "guild", None), "name", "?")
        if code in THREAD_CLOSED:
            reason = DISCORD("thread_closed_reason", lang, channel=name)
            told = {user_id: DISCORD("thread_closed_dm", table.lang_for(user_id), channel=name,
                                     guild=guild) for user_id in table.humans()}
        else:
            names = self._lacking(channel, code)
            reason = DISCORD("paused_reason", lang, channel=name,
                             missing=permissions_text(names, lang))
            told = {user_id: DISCORD("paused_dm", table.lang_for(user_id), channel=name,
                                     guild=guild,
                                     missing=permissions_text(names, table.lang_for(user_id)))
                    for user_id in table.humans()}
        if not await table.hide(reason):
            return
        self.pauses += 1
        log.warning("table %s paused: the bot cannot post in the channel (%s)", channel_id,
                    code)
        for user_id, text in told.items():  # each in their own language
            await self.messenger.direct(user_id, text)

    async def _reopen(self, channel: Any) -> bool:
        """A thread archived but not locked: opened again (as a new message would), and the
        table goes on there. False if it stays closed."""
        if not isinstance(channel, discord.Thread) or closed_thread(
                channel, own_permissions(channel)):
            return False
        self.guard.clear(channel.id)
        try:
            await channel.edit(archived=False)
        except discord.HTTPException:
            self.guard.refuse(channel.id, THREAD_LOCKED, tell=False)
            return False
        self.governor.unblock(channel.id)
        return True

    def _lacking(self, channel: Any, code: int) -> list[str]:
        """What the channel lacks, as the gateway's cache says; the cache may not know yet
        (its update comes after the refusal): then what the refusal says."""
        permissions = own_permissions(channel)
        found = missing(channel, permissions) if permissions is not None else []
        if found:
            return found
        wanted = needed(channel)
        return [wanted[0]] if code == MISSING_ACCESS else [wanted[1]]

    # --- the permissions may be back ----------------------------------------------------------

    async def recheck(self, guild_id: int | None, tables: Iterable[Table]) -> None:
        """Discord says permissions changed in a server (a channel, a role, the bot's member):
        a table there (of ``tables``, every live one, restored ones not shown yet included)
        whose channel the bot lost pauses at once, without a call refused first; each channel
        there that refused the bot is tried again if the cache says it may."""
        self._lost_by_cache(guild_id, tables)
        for channel_id in list(self.guard.refused):
            channel = self.client.get_channel(channel_id)
            if guild_id is not None and getattr(getattr(channel, "guild", None), "id",
                                                None) != guild_id:
                continue
            permissions = own_permissions(channel)
            if permissions is not None:
                await self.restore(channel_id, permissions)

    def _lost_by_cache(self, guild_id: int | None, tables: Iterable[Table]) -> None:
        lost = set(self.guard.channels())
        for table in tables:
            if table.channel_id in lost or (guild_id is not None and table.guild_id != guild_id):
                continue
            channel = self.client.get_channel(table.channel_id)
            permissions = own_permissions(channel)
            lacking = missing(channel, permissions) if permissions is not None else []
            if lacking or closed_thread(channel, permissions):
                code = THREAD_LOCKED if not lacking else MISSING_ACCESS \
                    if lacking == [needed(channel)[0]] else MISSING_PERMISSIONS
                self.guard.refuse(table.channel_id, code)
                if self.boards.table(table.channel_id) is None:  # not shown yet
                    self.bookkeeping.spawn(self._pause(table, code))

    async def seen(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction in a channel carries the bot's permissions there, fresh."""
        channel_id = interaction.channel_id
        if channel_id is not None and channel_id in self.guard.refused:
            await self.restore(channel_id, interaction.app_permissions)

    async def restore(self, channel_id: int, permissions: discord.Permissions) -> bool:
        """If ``permissions`` are all a table needs there: the channel may be called again,
        and its table, shown again, plays on. True if so."""
        channel = self.client.get_channel(channel_id)
        if missing(channel, permissions) or closed_thread(channel, permissions):
            return False
        lost = channel_id in self.guard.channels()
        self.guard.clear(channel_id)
        self.governor.unblock(channel_id)
        table = self.boards.table(channel_id)
        if not lost or table is None:
            return True
        log.info("table %s resumed: the bot may post in the channel again", channel_id)
        self.boards.reshow(channel_id)
        await table.unhide()
        return True

    def refusal(self, channel: Any, permissions: discord.Permissions, lang: str) -> str | None:
        """Before a table opens: what the bot lacks there, worded (None: it has it all, and
        the channel may be called again if it refused the bot before)."""
        lacking = missing(channel, permissions)
        if lacking:
            return permissions_text(lacking, lang)
        channel_id = getattr(channel, "id", None)
        if channel_id is not None:
            self.guard.clear(channel_id)
            self.governor.unblock(channel_id)
        return None


__all__ = ["NEEDED", "Access", "closed_thread", "missing", "needed", "own_permissions",
           "permissions_text"]
