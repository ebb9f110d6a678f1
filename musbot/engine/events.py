"""Everything public that happens, in order. The table layer and the replay narrate from these and
never re-derive a rule. Nothing here holds a card that is still private: cards appear only in
:class:`Showdown`, when every hand is shown."""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from .actions import Action
from .cards import Card
from .evaluation import Lance


class HandStarted(NamedTuple):
    mano: int
    scores: tuple[int, int]
    corrido: bool


class MusSaid(NamedTuple):
    seat: int
    mus: bool
    """False: this seat cut (no hay mus)."""


class ManoChanged(NamedTuple):
    """Mus corrido: the first to cut becomes the mano (§2)."""

    mano: int


class Discarded(NamedTuple):
    seat: int
    count: int


class Reshuffled(NamedTuple):
    """The deck ran out; the discards on the table became the new deck (§2)."""

    cards: int
    set_aside: int


class CardsReplaced(NamedTuple):
    """Every seat got as many cards as it discarded; a new mus round starts."""

    counts: tuple[int, ...]


class LanceStarted(NamedTuple):
    lance: Lance
    speakers: tuple[int, ...]


class Declared(NamedTuple):
    lance: Lance
    seat: int
    has: bool


class LanceWithoutBetting(NamedTuple):
    """Nobody, or only one pair, holds pares/juego: no betting (§3). ``team`` None = nobody."""

    lance: Lance
    team: int | None


class Spoke(NamedTuple):
    """A betting word: paso, envido, más, órdago, quiero, no quiero. ``total`` is the standing
    bet after it (0 if none, -1 for an órdago)."""

    seat: int
    action: Action
    total: int


class LanceEnded(NamedTuple):
    lance: Lance
    outcome: str
    """'paso', 'querido', 'deje', 'ordago'."""
    team: int | None
    """Deje: the team that took it. Otherwise None until the showdown."""
    tantos: int
    """Accepted bet or the deje's tantos; 0 en paso."""


class Showdown(NamedTuple):
    hands: tuple[tuple[Card, ...], ...]
    winners: dict[str, int | None]


class Scored(NamedTuple):
    """One step of the ledger (REPLAY.md): 'deje', 'apuesta', 'paso', 'base', 'punto', 'ordago'."""

    team: int
    tantos: int
    lance: Lance
    kind: str
    scores: tuple[int, int]


class GameWon(NamedTuple):
    team: int
    ordago: bool


class HandEnded(NamedTuple):
    scores: tuple[int, int]
    game_winner: int | None


class VacaWon(NamedTuple):
    team: int
    vacas: tuple[int, int]


class MatchWon(NamedTuple):
    team: int


Event: TypeAlias = (
    HandStarted | MusSaid | ManoChanged | Discarded | Reshuffled | CardsReplaced | LanceStarted
    | Declared | LanceWithoutBetting | Spoke | LanceEnded | Showdown | Scored | GameWon
    | HandEnded | VacaWon | MatchWon
)
