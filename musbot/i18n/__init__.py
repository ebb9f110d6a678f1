"""Every sentence the bot says, in gettext catalogues (``locale/``): Spanish, Basque, French and
English.

``locale/musbot.pot`` is the Spanish source: each entry's ``msgctxt`` is the key the code asks
for (``TABLE.hand_started``, ``ERRORS.not_your_turn``, ``LANCES.0``…) and its ``msgid`` the
Spanish sentence, which is what a translator reads; ``eu.po``, ``fr.po`` and ``en.po`` hold the
translations, with each language's own plural rule (``Plural-Forms``). Any tool that reads
gettext (Poedit, Weblate, Pontoon, Lokalize) edits them; ``tools/po_from_dicts.py`` turns a
dict catalogue of the old format into entries. The catalogues are compiled when first used, in
memory, by Babel (pure Python: no build step, no compiled ``.mo`` file to keep in step).

The code asks for a sentence through its audience's handle, one :class:`Texts` per section, the
way gettext's ``pgettext`` reads a context but with the language given on each call (one bot
speaks to many people at once): ``TABLE("hand_started", lang, mano=…)`` for the table,
``DISCORD`` for buttons and DMs, ``SERVER`` for a server's leagues and settings, ``CLI`` and
``TERMINAL`` for the command line, ``COACH`` for a review, ``TXAPELKETA`` for a live
tournament, ``REPLAY`` and ``BENCH`` for the tools. Every handle words its sentence the same
way, by :func:`translate`: the plural form its count asks for, Spanish where a language lacks
the sentence, ``str.format`` of the values.

Engine errors carry a code and parameters; they are worded here, by :func:`error_text` alone, so
that a table can speak the server's language while the engine stays free of text decisions.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from musbot.engine.errors import MusError

log = logging.getLogger(__name__)

DEFAULT_LANGUAGE: Final = "es"
LANGUAGE_CODES: Final = ("es", "eu", "fr", "en")
"""Spanish first (the default), then Basque and French, the other languages of Mus's country."""
TEMPLATE: Final = "musbot.pot"
PLURAL_COMMENT: Final = "plural: "
"""The extracted comment (``#. plural: n``) naming the parameter whose number picks the form."""
TUPLE_SECTIONS: Final = frozenset({"LANCES"})
"""Sections the code reads by position (``LANCES[int(lance)]``)."""


@dataclass(frozen=True)
class Plural:
    """A sentence with a form per plural category of its language («1 tanto», «2 tantos»;
    French «0 point»): :meth:`format` picks the form by the value of ``count``."""

    forms: tuple[str, ...]
    count: str
    rule: Callable[[int], int]

    def form(self, n: int) -> str:
        index = self.rule(abs(int(n)))
        return self.forms[min(index, len(self.forms) - 1)]

    def format(self, **params: Any) -> str:
        return self.form(params[self.count]).format(**params)


Entry = str | Plural


class Catalogue:
    """One language: its sections as attributes (``ERRORS``, ``TABLE``, ``LANCES``, ``NAME``…),
    as the code has always read them."""

    def __init__(self, code: str, entries: Mapping[str, Entry],
                 plural_counts: Mapping[str, str] | None = None) -> None:
        self.code = code
        self.entries = dict(entries)
        self.plural_counts = dict(plural_counts or {})
        """Each plural sentence's count, read from the template (the Spanish catalogue's)."""
        sections: dict[str, dict[Any, Entry]] = {}
        for context, entry in self.entries.items():
            section, dot, key = context.partition(".")
            if not dot:
                setattr(self, section, entry)
                continue
            sections.setdefault(section, {})[int(key) if key.isdigit() else key] = entry
        for section, values in sections.items():
            if section in TUPLE_SECTIONS:
                setattr(self, section, tuple(values[i] for i in range(len(values))))
            else:
                setattr(self, section, values)

    def __getattr__(self, name: str) -> Any:  # the sections set in __init__
        raise AttributeError(f"no catalogue section {name!r} in {self.code}")


def _plural_rule(expression: str) -> Callable[[int], int]:
    import gettext

    return gettext.c2py(expression)  # type: ignore[attr-defined,no-any-return]


def _read(name: str, locale: str | None) -> Catalog:
    with resources.files(__package__).joinpath("locale", name).open("rb") as handle:
        return read_po(handle, locale=locale, abort_invalid=True)


def _plural_counts(template: Catalog) -> dict[str, str]:
    """Each plural sentence's count, from its comment in the template."""
    return {str(message.context): comment.removeprefix(PLURAL_COMMENT).strip()
            for message in template for comment in message.auto_comments
            if comment.startswith(PLURAL_COMMENT)}


