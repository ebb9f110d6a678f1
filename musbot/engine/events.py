"""Everything public that happens, in order. The table layer and the replay narrate from these and
never re-derive a rule. Nothing here holds a card that is still private: cards appear only in
:class:`Showdown`, when every hand is shown.

Events are plain dataclasses, treated as immutable by convention: mypyc (see setup.py) builds a
frozen dataclass through ``object.__setattr__``, several times slower, and the engine makes a
dozen of these per hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from .actions import Action
from .cards import Card
from .evaluation import Lance


@dataclass
class HandStarted:
    mano: int
    scores: tuple[int, int]
    corrido: bool


@dataclass
class MusSaid:
    seat: int
    mus: bool
    """False: this seat cut (no hay mus)."""


@dataclass
class ManoChanged:
    """Mus corrido: the first to cut becomes the mano (§2)."""

    mano: int


@dataclass
class Discarded:
    seat: int
    cards: int
    """How many cards (which ones stays private)."""


@dataclass
class Reshuffled:
    """The deck ran out; the discards on the table became the new deck (§2)."""

    cards: int
    set_aside: int


@dataclass
class CardsReplaced:
    """Every seat got as many cards as it discarded; a new mus round starts."""

    counts: tuple[int, ...]


@dataclass
class LanceStarted:
    lance: Lance
    speakers: tuple[int, ...]


@dataclass
class Declared:
    """Every seat's truthful "sí" or "no" before Pares or Juego (§3), by seat."""

    lance: Lance
    has: tuple[bool, ...]


@dataclass
class LanceWithoutBetting:
    """Nobody, or only one pair, holds pares/juego: no betting (§3). ``team`` None = nobody."""

    lance: Lance
    team: int | None


@dataclass
class Spoke:
    """A betting word: paso, envido, más, órdago, quiero, no quiero. ``total`` is the standing
    bet after it (0 if none, -1 for an órdago)."""

    seat: int
    action: Action
    total: int


@dataclass
class LanceEnded:
    lance: Lance
    outcome: str
    """'paso', 'querido', 'deje', 'ordago'."""
    team: int | None
    """Deje: the team that took it. Otherwise None until the showdown."""
    tantos: int
    """Accepted bet or the deje's tantos; 0 en paso."""


@dataclass
class Showdown:
    hands: tuple[tuple[Card, ...], ...]
    winners: dict[str, int | None]


@dataclass
class Scored:
    """One step of the ledger (REPLAY.md): 'deje', 'apuesta', 'paso', 'base', 'punto', 'ordago'."""

    team: int
    tantos: int
    lance: Lance
    kind: str
    scores: tuple[int, int]


@dataclass
class GameWon:
    team: int
    ordago: bool


@dataclass
class HandEnded:
    scores: tuple[int, int]
    game_winner: int | None


@dataclass
class VacaWon:
    team: int
    vacas: tuple[int, int]


@dataclass
class MatchWon:
    team: int


Event: TypeAlias = (
    HandStarted | MusSaid | ManoChanged | Discarded | Reshuffled | CardsReplaced | LanceStarted
    | Declared | LanceWithoutBetting | Spoke | LanceEnded | Showdown | Scored | GameWon
    | HandEnded | VacaWon | MatchWon
)
