"""Level «dificil»: sample the hidden hands the public history allows, play each option out.

At a betting decision the bot draws the three hidden hands many times (a *world* each) from the
36 cards it cannot see, keeping only worlds that agree with everything public — the pares and
juego declarations, the señas it received (its partner's, or an opponent's it caught) — and
weighs each world by how likely the players' own words were with those cards: every mus/no hay
mus of the last round and every bet, call or refusal so far in the hand, as level «normal» would
have said them (:func:`musbot.ai.normal.bet_action`), with room for surprises. Then every
candidate action is applied in every world on a fresh engine :class:`~musbot.engine.Hand` built
from the sampled cards and the public actions, and the rest of the hand is played by the fast
«normal» policy. The score of a rollout is the chance to win the *game* afterwards (1 or 0 if the
hand ended it), so órdagos, dejes near the target and the tanteo's order count exactly as the
engine scores them. Bluffs come out of this by themselves: a bet with a weak hand wins whenever
the sampled opponents would fold often enough; :attr:`DificilBot.stats` counts them (``musbot
bench ai`` prints the rate). The one bluff it refuses is the órdago with a weak lance while the
game is not slipping away: an órdago's estimate is the noisiest one, so it must also beat the
quiet options by a margin.

Players differ, and the bot learns how from the showdowns, as people do (``hand_over``): each
other seat is taken as «normal» but for a share of words said at random
(:func:`~musbot.engine.randomplay.random_action`), a share estimated from how often its words
did not match «normal»'s with the cards it showed. That share makes the seat's words weigh less
in the worlds' likelihood — a player who bets at random tells nothing by betting — and makes
the seat answer at random as often in the rollouts, so a bet or a bluff is valued against how
that opponent really answers. A new bot assumes a mostly «normal» table (:data:`PRIOR_RATE`);
what it learnt is not saved, so a bot restored after a restart starts over.

It sees only the seat's view, its señas, and the views of finished hands its table gives it:
the engine it simulates on holds sampled cards. The mus and the discards are level «normal»'s.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache

from musbot.engine import (
    DECK,
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
    tables,
)
from musbot.engine import events as ev
from musbot.engine.randomplay import random_action
from musbot.engine.senas import Sena, shows

from . import normal
from .base import SenaSeen
from .normal import NormalBot, bet_action, hand_worth, sena_hints
from .odds import Odds, game_value, odds

_K = ActionKind
_BETS = (_K.ENVIDO, _K.MAS, _K.ORDAGO)
_CATEGORY = {_K.PASO: 0, _K.NO_QUIERO: 0, _K.QUIERO: 1, _K.ENVIDO: 2, _K.MAS: 2, _K.ORDAGO: 3}
SURPRISE = (0.12, 0.12, 0.08, 0.01)
"""Likelihood of a word the model did not expect (bluffs, other styles, people), by what was
said: pass/refuse, call, bet/raise, órdago — the floor under what the showdowns teach
(:meth:`DificilBot.rates`), so a player known to be «normal» is still allowed a style of its
own. An unexpected órdago is the rarest thing: without it, a thrower's cards would be guessed
far too weak."""
ORDAGO_MARGIN = 0.3
"""An órdago (thrown or called) must beat the best quiet option by this share of its value: the
órdago's estimate is the noisiest of all and a mistake costs the game — but when the quiet
options are lost anyway (a refusal that hands over the game) any chance is taken."""
MUS_SURPRISE = 0.35
"""The same floor for a mus or a cut «normal» would not have said."""
ORDAGO_MIN_CHANCE = 0.7
"""The pair's chance at the lance below which the bot does not throw an órdago…"""
ORDAGO_DESPERATE = 0.1
"""…unless its chance to win the game is already below this."""
SILENT_PARTNER = 0.5
"""Weight of a world where the partner holds a seña but sent none (bots usually send one)."""
PRIOR_RATE = 0.05
"""What the bot assumes of a player it has not seen at a showdown yet: this share of their
words random, the rest «normal»'s…"""
PRIOR_WORDS = 4.0
"""…worth this many words of evidence, so a few showdowns are enough to tell a player who
speaks at random (a benchmark game against «random» lasts four or five hands)."""
RANDOM_OPEN = (0.6, 0.0, 0.38, 0.02)
"""How often :func:`~musbot.engine.randomplay.random_action` says each category of word
(:data:`_CATEGORY`) when opening a lance, answering a bet, answering an órdago; and mus."""
RANDOM_ANSWER = (0.4, 0.45, 0.13, 0.02)
RANDOM_ANSWER_ORDAGO = (0.5, 0.5, 0.0, 0.0)
RANDOM_MUS = 0.7


