"""The i18n layer: how an error becomes a sentence, and the catalogues every language must fill."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from musbot.engine import IllegalAction, InvalidRules, Lance, MalformedCommand, NotYourTurn, Rules
from musbot.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_CODES,
    LANGUAGES,
    Entry,
    Plural,
    catalog,
    error_text,
    translate,
)
from musbot.settings import InvalidSettings
from musbot.storage import ServerSettings
from musbot.table import TableError

NAMES = {0: "Ane", 1: "Bea", 2: "Carmen", 3: "Dani"}

_PERCENT = re.compile(r"%(?:\((\w+)\))?[-+ #0]*\d*(?:\.\d+)?[sdrf%]")


ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "musbot" / "i18n" / "locale"
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]
SPANISH = catalog(DEFAULT_LANGUAGE).entries


def holes(text: str) -> set[str]:
    """The holes a sentence leaves for values: ``{name}`` and ``{name:spec}`` for
    ``str.format``, ``%(name)s`` and ``%s`` for argparse's own sentences."""
    found = {f"{{{name}:{spec}}}" if spec else f"{{{name}}}"
             for _, name, spec, _ in string.Formatter().parse(text) if name is not None}
    found |= {f"%({hole.group(1)})" if hole.group(1) else "%"
              for hole in _PERCENT.finditer(text) if hole.group() != "%%"}
    return found


def forms(entry: Entry) -> tuple[str, ...]:
    return entry.forms if isinstance(entry, Plural) else (entry,)


def read(lang: str) -> Catalog:
    name = "musbot.pot" if lang == DEFAULT_LANGUAGE else f"{lang}.po"
    with (LOCALE / name).open("rb") as handle:
        return read_po(handle, locale=None if lang == DEFAULT_LANGUAGE else lang)


def test_every_catalogue_is_found_and_named() -> None:
    assert list(LANGUAGES) == ["es", "eu", "fr", "en"]
    assert sorted(path.name for path in LOCALE.iterdir()) == [
        "en.po", "eu.po", "fr.po", "musbot.pot"]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_sentence_is_translated_and_none_is_left_over(lang: str) -> None:
    """A key missing (or empty, or fuzzy: its Spanish changed since) would be said in Spanish;
    an entry the template no longer has is dead text. Both ways, every key."""
    template = {message.context: message.id for message in read(DEFAULT_LANGUAGE) if message.id}
    problems = []
    seen = set()
    for message in read(lang):
        if not message.id:
            continue
        seen.add(message.context)
        if message.context not in template:
            problems.append(f"{lang}: {message.context} is not in the template")
        elif message.id != template[message.context]:
            problems.append(f"{lang}: {message.context} translates an older Spanish sentence")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            problems.append(f"{lang}: {message.context} is not translated")
        if isinstance(message.id, tuple) != isinstance(message.string, tuple):
            problems.append(f"{lang}: {message.context} plural in one, not in the other")
    problems += [f"{lang}: {context} is missing" for context in template.keys() - seen]
    assert not problems, "\n".join(sorted(problems))


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_translation_asks_for_the_same_values(lang: str) -> None:
    """A parameter dropped (or invented) by a translation would lose a name or crash."""
    problems = []
    for key, entry in catalog(lang).entries.items():
        wanted = set().union(*(holes(form) for form in forms(SPANISH[key])))
        given = [holes(form) for form in forms(entry)]
        if set().union(*given) != wanted or any(not form <= wanted for form in given):
            problems.append(f"{lang}: {key}: {sorted(set().union(*given))}, es {sorted(wanted)}")
    assert not problems, "\n".join(problems)


def sample(hole: str, plural: Plural | None, n: int) -> Any:
    """A value for a hole: the count of a plural, a number where the format asks for one, and a
    long name elsewhere (the longest a Discord nickname can be, 32)."""
    name, _, spec = hole.strip("{}").partition(":")
    if plural is not None and name == plural.count:
        return n
    if spec.endswith("%"):
        return 0.5
    if spec.endswith("d"):
        return 5
    return "W" * 32


