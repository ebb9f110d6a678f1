"""Everything public that happens, in order. The table layer and the replay narrate from these and
never re-derive a rule. Nothing here holds a card that is still private: cards appear only in
:class:`Showdown`, when every hand is shown.

Each event is a :class:`~musbot.engine.record.Record` (see there why not a dataclass).
:func:`ordagos` reads a hand's órdagos out of its events, for the records kept of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action, ActionKind
from .cards import Card
from .evaluation import Lance
from .record import Record


class Event(Record):
    """Base of every event, so ``isinstance(x, Event)`` and ``list[Event]`` say what they mean."""


class HandStarted(Event):
    __match_args__ = ("mano", "scores", "corrido")

    def __init__(self, mano: int, scores: tuple[int, int], corrido: bool) -> None:
        self.mano = mano
        self.scores = scores
        self.corrido = corrido


class MusSaid(Event):
    __match_args__ = ("seat", "mus")

    def __init__(self, seat: int, mus: bool) -> None:
        self.seat = seat
        self.mus = mus
        """False: this seat cut (no hay mus)."""


class ManoChanged(Event):
    """Mus corrido: the first to cut becomes the mano (§2)."""

    __match_args__ = ("mano",)

    def __init__(self, mano: int) -> None:
        self.mano = mano


class Discarded(Event):
    __match_args__ = ("seat", "cards")

    def __init__(self, seat: int, cards: int) -> None:
        self.seat = seat
        self.cards = cards
        """How many cards (which ones stays private)."""


class Reshuffled(Event):
    """The deck ran out; the discards on the table became the new deck (§2)."""

    __match_args__ = ("cards", "set_aside")

    def __init__(self, cards: int, set_aside: int) -> None:
        self.cards = cards
        self.set_aside = set_aside


class CardsReplaced(Event):
    """Every seat got as many cards as it discarded; a new mus round starts."""

    __match_args__ = ("counts",)

    def __init__(self, counts: tuple[int, ...]) -> None:
        self.counts = counts


class LanceStarted(Event):
    __match_args__ = ("lance", "speakers")

    def __init__(self, lance: Lance, speakers: tuple[int, ...]) -> None:
        self.lance = lance
        self.speakers = speakers


class Declared(Event):
    """Every seat's truthful "sí" or "no" before Pares or Juego (§3), by seat."""

    __match_args__ = ("lance", "has")

    def __init__(self, lance: Lance, has: tuple[bool, ...]) -> None:
        self.lance = lance
        self.has = has


class LanceWithoutBetting(Event):
    """Nobody, or only one pair, holds pares/juego: no betting (§3). ``team`` None = nobody."""

    __match_args__ = ("lance", "team")

    def __init__(self, lance: Lance, team: int | None) -> None:
        self.lance = lance
        self.team = team


class Spoke(Event):
    """A betting word: paso, envido, más, órdago, quiero, no quiero. ``total`` is the standing
    bet after it (0 if none, -1 for an órdago)."""

    __match_args__ = ("seat", "action", "total")

    def __init__(self, seat: int, action: Action, total: int) -> None:
        self.seat = seat
        self.action = action
        self.total = total


class LanceEnded(Event):
    __match_args__ = ("lance", "outcome", "team", "tantos")

    def __init__(self, lance: Lance, outcome: str, team: int | None, tantos: int) -> None:
        self.lance = lance
        self.outcome = outcome
        """'paso', 'querido', 'deje', 'ordago'."""
        self.team = team
        """Deje: the team that took it. Otherwise None until the showdown."""
        self.tantos = tantos
        """Accepted bet or the deje's tantos; 0 en paso."""


class Showdown(Event):
    __match_args__ = ("hands", "winners")

    def __init__(self, hands: tuple[tuple[Card, ...], ...], winners: dict[str, int | None]) -> None:
        self.hands = hands
        self.winners = winners


class Scored(Event):
    """One step of the ledger (docs/replay.md): 'deje', 'apuesta', 'paso', 'base', 'punto',
    'ordago'."""

    __match_args__ = ("team", "tantos", "lance", "kind", "scores")

    def __init__(
        self, team: int, tantos: int, lance: Lance, kind: str, scores: tuple[int, int]
    ) -> None:
        self.team = team
        self.tantos = tantos
        self.lance = lance
        self.kind = kind
        self.scores = scores


class GameWon(Event):
    __match_args__ = ("team", "ordago", "games")

    def __init__(self, team: int, ordago: bool, games: tuple[int, int] = (0, 0)) -> None:
        self.team = team
        self.ordago = ordago
        self.games = games
        """Games each pair has won in the vaca, this one included (§6)."""


class HandEnded(Event):
    __match_args__ = ("scores", "game_winner")

    def __init__(self, scores: tuple[int, int], game_winner: int | None) -> None:
        self.scores = scores
        self.game_winner = game_winner


class VacaWon(Event):
    __match_args__ = ("team", "vacas")

    def __init__(self, team: int, vacas: tuple[int, int]) -> None:
        self.team = team
        self.vacas = vacas


class MatchWon(Event):
    __match_args__ = ("team",)

    def __init__(self, team: int) -> None:
        self.team = team


class Ordago(Record):
    """An órdago and how it ended (docs/rules.md §4): who called it, at which lance, who
    accepted it (None: every answerer refused it) and the pair that won it, the best hand's when
    accepted, the caller's when refused."""

    __match_args__ = ("caller", "lance", "accepter", "winner")

    def __init__(self, caller: int, lance: Lance, accepter: int | None, winner: int) -> None:
        self.caller = caller
        self.lance = lance
        self.accepter = accepter
        self.winner = winner

    def to_dict(self) -> dict[str, Any]:
        """The JSON form a hand record carries (:meth:`from_dict` reads it back)."""
        return {"caller": self.caller, "lance": self.lance.nombre, "accepter": self.accepter,
                "winner": self.winner}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ordago:
        accepter = data["accepter"]
        return cls(int(data["caller"]), Lance[str(data["lance"]).upper()],
                   None if accepter is None else int(accepter), int(data["winner"]))


def ordagos(events: Sequence[Event]) -> list[Ordago]:
    """Every órdago settled in these events (a hand's), in order. An órdago stands until the
    lance ends: refused, the lance ends in a deje for the caller's pair; accepted, in the
    showdown's órdago step for the best hand's. One still unanswered is not in the list."""
    found: list[Ordago] = []
    caller: int | None = None
    accepter: int | None = None
    for event in events:
        if isinstance(event, Spoke):
            kind = event.action.kind
            if kind is ActionKind.ORDAGO:
                caller, accepter = event.seat, None
            elif kind is ActionKind.QUIERO and caller is not None:
                accepter = event.seat
        elif caller is None:
            continue
        elif isinstance(event, LanceEnded) and event.outcome == "deje":
            assert event.team is not None
            found.append(Ordago(caller, event.lance, None, event.team))
            caller = None
        elif isinstance(event, Scored) and event.kind == "ordago":
            found.append(Ordago(caller, event.lance, accepter, event.team))
            caller = None
    return found
