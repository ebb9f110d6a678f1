"""What a table's bots learn of its players, and how «dificil» thinks at a table (issue #28).

The table's memory reads each player from the showdowns: it lasts across the matches at the
table, a person's reading is kept per server (fetched when they sit, stored as it grows, never
seen at another server's tables) and «forget me» erases it. A level whose decisions take
milliseconds thinks in a worker thread, the table's lock released, and its move counts only if
the turn is still the one it thought about.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import random
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from helpers_rules import showdown_view
from table_helpers import FakeTransport, make_table, play_humans, seat_humans

from musbot.ai import DificilBot, HeuristicBot
from musbot.ai.memory import OpponentMemory
from musbot.engine import Rules, seeded_shuffler
from musbot.engine import events as ev
from musbot.settings import TableSettings
from musbot.storage import Database, DatabaseUnavailable
from musbot.table import ManualClock, NotSaved, Result, Table, TableManager, Unsaved
from musbot.table.persist import TablePersister, forget_player
from musbot.table.readings import STORE_EVERY, TableReadings
from musbot.table.result import Saved
from musbot.table.saved import from_json, to_json

SHORT = Rules(juegos=1, puntos=20)


def _who(table: Table) -> list[str | None]:
    return table.state.readings.who(table.seats, table.state.settings.bot_level)


async def test_the_memory_learns_each_player_and_lasts_across_matches() -> None:
    table, _, _ = make_table(3, rules=SHORT, turn_seconds=None)
    await seat_humans(table, 2)
    await table.start(1)
    await play_humans(table, random.Random(3))
    assert table.lifecycle == "finished"
    memory = table.state.readings.memory
    assert _who(table) == ["user:1", "user:2", "bot:2:normal", "bot:3:normal"]
    words = {who: memory.reading(who).words for who in _who(table) if who is not None}
    assert all(n > 0 for n in words.values()), words
    await table.rematch(1)
    await play_humans(table, random.Random(4))
    assert table.state.readings.memory is memory
    assert all(memory.reading(who).words > n for who, n in words.items())


async def test_a_person_a_bot_played_for_is_not_read_from_that_hand() -> None:
    table, _, clock = make_table(5, rules=SHORT, turn_seconds=15.0)
    await seat_humans(table, 2)
    await table.start(1)
    match = table.match
    assert match is not None
    late = match.to_act
    assert late is not None and table.seats[late] is not None
    await clock.advance(15.0)  # the clock runs out: the seat's bot speaks for the person
    assert table.state.turn == 1
    hand = match.hand
    while not hand.finished:
        seat = match.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        await table.act(occupant.user_id, HeuristicBot().decide(match.view(seat),
                                                                random.Random(1)))
    assert hand.view(-1).revealed is not None  # this deal ends with a showdown
    memory = table.state.readings.memory
    assert memory.readings.get(f"user:{late + 1}") is None  # seats 0, 1 are users 1, 2
    assert memory.reading(f"user:{2 - late}").words > 0


# --- thinking off the event loop ----------------------------------------------------------------


class Blocking(DificilBot):
    """«dificil» that waits for the test before answering, and notes where it thought."""

    def __init__(self) -> None:
        super().__init__(worlds=8, tries=100)
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: list[int] = []

    def decide(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.get_ident())
        self.started.set()
        assert self.release.wait(5)
        return super().decide(*args, **kwargs)


async def _until(condition: Any, limit: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.002)


async def _dificil_to_think() -> tuple[Table, ManualClock, Blocking]:
    table, _, clock = make_table(6, rules=SHORT, bot_level="dificil", bot_delay=1.0,
                                 turn_seconds=None, first_mano=1)
    await table.join(1, "Ana")
    for _ in range(3):
        await table.add_bot()
    bot = Blocking()
    occupant = table.seats[1]
    assert occupant is not None and occupant.level == "dificil"
    occupant.bot = bot
    await table.start(1)
    await clock.advance(1.0)  # the think time is over: seat 1 (the mano) thinks
    await _until(bot.started.is_set)
    return table, clock, bot


async def test_a_heavy_bot_thinks_in_a_worker_thread_without_holding_the_table() -> None:
    table, _, bot = await _dificil_to_think()
    assert bot.threads and bot.threads[0] != threading.get_ident()
    assert not table._lock.locked()  # the table still answers meanwhile
    assert "Ana" in table.status()
    turn = table.state.turn
    bot.release.set()
    await _until(lambda: table.state.turn > turn)
    assert table.match is not None and table.match.hand.actions[0][0] == 1


async def test_a_move_thought_for_a_turn_gone_is_dropped() -> None:
    table, _, bot = await _dificil_to_think()
    turn = table.state.turn
    assert await table.join(2, "Bea") == 1  # Bea takes the thinking bot's seat
    bot.release.set()
    await asyncio.to_thread(lambda: None)
    for _ in range(20):
        await asyncio.sleep(0.005)
    match = table.match
    assert match is not None and table.state.turn == turn and match.to_act == 1
    assert not match.hand.actions  # nobody spoke for Bea
    assert table.state.awaits(2)


async def test_closing_the_table_while_a_bot_thinks_is_quiet() -> None:
    table, _, bot = await _dificil_to_think()
    turn = table.state.turn
    await table.close()
    bot.release.set()
    for _ in range(20):
        await asyncio.sleep(0.005)
    assert table.lifecycle == "closed" and table.state.turn == turn


async def test_a_persons_timed_out_turn_is_thought_off_the_event_loop_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    decide = DificilBot.decide

    def noting(self: DificilBot, *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return decide(self, *args, **kwargs)

    monkeypatch.setattr(DificilBot, "decide", noting)
    table, _, clock = make_table(8, rules=SHORT, bot_level="dificil", turn_seconds=15.0)
    await table.join(1, "Ana")
    await table.start(1)  # Ana is the mano: the match waits for her
    assert table.state.awaits(1) and table.state.turn == 0
    await clock.advance(15.0)  # her time is up: her seat's bot («dificil») speaks for her
    await _until(lambda: table.state.turn > 0)
    assert threads and threads[0] != threading.get_ident()
    assert table.seats[0] is not None and table.seats[0].expiries == 1


# --- per server ---------------------------------------------------------------------------------


@pytest.fixture
async def stored(target: str) -> AsyncIterator[tuple[Database, TableManager, TablePersister]]:
    db = await Database.open(target)
    persister = TablePersister(db)
    manager = TableManager(FakeTransport(), clock=ManualClock(), shuffler=seeded_shuffler(7),
                           rng=random.Random(7), first_mano=0, persist=persister)
    yield db, manager, persister
    await db.close()


SETTINGS = TableSettings(rules=SHORT, turn_seconds=None)


async def _play(manager: TableManager, channel: int, guild: int, users: list[int],
                seed: int) -> Table:
    table = manager.open(channel, SETTINGS, guild_id=guild)
    for user in users:
        await table.join(user, f"P{user}")
    await table.start(users[0])
    await play_humans(table, random.Random(seed))
    return table


async def test_a_persons_reading_is_kept_for_their_server_only(
        stored: tuple[Database, TableManager, TablePersister]) -> None:
    db, manager, _ = stored
    first = await _play(manager, 100, 1, [1, 2], seed=1)
    kept = await db.player_readings(1, [1, 2])
    assert set(kept) == {1, 2}
    assert kept[1]["words"] == first.state.readings.memory.reading("user:1").words > 0
    assert await db.player_readings(2, [1, 2]) == {}
    # Another table of the same server knows them from the start; one of another server not.
    same = manager.open(101, SETTINGS, guild_id=1)
    other = manager.open(102, SETTINGS, guild_id=2)
    for table in (same, other):
        await table.join(1, "P1")
        await table.join(2, "P2")
        await table.start(1)
    assert same.state.readings.memory.reading("user:1").words == kept[1]["words"]
    assert "user:1" not in other.state.readings.memory.readings
    await play_humans(same, random.Random(2))
    grown = await db.player_readings(1, [1])
    assert grown[1]["words"] > kept[1]["words"]


async def test_forgetting_a_player_erases_what_the_bots_read(
        stored: tuple[Database, TableManager, TablePersister]) -> None:
    db, manager, _ = stored
    await _play(manager, 100, 1, [1, 2], seed=3)
    table = manager.open(101, SETTINGS, guild_id=1)
    await table.join(1, "P1")
    await table.join(2, "P2")
    await table.start(1)
    assert "user:1" in table.state.readings.memory.readings
    assert await forget_player(db, manager, 1)
    assert "user:1" not in table.state.readings.memory.readings
    assert await db.player_readings(1, [1]) == {}
    await play_humans(table, random.Random(4))  # 1 plays on at this table…
    assert await db.player_readings(1, [1]) == {}  # …and is never stored from it again
    assert 2 in await db.player_readings(1, [2])


async def test_a_reading_that_cannot_be_read_starts_afresh(
        stored: tuple[Database, TableManager, TablePersister],
        caplog: pytest.LogCaptureFixture) -> None:
    db, manager, _ = stored
    await db.save_player_readings(1, {1: {"v": 99}})
    table = manager.open(100, SETTINGS, guild_id=1)
    await table.join(1, "P1")
    await table.start(1)
    assert "could not be read" in caplog.text
    assert "user:1" not in table.state.readings.memory.readings
    await play_humans(table, random.Random(5))
    assert (await db.player_readings(1, [1]))[1]["v"] == 1  # replaced by what was learnt


async def test_a_table_learns_from_the_public_view_and_stores_numbers_only(
        stored: tuple[Database, TableManager, TablePersister],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No card leaves a seat through the reading: the memory is given the spectator's view of
    each finished hand (cards only where the showdown showed them), and what is stored per
    server is counts and scores, not a hand."""
    views: list[Any] = []
    learn = OpponentMemory.learn

    def noting(self: OpponentMemory, view: Any, who: Any) -> None:
        views.append(view)
        learn(self, view, who)

    monkeypatch.setattr(OpponentMemory, "learn", noting)
    db, manager, _ = stored
    table = await _play(manager, 100, 1, [1, 2], seed=6)
    assert views and all(view.seat == -1 and view.cards == () for view in views)
    assert table.lifecycle == "finished"
    assert any(view.revealed is not None for view in views)
    for doc in (await db.player_readings(1, [1, 2])).values():
        assert set(doc) == {"v", "counts", "fit", "mus", "words"}
        leaves = [doc["v"], doc["fit"], doc["words"], *doc["mus"],
                  *(x for sit in doc["counts"] for row in sit for x in row)]
        assert all(isinstance(x, int | float) and not isinstance(x, bool) for x in leaves)


