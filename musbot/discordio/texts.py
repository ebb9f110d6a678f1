"""Discord-only sentences (buttons, DMs, command answers, server features) from the i18n
catalogs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from musbot.engine import MusError
from musbot.i18n import catalog, error_text


def dt(key: str, lang: str = "es", **params: Any) -> str:
    """One sentence of the ``DISCORD`` catalog, Spanish when the language lacks it."""
    table: Mapping[str, str] = getattr(catalog(lang), "DISCORD", {})
    template = table.get(key) or catalog("es").DISCORD[key]
    return str(template).format(**params) if params else str(template)


def server(key: str, lang: str = "es", **params: Any) -> str:
    """One sentence of the ``SERVER`` catalog (leagues, profiles, settings, storage failures),
    Spanish when the language lacks it."""
    table: Mapping[str, str] = getattr(catalog(lang), "SERVER", {})
    template = table.get(key) or catalog("es").SERVER[key]
    return str(template).format(**params)


def error(code: str, lang: str = "es", **params: Any) -> str:
    """A table error worded without raising one (e.g. «no table here» before any table exists)."""
    return error_text(MusError(code, **params), lang)
