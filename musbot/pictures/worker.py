"""Where a running bot draws its pictures: one worker process, so that a busy bot's showdowns
(15-20 ms of CPU each, one per hand at every table) take the machine's other core instead of
the event loop's, as the reviews do (``musbot.coach.reviewer``). A thread would share the
interpreter's lock with the loop.

Everything it draws is a module-level function of plain, picklable values (``table_png`` of
a :class:`~musbot.pictures.table.TableSnapshot`, a hand's ``png``): nothing of a live table
crosses to the worker.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _quiet() -> None:
    """In the worker: Ctrl-C is the bot's to handle, not the worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Drawer:
    """Draws in one worker process, started at the first picture; :meth:`close` stops it."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def __call__(self, work: Callable[..., bytes], *args: Any) -> bytes:
        if self._pool is None:  # spawned: a fork would copy the bot's threads' locks
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_quiet)
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["Drawer"]
