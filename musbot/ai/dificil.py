"""Level «dificil»: sample the hidden hands the public history allows, play each option out,
against each player as that player bets.

At a betting decision the bot deals the three hidden hands many times (a *world* each) from the
36 cards it cannot see, each seat's hand agreeing with everything public — the pares and juego
declarations, the señas it received (its partner's, or an opponent's it caught) — and weighs
each world by how likely the players' own words were with those cards: every mus/no hay mus of
the last round and every bet, call or refusal so far in the hand. The hands a seat's words fit
are dealt to it more often (and weighed less), so the few hands an órdago leaves are among the
worlds; the worlds played out are then drawn as likely as their weights. Every candidate action
is applied in every world on a fresh engine :class:`~musbot.engine.Hand` built from the sampled
cards and the public actions, and the rest of the hand is played out. The score of a rollout is
the chance to win the *game* afterwards (1 or 0 if the hand ended it), so órdagos, dejes near
the target and the tanteo's order count exactly as the engine scores them. Bluffs come out of
this by themselves: a bet with a weak hand wins whenever the sampled opponents would fold often
enough; :attr:`DificilBot.stats` counts them (``musbot bench ai`` prints the rate). An órdago,
thrown or called, must also be won more often than lost (:data:`ORDAGO_CALLED_WIN`).

How likely a word was, and how each opponent answers in the rollouts, come from the table's
reading of that player (:mod:`musbot.ai.reading`), given with each decision (``models``): a mix
of level «normal»'s rule (:func:`musbot.ai.normal.bet_action`) and the player's own betting
table, learnt from the showdowns — how often they pass, call, raise or go to órdago with what
strength. So an órdago from a player seen going to órdago only with the goods says «the goods»
and is refused unless the bot holds them too; the same órdago from a player seen throwing them
with anything is called; and a bet against a player who folds too much is valued by how often
that player folds. The rollouts' own pair plays «normal»'s rule.

It sees only the seat's view, its señas and those models (learnt from what the table showed
everybody): the engine it simulates on holds sampled cards. The mus and the discards are level
«normal»'s.

Against strangers (issue #48; ``musbot bench ai``, 600 games each, 8 reyes, señas, one game to
40): the held-out family of :mod:`.family` at seed 4801, never tuned on, 79.3 % (95 % CI
75.9–82.4 %) where «normal» wins 66.5 % (62.6–70.2 %); the tuned family at seed 110, 80.0 %
(76.6–83.0 %) against 70.3 % (66.6–73.8 %); «normal» head to head at seed 4802, 76.8 %
(73.3–80.0 %). Against the held-out family its 48 órdagos were accepted 10 times and won all
10; it accepted 20 of the family's 643 and won 17. A decision's CPU time: p50 15 ms, p99 30 ms.
The robust reference of :mod:`.cfr` measured worse in every way it was leaned on (see there):
before a table has read anybody, dificil plays against the reading's prior
(:data:`~musbot.ai.reading.DEFAULT_MODEL`), which each word seen moves only by its weight.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from musbot.engine import (
    DECK,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    Lance,
    SeatView,
    envido,
    mas,
    tables,
)
from musbot.engine.evaluation import best_seat
from musbot.engine.senas import Sena

from .base import SenaSeen
from .normal import NormalBot, lance_state
from .odds import game_value
from .reading import (
    CATEGORY,
    DEFAULT_MODEL,
    ORDAGO_ANSWER,
    Judge,
    OpponentModel,
    Word,
    spoken,
)
from .rollout import _Replay
from .worlds import Likelihood, senas_by_index

_K = ActionKind
_ACCEPT = CATEGORY[_K.QUIERO]
ORDAGO_MARGIN = 0.15
"""An órdago (thrown or called) must beat the best quiet option by this share of its value: the
órdago's estimate is the noisiest of all and a mistake costs the game."""
ORDAGO_CALLED_WIN = 0.6
"""And it must be won more often than lost, with room for the estimate's error: thrown only
if it wins at least this share of the worlds where it is accepted (:func:`ordago_fate`),
accepted only if it wins :data:`ORDAGO_ACCEPT_WIN` of all the worlds — unless refusing hands the
game over at once (the deje reaches the target). Against a player who goes to órdago only with
the goods, the worlds where the bot would call are those where it holds better; against one who
accepts only with the goods, those where its órdago is called are the ones to fear. The few
spots where refusing is all but lost without being lost outright are given up: an órdago
accepted is a game won, not a gamble on a lost one."""
ORDAGO_ACCEPT_WIN = 0.7
"""An órdago met is a coin tossed by the other side, with the cards it chose to toss it on: a
call needs room for the estimate's error."""
ORDAGO_DOUBT = 3.0
"""Its share of wins when accepted is judged as if this many worlds more had accepted it and won
nothing, against the effective number of worlds that accepted it: against a player who accepts
only with the goods, a handful of sampled worlds hold the goods, and an estimate from a handful
is mostly luck."""
ORDAGO_MIN_CHANCE = 0.7
"""The pair's chance at the lance below which the bot does not consider throwing an órdago…"""
ORDAGO_DESPERATE = 0.1
"""…unless its chance to win the game is already below this."""
BIG_BET = 5
"""The big envite weighed beside «envido» (2) when no bet stands: against players who call
whatever the size, the goods are worth more than 2 (issue #48: «dificil» won 71 % of games
against a member of the opponents' family that calls every bet, «normal», whose strong openings
are 3 to 8 half the time, 80 %; with this envite, 85 %)…"""
BIG_BET_MIN = 0.6
"""…weighed with this chance at the lance or more (see :meth:`DificilBot.options`)…"""
BIG_TRUST = 0.9
"""…or whatever the hand when every opponent's reading gives «normal»'s rule (which folds to
a big bet more than to a small one) at least this weight
(:attr:`~musbot.ai.reading.OpponentModel.normal`): an unknown player has 0.73."""
PILOT = 12
"""Worlds dealt blind before the guided draws of :meth:`DificilBot.sample` (and not kept)."""


