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
game is not slipping away: against players who call órdagos lightly it loses games outright, and
an órdago's estimate is the noisiest one, so it must also beat the quiet options by a margin.

It sees only the seat's view and its señas: the engine it simulates on holds sampled cards.
The mus and the discards are level «normal»'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
from musbot.engine.senas import Sena, _shows

from . import normal
from .base import SenaSeen
from .normal import NormalBot, bet_action, hand_worth, sena_hints
from .odds import Odds, game_value, odds

_K = ActionKind
_BETS = (_K.ENVIDO, _K.MAS, _K.ORDAGO)
_CATEGORY = {_K.PASO: 0, _K.NO_QUIERO: 0, _K.QUIERO: 1, _K.ENVIDO: 2, _K.MAS: 2, _K.ORDAGO: 3}
SURPRISE = (0.12, 0.12, 0.08, 0.01)
"""Likelihood of a word the model did not expect (bluffs, other styles, people), by what was
said: pass/refuse, call, bet/raise, órdago. An unexpected órdago is the rarest thing: without
it, a thrower's cards would be guessed far too weak."""
ORDAGO_MARGIN = 0.3
"""An órdago (thrown or called) must beat the best quiet option by this share of its value: the
órdago's estimate is the noisiest of all and a mistake costs the game — but when the quiet
options are lost anyway (a refusal that hands over the game) any chance is taken."""
MUS_SURPRISE = 0.35
ORDAGO_MIN_CHANCE = 0.7
"""The pair's chance at the lance below which the bot does not throw an órdago…"""
ORDAGO_DESPERATE = 0.1
"""…unless its chance to win the game is already below this."""
SILENT_PARTNER = 0.5
"""Weight of a world where the partner holds a seña but sent none (bots usually send one)."""


@cache
def _senas_by_index(reyes: int, real: bool) -> tuple[frozenset[Sena], ...]:
    t = tables(reyes, real)
    return tuple(frozenset(s for s in Sena if (s is not Sena.REAL or real) and _shows(s, info))
                 for info in t.infos)


class DificilBot:
    """Level «dificil». Stateless between decisions apart from :attr:`stats`."""

    level = "dificil"

    def __init__(self, *, worlds: int = 96, tries: int = 1200) -> None:
        self.worlds = worlds
        """Sampled worlds per decision: the time budget (each costs one rollout per option)."""
        self.tries = tries
        self.normal = NormalBot()
        self.stats = {"decisions": 0, "bets": 0, "bluffs": 0}
        """Bets/raises made, and how many of them with under a 40 % chance at the lance."""

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
        worlds = self.sample(view, sub, senas)
        if not worlds:
            return self.normal.decide(view, rng, senas)
        base = _Replay(view)
        totals = [0.0] * len(options)
        weight = 0.0
        for hands, w in worlds:
            weight += w
            for k, option in enumerate(options):
                totals[k] += w * base.rollout(hands, option)
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

    def _may_throw_ordago(self, view: SeatView, senas: Sequence[SenaSeen]) -> bool:
        """No bluffed órdago unless the game is slipping away: the rollouts' opponents answer
        like «normal», but a player who calls órdagos lightly turns each bluff into a lost game
        (measured against «random», 1,000 games, seed 1: 77.6 % of games without this rule,
        85.7 % with it)."""
        assert view.lance is not None
        team = view.team
        stay = game_value(view.scores[team], view.scores[1 - team], view.target)
        return stay < ORDAGO_DESPERATE or \
            self.normal.chance(view, view.lance, senas) >= ORDAGO_MIN_CHANCE

    # --- worlds -------------------------------------------------------------------------------

    def sample(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> list[tuple[list[list[int]], float]]:
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
        model = _Model(view)
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

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.o: Odds = odds(view.rules.reyes)
        self.hints = _hints(view)
        self.me = view.seat
        self.mano = view.mano
        self.target = view.target
        self.decl = view.declarations
        mus_round: list[tuple[int, bool]] = []
        spoken: list[tuple[int, Lance, int, int, bool, int, int, int, bool, int]] = []
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
                team = s % 2
                later = speakers[speakers.index(s) + 1:] if s in speakers else ()
                last = not any(x % 2 == team for x in later)
                if s != self.me:
                    spoken.append((s, lance, bet, max(prev, 1), ordago, bets[1 - team],
                                   scores[team], scores[1 - team], last,
                                   _CATEGORY[event.action.kind]))
                kind = event.action.kind
                if kind in _BETS:
                    prev = bet if bet or ordago else 1
                    if kind is _K.ORDAGO:
                        ordago = True
                    else:
                        bet = event.total
                    bets[team] += 1
        self.mus_round = [(s, m) for s, m in mus_round if s != self.me]
        self.rounds = rounds
        self.spoken = spoken

    def likelihood(self, idx: list[int]) -> float:
        o = self.o
        w = 1.0
        cut = normal.CUT - 0.1 * self.rounds
        for s, said_mus in self.mus_round:
            pos = (s - self.mano) % 4
            wants_mus = hand_worth(o, idx[s], pos) < cut
            if wants_mus != said_mus:
                w *= MUS_SURPRISE
        for s, lance, bet, prev, ordago, opp_bets, mine, theirs, last, said in self.spoken:
            pos = (s - self.mano) % 4
            mask = None
            if lance is Lance.PARES or lance is Lance.JUEGO:
                d = self.decl.get(lance)
                if d is not None:
                    mask = sum(1 << (r - 1) for r in range(1, 4) if d[(s + r) % 4])
            p = max(o.lance(lance, idx[s], pos, mask), self.hints[lance][idx[(s + 2) % 4]])
            a = bet_action(lance, p, bet, prev, ordago, opp_bets, mine, theirs, self.target,
                           None, last=last)
            if _CATEGORY[a.kind] != said:
                w *= SURPRISE[said]
        return w


class _Replay:
    """Rebuilds this hand on the engine for sampled cards and plays it out."""

    def __init__(self, view: SeatView) -> None:
        self.rules: Rules = view.rules.with_(mus_corrido=False)
        self.mano = view.mano
        self.me = view.seat
        self.team = view.seat % 2
        self.target = view.target
        start = view.history[0]
        self.scores = start.scores if isinstance(start, ev.HandStarted) else view.scores
        self.said = [(e.seat, e.action) for e in view.history if isinstance(e, ev.Spoke)]
        self.o = odds(view.rules.reyes)
        self.hints = _hints(view)

    def rollout(self, hands: list[list[int]], option: Action) -> float:
        h = Hand(self.rules, hands, (), mano=self.mano, scores=self.scores, validate=False)
        h.apply(self.mano, NO_HAY_MUS)
        for seat, action in self.said:
            h.apply(seat, action)
        h.apply(self.me, option)
        while h.to_act is not None:
            seat = h.to_act
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
    team = seat % 2
    totals: list[int] = []
    opp = 0
    speakers: tuple[int, ...] = ()
    for event in reversed(h.events):
        if isinstance(event, ev.LanceStarted):
            speakers = event.speakers
            break
        if isinstance(event, ev.Spoke) and event.action.kind in _BETS:
            totals.append(event.total)
            if event.seat % 2 != team:
                opp += 1
    prev = max(totals[1], 1) if len(totals) >= 2 else 1
    later = speakers[speakers.index(seat) + 1:] if seat in speakers else ()
    last = not any(x % 2 == team for x in later)
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
