"""A family of opponents drawn at random, for ``musbot bench ai --b family:held-out``.

«dificil» was tuned against our own bots and the three styles of :mod:`.styles`; against players
written elsewhere it did no better than «normal» (issue #48). A level is judged here against
players it has never met: each member of a family is a rule-based player whose every parameter
is drawn from a seeded generator — when it cuts the mus and what it keeps at the discard, how it
judges its strength (the odds tables, or the hand's rank among all hands), how much it believes
the others' bets, the strengths from which it opens, calls, raises and goes to órdago, how often
it bluffs each of these, how big its envites are, whether it throws órdagos early, late, only
when behind or at any time, from what strength it accepts one, how it plays when the others are
nearly home, and how often it sends señas.

Two families come from the same generator with disjoint seeds: **tuned**, the one a level's
constants may be tuned on, and **held-out**, never tuned on, which the closing figures of a
change are reported against (at a game seed never tuned on either). A game of the bench draws
its two opponents from the family by the game's seed and duplicate: both games of a duplicate
meet the same two players, each seat its own (:func:`member_key`).

They are benchmark opponents, not table levels (:func:`musbot.ai.arena.bench_levels`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from musbot.engine import (
    MUS,
    NO_HAY_MUS,
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
from musbot.engine.cards import rank
from musbot.engine.evaluation import AS, CINCO, REY, rank_class
from musbot.engine.senas import Sena, senas_posibles

from .base import SENA_PRIORITY, SenaSeen
from .normal import HINTS, NormalBot, hand_worth, lance_state
from .odds import odds
from .strength import percentiles

_K = ActionKind

FAMILIES = ("tuned", "held-out")
"""The families a bench may name (``family:tuned``, ``family:held-out``)."""
TIMINGS = ("any", "early", "late", "behind")
"""When a member throws órdagos: at any score, only while both pairs are far from the target,
only once one of them is near it, or only while its pair is behind."""
DISCARDS = ("normal", "reyes", "pairs")
"""How a member discards: «normal»'s (the best expected hand after the draw), keeping reyes and
pairs (ases too with a chica hand), or keeping pairs alone."""


@dataclass(frozen=True, slots=True)
class Params:
    """One member's play: every threshold is a strength, the pair's chance at the lance as the
    member judges it (see :attr:`judge`)."""

    mus: str
    """How it judges its hand at the mus: «worth», «normal»'s yardstick
    (:func:`~musbot.ai.normal.hand_worth`, «normal» cuts from 2.6); «rank», its best lance's
    rank among all hands, position ignored (:func:`~musbot.ai.strength.percentiles`), as
    :attr:`cut` / 4."""
    cut: float
    """Cuts the mus from this worth, lowered by ``cut_tired`` for each mus round already
    played."""
    cut_tired: float
    discard: str
    """One of :data:`DISCARDS`."""
    discard_noise: float
    """Chance of throwing one card more (or another one) than its rule says."""
    judge: str
    """«odds»: the pair's chance from the tables, position and declarations (as «normal»);
    «rank»: the hand's rank among all hands, position and declarations ignored."""
    noise: float
    """Spread of a uniform error added to its strength at each decision."""
    believe: float
    """How much an opponent's bet lowers its strength: ``p ** (1 + believe × bets)``
    («normal» 1.7; 0 takes no notice)."""
    open: float
    open_last: float
    """Lowered opening threshold when nobody of its pair speaks after it."""
    slowplay: float
    """Chance of passing a hand it would open with while its partner or an opponent still
    speaks after it (and then raising a bet from the others, if it is that strong)."""
    bluff: float
    """Chance of opening with an envido below :attr:`open`."""
    big: float
    """Chance that an opening bet or a raise (with the goods) is 3 to 6 tantos rather than 2."""
    call: float
    call_slope: float
    """The call threshold rises by this much per tanto of the standing bet."""
    raise_: float
    raise_bluff: float
    raise_cap: int
    """Never raises a bet standing at this many tantos or more."""
    ordago: float
    ordago_bluff: float
    timing: str
    """One of :data:`TIMINGS`."""
    accept: float
    desperate: float
    """How much lower every threshold is when the opponents are dentro and ahead (the game is
    slipping away)."""
    senas: float
    """Chance of sending a seña when the hand shows one."""

    def describe(self) -> str:
        """One line, for the bench's verbose output and a failing test."""
        return ", ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in asdict(self).items())


