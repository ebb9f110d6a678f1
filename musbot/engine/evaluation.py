"""Hand evaluation through tables computed once per rule set (docs/rules.md §1, §3, §5).

A hand is reduced to the multiset of its rank classes (suits never matter): a 40-bit key with one
nibble per class, summed from a per-card table with no sorting. Every distinct multiset (330 with
8 reyes, 715 with 4) gets an index, and each lance gets a tuple of strengths indexed by it, where a
higher number is a better hand. Comparing two evaluated hands for a lance is then two tuple reads.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import RANKS, Card


class Lance(enum.IntEnum):
    GRANDE = 0
    CHICA = 1
    PARES = 2
    JUEGO = 3
    PUNTO = 4

    @property
    def nombre(self) -> str:
        return self.name.lower()


LANCES: tuple[Lance, ...] = tuple(Lance)
LANCE_NAMES: tuple[str, ...] = tuple(lance.name.lower() for lance in Lance)

# Rank classes, low to high: as, 2, 3, 4, 5, 6, 7, sota, caballo, rey.
AS, DOS, TRES, CUATRO, CINCO, SEIS, SIETE, SOTA, CABALLO, REY = range(10)
CLASS_NAMES = ("as", "dos", "tres", "cuatro", "cinco", "seis", "siete", "sota", "caballo", "rey")
CLASS_PLURALS = ("ases", "doses", "treses", "cuatros", "cincos", "seises", "sietes", "sotas",
                 "caballos", "reyes")

JUEGO_ORDER = (31, 32, 40, 37, 36, 35, 34, 33)
"""§3: 31 > 32 > 40 > 37 > … > 33."""


def rank_class(printed_rank: int, reyes: int) -> int:
    if reyes == 8 and printed_rank == 3:
        return REY
    if reyes == 8 and printed_rank == 2:
        return AS
    return RANKS.index(printed_rank)


def class_value(cls: int) -> int:
    """Value for juego and punto: figures 10, as 1, others their number (§1)."""
    return (1, 2, 3, 4, 5, 6, 7, 10, 10, 10)[cls]


@dataclass(frozen=True, slots=True)
class HandInfo:
    """Everything about one rank multiset that any rule asks for."""

    classes: tuple[int, ...]
    """Rank classes, high to low."""
    total: int
    pares: int
    """0 none, 1 par, 2 medias, 3 duples."""
    pares_ranks: tuple[int, ...]
    juego: bool
    real: bool

    @property
    def pares_base(self) -> int:
        return self.pares

    @property
    def juego_base(self) -> int:
        return 0 if not self.juego else (3 if self.total == 31 else 2)


def _pares_of(classes: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    counts = {c: classes.count(c) for c in set(classes)}
    if 4 in counts.values():
        (r,) = counts
        return 3, (r, r)
    pairs = sorted((c for c, n in counts.items() if n == 2), reverse=True)
    if len(pairs) == 2:
        return 3, tuple(pairs)
    triples = [c for c, n in counts.items() if n == 3]
    if triples:
        return 2, (triples[0],)
    if pairs:
        return 1, (pairs[0],)
    return 0, ()


class Tables:
    """Strength tables for one (reyes, real) combination; build through :func:`tables`."""

    __slots__ = (
        "card_key",
        "has_juego",
        "has_pares",
        "index_of",
        "infos",
        "juego_base",
        "pares_base",
        "real",
        "reyes",
        "strength",
        "total",
    )

    def __init__(self, reyes: int, real: bool) -> None:
        self.reyes = reyes
        self.real = real
        card_class = [rank_class(RANKS[c % 10], reyes) for c in range(40)]
        self.card_key: tuple[int, ...] = tuple(1 << (4 * k) for k in card_class)
        used = sorted(set(card_class))
        infos: list[HandInfo] = []
        index_of: dict[int, int] = {}
        for combo in itertools.combinations_with_replacement(used, 4):
            classes = tuple(sorted(combo, reverse=True))
            key = sum(1 << (4 * k) for k in classes)
            total = sum(class_value(k) for k in classes)
            pares, pares_ranks = _pares_of(classes)
            is_real = real and sorted(classes) == [SIETE, SIETE, SIETE, SOTA]
            index_of[key] = len(infos)
            infos.append(HandInfo(classes, total, pares, pares_ranks, total >= 31, is_real))
        self.index_of = index_of
        self.infos: tuple[HandInfo, ...] = tuple(infos)

        keys: dict[Lance, list[Any]] = {
            Lance.GRANDE: [i.classes for i in infos],
            # Lower cards win at chica: negate so that a larger key is a better hand.
            Lance.CHICA: [tuple(-k for k in reversed(i.classes)) for i in infos],
            Lance.PARES: [(i.pares, i.pares_ranks) if i.pares else (0, ()) for i in infos],
            Lance.JUEGO: [self._juego_key(i) for i in infos],
            Lance.PUNTO: [i.total if not i.juego else 0 for i in infos],
        }
        self.strength: tuple[tuple[int, ...], ...] = tuple(
            _ordinals(keys[lance]) for lance in Lance
        )
        self.pares_base = tuple(i.pares_base for i in infos)
        self.juego_base = tuple(i.juego_base for i in infos)
        self.has_pares = tuple(i.pares > 0 for i in infos)
        self.has_juego = tuple(i.juego for i in infos)
        self.total = tuple(i.total for i in infos)

    @staticmethod
    def _juego_key(info: HandInfo) -> int:
        if not info.juego:
            return 0
        if info.real:
            return len(JUEGO_ORDER) + 1
        return len(JUEGO_ORDER) - JUEGO_ORDER.index(info.total)

    def index(self, cards: Sequence[Card]) -> int:
        """The hand's row in every table."""
        k = self.card_key
        return self.index_of[sum(k[c] for c in cards)]

    def info(self, cards: Sequence[Card]) -> HandInfo:
        return self.infos[self.index(cards)]

    def compare(self, lance: Lance, a: int, b: int) -> int:
        """>0 if hand index ``a`` beats ``b`` at ``lance``, <0 if it loses, 0 if equal (the tie
        then goes to the seat nearer the mano, which only the caller knows)."""
        s = self.strength[lance]
        return s[a] - s[b]


def _ordinals(keys: list[Any]) -> tuple[int, ...]:
    order = {k: n for n, k in enumerate(sorted(set(keys)))}
    return tuple(order[k] for k in keys)


@cache
def tables(reyes: int = 8, real: bool = False) -> Tables:
    return Tables(reyes, real)


def best_seat(strengths: Sequence[int], hand_index: Sequence[int], order: Sequence[int]) -> int:
    """The seat with the best hand; ``order`` runs from the mano, so a tie goes to the seat
    nearer the mano (§1)."""
    best = best_s = -1
    for seat in order:
        s = strengths[hand_index[seat]]
        if s > best_s:
            best, best_s = seat, s
    return best
