"""The i18n layer: how an error becomes a sentence, and the catalogues every language must fill."""

from __future__ import annotations

from musbot.engine import IllegalAction, Lance, MalformedCommand, NotYourTurn
from musbot.i18n import error_text

NAMES = {0: "Ane", 1: "Bea", 2: "Carmen", 3: "Dani"}


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
