"""What each person at a table is told privately, worded from one seat's view only.

A hand reaches only its owner: :func:`private_text` reads the view of the seat that will read
it (the engine's observer) and the señas that :class:`~musbot.engine.senas.SenaLog` says that
seat saw. Pure: the runner sends what these return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from musbot.engine import SeatView
from musbot.engine.senas import Sena

from . import render

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


__all__ = ["private_text", "sena_text"]
