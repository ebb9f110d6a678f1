"""What ``musbot bench load`` says about the database failing under load: saves that could not be
stored, moves refused because of them, how long tables stayed paused, how long after an outage
they played again, and whether every acknowledged move is in the database at the end.

A move is done only when it is saved (``musbot/table/pause.py``): a table whose save fails goes
back to what is stored, refuses moves while paused, and plays on by itself once a save is stored
again. So under a fault the figures that matter are not the latency's but these:

- ``saves_failed``: saves the database did not take (each undone, its table paused);
- ``moves_refused``: the people's moves refused meanwhile (each told «no puedo guardar la
  jugada; repite en unos segundos»);
- ``pause_max_s``: the longest a table stayed paused (sampled every :data:`WATCH_SECONDS`);
- ``resume_s``: with ``--outage``, from the end of the outage until no table was paused;
- ``acknowledged_lost``: moves the run acknowledged (tables' actions applied, shown and
  answered) that the database does not give back at the end; any makes the run exit 1.

``--outage SECONDS`` makes the database fail for that long in the middle of the open loop: by
default every write fails as the driver fails when the database is gone (SQLite's «database or
disk is full», asyncpg's lost connection), injected in the backend
(:attr:`~musbot.storage.backend.Backend.fault`); with ``--stop-with CMD`` and ``--start-with
CMD`` those commands stop and start the real server instead (``pg_ctl -D … -m fast stop``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

WATCH_SECONDS = 0.1
"""How often the tables' pauses are looked at, while any may be paused."""


@dataclass
class Outage:
    """The database away for ``seconds`` in the middle of the open loop."""

    seconds: float
    stop: str | None = None
    """A shell command that stops the database server (else writes fail by injection)."""
    start: str | None = None
    began: float | None = None
    ended: float | None = None
    """Loop times: the outage began, and the database was back (the start command returned)."""

    async def run(self, at: float, backend: Any) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, at - loop.time()))
        self.began = loop.time()
        if self.stop is not None:
            await _shell(self.stop)
        else:
            backend.fault = _failing(backend.dialect)
        await asyncio.sleep(max(0.0, self.began + self.seconds - loop.time()))
        if self.start is not None:
            await _shell(self.start)
        else:
            backend.fault = None
        self.ended = loop.time()


async def _shell(command: str) -> None:
    process = await asyncio.create_subprocess_shell(
        command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await process.communicate()
    if process.returncode:
        raise RuntimeError(f"{command!r} exited {process.returncode}: {err.decode().strip()}")


def _failing(dialect: str) -> Any:
    """A write hook that fails every write the way the driver does with the database gone."""
    if dialect == "postgresql":
        from asyncpg.exceptions import ConnectionDoesNotExistError

        def gone(_stage: str, _name: str) -> None:
            raise ConnectionDoesNotExistError("connection was closed in the middle of operation")

        return gone

    def full(_stage: str, _name: str) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    return full


@dataclass
class Faults:
    """The run's refused moves, and the tables' pauses as a watcher saw them."""

    refused: int = 0
    stale: int = 0
    """Moves decided before their time came, overtaken by then (a turn clock ran out on a
    machine too slow for the load): refused by the table, as a person's late click is."""
    pause_max: float = 0.0
    resume: float | None = None
    _since: dict[int, float] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None

    def start(self, tables: Iterable[Any], outage: Outage | None,
              failures: Callable[[], int]) -> None:
        """``failures``: the saves that failed so far. A table pauses only when one of its saves
        fails (``pause.py``), so the tables are swept only after a failure, until none is
        paused: the watcher costs the run nothing while the database takes every save."""
        self._task = asyncio.get_running_loop().create_task(
            self._watch(list(tables), outage, failures))

    async def resumed(self, tables: Iterable[Any], limit: float) -> None:
        """Waits (up to ``limit`` seconds) until no table is paused: after an outage, before
        the closed loop measures what the process sustains."""
        loop = asyncio.get_running_loop()
        end = loop.time() + limit
        tables = list(tables)
        while any(table.paused for table in tables) and loop.time() < end:
            await asyncio.sleep(WATCH_SECONDS)
        await asyncio.sleep(WATCH_SECONDS * 1.5)  # the watcher's next look

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        now = asyncio.get_running_loop().time()
        for began in self._since.values():  # still paused at the end
            self.pause_max = max(self.pause_max, now - began)

    async def _watch(self, tables: list[Any], outage: Outage | None,
                     failures: Callable[[], int]) -> None:
        loop = asyncio.get_running_loop()
        seen = failures()
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            now = loop.time()
            failed = failures()
            if failed != seen or self._since:
                seen = failed
                self._sweep(tables, now)
            if outage is not None and outage.ended is not None and self.resume is None \
                    and not self._since:
                self.resume = now - outage.ended

    def _sweep(self, tables: list[Any], now: float) -> None:
        for table in tables:
            began = self._since.get(table.channel_id)
            if table.paused and began is None:
                self._since[table.channel_id] = now
            elif not table.paused and began is not None:
                del self._since[table.channel_id]
                self.pause_max = max(self.pause_max, now - began)


def marks(tables: Iterable[Any]) -> dict[int, tuple[int, str]]:
    """Each table's applied actions and its match as it is, in a few characters: what the
    database must give back after the run."""
    return {table.channel_id: (table.state.turn, _digest(table)) for table in tables}


def _digest(table: Any) -> str:
    match = table.match
    text = json.dumps(None if match is None else match.snapshot(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def lost(live: dict[int, tuple[int, str]], restored: Iterable[Any]) -> int:
    """Acknowledged actions the restored tables lack: a table restored behind what the run had
    (or not at all) loses the difference; one restored with another match than the run had
    loses every action of it."""
    back = marks(restored)
    missing = 0
    for channel, (turn, digest) in live.items():
        again = back.get(channel)
        if again is None:
            missing += turn
        elif again != (turn, digest):
            missing += max(1, turn - again[0])
    return missing