def draw(rng: random.Random) -> Params:
    """A member: each parameter uniform over a range wide enough to hold careful and reckless
    players, cheap bluffers and callers of everything."""
    u = rng.uniform
    call = u(0.3, 0.85)
    ordago = rng.choice((u(0.85, 0.99), u(0.93, 1.0), 1.01))  # 1.01: never with the goods
    return Params(
        mus=rng.choice(("worth", "worth", "rank")), cut=u(1.9, 3.4), cut_tired=u(0.0, 0.25),
        discard=rng.choice(DISCARDS), discard_noise=rng.choice((0.0, u(0.0, 0.3))),
        judge=rng.choice(("odds", "odds", "rank")), noise=u(0.0, 0.15),
        believe=rng.choice((0.0, u(0.3, 2.5), u(0.3, 2.5))),
        open=u(0.45, 0.92), open_last=u(0.0, 0.12),
        slowplay=rng.choice((0.0, 0.0, u(0.0, 0.6))), bluff=rng.choice((0.0, u(0.0, 0.35))),
        big=u(0.0, 0.6),
        call=call, call_slope=u(0.0, 0.03),
        raise_=u(min(call + 0.05, 0.97), 0.99), raise_bluff=rng.choice((0.0, u(0.0, 0.2))),
        raise_cap=rng.choice((6, 10, 14, 30)),
        ordago=ordago, ordago_bluff=rng.choice((0.0, 0.0, u(0.0, 0.08))),
        timing=rng.choice(TIMINGS),
        accept=u(0.45, 0.97), desperate=rng.choice((0.0, u(0.0, 0.3))),
        senas=rng.choice((0.0, u(0.3, 1.0), 1.0)),
    )


def params(family: str, member: str) -> Params:
    """The parameters of one member of a family; ``KeyError`` for an unknown family."""
    if family not in FAMILIES:
        raise KeyError(family)
    return draw(random.Random(f"musbot-family:{family}:{member}"))


def member_key(seed: int, index: int, seat: int, rules_team: Callable[[int], int]) -> str:
    """Which member sits at ``seat`` in game ``index`` of a bench at ``seed``: the same two
    members (first and second seat of their pair) in both games of a duplicate."""
    mates = [s for s in range(4) if rules_team(s) == rules_team(seat)]
    return f"{seed}:{index // 2}:{mates.index(seat)}"


