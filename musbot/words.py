"""Every word a player types, in Spanish, Basque, French and English, and the one
:func:`normalise`.

The grammar in two files: these tables are its vocabulary, :mod:`musbot.grammar` its parser, and
every place that reads a player's words (the table channel, DMs, the terminal, the replay) goes
through that parser. So a new word, say a Basque one, is one line here and is understood
everywhere at once; the parser changes only for a new *form* of command.

Two ways of writing the tables, each for its reader:

- the words of moves (§2, §4) are written normalised (lowercase, no accents: "mas" is «más»,
  "ordago" is «órdago»), because the parser compares them with normalised tokens;
- the words that make a whole message («vuelvo», «cartas», «seña …», the terminal's «ayuda»)
  and the seña names are written as people write them; they are compared after
  :func:`normalise` too.

Which of them each language *shows* (in help texts, hints, a «did you mean») is its
catalogue's: ``TABLE.said_*`` for the moves, ``WORDS.*`` for the rest, each one of these
tables' words (tests/test_i18n.py reads every one back).

Sits above the engine: it names the engine's actions and señas, and the engine knows no word.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from musbot.engine.actions import MUS, NO_HAY_MUS, NO_QUIERO, ORDAGO, PASO, QUIERO, Action
from musbot.engine.senas import Sena


def normalise(text: str) -> str:
    """What two spellings of the same words have in common: case, accents and spacing do not
    count («Órdago» is «ordago», «Liga  Otoño» is «liga otono»). League names are folded with it
    too (their stored keys), so it must keep folding the same way."""
    text = text.casefold()
    if not text.isascii():
        text = "".join(ch for ch in unicodedata.normalize("NFKD", text)
                       if not unicodedata.combining(ch))
    return " ".join(text.split())


BLANK_LOOKING: Final = frozenset("\u115f\u1160\u2800\u3164\uffa0\u180e")
"""Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern)."""
KEPT_FORMAT: Final = frozenset("\u200d")
"""The one invisible character a visible name may keep: the joiner of emoji sequences."""
MARKS_KEPT: Final = 2
"""Combining marks kept on one letter once composed (NFC): what a script needs (Vietnamese
stacks two); the rest of a «zalgo» pile is dropped."""


def columns(char: str) -> int:
    """Columns a character takes on screen: two for wide East Asian characters."""
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def is_mark(char: str) -> bool:
    """A combining mark: drawn on the character before it, never alone."""
    return unicodedata.category(char)[0] == "M"


def right_to_left(char: str) -> bool:
    """A letter written right to left (Hebrew, Arabic…)."""
    return unicodedata.bidirectional(char) in ("R", "AL")


def visible_name(name: str | None, limit: int | None = None, fallback: str = "") -> str:
    """A name as it is shown, whatever a nickname holds: one plain line, composed (NFC),
    without control and format characters (direction marks and overrides, zero-width spaces),
    blank-looking letters, unassigned or private code points, nor marks piled past
    :data:`MARKS_KEPT` or on nothing; its spaces collapsed; at most ``limit`` columns (cut
    with «…»). ``fallback`` when nothing visible is left (only marks and joiners). Plain text,
    not markup: an adapter escapes what its medium would read as markup."""
    kept: list[str] = []
    marks = 0  # marks the last character may still take: none on nothing
    for char in unicodedata.normalize("NFC", name or ""):
        category = unicodedata.category(char)
        if char.isspace() or category[0] == "Z":
            kept.append(" ")
            marks = 0
        elif char in BLANK_LOOKING or (category[0] == "C" and char not in KEPT_FORMAT):
            continue
        elif category in ("Mn", "Me"):
            if marks > 0:
                kept.append(char)
                marks -= 1
        else:
            kept.append(char)
            marks = 0 if char in KEPT_FORMAT else MARKS_KEPT
    line = " ".join("".join(kept).split())
    if all(unicodedata.category(ch)[0] == "M" or ch in KEPT_FORMAT for ch in line):
        return fallback
    if limit is not None:
        total = 0
        for i, char in enumerate(line):
            total += columns(char)
            if total > limit:
                return line[: max(i - 1, 0)].rstrip() + "…"
    return line


# ----------------------------------------------------------------------------------------------
# Moves (docs/rules.md §2, §4). Spanish first, then Basque, French, English; written normalised.
# What each language *shows* is its catalogue's (``TABLE.said_*``, ``WORDS.*``), one of these.
# ----------------------------------------------------------------------------------------------

FIXED_PHRASES: Final[dict[str, Action]] = {
    # §2, the mus phase.
    "mus": MUS,
    "no hay mus": NO_HAY_MUS,
    "no mus": NO_HAY_MUS,
    "corto": NO_HAY_MUS,
    "mintza": NO_HAY_MUS,  # Basque: "we speak", i.e. refuse mus.
    "ez dago mus": NO_HAY_MUS,  # Basque batua: "there is no mus".
    "mus ez": NO_HAY_MUS,  # Basque: "mus, no" (MEMO MUS answers ba/ez).
    "cut": NO_HAY_MUS,
    # §4, betting. Bets with amounts are built by the verb tables below.
    "paso": PASO,  # Basque uses "paso" too.
    "pass": PASO,
    "check": PASO,
    "quiero": QUIERO,
    "iduki": QUIERO,  # Basque: accept a bet (MEMO MUS; Iparralde).
    "idoki": QUIERO,  # Basque, as issue 25 spells it; no written source found (docs/glossary.md).
    "eduki": QUIERO,  # Basque batua (eu.wikipedia.org, «Mus»).
    "kanta": QUIERO,  # Basque: accept an órdago; the engine knows which bet stands.
    "call": QUIERO,
    "no quiero": NO_QUIERO,
    "tira": NO_QUIERO,  # Basque: "let them take it", the deje.
    "fold": NO_QUIERO,
    "ordago": ORDAGO,
    "echo ordago": ORDAGO,
    "hordago": ORDAGO,  # Basque spelling; "hor dago" = "there it is", where órdago comes from.
    "hor dago": ORDAGO,
    "all in": ORDAGO,
}
"""Whole messages that are one action, whatever the hand."""

ENVIDO_VERBS: Final[frozenset[str]] = frozenset({"envido", "imido", "bet"})
"""``VERB [N [tantos]] [más]``: ``envido`` = envido(2), ``envido 5``, ``envido más`` = 2 más,
``envido 3 más`` = 3 más (§4)."""

RAISE_VERBS: Final[frozenset[str]] = frozenset({"revido", "reenvido", "raise"})
"""``VERB [N]``: always a raise, 2 más when no amount is given (§4: "revido" = 2 más)."""

WEAK_RAISE_VERBS: Final[frozenset[str]] = frozenset({"subo"})
"""Like :data:`RAISE_VERBS`, but an everyday word ("subo a cenar"): only a number after it makes
a near miss, any other word makes it chat."""

MORE_WORDS: Final[frozenset[str]] = frozenset({"mas", "gehiago"})
"""``N más`` / Basque ``N gehiago`` (also ``N tantos gehiago``): a raise of N."""

POSTFIX_ENVIDO_VERBS: Final[frozenset[str]] = frozenset({"imido"})
"""Basque word order: ``lau tantos imido`` = envido 4."""

TANTOS_WORDS: Final[frozenset[str]] = frozenset({"tantos", "tanto"})
"""An optional unit after the amount: ``envido 5 tantos``, ``hiru tantos gehiago``."""

DISCARD_VERBS: Final[tuple[tuple[str, ...], ...]] = (
    ("me", "descarto", "de"),
    ("me", "descarto"),
    ("descarto",),
    ("descarte",),
    ("bota",),  # Basque: "throw"; the table says «3 karta bota ditu».
    ("je", "jette"),  # French: MEMO MUS «on jette le 5», «les cartes jetées».
    ("jette",),
    ("discard",),
)
"""Longest first, so "me descarto de 1" is not read as "me descarto" + "de 1"."""

ALL_CARDS_WORDS: Final[frozenset[str]] = frozenset(
    {"todas", "todo", "denak", "guztiak", "tout", "toutes", "all"})
"""``descarto todas``, ``bota denak``, ``jette tout``: the whole hand."""

LIST_CONNECTORS: Final[frozenset[str]] = frozenset(
    {"y", "e", "de", "del", "la", "las", "el", "los", "eta", "et", "le", "les", "and", "the"}
)
"""Skipped in a discard list: ``descarto la 1 y la 3``, ``descarto de 1o``, Basque ``bota 1
eta 3``, French ``jette le 1 et le 3``."""

LEADING_FILLERS: Final[frozenset[str]] = frozenset(
    {"pues", "vale", "venga", "va", "bueno", "yo", "tambien", "ok", "okay", "i"}
)
"""Words that may open a command without changing it: "pues paso", "venga, órdago", "I fold"."""

TRAILING_FILLERS: Final[frozenset[str]] = frozenset({"tio", "tia", "eh", "yo", "tambien"})
"""Words that may close a command: "paso yo", "mus también", "envido, tío"."""

LANCE_WORDS: Final[frozenset[str]] = frozenset({
    "grande", "chica", "pares", "juego", "punto",
    # Basque, Hegoalde and Iparralde forms (docs/glossary.md): accepted typed, one shown.
    "handia", "haundia", "txikia", "tipia", "ttipia", "pareak", "pariak", "jokoa", "jokua",
    "puntua", "pundua", "pundia", "pondua"})
LANCE_PREPOSITIONS: Final[frozenset[str]] = frozenset({"a", "al", "en"})
LANCE_ARTICLES: Final[frozenset[str]] = frozenset({"la", "las", "los", "el"})
BOTH_LANCES_WORDS: Final[frozenset[str]] = frozenset({"biak"})
"""Basque "biak imido/hordago" bets Grande and Chica at once; docs/rules.md has no such bet."""


def _number_words() -> dict[str, int]:
    """Spanish (up to cien, with "treinta y uno" and the old "veinte y dos"), Basque (up to
    berrogei, with "hogeita bat"), English (up to ninety-nine, hyphen or space)."""
    es_units = {
        "uno": 1, "un": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
        "siete": 7, "ocho": 8, "nueve": 9,
    }
    es_tens = {
        "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60,
        "setenta": 70, "ochenta": 80, "noventa": 90,
    }
    words: dict[str, int] = {"cero": 0, **es_units, **es_tens, "cien": 100}
    words.update({
        "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
        "dieciseis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19,
        "veintiun": 21, "veintiuno": 21, "veintiuna": 21, "veintidos": 22, "veintitres": 23,
        "veinticuatro": 24, "veinticinco": 25, "veintiseis": 26, "veintisiete": 27,
        "veintiocho": 28, "veintinueve": 29,
    })
    for ten, t in es_tens.items():
        for unit, u in es_units.items():
            words[f"{ten} y {unit}"] = t + u
    for unit, u in es_units.items():
        if u >= 6:
            words[f"diez y {unit}"] = 10 + u

    eu_units = {
        "bat": 1, "bi": 2, "hiru": 3, "lau": 4, "bost": 5, "sei": 6, "zazpi": 7, "zortzi": 8,
        "bederatzi": 9,
    }
    eu_teens = {
        "hamar": 10, "hamaika": 11, "hamabi": 12, "hamahiru": 13, "hamalau": 14, "hamabost": 15,
        "hamasei": 16, "hamazazpi": 17, "hemezortzi": 18, "hemeretzi": 19,
    }
    words.update(eu_units)
    words.update(eu_teens)
    words.update({"bano": 1, "biga": 2, "behatzi": 9, "hogei": 20, "berrogei": 40})
    for word, n in (eu_units | eu_teens).items():
        words[f"hogeita {word}"] = 20 + n

    en_units = {
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9,
    }
    en_tens = {
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    }
    words.update({"zero": 0, **en_units, **en_tens})
    words.update({
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    })
    for ten, t in en_tens.items():
        for unit, u in en_units.items():
            words[f"{ten} {unit}"] = t + u
    return words


NUMBER_WORDS: Final[dict[str, int]] = _number_words()
"""Amounts in words, keyed by their normalised tokens joined with one space."""

# ----------------------------------------------------------------------------------------------
# Whole messages besides the moves: at any table (channel, DM, terminal) and in the terminal.
# Written as people write them, Spanish first.
# ----------------------------------------------------------------------------------------------

COME_BACK_WORDS: Final[tuple[str, ...]] = (
    "vuelvo", "ya vuelvo", "estoy aquí", "itzuli naiz", "hemen nago", "je reviens",
    "me revoilà", "i'm back", "im back", "back")
"""«vuelvo»: a person takes their seat back from the bot that played it (see the table)."""

CARDS_WORDS: Final[tuple[str, ...]] = (
    "cartas", "mis cartas", "ver", "ver mis cartas", "mano", "kartak", "nire kartak", "cartes",
    "mes cartes", "cards", "my cards")
"""Asking to see one's hand again (by DM, or in the terminal)."""