class DificilBot:
    """Level «dificil». Between decisions it keeps only :attr:`stats`: what it knows of the
    players comes with each decision (``models``, from the table's
    :class:`~musbot.ai.memory.OpponentMemory`)."""

    level = "dificil"
    reads_table = True
    """:func:`~musbot.ai.base.ask` gives it the table's models of the players."""
    heavy = True
    """A decision takes milliseconds: a table runs it off its event loop."""

    def __init__(self, *, worlds: int = 64, candidates: int | None = None,
                 tries: int = 3000, read_discards: bool = False) -> None:
        self.worlds = worlds
        """Worlds played out per decision: the time budget (each costs one rollout per
        option)…"""
        self.candidates = candidates if candidates is not None else 4 * worlds
        """…drawn, as likely as their weights, from this many sampled and weighed worlds: an
        órdago from a player who throws one only with the goods leaves few worlds that fit, and
        they must be among those played out."""
        self.tries = tries
        """Hands drawn at most to find the candidates (late in a hand many fail what their seat
        declared, and are drawn again)."""
        self.read_discards = read_discards
        """Whether a world is also weighed by how many cards each player threw away last
        (:func:`~musbot.ai.reading.discard_fit`): the coach's reading; the playing level leaves
        it off until its win rates are measured with it."""
        self.normal = NormalBot()
        self.stats = {"decisions": 0, "bets": 0, "bluffs": 0}
        """Bets/raises made, and how many of them with under a 40 % chance at the lance."""

    # --- the Player protocol ------------------------------------------------------------------

    def decide(self, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen] = (), *,
               models: Sequence[OpponentModel] | None = None) -> Action:
        """``models``: per seat, how that player bets (the table's readings); unknown players
        are taken for :data:`~musbot.ai.reading.DEFAULT_MODEL`."""
        if not view.legal:
            raise ValueError("decide() called when the seat has nothing to do")
        if view.phase != "lance" or view.lance is None or view.players != 4:
            return self.normal.decide(view, rng, senas)
        if models is None or len(models) != view.players:
            models = (DEFAULT_MODEL,) * view.players
        options = self.options(view, senas, models)
        if len(options) == 1:
            return options[0]
        sub = random.Random(rng.random())
        candidates = self.sample(view, sub, senas, models)
        worlds = resample(candidates, self.worlds, sub)
        if not worlds:
            return self.normal.decide(view, rng, senas)
        team = view.team
        base = _Replay(view, [None if view.rules.team(s) == team else m
                              for s, m in enumerate(models)])
        totals = [0.0] * len(options)
        for hands, w in worlds:
            seed = sub.random()  # the same opponents' whims for every option: a fair comparison
            for k, option in enumerate(options):
                totals[k] += w * base.rollout(hands, option, seed)
        total = sum(w for _, w in worlds)
        quiet = max(totals[k] for k, o in enumerate(options) if not risky(view, o))
        scores = [totals[k] - (ORDAGO_MARGIN * quiet if risky(view, o) else 0.0)
                  for k, o in enumerate(options)]
        handed_over = view.ordago and \
            view.scores[1 - team] + lance_state(view).prev >= view.target
        for k, o in enumerate(options):
            if o.kind is _K.ORDAGO and \
                    ordago_fate(view, candidates, models, base).called_win < ORDAGO_CALLED_WIN:
                scores[k] = -1.0  # when it is accepted, it is mostly lost
            elif view.ordago and o.kind is _K.QUIERO and not handed_over \
                    and totals[k] < ORDAGO_ACCEPT_WIN * total:
                scores[k] = -1.0  # an órdago is called to be won
        # Ties go to the quiet option (a refused órdago leaves the partner, who knows his cards,
        # to answer it), then to the first.
        best = max(range(len(options)),
                   key=lambda k: (scores[k], not risky(view, options[k]), -k))
        choice = options[best]
        self.stats["decisions"] += 1
        if choice.kind in (_K.ENVIDO, _K.MAS, _K.ORDAGO):
            self.stats["bets"] += 1
            if self.normal.chance(view, view.lance, senas) < 0.4:
                self.stats["bluffs"] += 1
        return choice

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        return self.normal.choose_senas(view, rng)

    def options(self, view: SeatView, senas: Sequence[SenaSeen],
                models: Sequence[OpponentModel]) -> list[Action]:
        """The words weighed (:func:`candidate_words`), but an órdago it may not throw
        (:meth:`may_throw_ordago`) and the big envite (:data:`BIG_BET`) without the goods
        (:data:`BIG_BET_MIN`) unless every opponent is read as playing by «normal»'s rule
        (:data:`BIG_TRUST`). The rollouts value a big bluff by how much more often their
        opponents fold to a big bet than to a small one, and only «normal»'s rule knows the
        size of a bet: the readings learnt from the showdowns do not (nor do most players say
        it so plainly). Against a stranger, a big bluff would rest on a guess; a big envite
        with the goods rests on the cards, and pays most against those who call anything."""
        options = self.words(view, senas, models)
        if ORDAGO in options and not self.may_throw_ordago(view, senas):
            options.remove(ORDAGO)
        return options

    def words(self, view: SeatView, senas: Sequence[SenaSeen],
              models: Sequence[OpponentModel]) -> list[Action]:
        """:func:`candidate_words` without the big envite where :meth:`options` leaves it out
        (the coach values these, órdago included, and names dificil's pick among them)."""
        options = candidate_words(view)
        big = envido(BIG_BET)
        if big in options and view.lance is not None and \
                self.normal.chance(view, view.lance, senas) < BIG_BET_MIN and \
                min(m.normal for s, m in enumerate(models)
                    if view.rules.team(s) != view.team) < BIG_TRUST:
            options.remove(big)
        return options

    def may_throw_ordago(self, view: SeatView, senas: Sequence[SenaSeen]) -> bool:
        """No bluffed órdago unless the game is slipping away. The rollouts answer as the
        readings say each opponent does, but they value the rest of the game as between equals
        (:func:`~musbot.ai.odds.game_value`), and against a weaker player who calls órdagos
        lightly a called bluff throws away the edge the following hands would bring."""
        assert view.lance is not None
        team = view.team
        stay = game_value(view.scores[team], view.scores[1 - team], view.target)
        return stay < ORDAGO_DESPERATE or \
            self.normal.chance(view, view.lance, senas) >= ORDAGO_MIN_CHANCE

    # --- worlds -------------------------------------------------------------------------------

    def sample(self, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen] = (),
               models: Sequence[OpponentModel] | None = None,
               ) -> list[tuple[list[list[int]], float]]:
        """Up to :attr:`candidates` deals of the hidden cards agreeing with the public
        information, each with its likelihood weight."""
        rules = view.rules
        t = tables(rules.reyes, rules.real)
        key = t.card_key
        index_of = t.index_of
        shows = senas_by_index(rules.reyes, rules.real)
        n = view.players
        me = view.seat
        others = [s for s in range(n) if s != me]
        decl_p = view.declarations.get(Lance.PARES)
        decl_j = view.declarations.get(Lance.JUEGO)
        must: dict[int, set[Sena]] = {s: set() for s in others}
        for seen in senas:
            if seen.seat in must:
                must[seen.seat].add(seen.sena)
        has_p = t.has_pares
        has_j = t.has_juego
        unseen = [c for c in DECK if c not in view.cards]
        model = Likelihood(view, models if models is not None else (DEFAULT_MODEL,) * n, senas,
                           discards=self.read_discards)
        my_index = t.index(view.cards)
        out: list[tuple[list[list[int]], float]] = []
        pool = unseen  # dealt from by a partial Fisher–Yates shuffle, left shuffled in between
        left = len(pool)
        draw = rng.random
        mine = list(view.cards)
        budget = self.tries
        bounds = [0.0] * n
        """Per seat, the likeliest its own words were among the hands of the first worlds:
        what the guided draws below measure a hand against."""
        pilot = PILOT
        blind: list[tuple[list[list[int]], float]] = []
        while budget > 0 and len(out) < self.candidates:
            hands: list[list[int]] = [mine] * n
            idx = [my_index] * n
            start = 0
            dealt = True
            for s in others:
                # Each seat's four cards are drawn again until they fit what the seat declared
                # and showed: a whole deal rarely fits when everybody declared pares and juego.
                want_p = decl_p[s] if decl_p is not None else None
                want_j = decl_j[s] if decl_j is not None else None
                need = must[s]
                bound = bounds[s]
                while budget > 0:
                    budget -= 1
                    for j in range(start, start + 4):
                        r = j + int(draw() * (left - j))
                        pool[j], pool[r] = pool[r], pool[j]
                    i = index_of[key[pool[start]] + key[pool[start + 1]]
                                 + key[pool[start + 2]] + key[pool[start + 3]]]
                    if (want_p is None or has_p[i] == want_p) and \
                            (want_j is None or has_j[i] == want_j) and \
                            (not need or need <= shows[i]) and \
                            draw() ** 2 * bound <= model.alone(s, i):
                        break
                else:
                    dealt = False  # the budget ran out
                    break
                hands[s] = pool[start:start + 4]
                idx[s] = i
                start += 4
            if not dealt:
                break
            if pilot:  # dealt blind, to learn how likely each seat's words can be
                pilot -= 1
                for s in others:
                    bounds[s] = max(bounds[s], model.alone(s, idx[s]))
                blind.append((hands, model.likelihood(idx)))
                continue
            # Each seat's hand was kept as likely as the square root of how well its own words
            # fit it, next to the best of the pilot's (enough to find the few hands an órdago
            # leaves without drawing forever): the weight makes up the difference.
            w = model.likelihood(idx)
            for s in others:
                if bounds[s] > 0:
                    w /= min(1.0, (model.alone(s, idx[s]) / bounds[s]) ** 0.5)
            if w > 0:
                out.append((hands, w))
        return out or [(h, w) for h, w in blind if w > 0]  # the pilot took the whole budget


