"""Process-wide settings for a long-running bot.

The garbage collector: a busy bot keeps a large, long-lived heap (every live table's match,
the transport's boards, discord.py's caches) and allocates many short-lived objects per action.
With CPython's default thresholds it collects the young generation every 700 allocations and
re-scans that old heap often; ``musbot bench load`` measured 15–20 % of the time in the collector
and full-collection pauses of 150–250 ms, each one a latency spike for every table at once.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 20, 10)
"""Net allocations between young collections (CPython: 700), young collections per middle one
(10) and middle per full one (10): fewer collections, each still short; cyclic garbage (every
discord.py view is a cycle) is still collected within seconds."""


def tune_gc() -> None:
    """Call once start-up is done (tables restored, extensions loaded): what exists then lives
    as long as the process, so it is frozen out of every later collection, and the young
    generation is collected less often. Cyclic garbage is still collected."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
