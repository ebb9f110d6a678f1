"""«¿Cómo jugué?» asked at a table and answered off the event loop.

A review is asked as a :class:`ReviewAsk` — plain data, taken from the table's
:class:`~musbot.coach.book.HandBook` under its lock in a moment — and computed by
:class:`Reviewer` in a worker process, so no table waits for it: a thread would share the
interpreter's lock with the event loop (``musbot bench repaso`` measures how late the event loop
runs meanwhile). The review itself reads only the asking seat's views (:mod:`musbot.coach`):
asked in the middle of a hand it tells nothing its seat could not see.

The table, the Discord adapter and the terminal ask; the coach imports none of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from musbot.engine.senas import SenaSeen
from musbot.i18n import COACH
from musbot.wording import cards_text

from .review import review_transcript
from .text import text

CACHED = 256
"""Reviews answered kept, so a button pressed twice is answered at once."""


class ReviewRefused(Exception):
    """A review that cannot be given: a key of the ``COACH`` catalogues and its values."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        return COACH(self.key, lang, **self.params)


@dataclass(frozen=True, slots=True)
class ReviewAsk:
    """One seat's review of one hand, as data: all a worker needs to answer it."""

    transcript: dict[str, Any] = field(repr=False)
    """Every seat's cards: read by the review through the seat's views only, never shown."""
    seat: int
    number: int
    senas: tuple[tuple[SenaSeen, ...], ...]
    """Per action of the hand, the señas its speaker had seen."""
    upto: int
    """Actions of the hand played when asked (a hand in play is reviewed so far)."""
    lang: str
    match_id: str = ""
    """The match's own id in this process (two matches both have a hand 1)."""

    @property
    def key(self) -> tuple[object, ...]:
        return (self.match_id, self.number, self.seat, self.upto, self.lang)

    def answer(self) -> str:
        """The review in words (CPU-bound: run it in a worker)."""
        # Each decision's sampling is seeded by what its seat knew (coach.decision_seed): the
        # same figures whoever asks, in any language, during the hand or after it.
        found = review_transcript(self.transcript, self.seat, self.senas, upto=self.upto)
        return text(found, self.lang, hand_number=self.number, show=cards_text)


def ignore_interrupts() -> None:
    """A worker process's start: Ctrl-C reaches every process of the terminal's foreground
    group, the workers too, and is the parent's to answer (it closes its pool); a worker that
    took it printed a KeyboardInterrupt traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def answered(ask: ReviewAsk) -> tuple[str, float]:
    """In the worker: the review's text, and the worker's CPU seconds spent on it."""
    start = time.process_time()
    text = ask.answer()
    return text, time.process_time() - start


class Reviewer:
    """Answers reviews in one worker process (one at a time: the machine's other core stays for
    the tables), one in flight per person, the last answers cached."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._own: Executor | None = None
        self._busy: set[int] = set()
        self._waiting: set[asyncio.Future[None]] = set()
        """One per review in flight: set when the bot stops, so none is left unanswered."""
        self._answering = 0
        """Reviews asked and not answered to their person yet (:meth:`answering`)."""
        self._cache: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self.cpu: list[float] = []
        """The worker's CPU seconds for each review computed (``musbot bench repaso``)."""

    def _pool(self) -> Executor:
        if self._executor is not None:
            return self._executor
        if self._own is None:  # spawned: a fork would copy the bot's threads' locks
            self._own = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=ignore_interrupts)
        return self._own

    async def answer(self, user_id: int, ask: ReviewAsk) -> str:
        cached = self._cache.get(ask.key)
        if cached is not None:
            self._cache.move_to_end(ask.key)
            return cached
        if user_id in self._busy:
            raise ReviewRefused("busy")
        self._busy.add(user_id)
        loop = asyncio.get_running_loop()
        stopping = loop.create_future()
        self._waiting.add(stopping)
        try:
            work = loop.run_in_executor(self._pool(), answered, ask)
            await asyncio.wait((work, stopping), return_when=asyncio.FIRST_COMPLETED)
            if not work.done():
                work.cancel()
                raise ReviewRefused("stopping")
            text, cpu = work.result()
            self.cpu.append(cpu)
        finally:
            self._busy.discard(user_id)
            self._waiting.discard(stopping)
        self._cache[ask.key] = text
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return text

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Around a review asked and answered to its person: :meth:`stop` waits for it."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1

    async def stop(self, grace: float) -> None:
        """The bot stops: every review in flight is answered at once, that it could not be
        given now (``stopping``), within ``grace`` seconds; then the worker goes."""
        for waiting in list(self._waiting):
            if not waiting.done():
                waiting.set_result(None)
        deadline = time.monotonic() + grace
        while self._answering and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        self.close()

    def close(self) -> None:
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None


REVIEWER = Reviewer()
"""The process's reviewer: every table's reviews queue on its one worker."""


__all__ = ["CACHED", "REVIEWER", "ReviewAsk", "ReviewRefused", "Reviewer"]
