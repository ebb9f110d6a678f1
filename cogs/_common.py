"""What the feature cogs share: their sentences, private answers, the Manage Server check, the
bot's database, and the ``/mus`` group their subcommands join.

The cogs assume a bot with ``db`` (:class:`~musbot.storage.Database`), ``tables``
(:class:`~musbot.table.TableManager`) and optionally ``persister``
(:class:`~musbot.table.persist.TablePersister`). Failures are answered by the bot's one error
path (``musbot.discordio.failures``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from musbot.discordio.failures import answer_privately
from musbot.discordio.locales import lang_of
from musbot.storage import Database, DatabaseClosed, StorageError

if TYPE_CHECKING:
    from musbot.bot import MusBot

MUS_GROUP = "mus"
ADMIN_GROUP = "musadmin"
"""What those who manage the server decide (settings, leagues, tournaments): one group whose
default permission is Manage Server, so members do not see it in their menu (each command
checks it still: an admin may show the group to anyone)."""

__all__ = ["ADMIN_GROUP", "MUS_GROUP", "MusSubcommandCog", "add_to_admin", "admin_group", "answer",
           "bot_database", "manages_server", "mus_group", "own_lang", "remove_from_admin",
           "server_lang"]


def bot_database(bot: Any) -> Database:
    """``bot.db``, which is None when the file could not be opened at start-up (damaged, from a
    newer musbot, locked): then :class:`DatabaseClosed`, which every command words."""
    db = getattr(bot, "db", None)
    if db is None:
        raise DatabaseClosed("the database could not be opened at start-up")
    return db


async def server_lang(db: Database | None, guild_id: int | None) -> str:
    """The server's language; Spanish when there is none (a DM) or the database cannot say."""
    if guild_id is None or db is None:
        return "es"
    try:
        return (await db.server_settings(guild_id)).table.language
    except StorageError:
        return "es"


async def own_lang(db: Database | None, interaction: discord.Interaction[Any]) -> str:
    """The language of an answer to the author alone: theirs (``discordio/locales.py``), else
    the server's."""
    return lang_of(interaction, await server_lang(db, interaction.guild_id))


async def answer(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True,
                 **extra: Any) -> None:
    """Replies whether or not the interaction was deferred; private unless told otherwise."""
    if ephemeral:
        await answer_privately(interaction, text, **extra)
    elif interaction.response.is_done():
        await interaction.followup.send(text, **extra)
    else:
        await interaction.response.send_message(text, **extra)


def manages_server(interaction: discord.Interaction[Any]) -> bool:
    """Checked in the command itself: ``default_permissions`` only hides a command, and server
    admins may show it to anyone."""
    return bool(interaction.permissions.manage_guild)


def mus_group(bot: commands.Bot) -> app_commands.Group:
    """The ``/mus`` group, made by the table cog (``cogs.mesa``, loaded first)."""
    group = bot.tree.get_command(MUS_GROUP)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.mesa must be loaded before the cogs that add /mus commands")
    return group


def admin_group(bot: commands.Bot, sub: str | None = None,
                description: str = "") -> app_commands.Group:
    """The ``/musadmin`` group (made at the first call), or its subgroup ``sub``."""
    group = bot.tree.get_command(ADMIN_GROUP)
    if not isinstance(group, app_commands.Group):
        group = app_commands.Group(
            name=ADMIN_GROUP, description="musbot: ajustes, ligas y torneos (Gestionar servidor)",
            default_permissions=discord.Permissions(manage_guild=True), guild_only=True)
        bot.tree.add_command(group)
    if sub is None:
        return group
    found = group.get_command(sub)
    if isinstance(found, app_commands.Group):
        return found
    subgroup = app_commands.Group(name=sub, description=description, parent=group)
    return subgroup


def add_to_admin(bot: commands.Bot, items: tuple[app_commands.Command[Any, ..., None], ...],
                 sub: str | None = None, description: str = "") -> None:
    """A cog loading puts its commands into ``/musadmin`` (or its subgroup ``sub``)."""
    group = admin_group(bot, sub, description)
    for item in items:
        group.add_command(item)


def remove_from_admin(bot: commands.Bot, names: tuple[str, ...], sub: str | None = None
                      ) -> None:
    """A cog unloading takes its commands out of ``/musadmin`` (and the group, once empty)."""
    group = bot.tree.get_command(ADMIN_GROUP)
    if not isinstance(group, app_commands.Group):
        return
    target = group.get_command(sub) if sub is not None else group
    if isinstance(target, app_commands.Group):
        for name in names:
            target.remove_command(name)
        if sub is not None and not target.commands:
            group.remove_command(sub)
    if not group.commands:
        bot.tree.remove_command(ADMIN_GROUP)


class MusSubcommandCog(commands.Cog):
    """A cog whose one app command, :attr:`command` (set in ``__init__``), is a subcommand of
    ``/mus``: added to the group when the cog loads, removed when it unloads."""

    command: app_commands.Command[Any, ..., None]

    def __init__(self, bot: MusBot) -> None:
        self.bot = bot

    @property
    def db(self) -> Database:
        """The bot's database; :class:`DatabaseClosed` (answered like any storage failure) when
        it could not be opened at start-up."""
        return bot_database(self.bot)

    async def cog_load(self) -> None:
        mus_group(self.bot).add_command(self.command)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command(MUS_GROUP)
        if isinstance(group, app_commands.Group):
            group.remove_command(self.command.name)
