"""Each person's own language on Discord (see ``musbot.table.languages``): what they chose with
``/mus idioma`` (read from the database once per process, and again when they sit down), else
their client's (``interaction.locale``, seen on every interaction), else the table's or the
server's.

Every interaction goes through :func:`hear` first (the command tree's ``interaction_check``,
and the one guard of buttons and modals), so that any answer to it, and any DM the person gets
afterwards, is in their language.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from musbot.i18n import DEFAULT_LANGUAGE, language_of_locale
from musbot.storage import StorageError
from musbot.table import Speakers

log = logging.getLogger(__name__)

READ_SECONDS = 1.0
"""How long a person's saved choice may take to read before their interaction goes on without
it (a database that does not answer must not cost them Discord's 3 s to answer)."""


def speakers_of(client: Any) -> Speakers | None:
    """The bot's :class:`Speakers` (its table manager's), if it has one."""
    return getattr(getattr(client, "tables", None), "speakers", None)


async def recall(client: Any, user_id: int, *, again: bool = False) -> None:
    """Reads the person's saved choice into the bot's speakers (once, unless ``again``: when
    they sit down, as another process may have saved one meanwhile). A database slower than
    :data:`READ_SECONDS` does not hold the interaction up: the read goes on, shielded, and its
    answer is noted when it comes. Never cancelled midway: a query cut off in the middle leaves
    its connection in the middle of the protocol, for the next query to trip on."""
    speakers = speakers_of(client)
    db = getattr(client, "db", None)
    if speakers is None or db is None or (speakers.known(user_id) and not again):
        return
    calls = getattr(getattr(client, "transport", None), "calls", None)
    read = asyncio.ensure_future(_read(speakers, db, user_id, calls))
    _READS.add(read)
    read.add_done_callback(_READS.discard)
    try:
        await asyncio.wait_for(asyncio.shield(read), READ_SECONDS)
    except TimeoutError:
        log.info("language of user %s not read within %.0f s: noted when it comes", user_id,
                 READ_SECONDS)


_READS: set[asyncio.Task[None]] = set()
"""Reads still on their way after their interaction went on without them."""


async def _read(speakers: Speakers, db: Any, user_id: int, calls: dict[int, str] | None
                ) -> None:
    """The person's own choices: their language, and (``calls``) how they are told their
    turn (``/mus avisos``)."""
    try:
        chosen = await db.person_language(user_id)
        way = await db.person_call(user_id) if calls is not None else None
    except StorageError as problem:
        log.info("language of user %s not read: %s", user_id, problem)
        return
    speakers.loaded((user_id,), {user_id: chosen} if chosen is not None else {})
    if calls is not None and way is not None:
        calls[user_id] = way


async def hear(interaction: discord.Interaction[Any]) -> None:
    """Notes the person's client language and reads their saved choice, before anything is
    answered to them."""
    speakers = speakers_of(interaction.client)
    if speakers is None:
        return
    user_id = interaction.user.id
    speakers.saw_locale(user_id, locale_of(interaction))
    await recall(interaction.client, user_id)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The client's locale as Discord names it (``es-ES``); empty when the payload's is not a
    string (a forged interaction: its value is data, read as data)."""
    value = getattr(interaction.locale, "value", interaction.locale)
    return value if isinstance(value, str) else ""


def person_lang(client: Any, user_id: int, fallback: str | None = None) -> str:
    """The language of what only ``user_id`` reads: their own, else ``fallback`` (the table's
    or the server's), else Spanish."""
    speakers = speakers_of(client)
    own = speakers.language(user_id) if speakers is not None else None
    return own or fallback or DEFAULT_LANGUAGE


def lang_of(interaction: discord.Interaction[Any] | None, fallback: str | None = None) -> str:
    """The language of an answer to ``interaction`` alone: the person's own (chosen, else
    their client's), else ``fallback``, else Spanish."""
    if interaction is None:
        return fallback or DEFAULT_LANGUAGE
    speakers = speakers_of(interaction.client)
    if speakers is not None:
        speakers.saw_locale(interaction.user.id, locale_of(interaction))
        return person_lang(interaction.client, interaction.user.id, fallback)
    return language_of_locale(locale_of(interaction)) or fallback or DEFAULT_LANGUAGE


__all__ = ["READ_SECONDS", "hear", "lang_of", "locale_of", "person_lang", "recall",
           "speakers_of"]
