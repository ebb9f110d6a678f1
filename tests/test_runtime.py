"""The garbage-collector policy of a long-running bot (musbot.runtime, issue 6): young
collections on a clock as well as on CPython's account, full ones on a schedule."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator

import pytest

from musbot import runtime


@pytest.fixture
def restore_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tune_gc_leaves_only_young_collections_automatic(restore_gc: None) -> None:
    runtime.tune_gc()
    young, middle, full = gc.get_threshold()
    assert young > 0 and middle >= 10**6 and full >= 10**6
    assert gc.get_freeze_count() > 0  # start-up's objects are out of every later collection


async def generations_collected(run_for: float, **clock: float) -> list[int]:
    """The generation of every collection made while ``collect_periodically(**clock)`` runs
    for ``run_for`` seconds."""
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(watch)
    try:
        task = asyncio.create_task(runtime.collect_periodically(**clock))
        await asyncio.sleep(run_for)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        gc.callbacks.remove(watch)
    return seen


async def test_full_collections_run_on_the_schedule(restore_gc: None) -> None:
    runtime.tune_gc()

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    Cycle()  # unreachable at once, but only a collection frees a cycle
    seen = await generations_collected(0.05, seconds=0.01)
    assert 2 in seen, "a full collection ran"
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())


def test_full_collection_collects_every_generation_and_times_its_pause(restore_gc: None) -> None:
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    Cycle()
    gc.callbacks.append(watch)
    try:
        before = time.perf_counter()
        pause = runtime.full_collection()
        elapsed = time.perf_counter() - before
    finally:
        gc.callbacks.remove(watch)
    assert seen == [2]
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())
    assert 0 < pause <= elapsed  # the pause it reports is the collection's, measured around it


async def test_young_collections_run_on_the_clock_between_full_ones(restore_gc: None) -> None:
    """Left to CPython's threshold, young collections came rarer and longer as old objects
    died (issue 6): the clock runs one every ``young_seconds`` whatever the threshold says."""
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    seen = await generations_collected(0.1, seconds=3600, young_seconds=0.005)
    assert seen.count(0) >= 5 and 2 not in seen
