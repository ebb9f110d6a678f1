"""The table's bookkeeping that follows a Discord call (remembering the messages that show a
page, a DM refused), run without holding anyone up; at shutdown dropped with the governor's
pending calls."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Coroutine
from typing import Any

from .governor import Governor

log = logging.getLogger(__name__)


class Bookkeeping:
    """Tasks started after calls of one governor; their failures are logged."""

    def __init__(self, governor: Governor) -> None:
        self._governor = governor
        self._tasks: dict[asyncio.Task[Any], Coroutine[Any, Any, Any]] = {}
        """Under way, with its work: a task cancelled before it starts leaves its work
        unstarted, to be closed."""

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` without holding anyone up; its failure is logged."""
        if self._governor.stopped:  # shutting down: the table is saved as it is
            work.close()
            return
        task = asyncio.get_running_loop().create_task(_quietly(work))
        self._tasks[task] = work
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._tasks.pop(task, None)

    async def cancel(self) -> None:
        """Shutdown: pending calls are dropped (the restart shows every table again), and the
        bookkeeping started after earlier calls is cancelled and waited for, so none is left
        unstarted when the loop closes."""
        self._governor.cancel()
        tasks = dict(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for work in tasks.values():
            work.close()


async def _quietly(work: Awaitable[Any]) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.warning("table bookkeeping after a Discord call failed", exc_info=True)


__all__ = ["Bookkeeping"]
