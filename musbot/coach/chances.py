"""What the others could hold: the hidden hands drawn many times from the cards a seat has not
seen, keeping only the draws that agree with what is certain from its seat, each weighed by how
likely the others' words and discards were with it.

Certain are the seat's own cards, the cards it discarded (they lie on the pile, in nobody's hand,
until a reshuffle brings them back), the pares and juego declarations, and the señas that reached
it (§7 forbids a false seña, so the sender's hand shows it). Words are not certain — a bet may be
a bluff — nor is what a discard says: each world is weighed as «dificil» weighs its own
(:meth:`musbot.ai.worlds.Likelihood.weights`, the others read as players nobody has seen): by
every mus, bet, call and refusal said before the decision, a partner's silence, and how many
cards each player threw away last.

Vectorised with numpy: a review draws thousands of worlds per decision in a few milliseconds,
which is what brings the sampled chances within a point or so of an exhaustive count
(``tests/test_coach.py`` counts them exhaustively on 50 hands).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from musbot.ai.reading import DEFAULT_MODEL
from musbot.ai.worlds import Likelihood, WorldWeights
from musbot.engine import DECK, Card, Lance, SeatView, tables
from musbot.engine import events as ev
from musbot.engine.senas import Sena, SenaSeen, shows

WORLDS = 48_000
"""Worlds kept per decision: 8,000 draws of the unseen cards, each seated the six ways it can
be. The largest error against an exhaustive count over 50 hands, the worlds weighed by the words
said, is then about a point (``tests/test_coach.py``)."""
MAX_DRAWS = 30_000
"""Draws tried at most per decision (declarations that nobody else holds juego, or that all do,
keep one draw in twenty or thirty); fewer worlds are kept then, and :attr:`Chances.worlds` says
how many."""
EFFECTIVE = 12_000
"""Worlds are drawn again, at most :data:`REDRAWS` times and up to :data:`MOST_WORLDS`, until the
weighed ones are worth this many equally weighed (:attr:`Chances.effective`): after a bet, few of
the drawn worlds carry most of the weight, and the figures would stray by two points and more."""
REDRAWS = 3
REVIEW_REDRAWS = 2
"""Redraws a whole review may make (its decisions share them): a long hand of bets must still
answer in well under a second (``musbot bench repaso``)."""
MOST_WORLDS = 4 * WORLDS
CHUNK = 2048

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat is sure of at one decision."""

    view: SeatView
    discarded: frozenset[Card] = frozenset()
    """Cards the seat itself threw away earlier in the hand."""
    senas: tuple[SenaSeen, ...] = ()

    def unseen(self) -> list[Card]:
        """Cards that may be in another seat's hand now."""
        reshuffled = any(isinstance(e, ev.Reshuffled) for e in self.view.history)
        gone = set(self.view.cards) | (set() if reshuffled else set(self.discarded))
        return [c for c in DECK if c not in gone]

    def key(self) -> tuple[object, ...]:
        """Everything the drawn worlds depend on (their weights aside): equal keys, equal
        draws."""
        view = self.view
        return (tuple(self.unseen()), view.seat, view.mano,
                tuple(sorted((int(k), v) for k, v in view.declarations.items())),
                tuple(sorted((s.seat, s.sena.value) for s in self.senas)))

    def others(self) -> list[int]:
        return [s for s in range(self.view.players) if s != self.view.seat]

    def likelihood(self, memo: dict[Any, Any] | None = None) -> WorldWeights:
        """How likely a world is, from the words said and the cards thrown away: «dificil»'s
        weights, the others read as players nobody has seen (``memo``: see
        :meth:`~musbot.ai.worlds.Likelihood.weights`)."""
        view = self.view
        likely = Likelihood(view, (DEFAULT_MODEL,) * view.players, self.senas, discards=True)
        return likely.weights(memo)


@dataclass(frozen=True, slots=True)
class Chances:
    """Shares of the sampled worlds, each between 0 and 1."""

    worlds: int
    """Worlds drawn; they may weigh very differently (:attr:`effective`)."""
    pair: dict[Lance, float]
    """The seat's pair wins the lance; Punto only when nobody holds juego, and Juego before the
    juego declarations is the hand's fourth lance: juego, or punto when nobody holds juego."""
    opp_pares: float
    """At least one opponent holds pares."""
    opp_juego: float
    effective: float = 0.0
    """As many equally weighed worlds as the weighed ones are worth (Kish's effective sample
    size): what the figures' precision rests on."""


