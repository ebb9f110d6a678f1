"""What the league, profile, settings and privacy cogs share: their sentences, private answers,
the Manage Server check, storage failures worded for people, and the ``/mus`` group.

The cogs assume a bot with ``db`` (:class:`~musbot.storage.Database`), ``tables``
(:class:`~musbot.table.TableManager`) and optionally ``persister``
(:class:`~musbot.table.persist.TablePersister`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from musbot.i18n import catalog
from musbot.storage import (
    CorruptDatabase,
    Database,
    DatabaseClosed,
    DatabaseLocked,
    DatabaseTooNew,
    StorageError,
)

MUS_GROUP = "mus"
_PENDING = "_musbot_pending_mus_commands"


def say(key: str, lang: str = "es", **params: Any) -> str:
    """One sentence of the SERVER catalog, Spanish when the language lacks it."""
    template = catalog(lang).SERVER.get(key) or catalog("es").SERVER[key]
    return str(template).format(**params)


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
        return (await db.server_settings(guild_id)).language
    except StorageError:
        return "es"


def storage_problem(error: StorageError, lang: str = "es") -> str:
    """A storage failure as a person should read it (the details go to the log)."""
    if isinstance(error, DatabaseLocked):
        return say("db_locked", lang)
    if isinstance(error, CorruptDatabase):
        return say("db_corrupt", lang)
    if isinstance(error, DatabaseTooNew):
        return say("db_too_new", lang)
    if isinstance(error, DatabaseClosed):
        return say("db_closed", lang)
    return say("db_error", lang, error=error)


async def answer(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True,
                 **extra: Any) -> None:
    """Replies whether or not the interaction was deferred; private unless told otherwise."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **extra)


def manages_server(interaction: discord.Interaction[Any]) -> bool:
    """Checked in the command itself: ``default_permissions`` only hides a command, and server
    admins may show it to anyone."""
    return bool(interaction.permissions.manage_guild)


# --- the /mus group -------------------------------------------------------------------------


def add_mus_command(bot: commands.Bot, command: app_commands.Command[Any, ..., Any]) -> None:
    """Adds ``/mus <command>`` to the group the table cog owns. Extensions load in name order,
    so the group may not exist yet: then the command waits until :func:`attach_mus_commands`
    (called by every later cog of ours, and safe to call from ``setup_hook``)."""
    pending: list[app_commands.Command[Any, ..., Any]] = bot.__dict__.setdefault(_PENDING, [])
    pending.append(command)
    attach_mus_commands(bot)


def attach_mus_commands(bot: commands.Bot) -> int:
    """Attaches the waiting ``/mus`` subcommands if the group exists now; returns how many."""
    group = bot.tree.get_command(MUS_GROUP)
    pending: list[app_commands.Command[Any, ..., Any]] = bot.__dict__.get(_PENDING, [])
    if not isinstance(group, app_commands.Group) or not pending:
        return 0
    for command in pending:
        if group.get_command(command.name) is None:
            group.add_command(command)
    count = len(pending)
    pending.clear()
    return count


def remove_mus_command(bot: commands.Bot, name: str) -> None:
    group = bot.tree.get_command(MUS_GROUP)
    if isinstance(group, app_commands.Group):
        group.remove_command(name)
    pending: list[app_commands.Command[Any, ..., Any]] = bot.__dict__.get(_PENDING, [])
    pending[:] = [c for c in pending if c.name != name]


class MusSubcommandCog(commands.Cog):
    """A cog whose one app command, :attr:`command` (set in ``__init__``), lives in the table
    cog's ``/mus`` group: it attaches on load and detaches on unload."""

    command: app_commands.Command[Any, ..., None]

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def db(self) -> Database:
        """The bot's database; :class:`DatabaseClosed` (answered like any storage failure) when
        it could not be opened at start-up."""
        return bot_database(self.bot)

    async def cog_load(self) -> None:
        add_mus_command(self.bot, self.command)

    async def cog_unload(self) -> None:
        remove_mus_command(self.bot, self.command.name)