BUTTONS = {key for key in SPANISH if key.startswith("DISCORD.btn_")}
MODAL_TEXTS = {"DISCORD.modal_title", "DISCORD.modal_label"}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_sentence_renders_with_its_values_and_every_plural_with_0_1_2_5(
        lang: str) -> None:
    """Within Discord's limits too: 2,000 characters a message, 80 a button's label, 45 a
    modal's title and its field's label."""
    for key, entry in catalog(lang).entries.items():
        if key.startswith("CLI.argparse"):
            continue  # %-style, filled by argparse itself
        plural = entry if isinstance(entry, Plural) else None
        for n in (0, 1, 2, 5) if plural else (1,):
            params = {hole.strip("{}").partition(":")[0]: sample(hole, plural, n)
                      for form in forms(SPANISH[key]) for hole in holes(form)}
            text = translate(key, lang, **params) if params else translate(key, lang)
            assert text.strip(), key
            assert len(text) <= 2000, (lang, key, text)
            if key in BUTTONS:
                assert len(text) <= 80, (lang, key, text)
            if key in MODAL_TEXTS:
                assert len(text) <= 45, (lang, key, text)


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("es", 0, "0 tantos"), ("es", 1, "1 tanto"), ("es", 2, "2 tantos"), ("es", 5, "5 tantos"),
    ("fr", 0, "0 tanto"), ("fr", 1, "1 tanto"), ("fr", 2, "2 tantos"),
    ("en", 0, "0 tantos"), ("en", 1, "1 tanto"), ("en", 5, "5 tantos"),
])
def test_plurals_follow_each_language_s_rule(lang: str, n: int, expected: str) -> None:
    """French counts 0 as singular (gettext's ``n > 1``); Spanish, Basque, English do not."""
    assert translate("TABLE.tantos_n", lang, n=n) == expected