@cache
def _arrays(reyes: int, real: bool) -> tuple[IntArray, IntArray, IntArray, BoolArray, BoolArray,
                                              IntArray, IntArray]:
    """The engine's tables as numpy arrays: card keys, the sorted hand keys and their indices,
    pares/juego flags, strengths per lance, and the señas each hand shows as a bit mask."""
    t = tables(reyes, real)
    card_key = np.array(t.card_key, dtype=np.int64)
    keys = sorted(t.index_of)
    sorted_keys = np.array(keys, dtype=np.int64)
    index = np.array([t.index_of[k] for k in keys], dtype=np.int64)
    has_p = np.array(t.has_pares, dtype=np.bool_)
    has_j = np.array(t.has_juego, dtype=np.bool_)
    strength = np.array(t.strength, dtype=np.int64)
    shown = np.array([sum(1 << k for k, s in enumerate(Sena) if shows(s, info))
                      for info in t.infos], dtype=np.int64)
    return card_key, sorted_keys, index, has_p, has_j, strength, shown


@cache
def _seatings(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(n)))


def _sena_bits(senas: Iterable[Sena]) -> int:
    members = list(Sena)
    return sum(1 << members.index(s) for s in senas)


def _deal(unseen: IntArray, size: int, k: int, rng: np.random.Generator) -> IntArray:
    """``size`` draws of ``k`` of the ``unseen`` cards: the first ``k`` steps of a Fisher–Yates
    shuffle of each row, a column at a time (a third of the time of shuffling whole rows)."""
    n = len(unseen)
    cards = np.tile(unseen, (size, 1))
    rows = np.arange(size)
    for j in range(k):
        r = rng.integers(j, n, size)
        picked = cards[rows, r]
        cards[rows, r] = cards[:, j]
        cards[:, j] = picked
    return cards[:, :k]


