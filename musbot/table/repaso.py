"""«¿Cómo jugué?» at a table: the hands a review may be asked of, and answering off the loop.

A table keeps the transcripts of its match's last :data:`KEPT` finished hands and, for every word
said in them, the señas that had reached its speaker then (a seña is part of what a seat knew).
A review is asked as a :class:`ReviewAsk` — plain data, taken under the table's lock in a moment
— and computed by :class:`Reviewer` in a worker process, so no table waits for it: a thread
would share the interpreter's lock with the event loop (``musbot bench repaso`` measures how
late the event loop runs meanwhile). Finished hands are kept compressed: a table keeps five,
and a transcript as Python objects is dozens of objects for the garbage collector to walk.
The review itself reads only the asking seat's views (:mod:`musbot.coach`): asked in the
middle of a hand it tells nothing its seat could not see.

Saved with the table (:meth:`HandBook.to_json`, the transcripts as they are kept: compressed), so
``/mus repaso`` answers after a restart; a table saved before the book was saved gets an empty
one. The words journaled since the table's last whole save get their señas back from the saved
ones (``saved.py``).
"""

from __future__ import annotations

import asyncio
import base64
import multiprocessing
import time
import uuid
import zlib
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from musbot.engine import Match
from musbot.engine.senas import Sena, SenaSeen

KEPT = 5
"""Finished hands of the match kept for review."""
CACHED = 256
"""Reviews answered kept, so a button pressed twice is answered at once."""


class ReviewRefused(Exception):
    """A review that cannot be given: a key of the ``COACH`` catalogues and its values."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        from musbot.coach.text import say

        return say(self.key, lang, **self.params)


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
        from musbot.coach import review_transcript
        from musbot.coach.text import text

        from .render import cards_text

        # Each decision's sampling is seeded by what its seat knew (coach.decision_seed): the
        # same figures whoever asks, in any language, during the hand or after it.
        found = review_transcript(self.transcript, self.seat, self.senas, upto=self.upto)
        return text(found, self.lang, hand_number=self.number, show=cards_text)


def answered(ask: ReviewAsk) -> tuple[str, float]:
    """In the worker: the review's text, and the worker's CPU seconds spent on it."""
    start = time.process_time()
    text = ask.answer()
    return text, time.process_time() - start


@dataclass(slots=True)
class _Hand:
    number: int
    packed: bytes
    """The transcript, as compressed JSON."""
    senas: dict[int, tuple[SenaSeen, ...]] = field(default_factory=dict)

    @property
    def transcript(self) -> dict[str, Any]:
        return dict(orjson.loads(zlib.decompress(self.packed)))


@dataclass(frozen=True, slots=True)
class KeptBook:
    """A :class:`HandBook` as it was at a save (``TablePersister`` keeps it beside the saved
    document it leaves out: its hands are compressed already, and held by the table)."""

    match_id: str
    finished: tuple[_Hand, ...]
    current: dict[int, tuple[SenaSeen, ...]]

    def to_json(self) -> dict[str, Any]:
        """:meth:`HandBook.to_json` as it was."""
        return {"match_id": self.match_id,
                "finished": [{"number": h.number,
                              "packed": base64.b64encode(h.packed).decode("ascii"),
                              "senas": _senas_json(h.senas)} for h in self.finished],
                "current": _senas_json(self.current)}


class HandBook:
    """The hands of the match in play a seat may ask a review of."""

    def __init__(self) -> None:
        self.match_id = uuid.uuid4().hex
        self.finished: deque[_Hand] = deque(maxlen=KEPT)
        self.current: dict[int, tuple[SenaSeen, ...]] = {}
        """The señas each word of the hand in play was said with, by the word's index."""

    def spoke(self, index: int, seen: Sequence[SenaSeen]) -> None:
        if seen:
            self.current[index] = tuple(seen)

    def hand_over(self, number: int, transcript: dict[str, Any]) -> None:
        self.finished.append(_Hand(number, zlib.compress(orjson.dumps(transcript), 1),
                                   self.current))
        self.current = {}

    def new_match(self) -> None:
        self.match_id = uuid.uuid4().hex
        self.finished.clear()
        self.current = {}

    # --- saved with the table ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-able and private (the finished hands' cards, the hand in play's señas): stored
        only with the table's own state."""
        return self.kept().to_json()

    def kept(self) -> KeptBook:
        """The book as it is now, sharing its finished hands (a finished hand never changes)."""
        return KeptBook(self.match_id, tuple(self.finished), dict(self.current))

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> HandBook:
        """The book :meth:`to_json` saved; None (a table saved before books were): an empty
        one. Raises ``ValueError`` (or ``KeyError``, ``TypeError``) on a damaged document."""
        book = cls()
        if data is None:
            return book
        book.match_id = str(data["match_id"])
        for kept in data["finished"][-KEPT:]:
            packed = base64.b64decode(kept["packed"], validate=True)
            try:  # a damaged transcript is refused now, not at a review
                orjson.loads(zlib.decompress(packed))
            except zlib.error as exc:
                raise ValueError(f"damaged hand transcript: {exc}") from exc
            book.finished.append(_Hand(int(kept["number"]), packed,
                                       _senas_from(kept["senas"])))
        book.current = _senas_from(data["current"])
        return book

    def ask(self, match: Match | None, seat: int, number: int | None,
            lang: str) -> ReviewAsk:
        """The review of hand ``number`` (None: the last finished one, or the hand in play
        before any has finished) for ``seat``, or :class:`ReviewRefused`."""
        if match is None:
            raise ReviewRefused("no_hands")
        in_play = match.hand if not match.hand.finished and not match.finished else None
        if number is None:
            if self.finished:
                number = self.finished[-1].number
            elif in_play is not None:
                number = match.hand_number
            else:
                raise ReviewRefused("no_hands")
        for kept in self.finished:
            if kept.number == number:
                transcript = kept.transcript
                return ReviewAsk(transcript, seat, number, _aligned(kept.senas),
                                 len(transcript["actions"]), lang, self.match_id)
        if in_play is not None and number == match.hand_number:
            transcript = in_play.transcript()
            return ReviewAsk(transcript, seat, number, _aligned(self.current),
                             len(transcript["actions"]), lang, self.match_id)
        numbers = [k.number for k in self.finished]
        if in_play is not None:
            numbers.append(match.hand_number)
        if not numbers:
            raise ReviewRefused("no_hands")
        raise ReviewRefused("no_hand", number=number, kept=KEPT,
                            numbers=", ".join(map(str, numbers)))