@cache
def _senas_by_index(reyes: int, real: bool) -> tuple[frozenset[Sena], ...]:
    t = tables(reyes, real)
    return tuple(frozenset(s for s in Sena if (s is not Sena.REAL or real) and shows(s, info))
                 for info in t.infos)


class DificilBot:
    """Level «dificil». Between decisions it keeps only :attr:`stats` and what the showdowns
    told it about the other seats (one instance per seat, as the table and the bench make)."""

    level = "dificil"

    def __init__(self, *, worlds: int = 96, tries: int = 1200) -> None:
        self.worlds = worlds
        """Sampled worlds per decision: the time budget (each costs one rollout per option)."""
        self.tries = tries
        self.normal = NormalBot()
        self.stats = {"decisions": 0, "bets": 0, "bluffs": 0}
        """Bets/raises made, and how many of them with under a 40 % chance at the lance."""
        self.odd_words = [0.0] * 4
        """Per seat, words seen at showdowns that «normal» would not have said with those
        cards…"""
        self.expected_odd = [0.0] * 4
        """…and how many of them a player speaking at random would have made (see
        :meth:`rates`)."""

    # --- the Player protocol ------------------------------------------------------------------

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        if not view.legal:
            raise ValueError("decide() called when the seat has nothing to do")
        if view.phase != "lance" or view.lance is None or view.players != 4:
            return self.normal.decide(view, rng, senas)
        options = _options(view)
        if ORDAGO in options and not self._may_throw_ordago(view, senas):
            options.remove(ORDAGO)
        if len(options) == 1:
            return options[0]
        sub = random.Random(rng.random())
        rates = self.rates()
        worlds = self.sample(view, sub, senas, rates)
        if not worlds:
            return self.normal.decide(view, rng, senas)
        team = view.team
        base = _Replay(view, [0.0 if view.rules.team(s) == team else r
                              for s, r in enumerate(rates)])
        totals = [0.0] * len(options)
        for hands, w in worlds:
            seed = sub.random()  # the same opponents' whims for every option: a fair comparison
            for k, option in enumerate(options):
                totals[k] += w * base.rollout(hands, option, seed)
        quiet = max(totals[k] for k, o in enumerate(options) if not _risky(view, o))
        scores = [totals[k] - (ORDAGO_MARGIN * quiet if _risky(view, o) else 0.0)
                  for k, o in enumerate(options)]
        best = max(range(len(options)), key=lambda k: (scores[k], -k))
        choice = options[best]
        self.stats["decisions"] += 1
        if choice.kind in (_K.ENVIDO, _K.MAS, _K.ORDAGO):
            self.stats["bets"] += 1
            if self.normal.chance(view, view.lance, senas) < 0.4:
                self.stats["bluffs"] += 1
        return choice

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        return self.normal.choose_senas(view, rng)

    def hand_over(self, view: SeatView) -> None:
        """Learns from the showdown how each other player speaks, as a person would: their
        words set against what «normal» would have said with the cards now shown."""
        if view.players != 4 or view.revealed is None:
            return
        t = tables(view.rules.reyes, view.rules.real)
        idx = [t.index(list(h)) for h in view.revealed]
        for seat, usual, noise in _Model(view).words(idx):
            self.odd_words[seat] += 0.0 if usual else 1.0
            self.expected_odd[seat] += 1.0 - noise

    def rates(self) -> list[float]:
        """Per seat, the estimated share of random words in a mixture of «normal» and
        :func:`~musbot.engine.randomplay.random_action`: odd words seen over the odd words a
        random player would have made (a moment estimate), smoothed towards
        :data:`PRIOR_RATE`. It decides how much that seat's words say about its cards and how
        it answers in the rollouts. Soft state: a bot restored after a restart starts over."""
        return [min(1.0, (odd + PRIOR_RATE * PRIOR_WORDS) / (exp + PRIOR_WORDS))
                for odd, exp in zip(self.odd_words, self.expected_odd, strict=True)]

    def _may_throw_ordago(self, view: SeatView, senas: Sequence[SenaSeen]) -> bool:
        """No bluffed órdago unless the game is slipping away. The rollouts now answer as the
        showdowns say each opponent does, but they value the rest of the game as between equals
        (:func:`~musbot.ai.odds.game_value`), and against a weaker player who calls órdagos
        lightly a called bluff throws away the edge the following hands would bring. Measured
        against «random», 1,000 games, seed 1: before the bot learnt from showdowns, 77.6 % of
        games without this rule, 85.7 % with it; with learning, 91.0 % — and 91.0 % too when the
        required chance grew with the opponents' share of random words, so it stays simple."""
        assert view.lance is not None
        team = view.team
        stay = game_value(view.scores[team], view.scores[1 - team], view.target)
        return stay < ORDAGO_DESPERATE or \
            self.normal.chance(view, view.lance, senas) >= ORDAGO_MIN_CHANCE

    # --- worlds -------------------------------------------------------------------------------

    def sample(self, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen] = (),
               rates: Sequence[float] | None = None) -> list[tuple[list[list[int]], float]]:
        """Up to :attr:`worlds` deals of the hidden cards agreeing with the public information,
        each with its likelihood weight."""
        rules = view.rules
        t = tables(rules.reyes, rules.real)
        key = t.card_key
        index_of = t.index_of
        shows = _senas_by_index(rules.reyes, rules.real)
        n = view.players
        me = view.seat
        others = [s for s in range(n) if s != me]
        decl_p = view.declarations.get(Lance.PARES)
        decl_j = view.declarations.get(Lance.JUEGO)
        must: dict[int, set[Sena]] = {s: set() for s in others}
        for seen in senas:
            if seen.seat in must:
                must[seen.seat].add(seen.sena)
        partner = (me + 2) % n
        senas_on = rules.senas and not view.corrido
        silent = senas_on and not any(s.partner for s in senas)
        has_p = t.has_pares
        has_j = t.has_juego
        unseen = [c for c in DECK if c not in view.cards]
        model = _Model(view, rates if rates is not None else self.rates())
        my_index = t.index(view.cards)
        out: list[tuple[list[list[int]], float]] = []
        for _ in range(self.tries):
            if len(out) >= self.worlds:
                break
            cards = rng.sample(unseen, 12)
            hands: list[list[int]] = [[] for _ in range(n)]
            hands[me] = list(view.cards)
            idx = [my_index] * n
            ok = True
            for k, s in enumerate(others):
                h = cards[4 * k:4 * k + 4]
                i = index_of[key[h[0]] + key[h[1]] + key[h[2]] + key[h[3]]]
                if decl_p is not None and has_p[i] != decl_p[s]:
                    ok = False
                    break
                if decl_j is not None and has_j[i] != decl_j[s]:
                    ok = False
                    break
                if must[s] and not must[s] <= shows[i]:
                    ok = False
                    break
                hands[s] = h
                idx[s] = i
            if not ok:
                continue
            w = model.likelihood(idx)
            if silent and shows[idx[partner]] - {Sena.CIEGO}:
                w *= SILENT_PARTNER
            if w > 0:
                out.append((hands, w))
        return out