class FamilyBot:
    """One member of a family. Stateless between decisions: one instance plays one seat."""

    def __init__(self, level: str, p: Params) -> None:
        self.level = level
        self.p = p
        self.normal = NormalBot()

    # --- the Player protocol ------------------------------------------------------------------

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        if not view.legal:
            raise ValueError("decide() called when the seat has nothing to do")
        if view.players != 4:
            return self.normal.decide(view, rng, senas)
        if view.phase == "mus":
            return self._mus(view)
        if view.phase == "descarte":
            return self._discard(view, rng)
        if view.phase == "lance" and view.lance is not None:
            return _legal(view, self._bet(view, rng, senas))
        return view.legal[0]

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        shown = set(senas_posibles(view.cards, view.rules))
        if not shown or rng.random() >= self.p.senas:
            return []
        for sena in SENA_PRIORITY:
            if sena in shown and sena is not Sena.CIEGO:
                return [sena]
        return []

    # --- mus and discards ---------------------------------------------------------------------

    def _mus(self, view: SeatView) -> Action:
        idx = tables(view.rules.reyes, False).index(view.cards)
        if self.p.mus == "worth":
            worth = hand_worth(odds(view.rules.reyes), idx, (view.seat - view.mano) % 4)
        else:
            pct = percentiles(view.rules.reyes, False)
            worth = 4 * max(pct[Lance.GRANDE][idx], pct[Lance.CHICA][idx] - 0.05,
                            pct[Lance.PARES][idx], pct[Lance.JUEGO][idx])
        cut = self.p.cut - self.p.cut_tired * len(view.discards)
        return NO_HAY_MUS if worth >= cut else MUS

    def _discard(self, view: SeatView, rng: random.Random) -> Action:
        p = self.p
        if p.discard == "normal":
            choice = self.normal.discard(view)
            drop = list(choice.cards)
        else:
            reyes = view.rules.reyes
            hand = list(view.cards)
            cls = {c: rank_class(rank(c), reyes) for c in hand}
            counts = Counter(cls.values())
            if p.discard == "pairs":
                keep = [c for c in hand if counts[cls[c]] >= 2]
            elif counts[AS] >= 2 and counts[REY] == 0:
                keep = [c for c in hand if cls[c] <= CINCO or counts[cls[c]] >= 2]
            else:
                keep = [c for c in hand if cls[c] == REY or counts[cls[c]] >= 2]
            drop = [c for c in hand if c not in keep]
            if not drop:
                singles = [c for c in hand if counts[cls[c]] == 1] or hand
                drop = [min(singles, key=lambda c: cls[c])]
        if p.discard_noise and rng.random() < p.discard_noise:
            kept = [c for c in view.cards if c not in drop]
            if kept and (len(drop) == 1 or rng.random() < 0.5):
                drop.append(rng.choice(kept))
            elif len(drop) > 1:
                drop.remove(rng.choice(drop))
        wanted = set(drop)
        for action in view.legal:
            if action.kind is _K.DESCARTE and set(action.cards) == wanted:
                return action
        return view.legal[0]

    # --- betting ------------------------------------------------------------------------------

    def strength(self, view: SeatView, lance: Lance, senas: Sequence[SenaSeen]) -> float:
        """The pair's chance at the lance as this member judges it, before noise and bets."""
        if self.p.judge == "odds":
            return self.normal.chance(view, lance, senas)
        t = tables(view.rules.reyes, view.rules.real)
        s = percentiles(view.rules.reyes, view.rules.real)[lance][t.index(view.cards)]
        for seen in senas:
            if seen.partner:
                s = max(s, HINTS.get(seen.sena, {}).get(lance, 0.0))
        return s

    def _bet(self, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen]) -> Action:
        p = self.p
        lance = view.lance
        assert lance is not None
        s = self.strength(view, lance, senas)
        if p.noise:
            s = min(1.0, max(0.0, s + rng.uniform(-p.noise, p.noise)))
        info = lance_state(view)
        if p.believe and info.opp_bets:
            s = s ** (1.0 + p.believe * info.opp_bets)
        team = view.team
        mine, theirs = view.scores[team], view.scores[1 - team]
        if p.desperate and theirs >= view.target - 5 and theirs > mine:
            s = min(1.0, s + p.desperate)
        if view.ordago:
            return QUIERO if s >= p.accept else NO_QUIERO
        if self._ordago_time(mine, theirs, view.target) and \
                (s >= p.ordago or rng.random() < p.ordago_bluff):
            return ORDAGO
        if view.bet == 0:
            if s >= p.open - (p.open_last if info.last else 0.0):
                later = bool(view.speakers) and view.speakers[-1] != view.seat
                if later and p.slowplay and rng.random() < p.slowplay:
                    return PASO
                return envido(rng.randint(3, 6)) if rng.random() < p.big else envido(2)
            return envido(2) if rng.random() < p.bluff else PASO
        call = p.call + p.call_slope * view.bet
        if view.bet < p.raise_cap and s >= p.raise_:
            return mas(rng.randint(3, 6)) if rng.random() < p.big else mas(2)
        if s >= call:
            return QUIERO
        if view.bet < p.raise_cap and rng.random() < p.raise_bluff:
            return mas(2)
        return NO_QUIERO

    def _ordago_time(self, mine: int, theirs: int, target: int) -> bool:
        timing = self.p.timing
        if timing == "early":
            return max(mine, theirs) < target // 2
        if timing == "late":
            return max(mine, theirs) >= target - 15
        if timing == "behind":
            return mine < theirs
        return True


def _legal(view: SeatView, action: Action) -> Action:
    """The member's word if the engine takes it now, else the nearest one."""
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


def member(family: str, key: str) -> FamilyBot:
    """The player of one member of a family (``key``: :func:`member_key`)."""
    return FamilyBot(f"family:{family}", params(family, key))


def family_levels() -> dict[str, Callable[[], FamilyBot]]:
    """``family:NAME`` → a factory of the family's first member, for the benchmark's list of
    levels (the arena seats each game's own members, :func:`member_key`)."""
    return {f"family:{name}": (lambda name=name: member(name, "0")) for name in FAMILIES}


__all__ = ["DISCARDS", "FAMILIES", "TIMINGS", "FamilyBot", "Params", "draw", "family_levels",
           "member", "member_key", "params"]