SOURCES = [*sorted((ROOT / "musbot").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py"))]
BUILT_KEYS = {
    # Sections whose keys the code builds from a value rather than naming them whole: an
    # error's or a failure's code, a lance, a card, a seña, a kind of score…
    "ERRORS": re.compile(r".*"), "SERVER": re.compile(r".*"), "REPLAY": re.compile(r".*"),
    "SCORE_KINDS": re.compile(r".*"), "SENA_GESTURES": re.compile(r".*"),
    "SENA_NAMES": re.compile(r".*"),
    "RANK_NAMES": re.compile(r".*"), "SUIT_NAMES": re.compile(r".*"),
    "LANCES": re.compile(r".*"),
    "TABLE": re.compile(r"variant_|.*_n$|team"),  # team…: a side at two or six, render.side
    "DISCORD": re.compile(r"perm_|btn_"),
    "SLASH": re.compile(r".*"),  # by where they are in the command tree: tests/test_translator.py
    "BENCH": re.compile(r"label_|load_column_"),  # musbot.bench.rows, load_report.comparison
}


def test_every_key_is_used_by_the_code() -> None:
    """An entry nobody asks for is a sentence translated four times for nothing."""
    code = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    unused = []
    for context in SPANISH:
        section, _, key = context.partition(".")
        if not key:
            continue
        built = BUILT_KEYS.get(section)
        if built is not None and built.match(key):
            continue
        if f'"{key}"' not in code and f"'{key}'" not in code:
            unused.append(context)
    assert not unused, unused


def test_holes_are_found_in_both_styles() -> None:
    assert holes("{name}: +{delta:+d} {{literal}}") == {"{name}", "{delta:+d}"}
    assert holes("%(prog)s: error: %(message)s\n") == {"%(prog)", "%(message)"}
    assert holes("falta: %s") == {"%"}
    assert holes("100%% seguro") == set()


def test_an_error_is_worded_with_the_names_at_the_table() -> None:
    refused = NotYourTurn(1, 2)
    assert error_text(refused, "es", NAMES) == "No es tu turno: habla Carmen."
    assert error_text(refused, "en", NAMES) == "Not your turn: Carmen is to speak."


def test_a_seat_without_a_name_and_nobody() -> None:
    assert error_text(NotYourTurn(1, 3), "es") == "No es tu turno: habla el asiento 3."
    assert error_text(NotYourTurn(1, None), "es") == "No es tu turno: habla nadie."
    assert error_text(NotYourTurn(1, None), "en") == "Not your turn: nobody is to speak."


def test_a_lance_is_worded_by_its_name() -> None:
    assert error_text(IllegalAction("betting_now", lance=Lance.PARES), "es") == \
        "Ahora se apuesta a Pares."
    assert error_text(IllegalAction("betting_now", lance=Lance.CHICA), "en") == \
        "Betting at Chica now."


def test_the_default_language_is_spanish() -> None:
    refused = MalformedCommand("unknown_word", word="hola")
    assert error_text(refused) == "No entiendo «hola»."
    assert error_text(refused, "en") == "I do not understand «hola»."


@pytest.mark.parametrize(("variants", "code"), [
    ({"reyes": 5}, "rules_reyes"),
    ({"jugadores": 3}, "rules_jugadores"),
    ({"puntos": 0}, "rules_puntos"),
    ({"vacas": 0}, "rules_juegos_vacas"),
    ({"sena_cazada": 1.5}, "rules_sena_cazada"),
])
def test_impossible_rules_are_an_error_with_a_code(variants: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidRules) as refused:
        Rules(**variants)
    assert refused.value.code == code


def test_an_error_given_as_the_reason_of_another_is_worded_in_the_same_language() -> None:
    with pytest.raises(InvalidRules) as refused:
        Rules(reyes=5)  # type: ignore[arg-type]
    refusal = TableError("bad_rules", error=refused.value)
    assert error_text(refusal, "es") == "Esas reglas no valen: reyes debe ser 4 u 8"
    assert error_text(refusal, "en") == "Those rules are not valid: reyes must be 4 or 8"


def test_server_settings_refuse_impossible_rules_in_the_servers_language() -> None:
    from cogs.config import OpenLimits, changed_settings

    for lang, sentence in (("es", "Esas reglas no valen: puntos debe estar entre 1 y 1000"),
                           ("en", "Those rules are not valid: puntos must be between 1 and 1000")):
        with pytest.raises(InvalidSettings) as refused:
            changed_settings(ServerSettings(), {"puntos": 2000}, None, None, None, None, False,
                             OpenLimits())
        assert error_text(refused.value, lang) == sentence


SPANISH_ONLY = frozenset({
    "pareja", "parejas", "asiento", "envido", "quiero", "órdago", "nadie", "juego", "juegos",
    "vaca", "vacas", "empieza", "habla", "señas", "cartas", "descarta", "nueva", "ronda", "con",
    "sin", "para", "los", "las", "del", "por", "tiene", "hay", "mano", "manos", "partidas",
    "querido", "gana", "mejor", "reparten", "enseñan", "dentro",
    # The words typed at a table (issue 46): each language shows its own (``WORDS``).
    "descarto", "todas", "ayuda", "salir", "mesa", "seña", "vuelvo", "repaso",
    # The bracket's words (the picture and its text).
    "cuadro", "cuartos", "semifinales", "octavos", "repesca", "grupo", "grupos", "ganador",
    "perdedor", "clasificación", "amarracos", "amarrakos",
})
"""Words a Basque or French sentence never has (the shared game words, mus, paso, tanto and
the Basque calls, are not in it; nor «partida», Basque too: eu.wikipedia.org, «Mus»)."""


def without_names(text: str) -> str:
    """A text without the program's own names, which stay Spanish in every language: the slash
    commands (/mus mesa), the options (--asiento) and the subcommands (musbot repaso)."""
    return re.sub(r"\{[^}]*\}|/mus \w+|--[\w-]+|musbot \w+( \w+)?", "", text)


def spanish_words(text: str) -> set[str]:
    return {word for word in re.findall(r"\w+", text.lower()) if word in SPANISH_ONLY}


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_a_whole_terminal_match_in_basque_or_french_has_no_spanish_word(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25: ``musbot play --auto --seed 7 --idioma eu|fr``."""
    from musbot.cli import main

    assert main(["play", "--auto", "--seed", "7", "--idioma", lang]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) > 200
    found = {line: spanish_words(line) for line in out.splitlines() if spanish_words(line)}
    assert not found, found


INTERACTIVE = {
    "eu": ["laguntza", "kartak", "mahaia", "mus", "bota 1 2 3", "keinu itsua", "passe",
           "errepasoa", "zerbait", "irten"],
    "fr": ["aide", "cartes", "table", "mus", "jette 1 2 3", "signe aveugle", "passe", "revue",
           "quelque chose", "quitter"],
}
"""Seed 15: the help, the cards, the table, a round of mus, a discard, a seña, a near miss, a
review, chat, then leaving: each answered in the reader's words."""


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_an_interactive_game_in_basque_or_french_has_no_spanish_word(lang: str) -> None:
    """Issue 46: the help and the prompts put the Spanish words first. The help's brackets list
    every other way a move is typed, Spanish among them, and stay as they are."""
    from test_terminal import session

    out = "\n".join(session(INTERACTIVE[lang], ["--seed", "15", "--idioma", lang]))
    lines = [re.sub(r"^  (\S.*?) \(.*\)$", r"\1", line) for line in out.splitlines()]
    found = {line: spanish_words(line) for line in lines if spanish_words(line)}
    assert not found, found
    assert len(lines) > 40 and any(line.startswith(("🔒", "Nola", "Comment")) for line in lines)


def test_the_spanish_word_list_finds_spanish() -> None:
    assert spanish_words("🃏 Nueva mano: es mano Bot 4.") == {"nueva", "mano"}
    assert spanish_words(translate("TABLE.lance_querido", "es", lance="Grande", tantos=2)) \
        == {"querido"}


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_no_sentence_of_the_game_is_left_in_spanish(lang: str) -> None:
    """Every sentence of the table, the DMs, Discord, the server and the command line, in the
    language: none keeps a Spanish-only word (the command names, /mus mesa…, musbot repaso and
    the terminal's --asiento…, are the program's and stay as they are; the replay's sentences
    name the transcript's keys, «mano» among them)."""
    left = {}
    for key, entry in catalog(lang).entries.items():
        if key.split(".")[0] == "REPLAY":
            continue
        words = set().union(*(spanish_words(without_names(form)) for form in forms(entry)))
        if words:
            left[key] = words
    assert not left, left


OPENERS = {"es": "seña", "eu": "keinu", "fr": "signe", "en": "signal"}
"""How a player of each language opens a seña typed."""


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_sena_is_shown_in_its_reader_s_language_and_read_back_typed(lang: str) -> None:
    """Issue 25: a seña's name as its reader says it (§7; docs/glossary.md), and the name shown
    is one the grammar reads back, alone or after that language's word for «seña»."""
    from musbot.engine.senas import Sena
    from musbot.grammar import sena_from_text
    from musbot.table.render import sena_name, sena_text

    for sena in Sena:
        name = sena_name(sena, lang)
        assert sena_from_text(name) is sena, (lang, name)
        assert sena_from_text(f"{OPENERS[lang]} {name}") is sena, (lang, name)
        assert sena_from_text(name.upper().replace(" ", "-")) is sena
        if lang != "es" and name != sena.nombre:
            assert sena.nombre not in sena_text("Ane", sena, caught=False, lang=lang)
    assert sena_name(Sena.DOS_REYES, "eu") == "bi errege"
    assert sena_name(Sena.DOS_REYES, "fr") == "deux rois"
    assert "deux rois" in sena_text("Ane", Sena.DOS_REYES, caught=True, lang="fr")


def test_a_sena_named_in_an_error_is_in_the_reader_s_language() -> None:
    error = IllegalAction("sena_not_shown", sena="dos reyes")
    assert "bi errege" in error_text(error, "eu")
    assert "deux rois" in error_text(error, "fr")
    assert "dos reyes" in error_text(error, "es")
    assert "nada" in error_text(IllegalAction("sena_not_shown", sena="nada"), "fr")


def test_the_hand_lists_the_senas_it_may_show_in_its_reader_s_language() -> None:
    from musbot.engine.cards import parse_card
    from musbot.engine.senas import senas_de_mano
    from musbot.table.render import _senas_line

    cards = tuple(parse_card(c) for c in ("12o", "12c", "3e", "1b"))
    posibles = senas_de_mano(cards, Rules().reyes, Rules().real)
    assert "hiru errege" in _senas_line(posibles, "eu")
    assert "trois rois" in _senas_line(posibles, "fr")
    assert "tres reyes" not in _senas_line(posibles, "eu")


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_every_word_shown_to_type_is_read_back_as_what_it_names(lang: str) -> None:
    """Issue 46: each language shows its own words to type («bota», «kartak», «revue»…),
    and every one of them, and every move as its table says it, is read by the one grammar
    as what it names, at any table."""
    from musbot import grammar as commands
    from musbot.engine.actions import (
        MUS,
        NO_HAY_MUS,
        NO_QUIERO,
        ORDAGO,
        PASO,
        QUIERO,
        descarte,
        envido,
        mas,
    )
    from musbot.engine.cards import parse_card
    from musbot.engine.senas import Sena
    from musbot.table.render import sena_name, shown, typed_word
    from musbot.words import REVIEW_WORDS

    hand = [parse_card(c) for c in ("1o", "12c", "5e", "7b")]

    def word(key: str) -> str:
        return typed_word(key, lang)

    assert commands.parse(f"{word('discard')} 1 3", hand) == descarte(hand[0], hand[2])
    assert commands.parse(f"{word('discard')} {word('all_cards')}", hand) == descarte(*hand)
    for key in ("cards", "status", "help", "quit"):
        assert commands.read(word(key)) == commands.Request(key), key  # type: ignore[arg-type]
    assert commands.read(word("come_back"), public=True) == commands.Request("come_back")
    sena = f"{word('sena')} {sena_name(Sena.DOS_REYES, lang)}"
    assert commands.read(sena) == commands.SendSena(Sena.DOS_REYES)
    assert word("review") in REVIEW_WORDS
    for action in (MUS, NO_HAY_MUS, PASO, QUIERO, NO_QUIERO, ORDAGO, envido(), envido(5), mas(3),
                   descarte(hand[0], hand[1])):
        assert commands.parse(shown(lang).move(action), hand) == action, action


QUOTING_A_DISCARD = ("ERRORS.discard_now", "ERRORS.discard_empty", "TABLE.discard_hint",
                     "TERMINAL.help_discard", "DISCORD.dm_unknown", "DISCORD.help",
                     "REPLAY.not_a_move")
"""Sentences that show how to discard: with the reader's verb."""


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_a_sentence_that_shows_a_discard_shows_the_reader_s_verb(lang: str) -> None:
    """«Zure txanda da: descarto 1 3»: now «bota 1 3», «jette 1 3», «discard 1 3»."""
    verb = catalog(lang).WORDS["discard"]
    for key in QUOTING_A_DISCARD:
        text = str(catalog(lang).entries[key])
        # The hint says the verb and what follows it, with no numbers that read as advice.
        shown = rf"\b{verb}\b" if key == "TABLE.discard_hint" else rf"\b{verb} 1"
        assert re.search(shown, text), (lang, key, text)
        if lang != DEFAULT_LANGUAGE:
            assert "descarto" not in text, (lang, key)


def test_the_wording_a_native_reader_corrected() -> None:
    """Issue 46's corrections, each recorded in docs/glossary.md («Wording reviewed»), rendered
    as a table says them."""
    from musbot.engine import Lance
    from musbot.engine import events as ev
    from musbot.engine.cards import parse_card
    from musbot.table.render import card_name, event_lines, pair_text

    def said(event: ev.Event, lang: str, players: int = 4) -> str:
        return " ".join(event_lines(event, NAMES, players=players, target=40, lang=lang))

    deje = ev.LanceEnded(Lance.GRANDE, "deje", 1, 1)
    assert said(deje, "eu") == "Handia: tira. 2. bikoteak (Bea eta Dani) tanto 1."
    assert said(ev.LanceEnded(Lance.GRANDE, "deje", 1, 3), "eu").endswith("3 tanto.")
    scored = said(ev.Scored(0, 2, Lance.PARES, "base", (2, 0)), "eu")
    assert scored.startswith("Pareak: 1. bikoteak (Ane eta Carmen) +2 (oinarrizko balioa).")
    assert "Bikotea:" not in scored and "edukitzeagatik" not in scored
    assert said(ev.CardsReplaced((1, 1, 1, 1)), "eu").startswith("Karta berriak banatzen dira")
    assert said(ev.CardsReplaced((1, 1, 1, 1)), "fr").startswith("On complète les mains")
    assert translate("TABLE.showdown_winners", "eu", list="…") == "Esku onenak: …."
    assert translate("TABLE.status_bot", "eu") == "(bot-a)"
    assert "bota" not in translate("CLI.run", "eu") and "Gelditu bot-a" in \
        translate("CLI.db_copy_description", "eu")
    assert translate("CLI.real", "eu").endswith("beste edozein 31ri irabazten dio")
    assert error_text(IllegalAction("betting_now", lance=Lance.CHICA), "eu") == \
        "Orain Txikia jokatzen ari gara."
    assert "(irteera-kodea 130)" in translate("CLI.play_epilog", "eu")
    assert pair_text(0, NAMES, 4, "fr", form="pair_bare") == "équipe 1 (Ane et Carmen)"
    assert [card_name(parse_card(c), "fr") for c in ("3e", "12b", "2c", "1o")] == \
        ["trois d'épées", "roi de bâtons", "deux de coupes", "as de monnaie"]
    assert translate("TABLE.pair_heading", "fr", label="Équipe 1") == "Équipe 1 :"
    assert "un adversaire a des pariak : {pares}" in str(catalog("fr").COACH["line_lance"])
    assert translate("TABLE.amarrakos_n", "es", n=2) == "2 amarracos"
