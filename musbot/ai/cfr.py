"""A robust reference for the betting: CFR+ self-play on an abstract lance (issue #48).

«dificil» plays each table as it reads it; the question issue #48 asks is how exploitable that
is before the table has read anybody. This module solves, by counterfactual regret minimisation
(CFR+, as the Rust musolver does on the betting), an abstraction of one lance and measures how
much a single seat gains by its best answer — to the solution, and to «normal»'s rule played in
the same abstraction: ``python -m musbot.ai.cfr`` prints both (tantos per deal) and writes the
solution to ``--out`` (JSON, gzipped).

**The abstraction.** A *spot* is a lance and the positions (from the mano, 0–3) that speak in it:
all four at Grande, Chica and Punto, those who declared at Pares and Juego (public). Each speaker
knows only the band (:data:`BANDS`, the readings' own) of its strength: its pair's chance at the
lance from the odds tables, its position and the declarations, as «normal» and the readings judge
it. The bands' joint chances, each pair's chance to win the lance and the base values it would
score come from :data:`DEALS` random deals. The betting follows docs/rules.md §4 with the words the
readings count (pass or refuse, call, bet or raise by 2), raises capped at :data:`RAISES`; a lance
pays in tantos as §5 scores it.

**What was measured** (8 reyes, 1,500,000 deals, 600 iterations): a seat's best answer gains
0.0075 tantos per deal against the solution, 0.97 against «normal»'s rule. «dificil» does not
play by it. Five ways of leaning on it against players the table has not read were measured,
win rates against the tuned family of :mod:`.family` (paired deals, seeds 104 and 105) and
against «normal» (seeds 104 and 106), before → after, and each lost or did nothing:

- its words drawn from the solution's shares reweighed by ``exp(value / 0.02)``: family 80.0 →
  78.0 % (400 games), «normal» 74.7 → 66.0 % (300);
- the opponents of its rollouts playing the solution: 80.0 → 72.5 %, 74.7 → 59.7 %;
- every word's value blended with the solution's: 80.0 → 75.5 %; with the solution's answers
  to its bets alone 80.0 → 78.0 %, 74.7 → 69.0 %;
- its bluffs cut to the solution's rate: 80.0 → 74.8 %, 74.7 → 67.7 %;
- its bets checked against the solution's answers: 80.9 → 80.2 % (1,200 games), 74.4 → 73.3 %
  (900); with the big envite of :data:`~musbot.ai.dificil.BIG_BET`, 80.4 → 78.1 % (800),
  75.0 → 71.7 % (600).

The abstraction (a lance alone, strength bands, no señas, no score) is too coarse a model of
how players bet: its mano hardly ever opens, its weakest band bluffs a quarter of the time.
With órdagos in it (``--ordagos``, an accepted one worth :data:`STAKE` tantos) its players
answer a bet with an órdago as often as with a call, further still from anyone's play.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from musbot.engine import ActionKind, Lance, Rules, tables
from musbot.engine.cards import DECK

from .odds import odds

TEAM_0_SEATS = np.array([seat for seat in range(4) if Rules.team(seat) == 0])
"""The abstract table's seats of the first pair (its mano's side)."""

VERSION = 1
BANDS = (0.3, 0.5, 0.65, 0.8, 0.9, 0.95, 0.98)
"""The readings' strength bands (:data:`musbot.ai.reading.BANDS`)."""
NB = len(BANDS) + 1
_K = ActionKind
LETTER = {_K.PASO: "p", _K.NO_QUIERO: "p", _K.QUIERO: "q", _K.ENVIDO: "b", _K.MAS: "b",
          _K.ORDAGO: "o"}
"""A betting word's letter in a spot's history («0p1b2q»: position and letter)."""

