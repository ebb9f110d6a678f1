"""What ``musbot bench load`` measures besides its own clock: memory, the host's steal, the
garbage collector's pauses and the save hook's time.

On a shared virtual machine the tail also depends on the host: time the hypervisor gives this
machine's CPUs to others (``steal`` in Linux's ``/proc/stat``) stops every table, and no figure
of this process shows it but the latency. So every run states the steal during the open loop,
per half-second (:class:`StealMeter`), and the p99 of the actions due and done in half-seconds
without any (the disk's stalls still in it): two runs' p99 compare only at similar steal.
"""

from __future__ import annotations

import array
import asyncio
import bisect
import itertools
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def current_rss() -> int:
    """Resident bytes now (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def percentile(sorted_values: list[float], pct: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(pct / 100 * len(sorted_values)) - 1))
    return sorted_values[index]



def _cpu_line(path: str) -> list[int] | None:
    """The first line of ``/proc/stat``: the machine's CPU time so far in clock ticks, as
    user nice system idle iowait irq softirq steal (guest time is inside user and nice);
    ``None`` where there is none (not Linux)."""
    try:
        with open(path, "rb") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != b"cpu":
        return None
    return [int(value) for value in fields[1:9]]


def cpu_ticks(path: str = "/proc/stat") -> tuple[int, int] | None:
    """``(stolen, all)``: ``steal`` is time the hypervisor gave this virtual machine's CPUs to
    someone else, which no figure of this process shows except its latency."""
    ticks = _cpu_line(path)
    return None if ticks is None else (ticks[7], sum(ticks))


def busy_ticks(path: str = "/proc/stat") -> tuple[int, int] | None:
    """``(busy, all)``: busy is every CPU's time running anything (user, nice, system, irq,
    softirq), stolen time apart."""
    ticks = _cpu_line(path)
    if ticks is None:
        return None
    return ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6], sum(ticks)


class OtherLoad:
    """How much of the machine the other processes used during the open loop: on a machine
    shared with other work (another test run, a second database), the queueing in the tail
    grows without any figure of this process showing why. In cores: 1.0 is one CPU kept busy
    all the time. A PostgreSQL server's own background processes (WAL writer, checkpointer,
    autovacuum) count among the others."""

    def __init__(self, read: Callable[[], tuple[int, int] | None] = busy_ticks) -> None:
        self.read = read
        self._start: tuple[int, int] | None = None
        self._wall = 0.0
        self.busy_s: float | None = None
        self.seconds = 0.0

    def start(self) -> None:
        self._start = self.read()
        self._wall = time.perf_counter()

    def stop(self) -> None:
        end = self.read()
        self.seconds = time.perf_counter() - self._wall
        if end is None or self._start is None:
            return
        self.busy_s = (end[0] - self._start[0]) / os.sysconf("SC_CLK_TCK")

    def cores(self, own_seconds: float) -> float | None:
        """Cores the others kept busy, on average: the machine's busy time less ``own_seconds``
        (this process's CPU, and its database server's)."""
        if self.busy_s is None or self.seconds <= 0:
            return None
        return max(0.0, self.busy_s - own_seconds) / self.seconds


class StealMeter:
    """The host's steal during the open loop, per window of ``window`` seconds: a one-minute p99
    on a shared virtual machine depends on it as much as on the code, so every run says how
    much there was, and what the p99 was over the windows that had none."""

    def __init__(self, window: float = 0.5,
                 read: Callable[[], tuple[int, int] | None] = cpu_ticks,
                 min_calm: int = 1000) -> None:
        self.window = window
        self.read = read
        self.min_calm = min_calm
        """Fewest actions a calm p99 is given for: ten of them above it."""
        self.edges: list[float] = []
        """Loop times of the samples; window ``i`` runs from ``edges[i]`` to ``edges[i + 1]``."""
        self.samples: list[tuple[int, int]] = []
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._sample()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.samples:
            return
        if len(self.samples) > 1 and \
                asyncio.get_running_loop().time() - self.edges[-1] < self.window / 2:
            # The run ended just after a sample: its last window runs on to the end instead of
            # being a window of a few ticks, where one stolen tick would read as half of them.
            del self.samples[-1], self.edges[-1]
        self._take()

    def _take(self) -> bool:
        ticks = self.read()
        if ticks is None:
            return False
        self.edges.append(asyncio.get_running_loop().time())
        self.samples.append(ticks)
        return True

    def _sample(self) -> None:
        if self._take():
            self._timer = asyncio.get_running_loop().call_later(self.window, self._sample)

    def fractions(self) -> list[float]:
        """Stolen share of the machine's CPU time in each window."""
        return [(stolen1 - stolen0) / (all1 - all0) if all1 > all0 else 0.0
                for (stolen0, all0), (stolen1, all1) in itertools.pairwise(self.samples)]

    def summary(self, phase: LoopPhase) -> dict[str, Any]:
        """Steal over the whole run and in its worst window, and the p99 of the actions due and
        done within windows without any (``None`` when fewer than :attr:`min_calm` were)."""
        if len(self.samples) < 2:
            return {"steal_share": None, "steal_share_worst": None, "calm_share": None,
                    "calm_latency_ms_p99": None}
        (stolen0, all0), (stolen1, all1) = self.samples[0], self.samples[-1]
        fractions = self.fractions()
        calm_windows = [f == 0.0 for f in fractions]
        edges = self.edges

        def calm(when: float) -> bool:
            i = bisect.bisect_right(edges, when) - 1
            return 0 <= i < len(calm_windows) and calm_windows[i]

        calm_latencies = sorted(latency for due, latency in zip(phase.dues, phase.latencies,
                                                                strict=True)
                                if calm(due) and calm(due + latency))
        share = len(calm_latencies) / max(len(phase.latencies), 1)
        return {
            "steal_share": round((stolen1 - stolen0) / (all1 - all0), 4) if all1 > all0 else 0.0,
            "steal_share_worst": round(max(fractions), 4),
            "calm_share": round(share, 3),
            "calm_latency_ms_p99": round(percentile(calm_latencies, 99) * 1000, 3)
            if len(calm_latencies) >= self.min_calm else None,
        }


