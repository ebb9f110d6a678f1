"""Discord-only sentences (buttons, DMs, command answers, server features) from the i18n
catalogs."""

from __future__ import annotations

from typing import Any

from musbot.engine import MusError
from musbot.i18n import error_text

MESSAGE_LIMIT = 2000
"""Discord's longest message text, in characters: one home for every sender to cut at."""


def error(code: str, lang: str = "es", **params: Any) -> str:
    """A table error worded without raising one (e.g. «no table here» before any table exists)."""
    return error_text(MusError(code, **params), lang)
