"""Text people chose (names, nicknames, league names) shown on Discord as the text it is, and
mentions that reach only the person meant.

The table layer speaks plain text: its catalogs hold no markdown, so everything it says is shown
escaped (:func:`plain`), and a nickname like ``[premio](https://…)||`` or ``<@123>`` reads as
typed, never as a link, a spoiler or a mention. What the bot says of its own (bold titles, the
DM header) is added after escaping. A message names the users it may notify
(:func:`mentioning`): nobody else is pinged, whatever its text holds, and the bot's default
notifies nobody (:data:`NO_MENTIONS`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from musbot.words import visible_name

NO_MENTIONS = discord.AllowedMentions.none()
"""The bot's default: a message notifies nobody unless it names whom."""

SPECIAL = frozenset("\\*_~|`[]<@")
"""Characters that open or close Discord markup anywhere in a line: emphasis, strike, spoilers,
code, masked links, mentions (users, roles, channels, emoji, timestamps) and «@everyone».
Discord shows any punctuation after a backslash as itself, so each is escaped alone: no pattern
to get wrong (discord.py's masked-link pattern, greedy, left the bars after it unescaped)."""
_ESCAPED = str.maketrans({ch: "\\" + ch for ch in SPECIAL})
_LINE_START = re.compile(r"^(\s*)([#>-])", re.MULTILINE)
"""Headers, quotes and lists (and ``-#`` small text): markup only at a line's start."""


_ANY_SPECIAL = re.compile(f"[{re.escape(''.join(sorted(SPECIAL)))}]")
_LINE_MARKS = frozenset("#>-")


def _holds_markup(text: str) -> bool:
    """Whether anything in ``text`` is to be escaped: most lines hold nothing, and looking is
    several times cheaper than rewriting (a line with an emoji is translated character by
    character). One pattern for both kinds of markup would test for a line's start at every
    character, so the characters are searched alone and the line starts read as strings."""
    if _ANY_SPECIAL.search(text) is not None:
        return True
    if "\n" in text:
        return any(line.lstrip()[:1] in _LINE_MARKS for line in text.split("\n"))
    return text.lstrip()[:1] in _LINE_MARKS


def plain(text: str) -> str:
    """``text`` shown literally: each markup character escaped with a backslash."""
    if not _holds_markup(text):
        return text
    return _LINE_START.sub(r"\1\\\2", text.translate(_ESCAPED))


def plain_with(text: str, mention: str) -> str:
    """:func:`plain`, keeping the one mention the bot put in ``text`` itself (``<@id>`` of
    the person it addresses)."""
    return plain(text).replace(plain(mention), mention)


def mentioning(*user_ids: int) -> discord.AllowedMentions:
    """Notifies these users (if the text mentions them) and nobody else: no role, no
    «@everyone», not the author of a message replied to."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in user_ids])


def seat_name(user: Any) -> str:
    """The name a person sits down with: their display name in the server if any of it can be
    seen, else their username (Discord keeps those visible), else their id."""
    for candidate in (getattr(user, "display_name", None), getattr(user, "name", None)):
        if candidate and visible_name(str(candidate)):
            return str(candidate)
    return str(user.id)
