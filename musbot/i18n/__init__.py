"""Every sentence the bot says, one module per language (Spanish first).

Engine errors carry a code and parameters; they are worded here, by :func:`error_text` alone, so
that a table can speak the server's language while the engine stays free of text decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from musbot.engine.errors import MusError

from . import en, es

LANGUAGES = {"es": es, "en": en}
LANGUAGE_NAMES = {code: str(module.NAME) for code, module in LANGUAGES.items()}
"""Each language by its own name (``/mus config``)."""
DEFAULT_LANGUAGE = "es"


def catalog(lang: str) -> Any:
    return LANGUAGES.get(lang, es)


def seat_name(seat: int | None, names: Mapping[int, str] | None, lang: str = "es") -> str:
    if seat is None:
        return catalog(lang).NOBODY
    if names and seat in names:
        return names[seat]
    return catalog(lang).SEAT.format(seat=seat)


def error_text(error: MusError, lang: str = "es", names: Mapping[int, str] | None = None) -> str:
    """The one way an engine, grammar or table error becomes a sentence: its code's template in
    ``lang`` (Spanish when the language lacks it), seats by their names at this table, and an
    error given as the reason of another (``bad_rules``) worded the same way."""
    cat = catalog(lang)
    template = cat.ERRORS.get(error.code) or es.ERRORS.get(error.code) or error.code
    values: dict[str, Any] = {
        key: error_text(value, lang, names) if isinstance(value, MusError) else value
        for key, value in error.params.items()}
    for key in ("seat", "to_act"):
        if key in values:
            values[key] = seat_name(values[key], names, lang)
    if "lance" in values and values["lance"] is not None:
        values["lance"] = cat.LANCES[int(values["lance"])]
    try:
        return str(template.format(**values))
    except (KeyError, IndexError):
        return str(template)