def resample(worlds: list[tuple[list[list[int]], float]], k: int,
              rng: random.Random) -> list[tuple[list[list[int]], float]]:
    """``k`` of the weighted worlds, each drawn as likely as its weight (systematic
    resampling), all of weight 1: the likely worlds are played out, more than once if need
    be."""
    total = sum(w for _, w in worlds)
    if not worlds or total <= 0:
        return []
    step = total / k
    at = rng.random() * step
    out: list[tuple[list[list[int]], float]] = []
    acc = 0.0
    for hands, w in worlds:
        acc += w
        while at < acc and len(out) < k:
            out.append((hands, 1.0))
            at += step
    while len(out) < k:  # rounding at the very end
        out.append((worlds[-1][0], 1.0))
    return out


@dataclass(frozen=True, slots=True)
class OrdagoFate:
    """An órdago thrown now, over the sampled worlds: how often it is accepted and, when it is,
    won."""

    accepted: float
    """The worlds' weight times each world's chance that an opponent accepts."""
    won: float
    """The same, counting only the worlds where the bot's pair wins the lance."""
    effective: float
    """How many equally weighed worlds the accepting ones are worth (Kish's effective sample
    size)."""

    @property
    def called_win(self) -> float:
        """The share of accepted órdagos won, as if :data:`ORDAGO_DOUBT` worlds more had
        accepted and won nothing."""
        if self.accepted <= 0.0:
            return 0.0
        return self.won / self.accepted * self.effective / (self.effective + ORDAGO_DOUBT)


