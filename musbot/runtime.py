"""Process-wide settings for a long-running bot.

The garbage collector: a busy bot keeps a large, long-lived heap (every live table's match,
the transport's boards, discord.py's caches) and allocates many short-lived objects per action.
With CPython's default thresholds it collects the young generation every 700 allocations and
re-scans that old heap often: a large share of the time goes to the collector, and each full
collection is a pause for every table at once (``musbot bench load --gc default`` shows both).

The older collections walk what every live table keeps, each a latency spike for every table at
once, so they run on a schedule instead: :func:`collect_periodically`, one full collection every
:data:`FULL_COLLECTION_SECONDS`. Between two of them the only thing that waits is cyclic garbage
that outlived a young collection, which is little: objects that die by reference counting are
freed at once in any generation.

The young collections run on the same clock, every :data:`YOUNG_COLLECTION_SECONDS`. CPython
counts every container's death against the young threshold, old ones included, and a busy bot
retires old objects on every move (each table's previous state): left to the threshold, young
collections came rarer and rarer while the young generation grew, and so did their pauses. On a
clock each one walks only what ten milliseconds made.
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
YOUNG_COLLECTION_SECONDS = 0.01
"""How often :func:`collect_periodically` collects the young generation."""


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


async def collect_periodically(seconds: float = FULL_COLLECTION_SECONDS, *,
                               young_seconds: float = YOUNG_COLLECTION_SECONDS) -> None:
    """The collections :func:`tune_gc` took away from CPython, on a clock: the young generation
    every ``young_seconds``, the full one every ``seconds`` (one pause instead of several a
    minute). Run it as a task for the process's life."""
    loop = asyncio.get_running_loop()
    full_at = loop.time() + seconds
    while True:
        await asyncio.sleep(max(0.0, min(young_seconds, full_at - loop.time())))
        if loop.time() >= full_at:
            pause = full_collection()
            log.debug("full garbage collection: %.1f ms", pause * 1000)
            full_at = loop.time() + seconds
        else:
            gc.collect(0)
