"""Process-wide settings for a long-running bot.

The garbage collector: a busy bot keeps a large, long-lived heap (every live table's match,
the transport's boards, discord.py's caches) and allocates many short-lived objects per action.
With CPython's default thresholds it collects the young generation every 700 allocations and
re-scans that old heap often: a large share of the time goes to the collector, and each full
collection is a pause for every table at once (``musbot bench load --gc default`` shows both).

The older collections walk what every live table keeps: each one a pause for every table at
once, which grows with the tables (hundreds of milliseconds at a thousand). So no collection
walks an object twice: the young generation is collected on a clock, every
:data:`YOUNG_COLLECTION_SECONDS`, and what survives it is frozen (:func:`young_collection`).
An object that lived through its young collection is then left to reference counting, which
frees it the moment it is dropped, frozen or not; only *cyclic* garbage that outlived its young
collection waits, for the :func:`audit` every :data:`AUDIT_SECONDS`, which walks everything and
logs what it found. The table layer makes none (a test plays whole matches and audits), so the
audit should find nothing, and the memory it could hold meanwhile is bounded by the hour.

CPython counts every container's death against the young threshold, old ones included, and a
busy bot retires old objects on every move (each table's previous state): left to the
threshold, young collections came rarer and rarer while the young generation grew, and so did
their pauses. On a clock each one walks only what ten milliseconds made.
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
AUDIT_SECONDS = 3600.0
"""How often :func:`collect_periodically` runs the :func:`audit`."""
YOUNG_COLLECTION_SECONDS = 0.01
"""How often :func:`collect_periodically` collects the young generation."""


def tune_gc() -> None:
    """Call once start-up is done (tables restored, extensions loaded): what exists then lives
    as long as the process, so it is frozen out of every later collection, and the young
    generations are collected less often. Start :func:`collect_periodically` with it."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


def young_collection() -> None:
    """The young generation collected, and its survivors frozen: no later collection walks
    them again (reference counting frees them when they are dropped)."""
    gc.collect(0)
    gc.freeze()


def audit() -> tuple[float, int]:
    """A full collection of every object, frozen ones included: the pause (s), and how many
    unreachable objects it found (cyclic garbage that outlived its young collection)."""
    gc.unfreeze()
    start = time.perf_counter()
    found = gc.collect()
    pause = time.perf_counter() - start
    gc.freeze()
    return pause, found


async def collect_periodically(seconds: float = AUDIT_SECONDS, *,
                               young_seconds: float = YOUNG_COLLECTION_SECONDS) -> None:
    """The collections :func:`tune_gc` took away from CPython, on a clock: the young generation
    every ``young_seconds`` (:func:`young_collection`), the :func:`audit` every ``seconds``.
    Run it as a task for the process's life."""
    loop = asyncio.get_running_loop()
    audit_at = loop.time() + seconds
    while True:
        await asyncio.sleep(max(0.0, min(young_seconds, audit_at - loop.time())))
        if loop.time() >= audit_at:
            pause, found = audit()
            if found:
                log.warning("garbage collection audit: %d unreachable objects outlived their "
                            "young collection (%.1f ms)", found, pause * 1000)
            else:
                log.debug("garbage collection audit: %.1f ms", pause * 1000)
            audit_at = loop.time() + seconds
        else:
            young_collection()
