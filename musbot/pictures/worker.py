"""Where a running bot draws its pictures: worker processes, so that a busy bot's pictures (a
hand about 1 ms of CPU, a showdown about 5, four hands and a showdown at every table's every
hand) take the machine's other core instead of the event loop's, as the reviews do
(``musbot.coach.reviewer``). A thread would share the interpreter's lock with the loop.

Everything it draws is a module-level function of plain, picklable values (``table_png`` of
a :class:`~musbot.pictures.table.TableSnapshot`, a hand's ``png``): nothing of a live table
crosses to the worker.

**Cheap on the bot's side.** A picture goes to a worker as one pickled message on a pipe and
comes back as one, read by the event loop when the pipe is readable (``loop.add_reader``): no
thread in the bot's process, about 0.03 ms of its CPU a picture, where ``ProcessPoolExecutor``'s
queues and threads took 0.14-0.4 ms (a sixth of a core at 420 pictures a second, competing with
the loop for the interpreter's lock). Each time a worker's pipe is readable, every answer in it
is read (a busy loop comes round to it every few milliseconds: one answer a round would cap a
worker at a few hundred pictures a second). At most :data:`SENT_AHEAD` pictures, and
:data:`SENT_BYTES`, wait in a worker's pipe (a request is 0.2-0.4 KB, so a write never blocks
the loop); the rest wait here, and go to whichever worker is freest.

**Second to the loop.** A worker runs at a lower priority (``nice`` :data:`NICENESS`): on a
machine of two cores the loop's core is never taken by pictures, which are optional (a message
goes without its own when too many wait, ``musbot.discordio.drawing``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from musbot.runtime import process_ticks

WORKERS = 1
"""Worker processes: one. At ``musbot bench load --tables 1000 --rate 1000`` the pictures ask
for 0.6-0.7 of a core (400 a second at 1.6-1.8 ms of CPU each), which one worker has on the two
cores the bot is measured on, the loop taking half of the other: on the machine alone, it drew
23,247 of the open loop's 23,705 pictures with 0.52 of a core, the loop's p99 6.6 ms. With the
machine's other work taking about a core, a second one did not lower the
p99 (69, 88 and 103 ms against 85 and 104 with one, the machine's other work taking a core in
each run), raised the p50 (1.5-2.4 ms against 1.0-2.2) and would hold a second copy of the
caches (115 MB of RSS a worker); the pictures it drew more (15 thousand against 12.6) it drew
by taking a larger share of a machine shared with other work."""
SENT_AHEAD = 16
"""Pictures sent to a worker before its earlier ones are back: enough for the worker not to
wait for the loop between pictures, few enough that two workers share the work."""
SENT_BYTES = 32 * 1024
"""Bytes of requests sent to a worker and not yet answered, at most (past a lone one): half
the 64 KiB a pipe holds."""
NICENESS = 10
"""A worker's ``nice``: the loop first. In ``bench load`` (30 s, the machine's other work taking
a core) the loop's p50 was 1.0-1.2 ms with workers at 10 and 14-67 ms at 0."""


def warm_up() -> bytes:
    """A worker's first work, before any picture: the palette chosen (the cards drawn at
    their sizes) and each language's words read, about a second once, which the first
    pictures would otherwise wait for."""
    from musbot.i18n import LANGUAGE_CODES, PICTURE_WORDS

    from .canvas import palette

    palette()
    for lang in LANGUAGE_CODES:
        PICTURE_WORDS("new", lang)
    return b""


class WorkerStopped(RuntimeError):
    """The worker process ended with this picture under way (it is started again for the next
    one)."""


def _serve(conn: Connection) -> None:
    """A worker's life: each message is ``(number, work, args)``, each answer ``(number, ok,
    bytes or the exception)``, until the bot closes its end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bot's to handle
    os.nice(NICENESS)
    while True:
        try:
            number, work, args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer = (number, True, work(*args))
        except Exception as failure:  # the caller's, to log: the worker goes on
            answer = (number, False, failure)
        try:
            message = pickle.dumps(answer)
        except Exception:  # an exception that does not pickle: its text does
            message = pickle.dumps((number, False, RuntimeError(repr(answer[2]))))
        try:
            conn.send_bytes(message)
        except (EOFError, OSError):
            return


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    waiting: dict[int, tuple[asyncio.Future[bytes], int]] = field(default_factory=dict)
    """Pictures sent to it, by number, with their request's bytes."""

    @property
    def sent_bytes(self) -> int:
        return sum(size for _, size in self.waiting.values())


