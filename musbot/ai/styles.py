"""Opponent styles for ``musbot bench ai``: players who are not «normal», written as plain rules.

A Discord table has cautious players, bluffers and players who hardly ever bet; «dificil» must
beat them as well as it beats our own «normal». Each style here is a few fixed thresholds on the
seat's *strength* at the lance — the pair's chance from the shipped odds tables, the declarations
and the partner's señas, as «normal» reads it (:meth:`~musbot.ai.normal.NormalBot.chance`) —
plus, for the bluffer, fixed chances of betting regardless. They ignore the score and what the
others said: that is what makes them styles. Mus, discards and señas are «normal»'s, so the
styles differ where people differ most, in the betting.

They are benchmark opponents, not table levels (:func:`musbot.ai.arena.bench_levels`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from musbot.engine import (
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    SeatView,
    envido,
    mas,
)
from musbot.engine.senas import Sena

from .base import SenaSeen
from .normal import NormalBot

_K = ActionKind


@dataclass(frozen=True, slots=True)
class Style:
    """A betting style: strengths from which a player bets, and how often it bets without them."""

    open: float
    """Opens the lance with an envido from this strength…"""
    bluff: float
    """…or, below it, with this chance."""
    call: float
    """Answers a bet with «quiero» from this strength (below: «no quiero»)…"""
    raise_: float
    """…and raises it (2 más) from this one…"""
    raise_bluff: float
    """…or, below ``call``, with this chance."""
    ordago: float
    """Throws the órdago, opening or answering, from this strength…"""
    ordago_bluff: float
    """…or, below it, with this chance."""
    accept: float
    """Accepts an órdago from this strength."""


PRUDENTE = Style(open=0.7, bluff=0.0, call=0.6, raise_=0.85, raise_bluff=0.0, ordago=0.95,
                 ordago_bluff=0.0, accept=0.85)
"""Cautious: bets and goes to órdago only with the goods, accepts one only with the goods, never
bluffs."""
FAROLERO = Style(open=0.5, bluff=0.35, call=0.4, raise_=0.7, raise_bluff=0.15, ordago=0.85,
                 ordago_bluff=0.06, accept=0.6)
"""Aggressive: bets a fair hand and a third of the bad ones, raises, throws órdagos as bluffs,
calls lightly."""
PASIVO = Style(open=0.88, bluff=0.0, call=0.75, raise_=0.95, raise_bluff=0.0, ordago=0.99,
               ordago_bluff=0.0, accept=0.9)
"""Passive: rarely bets, answers most bets with «no quiero»."""


RAISE_CAP = 12
"""No style raises a bet standing at this many tantos or more: it calls or refuses."""


class StyleBot:
    """A player of one :class:`Style`. Stateless: one instance may play any seat."""

    def __init__(self, level: str, style: Style) -> None:
        self.level = level
        self.style = style
        self.normal = NormalBot()

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        if not view.legal:
            raise ValueError("decide() called when the seat has nothing to do")
        if view.phase != "lance" or view.lance is None:
            return self.normal.decide(view, rng, senas)
        s = self.normal.chance(view, view.lance, senas)
        return _legal(view, self._bet(view, s, rng))

    def _bet(self, view: SeatView, s: float, rng: random.Random) -> Action:
        st = self.style
        if view.ordago:
            return QUIERO if s >= st.accept else NO_QUIERO
        if s >= st.ordago or rng.random() < st.ordago_bluff:
            return ORDAGO
        if view.bet == 0:
            return envido(2) if s >= st.open or rng.random() < st.bluff else PASO
        if view.bet >= RAISE_CAP:
            return QUIERO if s >= st.call else NO_QUIERO
        if s >= st.raise_:
            return mas(2)
        if s >= st.call:
            return QUIERO
        return mas(2) if rng.random() < st.raise_bluff else NO_QUIERO

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        return self.normal.choose_senas(view, rng)


def _legal(view: SeatView, action: Action) -> Action:
    """The style's word if the engine takes it now, else the nearest one (a raise where none is
    allowed is a call; an órdago where none is allowed is the bet or call it stands for)."""
    kinds = {a.kind for a in view.legal}
    if action.kind in kinds:
        return action
    if action.kind in (_K.MAS, _K.ORDAGO, _K.ENVIDO):
        if _K.QUIERO in kinds:
            return QUIERO
        if _K.ENVIDO in kinds:
            return envido(2)
    if _K.NO_QUIERO in kinds:
        return NO_QUIERO
    if _K.PASO in kinds:
        return PASO
    return view.legal[0]


def prudente() -> StyleBot:
    return StyleBot("prudente", PRUDENTE)


def farolero() -> StyleBot:
    return StyleBot("farolero", FAROLERO)


def pasivo() -> StyleBot:
    return StyleBot("pasivo", PASIVO)


STYLES = {"prudente": prudente, "farolero": farolero, "pasivo": pasivo}
"""The benchmark's opponent styles by name."""
