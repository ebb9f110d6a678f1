"""Every REST call musbot makes for its tables, kept within Discord's rate limits.

Discord lets one bot token make about 50 REST calls a second in all its servers (interaction
callbacks and their webhooks aside), and one channel take about 5 new messages and 5 edits per
5 seconds. Past that it answers 429 and discord.py sleeps inside the call, so moves would reach
the channel in bursts. Here every channel (a table's, or one person's DMs) has a lane: new
messages go out in order as their channel allows, edits of the same message coalesce into the
next allowed one (what is shown is rendered when the edit is made, never queued up one by one),
and no lane waits for another. A channel's own messages (a new hand, a reminder) go before the
answers to people (a refused move), which never take the last slots of a channel's window
(:attr:`Limits.reserved`): a crowd typing out of turn cannot hold the table up. A channel the
bot may no longer write to is blocked (:meth:`Governor.block`): what it had queued is dropped
and nothing more is asked of it until it is unblocked. discord.py's own 429 handling stays behind
this as the safety net: a lane whose call sleeps on a 429 (Discord may lower a limit) only
delays that lane.

Nothing here holds a table's lock or knows what a message says.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

from musbot.table import Clock

log = logging.getLogger(__name__)

STARTS_PER_STEP = 32
"""Calls the runner starts in one step of the event loop before it lets the rest run: after
the loop was held up, hundreds of lanes may be due at once."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Discord's published limits, with the one musbot adds: a channel's messages are edited
    at most once a second, so an edit shows a second's worth of moves."""

    messages: int = 5
    edits: int = 5
    window: float = 5.0
    slack: float = 0.25
    """Added to ``window`` before a sixth call: a call starts a little after its turn and
    reaches Discord after a network's delay, so two calls sent exactly ``window`` apart may
    arrive closer than that."""
    edit_gap: float = 1.0
    reserved: int = 2
    """A channel's message slots per window that answers to people never take, so its own
    messages always find one free."""
    calls_per_second: int = 50
    """Every bot token's global budget (interaction callbacks and webhooks are outside it)."""

    def share(self, shards: int, shard_count: int) -> Limits:
        """A process running ``shards`` of the bot's ``shard_count`` shards: its part of the
        token's global budget, which every process of the bot spends."""
        return replace(self, calls_per_second=max(1, self.calls_per_second * shards
                                                  // shard_count))


Waited = Callable[[str, float], None]
"""Told, as each governed call starts, its kind (``post``, ``edit``) and the seconds since it
was first asked for (``musbot.metrics``: the queue's wait)."""


@dataclass
class _Post:
    send: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]
    asked: float = 0.0


@dataclass
class _Edit:
    apply: Callable[[], Awaitable[Any]]
    not_before: float
    asked: float = 0.0
    """When the message was first asked to change since its last edit: a coalesced edit
    waits from there."""


@dataclass(slots=True)
class Lane:
    """One channel's queue and the times of its recent calls. Lists, not deques: they hold a
    few entries each (five calls a window), and an empty deque takes ten times the memory of an
    empty list, in a lane per table channel and per person written to."""

    key: Hashable
    posts: list[_Post] = field(default_factory=list)
    replies: list[_Post] = field(default_factory=list)
    """Answers to people: after ``posts``, and within fewer slots (``Limits.reserved``)."""
    edits: dict[Hashable, _Edit] = field(default_factory=dict)
    deletes: list[tuple[float, int, Callable[[], Awaitable[Any]]]] = field(default_factory=list)
    created: list[float] = field(default_factory=list)
    edited: list[float] = field(default_factory=list)
    last_edit: float = float("-inf")
    busy: bool = False
    due: float | None = None
    """When its entry in the governor's heap is due (None: it has none)."""
    quiet: bool = False
    """Listed among the lanes to forget once their calls no longer count."""

    def idle(self) -> bool:
        return not (self.busy or self.posts or self.replies or self.edits or self.deletes)

    def forgettable_at(self, limits: Limits) -> float:
        """When its calls will be too old to count against the next ones."""
        recent = max(self.created[-1] if self.created else float("-inf"),
                     self.edited[-1] if self.edited else float("-inf"))
        return recent + max(limits.window + limits.slack, limits.edit_gap)

    def next_op(self, now: float, limits: Limits) -> tuple[float, str | None]:
        """When the lane's next call may start, and which kind; (now, None) when idle."""
        best: tuple[float, int, str] | None = None
        window = limits.window + limits.slack
        if self.posts:
            best = (_free_at(self.created, limits.messages, window, now), 0, "post")
        elif self.replies:
            best = (_free_at(self.created, limits.messages - limits.reserved, window, now), 0,
                    "reply")
        if self.edits:
            at = max(_free_at(self.edited, limits.edits, window, now),
                     self.last_edit + limits.edit_gap,
                     min(job.not_before for job in self.edits.values()))
            best = min(best, (at, 1, "edit")) if best is not None else (at, 1, "edit")
        if self.deletes:
            at = max(now, self.deletes[0][0])
            best = min(best, (at, 2, "delete")) if best is not None else (at, 2, "delete")
        return (now, None) if best is None else (best[0], best[2])


def _free_at(times: deque[float] | list[float], limit: int, window: float, now: float) -> float:
    """When one more call fits in ``window`` seconds given the ``times`` of the last ones."""
    while times and times[0] <= now - window:
        del times[0]
    return now if len(times) < limit else times[0] + window


class Governor:
    """The lanes of every channel musbot writes to, run by one task."""

    def __init__(self, clock: Clock, limits: Limits | None = None, *,
                 waited: Waited | None = None) -> None:
        self.clock = clock
        self.limits = limits or Limits()
        self.waited = waited
        self._lanes: dict[Hashable, Lane] = {}
        self._heap: list[tuple[float, int, Hashable]] = []
        self._order = itertools.count()
        self._calls: deque[float] = deque()
        """Start times of the calls of the last second (the global budget)."""
        self._runner: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None
        """While the runner sleeps for the next lane's turn: until when."""
        self._running: set[asyncio.Task[None]] = set()
        self._blocked: set[Hashable] = set()
        self._quiet: deque[tuple[float, Hashable]] = deque()
        """Lanes gone idle, by when they may be forgotten (a few each call, never a sweep of
        every lane: a bot writes to a lane per table and per person)."""
        self.stopped = False
        """Cancelled for good (shutdown): what is asked later is dropped."""
        self.counts = {"post": 0, "edit": 0, "delete": 0, "extra": 0}
        """Calls made, by kind (``extra``: calls a post made besides its message, like opening
        a DM channel)."""

    # --- what callers ask -------------------------------------------------------------------

    def post(self, lane: Hashable, send: Callable[[], Awaitable[Any]], *,
             reply: bool = False) -> asyncio.Future[Any]:
        """A new message: ``send`` runs when its turn comes, after the lane's earlier posts
        (``reply``: an answer to someone, which waits for the lane's own messages and leaves
        them their reserved slots). The future gets its result (or its error); it is cancelled
        if the lane is blocked or the governor stopped."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.stopped or lane in self._blocked:
            done.cancel()
            return done
        found = self._lane(lane)
        (found.replies if reply else found.posts).append(_Post(send, done, self.clock.now()))
        self._wake(lane)
        return done

    def edit(self, lane: Hashable, key: Hashable, apply: Callable[[], Awaitable[Any]], *,
             not_before: float | None = None) -> None:
        """An edit of the message ``key``; a later call for the same message before it is made
        replaces ``apply`` (which renders what to show when it runs). ``not_before`` holds it
        (the earliest of the callers' wishes wins)."""
        if self.stopped or lane in self._blocked:
            return
        now = self.clock.now()
        at = now if not_before is None else not_before
        lane_ = self._lane(lane)
        job = lane_.edits.get(key)
        if job is None:
            lane_.edits[key] = _Edit(apply, at, now)
        else:
            job.apply = apply
            job.not_before = min(job.not_before, at)
        self._wake(lane)

    def forget_edit(self, lane: Hashable, key: Hashable) -> None:
        """The message is current already (shown another way): its pending edit is dropped."""
        found = self._lanes.get(lane)
        if found is not None:
            found.edits.pop(key, None)

    def delete(self, lane: Hashable, at: float, remove: Callable[[], Awaitable[Any]]) -> None:
        if self.stopped or lane in self._blocked:
            return
        lane_ = self._lane(lane)
        heapq.heappush(lane_.deletes, (at, next(self._order), remove))
        self._wake(lane)

    def spend(self) -> None:
        """A call made outside the lanes that still counts against the global budget."""
        self._calls.append(self.clock.now())
        self.counts["extra"] += 1

    async def spend_in_turn(self) -> None:
        """:meth:`spend`, once the global budget has room for it: a call a lane's call makes
        first (a DM's channel opened) waits as the lane's own did."""
        while True:
            now = self.clock.now()
            free = _free_at(self._calls, self.limits.calls_per_second, 1.0, now)
            if free <= now:
                break
            await self.clock.sleep(free - now)
        self.spend()

    def block(self, lane: Hashable) -> None:
        """The bot may no longer write there: what the lane had queued is dropped (posts'
        futures cancelled) and what is asked of it later too, until :meth:`unblock`."""
        self._blocked.add(lane)
        found = self._lanes.get(lane)
        if found is None:
            return
        for post in (*found.posts, *found.replies):
            if not post.done.done():
                post.done.cancel()
        found.posts.clear()
        found.replies.clear()
        found.edits.clear()
        found.deletes.clear()

    def unblock(self, lane: Hashable) -> None:
        self._blocked.discard(lane)

    def blocked(self, lane: Hashable) -> bool:
        return lane in self._blocked

    def busy(self, lane: Hashable) -> bool:
        found = self._lanes.get(lane)
        return found is not None and not found.idle()

    def queued(self) -> int:
        """Calls waiting for their turn in every lane (posts, answers, edits, deletes): the
        queue's depth, read by ``musbot.metrics`` when scraped."""
        return sum(len(lane.posts) + len(lane.replies) + len(lane.edits) + len(lane.deletes)
                   for lane in self._lanes.values())

    def lanes(self) -> int:
        """Channels whose recent calls are remembered: those written to in the last window."""
        return len(self._lanes)

    async def flush(self) -> None:
        """Waits until every lane is idle (shutdown, tests, the benchmark)."""
        while True:
            if self._running:
                await asyncio.gather(*list(self._running), return_exceptions=True)
            elif self._runner is not None and not self._runner.done():
                runner = self._runner
                try:
                    await asyncio.shield(runner)
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if not runner.cancelled() or (task is not None and task.cancelling()):
                        raise
                    # Woken for an earlier lane (_wake): a new runner goes on from here.
            else:
                return

    def cancel(self) -> None:
        """Shutdown: pending calls are dropped (a restart shows every table afresh), and so is
        what the dropped ones' callers ask next (a post's caller reacting to its cancellation
        would otherwise start a call as the bot stops)."""
        self.stopped = True
        if self._runner is not None:
            self._runner.cancel()
        for task in list(self._running):
            task.cancel()
        for lane in self._lanes.values():
            for post in (*lane.posts, *lane.replies):
                if not post.done.done():
                    post.done.cancel()
        self._lanes.clear()
        self._heap.clear()
        self._quiet.clear()

    # --- the runner ---------------------------------------------------------------------------

    def _lane(self, key: Hashable) -> Lane:
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = Lane(key)
        return lane

    def _wake(self, key: Hashable) -> None:
        lane = self._lanes[key]
        at: float | None = None
        if not lane.busy:
            at, kind = lane.next_op(self.clock.now(), self.limits)
            if kind is not None:
                self._schedule(lane, at)
        runner = self._runner
        if runner is not None and not runner.done() and at is not None and \
                self._sleeping_until is not None and at < self._sleeping_until:
            runner.cancel()  # asleep for a later lane: this one's turn comes first
            runner = None
        if runner is None or runner.done():
            self._sleeping_until = None
            self._runner = asyncio.get_running_loop().create_task(self._run())

    def _schedule(self, lane: Lane, at: float) -> None:
        if lane.due is not None and lane.due <= at:
            return
        lane.due = at
        heapq.heappush(self._heap, (at, next(self._order), lane.key))

    async def _run(self) -> None:
        heap = self._heap
        started = 0
        while heap:
            at, _, key = heap[0]
            now = self.clock.now()
            if started >= STARTS_PER_STEP:
                started = 0
                await asyncio.sleep(0)  # the moves waiting meanwhile go first
                continue
            if at > now:
                self._sleeping_until = at
                try:
                    await self.clock.sleep(at - now)
                finally:
                    self._sleeping_until = None
                continue
            heapq.heappop(heap)
            lane = self._lanes.get(key)
            if lane is None or lane.due != at:
                continue  # superseded by an earlier entry
            lane.due = None
            if lane.busy:
                continue  # the call on its way reschedules the lane when it ends
            at, kind = lane.next_op(now, self.limits)
            if kind is None:
                self._went_quiet(lane)
                continue
            free = _free_at(self._calls, self.limits.calls_per_second, 1.0, now)
            if max(at, free) > now:
                self._schedule(lane, max(at, free))
                continue
            self._start(lane, kind, now)
            started += 1

    def _start(self, lane: Lane, kind: str, now: float) -> None:
        self._calls.append(now)
        self.counts["post" if kind == "reply" else kind] += 1
        self._forget_quiet(now)
        lane.busy = True
        if kind in ("post", "reply"):
            post = (lane.posts if kind == "post" else lane.replies).pop(0)
            lane.created.append(now)
            if self.waited is not None:
                self.waited("post", now - post.asked)
            work = functools.partial(self._post, post)
        elif kind == "edit":
            key = min(lane.edits, key=lambda k: lane.edits[k].not_before)
            job = lane.edits.pop(key)
            lane.edited.append(now)
            if self.waited is not None:
                self.waited("edit", now - job.asked)
            lane.last_edit = now
            work = functools.partial(self._call, job.apply, "edit")
        else:
            _, _, remove = heapq.heappop(lane.deletes)
            work = functools.partial(self._call, remove, "delete")
        task = asyncio.get_running_loop().create_task(self._finish(lane, work))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _post(self, post: _Post) -> None:
        try:
            result = await post.send()
        except asyncio.CancelledError:
            if not post.done.done():
                post.done.cancel()
            raise
        except Exception as exc:
            if not post.done.done():
                post.done.set_exception(exc)
                post.done.exception()  # retrieved: a caller who does not wait is not warned
        else:
            if not post.done.done():
                post.done.set_result(result)

    @staticmethod
    async def _call(work: Callable[[], Awaitable[Any]], kind: str) -> None:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if getattr(error, "status", None) == 403:  # a channel's permissions: see guard.py
                log.info("a governed %s was refused (%s)", kind, getattr(error, "code", "?"))
            else:
                log.warning("a governed %s failed", kind, exc_info=True)

    async def _finish(self, lane: Lane, work: Callable[[], Awaitable[None]]) -> None:
        """Runs ``work``, made here so that a task cancelled before it starts (at shutdown)
        leaves no coroutine behind that nobody awaited."""
        try:
            await work()
        finally:
            lane.busy = False
            if self._lanes.get(lane.key) is lane:
                _, kind = lane.next_op(self.clock.now(), self.limits)
                if kind is not None:
                    self._wake(lane.key)
                else:
                    self._went_quiet(lane)

    def _went_quiet(self, lane: Lane) -> None:
        if not lane.quiet and lane.idle():
            lane.quiet = True
            self._quiet.append((lane.forgettable_at(self.limits), lane.key))

    def _forget_quiet(self, now: float) -> None:
        """Forgets the lanes listed quiet whose calls no longer count; one that has spoken
        since is listed again when it is next idle (or at once, for its newer calls' time)."""
        quiet = self._quiet
        while quiet and quiet[0][0] <= now:
            _, key = quiet.popleft()
            lane = self._lanes.get(key)
            if lane is None or not lane.quiet:
                continue
            lane.quiet = False
            if lane.idle() and lane.forgettable_at(self.limits) <= now:
                del self._lanes[key]
            else:
                self._went_quiet(lane)
