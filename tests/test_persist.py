"""Restart safety on both backends (real SQLite files, real PostgreSQL databases): tables saved
after every change, restored where they were, match records stored once, whatever happens in
between."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from db_helpers import select
from table_helpers import FakeTransport, make_table, persistent, play_humans, seat_humans, typed

from musbot.ai import HeuristicBot
from musbot.engine import Rules, seeded_shuffler
from musbot.settings import TableSettings
from musbot.storage import Database, DatabaseLocked, DatabaseUnavailable
from musbot.table import ManualClock, NotSaved, Table, TableError, TableManager, pause, settle
from musbot.table.persist import TablePersister, forget_player
from musbot.table.result import Result, Save, Saved
from musbot.table.saved import STATE_VERSION, SeededShuffler, StateError, from_json, to_json

CHANNEL = 100
GUILD = 1
QUICK = Rules(juegos=1)
"""A short match: one game."""


@dataclass
class Bot:
    """One «process»: a database connection, a manager with persistence, a fake Discord."""

    db: Database
    manager: TableManager
    persister: TablePersister
    transport: FakeTransport
    clock: ManualClock

    async def tick(self, seconds: int) -> None:
        """Moves the clock second by second, letting each table finish its database work
        (real I/O in a thread, which ``settle`` alone does not wait for)."""
        for _ in range(seconds):
            await self.clock.advance(1)
            while any(table._lock.locked() for table in self.manager):
                await asyncio.sleep(0.001)

    def crash(self) -> None:
        """The process dies: no close, no goodbye; only its timers stop with it."""
        for table in self.manager:
            table.suspend()


@pytest.fixture
async def boots() -> AsyncIterator[list[Database]]:
    opened: list[Database] = []
    yield opened
    for db in opened:
        await db.close()


async def boot(target: str, opened: list[Database], seed: int = 7, *,
               journaled: bool = False) -> Bot:
    """``journaled``: decks from the engine's ``seeded_shuffler``, reproducible but, like
    ``secure_shuffle`` and unlike :class:`SeededShuffler`, not saved with the table, so its
    moves within a hand go to the journal."""
    db = await Database.open(target)
    opened.append(db)
    transport, clock = FakeTransport(), ManualClock()
    shuffler = seeded_shuffler(seed) if journaled else SeededShuffler(seed)
    persister, manager = await persistent(db, transport, clock=clock, shuffler=shuffler,
                           rng=random.Random(seed), first_mano=0)
    return Bot(db, manager, persister, transport, clock)


async def open_table(bot: Bot, humans: int = 2, rules: Rules = QUICK,
                     league_id: int | None = None) -> Table:
    table = bot.manager.open(CHANNEL, TableSettings(rules=rules), guild_id=GUILD,
                             league_id=league_id, opener_id=1)
    await seat_humans(table, humans)
    await table.start(1)
    return table


async def match_ids(db: Database) -> list[int]:
    return [row[0] for row in await select(db, "SELECT match_id FROM matches ORDER BY match_id")]


# --- the state document -------------------------------------------------------------------------


async def test_state_round_trips_through_json(target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot)
    await play_humans(table, random.Random(3), max_steps=7)
    state = json.loads(json.dumps(to_json(table.state)))
    copy = Table(from_json(state), FakeTransport(), clock=ManualClock())
    assert to_json(copy.state) == to_json(table.state)
    assert copy.state.page.lines == table.state.page.lines
    assert copy.state.page.number == table.state.page.number
    match, again = table.match, copy.match
    assert match is not None and again is not None
    for seat in range(4):
        assert again.view(seat) == match.view(seat)
    assert copy.names() == table.names() and copy.lifecycle == "playing"
    assert copy.state.opener_id == 1  # the opener may still close it after a restart
    level = table.state.settings.bot_level
    assert [s.level for s in copy.seats if s] == [None, None, level, level]


async def test_unknown_state_version_is_refused() -> None:
    with pytest.raises(StateError):
        from_json({"version": STATE_VERSION + 1})
    with pytest.raises(StateError):
        from_json({"version": STATE_VERSION, "rng": "garbage"})


async def test_saved_after_each_action_and_deleted_on_close(target: str,
                                                            boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = bot.manager.open(CHANNEL, TableSettings(rules=QUICK), guild_id=GUILD)
    await table.join(1, "Ana")
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and saved.version == 1 and saved.guild_id == GUILD
    assert saved.state["seats"][0]["name"] == "Ana"
    await table.start(1)
    await play_humans(table, random.Random(1), max_steps=3)
    saved = await bot.db.load_table(CHANNEL)
    # Every applied action (the bots' too) is in the saved state; the next test shows each one
    # is saved before anybody is told about it.
    assert saved is not None and saved.version > 1
    assert saved.state["turn"] == table.state.turn
    assert saved.state["lifecycle"] == "playing"
    await bot.manager.close(CHANNEL)
    assert await bot.db.load_table(CHANNEL) is None
    [match_id] = await match_ids(bot.db)
    [(abandoned,)] = await select(bot.db, "SELECT abandoned FROM matches WHERE match_id = ?",
                                  (match_id,))
    assert abandoned == 1


async def test_every_move_is_saved_before_anyone_is_told(target: str,
                                                         boots: list[Database]) -> None:
    """Restart safety: a crash can never leave people having seen a move (a human's or a bot's)
    that the restored table does not have."""
    bot = await boot(target, boots)
    table = await open_table(bot)
    persist = table.persist
    assert persist is not None
    saved_turns: list[int] = []

    class Recording:
        async def save(self, changed: Table, result: Result) -> Saved:
            saved = await persist.save(changed, result)
            saved_turns.append(changed.state.turn)
            return saved

    table.persist = Recording()
    told: list[tuple[int, int | None]] = []
    changed = bot.transport.changed

    def watching(shown: Table) -> None:
        told.append((shown.state.turn, saved_turns[-1] if saved_turns else None))
        changed(shown)

    bot.transport.changed = watching  # type: ignore[method-assign]
    await play_humans(table, random.Random(2), max_steps=40)
    assert len(told) > 40
    assert all(turn == saved for turn, saved in told), told


# --- restarting ---------------------------------------------------------------------------------


async def run_match(target: str, boots: list[Database], *, crash_after: int | None,
                    league: bool) -> tuple[dict[str, Any], list[Any], int]:
    """Plays one match on a fresh file, crashing and restarting after ``crash_after`` of the
    people's actions; returns the final summary, the stored hands and the people's actions."""
    bot = await boot(target, boots)
    league_id = (await bot.db.create_league(GUILD, "Liga")).league_id if league else None
    table = await open_table(bot, league_id=league_id)
    people = random.Random(42)  # the people's choices: the same in both runs
    steps = 0
    if crash_after is not None:
        steps = await play_humans(table, people, max_steps=crash_after)
        assert table.lifecycle == "playing", "crash before the end"
        bot.crash()
        bot = await boot(target, boots)
        restored = bot.manager.get(CHANNEL)
        assert restored is not None and restored is not table
        table = restored
        await settle()
        assert bot.clock.sleepers == 1, "the turn timer runs again"
        shown = bot.transport.public_lines()
        # The hand's page as it was, every move once, then the notice.
        assert shown[-1].startswith("♻️ Mesa restaurada")
        assert shown[:-1] == table.state.page.lines[:-1]
    steps += await play_humans(table, people)
    assert table.lifecycle == "finished" and table.match is not None
    [match_id] = await match_ids(bot.db)
    hands = await bot.db.match_hands(match_id)
    assert len(hands) == table.match.hand_number
    return table.match.summary(), hands, steps


@pytest.mark.parametrize("league", [False, True])
async def test_restart_midway_gives_the_uninterrupted_result(
        new_target: Callable[[], Awaitable[str]], boots: list[Database], league: bool) -> None:
    summary, hands, steps = await run_match(await new_target(), boots, crash_after=None,
                                            league=league)
    assert steps > 10 and len(hands) > 2
    for cut in sorted({1, steps // 3, steps // 2, steps - 1}):
        again = await run_match(await new_target(), boots, crash_after=cut, league=league)
        assert again == (summary, hands, steps)


async def test_league_result_is_recorded_and_rated_only_without_bots(
        target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    league = await bot.db.create_league(GUILD, "Liga")
    table = await open_table(bot, humans=4, league_id=league.league_id)
    await play_humans(table, random.Random(5), max_steps=20)
    bot.crash()
    bot = await boot(target, boots)
    table = bot.manager.get(CHANNEL)  # type: ignore[assignment]
    await play_humans(table, random.Random(6))
    standings = await bot.db.standings(league.league_id)
    assert sorted(s.played for s in standings) == [1, 1, 1, 1]
    assert all(s.rating is not None for s in standings)
    assert any(t.startswith("📈") for t in bot.transport.public_texts())
    # The rematch has bots: recorded, never rated.
    await table.leave(4)
    await table.rematch(1)
    await play_humans(table, random.Random(7))
    after = {s.user_id: s for s in await bot.db.standings(league.league_id)}
    assert after[1].played == 2
    assert {s.user_id: s.rating for s in standings} == {u: s.rating for u, s in after.items()}


async def test_a_league_match_a_bot_took_over_is_recorded_but_not_rated(
        target: str, boots: list[Database]) -> None:
    """Ratings never change in a match with a bot (issue #4): also when a bot took a person's
    seat mid-match (here: three turns timed out in a row)."""
    bot = await boot(target, boots)
    league = await bot.db.create_league(GUILD, "Liga")
    table = await open_table(bot, humans=4, league_id=league.league_id)
    while table.seats[table.match.to_act].user_id is None:  # type: ignore[union-attr]
        await bot.tick(1)
    absent = table.seats[table.match.to_act]  # type: ignore[union-attr]
    assert absent is not None
    for _ in range(200):
        if absent.away:
            break
        if table.seats[table.match.to_act] is absent:  # type: ignore[union-attr]
            await bot.tick(61)  # the absent player's turn runs out
        else:
            match = table.match
            assert match is not None
            seat = match.to_act
            assert seat is not None
            occupant = table.seats[seat]
            assert occupant is not None and occupant.user_id is not None
            await table.act(occupant.user_id, HeuristicBot().decide(match.view(seat),
                                                                    random.Random(seat)))
    assert absent.away
    await play_humans_or_bots(table)
    standings = await bot.db.standings(league.league_id)
    assert sorted(s.played for s in standings) == [1, 1, 1, 1]
    assert absent.user_id is not None
    assert await bot.db.rating_history(absent.user_id, league.league_id) == []


async def play_humans_or_bots(table: Table) -> None:
    """Plays people's turns until the end; seats a bot holds play by themselves."""
    rng = random.Random(3)
    while table.lifecycle == "playing":
        match = table.match
        assert match is not None
        seat = match.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None and not occupant.away
        await table.act(occupant.user_id, HeuristicBot().decide(match.view(seat), rng))
    await settle()
    await asyncio.sleep(0.05)


async def test_waiting_and_finished_tables_come_back_too(target: str,
                                                         boots: list[Database]) -> None:
    bot = await boot(target, boots)
    waiting = bot.manager.open(CHANNEL, TableSettings(rules=QUICK), guild_id=GUILD)
    await waiting.join(1, "Ana")
    await waiting.add_bot(pair=1)
    done = bot.manager.open(CHANNEL + 1, TableSettings(rules=QUICK), guild_id=GUILD)
    await done.join(2, "Bea")
    await done.start(2)
    await play_humans(done, random.Random(2))
    bot.crash()
    bot = await boot(target, boots)
    again = bot.manager.get(CHANNEL)
    finished = bot.manager.get(CHANNEL + 1)
    assert again is not None and again.lifecycle == "waiting" and again.names()[0] == "Ana"
    assert finished is not None and finished.lifecycle == "finished"
    await again.start(1)
    await finished.rematch(2)
    assert finished.lifecycle == "playing"


async def test_away_player_and_timeouts_survive(target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot, humans=1, rules=Rules())
    for _ in range(2):
        await bot.tick(60)
    seat = table.seats[0]
    assert seat is not None and seat.expiries == 2
    bot.crash()
    bot = await boot(target, boots)
    table = bot.manager.get(CHANNEL)  # type: ignore[assignment]
    seat = table.seats[0]
    assert seat is not None and seat.expiries == 2 and not seat.away
    await bot.tick(60)
    assert seat.away, "the third timeout in a row, counted across the restart"


async def test_set_league_only_before_the_match(target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    league = await bot.db.create_league(GUILD, "Liga")
    table = bot.manager.open(CHANNEL, TableSettings(rules=QUICK), guild_id=GUILD)
    await table.join(1, "Ana")
    await table.set_league(league.league_id)
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and saved.state["league_id"] == league.league_id
    await table.start(1)
    with pytest.raises(TableError):
        await table.set_league(None)


# --- privacy and failures -----------------------------------------------------------------------


async def test_forget_user_scrubs_live_tables(target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = bot.manager.open(CHANNEL, TableSettings(rules=QUICK), guild_id=GUILD)
    await table.join(1, "Ana Secreta")
    await table.join(2, "Bea")
    await table.start(1)
    assert await forget_player(bot.db, bot.manager, 1)
    assert not await forget_player(bot.db, bot.manager, 99)
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None
    assert "Ana Secreta" not in json.dumps(saved.state, ensure_ascii=False)
    assert table.names()[0] == "Jugador 1"
    await play_humans(table, random.Random(1))
    assert await bot.db.player_name(1) is None


async def test_records_wait_in_the_outbox_while_the_database_is_busy(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot)
    real = bot.db.record_hand
    busy = True

    async def record_hand(*args: object, **kwargs: object) -> int:
        if busy:
            raise DatabaseLocked(bot.db.where, 0.1)
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.db, "record_hand", record_hand)
    match = table.match
    assert match is not None
    people = random.Random(4)
    while match.hand_number < 3:
        await play_humans(table, people, max_steps=1)
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None
    assert [i["kind"] for i in saved.state["outbox"]] == ["hand", "hand"]
    bot.crash()
    busy = False
    bot = await boot(target, boots)
    [match_id] = await match_ids(bot.db)
    assert len(await bot.db.match_hands(match_id)) == 2
    table = bot.manager.get(CHANNEL)  # type: ignore[assignment]
    assert table.state.records.outbox == []


ORDAGO_HAND = [(0, "no hay mus"), (0, "órdago"), (1, "no quiero"), (3, "no quiero"),
               (0, "órdago"), (1, "quiero")]
"""Seat 0 is mano: an órdago refused at Grande, another accepted at Chica (the match's end)."""


async def play_ordagos(table: Table) -> dict[str, Any]:
    """Plays :data:`ORDAGO_HAND` (people in every seat, user = seat + 1); the hand's record."""
    for seat, text in ORDAGO_HAND:
        assert await typed(table, seat + 1, text)
    assert table.lifecycle == "finished"
    return next(item for item in table.state.records.outbox if item["kind"] == "hand")


def ordago_rows(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What storage must hold for :data:`ORDAGO_HAND`, from its result alone (its ledger's
    órdago step says which pair won the showdown)."""
    [step] = [s for s in result["ledger"] if s["kind"] == "ordago"]
    return [(0, None, "grande", 0), (0, 1, "chica", step["pair"])]


async def test_hand_records_carry_the_engines_ordagos(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot, humans=4)

    def no_replay(_: object) -> None:
        raise AssertionError("the hand record carries its órdagos")

    monkeypatch.setattr("musbot.storage.matches.replay_hand", no_replay)
    for seat, text in ORDAGO_HAND:
        assert await typed(table, seat + 1, text)
    await settle()
    assert table.state.records.outbox == []
    [(result,)] = await select(bot.db, "SELECT result FROM hands")
    assert await select(bot.db, "SELECT caller_seat, accepter_seat, lance, winner_team"
                                " FROM ordagos ORDER BY ordago_id") == \
        ordago_rows(json.loads(result))


async def test_a_hand_record_of_an_earlier_musbot_gets_its_ordagos(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved in the outbox by the version before, without «ordagos»: stored at the next start
    with the órdagos the engine finds in its transcript."""
    bot = await boot(target, boots)
    table = await open_table(bot, humans=4)

    async def busy(*args: object, **kwargs: object) -> int:
        raise DatabaseLocked(bot.db.where, 0.1)

    monkeypatch.setattr(bot.db, "record_hand", busy)
    record = await play_ordagos(table)
    assert len(record["ordagos"]) == 2
    for item in table.state.records.outbox:
        item.pop("ordagos", None)  # as an earlier musbot wrote it
    await bot.persister.save(table, Result(save=Save.WHOLE))
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None
    assert [i["kind"] for i in saved.state["outbox"]] == ["hand", "finish"]
    assert not any("ordagos" in i for i in saved.state["outbox"])
    bot.crash()
    monkeypatch.undo()
    bot = await boot(target, boots)
    assert await select(bot.db, "SELECT caller_seat, accepter_seat, lance, winner_team"
                                " FROM ordagos ORDER BY ordago_id") == \
        ordago_rows(record["result"])


async def test_unrestorable_state_stays_in_the_database(target: str,
                                                        boots: list[Database]) -> None:
    bot = await boot(target, boots)
    await bot.db.save_table(CHANNEL, GUILD, {"version": 99, "from": "the future"})
    bot = await boot(target, boots)
    assert bot.manager.get(CHANNEL) is None
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and saved.state["from"] == "the future"


async def test_suspend_keeps_the_table_for_the_next_start(target: str,
                                                          boots: list[Database]) -> None:
    bot = await boot(target, boots)
    await open_table(bot)
    await settle()
    assert bot.clock.sleepers == 1
    bot.manager.suspend_all()
    await bot.clock.advance(0)
    assert bot.clock.sleepers == 0
    assert await bot.db.load_table(CHANNEL) is not None


async def test_restored_silently_then_resumed_once_reachable(target: str,
                                                             boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot)
    await play_humans(table, random.Random(3), max_steps=5)
    turn = table.state.turn
    bot.crash()
    db = await Database.open(target)
    boots.append(db)
    transport = FakeTransport()
    clock = ManualClock()
    _, manager = await persistent(db, transport, clock=clock, resume=False)
    [again] = list(manager)
    # Asleep: nothing shown, no bot moved, no clock running, until it is resumed.
    assert transport.public_texts() == [] and again.state.turn == turn and clock.sleepers == 0
    await again.resume()
    lines = transport.public_lines()
    assert lines[-1].startswith("♻️ Mesa restaurada")
    # The page is the hand's whole record: the moves made before the restart, once each.
    assert lines[:-1] == table.state.page.lines


async def test_closed_table_keeps_its_records_until_stored(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await boot(target, boots)
    await open_table(bot)

    async def busy(match_id: int) -> None:
        raise DatabaseLocked(bot.db.where, 0.1)

    monkeypatch.setattr(bot.db, "abandon_match", busy)
    await bot.manager.close(CHANNEL)
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and saved.state["lifecycle"] == "closed"
    assert [i["kind"] for i in saved.state["outbox"]] == ["abandon"]
    monkeypatch.undo()
    bot = await boot(target, boots)
    assert bot.manager.get(CHANNEL) is None, "a closed table is not reopened"
    assert await bot.db.load_table(CHANNEL) is None
    [(abandoned,)] = await select(bot.db, "SELECT abandoned FROM matches")
    assert abandoned == 1


async def test_senas_received_survive(target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots)
    table = await open_table(bot, humans=1, rules=Rules(sena_cazada=1.0))
    received = table.state.senas.received
    assert received, "seed 7 deals the bots hands that show señas"
    bot.crash()
    bot = await boot(target, boots)
    again = bot.manager.get(CHANNEL)
    assert again is not None and again.state.senas.received == received


# --- the journal: moves appended between whole saves ----------------------------------------------


def comparable(table: Table) -> dict[str, Any]:
    """What a restore must give back. The outbox is left out: records already stored may stay
    in the saved one until the next save (storing them twice is harmless, see the module)."""
    state = to_json(table.state)
    state.pop("outbox")
    return state


async def restored_from_db(bot: Bot) -> tuple[Table, list[Any]]:
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None
    again = Table(from_json(saved.state, journal=saved.journal), FakeTransport(),
                  clock=ManualClock())
    return again, saved.journal


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_state_and_journal_give_back_the_live_table_after_every_step(
        target: str, boots: list[Database], seed: int) -> None:
    """Whatever happened last (a person's move, the bots' answers, a timeout and a bot playing
    for the person, a seña, a DM that could not be sent, a new deal, a finished hand), the
    saved state with its journal replayed is the live table."""
    bot = await boot(target, boots, seed, journaled=True)
    bot.transport.dm_closed = {2}  # the closed-DM warning is state too
    table = bot.manager.open(CHANNEL, TableSettings(rules=Rules(sena_cazada=0.5)), guild_id=GUILD)
    await seat_humans(table, 2)
    await table.start(1)
    people = random.Random(seed)
    journaled, longest, steps = 0, 0, 0
    seen: set[str] = set()
    while table.lifecycle == "playing":
        if steps % 9 == 8:
            await bot.tick(60)  # the person to speak times out; a bot plays for them
        else:
            await play_humans(table, people, max_steps=1)
        steps += 1
        seen |= {"timeout"} if any(s is not None and s.expiries for s in table.seats) else set()
        seen |= {"seña"} if table.state.senas.received else set()
        seen |= {"dm"} if any(s is not None and s.dm_warned for s in table.seats) else set()
        again, journal = await restored_from_db(bot)
        assert comparable(again) == comparable(table), f"step {steps}"
        journaled += bool(journal)
        longest = max(longest, len(journal))
        match, replayed = table.match, again.match
        if table.lifecycle == "playing" and match is not None and replayed is not None:
            assert replayed.to_act == match.to_act
            assert all(replayed.view(s) == match.view(s) for s in range(4))
    assert steps > 20
    assert journaled > steps / 3 and longest >= 3, "most moves went to the journal"
    assert seen == {"timeout", "seña", "dm"}


async def test_a_restart_in_the_middle_of_a_journal_goes_on_from_there(
        target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots, 5, journaled=True)
    table = await open_table(bot)
    people = random.Random(5)
    journal: list[Any] = []
    while len(journal) < 3:
        await play_humans(table, people, max_steps=1)
        saved = await bot.db.load_table(CHANNEL)
        assert saved is not None
        journal = saved.journal
    match = table.match
    assert match is not None
    views = [match.view(s) for s in range(4)]
    bot.crash()
    bot = await boot(target, boots, 5, journaled=True)
    again = bot.manager.get(CHANNEL)
    assert again is not None and again.match is not None
    assert [again.match.view(s) for s in range(4)] == views and again.state.turn == table.state.turn
    await play_humans(again, people)
    assert again.lifecycle == "finished"
    [match_id] = await match_ids(bot.db)
    assert len(await bot.db.match_hands(match_id)) == again.match.hand_number


async def test_records_stored_stay_in_the_saved_outbox_until_the_next_whole_save(
        target: str, boots: list[Database]) -> None:
    """The move after a finished hand is a journal entry like any other (the outbox stored
    meanwhile is not worth a whole save); a restart then stores the hand's record again from
    the saved outbox, which changes nothing: each hand once, the match once."""
    bot = await boot(target, boots, 3, journaled=True)
    table = await open_table(bot, humans=4)
    people = random.Random(3)
    match = table.match
    assert match is not None
    while match.hand_number == 1:
        await play_humans(table, people, max_steps=1)
    [match_id] = await match_ids(bot.db)
    assert len(await bot.db.match_hands(match_id)) == 1 and table.state.records.outbox == []
    whole = bot.persister.saved_whole
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and saved.journal == []
    while saved.journal == [] and match.hand_number == 2:
        await play_humans(table, people, max_steps=1)
        saved = await bot.db.load_table(CHANNEL)
        assert saved is not None
    assert saved.journal, "a move of the new hand went to the journal"
    assert [r["kind"] for r in saved.state["outbox"]] == ["hand"]
    assert bot.persister.saved_whole == whole
    bot.crash()
    bot = await boot(target, boots, 3, journaled=True)
    again = bot.manager.get(CHANNEL)
    assert again is not None and again.match is not None
    await play_humans(again, people)
    assert again.lifecycle == "finished"
    assert await match_ids(bot.db) == [match_id]
    hands = await bot.db.match_hands(match_id)
    assert len(hands) == again.match.hand_number


async def test_a_seeded_table_saves_its_whole_state_every_time(target: str,
                                                               boots: list[Database]) -> None:
    """Its random generator is part of the state and moves with every bot's decision."""
    bot = await boot(target, boots)
    table = await open_table(bot)
    for _ in range(15):
        await play_humans(table, random.Random(1), max_steps=1)
        saved = await bot.db.load_table(CHANNEL)
        assert saved is not None and saved.journal == []
        assert saved.state["turn"] == table.state.turn


async def test_a_move_whose_journal_entry_fails_is_undone_until_the_database_is_back(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    """Save, then tell, or refuse: the move is not made for anyone, the table is what the
    database holds (its state and the journal entries stored after it), and once the database
    takes writes again the table goes on by itself and the same move is accepted."""
    bot = await boot(target, boots, 2, journaled=True)
    table = await open_table(bot, humans=4)
    people = random.Random(2)
    await play_humans(table, people, max_steps=3)
    stored = bot.persister.stored(CHANNEL)
    assert stored is not None and stored.journal, "moves in the journal already"
    before, turn = comparable(table), table.state.turn
    down = True
    append, save = bot.db.append_to_journal, bot.db.save_table

    async def appending(channel_id: int, entries: Any) -> bool:
        if down:
            raise DatabaseUnavailable(bot.db.where, "stopped by the test")
        return await append(channel_id, entries)

    async def saving(channel_id: int, guild_id: int | None, state: Any) -> int:
        if down:
            raise DatabaseUnavailable(bot.db.where, "stopped by the test")
        return await save(channel_id, guild_id, state)

    monkeypatch.setattr(bot.db, "append_to_journal", appending)
    monkeypatch.setattr(bot.db, "save_table", saving)
    match = table.match
    assert match is not None and match.to_act is not None
    seat = match.to_act
    user = seat + 1
    action = HeuristicBot().decide(match.view(seat), people)
    with pytest.raises(NotSaved):
        await table.act(user, action)
    assert table.paused and bot.persister.down and bot.persister.failed == 1
    assert table.state.turn == turn
    assert comparable(table) == before | {"page": to_json(table.state)["page"]}
    again, _ = await restored_from_db(bot)
    assert again.state.turn == turn, "what the database holds is what the table is"
    assert bot.transport.public_lines()[-1].startswith("⏸️")
    with pytest.raises(NotSaved):
        await table.act(user, action)  # refused at once while paused, nothing tried
    assert bot.persister.failed == 1
    await bot.tick(3)
    assert table.paused and bot.persister.failed > 1, "it keeps trying"
    down = False
    await bot.tick(6)
    assert not table.paused and not bot.persister.down
    assert bot.transport.public_lines()[-1].startswith("▶️")
    await table.act(user, action)
    assert table.state.turn > turn
    again, _ = await restored_from_db(bot)
    assert comparable(again) == comparable(table)


async def test_a_table_undone_after_a_failed_save_keeps_the_hands_it_may_review(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    """What a table goes back to keeps the finished hands ``/mus repaso`` answers about as they
    were saved (the persister keeps them beside its compressed copy of the state, not in it)."""
    bot = await boot(target, boots, 3, journaled=True)
    table = await open_table(bot, humans=4, rules=Rules())
    people = random.Random(3)
    while len(table.state.handbook.finished) < 2:
        await play_humans(table, people, max_steps=1)
    await play_humans(table, people, max_steps=2)  # and a move or two into the next hand
    stored = bot.persister.stored(CHANNEL)
    assert stored is not None and stored.book is not None
    before = comparable(table)
    assert len(before["repaso"]["finished"]) == 2

    async def down(*args: Any) -> Any:
        raise DatabaseUnavailable(bot.db.where, "stopped by the test")

    monkeypatch.setattr(bot.db, "append_to_journal", down)
    monkeypatch.setattr(bot.db, "save_table", down)
    match = table.match
    assert match is not None and match.to_act is not None
    seat = match.to_act
    with pytest.raises(NotSaved):
        await table.act(seat + 1, HeuristicBot().decide(match.view(seat), people))
    assert table.paused
    assert comparable(table) == before | {"page": to_json(table.state)["page"]}
    assert [h.packed for h in table.state.handbook.finished] == \
        [h.packed for h in stored.book.finished]


async def test_a_journal_that_does_not_fit_its_state_is_refused_and_kept(
        target: str, boots: list[Database]) -> None:
    bot = await boot(target, boots, 3, journaled=True)
    table = await open_table(bot, humans=4)
    match = table.match
    assert match is not None
    elsewhere = (match.to_act or 0) + 1
    assert await bot.db.append_to_journal(CHANNEL, [[elsewhere % 4, "paso", 0, []]])
    bot.crash()
    bot = await boot(target, boots, 3, journaled=True)
    assert bot.manager.get(CHANNEL) is None, "not that seat's turn: the engine refuses it"
    saved = await bot.db.load_table(CHANNEL)
    assert saved is not None and len(saved.journal) == 1, "kept for a newer musbot"
    with pytest.raises(StateError):
        from_json(saved.state, journal=[["not", "a move"]])


async def test_the_first_table_saved_again_hurries_the_other_paused_ones(
        target: str, boots: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables that paused long ago wait several seconds between attempts: once the database
    took one table's save, the others try at once."""
    bot = await boot(target, boots, 4, journaled=True)
    first = await open_table(bot, humans=4)
    second = bot.manager.open(CHANNEL + 1, TableSettings(rules=QUICK), guild_id=GUILD)
    await seat_humans(second, 2)
    down = True
    save = bot.db.save_table

    async def saving(channel_id: int, guild_id: int | None, state: Any) -> int:
        if down:
            raise DatabaseUnavailable(bot.db.where, "stopped by the test")
        return await save(channel_id, guild_id, state)

    monkeypatch.setattr(bot.db, "save_table", saving)
    monkeypatch.setattr(pause._jitter, "uniform", lambda low, high: high)
    with pytest.raises(NotSaved):
        await first.leave(1)
    await bot.tick(20)  # its attempts come every 5 s now: 17.5 s, then 22.5 s
    with pytest.raises(NotSaved):
        await second.start(1)
    down = False
    await bot.clock.advance(0.6)  # the second's first attempt, half a second after its pause
    for _ in range(300):  # real time, for the database's answers; the clock stands still
        if not second.paused and not first.paused:
            break
        await asyncio.sleep(0.01)
        await bot.clock.advance(0)  # what is due now (an attempt made at once) goes off
    assert not second.paused and not first.paused


async def test_a_page_restored_says_what_it_said_whoever_sits_there_now() -> None:
    """Issue 43: once all four people left a finished league table, its last hand's message
    was worded again as «el asiento 1: envido (van 2)…», their names gone. A page keeps the
    names its lines were worded with; only «forget me» words them anew."""
    from musbot.table.saved import from_json, to_json

    table, _, _ = make_table(seed=5, rules=Rules(puntos=5, juegos=1, vacas=1))
    users = await seat_humans(table)
    await table.start(users[0])
    await play_humans(table, random.Random(5), via_text=False)
    assert table.lifecycle == "finished"
    said = list(table.state.page.lines)
    assert any("P1" in line for line in said)
    for user in users.values():
        await table.leave(user)
    shown = list(table.state.page.lines)  # and who left, in notes of the table's own
    restored = from_json(to_json(table.state))
    assert restored.page.lines == shown, "the names it was played with"
    again = from_json(to_json(restored))
    assert again.page.lines == shown and shown[:len(said)] == said
