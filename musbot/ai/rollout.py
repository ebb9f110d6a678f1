"""A hand «dificil» plays out: rebuilt on the engine for a world's cards (:class:`_Replay`),
each seat answering by «normal»'s rule (:func:`fast_action`) or, for a player read as playing
otherwise, by the words the reading learnt of them (:func:`styled_action`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from musbot.engine import (
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    Hand,
    Lance,
    Rules,
    SeatView,
    envido,
    mas,
)
from musbot.engine import events as ev

from .normal import bet_action
from .odds import Odds, game_value, odds
from .reading import ANSWER, NO_HINTS, OpponentModel, band, hints, situation

_K = ActionKind
_BETS = (_K.ENVIDO, _K.MAS, _K.ORDAGO)


class _Replay:
    """Rebuilds this hand on the engine for sampled cards and plays it out."""

    def __init__(self, view: SeatView,
                 models: Sequence[OpponentModel | None] = (None,) * 4) -> None:
        self.rules: Rules = view.rules.with_(mus_corrido=False)
        self.models = models
        """Per seat, how it answers in the rollouts: «normal»'s rule (None, and the model's
        share of it) or the model's learnt table."""
        self.styled = any(m is not None and m.normal < 1.0 for m in models)
        self.mano = view.mano
        self.me = view.seat
        self.team = view.team
        self.target = view.target
        assert view.lance is not None
        self.lance = view.lance
        start = view.history[0]
        self.scores = start.scores if isinstance(start, ev.HandStarted) else view.scores
        self.said = [(e.seat, e.action) for e in view.history if isinstance(e, ev.Spoke)]
        self.o = odds(view.rules.reyes)
        self.hints = hints(view)

    def start(self, hands: list[list[int]]) -> Hand:
        """The hand as it stands at the decision, with these cards."""
        h = Hand(self.rules, hands, (), mano=self.mano, scores=self.scores, validate=False)
        h.apply(self.mano, NO_HAY_MUS)
        for seat, action in self.said:
            h.apply(seat, action)
        return h

    def rollout(self, hands: list[list[int]], option: Action, seed: float = 0.0) -> float:
        """The game's value for the bot's pair after ``option`` and the rest of the hand."""
        h = self.start(hands)
        h.apply(self.me, option)
        models = self.models
        whims = random.Random(seed) if self.styled else None
        while h.to_act is not None:
            seat = h.to_act
            model = models[seat]
            if whims is not None and model is not None and whims.random() >= model.normal:
                h.apply(seat, styled_action(h, seat, self.o, model, whims))
            else:
                h.apply(seat, fast_action(h, seat, self.o, self.hints))
        if h.game_winner is not None:
            return 1.0 if h.game_winner == self.team else 0.0
        return game_value(h.scores[self.team], h.scores[1 - self.team], self.target)


def _own_chance(h: Hand, seat: int, o: Odds) -> float:
    """The seat's chance at the lance from its own cards and the declarations."""
    lance = h.lance
    assert lance is not None
    t = h.tables
    idx = h.idx
    mask = None
    if lance is Lance.PARES or lance is Lance.JUEGO:
        has = t.has_pares if lance is Lance.PARES else t.has_juego
        mask = has[idx[(seat + 1) % 4]] | has[idx[(seat + 2) % 4]] << 1 | \
            has[idx[(seat + 3) % 4]] << 2
    return o.lance(lance, idx[seat], (seat - h.mano) % 4, mask)


_STYLED_WORDS = (
    (PASO, PASO, envido(2), ORDAGO),
    (NO_QUIERO, QUIERO, mas(2), ORDAGO),
    (NO_QUIERO, QUIERO, QUIERO, QUIERO),
)
"""A category of :data:`~musbot.ai.reading.CATEGORY` said in each situation."""


def styled_action(h: Hand, seat: int, o: Odds, model: OpponentModel,
                  rng: random.Random) -> Action:
    """A word drawn from the model's learnt table for the seat's strength."""
    sit = situation(h.standing_bet, h.ordago_standing)
    probs = model.table[sit][band(_own_chance(h, seat, o))]
    x = rng.random()
    category = len(probs) - 1
    for k, p in enumerate(probs):
        x -= p
        if x < 0:
            category = k
            break
    if sit == ANSWER and category == 2 and h.standing_bet >= 12:
        category = 1
    return _legal_in(h, seat, _STYLED_WORDS[sit][category])


def _legal_in(h: Hand, seat: int, action: Action) -> Action:
    legal = h.legal_actions(seat)
    kinds = {a.kind for a in legal}
    if action.kind in kinds:
        return action
    if action.kind is _K.MAS or action.kind is _K.ENVIDO or action.kind is _K.ORDAGO:
        return QUIERO if _K.QUIERO in kinds else \
            envido(2) if _K.ENVIDO in kinds else legal[0]
    if action.kind is _K.PASO and _K.NO_QUIERO in kinds:
        return NO_QUIERO
    return legal[0]


def fast_action(h: Hand, seat: int, o: Odds,
                hints: tuple[tuple[float, ...], ...] = NO_HINTS) -> Action:
    """«normal»'s betting rule straight from a simulated hand (no view, no bluffs); the partner's
    seña is the one a bot would have sent with its cards."""
    lance = h.lance
    assert lance is not None
    idx = h.idx
    p = max(_own_chance(h, seat, o), hints[lance][idx[(seat + 2) % 4]])
    team = h.team(seat)
    totals: list[int] = []
    opp = 0
    speakers: tuple[int, ...] = ()
    for event in reversed(h.events):
        if isinstance(event, ev.LanceStarted):
            speakers = event.speakers
            break
        if isinstance(event, ev.Spoke) and event.action.kind in _BETS:
            totals.append(event.total)
            if h.team(event.seat) != team:
                opp += 1
    prev = max(totals[1], 1) if len(totals) >= 2 else 1
    later = speakers[speakers.index(seat) + 1:] if seat in speakers else ()
    last = not any(h.team(x) == team for x in later)
    action = bet_action(lance, p, h.standing_bet, prev, h.ordago_standing, opp,
                        h.scores[team], h.scores[1 - team], h.target, None, last=last)
    return _legal_in(h, seat, action)
