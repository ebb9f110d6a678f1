"""Two kinds of wrong, as in python-chess: words that are not a command, and a command the rules
do not allow now. Both carry a code and parameters, never text: the adapters word them in the
table's language (:func:`musbot.i18n.error_text`), so the engine makes no language decision."""

from __future__ import annotations

from typing import Any


class MusError(ValueError):
    """Base of every error the engine and the grammar raise on purpose: a key of the ``ERRORS``
    catalogs and the values its sentence names."""

    code: str = "error"

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        """``code(name=value, …)``: for logs and tracebacks, the same in every language."""
        args = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.code}({args})"


class MalformedCommand(MusError):
    """Looked like a command but could not be understood (``envido 1``, ``descarto 9``)."""


class IllegalAction(MusError):
    """Understood, but the rules do not allow it now."""


class NotYourTurn(IllegalAction):
    def __init__(self, seat: int, to_act: int | None) -> None:
        super().__init__("not_your_turn", seat=seat, to_act=to_act)
        self.seat = seat
        self.to_act = to_act


class InvalidDeal(MusError):
    """Cards that cannot come from one Spanish deck (a transcript's hands or deck)."""


class InvalidRules(MusError):
    """Settings no table can be played with (5 reyes, 3 jugadores, …)."""
