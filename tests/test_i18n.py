"""The i18n layer: how an error becomes a sentence, and the catalogues every language must fill."""

from __future__ import annotations

import re
import string
from types import ModuleType
from typing import Any

import pytest

from musbot.engine import IllegalAction, InvalidRules, Lance, MalformedCommand, NotYourTurn, Rules
from musbot.i18n import DEFAULT_LANGUAGE, LANGUAGES, error_text
from musbot.settings import InvalidSettings
from musbot.storage import ServerSettings
from musbot.table import TableError

NAMES = {0: "Ane", 1: "Bea", 2: "Carmen", 3: "Dani"}

_PERCENT = re.compile(r"%(?:\((\w+)\))?[-+ #0]*\d*(?:\.\d+)?[sdrf%]")


def catalogues(module: ModuleType) -> dict[str, Any]:
    """Every catalogue of a language module: its upper-case names (``ERRORS``, ``TABLE``,
    ``LANCES``, ``SEAT``, …)."""
    return {name: value for name, value in vars(module).items() if name.isupper()}


def holes(text: str) -> set[str]:
    """The holes a sentence leaves for values: ``{name}`` and ``{name:spec}`` for
    ``str.format``, ``%(name)s`` and ``%s`` for argparse's own sentences."""
    found = {f"{{{name}:{spec}}}" if spec else f"{{{name}}}"
             for _, name, spec, _ in string.Formatter().parse(text) if name is not None}
    found |= {f"%({hole.group(1)})" if hole.group(1) else "%"
              for hole in _PERCENT.finditer(text) if hole.group() != "%%"}
    return found


def entries(value: Any) -> dict[Any, Any]:
    """A catalogue as key → sentence: a dict as it is, a tuple by position, a text alone."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, tuple):
        return dict(enumerate(value))
    return {None: value}


OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_language_has_every_catalogue_and_key_with_the_same_holes(lang: str) -> None:
    """A key missing in one language fell back to Spanish without a word (or, the other way, was
    never said): both ways, every catalogue, every key, and the same values asked for."""
    spanish, other = catalogues(LANGUAGES[DEFAULT_LANGUAGE]), catalogues(LANGUAGES[lang])
    assert sorted(spanish) == sorted(other)
    problems = []
    for name in sorted(spanish):
        es_entries, other_entries = entries(spanish[name]), entries(other[name])
        for key in es_entries.keys() - other_entries.keys():
            problems.append(f"{lang}.{name}[{key!r}] is missing")
        for key in other_entries.keys() - es_entries.keys():
            problems.append(f"es.{name}[{key!r}] is missing")
        for key in es_entries.keys() & other_entries.keys():
            es_text, other_text = es_entries[key], other_entries[key]
            if type(es_text) is not type(other_text):
                problems.append(f"{name}[{key!r}]: {type(es_text)} in es, {type(other_text)}")
            elif isinstance(es_text, str) and holes(es_text) != holes(other_text):
                problems.append(f"{name}[{key!r}]: holes {sorted(holes(es_text))} in es, "
                                f"{sorted(holes(other_text))} in {lang}")
    assert not problems, "\n".join(problems)


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
    from cogs.config import Limits, changed_settings

    for lang, sentence in (("es", "Esas reglas no valen: puntos debe estar entre 1 y 1000"),
                           ("en", "Those rules are not valid: puntos must be between 1 and 1000")):
        with pytest.raises(InvalidSettings) as refused:
            changed_settings(ServerSettings(), {"puntos": 2000}, None, None, None, None, False,
                             Limits())
        assert error_text(refused.value, lang) == sentence
