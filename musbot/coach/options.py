"""What each word was worth at a betting decision, by «dificil»'s method.

«dificil» (:mod:`musbot.ai.dificil`) draws worlds of hidden hands weighted by how likely the
others' words were with them (:meth:`~musbot.ai.dificil.DificilBot.sample`), plays every candidate
word out in every world with the fast «normal» policy (:func:`~musbot.ai.rollout.fast_action`),
and picks the word with the best chance to win the game, an órdago only when it beats the quiet
words by :data:`~musbot.ai.dificil.ORDAGO_MARGIN`. The coach does the same with the same public
pieces, and also keeps what a player counts in: the tantos each word was expected to bring (the
pair's minus the opponents', to the end of the hand, a won game counting as the tantos it was
missing). The word the player said is always among those valued.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from musbot.ai.dificil import ORDAGO_MARGIN, DificilBot, risky
from musbot.ai.normal import NormalBot, keep_values, kept_worth, sena_hints
from musbot.ai.odds import game_value, odds
from musbot.ai.reading import DEFAULT_MODEL
from musbot.ai.rollout import fast_action
from musbot.engine import (
    DECK,
    MUS,
    NO_HAY_MUS,
    Action,
    ActionKind,
    Card,
    Hand,
    Phase,
    SeatView,
    descarte,
)
from musbot.engine import events as ev
from musbot.engine.randomplay import random_action
from musbot.engine.senas import SenaSeen

PRECISION = 0.25
"""Tantos: the words are played out in more worlds, a batch at a time, until the standard error
of each quiet word or bet is below this — two of them, the review's «±», within half a tanto
(an órdago's value, the game won or lost, stays the noisiest: it is shown with its «±»; asked
again, the same decision is played out in the same worlds, :func:`~.review.decision_seed`, and
gets the same figures to the last digit)…"""
BATCH = 24
"""…worlds per batch, each batch drawn and weighed by «dificil»'s sampler…"""
LEAST = 48
"""…never fewer worlds than this…"""
MOST = 640
"""…and at most this many at a betting turn (a rollout from a word is a few lances)…"""
MOST_HAND = 288
"""…or at a mus or discard turn (the rest of the hand, mus rounds and all, is played out):
past these the value is shown with its uncertainty (:attr:`Option.error`)."""
ROLLOUT_TRIES = 1200
WHIMS = 0.05
"""The share of random words the rollouts give each opponent: a review judges the word against
players in general, not against how this table's players were read."""

_K = ActionKind


@dataclass(frozen=True, slots=True)
class Option:
    """One word at a decision and what it was expected to bring."""

    action: Action
    tantos: float
    """The pair's tantos minus the opponents', from this word to the end of the hand."""
    game: float
    """The chance to win the game afterwards (what «dificil» maximises)."""
    risky: bool = False
    """It stakes the game on this lance (an órdago, or calling one): its value is the noisiest,
    so it is only held against the player's word when it was said or «dificil» would say it."""
    error: float = 0.0
    """The standard error of :attr:`tantos` (the worlds played out are a sample)."""


def candidates(view: SeatView, played: Action, bot: DificilBot,
               senas: Sequence[SenaSeen] = ()) -> list[Action]:
    """The words «dificil» weighs at a betting turn against players nobody has seen
    (:meth:`~musbot.ai.dificil.DificilBot.words`), and the player's own."""
    out = bot.words(view, senas, (DEFAULT_MODEL,) * view.players)
    return out if played in out else [*out, played]


