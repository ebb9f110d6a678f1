"""Precomputed lance odds: how often a pair wins each lance, for every hand and seat position.

Level «normal» decides from these tables instead of thinking at the table, so a decision is a few
tuple reads. They are built once by Monte Carlo over random deals of the other 36 cards
(``python -m musbot.ai.odds``) and shipped gzipped next to this module
(``musbot/ai/data/odds_r8.json.gz``, ``odds_r4.json.gz``); a missing file is rebuilt in memory
with fewer samples at first use, so a bot never fails for want of data.

Positions count from the mano (0 = mano, 3 = postre): ties go to the mano, so the same hand is
worth more the earlier it speaks. Relative seats count from the hand's owner: 1 is the next
opponent, 2 the partner, 3 the other opponent. At Pares and Juego the odds are also conditioned on
the public declarations of the three other seats (a 3-bit mask, bit ``r - 1`` for relative seat
``r``), because those are known before anyone bets there.
"""

from __future__ import annotations

import gzip
import json
import logging
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from musbot.engine.cards import DECK, RANKS
from musbot.engine.evaluation import Lance, rank_class, tables
from musbot.engine.rules import Rules

log = logging.getLogger(__name__)

DATA_DIR = Path(__file__).with_name("data")
VERSION = 1
DEFAULT_SAMPLES = 6000
OWN_PAIR: tuple[int, ...] = Rules().team_seats(Rules.team(0))
"""Relative seats of the hand's owner and partner (0 and 2): the pair whose odds these are."""


def data_path(reyes: int) -> Path:
    return DATA_DIR / f"odds_r{reyes}.json.gz"


@dataclass(frozen=True, slots=True)
class Odds:
    """Win probabilities of the hand owner's pair. Index ``[hand index][position]`` and, at Pares
    and Juego, ``[mask]`` of the other seats' declarations."""

    reyes: int
    samples: int
    grande: tuple[tuple[float, ...], ...]
    chica: tuple[tuple[float, ...], ...]
    pares: tuple[tuple[tuple[float, ...], ...], ...]
    juego: tuple[tuple[tuple[float, ...], ...], ...]
    punto: tuple[tuple[float, ...], ...]
    """Given that nobody holds juego (0 for a hand with juego)."""
    pares_mask: tuple[tuple[float, ...], ...]
    """``[hand index][mask]``: how likely each declaration pattern of the others is."""
    juego_mask: tuple[tuple[float, ...], ...]
    pares_any: tuple[tuple[float, ...], ...]
    """Pares won by the pair, whatever the others declare (0 when nobody holds pares)."""
    juego_any: tuple[tuple[float, ...], ...]
    """Juego won, or Punto when nobody holds juego: the fourth lance, before declarations."""

    def lance(self, lance: Lance, index: int, position: int, mask: int | None = None) -> float:
        """The pair's chance at ``lance``; at Pares/Juego without a mask, before declarations."""
        if lance is Lance.GRANDE:
            return self.grande[index][position]
        if lance is Lance.CHICA:
            return self.chica[index][position]
        if lance is Lance.PUNTO:
            return self.punto[index][position]
        if lance is Lance.PARES:
            return self.pares_any[index][position] if mask is None else \
                self.pares[index][position][mask]
        return self.juego_any[index][position] if mask is None else \
            self.juego[index][position][mask]


def _representative(reyes: int, classes: tuple[int, ...]) -> list[int]:
    """Four real cards with these rank classes (suits never matter)."""
    pool = list(DECK)
    out = []
    for cls in classes:
        card = next(c for c in pool if rank_class(RANKS[c % 10], reyes) == cls)
        pool.remove(card)
        out.append(card)
    return out


def _first_best(order: list[int], vals: list[int]) -> int:
    """The relative seat with the best hand; ``order`` runs from the mano, so ties go to him."""
    best = order[0]
    top = vals[best]
    for r in order[1:]:
        if vals[r] > top:
            best, top = r, vals[r]
    return best