ABSENT = NB
"""The band of a position that does not speak in the spot."""
RAISES = 2
"""Raises of 2 more after the first envido before only calls and refusals are left."""
ORDAGOS = False
"""Whether the abstraction has órdagos (see the module's docstring)."""
STAKE = 15.0
"""An accepted órdago in tantos: the game at even scores is worth 13 to 18 tantos to either pair
(:func:`~musbot.ai.odds.game_value` at 0–0 to 20–20)."""
DEALS = 1_500_000
ITERATIONS = 600
SEED = 48

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


# --- the betting tree --------------------------------------------------------------------------


@dataclass(slots=True)
class Node:
    """A point of a spot's betting: a decision (``pos`` ≥ 0) or the lance's end."""

    history: str
    """Each word so far as its speaker's position and letter («0p1b2q»)."""
    pos: int = -1
    words: str = ""
    children: tuple[Node, ...] = ()
    end: tuple[str, int, int] = ("", 0, 0)
    """At an end: («paso», 0, 0), («called», bet, 0), («deje», winning team, what it pays),
    («ordago», 0, 0)."""
    situation: int = 0
    """0 no bet standing, 1 a bet standing, 2 an órdago standing (the readings' situations)."""


def tree(present: Sequence[int], ordagos: bool = False) -> Node:
    """The betting of one spot, by docs/rules.md §4: an opening round in playing order, then the
    other pair's eligible players answer the standing bet in order after the bettor, one's
    refusal passing the word to the partner and eliminating the refuser. Without ``ordagos``
    nobody may go to órdago (see :data:`ORDAGOS`)."""
    order = sorted(present)

    def after(team: int, start: int, out: frozenset[int]) -> list[int]:
        return [q for q in ((start + k) % 4 for k in range(1, 5))
                if q in order and Rules.team(q) == team and q not in out]

    def opening(i: int, hist: str) -> Node:
        if i == len(order):
            return Node(hist, end=("paso", 0, 0))
        pos = order[i]
        kids = [opening(i + 1, hist + f"{pos}p"),
                answer(pos, 2, 1, 0, frozenset(), hist + f"{pos}b", None)]
        if ordagos:
            kids.append(ordago(pos, 1, frozenset(), hist + f"{pos}o", None))
        return Node(hist, pos, "pbo"[:len(kids)], tuple(kids), situation=0)

    def answer(bettor: int, bet: int, prev: int, raises: int, out: frozenset[int], hist: str,
               queue: list[int] | None) -> Node:
        queue = after(1 - Rules.team(bettor), bettor, out) if queue is None else queue
        if not queue:
            return Node(hist, end=("deje", Rules.team(bettor), prev))
        pos, rest = queue[0], queue[1:]
        refuse = answer(bettor, bet, prev, raises, out | {pos}, hist + f"{pos}p", rest)
        call = Node(hist + f"{pos}q", end=("called", bet, 0))
        kids = [refuse, call]
        words = "pq"
        if raises < RAISES:
            kids.append(answer(pos, bet + 2, bet, raises + 1, out, hist + f"{pos}b", None))
            words += "b"
        if ordagos:
            kids.append(ordago(pos, bet, out, hist + f"{pos}o", None))
            words += "o"
        return Node(hist, pos, words, tuple(kids), situation=1)

    def ordago(bettor: int, prev: int, out: frozenset[int], hist: str,
               queue: list[int] | None) -> Node:
        queue = after(1 - Rules.team(bettor), bettor, out) if queue is None else queue
        if not queue:
            return Node(hist, end=("deje", Rules.team(bettor), prev))
        pos, rest = queue[0], queue[1:]
        kids = (ordago(bettor, prev, out | {pos}, hist + f"{pos}p", rest),
                Node(hist + f"{pos}q", end=("ordago", 0, 0)))
        return Node(hist, pos, "pq", kids, situation=2)

    return opening(0, "")


