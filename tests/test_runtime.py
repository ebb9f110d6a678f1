"""The garbage-collector policy of a long-running bot (musbot.runtime, issues 6 and 24): young
collections on a clock as well as on CPython's account, their survivors frozen, and an audit of
every object on a schedule; and the C heap's free memory given back on a clock (issue 43)."""

from __future__ import annotations

import asyncio
import gc
import os
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


class Cycle:
    """Garbage only a collection frees."""

    def __init__(self) -> None:
        self.me = self


async def test_the_audit_runs_on_the_schedule(restore_gc: None) -> None:
    """The copy finds the cycle, so the bot collects for real, and the cycle is freed."""
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    kept = [Cycle()]
    runtime.young_collection()  # alive: frozen
    del kept  # cyclic garbage now, frozen: only the audit sees it
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(watch)
    task = asyncio.create_task(runtime.collect_periodically(seconds=0.01))
    try:
        for _ in range(500):
            await asyncio.sleep(0.02)
            if 2 in seen:
                break
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        gc.callbacks.remove(watch)
    assert 2 in seen, "a full collection ran"
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())


async def test_the_heap_is_trimmed_on_its_own_clock(restore_gc: None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    monkeypatch.setattr(runtime, "_TRIM", lambda pad: asked.append(pad) or 1)
    before = runtime.TRIMS.count
    runtime.tune_gc()
    await generations_collected(0.35, trim_seconds=0.1)
    assert 2 <= len(asked) <= 4 and set(asked) == {0}
    assert runtime.TRIMS.count - before == len(asked)
    assert runtime.TRIMS.longest < 0.05


def test_without_glibc_nothing_is_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "_TRIM", None)
    before = runtime.TRIMS.count
    assert runtime.trim_heap() is False
    assert runtime.TRIMS.count == before


@pytest.mark.skipif(runtime._TRIM is None, reason="a C library without malloc_trim")
def test_a_trim_gives_the_heaps_freed_middle_back_to_the_system() -> None:
    """Freed blocks between live ones stay resident in glibc's heap until trimmed: what a bot
    leaves at every move (issue 43)."""
    def resident() -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    blocks = [bytes(range(256)) * 4 + bytes([i % 256]) for i in range(60_000)]  # 1 KB each
    kept = blocks[::16]  # one in sixteen lives on: the pages between them are free
    del blocks
    before = resident()
    assert runtime.trim_heap()
    returned = before - resident()
    assert returned > 20 * 2**20, f"{returned / 2**20:.1f} MB given back"
    assert len(kept) == 3750


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no Linux /proc")
def test_a_process_cpu_time_is_read_in_ticks_and_none_once_it_is_gone() -> None:
    before = runtime.process_ticks(os.getpid())
    assert before is not None and before >= 0
    end = time.process_time() + 0.2
    while time.process_time() < end:  # a fifth of a second of this process's CPU
        pass
    after = runtime.process_ticks(os.getpid())
    assert after is not None and after - before >= 0.1 * os.sysconf("SC_CLK_TCK")
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    assert runtime.process_ticks(pid) is None


def test_a_young_collection_freezes_its_survivors(restore_gc: None) -> None:
    """What outlives its young collection is never walked again: later collections cost what
    is new, not what the tables keep."""
    runtime.tune_gc()
    kept = [Cycle() for _ in range(100)]
    frozen = gc.get_freeze_count()
    runtime.young_collection()
    assert gc.get_freeze_count() >= frozen + 100
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())  # none left to walk
    del kept  # dropped: freed by reference counting, frozen or not (their cycles aside)


def test_the_audit_walks_frozen_objects_and_counts_what_it_frees(restore_gc: None) -> None:
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    Cycle()
    runtime.young_collection()  # the cycle outlived nothing: freed here, not frozen
    cycle = Cycle()
    kept = [cycle]
    runtime.young_collection()  # alive: frozen
    del kept, cycle  # cyclic garbage now, frozen: only the audit sees it
    gc.callbacks.append(watch)
    try:
        before = time.perf_counter()
        pause, found = runtime.audit()
        elapsed = time.perf_counter() - before
    finally:
        gc.callbacks.remove(watch)
    assert seen == [2]
    assert found >= 1
    assert gc.get_freeze_count() > 0  # the survivors frozen again
    assert 0 < pause <= elapsed  # the pause it reports is the collection's, measured around it
    gc.unfreeze()
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())


