"""The tables and people of ``musbot bench load``: each table's simulated players acting at
random among the legal moves, in an open loop (Poisson arrivals, latency from each action's
scheduled time) and a closed one (each table acts as soon as its last action is done), and the
engine-alone replay of the same actions that gives the engine's share."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from musbot.engine import Action, Match, Rules, secure_shuffle
from musbot.engine.cards import Card
from musbot.engine.randomplay import random_action
from musbot.settings import TableSettings

from .faults import Faults
from .measure import LoopPhase

GUILD_ID = 1
CHANNEL_BASE = 10**15
"""Channel ids of the benchmark's tables (Discord-sized, never a real id of ours)."""
USER_BASE = 2 * 10**15

T = TypeVar("T")




class RecordingShuffler:
    """The production shuffle (``secure_shuffle``: nothing of it is saved with a table), each
    deck also kept, 40 bytes a deal, so the engine-alone replay deals the same cards."""

    def __init__(self) -> None:
        self.decks: list[bytes] = []

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        deck = secure_shuffle(cards)
        self.decks.append(bytes(deck))
        return deck

    def replay(self) -> Callable[[Sequence[Card]], list[Card]]:
        decks = iter(self.decks)
        return lambda cards: list(next(decks))


class TableDraws:
    """The random choices of one table's people, reproducible from the seed: a numbered draw
    hashed with the table's key, in a few bytes where a ``random.Random`` keeps 2.5 KB of state
    (the benchmark's own memory counts in its figure per table)."""

    __slots__ = ("_drawn", "_key")

    def __init__(self, key: str) -> None:
        self._key = hashlib.blake2b(key.encode()).digest()
        self._drawn = 0

    def random(self) -> float:
        """The next draw, in [0, 1)."""
        self._drawn += 1
        digest = hashlib.blake2b(self._drawn.to_bytes(8, "little"), digest_size=8,
                                 key=self._key).digest()
        return (int.from_bytes(digest, "little") >> 11) / 2**53

    def choice(self, options: Sequence[T]) -> T:
        return options[int(self.random() * len(options))]

    def expovariate(self, rate: float) -> float:
        """The time to the next of a Poisson process's arrivals at ``rate``."""
        return -math.log(1.0 - self.random()) / rate


@dataclass
class Seated:
    """One benchmark table and its simulated people; ``log`` is every action it received, for
    the engine-alone replay (``None``: a rematch)."""

    index: int
    table: Any
    users: list[int]
    rng: TableDraws
    shuffler: RecordingShuffler
    seats: bytearray = field(default_factory=bytearray)
    log: list[Action | None] = field(default_factory=list)
    heard: Callable[[int], None] | None = None
    """Tells the table's board that the person acted at it (as typing or pressing does): people
    playing are watching their table, so no call goes to them."""

    def next_move(self) -> tuple[int, Action | None]:
        """(user, action) for the next received action; action None is «revancha»."""
        table = self.table
        match = table.match
        if table.lifecycle == "finished" or match is None or match.finished:
            return self.users[0], None
        seat = match.to_act
        return self.users[seat], random_action(match.legal_actions(seat), self.rng)

    async def perform(self, user: int, action: Action | None, faults: Faults) -> bool:
        """The action, or False when the table refused it (its database failed): the person
        tries again at their next turn, as they are told to."""
        from musbot.engine import MusError
        from musbot.table.pause import NotSaved

        decks = len(self.shuffler.decks)
        if self.heard is not None:
            self.heard(user)
        try:
            if action is None:
                await self.table.rematch(user)
            else:
                await self.table.act(user, action)
        except NotSaved:
            faults.refused += 1
            del self.shuffler.decks[decks:]  # a deal that was undone: the replay never sees it
            return False
        except MusError:
            faults.stale += 1
            return False
        self.seats.append(0 if action is None else self.users.index(user))
        self.log.append(action)
        return True


