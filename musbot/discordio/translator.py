"""Slash commands in the reader's language: discord.py's :class:`app_commands.Translator` over the
catalogues (``SLASH`` section), so that a French or English Discord client shows ``/mus table``
and ``/mus join`` where a Spanish one shows ``/mus mesa`` and ``/mus unirse``.

The commands are written in Spanish (the default), and each string is looked up by where it
is: ``SLASH.name.<spanish name>`` for a command's, a group's or an option's name (one word, the
same wherever it is used: ``mesa`` is «table» in ``/mus mesa`` and ``/liga mesa``),
``SLASH.about.<command path>`` for a command's or a group's description,
``SLASH.about.<command path>.<option>`` for an option's, and ``SLASH.choice.<value>`` for the
few choices whose names are words (the others are numbers or languages' own names). Discord
localises for the locales it has: ``es-ES`` and ``es-419`` (Spanish), ``fr``, ``en-US`` and
``en-GB``; it has no Basque locale, so Basque is chosen by name (``/mus idioma``'s «Euskara»).
"""

from __future__ import annotations

import re
from typing import Any, Final

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from musbot.i18n import SLASH, language_of_locale

SECTION: Final = "SLASH"
NAME_PATTERN: Final = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a command's or an option's name in any locale (lower case, 1–32 letters,
digits, ``-`` or ``_``)."""
TEXT_LIMIT: Final = 100
"""A description's or a choice's name's limit."""


def slash_key(location: Where, data: Any, string: str) -> str | None:
    """The catalogue key of a command's string, from where it is; None where nothing is
    translated (a choice named by a number or by a language's own name)."""
    if location in (Where.command_name, Where.group_name, Where.parameter_name):
        return f"{SECTION}.name.{string}"
    if location in (Where.command_description, Where.group_description):
        return f"{SECTION}.about.{data.qualified_name}"
    if location is Where.parameter_description:
        return f"{SECTION}.about.{data.command.qualified_name}.{data.name}"
    if location is Where.choice_name:
        return f"{SECTION}.choice.{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Names and descriptions from the catalogues, for each Discord locale that is one of our
    languages; None (the Spanish default) elsewhere."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = language_of_locale(locale.value)
        if lang is None:
            return None
        key = slash_key(context.location, context.data, string.message)
        if key is None:
            return None
        name = key.removeprefix(f"{SECTION}.")
        return SLASH.template(name, lang) if name in SLASH else None


__all__ = ["NAME_PATTERN", "SECTION", "TEXT_LIMIT", "CatalogueTranslator", "slash_key"]
