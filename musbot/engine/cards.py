"""The Spanish deck: 40 cards as small ints, with the card codes of docs/rules.md §1.

A card is ``suit * 10 + rank_index`` so that a hand is a handful of ints: cheap to copy, hash and
look up in the evaluation tables.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterable, Sequence
from typing import TypeAlias

Card: TypeAlias = int
"""A card, 0–39. Use :func:`parse_card` and :func:`card_code` at the edges."""

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS: str = "oceb"
"""oros, copas, espadas, bastos."""

DECK: tuple[Card, ...] = tuple(range(40))
CARD_CODES: tuple[str, ...] = tuple(f"{RANKS[c % 10]}{SUITS[c // 10]}" for c in DECK)
_BY_CODE: dict[str, Card] = {code: c for c, code in enumerate(CARD_CODES)}

Shuffler: TypeAlias = Callable[[Sequence[Card]], list[Card]]
"""Returns the given cards in a new order, top first. Tests and replays inject their own."""


def rank(card: Card) -> int:
    """The printed rank: 1–7, 10, 11 or 12."""
    return RANKS[card % 10]


def suit(card: Card) -> str:
    return SUITS[card // 10]


def card_code(card: Card) -> str:
    return CARD_CODES[card]


def parse_card(code: str) -> Card:
    """Parses ``12o``-style codes; raises ``KeyError`` otherwise (callers word the error)."""
    return _BY_CODE[code.strip().lower()]


def codes(cards: Iterable[Card]) -> list[str]:
    return [CARD_CODES[c] for c in cards]


def secure_shuffle(cards: Sequence[Card]) -> list[Card]:
    """A uniform permutation from the OS's CSPRNG (docs/rules.md §2).

    Fisher–Yates over 32-bit draws taken from a single ``os.urandom`` call; a draw that falls in
    the biased tail above the largest multiple of the range is rejected and redrawn, so every
    permutation is exactly equally likely.
    """
    deck = list(cards)
    n = len(deck)
    draws = struct.unpack(f"<{n}I", os.urandom(4 * n))
    for i in range(n - 1, 0, -1):
        span = i + 1
        x: int = draws[i]
        limit = _TWO32 - _TWO32 % span
        while x >= limit:
            x = struct.unpack("<I", os.urandom(4))[0]
        j = x % span
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_TWO32 = 1 << 32


def seeded_shuffler(seed: int | str) -> Shuffler:
    """A reproducible shuffler for tests, benchmarks and ``--seed`` demos; never for real tables."""
    import random

    rng = random.Random(seed)

    def shuffle(cards: Sequence[Card]) -> list[Card]:
        return rng.sample(list(cards), len(cards))

    return shuffle
