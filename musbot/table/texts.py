"""What a table says of itself: each person's private text, worded from one seat's view only,
and the public status.

A hand reaches only its owner: :func:`private_text` reads the view of the seat that will read
it (the engine's observer) and the señas that :class:`~musbot.engine.senas.SenaLog` says that
seat saw; :func:`status_text` reads the public view (``match.view(-1)``), which holds no card.
Pure: the runner sends what these return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from musbot.engine import SeatView
from musbot.engine.senas import Sena
from musbot.i18n import TABLE

from . import render, status

if TYPE_CHECKING:
    from .state import TableState


def private_text(state: TableState, seat: int, lang: str | None = None) -> str:
    """«Ver mis cartas»: the seat's cards, the señas it may show and has received, its moves
    when it is its turn; in ``lang`` (the table's by default)."""
    match = state.match
    assert match is not None
    view: SeatView = match.view(seat)
    names = state.names()
    received = [(names.get(seen.seat, "?"), seen.sena, not seen.partner)
                for seen in state.senas.seen_by(seat)]
    return render.hand_text(view, names, received=received, senas_allowed=state.senas_open(),
                            lang=lang or state.lang)


def sena_text(state: TableState, sender: int, sena: Sena, *, caught: bool,
              lang: str | None = None) -> str:
    """A seña as its receiver reads it: the gesture and its name."""
    return render.sena_text(state.names().get(sender, "?"), sena, caught=caught,
                            lang=lang or state.lang)


def seat_notes(state: TableState) -> dict[int, str]:
    """«(bot)», «(ausente)» beside the seats' names."""
    notes = {}
    for seat, occupant in enumerate(state.seats):
        if occupant is not None and not occupant.human:
            notes[seat] = TABLE("status_bot", state.lang)
        elif occupant is not None and occupant.away:
            notes[seat] = TABLE("status_away", state.lang)
    return notes


def status_text(state: TableState) -> str:
    """The public table status (seats, pairs, score, lance, bet, turn)."""
    match = state.match
    view = match.view(-1) if match is not None else None
    return status.status_text(view, state.names(), seat_notes(state), state.rules, state.lang)


__all__ = ["private_text", "seat_notes", "sena_text", "status_text"]