def _entries(catalog: Catalog, counts: dict[str, str], *, source: bool) -> dict[str, Entry]:
    """Key → sentence of one compiled catalogue: the template's msgids for Spanish, the
    translated, non-fuzzy msgstrs otherwise (anything else is missing); ``counts``: each plural
    sentence's count."""
    rule = _plural_rule(catalog.plural_expr)
    found: dict[str, Entry] = {}
    for message in catalog:
        if not message.id or message.context is None:
            continue
        text = message.id if source else message.string
        if not source and (message.fuzzy or not text or (
                isinstance(text, tuple | list) and not all(text))):
            continue
        if isinstance(text, tuple | list):
            found[message.context] = Plural(tuple(text), counts.get(message.context, "n"), rule)
        elif text:
            found[message.context] = str(text)
    return found


@functools.cache
def compiled(lang: str) -> Catalogue:
    """A language's catalogue, compiled from its ``.po`` on first use."""
    if lang == DEFAULT_LANGUAGE:  # the template, read once and not kept (a megabyte of babel's)
        template = _read(TEMPLATE, None)
        counts = _plural_counts(template)
        return Catalogue(lang, _entries(template, counts, source=True), counts)
    source = compiled(DEFAULT_LANGUAGE)
    spanish = source.entries
    own = _entries(_read(f"{lang}.po", lang), source.plural_counts, source=False)
    missing = spanish.keys() - own.keys()
    if missing:  # tests/test_i18n.py fails on it; a running bot says so and speaks Spanish there
        log.warning("%s: %d sentences not translated, said in Spanish: %s", lang, len(missing),
                    ", ".join(sorted(missing)[:10]))
    return Catalogue(lang, {key: own.get(key, spanish[key]) for key in spanish})


def catalog(lang: str) -> Any:
    """The sections of ``lang`` (Spanish for a language the bot does not have)."""
    return compiled(lang if lang in LANGUAGE_CODES else DEFAULT_LANGUAGE)


def compile_all() -> None:
    """Every language's catalogue compiled now, at a bot's start: no table's first sentence
    waits for its language's."""
    for code in LANGUAGE_CODES:
        compiled(code)