def generate(reyes: int = 8, samples: int = DEFAULT_SAMPLES, seed: int = 2024) -> dict[str, object]:
    """The tables as plain lists, by Monte Carlo: ``samples`` deals of the other twelve cards per
    hand multiset. Deterministic for a seed."""
    t = tables(reyes, False)
    rng = random.Random(seed)
    key = t.card_key
    index_of = t.index_of
    st = t.strength
    has_p = t.has_pares
    has_j = t.has_juego
    n_idx = len(t.infos)
    out: dict[str, list[object]] = {name: [] for name in (
        "grande", "chica", "pares", "juego", "punto", "pares_mask", "juego_mask", "pares_any",
        "juego_any")}
    # For each position p of the owner, the owner's relative seats in order from the mano.
    orders = [[(k - p) % 4 for k in range(4)] for p in range(4)]
    for idx in range(n_idx):
        mine = _representative(reyes, t.infos[idx].classes)
        rest = [c for c in DECK if c not in mine]
        g = [0] * 4
        ch = [0] * 4
        pa = [[0] * 8 for _ in range(4)]
        ju = [[0] * 8 for _ in range(4)]
        pu = [0] * 4
        pa_n = [0] * 8
        ju_n = [0] * 8
        nobody_j = 0
        for _ in range(samples):
            cards = rng.sample(rest, 12)
            hands = (idx,
                     index_of[key[cards[0]] + key[cards[1]] + key[cards[2]] + key[cards[3]]],
                     index_of[key[cards[4]] + key[cards[5]] + key[cards[6]] + key[cards[7]]],
                     index_of[key[cards[8]] + key[cards[9]] + key[cards[10]] + key[cards[11]]])
            pm = has_p[hands[1]] | has_p[hands[2]] << 1 | has_p[hands[3]] << 2
            jm = has_j[hands[1]] | has_j[hands[2]] << 1 | has_j[hands[3]] << 2
            pa_n[pm] += 1
            ju_n[jm] += 1
            any_p = pm or has_p[idx]
            any_j = jm or has_j[idx]
            if not any_j:
                nobody_j += 1
            for lance, acc in ((0, g), (1, ch)):
                s = st[lance]
                vals = [s[h] for h in hands]
                for p in range(4):
                    if _first_best(orders[p], vals) in OWN_PAIR:
                        acc[p] += 1
            if any_p:
                s = st[2]
                vals = [s[h] for h in hands]
                for p in range(4):
                    if _first_best(orders[p], vals) in OWN_PAIR:
                        pa[p][pm] += 1
            if any_j:
                s = st[3]
                vals = [s[h] for h in hands]
                for p in range(4):
                    if _first_best(orders[p], vals) in OWN_PAIR:
                        ju[p][jm] += 1
            else:
                s = st[4]
                vals = [s[h] for h in hands]
                for p in range(4):
                    if _first_best(orders[p], vals) in OWN_PAIR:
                        pu[p] += 1
        out["grande"].append([round(x / samples, 4) for x in g])
        out["chica"].append([round(x / samples, 4) for x in ch])
        out["pares"].append([[round(pa[p][m] / pa_n[m], 4) if pa_n[m] else 0.0 for m in range(8)]
                             for p in range(4)])
        out["juego"].append([[round(ju[p][m] / ju_n[m], 4) if ju_n[m] else 0.0 for m in range(8)]
                             for p in range(4)])
        out["punto"].append([round(pu[p] / nobody_j, 4) if nobody_j and not has_j[idx] else 0.0
                             for p in range(4)])
        out["pares_mask"].append([round(x / samples, 4) for x in pa_n])
        out["juego_mask"].append([round(x / samples, 4) for x in ju_n])
        out["pares_any"].append([round(sum(pa[p]) / samples, 4) for p in range(4)])
        out["juego_any"].append([round((sum(ju[p]) + pu[p]) / samples, 4) for p in range(4)])
    return {"version": VERSION, "reyes": reyes, "samples": samples, "seed": seed, **out}


def _freeze(data: dict[str, object]) -> Odds:
    def t2(name: str) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(row) for row in data[name])  # type: ignore[attr-defined]

    def t3(name: str) -> tuple[tuple[tuple[float, ...], ...], ...]:
        return tuple(tuple(tuple(r) for r in row) for row in data[name])  # type: ignore

    return Odds(int(data["reyes"]), int(data["samples"]),  # type: ignore[call-overload]
                t2("grande"), t2("chica"), t3("pares"), t3("juego"), t2("punto"),
                t2("pares_mask"), t2("juego_mask"), t2("pares_any"), t2("juego_any"))