class _Rollout:
    """This hand rebuilt on the engine for sampled cards, from this decision to its end.

    At a betting turn it is rebuilt from the cards as held after the discards and the words
    said. At a mus or discard turn, from the cards held now and this mus round's words so far
    (an earlier discard of another seat is made, with its count, as «normal» would have made
    it), with the cards nobody is known to hold shuffled into the deck; the mus rounds and
    discards to come are «normal»'s."""

    def __init__(self, view: SeatView, rates: Sequence[float],
                 discarded: frozenset[Card] = frozenset()) -> None:
        self.rules = view.rules.with_(mus_corrido=False)
        self.mano = view.mano
        self.me = view.seat
        self.team = view.team
        self.target = view.target
        start = view.history[0]
        self.start = start.scores if isinstance(start, ev.HandStarted) else view.scores
        self.now = view.scores
        self.betting = view.phase == "lance"
        self.said: list[tuple[int, Action | int]] = []
        """The words (or, for a discard, how many cards) to replay before the option."""
        for e in view.history:
            if self.betting and isinstance(e, ev.Spoke):
                self.said.append((e.seat, e.action))
            elif self.betting:
                continue
            elif isinstance(e, ev.CardsReplaced):
                self.said = []
            elif isinstance(e, ev.MusSaid):
                self.said.append((e.seat, MUS))
            elif isinstance(e, ev.Discarded):
                self.said.append((e.seat, e.cards))
        reshuffled = any(isinstance(e, ev.Reshuffled) for e in view.history)
        self.gone = set(view.cards) | (set() if reshuffled else set(discarded))
        self.odds = odds(view.rules.reyes)
        self.hints = sena_hints(view.rules.reyes, view.rules.real) \
            if view.rules.senas and not view.corrido else None
        self.rates = [0.0 if view.rules.team(s) == self.team else r for s, r in enumerate(rates)]
        self.normal = NormalBot()

    def _rebuilt(self, hands: list[list[int]], whims: random.Random) -> Hand:
        if self.betting:
            h = Hand(self.rules, hands, (), mano=self.mano, scores=self.start, validate=False)
            h.apply(self.mano, NO_HAY_MUS)
            for seat, said in self.said:
                assert isinstance(said, Action)
                h.apply(seat, said)
            return h
        taken = self.gone.union(*hands)
        deck = [c for c in DECK if c not in taken]
        whims.shuffle(deck)
        h = Hand(self.rules, [list(x) for x in hands], deck, mano=self.mano, scores=self.start,
                 validate=False, reshuffler=lambda pile: whims.sample(pile, len(pile)))
        for seat, said in self.said:
            h.apply(seat, said if isinstance(said, Action) else
                    _thrown(h.hands[seat], said, self.rules.reyes, (seat - self.mano) % 4))
        return h

    def play(self, hands: list[list[int]], option: Action, seed: float) -> tuple[float, float]:
        whims = random.Random(seed)
        h = self._rebuilt(hands, whims)
        h.apply(self.me, option)
        while h.to_act is not None:
            seat = h.to_act
            if h.phase is not Phase.LANCE:
                h.apply(seat, self.normal.decide(h.view(seat), whims))
            elif self.rates[seat] and whims.random() < self.rates[seat]:
                h.apply(seat, random_action(h.legal_actions(seat), whims))
            elif self.hints is not None:
                h.apply(seat, fast_action(h, seat, self.odds, self.hints))
            else:
                h.apply(seat, fast_action(h, seat, self.odds))
        ours, theirs = h.scores[self.team], h.scores[1 - self.team]
        if h.game_winner is not None:
            ours = max(ours, self.target) if h.game_winner == self.team else ours
            theirs = max(theirs, self.target) if h.game_winner != self.team else theirs
            game = 1.0 if h.game_winner == self.team else 0.0
        else:
            game = game_value(ours, theirs, self.target)
        tantos = (min(ours, self.target) - self.now[self.team]) - \
            (min(theirs, self.target) - self.now[1 - self.team])
        return float(tantos), game


def _thrown(cards: Sequence[Card], count: int, reyes: int, pos: int) -> Action:
    """The ``count`` cards «normal» throws away from ``cards`` (a seat's discard whose count
    alone is known)."""
    values = keep_values(reyes, pos)
    out = max(itertools.combinations(cards, count),
              key=lambda thrown: kept_worth(values, cards, thrown, reyes))
    return descarte(*out)


