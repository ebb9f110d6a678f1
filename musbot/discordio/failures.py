"""The one error path of musbot on Discord: whatever fails in a command, a button, a modal or
typed words becomes a clear sentence for the person, in their own language
(``locales.py``), and never «The
application did not respond». Refusals (a move out of turn, a full table, an argument out of
range, a storage that is busy) are answered as such; an unexpected failure is logged with the
table it happened at, and the person is told nothing was lost.

One function per surface, each wording through :func:`failure_text` (engine, grammar and table
errors by :func:`musbot.i18n.error_text`, with the table's names): :func:`report` for slash and
hybrid commands (``tree.on_error``, ``on_command_error``), :func:`guarded` for buttons and
modals, :func:`refuse_typed` for words typed in a table's channel, :func:`refuse_direct` for
words sent by DM.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from musbot.engine import MusError
from musbot.i18n import DISCORD, SERVER, TABLE, error_text
from musbot.storage import StorageError
from musbot.table import Table

from .locales import hear, lang_of, person_lang
from .markup import plain


class Answerer(Protocol):
    """What the refusals of typed words need to answer a person (the transport has it:
    ``transport.py``, over ``messenger.py``)."""

    @property
    def prefers_ephemeral(self) -> Collection[int]:
        """Who has their DMs closed."""
        ...

    def mention(self, user_id: int) -> str: ...

    async def direct(self, user_id: int, text: str, *,
                     view: discord.ui.View | None = None) -> None: ...

    async def say_briefly(self, channel_id: int, text: str, *,
                          reference: discord.Message | None = None, author: int | None = None,
                          mention: bool = False) -> None: ...

log = logging.getLogger(__name__)

BRIEF_SECONDS = 10.0
"""A typed command's refusal deletes itself after this long: the channel is the game's table."""


def _unwrap(error: BaseException) -> BaseException:
    """The error behind discord.py's wrappers (invoke errors, hybrid commands)."""
    while True:
        inner = getattr(error, "original", None)
        if isinstance(error, (app_commands.CommandInvokeError, commands.CommandInvokeError,
                              commands.HybridCommandError, commands.ConversionError)) \
                and isinstance(inner, BaseException):
            error = inner
            continue
        cause = error.__cause__
        if isinstance(error, app_commands.TransformerError) and isinstance(cause, MusError):
            return cause
        return error


def failure_text(error: BaseException, lang: str = "es",
                 names: Mapping[int, str] | None = None) -> str | None:
    """What the person reads; None when nothing should be said (a typed «!» that is no command
    of ours is just chat). ``names``: the seats' names at the table, for errors that name one."""
    error = _unwrap(error)
    if isinstance(error, MusError):
        return error_text(error, lang, names)
    if isinstance(error, StorageError):
        return storage_text(error, lang)
    if isinstance(error, commands.CommandNotFound):
        return None
    if isinstance(error, (app_commands.NoPrivateMessage, commands.NoPrivateMessage)):
        return SERVER("guild_only", lang)
    if isinstance(error, (app_commands.MissingPermissions, commands.MissingPermissions)):
        return SERVER("need_permission", lang)
    if isinstance(error, (app_commands.CommandOnCooldown, commands.CommandOnCooldown)):
        return DISCORD("slow_down", lang, seconds=round(error.retry_after))
    if isinstance(error, commands.RangeError):
        return DISCORD("bad_range", lang, value=error.value, low=error.minimum, high=error.maximum)
    if isinstance(error, commands.MissingRequiredArgument):
        return DISCORD("missing_argument", lang, name=error.param.name)
    if isinstance(error, (commands.BadLiteralArgument, commands.BadArgument,
                          commands.TooManyArguments, commands.ArgumentParsingError,
                          app_commands.TransformerError)):
        return DISCORD("bad_argument", lang)
    if isinstance(error, app_commands.CommandNotFound):
        return DISCORD("command_stale", lang)
    if isinstance(error, (app_commands.CheckFailure, commands.CheckFailure)):
        return SERVER("need_permission", lang)
    if isinstance(error, discord.Forbidden):
        return DISCORD("bot_forbidden", lang)
    return DISCORD("unexpected", lang)