def _risky(view: SeatView, option: Action) -> bool:
    """Whether the option stakes the game on this lance."""
    return option.kind is _K.ORDAGO or (view.ordago and option.kind is _K.QUIERO)


def _options(view: SeatView) -> list[Action]:
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
    out = [PASO, envido(2)]
    if _K.ORDAGO in kinds:
        out.append(ORDAGO)
    return [a for a in out if a.kind in kinds]


class _Model:
    """How likely each seat's words in this hand were, for given cards, under «normal»."""

    def __init__(self, view: SeatView, rates: Sequence[float] = (0.0,) * 4) -> None:
        self.view = view
        self.o: Odds = odds(view.rules.reyes)
        self.hints = _hints(view)
        self.me = view.seat
        self.mano = view.mano
        self.target = view.target
        self.decl = view.declarations
        mus_round: list[tuple[int, bool]] = []
        spoken: list[tuple[int, Lance, int, int, bool, int, int, int, bool, int, float]] = []
        scores = [0, 0]
        lance: Lance | None = None
        bet = 0
        prev = 0
        ordago = False
        bets = [0, 0]
        speakers: tuple[int, ...] = ()
        rounds = 0
        for event in view.history:
            if isinstance(event, ev.HandStarted):
                scores = list(event.scores)
            elif isinstance(event, ev.CardsReplaced):
                mus_round = []
                rounds += 1
            elif isinstance(event, ev.MusSaid):
                mus_round.append((event.seat, event.mus))
            elif isinstance(event, ev.Scored):
                scores = list(event.scores)
            elif isinstance(event, ev.LanceStarted):
                lance = event.lance
                speakers = event.speakers
                bet = prev = 0
                ordago = False
                bets = [0, 0]
            elif isinstance(event, ev.Spoke) and lance is not None:
                s = event.seat
                team = view.rules.team(s)
                later = speakers[speakers.index(s) + 1:] if s in speakers else ()
                last = not any(view.rules.team(x) == team for x in later)
                if s != self.me:
                    said = _CATEGORY[event.action.kind]
                    spoken.append((s, lance, bet, max(prev, 1), ordago, bets[1 - team],
                                   scores[team], scores[1 - team], last, said,
                                   _odd(rates[s], _noise(bet, ordago)[said], SURPRISE[said])))
                kind = event.action.kind
                if kind in _BETS:
                    prev = bet if bet or ordago else 1
                    if kind is _K.ORDAGO:
                        ordago = True
                    else:
                        bet = event.total
                    bets[team] += 1
        self.mus_round = [(s, m, _odd(rates[s], RANDOM_MUS if m else 1 - RANDOM_MUS,
                                      MUS_SURPRISE))
                          for s, m in mus_round if s != self.me]
        self.rounds = rounds
        self.spoken = spoken

    def words(self, idx: list[int]) -> Iterator[tuple[int, bool, float]]:
        """For every word of the others: the seat, whether «normal» would have said it with
        ``idx``, and how likely a random player was to say what «normal» would have said."""
        o = self.o
        cut = normal.CUT - 0.1 * self.rounds
        for s, said_mus, _ in self.mus_round:
            pos = (s - self.mano) % 4
            wants_mus = hand_worth(o, idx[s], pos) < cut
            yield s, wants_mus == said_mus, RANDOM_MUS if wants_mus else 1 - RANDOM_MUS
        for s, lance, bet, prev, ordago, opp_bets, mine, theirs, last, said, _ in self.spoken:
            expected = self._expected(idx, s, lance, bet, prev, ordago, opp_bets, mine, theirs,
                                      last)
            yield s, expected == said, _noise(bet, ordago)[expected]

    def _expected(self, idx: list[int], s: int, lance: Lance, bet: int, prev: int,
                  ordago: bool, opp_bets: int, mine: int, theirs: int, last: bool) -> int:
        o = self.o
        pos = (s - self.mano) % 4
        mask = None
        if lance is Lance.PARES or lance is Lance.JUEGO:
            d = self.decl.get(lance)
            if d is not None:
                mask = sum(1 << (r - 1) for r in range(1, 4) if d[(s + r) % 4])
        p = max(o.lance(lance, idx[s], pos, mask), self.hints[lance][idx[(s + 2) % 4]])
        a = bet_action(lance, p, bet, prev, ordago, opp_bets, mine, theirs, self.target,
                       None, last=last)
        return _CATEGORY[a.kind]

    def likelihood(self, idx: list[int]) -> float:
        o = self.o
        w = 1.0
        cut = normal.CUT - 0.1 * self.rounds
        for s, said_mus, odd in self.mus_round:
            pos = (s - self.mano) % 4
            wants_mus = hand_worth(o, idx[s], pos) < cut
            if wants_mus != said_mus:
                w *= odd
        for s, lance, bet, prev, ordago, opp_bets, mine, theirs, last, said, odd in self.spoken:
            if self._expected(idx, s, lance, bet, prev, ordago, opp_bets, mine, theirs,
                              last) != said:
                w *= odd
        return w