class GcPauses:
    """The garbage collector's pauses: with a thousand tables' objects alive, a full
    collection stops every table at once, which shows in the latency tail."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._start))

    def summary(self) -> dict[str, Any]:
        full = [p for g, p in self.pauses if g == 2]
        return {"gc_collections": len(self.pauses), "gc_full": len(full),
                "gc_max_ms": round(max((p for _, p in self.pauses), default=0.0) * 1000, 2),
                "gc_max_ms_by_generation": [
                    round(max((p for g, p in self.pauses if g == gen), default=0.0) * 1000, 2)
                    for gen in range(3)],
                "gc_total_s": round(sum(p for _, p in self.pauses), 3)}


class SaveTimes:
    """Wraps the tables' persister to time its saves during the open loop: how much of an
    action's latency is the wait for its state to be committed (and its match records
    stored)."""

    def __init__(self, persist: Any) -> None:
        self.persist = persist
        self.on = False
        self.times: array.array[float] = array.array("d")

    async def save(self, table: Any, result: Any) -> Any:
        if not self.on:
            return await self.persist.save(table, result)
        start = time.perf_counter()
        try:
            return await self.persist.save(table, result)
        finally:
            self.times.append(time.perf_counter() - start)

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.times)
        return {"save_ms_p50": round(percentile(ordered, 50) * 1000, 3),
                "save_ms_p99": round(percentile(ordered, 99) * 1000, 3),
                "save_ms_max": round((ordered[-1] if ordered else 0.0) * 1000, 3)}


@dataclass
class LoopPhase:
    latencies: array.array[float] = field(default_factory=lambda: array.array("d"))
    dues: array.array[float] = field(default_factory=lambda: array.array("d"))
    """Open loop: each action's scheduled loop time, in the order of :attr:`latencies`."""
    actions: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    loop_cpu: float = 0.0
    """CPU time of the event loop's own thread: how busy the one core that plays is."""
    unissued: int = 0

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.latencies)
        ms = 1000.0
        return {"p50": percentile(ordered, 50) * ms, "p99": percentile(ordered, 99) * ms,
                "max": (ordered[-1] if ordered else 0.0) * ms}