async def test_a_person_forgotten_while_seated_is_never_stored_from_that_table_even_restored(
        ) -> None:
    table, _, _ = make_table(9, rules=SHORT, turn_seconds=None)
    table.state.guild_id = 1
    await seat_humans(table, 2)
    await table.start(1)
    table.state.readings.memory.fetched(1, None)
    table.state.readings.memory.fetched(2, None)
    assert await table.scrub_user(1, "Olvidado")
    await play_humans(table, random.Random(9))
    exchange = table.state.readings.exchange(1, table.humans())
    assert exchange is not None and set(exchange.due) == {2}
    # The saved state says so (while they sit), and a restored table goes on not storing them.
    document = to_json(table.state)
    assert document["readings_off"] == [1]
    restored = from_json(document)
    assert restored.readings.unstored == {1}
    assert restored.readings.dealt_to is None  # the hand in play then teaches nothing
    assert restored.readings.exchange(1, [1]) is None
    # Someone forgotten who is not seated here is only forgotten.
    other, _, _ = make_table(9, rules=SHORT, turn_seconds=None)
    assert not other.state.readings.forget(1, seated=False)
    assert other.state.readings.unstored == set()


async def test_the_seated_bots_readings_survive_a_restart_and_people_come_from_their_server(
        caplog: pytest.LogCaptureFixture) -> None:
    table, _, _ = make_table(3, rules=SHORT, turn_seconds=None)
    await seat_humans(table, 2)
    await table.start(1)
    await play_humans(table, random.Random(3))
    memory = table.state.readings.memory
    bots = ["bot:2:normal", "bot:3:normal"]
    assert all(memory.reading(who).words > 0 for who in bots)
    document = json.loads(json.dumps(to_json(table.state)))  # as storage keeps it
    assert set(document["bot_readings"]) == set(bots)  # a person's is kept by their server
    again = from_json(document).readings.memory
    assert set(again.readings) == set(bots)
    assert all(again.reading(who).to_json() == memory.reading(who).to_json() for who in bots)
    for restored, before in zip(again.models(bots), memory.models(bots), strict=True):
        assert restored.normal == pytest.approx(before.normal, abs=1e-3)  # stored rounded
    assert again.wanted([1, 2]) == [1, 2]  # the people's are fetched from storage again
    # A bot's reading that cannot be read is relearnt; a person's is never taken from the
    # table's state; neither keeps the table from being restored. An older state has none.
    document["bot_readings"]["bot:2:normal"] = {"v": 99}
    document["bot_readings"]["user:1"] = memory.reading("user:1").to_json()
    with caplog.at_level(logging.WARNING, logger="musbot.table.readings"):
        damaged = from_json(document).readings.memory
    assert set(damaged.readings) == {"bot:3:normal"}
    assert len(caplog.records) == 2
    del document["bot_readings"]
    assert not from_json(document).readings.memory.readings