@cache
def odds(reyes: int = 8) -> Odds:
    """The shipped tables for this rule set, loaded once; rebuilt (smaller) if the file is gone."""
    path = data_path(reyes)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        if data.get("version") == VERSION and data.get("reyes") == reyes:
            return _freeze(data)
        log.warning("odds file %s is stale; rebuilding in memory", path)
    except FileNotFoundError:
        log.warning("odds file %s is missing; rebuilding in memory", path)
    return _freeze(generate(reyes, samples=400))


def write(reyes: int, samples: int = DEFAULT_SAMPLES, seed: int = 2024) -> Path:
    path = data_path(reyes)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = generate(reyes, samples, seed)
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: same bytes for the same tables
        f.write(json.dumps(data, separators=(",", ":")).encode())
    return path


# --- the score: what a lead is worth ----------------------------------------------------------

# Tantos one pair scores in one hand (measured: «normal» and «facil» self-play, 1,500 games,
# 5,900 pair-hands; mean 4.8); the pair's and the opponents' are drawn independently from it.
_PER_HAND: tuple[tuple[int, float], ...] = (
    (0, 0.091), (1, 0.153), (2, 0.079), (3, 0.07), (4, 0.092), (5, 0.103), (6, 0.108),
    (7, 0.089), (8, 0.073), (9, 0.051), (10, 0.034), (11, 0.023), (12, 0.014), (13, 0.008),
    (14, 0.006), (16, 0.005), (19, 0.003),
)


@cache
def game_values(target: int) -> tuple[tuple[float, ...], ...]:
    """``[mine][theirs]`` → chance that the pair with ``mine`` tantos wins the game, by dynamic
    programming over hands. A hand where both reach the target is a coin toss here; who gets
    there first within a hand is :mod:`musbot.ai.normal`'s business (scoring order)."""
    total = sum(w for _, w in _PER_HAND)
    dist = [(x, w / total) for x, w in _PER_HAND]
    # Both pairs scoring nothing leaves the score as it was: that hand is divided out. Where
    # both reach the target the value is a coin toss, which is ``values[target][target]``, so
    # every other pair of scores reads the table.
    steps = [(x, y, px * py) for x, px in dist for y, py in dist]
    stay = next((pr for x, y, pr in steps if x == y == 0), 0.0)
    steps = [(x, y, pr) for x, y, pr in steps if not x == y == 0]
    chances = [pr for _, _, pr in steps]
    columns = [[min(b + y, target) for _, y, _ in steps] for b in range(target)]
    values = [[0.0] * (target + 1) for _ in range(target + 1)]
    values[target] = [1.0] * target + [0.5]
    for a in range(target - 1, -1, -1):
        rows = [values[min(a + x, target)] for x, _, _ in steps]
        for b in range(target - 1, -1, -1):
            v = 0.0
            for pr, row, nb in zip(chances, rows, columns[b], strict=True):
                v += pr * row[nb]
            values[a][b] = v / (1.0 - stay)
    return tuple(tuple(row) for row in values)


_LOADED: dict[int, tuple[tuple[float, ...], ...]] = {}
""":func:`game_values` by target, read without the cache's call (a rollout asks thousands of
times per decision)."""


def game_value(mine: int, theirs: int, target: int) -> float:
    """Chance to win the game from this score (clamped to the target)."""
    v = _LOADED.get(target)
    if v is None:
        v = _LOADED[target] = game_values(target)
    if 0 <= mine <= target and 0 <= theirs <= target:
        return v[mine][theirs]
    return v[min(max(mine, 0), target)][min(max(theirs, 0), target)]


def main(argv: list[str] | None = None) -> int:
    """Rebuilds the shipped files: ``python -m musbot.ai.odds [--samples N]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m musbot.ai.odds")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--reyes", type=int, choices=(4, 8), nargs="*", default=[8, 4])
    args = parser.parse_args(argv)
    for reyes in args.reyes:
        print(write(reyes, args.samples, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
