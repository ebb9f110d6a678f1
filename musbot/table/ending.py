"""A hand's end on its page: the hand in a few lines (``summary.py``) and the showdown seen from
above (``musbot.pictures.table``'s input), made once, when the hand ends, from its public events
and the names it was played with, so the page keeps them whoever sits there later."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from musbot.engine import events as ev
from musbot.pictures.table import TableSnapshot, lance_results

from .summary import hand_summary

if TYPE_CHECKING:
    from .state import TableState

_AFTER = (ev.VacaWon, ev.MatchWon)
"""What a hand's last move may win besides the hand: kept by the match only, not the hand."""


def hand_ended(state: TableState, hand: Any, number: int, events: Sequence[ev.Event]) -> None:
    """Hand ``number`` (``hand``, the engine's) has ended with ``events``: its page gets its
    summary and its showdown picture's input."""
    page = next((p for p in (state.pages.page, state.pages.previous)
                 if p is not None and p.hand_number == number), None)
    if page is None:
        return
    played = [*hand.events, *(e for e in events if isinstance(e, _AFTER))]
    names = state.names()
    rules = state.rules
    page.summary = tuple(hand_summary(played, names, players=state.players,
                                      target=rules.puntos, reyes=rules.reyes,
                                      lang=state.lang))
    page.picture = showdown(played, names, players=state.players, target=rules.puntos,
                            reyes=rules.reyes, lang=state.lang)
    page.pictured = page.picture is not None
    if page.final:  # the next hand was dealt in the same move: the page was turned already
        page.pack()


def showdown(events: Sequence[ev.Event], names: dict[int, str], *, players: int, target: int,
             reyes: int, lang: str) -> TableSnapshot | None:
    """The input of the showdown's picture: None for a hand that showed no card (everything
    «no quiero», an órdago refused)."""
    shown = next((e for e in events if isinstance(e, ev.Showdown)), None)
    started = next((e for e in events if isinstance(e, ev.HandStarted)), None)
    ended = next((e for e in events if isinstance(e, ev.HandEnded)), None)
    if shown is None or started is None:
        return None
    scores = ended.scores if ended is not None else started.scores
    return TableSnapshot(names=tuple(names.get(seat, str(seat + 1)) for seat in range(players)),
                         mano=started.mano, hands=tuple(tuple(h) for h in shown.hands),
                         lances=lance_results(events), scores=(scores[0], scores[1]),
                         target=target, reyes=reyes, lang=lang)


__all__ = ["hand_ended", "showdown"]