async def _open_tables(count: int, seed: int, rules: Rules, manager: Any, transport: Any,
                       client: Any) -> list[Seated]:
    async def one(i: int) -> Seated:
        channel_id = CHANNEL_BASE + i
        users = [USER_BASE + 10 * i + seat for seat in range(rules.jugadores)]
        transport.bind(channel_id, client.channel(channel_id))
        shuffler = RecordingShuffler()
        table = manager.open(channel_id, TableSettings(rules=rules), guild_id=GUILD_ID,
                             first_mano=0, shuffler=shuffler)
        table.show()
        for seat, user in enumerate(users):
            await table.join(user, f"Jugador {seat + 1}", pair=Rules.team(seat))
        await table.start(users[0])
        return Seated(i, table, users, TableDraws(f"{seed}/people/{i}"), shuffler,
                      heard=functools.partial(transport.boards.heard, channel_id))

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def _open_loop(seated: list[Seated], rate: float, seconds: float, seed: int,
                     faults: Faults) -> LoopPhase:
    """Poisson arrivals at ``rate`` in total; latency from each action's scheduled time (of
    the actions done: a refused one is counted in ``faults``)."""
    phase = LoopPhase()
    per_table = rate / len(seated)
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.05
    end = start + seconds
    give_up = end + max(5.0, seconds / 2)
    cpu = time.process_time()
    loop_cpu = time.thread_time()

    async def drive(one: Seated) -> None:
        arrivals = TableDraws(f"{seed}/arrivals/{one.index}")
        due = start + arrivals.expovariate(per_table)
        while due < end:
            user, action = one.next_move()  # decided before it is due: no think time
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            elif loop.time() > give_up:
                while due < end:  # hopelessly behind: count what was never sent
                    phase.unissued += 1
                    due += arrivals.expovariate(per_table)
                return
            else:  # late: its own turn of the loop all the same, as a message from Discord is
                await asyncio.sleep(0)
            if await one.perform(user, action, faults):
                phase.latencies.append(loop.time() - due)
                phase.dues.append(due)
            due += arrivals.expovariate(per_table)

    await asyncio.gather(*(drive(one) for one in seated))
    phase.actions = len(phase.latencies)
    phase.seconds = max(seconds, loop.time() - start)
    phase.cpu = time.process_time() - cpu
    phase.loop_cpu = time.thread_time() - loop_cpu
    return phase


async def _closed_loop(seated: list[Seated], seconds: float, faults: Faults) -> LoopPhase:
    """Every table acts again as soon as its previous action is done (a refused one a
    moment later)."""
    phase = LoopPhase()
    loop = asyncio.get_running_loop()
    start = loop.time()
    end = start + seconds
    cpu = time.process_time()

    async def drive(one: Seated) -> None:
        while loop.time() < end:
            user, action = one.next_move()
            began = loop.time()
            if await one.perform(user, action, faults):
                phase.latencies.append(loop.time() - began)
            else:
                await asyncio.sleep(0.05)

    await asyncio.gather(*(drive(one) for one in seated))
    phase.actions = len(phase.latencies)
    phase.seconds = loop.time() - start
    phase.cpu = time.process_time() - cpu
    return phase


def engine_replay_seconds(seated: list[Seated], rules: Rules) -> float:
    """CPU seconds the engine alone needs for the same actions: the same deals, each action
    applied, and every seat's view taken once after it (what a table must tell)."""
    players = range(rules.jugadores)
    total = 0.0
    for one in seated:
        shuffler = one.shuffler.replay()
        start = time.process_time()
        match = Match(rules, first_mano=0, shuffler=shuffler)
        for seat, action in zip(one.seats, one.log, strict=True):
            if action is None:
                match = Match(rules, first_mano=0, shuffler=shuffler)
            else:
                match.apply(seat, action)
            for s in players:
                match.view(s)
        total += time.process_time() - start
    return total


def rest_figures(stats: Any, actions: int) -> dict[str, Any]:
    """The calls the run would have made to Discord, per action, and the worst 5 s window of
    each route in one channel (Discord allows 5 messages and 5 edits there)."""
    per = max(actions, 1)
    return {"per_action": {route: round(n / per, 4) for route, n in sorted(stats.calls.items())},
            "budget_per_action": round(stats.budget_calls / per, 4),
            "worst_window": dict(sorted(stats.worst.items())), "dm_posts": stats.dm_posts,
            "chars": stats.chars, "buttons": stats.buttons}