async def test_young_collections_run_on_the_clock_between_full_ones(restore_gc: None) -> None:
    """Left to CPython's threshold, young collections came rarer and longer as old objects
    died (issue 6): the clock runs one every ``young_seconds`` whatever the threshold says."""
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    seen = await generations_collected(0.1, seconds=3600, young_seconds=0.005)
    assert seen.count(0) >= 5 and 2 not in seen


def _full_collections() -> tuple[list[int], object]:
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            seen.append(2)

    return seen, watch


needs_fork = pytest.mark.skipif(not runtime.can_fork(), reason="no os.fork here")


@needs_fork
async def test_an_audit_that_finds_nothing_does_not_walk_in_the_bot(restore_gc: None) -> None:
    """Issue 24: the walk of every object is made in a forked copy; the bot stops only for the
    fork, and makes no full collection of its own."""
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)
    full, watch = _full_collections()
    runtime.young_collection()
    gc.callbacks.append(watch)  # type: ignore[arg-type]
    try:
        done = await runtime.audit_elsewhere()
    finally:
        gc.callbacks.remove(watch)  # type: ignore[arg-type]
    assert done.forked and done.found == 0 and full == []
    assert done.pause > 0 and done.walk > 0


class Finalized:
    """Cyclic garbage whose finalizer writes to a file the bot holds open."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.me = self

    def __del__(self) -> None:
        os.write(self.fd, b"freed\n")


@needs_fork
async def test_garbage_the_copy_finds_is_freed_in_the_bot_and_only_there(
        restore_gc: None, tmp_path: object) -> None:
    """The copy closes every file it inherited before it walks: a finalizer it runs reaches
    nothing of the bot's (a socket written from two processes would be garbled), and the bot
    then frees the garbage itself — its finalizer runs once."""
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)
    path = os.path.join(str(tmp_path), "log")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        garbage = Finalized(fd)
        runtime.young_collection()  # alive: frozen
        del garbage  # cyclic garbage now, frozen: only an audit sees it
        full, watch = _full_collections()
        gc.callbacks.append(watch)  # type: ignore[arg-type]
        try:
            done = await runtime.audit_elsewhere()
        finally:
            gc.callbacks.remove(watch)  # type: ignore[arg-type]
    finally:
        os.close(fd)
    assert done.found is not None and done.found >= 1 and full == [2]
    with open(path, "rb") as written:
        assert written.read() == b"freed\n"
    gc.unfreeze()
    assert not any(isinstance(o, Finalized) for o in gc.get_objects())


@needs_fork
async def test_a_copy_that_does_not_answer_is_stopped(restore_gc: None,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    runtime.tune_gc()
    done = await runtime.audit_elsewhere(timeout=0.0)
    assert done.found is None and done.forked
    assert "gave no count" in caplog.text


@needs_fork
@pytest.mark.skipif(not os.path.exists("/proc/self/oom_score_adj"), reason="not Linux")
def test_the_copy_is_the_first_the_system_stops_when_memory_runs_out() -> None:
    """The copy grows to the heap's size while it walks: if memory runs out, it goes, not the
    bot (the audit then only says it gave no count)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # what the copy does before it walks
        try:
            runtime._first_to_go()
            with open("/proc/self/oom_score_adj", "rb") as score:
                os.write(write, score.read())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as answer:
        assert answer.read().strip() == b"1000"
    with open("/proc/self/oom_score_adj", "rb") as own:
        assert own.read().strip() != b"1000"  # the bot's own is left as it was


async def test_young_collections_keep_their_clock_while_the_copy_walks(
        restore_gc: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's walk takes a while in its copy: meanwhile the young generation is collected
    every ``young_seconds``, not back to back."""
    walks = 0

    async def slow_audit(timeout: float = runtime.AUDIT_TIMEOUT) -> runtime.Audit:
        nonlocal walks
        walks += 1
        await asyncio.sleep(0.2)
        return runtime.Audit(0.001, 0.2, 0, True)

    monkeypatch.setattr(runtime, "audit_elsewhere", slow_audit)
    runtime.tune_gc()
    gc.set_threshold(10**9, 10**9, 10**9)  # nothing on CPython's own account
    seen = await generations_collected(0.3, seconds=0.01, young_seconds=0.05)
    assert walks >= 1
    assert 3 <= seen.count(0) <= 12, seen.count(0)  # about 0.3 / 0.05