def translate(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """One sentence, by its whole key (``"TABLE.hand_started"``), in ``lang``, with its values:
    the one lookup every :class:`Texts` handle words through."""
    return _worded(catalog(lang).entries[key], params)


def _worded(entry: Entry, params: Mapping[str, Any]) -> str:
    """A plural sentence takes the form its count asks for; without values a sentence is given as
    it is (literal braces included)."""
    if isinstance(entry, Plural):
        return entry.format(**params)
    return entry.format(**params) if params else entry


class Texts:
    """The sentences of one audience: a section of the catalogues (``TABLE``, ``DISCORD``,
    ``CLI``…), asked for by key and language, ``TABLE("hand_started", lang, mano=…)``, and
    worded as :func:`translate` words any sentence. A handle looks each sentence up once per
    language: a table words several of them at every move."""

    __slots__ = ("_entries", "_prefix", "section")

    def __init__(self, section: str) -> None:
        self.section = section
        self._prefix = f"{section}." if section else ""
        self._entries: dict[tuple[str | int, str], Entry] = {}

    def entry(self, key: str | int, lang: str = DEFAULT_LANGUAGE) -> Entry:
        """The sentence as the catalogue holds it: a template, or a :class:`Plural`."""
        found = self._entries.get((key, lang))
        if found is None:
            found = self._entries[(key, lang)] = catalog(lang).entries[f"{self._prefix}{key}"]
        return found

    def __call__(self, key: str | int, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
        entry = self._entries.get((key, lang)) or self.entry(key, lang)
        if params or not isinstance(entry, str):  # as _worded; the common case without a call
            return _worded(entry, params)
        return entry

    def template(self, key: str | int, lang: str = DEFAULT_LANGUAGE) -> str:
        """The sentence with its holes left open (for a caller that fills them in later)."""
        return str(self.entry(key, lang))

    def get(self, key: str | int, lang: str, default: str) -> str:
        """The sentence, or ``default`` for a key the section does not have (an engine's word
        with no sentence of its own is shown as it is)."""
        return self(key, lang) if key in self else default

    def __contains__(self, key: object) -> bool:
        """Whether the section has ``key`` (every language has what Spanish has)."""
        return f"{self._prefix}{key}" in catalog(DEFAULT_LANGUAGE).entries

    def __repr__(self) -> str:
        return f"Texts({self.section!r})"


TABLE: Final = Texts("TABLE")
"""What a table says to its players: moves, lances, scores, summaries."""
DISCORD: Final = Texts("DISCORD")
"""Discord's own words around a table: buttons, DMs, command answers."""
SERVER: Final = Texts("SERVER")
"""A server's leagues, profiles, settings and storage failures."""
CLI: Final = Texts("CLI")
"""The ``musbot`` command line: options, help, maintenance commands."""
TERMINAL: Final = Texts("TERMINAL")
"""A match played in the terminal (``musbot play``)."""
COACH: Final = Texts("COACH")
"""A hand's review: the decisions weighed, figures as a player reads them."""
TXAPELKETA: Final = Texts("TXAPELKETA")
"""A tournament being played: announcements, calls, reports, the organiser's board."""
TOURNAMENT: Final = Texts("TOURNAMENT")
"""A tournament's bracket and tables of standings, in pictures and in text."""
REPLAY: Final = Texts("REPLAY")
"""The replay of a transcript (``musbot replay``)."""
BENCH: Final = Texts("BENCH")
"""What the benchmarks print (``musbot bench``)."""
PICTURE_WORDS: Final = Texts("PICTURES")
"""The few words drawn on a table's picture."""
SLASH: Final = Texts("SLASH")
"""Slash commands' names, descriptions and choices, as Discord shows them in each locale."""
ERRORS: Final = Texts("ERRORS")
"""An engine, grammar or table error, by its code (:func:`error_text` words them)."""
LANCE_NAME: Final = Texts("LANCES")
"""A lance's name by its number (``LANCE_NAME(0, lang)``: «grande»)."""
SCORE_KIND: Final = Texts("SCORE_KINDS")
"""How tantos were won (en paso, querido, deje…), by the engine's word for it."""
SENA_NAME: Final = Texts("SENA_NAMES")
"""A seña by the name its reader types («dos reyes», «bi errege»)."""
SENA_GESTURE: Final = Texts("SENA_GESTURES")
"""A seña's gesture, as its receiver sees it."""
RANK_NAME: Final = Texts("RANK_NAMES")
SUIT_NAME: Final = Texts("SUIT_NAMES")
"""A card's rank and suit in words (``COMMON("CARD_NAME", …)`` puts them together)."""
TYPED_WORD: Final = Texts("WORDS")
"""A word a person types (``bota``, ``kartak``…), as each language shows it."""
COMMON: Final = Texts("")
"""The few sentences kept at the catalogues' top level, shared by every audience: ``NAME`` (a
language's own name), ``NOBODY``, ``SEAT``, ``CARD_NAME``."""


class _Languages(Mapping[str, Catalogue]):
    """``LANGUAGES[code]``: the catalogues, compiled when first asked for."""

    def __getitem__(self, code: str) -> Catalogue:
        if code not in LANGUAGE_CODES:
            raise KeyError(code)
        return compiled(code)

    def __iter__(self) -> Any:
        return iter(LANGUAGE_CODES)

    def __len__(self) -> int:
        return len(LANGUAGE_CODES)


LANGUAGES: Final[Mapping[str, Catalogue]] = _Languages()
LANGUAGE_NAMES: Final = {"es": "español", "eu": "euskara", "fr": "français", "en": "English"}
"""Each language by its own name (``/musadmin config``, ``/mus idioma``)."""


def language_of_locale(tag: str | None) -> str | None:
    """The bot's language for a locale: Discord's (``fr``, ``es-ES``, ``es-419``, ``en-GB``) or
    POSIX ``LANG`` (``fr_FR.UTF-8``, ``eu_ES``); None for any other (``C.UTF-8``, ``de``).
    Discord has no Basque locale: there, Basque is always a person's own choice."""
    prefix = (tag or "").replace("_", "-").split("-")[0].split(".")[0].lower()
    return prefix if prefix in LANGUAGE_CODES else None


def seat_name(seat: int | None, names: Mapping[int, str] | None, lang: str = "es") -> str:
    if seat is None:
        return str(catalog(lang).NOBODY)
    if names and seat in names:
        return names[seat]
    return str(catalog(lang).SEAT.format(seat=seat))


def permission_names(names: Iterable[str], lang: str) -> str:
    """«Crear hilos privados», «Enviar mensajes en hilos»: Discord's permissions (by their API
    names, ``create_private_threads``) as the server's settings show them in ``lang``."""
    words = catalog(lang).DISCORD
    return ", ".join(str(words.get(f"perm_{name}", name)) for name in names)


def error_text(error: MusError, lang: str = "es", names: Mapping[int, str] | None = None) -> str:
    """The one way an engine, grammar or table error becomes a sentence: its code's template in
    ``lang``, seats by their names at this table, and an error given as the reason of another
    (``bad_rules``) worded the same way."""
    cat = catalog(lang)
    template = cat.ERRORS.get(error.code) or error.code
    values: dict[str, Any] = {
        key: error_text(value, lang, names) if isinstance(value, MusError) else value
        for key, value in error.params.items()}
    for key in ("seat", "to_act"):
        if key in values:
            values[key] = seat_name(values[key], names, lang)
    if "lance" in values and values["lance"] is not None:
        values["lance"] = cat.LANCES[int(values["lance"])]
    if isinstance(values.get("sena"), str):  # a seña by its Spanish name: the reader's
        values["sena"] = cat.SENA_NAMES.get(values["sena"], values["sena"])
    if isinstance(values.get("permissions"), (list, tuple)):  # Discord's names: the reader's
        values["permissions"] = permission_names(values["permissions"], lang)
    try:
        return str(template.format(**values))
    except (KeyError, IndexError):
        return str(template) if isinstance(template, str) else error.code
