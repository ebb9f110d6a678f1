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
collection waits, for the audit every :data:`AUDIT_SECONDS`. The table layer makes none (a test
plays whole matches and audits), so the audit should find nothing, and the memory it could hold
meanwhile is bounded by the hour.

The audit walks every object, and that walk is the pause the freezing avoids. So where the
system can fork, the walk is made in a copy of the process (:func:`audit_elsewhere`): the bot
stops only for the fork, and collects for real, pausing, only when the copy found garbage —
which it logs, as a bug to look for. The copy writes nothing but its count: every file it
inherited (the gateway's socket, the database) is closed in it before it walks, so no finalizer
it runs can reach them. The copy grows to the heap's size while it walks (each object's header
is written); it is the first process the system stops if memory runs out, and the bot then only
logs that the audit gave no count.

CPython counts every container's death against the young threshold, old ones included, and a
busy bot retires old objects on every move (each table's previous state): left to the
threshold, young collections came rarer and rarer while the young generation grew, and so did
their pauses. On a clock each one walks only what ten milliseconds made.

The C heap: what CPython frees outside its own arenas (objects over 512 bytes, SQLite's pages,
the pictures' bytes) goes back to glibc's heap, which returns to the system only what ends it.
A bot frees and allocates there at every move, so the freed memory in the middle of the heap
grows (at a thousand tables, a quarter of a megabyte a second, a seventh of the bot's growth).
Every :data:`TRIM_SECONDS` the periodic task gives it back (:func:`trim_heap`: glibc's
``malloc_trim``, a pause of a few milliseconds; nothing where the C library has none).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import os
import signal
import struct
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

log = logging.getLogger(__name__)

THRESHOLDS = (1_000, 1_000_000_000, 1_000_000_000)
"""Net allocations between young collections (CPython: 700); in effect, never a middle or full
collection on CPython's own account (CPython: after 10 young and 10 middle ones)."""
AUDIT_SECONDS = 3600.0
"""How often :func:`collect_periodically` runs the :func:`audit`."""
YOUNG_COLLECTION_SECONDS = 0.01
"""How often :func:`collect_periodically` collects the young generation."""
TRIM_SECONDS = 10.0
"""How often :func:`collect_periodically` gives the C heap's free memory back
(:func:`trim_heap`)."""
AUDIT_TIMEOUT = 60.0
"""How long the copy of :func:`audit_elsewhere` may walk before it is stopped (a copy of a
process with threads may find a lock taken forever: then this audit is skipped, and said)."""


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
    """A full collection of every object, frozen ones included, here: the pause (s), and how
    many unreachable objects it found (cyclic garbage that outlived its young collection)."""
    gc.unfreeze()
    start = time.perf_counter()
    found = gc.collect()
    pause = time.perf_counter() - start
    gc.freeze()
    return pause, found


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library: musl, macOS, Windows)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


_TRIM = _malloc_trim()


@dataclass(slots=True)
class Trims:
    """What :func:`trim_heap` has cost: how often it ran, and the longest it stopped the bot."""

    count: int = 0
    longest: float = 0.0


TRIMS = Trims()


def trim_heap() -> bool:
    """The C heap's free pages given back to the system; False where the C library cannot."""
    if _TRIM is None:
        return False
    start = time.perf_counter()
    _TRIM(0)
    took = time.perf_counter() - start
    TRIMS.count += 1
    TRIMS.longest = max(TRIMS.longest, took)
    return True


def process_ticks(pid: int) -> int | None:
    """A process's CPU time so far (user and system) in clock ticks, from Linux's ``/proc``;
    None where there is none, or once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            text = stat.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after the name, which may hold anything
    return int(fields[11]) + int(fields[12])


@dataclass(frozen=True, slots=True)
class Audit:
    """What an audit cost the bot and found."""

    pause: float
    """Seconds every table stood still: the fork, or the whole walk when made here."""
    walk: float
    """Seconds the walk of every object took (in the copy, or here)."""
    found: int | None
    """Unreachable objects found; None when the copy did not answer."""
    forked: bool


_FOUND = struct.Struct("<qd")
"""The copy's answer: the objects it found, and how long it walked."""


def can_fork() -> bool:
    return hasattr(os, "fork")


async def audit_elsewhere(timeout: float = AUDIT_TIMEOUT) -> Audit:
    """:func:`audit` in a forked copy of the process, which walks while the bot plays on; only
    if it found garbage is the audit made here too, to free it (that pause is then the one
    reported). Without ``fork``, the audit is made here."""
    if not can_fork():
        pause, found = audit()
        return Audit(pause, pause, found, False)
    try:
        read, write = os.pipe()
    except OSError as error:  # out of file descriptors
        return _here_instead(error)
    try:
        with warnings.catch_warnings():  # the copy runs no thread: it only walks and exits
            warnings.simplefilter("ignore", DeprecationWarning)
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                _walk_in_copy(write)
            pause = time.perf_counter() - start
    except OSError as error:  # no memory for page tables, too many processes
        os.close(read)
        return _here_instead(error)
    finally:
        os.close(write)
    try:  # the thread owns the read end: it reaps the copy, reads, and closes it
        answer = await asyncio.wait_for(asyncio.to_thread(_answer_of, pid, read), timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # the thread then reads nothing, and is done
        answer = None
    if answer is None:
        log.warning("garbage collection audit: the copy of the process gave no count within "
                    "%.0f s; skipped", timeout)
        return Audit(pause, timeout, None, True)
    found, walk = answer
    if found:
        here, freed = audit()
        log.warning("garbage collection audit: %d unreachable objects outlived their young "
                    "collection; freed here (%d, %.1f ms)", found, freed, here * 1000)
        return Audit(pause + here, walk, found, True)
    return Audit(pause, walk, found, True)


def _here_instead(error: OSError) -> Audit:
    log.warning("garbage collection audit: no copy of the process (%s); made here", error)
    pause, found = audit()
    return Audit(pause, pause, found, False)


def _walk_in_copy(write: int) -> NoReturn:
    """The forked copy: every inherited file closed but the answer's pipe, the walk, the
    answer, and out without running anything of the parent's (no atexit, no buffers flushed)."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, write)
        os.closerange(write + 1, max(os.sysconf("SC_OPEN_MAX"), write + 2))
        _first_to_go()
        # A finalizer failing (its file is closed here) is forgotten at once: a hook that kept
        # the error would keep its object, which would then not count as found.
        sys.unraisablehook = _forget
        gc.unfreeze()
        start = time.perf_counter()
        found = gc.collect()
        os.write(write, _FOUND.pack(found, time.perf_counter() - start))
    finally:
        os._exit(0)


def _first_to_go() -> None:
    """The walk writes to every object's header, so the copy grows to the size of the heap for
    its duration: if memory runs out, the system is to stop the copy, not the bot (Linux)."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "wb", 0) as score:
        score.write(b"1000")


def _forget(unraisable: object) -> None:
    return None


def _answer_of(pid: int, read: int) -> tuple[int, float] | None:
    try:
        _reap(pid)
        data = os.read(read, _FOUND.size)
    finally:
        os.close(read)
    if len(data) != _FOUND.size:
        return None
    found, walk = _FOUND.unpack(data)
    return int(found), float(walk)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):  # reaped already
        os.waitpid(pid, 0)


async def collect_periodically(seconds: float = AUDIT_SECONDS, *,
                               young_seconds: float = YOUNG_COLLECTION_SECONDS,
                               trim_seconds: float = TRIM_SECONDS) -> None:
    """The collections :func:`tune_gc` took away from CPython, on a clock: the young generation
    every ``young_seconds`` (:func:`young_collection`), the audit every ``seconds``
    (:func:`audit_elsewhere`); and the C heap trimmed every ``trim_seconds``
    (:func:`trim_heap`). Run it as a task for the process's life."""
    loop = asyncio.get_running_loop()
    audit_at = loop.time() + seconds
    trim_at = loop.time() + trim_seconds
    auditing: asyncio.Task[Audit] | None = None
    try:
        while True:
            due = young_seconds if auditing is not None else audit_at - loop.time()
            await asyncio.sleep(max(0.0, min(young_seconds, due)))
            if auditing is not None and auditing.done():
                done = auditing.result()
                auditing = None
                if done.found == 0:
                    log.debug("garbage collection audit: nothing found (%.1f ms stopped, "
                              "%.1f ms walked)", done.pause * 1000, done.walk * 1000)
            if loop.time() >= audit_at and auditing is None:
                auditing = loop.create_task(audit_elsewhere())
                audit_at = loop.time() + seconds  # the clock runs on while the copy walks
            young_collection()
            if loop.time() >= trim_at:
                trim_heap()
                trim_at = loop.time() + trim_seconds
    finally:
        if auditing is not None:
            auditing.cancel()