def ordago_fate(view: SeatView, worlds: Sequence[tuple[list[list[int]], float]],
                models: Sequence[OpponentModel], replay: _Replay) -> OrdagoFate:
    """Each world counts by its weight times the chance, under the answering opponents' models,
    that one of them accepts with that world's cards — not by whether one did in a rollout:
    against a player who accepts only with the goods, the worlds holding the goods are few, and
    each must count for what it is, every time."""
    answers = _ordago_answers(view, worlds[0][0], replay) if worlds else []
    if not answers:
        return OrdagoFate(0.0, 0.0, 0.0)
    assert view.lance is not None
    t = tables(view.rules.reyes, view.rules.real)
    index_of, key = t.index_of, t.card_key
    strength = t.strength[view.lance]
    order = [(view.mano + k) % 4 for k in range(4)]
    team = view.team
    judge = Judge(view)
    memo: dict[tuple[int, int, int], float] = {}
    accepted = won = squares = 0.0
    for hands, w in worlds:
        idx = [index_of[key[h[0]] + key[h[1]] + key[h[2]] + key[h[3]]] for h in hands]
        refused = 1.0
        for word in answers:
            s = word.seat
            mate = (s + 2) % 4
            found = memo.get((s, idx[s], idx[mate]))
            if found is None:
                p = judge.strength(idx, word)
                found = memo[(s, idx[s], idx[mate])] = models[s].chance(
                    ORDAGO_ANSWER, p, _ACCEPT, judge.expected(idx, word, p))
            refused *= 1.0 - found
        x = w * (1.0 - refused)
        accepted += x
        squares += x * x
        if view.rules.team(best_seat(strength, idx, order)) == team:
            won += x
    return OrdagoFate(accepted, won, accepted * accepted / squares if squares > 0 else 0.0)