SENA_WORDS: Final[tuple[str, ...]] = (
    "seña", "señas", "senya", "keinu", "keinua", "signe", "signal", "sign")
"""Opening a seña: «seña dos reyes», Basque «keinu», French «signe», English «signal»."""

HELP_WORDS: Final[tuple[str, ...]] = ("ayuda", "laguntza", "aide", "help", "?")
"""The terminal's list of what it understands."""

STATUS_WORDS: Final[tuple[str, ...]] = ("mesa", "estado", "mahaia", "egoera", "table", "status")
"""The terminal's table at a glance."""

QUIT_WORDS: Final[tuple[str, ...]] = ("salir", "irten", "quitter", "quit", "exit")
"""Leaving the terminal's match."""

REVIEW_WORDS: Final[tuple[str, ...]] = ("repaso", "errepasoa", "errepaso", "revue", "review")
"""«¿Cómo jugué?» in the terminal, with a hand's number or alone (the last finished hand)."""

# ----------------------------------------------------------------------------------------------
# Seña names (docs/rules.md §7).
# ----------------------------------------------------------------------------------------------

SENA_NAMES: Final[dict[str, Sena]] = {
    **{sena.nombre: sena for sena in Sena},  # §7's own names: «dos reyes», «la real»…
    "2 reyes": Sena.DOS_REYES,
    "3 reyes": Sena.TRES_REYES,
    "2 ases": Sena.DOS_ASES,
    "3 ases": Sena.TRES_ASES,
    "31": Sena.TREINTA_Y_UNA,
    "treintayuna": Sena.TREINTA_Y_UNA,
    "la una": Sena.TREINTA_Y_UNA,
    "30": Sena.TREINTA,
    "30 al punto": Sena.TREINTA,
    "treinta al punto": Sena.TREINTA,
    "duple": Sena.DUPLES,
    "dobles": Sena.DUPLES,
    "media": Sena.MEDIAS,
    "real": Sena.REAL,
    "ciega": Sena.CIEGO,
    # Basque (docs/glossary.md: eu.wikipedia.org «Mus», Keinuak; MEMO MUS).
    "bi errege": Sena.DOS_REYES,
    "hiru errege": Sena.TRES_REYES,
    "bi bateko": Sena.DOS_ASES,
    "hiru bateko": Sena.TRES_ASES,
    "mediak": Sena.MEDIAS,
    "dobliak": Sena.DUPLES,
    "doblak": Sena.DUPLES,
    "hogeita hamaika": Sena.TREINTA_Y_UNA,
    "hogeita hamar": Sena.TREINTA,
    "itsua": Sena.CIEGO,
    "itsu": Sena.CIEGO,
    "erreala": Sena.REAL,
    # French (the names musbot shows; MEMO MUS names the señas by what they tell: «2 rois»,
    # «3 cartes pareilles (mediak)», «31»).
    "deux rois": Sena.DOS_REYES,
    "2 rois": Sena.DOS_REYES,
    "trois rois": Sena.TRES_REYES,
    "3 rois": Sena.TRES_REYES,
    "deux as": Sena.DOS_ASES,
    "2 as": Sena.DOS_ASES,
    "trois as": Sena.TRES_ASES,
    "3 as": Sena.TRES_ASES,
    "trente et un": Sena.TREINTA_Y_UNA,
    "trente et une": Sena.TREINTA_Y_UNA,
    "trente": Sena.TREINTA,
    "aveugle": Sena.CIEGO,
    # English.
    "two kings": Sena.DOS_REYES,
    "three kings": Sena.TRES_REYES,
    "two aces": Sena.DOS_ASES,
    "three aces": Sena.TRES_ASES,
    "thirty one": Sena.TREINTA_Y_UNA,
    "thirty": Sena.TREINTA,
    "blind": Sena.CIEGO,
}
"""Every way of naming a seña after «seña»; a hyphen or an underscore counts as a space
(«treinta-y-una», «tres_reyes»)."""