class _Mean:
    """A weighed mean and its standard error, summed as worlds come."""

    __slots__ = ("w", "w2", "w2x", "w2x2", "wx")

    def __init__(self) -> None:
        self.w = self.w2 = self.wx = self.w2x = self.w2x2 = 0.0

    def add(self, w: float, x: float) -> None:
        self.w += w
        self.wx += w * x
        w2 = w * w
        self.w2 += w2
        self.w2x += w2 * x
        self.w2x2 += w2 * x * x

    @property
    def mean(self) -> float:
        return self.wx / self.w if self.w > 0 else 0.0

    @property
    def error(self) -> float:
        """Of a ratio of weighed sums: ``sqrt(Σ w² (x − mean)²) / Σ w``."""
        if self.w <= 0:
            return 0.0
        m = self.mean
        spread = self.w2x2 - 2.0 * m * self.w2x + m * m * self.w2
        return max(spread, 0.0) ** 0.5 / self.w


def weigh(view: SeatView, played: Action, senas: Sequence[SenaSeen], rng: random.Random,
          discarded: frozenset[Card] = frozenset(), *, precision: float = PRECISION,
          most: int | None = None) -> tuple[list[Option], Action]:
    """Every candidate word valued in dificil's worlds, and the one «dificil» would say; no
    options (and the played word) when no world agreed with what was public. At a mus turn the
    candidates are mus and no hay mus; at a discard, the player's and «dificil»'s (which is
    «normal»'s). Worlds are drawn a batch (:data:`BATCH`) at a time, each batch's weights
    scaled to average 1, until every word's value is known within ``precision`` tantos (one
    standard error) or ``most`` worlds were played (:data:`MOST`, :data:`MOST_HAND`). The
    draws come from ``rng`` alone: the same ``rng`` gives the same figures."""
    bot = DificilBot(worlds=BATCH, candidates=BATCH, tries=ROLLOUT_TRIES, read_discards=True)
    betting = view.phase == "lance"
    if betting:
        options = candidates(view, played, bot, senas)
    else:
        choice = bot.decide(view, rng, senas)
        options = [MUS, NO_HAY_MUS] if view.phase == "mus" else \
            list(dict.fromkeys([played, choice]))
    most = most if most is not None else MOST if betting else MOST_HAND
    rates = [WHIMS] * view.players
    rollout = _Rollout(view, rates, discarded)
    tantos = [_Mean() for _ in options]
    games = [_Mean() for _ in options]
    played_out = 0
    while played_out < most:
        sampled = bot.sample(view, rng, senas)  # the others read as players nobody has seen
        total = sum(w for _, w in sampled)
        if not sampled or total <= 0:
            break
        scale = len(sampled) / total
        for hands, w in sampled[:most - played_out]:
            seed = rng.random()  # the same whims for every option: a fair comparison
            for k, option in enumerate(options):
                t, g = rollout.play(hands, option, seed)
                tantos[k].add(w * scale, t)
                games[k].add(w * scale, g)
        played_out += len(sampled)
        if played_out >= LEAST and all(m.error <= precision for m, o in zip(tantos, options,
                                                                            strict=True)
                                       if not risky(view, o)):
            break
    if not played_out:
        return [], played
    valued = [Option(o, tantos[k].mean, games[k].mean, risky(view, o), tantos[k].error)
              for k, o in enumerate(options)]
    return valued, _choice(view, valued, bot, senas, played) if betting else choice


def _choice(view: SeatView, valued: list[Option], bot: DificilBot, senas: Sequence[SenaSeen],
            played: Action) -> Action:
    """dificil's pick among its own candidates (not a size it would not have tried)."""
    own = bot.words(view, senas, (DEFAULT_MODEL,) * view.players)
    pool = [o for o in valued if o.action in own]
    if any(o.action.kind is _K.ORDAGO for o in pool) and not bot.may_throw_ordago(view, senas):
        pool = [o for o in pool if o.action.kind is not _K.ORDAGO]
    if not pool:
        return played
    quiet = [o.game for o in pool if not o.risky]
    base = max(quiet) if quiet else 0.0
    best = max(pool, key=lambda o: o.game - (ORDAGO_MARGIN * base if o.risky else 0.0))
    return best.action


__all__ = ["PRECISION", "Option", "candidates", "weigh"]
