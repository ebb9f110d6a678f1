"""Process-wide settings for a long-running bot.

The garbage collector: a busy bot keeps a large, long-lived heap (every live table's match,
the transport's boards, discord.py's caches) and allocates many short-lived objects per action.
With CPython's default thresholds it collects the young generation every 700 allocations and
re-scans that old heap often; ``musbot bench load`` measured 15–20 % of the time in the collector
and full-collection pauses of 150–250 ms, each one a latency spike for every table at once.

So only the youngest generation is collected on CPython's own account: its collections are
short (a few milliseconds: they walk what was made since the last one) and catch the cyclic
garbage a move makes (a discard prompt's buttons) while it is young. The older collections walk
what every live table keeps — tens of milliseconds for the middle one, over a hundred for the
full one, each a latency spike for every table at once — so they run on a schedule instead:
:func:`collect_periodically`, one full collection every :data:`FULL_COLLECTION_SECONDS`.
Between two of them the only thing that waits is cyclic garbage that outlived a young
collection, which is little: objects that die by reference counting are freed at once in any
generation.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

THRESHOLDS = (1_000, 1_000_000_000, 1_000_000_000)
"""Net allocations between young collections (CPython: 700); in effect, never a middle or full
collection on CPython's own account (CPython: after 10 young and 10 middle ones)."""
FULL_COLLECTION_SECONDS = 600.0
"""How often :func:`collect_periodically` runs the full collection."""


def tune_gc() -> None:
    """Call once start-up is done (tables restored, extensions loaded): what exists then lives
    as long as the process, so it is frozen out of every later collection, and the young
    generations are collected less often. Start :func:`collect_periodically` with it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def full_collection() -> float:
    """One full collection; returns its pause in seconds."""
    start = time.perf_counter()
    gc.collect()
    return time.perf_counter() - start


async def collect_periodically(seconds: float = FULL_COLLECTION_SECONDS) -> None:
    """The full collections :func:`tune_gc` took away from CPython, on a clock: one pause
    every ``seconds`` instead of several a minute. Run it as a task for the process's life."""
    while True:
        await asyncio.sleep(seconds)
        pause = full_collection()
        log.debug("full garbage collection: %.1f ms", pause * 1000)
