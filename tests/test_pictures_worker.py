"""The pictures' worker processes (``musbot.pictures.worker``): a picture drawn there is the
one drawn here; a drawing that fails fails its caller alone; a worker that dies fails what it
had under way and another takes its place; pictures spread over the workers, a few sent ahead
to each, the rest waiting in the bot; closing stops them all. Real processes, spawned."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from musbot.engine.cards import parse_card
from musbot.pictures import worker
from musbot.pictures.hand import hand_png
from musbot.pictures.worker import SENT_AHEAD, Drawer, WorkerStopped


async def test_a_picture_drawn_by_the_worker_is_the_one_drawn_here() -> None:
    hand = tuple(parse_card(c) for c in ("3o", "2c", "7e", "12b"))
    drawer = Drawer()
    try:
        assert await drawer(hand_png, hand) == hand_png(hand)
    finally:
        drawer.close()


async def test_a_failed_drawing_fails_its_caller_and_the_worker_goes_on() -> None:
    drawer = Drawer()
    try:
        first = await drawer(os.getpid)
        with pytest.raises(ValueError):
            await drawer(int, "no es un número")
        assert await drawer(os.getpid) == first != os.getpid()
    finally:
        drawer.close()


async def test_a_worker_that_dies_fails_its_pictures_and_another_takes_its_place() -> None:
    drawer = Drawer()
    try:
        first = await drawer(os.getpid)
        gone = asyncio.ensure_future(drawer(time.sleep, 0.3))
        with pytest.raises(WorkerStopped):
            await drawer(os._exit, 1)
        with pytest.raises(WorkerStopped):
            await gone  # sent ahead to the same worker
        again = await drawer(os.getpid)
        assert again != first
    finally:
        drawer.close()


async def test_pictures_spread_over_the_workers_a_few_sent_ahead_to_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "SENT_AHEAD", 2)
    drawer = Drawer(workers=2)
    try:
        await asyncio.gather(drawer(os.getpid), drawer(os.getpid))  # both started
        slow = [asyncio.ensure_future(drawer(time.sleep, 0.05)) for _ in range(10)]
        await asyncio.sleep(0.02)
        assert [len(w.waiting) for w in drawer._started] == [2, 2]
        assert len(drawer._queue) == 6, "the rest wait in the bot"
        await asyncio.gather(*slow)
        pids = await asyncio.gather(*(drawer(os.getpid) for _ in range(8)))
        assert len(set(pids)) == 2
    finally:
        drawer.close()
    assert SENT_AHEAD * len(pickle_sized()) < 64 * 1024, "what waits in a pipe never blocks"


def pickle_sized() -> bytes:
    """The biggest message a showdown sends: six long names, every lance, long lines."""
    import pickle

    from musbot.engine import DECK
    from musbot.pictures.table import LanceRow, TableSnapshot, table_png

    snap = TableSnapshot(names=tuple("ñ" * 200 for _ in range(6)), mano=0,
                         hands=tuple(tuple(DECK[4 * i:4 * i + 4]) for i in range(6)),
                         lances=tuple(LanceRow(i % 5, i % 2, 40, "ordago") for i in range(10)),
                         extra=("x" * 2000,) * 3)
    return pickle.dumps((10**9, table_png, (snap,)))


async def test_a_caller_that_stops_waiting_leaves_the_others_theirs() -> None:
    drawer = Drawer()
    try:
        await drawer(os.getpid)
        waited = asyncio.ensure_future(drawer(time.sleep, 0.1))
        await asyncio.sleep(0)
        waited.cancel()
        assert await drawer(str, 7) == "7"
    finally:
        drawer.close()


async def test_closing_stops_the_workers_and_cancels_what_waits() -> None:
    drawer = Drawer()
    await drawer(os.getpid)
    process = drawer._started[0].process
    pending = [asyncio.ensure_future(drawer(time.sleep, 0.5)) for _ in range(SENT_AHEAD + 3)]
    await asyncio.sleep(0.05)
    drawer.close()
    results = await asyncio.gather(*pending, return_exceptions=True)
    assert all(isinstance(r, asyncio.CancelledError) for r in results)
    assert not process.is_alive() and drawer._started == []


async def test_started_workers_warm_up_before_the_first_picture() -> None:
    drawer = Drawer(workers=2)
    try:
        drawer.start()
        assert [len(w.waiting) for w in drawer._started] == [1, 1], "each warming up"
        pids = await asyncio.gather(*(drawer(os.getpid) for _ in range(4)))
        assert len(set(pids)) == 2
        assert all(not w.waiting for w in drawer._started), "warmed up and answered"
    finally:
        drawer.close()


async def test_every_answer_waiting_in_the_pipe_is_read_at_once() -> None:
    """A busy loop comes round to the pipe seldom: all the answers there are taken each time,
    not one a round (which capped a worker at a few pictures a round)."""
    drawer = Drawer()
    try:
        drawer.start()
        await drawer(str, 0)
        asked = [asyncio.ensure_future(drawer(str, n)) for n in range(12)]
        await asyncio.sleep(0)  # each sent
        time.sleep(0.5)  # the loop busy elsewhere; the worker answers them all meanwhile
        for _ in range(3):
            await asyncio.sleep(0)
        assert all(a.done() for a in asked)
        assert [a.result() for a in asked] == [str(n) for n in range(12)]
    finally:
        drawer.close()