def _senas_json(senas: dict[int, tuple[SenaSeen, ...]]) -> list[list[Any]]:
    return [[index, [[s.seat, s.sena.value, s.partner] for s in seen]]
            for index, seen in sorted(senas.items())]


def _senas_from(data: list[list[Any]]) -> dict[int, tuple[SenaSeen, ...]]:
    return {int(index): tuple(SenaSeen(int(seat), Sena(value), bool(partner))
                              for seat, value, partner in seen)
            for index, seen in data}


def _aligned(senas: dict[int, tuple[SenaSeen, ...]]) -> tuple[tuple[SenaSeen, ...], ...]:
    if not senas:
        return ()
    return tuple(senas.get(i, ()) for i in range(max(senas) + 1))


class Reviewer:
    """Answers reviews in one worker process (one at a time: the machine's other core stays for
    the tables), one in flight per person, the last answers cached."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor
        self._own: Executor | None = None
        self._busy: set[int] = set()
        self._cache: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self.cpu: list[float] = []
        """The worker's CPU seconds for each review computed (``musbot bench repaso``)."""

    def _pool(self) -> Executor:
        if self._executor is not None:
            return self._executor
        if self._own is None:  # spawned: a fork would copy the bot's threads' locks
            self._own = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._own

    async def answer(self, user_id: int, ask: ReviewAsk) -> str:
        cached = self._cache.get(ask.key)
        if cached is not None:
            self._cache.move_to_end(ask.key)
            return cached
        if user_id in self._busy:
            raise ReviewRefused("busy")
        self._busy.add(user_id)
        try:
            loop = asyncio.get_running_loop()
            text, cpu = await loop.run_in_executor(self._pool(), answered, ask)
            self.cpu.append(cpu)
        finally:
            self._busy.discard(user_id)
        self._cache[ask.key] = text
        while len(self._cache) > CACHED:
            self._cache.popitem(last=False)
        return text

    def close(self) -> None:
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None


REVIEWER = Reviewer()
"""The process's reviewer: every table's reviews queue on its one worker."""


__all__ = ["KEPT", "REVIEWER", "HandBook", "ReviewAsk", "ReviewRefused", "Reviewer"]
