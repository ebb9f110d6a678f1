"""Two kinds of wrong, as in python-chess: words that are not a command, and a command the rules
do not allow now. Both carry a code and parameters so any language can word them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class MusError(ValueError):
    """Base of every error the engine and the grammar raise on purpose."""

    code: str = "error"

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message())

    def message(self, lang: str = "es", names: Mapping[int, str] | None = None) -> str:
        from musbot.i18n import error_text

        return error_text(self.code, self.params, lang=lang, names=names)


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