def _ordago_answers(view: SeatView, hands: list[list[int]], replay: _Replay) -> list[Word]:
    """The words «quiero» of the opponents who would answer an órdago thrown now, in their
    order, each said after the ones before refused (the public history does not depend on the
    cards, so any world's do)."""
    out: list[Word] = []
    refusals: list[int] = []
    while True:
        h = replay.start(hands)
        h.apply(view.seat, ORDAGO)
        for s in refusals:
            h.apply(s, NO_QUIERO)
        seat = h.to_act
        if seat is None or h.lance is not view.lance or not h.ordago_standing \
                or view.rules.team(seat) == view.team:
            return out
        h.apply(seat, QUIERO)
        out.append(spoken(h.view(view.seat))[0][-1])
        refusals.append(seat)


def risky(view: SeatView, option: Action) -> bool:
    """Whether the option stakes the game on this lance."""
    return option.kind is _K.ORDAGO or (view.ordago and option.kind is _K.QUIERO)


def candidate_words(view: SeatView) -> list[Action]:
    """The words weighed at a betting turn: the quiet ones, the smallest bet or raise, a big
    opening envite (:data:`BIG_BET`), the órdago."""
    kinds = {a.kind for a in view.legal}
    if view.ordago:
        return [QUIERO, NO_QUIERO]
    if _K.QUIERO in kinds:
        out = [QUIERO, NO_QUIERO]
        if _K.MAS in kinds and view.bet < 30:
            out.append(mas(2))
        if _K.ORDAGO in kinds:
            out.append(ORDAGO)
        return out
    out = [PASO, envido(2), envido(BIG_BET)]
    if _K.ORDAGO in kinds:
        out.append(ORDAGO)
    return [a for a in out if a.kind in kinds]
