"""The governor keeps every channel within Discord's limits, whatever the tables ask of it:
5 messages and 5 edits per 5 s per channel, an edit at most once a second, 50 calls a second in
all; edits coalesce into the next allowed one; no channel waits for another."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable

import pytest

from musbot.discordio.governor import STARTS_PER_STEP, Governor, Limits
from musbot.table import ManualClock


def in_any_window(times: list[float], window: float) -> int:
    """The most calls within any ``window`` seconds."""
    return max((sum(1 for t in times if start <= t < start + window) for start in times),
               default=0)


def recorder(clock: ManualClock, times: list[float], result: object = None
             ) -> Callable[[], Awaitable[object]]:
    async def call() -> object:
        times.append(clock.now())
        return result
    return call


async def test_posts_keep_their_order_and_five_per_five_seconds() -> None:
    clock = ManualClock()
    governor = Governor(clock)
    order: list[int] = []
    times: list[float] = []

    def post(n: int) -> Callable[[], Awaitable[int]]:
        async def send() -> int:
            order.append(n)
            times.append(clock.now())
            return n
        return send

    futures = [governor.post("table", post(n)) for n in range(12)]
    await clock.advance(0)
    assert order == [0, 1, 2, 3, 4], "five at once, then the channel's window is full"
    await clock.advance(20)
    assert order == list(range(12))
    assert [f.result() for f in futures] == list(range(12))
    assert in_any_window(times, 5.0) == 5
    assert in_any_window(times, 5.25) == 5, "a quarter of a second to spare for the network"
    assert times[5] == pytest.approx(5.25) and times[10] == pytest.approx(10.5)


async def test_edits_coalesce_and_come_at_most_once_a_second() -> None:
    clock = ManualClock()
    governor = Governor(clock)
    shown: list[tuple[float, int]] = []
    state = {"n": 0}

    async def render() -> None:
        shown.append((clock.now(), state["n"]))

    for n in range(1, 101):  # a change every 0.1 s for 10 s
        state["n"] = n
        governor.edit("table", "message", render)
        await clock.advance(0.1)
    await clock.advance(5)
    times = [t for t, _ in shown]
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(times))
    assert in_any_window(times, 5.0) <= 5
    assert len(shown) <= 11, "coalesced: ten seconds of changes in about ten edits"
    assert shown[-1][1] == 100, "the last edit shows the last change"


async def test_a_lane_remembers_its_calls_while_idle() -> None:
    """Regression: an idle lane was forgotten with the times of its calls, so a channel whose
    edits came one at a time was edited at every change."""
    clock = ManualClock()
    governor = Governor(clock)
    times: list[float] = []
    for _ in range(20):
        governor.edit("table", "message", recorder(clock, times))
        await clock.advance(0.25)  # the lane is idle again before each new change
    await clock.advance(5)
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(times))
    assert len(times) <= 6


async def test_quiet_lanes_are_forgotten_a_few_at_a_time() -> None:
    """A lane per channel written to: once its calls no longer count it goes, by the next calls
    (never a sweep of every lane in one step, which stalled the loop at a bot's scale), and one
    written to again meanwhile stays as long as its newer calls count."""
    clock = ManualClock()
    governor = Governor(clock)
    sent: list[float] = []
    for n in range(40):  # within the global budget of a second
        governor.post(("dm", n), recorder(clock, sent))
    await clock.advance(0.1)
    assert (len(sent), governor.lanes()) == (40, 40)
    await clock.advance(4.0)
    governor.post(("dm", 7), recorder(clock, sent))
    await clock.advance(2.0)  # the first calls no longer count; ("dm", 7)'s second one does
    governor.post("table", recorder(clock, sent))
    await clock.advance(0.1)
    assert governor.lanes() == 2, "all but the lane written to again, and the one writing"
    await clock.advance(6.0)
    governor.post("table", recorder(clock, sent))
    await clock.advance(0.1)
    assert governor.lanes() == 1
    assert len(sent) == 43


async def test_the_runner_lets_the_loop_go_on_when_many_lanes_are_due() -> None:
    """After the loop was held up, hundreds of lanes may be due at once: the runner starts a
    few of their calls a step, and what waited meanwhile (a move) runs in between."""
    clock = ManualClock()
    governor = Governor(clock, Limits(calls_per_second=10**6))
    sent: list[float] = []
    for n in range(3 * STARTS_PER_STEP + 5):
        governor.post(("dm", n), recorder(clock, sent))
    await asyncio.sleep(0)  # the runner's first step, then this test's turn
    assert governor.counts["post"] == STARTS_PER_STEP
    await clock.advance(0.1)
    assert governor.counts["post"] == len(sent) == 3 * STARTS_PER_STEP + 5


async def test_an_edit_can_be_held_and_dropped() -> None:
    clock = ManualClock()
    governor = Governor(clock)
    times: list[float] = []
    governor.edit("table", "message", recorder(clock, times), not_before=3.0)
    await clock.advance(2.9)
    assert times == []
    governor.edit("table", "message", recorder(clock, times), not_before=10.0)
    await clock.advance(0.2)
    assert times == [pytest.approx(3.0)], "the earliest wish wins"
    governor.edit("table", "message", recorder(clock, times), not_before=5.0)
    governor.forget_edit("table", "message")
    await clock.advance(10)
    assert len(times) == 1, "shown another way (an interaction's answer): not edited again"


async def test_one_slow_channel_holds_up_no_other() -> None:
    """A call sleeping on Discord's own 429 (discord.py sleeps inside it) delays its lane only."""
    clock = ManualClock()
    governor = Governor(clock)
    stuck = asyncio.Event()
    fast: list[float] = []

    async def slow() -> None:
        await stuck.wait()

    governor.post("slow", slow)
    later = governor.post("slow", recorder(clock, []))
    for _ in range(3):
        governor.post("other", recorder(clock, fast))
    await clock.advance(1)
    assert len(fast) == 3 and not later.done()
    stuck.set()
    await clock.advance(0)
    assert later.done()


async def test_the_global_budget_is_shared_by_every_lane() -> None:
    clock = ManualClock()
    governor = Governor(clock, Limits(calls_per_second=50))
    times: list[float] = []
    for channel in range(200):
        governor.post(channel, recorder(clock, times))
    await clock.advance(10)
    assert len(times) == 200
    assert in_any_window(times, 1.0) == 50


async def test_failures_reach_the_caller_and_the_lane_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock()
    governor = Governor(clock)

    async def broken() -> None:
        raise RuntimeError("Discord said no")

    failed = governor.post("table", broken)
    after = governor.post("table", recorder(clock, [], "ok"))
    with caplog.at_level(logging.WARNING):
        governor.edit("table", "message", broken)
        await clock.advance(2)
    assert isinstance(failed.exception(), RuntimeError)
    assert after.result() == "ok"
    assert any("edit failed" in r.getMessage() for r in caplog.records)


async def test_deletes_wait_for_their_time_and_cancel_drops_everything() -> None:
    clock = ManualClock()
    governor = Governor(clock)
    deleted: list[float] = []
    governor.delete("table", 8.0, recorder(clock, deleted))
    await clock.advance(7)
    assert deleted == []
    await clock.advance(2)
    assert deleted == [pytest.approx(8.0)]
    posts: list[float] = []
    for _ in range(7):
        pending = governor.post("table", recorder(clock, posts))
    await clock.advance(0)
    governor.cancel()
    await clock.advance(10)
    assert len(posts) == 5 and pending.cancelled()


async def test_a_shutdown_before_the_calls_start_leaves_no_coroutine_unawaited() -> None:
    """Cancelled at shutdown while its calls' tasks had not started yet: Python warns of no
    coroutine that was made and never awaited (the bot's log and the benchmark's output
    showed «coroutine 'Governor._post' was never awaited»)."""
    import gc
    import warnings

    clock = ManualClock()
    governor = Governor(clock)
    made: list[float] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(3):
            governor.post("table", recorder(clock, made))
            governor.edit("table", n, recorder(clock, made))
        runner = governor._runner
        assert runner is not None
        # Let the runner start the first calls' tasks, but not the tasks themselves.
        await asyncio.sleep(0)
        assert governor._running, "calls were started"
        governor.cancel()
        await clock.advance(1)
        gc.collect()
    assert made == []
    assert not [w for w in caught if "never awaited" in str(w.message)]


async def test_after_a_shutdown_what_is_asked_is_dropped() -> None:
    """A dropped post's caller may react by posting the next page, or editing: as the bot stops,
    with Discord and the database about to go, nothing new starts."""
    clock = ManualClock()
    governor = Governor(clock)
    made: list[float] = []
    dropped = governor.post("table", recorder(clock, made))
    governor.cancel()
    assert dropped.cancelled()
    assert governor.post("table", recorder(clock, made)).cancelled()
    governor.edit("table", "message", recorder(clock, made))
    governor.delete("table", 0.0, recorder(clock, made))
    await clock.advance(10)
    assert made == [] and not governor.busy("table")


async def test_the_channels_own_messages_go_before_answers_and_find_a_slot() -> None:
    """Thirty answers queued (a crowd typing out of turn), then the table's own message: it goes
    next, at once, and answers never take the window's last two slots."""
    clock = ManualClock()
    governor = Governor(clock)
    answers: list[float] = []
    for _ in range(30):
        governor.post("table", recorder(clock, answers), reply=True)
    await clock.advance(0)
    assert len(answers) == 3, "answers leave two of the five slots"
    own: list[float] = []
    governor.post("table", recorder(clock, own))
    await clock.advance(0)
    assert own == [0.0], "the table's message does not wait for the answers"
    await clock.advance(60)
    assert len(answers) == 30
    assert in_any_window(answers + own, 5.25) <= 5
    assert in_any_window(answers, 5.25) <= 3


async def test_a_blocked_channel_drops_what_it_had_and_is_asked_nothing() -> None:
    clock = ManualClock()
    governor = Governor(clock)
    made: list[float] = []
    pending = [governor.post("table", recorder(clock, made)) for _ in range(8)]
    await clock.advance(0)
    governor.block("table")
    governor.edit("table", "message", recorder(clock, made))
    later = governor.post("table", recorder(clock, made))
    await clock.advance(30)
    assert len(made) == 5 and all(f.cancelled() for f in pending[5:]) and later.cancelled()
    governor.unblock("table")
    governor.post("table", recorder(clock, made))
    await clock.advance(30)
    assert len(made) == 6


async def test_a_flush_waits_on_when_an_earlier_call_replaces_the_sleeping_runner() -> None:
    """Regression: a flush waiting for the runner asleep until a later call failed with
    ``CancelledError`` when a call due sooner woke a new runner in its place."""
    clock = ManualClock()
    governor = Governor(clock)
    times: list[float] = []
    governor.edit("table", "message", recorder(clock, times), not_before=10.0)
    await clock.advance(0)  # the runner sleeps until then
    flushed = asyncio.get_running_loop().create_task(governor.flush())
    await asyncio.sleep(0)
    governor.edit("other", "message", recorder(clock, times), not_before=2.0)  # due sooner
    await clock.advance(2)
    assert not flushed.done() and times == [pytest.approx(2.0)]
    await clock.advance(8)
    await flushed  # returns once both are made, never cancelled
    assert times == [pytest.approx(2.0), pytest.approx(10.0)]