def storage_text(error: StorageError, lang: str = "es") -> str:
    """A storage failure as a person should read it: the sentence of its code (locked,
    unavailable, full, damaged, …; the details go to the log)."""
    if error.code != "db_error" and error.code in SERVER:
        return SERVER(error.code, lang)
    return SERVER("db_error", lang, error=error)


def expected(error: BaseException) -> bool:
    """A refusal, not a bug: not worth a traceback in the log."""
    error = _unwrap(error)
    return isinstance(error, (MusError, StorageError, commands.UserInputError,
                              commands.CheckFailure, commands.CommandNotFound,
                              commands.CommandOnCooldown, app_commands.CheckFailure,
                              app_commands.TransformerError, app_commands.CommandNotFound,
                              app_commands.CommandOnCooldown, discord.Forbidden))


async def report(target: discord.Interaction[Any] | commands.Context[Any],
                 error: BaseException, *, table: Table | None = None) -> None:
    """Answers ``target`` (an interaction, or a typed command's context) with the sentence for
    ``error``, in the person's own language (else the table's); logs what was unexpected, with
    the table."""
    interaction = target if isinstance(target, discord.Interaction) else target.interaction
    channel = getattr(target, "channel", None)
    where = table.channel_id if table is not None else getattr(channel, "id", None)
    cause = _unwrap(error)
    if isinstance(cause, StorageError):
        log.warning("storage failure at table %s: %s: %s", where, cause.code, cause)
    elif not expected(error):
        log.error("unexpected failure at table %s", where, exc_info=error)
    table_lang = table.lang if table is not None else None
    if interaction is not None or not isinstance(target, commands.Context):
        lang = lang_of(interaction, table_lang)
    else:
        lang = person_lang(target.bot, target.author.id, table_lang)
    text = failure_text(error, lang, table.names() if table is not None else None)
    if text is None:
        return
    try:
        if interaction is not None:
            await answer_privately(interaction, plain(text))  # to its author alone
        elif isinstance(target, commands.Context):
            transport = getattr(target.bot, "transport", None)
            if transport is not None:  # within the channel's budget, deleting itself
                await transport.say_briefly(target.channel.id, text, reference=target.message,
                                            author=target.author.id)
            else:
                await target.send(plain(text), delete_after=BRIEF_SECONDS,
                                  allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("could not tell a failure at table %s", where, exc_info=True)


_OPTION = discord.AppCommandOptionType
_SNOWFLAKE_TYPES = frozenset({_OPTION.user, _OPTION.channel, _OPTION.role, _OPTION.mentionable,
                              _OPTION.attachment})


def forged_option(interaction: discord.Interaction[Any]) -> str | None:
    """The name of an option whose value is not what the command declares (its type, range,
    length or choices), or None. Discord checks these for its clients, and discord.py trusts
    it: a forged payload would reach the command with ``mesas_persona="tres"``."""
    command = interaction.command
    data = interaction.data
    if not isinstance(command, app_commands.Command) or not isinstance(data, dict):
        return None
    options: Any = data.get("options", [])
    while isinstance(options, list) and len(options) == 1 and isinstance(options[0], dict) \
            and options[0].get("type") in (1, 2):  # a subcommand (group): its options
        options = options[0].get("options", [])
    if not isinstance(options, list):
        return "options"
    declared = {p.display_name: p for p in command.parameters}
    typing = interaction.type is discord.InteractionType.autocomplete
    for option in options:
        if not isinstance(option, dict) or option.get("name") not in declared:
            return str(option.get("name", "?")) if isinstance(option, dict) else "?"
        if not _fits(declared[option["name"]], option.get("value"), partial=typing
                     and bool(option.get("focused"))):
            return str(option["name"])
    return None


def _fits(parameter: app_commands.Parameter, value: Any, *, partial: bool) -> bool:
    kind = parameter.type
    if partial:  # what is being typed: text, of any length, for any type
        return isinstance(value, str)
    if kind is discord.AppCommandOptionType.string:
        ok = isinstance(value, str) and (parameter.min_value is None or
                                         len(value) >= parameter.min_value) \
            and (parameter.max_value is None or len(value) <= parameter.max_value)
    elif kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        numbers = (int,) if kind is discord.AppCommandOptionType.integer else (int, float)
        ok = isinstance(value, numbers) and not isinstance(value, bool) \
            and (parameter.min_value is None or value >= parameter.min_value) \
            and (parameter.max_value is None or value <= parameter.max_value)
    elif kind is discord.AppCommandOptionType.boolean:
        ok = isinstance(value, bool)
    elif kind in _SNOWFLAKE_TYPES:
        ok = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
    else:
        ok = True
    if kind is discord.AppCommandOptionType.string:
        return ok  # text is text: the command words its own refusal of an unknown choice
    return ok and (not parameter.choices or value in [c.value for c in parameter.choices])


async def refuse_forged(interaction: discord.Interaction[Any]) -> bool:
    """Answers a command whose options are not what it declares with one sentence (the
    person's language); True if it did, and the command must not run."""
    name = forged_option(interaction)
    if name is None:
        return False
    log.warning("interaction %s: option %r is not what /%s declares", interaction.id, name,
                getattr(interaction.command, "qualified_name", "?"))
    if interaction.type is discord.InteractionType.autocomplete:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
        return True
    with contextlib.suppress(discord.HTTPException):
        await answer_privately(interaction, DISCORD("bad_argument", lang_of(interaction)))
    return True


async def refuse_typed(transport: Answerer, table: Table, user_id: int,
                       error: MusError, *, reference: discord.Message | None = None) -> None:
    """A move typed in a table's channel (the message ``reference``) and refused: answered to
    its author alone, by a brief reply that deletes itself; an error naming a card says
    something of a hand, so it goes by DM (or, with DMs closed, only «use Ver mis cartas»). In
    the author's own language: it is for them alone."""
    lang = table.lang_for(user_id)
    if "card" in error.params:
        if user_id not in transport.prefers_ephemeral:
            await transport.direct(user_id, error_text(error, lang, table.names()))
            return
        text = TABLE("dm_closed", lang, mention=transport.mention(user_id))
        await transport.say_briefly(table.channel_id, text, reference=reference,
                                    author=user_id, mention=True)
        return
    await transport.say_briefly(table.channel_id, error_text(error, lang, table.names()),
                                reference=reference, author=user_id)


async def refuse_direct(transport: Answerer, user_id: int, error: MusError,
                        table: Table, where: str = "") -> None:
    """Words sent by DM and refused: the answer by DM (``where`` names the table when the
    person sits at several)."""
    await transport.direct(user_id, error_text(error, table.lang_for(user_id), table.names())
                           + where)


async def answer_privately(interaction: discord.Interaction[Any], text: str, **extra: Any
                           ) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)


async def guarded(interaction: discord.Interaction[Any], channel_id: int | None,
                  work: Callable[[], Awaitable[Any]]) -> None:
    """Runs a button's or a modal's work; any failure becomes an answer (see :func:`report`).
    discord.py only logs what a dynamic item's callback raises, and the person would be left
    with «The application did not respond». The person is heard first (``locales.py``): what
    answers them is in their language."""
    try:
        await hear(interaction)
        await work()
    except Exception as error:
        tables = getattr(interaction.client, "tables", None)
        table = tables.get(channel_id) if tables is not None and channel_id is not None \
            else None
        with contextlib.suppress(Exception):
            await report(interaction, error, table=table)
