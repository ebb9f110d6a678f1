"""The worlds «dificil» deals, weighed: how likely the others' words in this hand were for the
cards a world gives them, under the table's reading of each player (:mod:`musbot.ai.reading`).

:class:`Likelihood` weighs one world at a time for :class:`~musbot.ai.dificil.DificilBot`, and
every world at once (:class:`WorldWeights`) for the coach's thousands of deals
(:mod:`musbot.coach.chances`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from musbot.engine import SeatView, tables
from musbot.engine.senas import Sena, shows

from .base import SenaSeen
from .reading import (
    NO_HINTS,
    Judge,
    OpponentModel,
    Word,
    band,
    discard_fit,
    discarded,
    situation,
    spoken,
)

SILENT_PARTNER = 0.5
"""Weight of a world where the partner holds a seña but sent none (bots usually send one)."""


@cache
def senas_by_index(reyes: int, real: bool) -> tuple[frozenset[Sena], ...]:
    """Per hand index, the señas its cards show."""
    t = tables(reyes, real)
    return tuple(frozenset(s for s in Sena if (s is not Sena.REAL or real) and shows(s, info))
                 for info in t.infos)


class Likelihood:
    """How likely the others' words in this hand were, for given cards, under their models.

    A word's likelihood depends only on its speaker's hand and, through the seña a bot would
    have sent, the partner's: so it is kept per word for each such pair met. Each seat's own
    share (its words without the partner's seña, :meth:`alone`) also steers which hands are
    drawn for it (:meth:`~musbot.ai.dificil.DificilBot.sample`): a player who went to órdago
    is dealt the hands it would go to órdago with, not left to the luck of the draw. A partner
    who holds a seña but sent none is less likely (:data:`SILENT_PARTNER`), and with
    ``discards`` so is a hand that does not fit the count its holder threw away
    (:func:`~musbot.ai.reading.discard_fit`).

    :meth:`likelihood` weighs one world; :meth:`weights` gives the same weights as arrays over
    every hand (and pair of opponents' hands), for the coach's thousands of worlds."""

    def __init__(self, view: SeatView, models: Sequence[OpponentModel],
                 senas: Sequence[SenaSeen] = (), *, discards: bool = False) -> None:
        self.judge = Judge(view)
        self.view = view
        words, mus_round, rounds = spoken(view)
        me = view.seat
        rules = view.rules
        self.partner = (me + 2) % view.players
        self.silent = rules.senas and not view.corrido and not any(s.partner for s in senas)
        """The partner sent no seña: a world where it holds one is less likely."""
        self.shows = senas_by_index(rules.reyes, rules.real)
        self.fits: dict[int, tuple[float, ...]] = {} if not discards else {
            s: discard_fit(rules.reyes, (s - view.mano) % view.players, count)
            for s, count in discarded(view).items() if s != me and 1 <= count <= 4}
        """Per seat, how well each hand fits the count it threw away last."""
        self.words: list[tuple[Word, int, OpponentModel, int, dict[int, float]]] = [
            (w, situation(w.bet, w.ordago), models[w.seat], (w.seat + 2) % 4, {})
            for w in words if w.seat != me]
        self.mus_round: list[tuple[int, bool, float, dict[int, bool]]] = [
            (s, m, models[s].mus_odd, {}) for s, m in mus_round if s != me]
        self.rounds = rounds
        self.hinted = self.judge.hints is not NO_HINTS
        """Whether the partner's hand matters (señas are played)."""
        self._alone: list[dict[int, float]] = [{} for _ in range(view.players)]

    def likelihood(self, idx: list[int]) -> float:
        judge = self.judge
        w = 1.0
        if self.silent and self.shows[idx[self.partner]] - {Sena.CIEGO}:
            w *= SILENT_PARTNER
        for s, fit in self.fits.items():
            w *= fit[idx[s]]
        for s, said_mus, odd, seen in self.mus_round:
            key = idx[s]
            odd_word = seen.get(key)
            if odd_word is None:
                odd_word = seen[key] = judge.wants_mus(idx, s, self.rounds) != said_mus
            if odd_word:
                w *= odd
        hinted = self.hinted
        for word, sit, model, mate, memo in self.words:
            key = idx[word.seat] * 1024 + (idx[mate] if hinted else 0)
            chance = memo.get(key)
            if chance is None:
                strength = judge.strength(idx, word)
                chance = memo[key] = model.chance(sit, strength, word.said,
                                                  judge.expected(idx, word, strength))
            w *= chance
        return w

    def alone(self, seat: int, i: int) -> float:
        """The likelihood of the seat's betting words with hand ``i``, its partner's seña
        aside."""
        memo = self._alone[seat]
        found = memo.get(i)
        if found is not None:
            return found
        judge = self.judge
        idx = [i] * 4
        w = 1.0
        for word, sit, model, _, _ in self.words:
            if word.seat == seat:
                strength = judge.strength(idx, word)
                w *= model.chance(sit, strength, word.said,
                                  judge.expected(idx, word, strength, hinted=False))
        memo[i] = w
        return w

    def weights(self, memo: dict[Any, Any] | None = None) -> WorldWeights:
        """:meth:`likelihood` as arrays: per seat a factor for each hand it may hold, and for
        the two opponents (whose words read each other's señas) one for each pair of hands.
        ``memo``: shared by the decisions of one hand, which weigh the same words again."""
        import numpy as np

        view, judge = self.view, self.judge
        memo = {} if memo is None else memo
        t = tables(view.rules.reyes, view.rules.real)
        n_hands = len(t.infos)
        me = view.seat
        mine = t.index(view.cards)
        others = [s for s in range(view.players) if s != me]
        seat = {s: np.ones(n_hands) for s in others}
        a, b = (s for s in others if s != self.partner)
        pair: Any = None
        if self.silent:
            seat[self.partner] *= np.array(
                [SILENT_PARTNER if shown - {Sena.CIEGO} else 1.0 for shown in self.shows])
        for s, fit in self.fits.items():
            seat[s] *= np.array(fit)
        for s, said_mus, odd, _ in self.mus_round:
            seat[s] *= np.array([odd if judge.wants_mus([i] * 4, s, self.rounds) != said_mus
                                 else 1.0 for i in range(n_hands)])
        context = (view.mano, view.target, self.hinted, mine)
        for word, sit, model, mate, _ in self.words:
            key = (word, model, mate == me, context, view.declarations.get(word.lance))
            found = memo.get(key)
            if found is None:
                found = memo[key] = self._word_table(word, sit, model, mate == me, mine)
            by_hint, of_mate = found
            if of_mate is None:
                seat[word.seat] *= by_hint
            else:
                matrix = by_hint[:, of_mate]  # [speaker's hand, mate's hand]
                pair = (matrix if word.seat == a else matrix.T) * \
                    (1.0 if pair is None else pair)
        return WorldWeights(seat, (a, b), pair)

    def _word_table(self, word: Word, sit: int, model: OpponentModel, mate_is_me: bool,
                    mine: int) -> tuple[Any, Any]:
        """How likely the word was for each hand of its speaker: a factor per hand, or per hand
        and hint of the mate's seña with each mate's hand's hint (the mate's hand matters only
        through the seña a bot would send with it)."""
        import numpy as np

        judge = self.judge
        n_hands = len(self.shows)
        strength = np.array([judge.strength([i] * 4, word) for i in range(n_hands)])
        bands = np.array([band(x) for x in strength])
        said: dict[float, int] = {}
        chance: dict[tuple[int, int], float] = {}

        def likely(hint: float) -> Any:
            """Per speaker's hand, the word's chance with the mate's seña giving ``hint``."""
            out = np.empty(n_hands)
            for i in range(n_hands):
                p = max(float(strength[i]), hint)
                expected = said.get(p)
                if expected is None:
                    expected = said[p] = judge.expected_at(word, p)
                key = (int(bands[i]), expected)
                found = chance.get(key)
                if found is None:
                    found = chance[key] = model.chance(sit, float(strength[i]), word.said,
                                                       expected)
                out[i] = found
            return out

        if not self.hinted or mate_is_me:
            return likely(judge.hints[word.lance][mine] if self.hinted else 0.0), None
        hints = judge.hints[word.lance]
        column: dict[float, int] = {}
        of_mate = np.array([column.setdefault(hints[j], len(column)) for j in range(n_hands)])
        by_hint = np.empty((n_hands, len(column)))
        for v, k in column.items():
            by_hint[:, k] = likely(v)
        return by_hint, of_mate


@dataclass(frozen=True, slots=True)
class WorldWeights:
    """:meth:`Likelihood.weights`: a world's weight is the product of its seats' factors."""

    seat: dict[int, Any]
    """Per other seat, a factor for each hand index."""
    opponents: tuple[int, int]
    pair: Any
    """``[hand of opponents[0], hand of opponents[1]]``, or None when it is all ones."""

    def of(self, idx: Any) -> Any:
        """The weight of each world (rows of hand indices by seat)."""
        import numpy as np

        w = np.ones(len(idx))
        for s, factor in self.seat.items():
            w *= factor[idx[:, s]]
        if self.pair is not None:
            a, b = self.opponents
            w *= self.pair[idx[:, a], idx[:, b]]
        return w
