"""Building tournaments for the tests: sign-ups, a draw, a clock."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from musbot.tournament import Format, PairKey, Settings, Tournament

T0 = datetime(2025, 5, 1, 18, 0, tzinfo=UTC)
"""When every test tournament is created."""


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def people(n_pairs: int) -> list[tuple[int, int]]:
    """User ids of ``n_pairs`` pairs: (1000, 1001), (1002, 1003), …"""
    return [(1000 + 2 * i, 1001 + 2 * i) for i in range(n_pairs)]


def signed(n_pairs: int, fmt: Format = Format.KNOCKOUT, seed: int = 1,
           **options: Any) -> Tournament:
    """A tournament with ``n_pairs`` pairs signed up (each naming the other), not drawn."""
    t = Tournament.new(Settings(f"Txapelketa {fmt.value}", format=fmt, **options), seed, now=T0)
    for first, second in people(n_pairs):
        t.sign_up(first, f"Ane{first}", partner=second, now=T0)
        t.sign_up(second, f"Bea{second}", partner=first, now=T0)
    return t


def drawn(n_pairs: int, fmt: Format = Format.KNOCKOUT, seed: int = 1,
          ratings: Mapping[PairKey, float] | None = None, **options: Any) -> Tournament:
    t = signed(n_pairs, fmt, seed, **options)
    t.draw(now=T0, ratings=ratings)
    return t