class Drawer:
    """Draws in :data:`WORKERS` worker processes, started at the first picture on the running
    loop; :meth:`close` stops them."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._started: list[_Worker] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: deque[tuple[bytes, asyncio.Future[bytes], int]] = deque()
        self._numbers = itertools.count()

    def start(self) -> None:
        """Starts the workers now, on the running loop, each warming up (:func:`warm_up`):
        the bot's first pictures then find them ready."""
        self._on(asyncio.get_running_loop())
        while len(self._started) < self.workers:
            self._started.append(self._start())

    def _on(self, loop: asyncio.AbstractEventLoop) -> None:
        if loop is not self._loop:
            self.close()  # a worker's pipe is read by one loop
            self._loop = loop

    async def __call__(self, work: Callable[..., bytes], *args: Any) -> bytes:
        loop = asyncio.get_running_loop()
        self._on(loop)
        number = next(self._numbers)
        future: asyncio.Future[bytes] = loop.create_future()
        self._queue.append((pickle.dumps((number, work, args)), future, number))
        self._send()
        return await future

    def _send(self) -> None:
        """Queued pictures to the freest workers, up to :data:`SENT_AHEAD` each."""
        while self._queue:
            message, future, number = self._queue[0]
            if future.done():  # its caller gave up waiting
                self._queue.popleft()
                continue
            worker = self._freest(len(message))
            if worker is None:
                return
            self._queue.popleft()
            worker.waiting[number] = (future, len(message))
            try:
                worker.conn.send_bytes(message)
            except (EOFError, OSError):
                self._stopped(worker)

    def _freest(self, size: int) -> _Worker | None:
        while len(self._started) < self.workers:
            self._started.append(self._start())
        worker = min(self._started, key=lambda w: len(w.waiting))
        if not worker.waiting:
            return worker
        if len(worker.waiting) >= SENT_AHEAD or worker.sent_bytes + size > SENT_BYTES:
            return None
        return worker

    def _start(self) -> _Worker:
        # spawned: a fork would copy the bot's threads' locks
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(target=_serve, args=(theirs,), daemon=True,
                                  name="musbot-pictures")
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        assert self._loop is not None
        self._loop.add_reader(ours.fileno(), self._receive, worker)
        number = next(self._numbers)
        warm: asyncio.Future[bytes] = self._loop.create_future()
        warm.add_done_callback(lambda done: done.cancelled() or done.exception())  # nobody waits
        message = pickle.dumps((number, warm_up, ()))
        worker.waiting[number] = (warm, len(message))
        ours.send_bytes(message)
        return worker

    def _receive(self, worker: _Worker) -> None:
        """Answers are in the worker's pipe: all of them are read (the worker writes each
        whole, so reading one waits at most for the rest of a write under way)."""
        try:
            while True:
                number, ok, value = pickle.loads(worker.conn.recv_bytes())
                future, _ = worker.waiting.pop(number, (None, 0))
                if future is not None and not future.done():
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
                if not worker.conn.poll(0):
                    break
        except (EOFError, OSError):
            self._stopped(worker)
            return
        self._send()

    def _stopped(self, worker: _Worker) -> None:
        """The worker ended (killed, or out of memory): its pictures fail, the next starts
        another."""
        self._drop(worker)
        for future, _ in worker.waiting.values():
            if not future.done():
                future.set_exception(WorkerStopped("the pictures' worker stopped"))
        worker.waiting.clear()
        self._send()

    def _drop(self, worker: _Worker) -> None:
        if worker in self._started:
            self._started.remove(worker)
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()  # the worker reads its end and leaves
        worker.process.join(0.5)
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join(0.5)

    def cpu_seconds(self) -> float | None:
        """The CPU time the live workers have used, from Linux's ``/proc`` (None elsewhere):
        what ``musbot bench load`` reports as the pictures' cores."""
        total = 0.0
        for worker in self._started:
            ticks = process_ticks(worker.process.pid)
            if ticks is None:
                return None
            total += ticks / os.sysconf("SC_CLK_TCK")
        return total

    def close(self) -> None:
        """Stops the workers; pictures under way or queued are cancelled."""
        for worker in list(self._started):
            self._drop(worker)
            for future, _ in worker.waiting.values():
                future.cancel()
        for _, future, _ in self._queue:
            future.cancel()
        self._queue.clear()
        self._loop = None


__all__ = ["WORKERS", "Drawer", "WorkerStopped", "warm_up"]