def sample(knowledge: Knowledge, rng: np.random.Generator, worlds: int = WORLDS,
           max_draws: int = MAX_DRAWS) -> IntArray:
    """Hand indices (rows: worlds; columns: seats) of deals agreeing with ``knowledge``, the
    seat's own hand in its column. Empty (0 rows) only if no draw agreed."""
    view = knowledge.view
    rules = view.rules
    card_key, sorted_keys, index, has_p, has_j, _, shown = _arrays(rules.reyes, rules.real)
    t = tables(rules.reyes, rules.real)
    others = knowledge.others()
    n_hidden = 4 * len(others)
    unseen = np.array(knowledge.unseen(), dtype=np.int64)
    decl_p = view.declarations.get(Lance.PARES)
    decl_j = view.declarations.get(Lance.JUEGO)
    must: dict[int, int] = {}
    for seen in knowledge.senas:
        if seen.seat in others:
            must[seen.seat] = must.get(seen.seat, 0) | _sena_bits([seen.sena])
    mine = t.index(view.cards)
    seatings = _seatings(len(others))
    kept: list[IntArray] = []
    count = draws = 0
    while count < worlds and draws < max_draws:
        size = min(max(CHUNK, (worlds - count) // len(seatings)), max_draws - draws)
        draws += size
        dealt = _deal(unseen, size, n_hidden, rng)
        hand_keys = card_key[dealt].reshape(size, len(others), 4).sum(axis=2)
        drawn = index[np.searchsorted(sorted_keys, hand_keys)]
        # fits[:, j, s]: drawn hand j may be seat s's (its declarations, the señas it sent).
        fits = np.ones((size, len(others), len(others)), dtype=np.bool_)
        for col, seat in enumerate(others):
            if decl_p is not None:
                fits[:, :, col] &= has_p[drawn] == decl_p[seat]
            if decl_j is not None:
                fits[:, :, col] &= has_j[drawn] == decl_j[seat]
            if seat in must:
                fits[:, :, col] &= (shown[drawn] & must[seat]) == must[seat]
        # Every way to seat the drawn hands is as likely as the draw itself (the deal is
        # exchangeable): six worlds for one draw's price, and much less variance.
        for seating in seatings:
            ok = np.ones(size, dtype=np.bool_)
            for col, j in enumerate(seating):
                ok &= fits[:, j, col]
            n_ok = int(ok.sum())
            if not n_ok:
                continue
            full = np.empty((n_ok, view.players), dtype=np.int64)
            full[:, view.seat] = mine
            for col, seat in enumerate(others):
                full[:, seat] = drawn[ok, seating[col]]
            kept.append(full)
            count += n_ok
    if not kept:
        return np.empty((0, view.players), dtype=np.int64)
    return np.concatenate(kept)


def winners(idx: IntArray, lance: Lance, view: SeatView) -> IntArray:
    """Per world, the seat holding the best hand at ``lance`` (a tie goes to the seat nearer
    the mano, §1), or -1 where nobody holds pares/juego at those lances."""
    rules = view.rules
    _, _, _, has_p, has_j, strength, _ = _arrays(rules.reyes, rules.real)
    n = view.players
    order = [(view.mano + k) % n for k in range(n)]
    ordered = strength[int(lance)][idx[:, order]]
    best = np.asarray(order, dtype=np.int64)[np.argmax(ordered, axis=1)]
    if lance is Lance.PARES:
        best = np.where(has_p[idx].any(axis=1), best, -1)
    elif lance is Lance.JUEGO:
        best = np.where(has_j[idx].any(axis=1), best, -1)
    return best


class Worlds:
    """One draw of worlds for one seat's certainties, read for any lance, each world weighed by
    what was said (a later decision with the same certainties weighs the same draw anew)."""

    def __init__(self, knowledge: Knowledge, idx: IntArray, weights: FloatArray,
                 redrawn: int = 0) -> None:
        """``idx``: worlds :func:`sample` drew for these certainties; ``weights``: how likely
        each is (see :func:`weighed`); ``redrawn``: draws added to reach them."""
        self.view = knowledge.view
        self.idx = idx
        self.weights = weights
        self.redrawn = redrawn
        rules = self.view.rules
        _, _, _, self.has_p, self.has_j, _, _ = _arrays(rules.reyes, rules.real)
        self.pair_of = np.array([rules.team(s) for s in range(self.view.players)] + [-1],
                                dtype=np.int64)
        self.opponents = list(rules.opponents(self.view.seat))

    def mean(self, hits: npt.ArrayLike) -> float:
        """The weighed share of the worlds where ``hits``: exactly 1 or 0 when all or none."""
        total = float(self.weights.sum())
        return float(self.weights[np.asarray(hits, dtype=np.bool_)].sum()) / total \
            if total > 0 else 0.0

    def pair(self, lance: Lance) -> float:
        view, idx = self.view, self.idx
        best = winners(idx, lance, view)
        if lance is Lance.JUEGO and Lance.JUEGO not in view.declarations:
            best = np.where(best >= 0, best, winners(idx, Lance.PUNTO, view))
        elif lance is Lance.PUNTO:
            best = np.where(self.has_j[idx].any(axis=1), -1, best)
        return self.mean(self.pair_of[best] == view.team)

    def chances(self, lances: Sequence[Lance]) -> Chances:
        """The seat's pair's chance at each of ``lances``, and the opponents' pares/juego."""
        idx, w = self.idx, self.weights
        total = float(w.sum())
        if not len(idx) or total <= 0:
            return Chances(0, dict.fromkeys(lances, 0.0), 0.0, 0.0)
        opp = idx[:, self.opponents]
        return Chances(len(idx), {lance: self.pair(lance) for lance in lances},
                       self.mean(self.has_p[opp].any(axis=1)),
                       self.mean(self.has_j[opp].any(axis=1)),
                       effective(w))


def effective(weights: FloatArray) -> float:
    """Kish's effective sample size of weighed worlds."""
    square = float(np.square(weights).sum())  # not a dot product: BLAS threads, on a busy machine
    return float(weights.sum()) ** 2 / square if square > 0 else 0.0


def weighed(knowledge: Knowledge, rng: np.random.Generator, drawn: IntArray | None = None,
            worlds: int = WORLDS, memo: dict[Any, Any] | None = None,
            redraws: int = REDRAWS) -> Worlds:
    """The worlds for one decision: ``drawn`` (an earlier decision's draw with the same
    certainties) or a new draw, weighed by what was said before it, and drawn again until they
    are worth :data:`EFFECTIVE` worlds (at most :data:`MOST_WORLDS`, scaled to ``worlds``)."""
    likely = knowledge.likelihood(memo)
    idx = sample(knowledge, rng, worlds) if drawn is None else drawn
    w = np.asarray(likely.of(idx), dtype=np.float64)
    most = MOST_WORLDS * worlds // WORLDS
    target = EFFECTIVE * worlds // WORLDS
    redrawn = 0
    for _ in range(redraws):
        if not len(idx) or effective(w) >= target or len(idx) >= most:
            break
        redrawn += 1
        more = sample(knowledge, rng, worlds)
        if not len(more):
            break
        idx = np.concatenate([idx, more])
        w = np.concatenate([w, np.asarray(likely.of(more), dtype=np.float64)])
    return Worlds(knowledge, idx, w, redrawn)


def chances(knowledge: Knowledge, rng: np.random.Generator, lances: Sequence[Lance],
            worlds: int = WORLDS) -> Chances:
    """The seat's pair's chance at each of ``lances``, and the opponents' pares and juego."""
    return weighed(knowledge, rng, None, worlds).chances(lances)


def generator(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


__all__ = ["EFFECTIVE", "MAX_DRAWS", "REDRAWS", "REVIEW_REDRAWS", "WORLDS", "Chances",
           "Knowledge", "Worlds", "chances", "effective", "generator", "sample", "weighed",
           "winners"]
