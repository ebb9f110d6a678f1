"""What a seat can do: the verbs of docs/rules.md §2 and §4."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

from .cards import Card, card_code
from .record import Record

MIN_ENVITE = 2
"""§4: envido is 2 tantos; every bet or raise is at least 2."""


class ActionKind(enum.Enum):
    MUS = "mus"
    NO_HAY_MUS = "no hay mus"
    DESCARTE = "descarto"
    PASO = "paso"
    ENVIDO = "envido"
    """A bet of ``amount``; while a bet stands it raises by ``amount`` (§4)."""
    MAS = "más"
    """A raise of ``amount`` over the standing bet."""
    ORDAGO = "órdago"
    QUIERO = "quiero"
    NO_QUIERO = "no quiero"


class Action(Record):
    """One action of one seat. ``amount`` is the tantos of an envido or a raise; ``cards`` the
    cards of a discard. A :class:`~musbot.engine.record.Record`: compare and hash it, never
    change it."""

    __match_args__ = ("kind", "amount", "cards")

    def __init__(self, kind: ActionKind, amount: int = 0, cards: tuple[Card, ...] = ()) -> None:
        self.kind = kind
        self.amount = amount
        self.cards = cards

    def text(self) -> str:
        """Canonical words, as typed at a table and stored in a docs/replay.md transcript."""
        k = self.kind
        if k is ActionKind.ENVIDO:
            return "envido" if self.amount == MIN_ENVITE else f"envido {self.amount}"
        if k is ActionKind.MAS:
            return f"{self.amount} más"
        if k is ActionKind.DESCARTE:
            return "descarto " + " ".join(card_code(c) for c in self.cards)
        return k.value

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> list[object]:
        """A compact, language-free form for saved tables."""
        return [self.kind.value, self.amount, list(self.cards)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Action:
        kind, amount, cards = data
        return cls(ActionKind(kind), int(amount), tuple(int(c) for c in cards))


MUS = Action(ActionKind.MUS)
NO_HAY_MUS = Action(ActionKind.NO_HAY_MUS)
PASO = Action(ActionKind.PASO)
ORDAGO = Action(ActionKind.ORDAGO)
QUIERO = Action(ActionKind.QUIERO)
NO_QUIERO = Action(ActionKind.NO_QUIERO)
ENVIDO = Action(ActionKind.ENVIDO, MIN_ENVITE)


def envido(amount: int = MIN_ENVITE) -> Action:
    return Action(ActionKind.ENVIDO, amount)


def mas(amount: int = MIN_ENVITE) -> Action:
    return Action(ActionKind.MAS, amount)


def descarte(*cards: Card) -> Action:
    return Action(ActionKind.DESCARTE, 0, tuple(cards))
