"""Time for turn timers, injectable so tests advance it by hand and never really sleep."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Protocol, runtime_checkable


class Pending(Protocol):
    """A pending :meth:`Clock.call_later`: what cancels it."""

    def cancel(self) -> None: ...


@runtime_checkable
class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Pending:
        """Runs ``callback`` (plain, not a coroutine) after ``seconds``. The turn timers use
        this rather than a sleeping task: a table re-arms its timer on every move, and a
        task per move (created, then cancelled) costs a busy bot more than the move itself."""
        ...


class RealClock:
    """The event loop's clock."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Pending:
        return asyncio.get_running_loop().call_later(max(0.0, seconds), callback)


class _ManualAlarm:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], object]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def done(self) -> bool:
        return self.cancelled


class ManualClock:
    """A clock that moves only when :meth:`advance` is awaited: sleepers wake in time order, and
    each gets the chance to run (and schedule more sleeps) before the next one is woken."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None] | _ManualAlarm]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + max(0.0, seconds), next(self._seq), future))
        await future

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Pending:
        alarm = _ManualAlarm(callback)
        heapq.heappush(self._sleepers, (self._now + max(0.0, seconds), next(self._seq), alarm))
        return alarm

    @property
    def sleepers(self) -> int:
        """How many sleeps and alarms are pending (cancelled ones excluded)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        target = self._now + seconds
        await settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, waiter = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if waiter.done():
                continue
            if isinstance(waiter, _ManualAlarm):
                waiter.cancelled = True  # fired: no longer pending
                waiter.callback()
            else:
                waiter.set_result(None)
            await settle()
        self._now = target
        await settle()


async def settle(rounds: int = 50) -> None:
    """Lets every ready task run until things go quiet (enough rounds for lock hand-offs)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