def test_no_server_no_stored_readings() -> None:
    """The terminal (no server): nothing is asked of storage."""
    readings = TableReadings()
    readings.memory.fetched(1, None)
    assert readings.exchange(None, [1]) is None


async def _play_hand(table: Table, rng: random.Random) -> None:
    """The people's turns of the hand in play, to its end (the bots play theirs)."""
    match = table.match
    assert match is not None
    number, users = match.hand_number, {i: s.user_id for i, s in enumerate(table.seats)
                                        if s is not None and s.user_id is not None}
    while (match := table.match) is not None and match.hand_number == number and \
            table.lifecycle == "playing":
        seat = match.to_act
        assert seat is not None and seat in users
        await table.act(users[seat], HeuristicBot().decide(match.view(seat), rng))


async def test_a_seated_persons_reading_is_stored_every_few_hands_and_when_the_bot_stops(
        stored: tuple[Database, TableManager, TablePersister]) -> None:
    """While the match goes on, a store every :data:`STORE_EVERY` hands that taught something
    of them (each a write of every such reading); the rest when the bot stops."""
    db, manager, persister = stored
    table = manager.open(100, TableSettings(rules=Rules(juegos=3), turn_seconds=None),
                         guild_id=1)
    await table.join(1, "P1")
    await table.join(2, "P2")
    await table.start(1)
    memory, rng = table.state.readings.memory, random.Random(12)
    taught, kept = 0, 0
    while taught <= STORE_EVERY:
        before = memory.reading("user:1").words
        await _play_hand(table, rng)
        assert table.lifecycle == "playing"
        if memory.reading("user:1").words == before:
            continue  # no showdown, or 1 said nothing: nothing to store
        taught += 1
        found = (await db.player_readings(1, [1])).get(1)
        if taught < STORE_EVERY:
            assert found is None  # not yet…
        elif taught == STORE_EVERY:
            assert found is not None and found["words"] == memory.reading("user:1").words
            kept = found["words"]
        else:
            assert found is not None and found["words"] == kept < memory.reading("user:1").words
    await persister.store_readings(manager)  # the bot stops: what is left is stored
    assert (await db.player_readings(1, [1]))[1]["words"] == memory.reading("user:1").words