def walk(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children:
        yield from walk(child)


# --- the deals -------------------------------------------------------------------------------


@dataclass(slots=True)
class Spot:
    """One spot's chance side: the band combinations met and what each pays."""

    lance: Lance
    present: tuple[int, ...]
    bands: IntArray
    """``[combination, position]``: each position's band (:data:`ABSENT` if silent)."""
    prob: FloatArray
    """Each combination's share of all deals."""
    win: FloatArray
    """The mano's pair wins the lance."""
    base_win: FloatArray
    """The mano's pair's base values if it wins, minus the other pair's if it does."""
    base_a: FloatArray
    """The mano's pair's base values (a deje pays them whatever the cards), and the other's."""
    base_b: FloatArray

    def value(self, end: tuple[str, int, int]) -> FloatArray:
        """What an end of the betting pays the mano's pair, per combination, in tantos."""
        kind, x, y = end
        sign = 2.0 * self.win - 1.0
        punto = 1.0 if self.lance is Lance.PUNTO else 0.0
        if kind == "paso":
            return self.base_win if self.lance in (Lance.PARES, Lance.JUEGO) else sign
        if kind == "called":
            return x * sign + (self.base_win if self.lance in (Lance.PARES, Lance.JUEGO)
                               else punto * sign)
        if kind == "ordago":
            return STAKE * sign
        pays = y + punto
        return pays + self.base_a if x == 0 else -(pays + self.base_b)


def _odds_arrays(reyes: int) -> dict[str, FloatArray]:
    o = odds(reyes)
    return {"grande": np.array(o.grande), "chica": np.array(o.chica), "punto": np.array(o.punto),
            "pares": np.array(o.pares), "juego": np.array(o.juego)}


def deals(reyes: int, count: int, seed: int) -> list[Spot]:
    """Every spot with both pairs speaking, from ``count`` random deals (the mano at seat 0)."""
    t = tables(reyes, False)
    arrays = _odds_arrays(reyes)
    card_key = np.array(t.card_key, dtype=np.int64)
    keys = sorted(t.index_of)
    sorted_keys = np.array(keys, dtype=np.int64)
    index = np.array([t.index_of[k] for k in keys], dtype=np.int64)
    has_p = np.array(t.has_pares)
    has_j = np.array(t.has_juego)
    strength = np.array(t.strength, dtype=np.int64)
    pares_base = np.array(t.pares_base, dtype=np.float64)
    juego_base = np.array(t.juego_base, dtype=np.float64)
    rng = np.random.default_rng(seed)
    acc: dict[tuple[Lance, tuple[int, ...]], dict[int, FloatArray]] = {}
    deck = np.array(DECK, dtype=np.int64)
    pos = np.arange(4)
    chunk = 100_000
    done = 0
    while done < count:
        size = min(chunk, count - done)
        done += size
        cards = deck[np.argsort(rng.random((size, len(deck))), axis=1)[:, :16]]
        idx = index[np.searchsorted(sorted_keys, card_key[cards].reshape(size, 4, 4).sum(2))]
        hp, hj = has_p[idx], has_j[idx]
        for lance in Lance:
            if lance is Lance.PUNTO:
                live = ~hj.any(axis=1)
                speaks = np.ones_like(hj)
            elif lance in (Lance.GRANDE, Lance.CHICA):
                live = np.ones(size, dtype=bool)
                speaks = np.ones_like(hj)
            else:
                speaks = hp if lance is Lance.PARES else hj
                live = speaks[:, 0::2].any(axis=1) & speaks[:, 1::2].any(axis=1)
            if not live.any():
                continue
            ix, sp = idx[live], speaks[live]
            n = len(ix)
            name = lance.name.lower()
            if lance in (Lance.PARES, Lance.JUEGO):
                # Each seat's mask of the others' declarations, relative to it (odds.py).
                masks = np.zeros((n, 4), dtype=np.int64)
                for p in range(4):
                    for r in range(1, 4):
                        masks[:, p] |= sp[:, (p + r) % 4].astype(np.int64) << (r - 1)
                p_own = arrays[name][ix, pos[None, :], masks]
            else:
                p_own = arrays[name][ix, pos[None, :]]
            bands = np.searchsorted(np.array(BANDS), p_own, side="right")
            bands = np.where(sp, bands, ABSENT)
            s = strength[int(lance)][ix] * 4 + (3 - pos)[None, :]  # ties to the mano's side
            s = np.where(sp, s, -1)
            win = np.isin(np.argmax(s, axis=1), TEAM_0_SEATS).astype(np.float64)
            if lance is Lance.PARES:
                base = pares_base[ix]
            elif lance is Lance.JUEGO:
                base = juego_base[ix]
            else:
                base = np.zeros((n, 4))
            ba, bb = base[:, 0] + base[:, 2], base[:, 1] + base[:, 3]
            pattern = (sp * (1 << pos)[None, :]).sum(axis=1)
            code = (bands * (NB + 1) ** pos[None, :]).sum(axis=1)
            for pat in np.unique(pattern):
                present = tuple(int(q) for q in range(4) if pat >> q & 1)
                sel = pattern == pat
                codes, inverse = np.unique(code[sel], return_inverse=True)
                m = len(codes)
                stats = np.stack([np.bincount(inverse, minlength=m),
                                  np.bincount(inverse, win[sel], m),
                                  np.bincount(inverse, (ba * win - bb * (1 - win))[sel], m),
                                  np.bincount(inverse, ba[sel], m),
                                  np.bincount(inverse, bb[sel], m)], axis=1)
                book = acc.setdefault((lance, present), {})
                for c, row in zip(codes.tolist(), stats, strict=True):
                    found = book.get(c)
                    book[c] = row if found is None else found + row
    spots = []
    for (lance, present), book in sorted(acc.items(), key=lambda kv: (int(kv[0][0]), kv[0][1])):
        codes = np.array(sorted(book), dtype=np.int64)
        stats = np.array([book[c] for c in codes.tolist()])
        bands = (codes[:, None] // (NB + 1) ** pos[None, :]) % (NB + 1)
        n = stats[:, 0]
        spots.append(Spot(lance, present, bands, n / count, stats[:, 1] / n, stats[:, 2] / n,
                          stats[:, 3] / n, stats[:, 4] / n))
    return spots


# --- solving ---------------------------------------------------------------------------------


Policy = Callable[[Node, int], Sequence[float]]
"""A fixed strategy to measure: the shares of ``node.words`` at a node for a band."""


class Solver:
    """CFR+ on one spot, vectorised over its band combinations: regrets floored at zero, the
    average strategy weighted by iteration, every position updated at once."""

    def __init__(self, spot: Spot, ordagos: bool = ORDAGOS) -> None:
        self.spot = spot
        self.root = tree(spot.present, ordagos)
        self.nodes = [n for n in walk(self.root) if n.pos >= 0]
        self.ends = {id(n): spot.value(n.end) for n in walk(self.root) if n.pos < 0}
        self.regret = {id(n): np.zeros((len(n.words), NB)) for n in self.nodes}
        self.total = {id(n): np.zeros((len(n.words), NB)) for n in self.nodes}
        self.t = 0

    def current(self, node: Node) -> FloatArray:
        r = self.regret[id(node)]
        s = r.sum(axis=0)
        return np.where(s > 0, r / np.where(s > 0, s, 1.0), 1.0 / len(node.words))

    def average(self, node: Node) -> FloatArray:
        a = self.total[id(node)]
        s = a.sum(axis=0)
        return np.where(s > 0, a / np.where(s > 0, s, 1.0), 1.0 / len(node.words))

    def iterate(self, count: int) -> None:
        reach = np.ones((4, len(self.spot.prob)))
        for _ in range(count):
            self.t += 1
            self._cfr(self.root, reach)

    def _cfr(self, node: Node, reach: FloatArray) -> FloatArray:
        if node.pos < 0:
            return self.ends[id(node)]
        k = node.pos
        band = self.spot.bands[:, k]
        sigma = self.current(node)[:, band]
        values = []
        for a, child in enumerate(node.children):
            r = reach.copy()
            r[k] *= sigma[a]
            values.append(self._cfr(child, r))
        v = np.stack(values)
        u = (sigma * v).sum(axis=0)
        sign = 1.0 if Rules.team(k) == 0 else -1.0
        others = self.spot.prob * np.prod(np.delete(reach, k, axis=0), axis=0)
        regret = self.regret[id(node)]
        total = self.total[id(node)]
        for a in range(len(node.words)):
            regret[a] += np.bincount(band, others * sign * (v[a] - u), NB)
            total[a] += self.t * np.bincount(band, reach[k] * sigma[a], NB)
        np.maximum(regret, 0.0, out=regret)
        return u

    # --- measuring --------------------------------------------------------------------------

    def value(self, policy: Policy | None = None) -> float:
        """What the mano's pair expects per deal of this spot (of all deals: see
        :attr:`Spot.prob`), everybody playing ``policy`` (the average strategy if None)."""
        return float((self.spot.prob * self._play(self.root, self._fixed(policy), None)).sum())

    def gain(self, seat: int, policy: Policy | None = None) -> float:
        """What one position gains, in tantos per deal, by the best answer to the others
        playing ``policy`` (the average if None): how far the strategy is from an
        equilibrium for that seat."""
        fixed = self._fixed(policy)
        base = float((self.spot.prob * self._play(self.root, fixed, None)).sum())
        best = float((self.spot.prob * self._play(self.root, fixed, seat)).sum())
        return (best - base) * (1.0 if Rules.team(seat) == 0 else -1.0)

    def _fixed(self, policy: Policy | None) -> dict[int, FloatArray]:
        if policy is None:
            return {id(n): self.average(n) for n in self.nodes}
        return {id(n): np.array([list(policy(n, b)) for b in range(NB)]).T for n in self.nodes}

    def _play(self, node: Node, fixed: dict[int, FloatArray], seat: int | None,
              reach: FloatArray | None = None) -> FloatArray:
        if reach is None:
            reach = np.ones(len(self.spot.prob))
        if node.pos < 0:
            return self.ends[id(node)]
        band = self.spot.bands[:, node.pos]
        sigma = fixed[id(node)][:, band]
        if node.pos != seat:
            v = [self._play(c, fixed, seat, reach * sigma[a])
                 for a, c in enumerate(node.children)]
            return (sigma * np.stack(v)).sum(axis=0)
        v = np.stack([self._play(c, fixed, seat, reach) for c in node.children])
        sign = 1.0 if Rules.team(seat) == 0 else -1.0
        w = self.spot.prob * reach
        score = np.stack([np.bincount(band, w * sign * v[a], NB) for a in range(len(v))])
        best = np.argmax(score, axis=0)[band]
        return v[best, np.arange(len(band))]


def normal_policy(lance: Lance) -> Policy:
    """«normal»'s betting rule (:func:`~musbot.ai.normal.bet_action`) in the abstraction: each
    band at its middle strength, at 0–0 of 40."""
    from .normal import bet_action

    mids = [(lo + hi) / 2 for lo, hi in zip((0.0, *BANDS), (*BANDS, 1.0), strict=True)]

    def policy(node: Node, b: int) -> list[float]:
        hist = node.history
        said = [(int(hist[i]), hist[i + 1]) for i in range(0, len(hist), 2)]
        bets = [(p, w) for p, w in said if w in "bo"]
        ordago = any(w == "o" for _, w in bets)
        bet = 2 * sum(1 for _, w in bets if w == "b") if not ordago else 0
        prev = 1 if len(bets) < 2 else max(2 * (len(bets) - 1), 1)
        opp = sum(1 for p, _ in bets if Rules.team(p) != Rules.team(node.pos))
        later = [p for p, _ in said]  # who has spoken; the pair's last word is approximate
        last = node.pos >= 2 or (node.pos + 2) in later
        a = bet_action(lance, mids[b], bet, prev, ordago, opp, 0, 0, 40, None, last=last)
        letter = LETTER[a.kind]
        if letter == "o" and "o" not in node.words:
            letter = "b" if "b" in node.words else "q"  # without órdagos: the bet it stands for
        if letter not in node.words:
            letter = "q" if letter in "bo" and "q" in node.words else "p"
        return [1.0 if w == letter else 0.0 for w in node.words]

    return policy


def solve(reyes: int = 8, count: int = DEALS, iterations: int = ITERATIONS, seed: int = SEED,
          progress: Callable[[str], None] | None = None,
          ordagos: bool = ORDAGOS) -> dict[str, Any]:
    """The robust strategy of every spot as plain data, with how exploitable it and
    «normal»'s rule are in the abstraction (tantos per deal a single seat gains by its best
    answer, summed over the spots)."""
    spots = deals(reyes, count, seed)
    out: dict[str, Any] = {"version": VERSION, "reyes": reyes, "deals": count,
                           "iterations": iterations, "seed": seed, "stake": STAKE,
                           "ordagos": ordagos, "raises": RAISES,
                           "bands": list(BANDS), "spots": []}
    gains = {"robust": [0.0] * 4, "normal": [0.0] * 4}
    for spot in spots:
        solver = Solver(spot, ordagos)
        solver.iterate(iterations)
        normal = normal_policy(spot.lance)
        for seat in spot.present:
            gains["robust"][seat] += solver.gain(seat)
            gains["normal"][seat] += solver.gain(seat, normal)
        nodes = {n.history: [n.pos, n.words, n.situation,
                             [[round(float(x), 3) for x in row] for row in solver.average(n).T]]
                 for n in solver.nodes}
        weights = _band_weights(solver)
        out["spots"].append({"lance": int(spot.lance), "present": list(spot.present),
                             "share": round(float(spot.prob.sum()), 6), "nodes": nodes,
                             "reach": weights})
        if progress:
            progress(f"{spot.lance.name.lower()} {spot.present}: {len(solver.nodes)} nodes, "
                     f"share {spot.prob.sum():.3f}, value {solver.value():+.3f}")
    out["exploitability"] = {k: [round(x, 4) for x in v] for k, v in gains.items()}
    return out


def _band_weights(solver: Solver) -> dict[str, list[float]]:
    """Per node, how often play reaches it with each band of its speaker (for folding the
    strategy into the readings' shape)."""
    out: dict[str, list[float]] = {}
    fixed = {id(n): solver.average(n) for n in solver.nodes}

    def go(node: Node, reach: FloatArray) -> None:
        if node.pos < 0:
            return
        band = solver.spot.bands[:, node.pos]
        out[node.history] = [round(float(x), 7) for x in np.bincount(band, reach, NB)]
        sigma = fixed[id(node)][:, band]
        for a, child in enumerate(node.children):
            go(child, reach * sigma[a])

    go(solver.root, solver.spot.prob.copy())
    return out


def write(path: Path, data: dict[str, Any]) -> None:
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    """``python -m musbot.ai.cfr [--reyes 8] [--out FILE]``: solves, prints how exploitable the
    solution and «normal»'s rule are, and writes the solution if asked."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m musbot.ai.cfr")
    parser.add_argument("--reyes", type=int, choices=(4, 8), default=8)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--ordagos", action="store_true", help="solve with órdagos (ORDAGOS)")
    parser.add_argument("--out", type=Path, default=None, help="where to write the solution")
    args = parser.parse_args(argv)
    data = solve(args.reyes, args.deals, args.iterations, args.seed, print, args.ordagos)
    for name, gains in data["exploitability"].items():
        print(f"{name}: a single seat's best answer gains {sum(gains) / 4:.4f} tantos per "
              f"deal on average ({', '.join(f'{g:.4f}' for g in gains)} by position)")
    if args.out is not None:
        write(args.out, data)
        print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
