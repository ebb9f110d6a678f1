"""Level «normal»: decisions from precomputed lance odds, pot odds and the score.

Every decision is a handful of table reads (:mod:`musbot.ai.odds`): the pair's chance at the lance
for this hand, seat position and the others' declarations, discounted for each bet the opponents
made (a bet says they are strong), then compared with what a call or a refusal is worth in
*games*, not tantos (:func:`musbot.ai.odds.game_value`). Near the target the tanteo's order
decides games — Grande, then Chica, Pares, Juego/Punto — so :func:`race` plays the hand's pending
lances out in that order, and an órdago is thrown or called when it beats that.

The betting core (:func:`bet_action`) takes plain numbers, so level «dificil» reuses it as its
model of the other players and as its fast rollout policy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from musbot.engine import (
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    Card,
    Lance,
    SeatView,
    envido,
    mas,
    tables,
)
from musbot.engine import events as ev
from musbot.engine.cards import RANKS, rank
from musbot.engine.evaluation import rank_class
from musbot.engine.senas import Sena, senas_posibles

from .base import SENA_PRIORITY, SenaSeen
from .odds import Odds, game_value, odds
from .strength import percentiles

_K = ActionKind

# A partner's seña as the pair's chance at a lance (a floor under the hand's own odds).
HINTS: dict[Sena, dict[Lance, float]] = {
    Sena.DOS_REYES: {Lance.GRANDE: 0.72, Lance.PARES: 0.5},
    Sena.TRES_REYES: {Lance.GRANDE: 0.9, Lance.PARES: 0.8},
    Sena.SOLOMILLO: {Lance.GRANDE: 0.9, Lance.PARES: 0.8, Lance.JUEGO: 0.85},
    Sena.DOS_ASES: {Lance.CHICA: 0.72, Lance.PARES: 0.3},
    Sena.TRES_ASES: {Lance.CHICA: 0.9, Lance.PARES: 0.55},
    Sena.MEDIAS: {Lance.PARES: 0.7},
    Sena.DUPLES: {Lance.PARES: 0.88},
    Sena.TREINTA_Y_UNA: {Lance.JUEGO: 0.85},
    Sena.REAL: {Lance.JUEGO: 1.0},
    Sena.TREINTA: {Lance.PUNTO: 0.85},
}

# What a lance usually pays the winner en paso (bases are summed over the pair). The constants
# below were tuned on ``musbot bench ai`` against «facil» (seeds other than the reported ones).
EN_PASO = {Lance.GRANDE: 1.0, Lance.CHICA: 1.0, Lance.PARES: 1.5, Lance.JUEGO: 2.5,
           Lance.PUNTO: 1.0}
# Mus-phase worth of each lance's chance: bigger stakes for pares and juego.
MUS_WEIGHTS = (1.0, 0.8, 1.6, 2.0)

OPP_BET_SHIFT = 1.7
"""Each opponent bet turns a chance p into p ** (1 + shift): a bettor is rarely weak."""
OPEN = 0.64
"""Chance from which to open a lance with an envido (``OPEN_LAST`` for a pair's last word)."""
OPEN_LAST = 0.56
RAISE = 0.8
"""Chance (after the discount) from which to raise a standing bet."""
BIG = 0.7
"""From this chance, half the openings are bigger envites, 3 to ``BIG_MAX``."""
BIG_MAX = 8
ORDAGO_STRONG = 0.97
"""Chance from which to throw the órdago while the game is not already well in hand."""
DESPERATE = 0.1
"""Below this chance to win the game, an órdago on a fair lance chance is worth the risk."""
DESPERATE_EDGE = 0.25
ORDAGO_CALL_SHIFT = 5.0
"""An órdago says more than a bet: the discount per opponent bet when answering one."""
CUT = 2.6
""":func:`hand_worth` from which to cut the mus."""


@cache
def sena_hints(reyes: int, real: bool) -> tuple[tuple[float, ...], ...]:
    """``[lance][hand index]``: what a partner holding that hand tells with the seña a bot sends
    (the first of :data:`SENA_PRIORITY` it shows) — how «dificil» models the others' señas."""
    from musbot.engine.senas import shows

    t = tables(reyes, real)
    out = []
    for lance in Lance:
        row = []
        for info in t.infos:
            sena = next((s for s in SENA_PRIORITY if s is not Sena.CIEGO
                         and (s is not Sena.REAL or real) and shows(s, info)), None)
            row.append(HINTS.get(sena, {}).get(lance, 0.0) if sena is not None else 0.0)
        out.append(tuple(row))
    return tuple(out)


def discount(p: float, opp_bets: int) -> float:
    return p ** (1.0 + OPP_BET_SHIFT * opp_bets) if opp_bets else p


def bet_action(lance: Lance, p: float, bet: int, prev: int, ordago: bool, opp_bets: int,
               mine: int, theirs: int, target: int, rng: random.Random | None, *,
               last: bool = False, stay: float | None = None, bluff: float = 0.04) -> Action:
    """Normal's betting rule. ``p`` is the pair's chance before discounting for ``opp_bets``;
    ``prev`` is what a refusal pays now; ``stay`` the chance to win the game without an órdago
    (the score's value if None). Deterministic when ``rng`` is None (no bluffs, size 2)."""
    q = discount(p, opp_bets)
    if stay is None:
        stay = game_value(mine, theirs, target)
    if ordago:
        # Refusing pays them ``prev`` now; accepting is the game on this lance.
        refuse = game_value(mine, theirs + prev, target)
        q = p ** (1.0 + ORDAGO_CALL_SHIFT * opp_bets)
        return QUIERO if refuse < 0.001 or q >= refuse + 0.02 else NO_QUIERO
    # An órdago is right when the lance is likelier to win than the game is otherwise.
    if (q >= ORDAGO_STRONG and stay < 0.7) or (
            stay < DESPERATE and q >= max(stay + DESPERATE_EDGE, 0.55)):
        return ORDAGO
    if bet == 0:
        need = OPEN if not last else OPEN_LAST
        if q >= need:
            if rng is not None and q >= BIG and rng.random() < 0.5:
                return envido(rng.randint(3, BIG_MAX))
            return envido(2)
        if rng is not None and rng.random() < bluff * (2 if last else 1):
            return envido(2)
        return PASO
    win = game_value(mine + bet, theirs, target)
    lose = game_value(mine, theirs + bet, target)
    refuse = game_value(mine, theirs + prev, target)
    call = q * win + (1 - q) * lose
    if q >= RAISE and bet < 12:
        return mas(2)
    return QUIERO if call >= refuse else NO_QUIERO


def race(mine: int, theirs: int, target: int,
         lances: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    """Plays the hand's pending scores out in tanteo order: each item is (our chance, tantos if
    we win it, tantos if they do). Returns (we reach the target first, they do) — lances taken
    as independent, which is what makes a 1-tanto Grande matter when both pairs are dentro."""
    first = [0.0, 0.0]

    def walk(i: int, a: float, b: float, pr: float) -> None:
        if pr < 1e-4:
            return
        if a >= target:
            first[0] += pr
            return
        if b >= target:
            first[1] += pr
            return
        if i == len(lances):
            return
        p, win, lose = lances[i]
        walk(i + 1, a + win, b, pr * p)
        walk(i + 1, a, b + lose, pr * (1 - p))

    walk(0, float(mine), float(theirs), 1.0)
    return first[0], first[1]


class NormalBot:
    """Level «normal». Stateless: one instance may play any seat."""

    level = "normal"

    def __init__(self, *, bluff: float = 0.04) -> None:
        self.bluff = bluff

    # --- the Player protocol ------------------------------------------------------------------

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("decide() called when the seat has nothing to do")
        if view.phase == "mus":
            return self.mus(view)
        if view.phase == "descarte":
            return self.discard(view)
        if view.phase == "lance" and view.lance is not None:
            return self.bet(view, rng, senas)
        return legal[0]

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        shown = set(senas_posibles(view.cards, view.rules))
        for sena in SENA_PRIORITY:
            if sena in shown and sena is not Sena.CIEGO:
                return [sena]
        return []

    # --- odds ---------------------------------------------------------------------------------

    def chance(self, view: SeatView, lance: Lance, senas: Sequence[SenaSeen] = ()) -> float:
        """The pair's chance at ``lance`` from this seat's view."""
        p = seat_chance(view, lance)
        for seen in senas:
            if seen.partner:
                p = max(p, HINTS.get(seen.sena, {}).get(lance, 0.0))
        return p

    # --- mus and discards ---------------------------------------------------------------------

    def mus(self, view: SeatView) -> Action:
        if view.players != 4:
            return _fallback_mus(view)
        o = odds(view.rules.reyes)
        idx = tables(view.rules.reyes, False).index(view.cards)
        pos = (view.seat - view.mano) % view.players
        worth = hand_worth(o, idx, pos)
        # Later mus rounds have been paid for: cut more easily.
        return NO_HAY_MUS if worth >= CUT - 0.1 * len(view.discards) else MUS

    def discard(self, view: SeatView) -> Action:
        pos = 0 if view.players != 4 else (view.seat - view.mano) % view.players
        values = keep_values(view.rules.reyes, pos)
        reyes = view.rules.reyes
        best = view.legal[0]
        best_v = -1.0
        for action in view.legal:
            v = kept_worth(values, view.cards, action.cards, reyes)
            if v > best_v:
                best, best_v = action, v
        return best

    # --- betting ------------------------------------------------------------------------------

    def bet(self, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen]) -> Action:
        lance = view.lance
        assert lance is not None
        p = self.chance(view, lance, senas)
        info = lance_state(view)
        team = view.team
        mine, theirs = view.scores[team], view.scores[1 - team]
        stay = None
        if theirs >= view.target - 10 or mine >= view.target - 10:
            stay = race_value(view, senas)
        action = bet_action(lance, p, view.bet, info.prev, view.ordago, info.opp_bets, mine,
                            theirs, view.target, rng, last=info.last, stay=stay,
                            bluff=self.bluff)
        return _legalise(view, action)


# --- reading the view ---------------------------------------------------------------------------


class LanceState:
    """What the current lance's history says: bets by each side and what a refusal pays."""

    __slots__ = ("last", "my_bets", "opp_bets", "prev")

    def __init__(self, prev: int, opp_bets: int, my_bets: int, last: bool) -> None:
        self.prev = prev
        self.opp_bets = opp_bets
        self.my_bets = my_bets
        self.last = last


def lance_state(view: SeatView) -> LanceState:
    team = view.team
    opp = mine = 0
    totals: list[int] = []
    for event in reversed(view.history):
        if isinstance(event, ev.LanceStarted):
            break
        if isinstance(event, ev.Spoke) and event.action.kind in (_K.ENVIDO, _K.MAS, _K.ORDAGO):
            totals.append(event.total)
            if view.rules.team(event.seat) == team:
                mine += 1
            else:
                opp += 1
    # totals run newest first: a refusal pays the total before the last bet, or 1.
    prev = totals[1] if len(totals) >= 2 else 1
    prev = max(prev, 1)
    speakers = view.speakers
    mates_after = [s for s in speakers[speakers.index(view.seat) + 1:] if s in view.partners] \
        if view.seat in speakers else []
    return LanceState(prev, opp, mine, not mates_after)


def declaration_mask(view: SeatView, lance: Lance) -> int | None:
    decl = view.declarations.get(lance)
    if decl is None:
        return None
    n = view.players
    return sum(1 << (r - 1) for r in range(1, 4) if decl[(view.seat + r) % n])


def seat_chance(view: SeatView, lance: Lance) -> float:
    """The pair's chance at ``lance`` from the tables (4 players) or percentiles (others)."""
    reyes = view.rules.reyes
    t = tables(reyes, False)
    idx = t.index(view.cards)
    if view.players != 4:
        q = percentiles(reyes, view.rules.real)[lance][idx]
        opponents = view.players // 2
        return q ** opponents
    pos = (view.seat - view.mano) % 4
    mask = declaration_mask(view, lance) if lance in (Lance.PARES, Lance.JUEGO) else None
    return odds(reyes).lance(lance, idx, pos, mask)


def race_value(view: SeatView, senas: Sequence[SenaSeen]) -> float:
    """Chance to win the game if this lance ends quietly: the hand's pending lances played out in
    tanteo order (:func:`race`), then the score's value for whatever is left."""
    team = view.team
    mine, theirs = view.scores[team], view.scores[1 - team]
    results: dict[Lance, tuple[str, int]] = {}
    for event in view.history:
        if isinstance(event, ev.LanceEnded):
            results[event.lance] = (event.outcome, event.tantos)
        elif isinstance(event, ev.LanceWithoutBetting):
            results[event.lance] = ("sin", -1 if event.team is None else event.team)
    items: list[tuple[float, float, float]] = []
    if view.players != 4:
        return game_value(mine, theirs, view.target)
    juego_known = Lance.JUEGO in view.declarations
    anyone_juego = juego_known and any(view.declarations[Lance.JUEGO])
    for lance in (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO):
        if lance is Lance.JUEGO and juego_known and not anyone_juego:
            lance = Lance.PUNTO
        outcome, tantos = results.get(lance, ("", 0))
        if outcome == "deje":
            if lance is Lance.PUNTO or lance in (Lance.PARES, Lance.JUEGO):
                base = EN_PASO[lance]
                items.append((1.0 if _deje_mine(view, lance) else 0.0, base, base))
            continue
        if outcome == "sin":
            base = EN_PASO[lance]
            items.append((1.0 if tantos == team else 0.0, base, base))
            continue
        if outcome == "nadie":
            continue
        p = seat_chance(view, lance)
        for seen in senas:
            if seen.partner:
                p = max(p, HINTS.get(seen.sena, {}).get(lance, 0.0))
        stake = EN_PASO[lance]
        if outcome == "querido":
            stake += tantos
        items.append((p, stake, stake))
    first, second = race(mine, theirs, view.target, items)
    rest = 1.0 - first - second
    return first + rest * game_value(mine + 3, theirs + 3, view.target)


def _deje_mine(view: SeatView, lance: Lance) -> bool:
    for event in view.history:
        if isinstance(event, ev.LanceEnded) and event.lance is lance:
            return event.team == view.team
    return False


def _legalise(view: SeatView, action: Action) -> Action:
    """The rule's action if legal now, else the nearest legal one (a raise becomes a call)."""
    kinds = {a.kind for a in view.legal}
    if action.kind in kinds or (action.kind is _K.MAS and _K.MAS in kinds):
        return action
    if action.kind is _K.PASO and _K.NO_QUIERO in kinds:
        return NO_QUIERO
    if action.kind in (_K.MAS, _K.ENVIDO) and _K.QUIERO in kinds:
        return QUIERO
    return view.legal[0]


def _fallback_mus(view: SeatView) -> Action:
    t = tables(view.rules.reyes, view.rules.real)
    pct = percentiles(view.rules.reyes, view.rules.real)
    idx = t.index(view.cards)
    score = max(pct[Lance.GRANDE][idx], pct[Lance.PARES][idx], pct[Lance.CHICA][idx] - 0.05)
    return NO_HAY_MUS if score >= 0.85 else MUS


# --- what a hand is worth before the lances -----------------------------------------------------


def hand_worth(o: Odds, idx: int, pos: int) -> float:
    """The mus phase's yardstick: expected lance wins weighted by what each lance pays."""
    w = MUS_WEIGHTS
    return (w[0] * o.grande[idx][pos] + w[1] * o.chica[idx][pos]
            + w[2] * o.pares_any[idx][pos] + w[3] * o.juego_any[idx][pos])


def kept_worth(values: dict[tuple[int, ...], float], cards: Sequence[Card],
               thrown: Sequence[Card], reyes: int) -> float:
    """What keeping ``cards`` but ``thrown`` is worth (``values``: :func:`keep_values`)."""
    keep = tuple(sorted((rank_class(rank(c), reyes) for c in cards if c not in thrown),
                        reverse=True))
    return values.get(keep, 0.0)


@cache
def keep_values(reyes: int, pos: int) -> dict[tuple[int, ...], float]:
    """For every multiset of kept rank classes (0–3 cards, high to low), the expected
    :func:`hand_worth` after drawing the rest from a full deck: the discard picks the best."""
    t = tables(reyes, False)
    o = odds(reyes)
    per_class = [0] * 10
    for printed in RANKS:
        per_class[rank_class(printed, reyes)] += 4
    classes = [c for c in range(10) if per_class[c]]
    worth = [hand_worth(o, i, pos) for i in range(len(t.infos))]
    out: dict[tuple[int, ...], float] = {}
    for k in range(4):
        for keep in combinations_with_replacement(classes, k):
            left = list(per_class)
            for c in keep:
                left[c] -= 1
            if min(left) < 0:
                continue
            total = 0.0
            weight_sum = 0.0
            for draw in combinations_with_replacement(classes, 4 - k):
                w = 1.0
                counts: dict[int, int] = {}
                for c in draw:
                    counts[c] = counts.get(c, 0) + 1
                for c, n in counts.items():
                    w *= _comb(left[c], n)
                if not w:
                    continue
                key = sum(1 << (4 * c) for c in keep + draw)
                total += w * worth[t.index_of[key]]
                weight_sum += w
            out[tuple(sorted(keep, reverse=True))] = total / weight_sum if weight_sum else 0.0
    return out


def _comb(n: int, k: int) -> float:
    from math import comb

    return float(comb(n, k)) if 0 <= k <= n else 0.0