async def test_a_persons_reading_is_stored_at_once_when_they_leave_or_the_match_ends() -> None:
    readings = TableReadings()
    memory = readings.memory
    memory.fetched(1, None)
    memory.fetched(2, None)
    memory.reading("user:1")
    memory.reading("user:2")
    view = showdown_view(4)
    readings.dealt([None] * 4, "normal")
    memory.learn(view, ["user:1", "bot:1:normal", "user:2", None])
    assert readings.exchange(5, [1, 2], playing=True) is None  # both seated, one hand
    left = readings.exchange(5, [2], playing=True)
    assert left is not None and set(left.due) == {1}  # 1 stood up
    ended = readings.exchange(5, [1, 2], playing=False)
    assert ended is not None and set(ended.due) == {1, 2}  # the match is over


# --- a save that fails ----------------------------------------------------------------------------


class FailsOnceAtHandEnd:
    """Stores whole states only; the first save of a move that ends a hand with a showdown
    fails, as a database that went away (the table goes back to what was stored, paused)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.failed = False

    async def save(self, table: Table, result: Result) -> Saved:
        ended = any(isinstance(e, ev.Showdown) for e in result.events)
        if ended and not self.failed:
            self.failed = True
            raise Unsaved(DatabaseUnavailable("test", "stopped"), copy.deepcopy(self.state), [])
        self.state = copy.deepcopy(to_json(table.state))
        return Saved()


async def test_a_hand_played_again_after_a_failed_save_is_not_learnt_twice() -> None:
    store = FailsOnceAtHandEnd()
    table, _, clock = make_table(5, rules=SHORT, turn_seconds=None, persist=store)
    await seat_humans(table, 2)
    await table.start(1)
    memory = table.state.readings.memory
    rng = random.Random(5)
    while not store.failed:
        match = table.match
        assert match is not None and match.to_act is not None
        seat = match.to_act
        with contextlib.suppress(NotSaved):
            await table.act(seat + 1, HeuristicBot().decide(match.view(seat), rng))
    assert table.paused
    paused = table.match
    assert paused is not None
    number = paused.hand_number  # the hand whose end could not be saved, to be played again
    learnt = {who: memory.reading(who).words for who in list(memory)}
    assert learnt and all(learnt.values())  # the showdown was read before the save failed
    await clock.advance(60.0)  # the table saves again and plays on
    assert not table.paused
    assert table.state.readings.memory is memory  # kept across the pause…
    while (match := table.match) is not None and match.hand_number == number:
        seat = match.to_act  # …and the hand, played again, is not learnt twice
        assert seat is not None
        await table.act(seat + 1, HeuristicBot().decide(match.view(seat), rng))
    assert {who: memory.reading(who).words for who in list(memory)} == learnt
