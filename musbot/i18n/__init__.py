"""Every sentence the bot says, one module per language (Spanish first).

Engine errors carry a code and parameters; they are worded here so that a table can speak the
server's language while the engine stays free of text decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import en, es

LANGUAGES = {"es": es, "en": en}
DEFAULT_LANGUAGE = "es"


def catalog(lang: str) -> Any:
    return LANGUAGES.get(lang, es)


def seat_name(seat: int | None, names: Mapping[int, str] | None, lang: str = "es") -> str:
    if seat is None:
        return catalog(lang).NOBODY
    if names and seat in names:
        return names[seat]
    return catalog(lang).SEAT.format(seat=seat)


def error_text(code: str, params: Mapping[str, Any], *, lang: str = "es",
               names: Mapping[int, str] | None = None) -> str:
    cat = catalog(lang)
    template = cat.ERRORS.get(code) or es.ERRORS.get(code) or code
    values = dict(params)
    for key in ("seat", "to_act"):
        if key in values:
            values[key] = seat_name(values[key], names, lang)
    if "lance" in values and values["lance"] is not None:
        values["lance"] = cat.LANCES[int(values["lance"])]
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template
