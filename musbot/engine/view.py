"""What one seat may know, and nothing more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action
from .cards import Card
from .evaluation import Lance

if TYPE_CHECKING:
    from .events import Event
    from .rules import Rules


class SeatView(NamedTuple):
    """Built by the engine for one seat: own cards, public history, and every hand only after the
    showdown. The DMs, the terminal and the AI read this, never the engine's full state.

    Read-only as a tuple is. A frozen dataclass would be too, but it sets each field through
    ``object.__setattr__``, and a view is built at every move (the table, the DMs, the bots'
    simulations). ``discards`` holds, per completed mus round, how many cards each seat
    discarded."""

    seat: int
    players: int
    rules: Rules
    mano: int
    phase: str
    lance: Lance | None
    to_act: int | None
    cards: tuple[Card, ...]
    scores: tuple[int, int]
    target: int
    discards: tuple[tuple[int, ...], ...]
    declarations: Mapping[Lance, tuple[bool, ...]]
    bet: int
    ordago: bool
    bettor: int | None
    eliminated: tuple[int, ...]
    speakers: tuple[int, ...]
    legal: tuple[Action, ...]
    history: tuple[Event, ...]
    revealed: tuple[tuple[Card, ...], ...] | None
    corrido: bool
    games: tuple[int, int]
    vacas: tuple[int, int]
    hand_number: int
    match_winner: int | None

    @property
    def team(self) -> int:
        return self.rules.team(self.seat)

    @property
    def partners(self) -> tuple[int, ...]:
        return self.rules.partners(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def to_dict(self) -> dict[str, Any]:
        from .cards import codes

        return {
            "seat": self.seat,
            "mano": self.mano,
            "phase": self.phase,
            "lance": self.lance.nombre if self.lance is not None else None,
            "to_act": self.to_act,
            "cards": codes(self.cards),
            "scores": list(self.scores),
            "bet": self.bet,
            "ordago": self.ordago,
            "revealed": [codes(h) for h in self.revealed] if self.revealed else None,
        }