def _noise(bet: int, ordago: bool) -> tuple[float, float, float, float]:
    """How often a random player says each category of word (:data:`_CATEGORY`) there."""
    if ordago:
        return RANDOM_ANSWER_ORDAGO
    return RANDOM_ANSWER if bet else RANDOM_OPEN


def _odd(rate: float, noise: float, floor: float) -> float:
    """A word «normal» would not have said, relative to one it would have: a player who
    plays «normal» but for a share ``rate`` of random words says it ``rate * noise`` of the
    time against ``1 - rate + rate * noise``; never below the surprise ``floor``."""
    mixed = rate * noise / (1.0 - rate + rate * noise) if rate < 1.0 else 1.0
    return max(floor, mixed)


class _Replay:
    """Rebuilds this hand on the engine for sampled cards and plays it out."""

    def __init__(self, view: SeatView, rates: Sequence[float] = (0.0,) * 4) -> None:
        self.rules: Rules = view.rules.with_(mus_corrido=False)
        self.rates = rates
        """Per seat, the share of its words played by :func:`random_action`."""
        self.mano = view.mano
        self.me = view.seat
        self.team = view.team
        self.target = view.target
        start = view.history[0]
        self.scores = start.scores if isinstance(start, ev.HandStarted) else view.scores
        self.said = [(e.seat, e.action) for e in view.history if isinstance(e, ev.Spoke)]
        self.o = odds(view.rules.reyes)
        self.hints = _hints(view)

    def rollout(self, hands: list[list[int]], option: Action, seed: float = 0.0) -> float:
        h = Hand(self.rules, hands, (), mano=self.mano, scores=self.scores, validate=False)
        h.apply(self.mano, NO_HAY_MUS)
        for seat, action in self.said:
            h.apply(seat, action)
        h.apply(self.me, option)
        rates = self.rates
        whims = random.Random(seed) if any(rates) else None
        while h.to_act is not None:
            seat = h.to_act
            if whims is not None and rates[seat] and whims.random() < rates[seat]:
                h.apply(seat, random_action(h.legal_actions(seat), whims))
            else:
                h.apply(seat, fast_action(h, seat, self.o, self.hints))
        if h.game_winner is not None:
            return 1.0 if h.game_winner == self.team else 0.0
        return game_value(h.scores[self.team], h.scores[1 - self.team], self.target)


