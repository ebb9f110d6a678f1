"""The one error path of musbot on Discord: whatever fails in a command, a button, a modal or
typed words becomes a clear sentence for the person, in their own language
(``speech.py``), and never «The
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
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from musbot.engine import MusError
from musbot.i18n import catalog, error_text
from musbot.storage import StorageError
from musbot.table import Table, render

from .markup import plain
from .speech import hear, lang_of, person_lang
from .texts import dt, server

if TYPE_CHECKING:
    from .transport import DiscordTransport

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
        return server("guild_only", lang)
    if isinstance(error, (app_commands.MissingPermissions, commands.MissingPermissions)):
        return server("need_permission", lang)
    if isinstance(error, (app_commands.CommandOnCooldown, commands.CommandOnCooldown)):
        return dt("slow_down", lang, seconds=round(error.retry_after))
    if isinstance(error, commands.RangeError):
        return dt("bad_range", lang, value=error.value, low=error.minimum, high=error.maximum)
    if isinstance(error, commands.MissingRequiredArgument):
        return dt("missing_argument", lang, name=error.param.name)
    if isinstance(error, (commands.BadLiteralArgument, commands.BadArgument,
                          commands.TooManyArguments, commands.ArgumentParsingError,
                          app_commands.TransformerError)):
        return dt("bad_argument", lang)
    if isinstance(error, app_commands.CommandNotFound):
        return dt("command_stale", lang)
    if isinstance(error, (app_commands.CheckFailure, commands.CheckFailure)):
        return server("need_permission", lang)
    if isinstance(error, discord.Forbidden):
        return dt("bot_forbidden", lang)
    return dt("unexpected", lang)


def storage_text(error: StorageError, lang: str = "es") -> str:
    """A storage failure as a person should read it: the sentence of its code (locked,
    unavailable, full, damaged, …; the details go to the log)."""
    if error.code != "db_error" and error.code in catalog("es").SERVER:
        return server(error.code, lang)
    return server("db_error", lang, error=error)


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


async def refuse_typed(transport: DiscordTransport, table: Table, user_id: int,
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
        text = render.t("dm_closed", lang, mention=transport.mention(user_id))
        await transport.say_briefly(table.channel_id, text, reference=reference,
                                    author=user_id, mention=True)
        return
    await transport.say_briefly(table.channel_id, error_text(error, lang, table.names()),
                                reference=reference, author=user_id)


async def refuse_direct(transport: DiscordTransport, user_id: int, error: MusError,
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
    with «The application did not respond». The person is heard first (``speech.py``): what
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