def _hints(view: SeatView) -> tuple[tuple[float, ...], ...]:
    """Partners' señas as the players see them: none when señas are off or in a corrido hand."""
    rules = view.rules
    if not rules.senas or view.corrido:
        return _NO_HINTS
    return sena_hints(rules.reyes, rules.real)


_NO_HINTS: tuple[tuple[float, ...], ...] = tuple((0.0,) * 715 for _ in Lance)


def fast_action(h: Hand, seat: int, o: Odds,
                hints: tuple[tuple[float, ...], ...] = _NO_HINTS) -> Action:
    """«normal»'s betting rule straight from a simulated hand (no view, no bluffs); the partner's
    seña is the one a bot would have sent with its cards."""
    lance = h.lance
    assert lance is not None
    t = h.tables
    idx = h.idx
    mask = None
    if lance is Lance.PARES or lance is Lance.JUEGO:
        has = t.has_pares if lance is Lance.PARES else t.has_juego
        mask = has[idx[(seat + 1) % 4]] | has[idx[(seat + 2) % 4]] << 1 | \
            has[idx[(seat + 3) % 4]] << 2
    p = max(o.lance(lance, idx[seat], (seat - h.mano) % 4, mask),
            hints[lance][idx[(seat + 2) % 4]])
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
    legal = h.legal_actions(seat)
    kinds = {a.kind for a in legal}
    if action.kind in kinds:
        return action
    if action.kind is _K.MAS or action.kind is _K.ENVIDO:
        return QUIERO if _K.QUIERO in kinds else legal[0]
    if action.kind is _K.PASO and _K.NO_QUIERO in kinds:
        return NO_QUIERO
    return legal[0]
