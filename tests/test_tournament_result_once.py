"""A tournament match's result is stored once (issue 45), on both backends: the table's stored
match (``matches``, written by its records) holds the games and tantos of a match played to its
end at its table; the tournament's saved state only refers to it (``Match.table_record``) and
reads it back at every load. A restart between the table's end and the tournament's save leaves one
result, and the two places cannot disagree: the tournament's copy is never read, and a save
that would disagree, or refer to a match not stored as finished, is refused."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import orjson
import pytest
from db_helpers import execute, select

from musbot.bench.txapelketa import EPOCH, BenchVenue, QuietTransport, play_tables
from musbot.engine import Rules, seeded_shuffler
from musbot.storage import Database, DatabaseUnavailable, UnrecordedMatch
from musbot.table import ManualClock, TableManager
from musbot.table.persist import TablePersister
from musbot.tournament import MatchState, Settings, Stage
from musbot.tournament.live import Cup, TournamentRunner


@pytest.fixture
async def opened() -> AsyncIterator[list[Database]]:
    """The databases a test opened, closed after it even when it fails (a database left open
    keeps the test process from ending)."""
    databases: list[Database] = []
    yield databases
    for db in databases:
        await db.close()


async def start(target: str, clock: ManualClock, opened: list[Database]
                ) -> tuple[Database, TableManager, TournamentRunner]:
    db = Database(target)
    await db.connect()
    opened.append(db)
    tables = TableManager(QuietTransport(), clock=clock, persist=TablePersister(db),
                          shuffler=seeded_shuffler(5), rng=random.Random(5))
    runner = TournamentRunner(db, tables, BenchVenue(), clock=clock,
                              wall=lambda: EPOCH + timedelta(seconds=clock.now()))
    return db, tables, runner


async def one_match(runner: TournamentRunner) -> Cup:
    cup = await runner.create(7, 8, Settings("Kopa", games_to_win=1, rules=Rules(puntos=5)),
                              organiser=1, seed=3)
    for user in range(100, 104):
        await runner.change(cup, lambda t, now, u=user: t.sign_up(u, f"P{u}", now=now))
    await runner.draw(cup)
    return cup


async def saved_state(db: Database, tournament_id: int) -> dict[str, Any]:
    """The tournament's saved state, as stored."""
    [(state,)] = await select(db, "SELECT state FROM tournaments WHERE tournament_id = ?",
                              (tournament_id,))
    return dict(orjson.loads(state))


async def saved_match(db: Database, tournament_id: int, match_id: str) -> dict[str, Any]:
    """The match as the tournament's saved state holds it."""
    document = await saved_state(db, tournament_id)
    return next(m for m in document["matches"] if m["id"] == match_id)


async def table_result(db: Database, key: str) -> tuple[Any, ...]:
    [row] = await select(db, "SELECT games_0, games_1, tantos_0, tantos_1, ended_at FROM matches"
                             " WHERE match_key = ?", (key,))
    return row


async def test_a_restart_between_the_tables_end_and_the_tournaments_save_keeps_one_result(
        target: str, opened: list[Database]) -> None:
    clock = ManualClock()
    db, tables, runner = await start(target, clock, opened)
    cup = await one_match(runner)
    [match] = cup.tournament.ready()
    runner.stop()
    tables.unsubscribe(runner._heard)  # the bot «dies» as the match ends
    await play_tables(tables, set())
    table = tables.get(cup.places[match.id])
    assert table is not None and table.notice is not None and table.notice.over
    key = table.notice.match_record
    assert key is not None and table.notice.recorded
    assert (await table_result(db, key))[4] is not None, "the table stored its end"
    saved = await saved_match(db, cup.tournament_id, match.id)
    assert saved["state"] == "ready" and "table_record" not in saved, "the tournament has not"
    tables.suspend_all()
    await db.close()

    tournament_id = cup.tournament_id
    for restart in (1, 2):  # the restart, then another: the result is the same one
        db, tables, runner = await start(target, clock, opened)
        await TablePersister(db).restore(tables)
        await runner.start()
        await runner.idle()
        if restart == 1:
            [cup] = runner.cups.values()  # carried on: the table's result recorded
        else:
            assert not runner.cups, "finished: nothing left to carry on"
        t = (await db.load_tournament(tournament_id)).tournament
        decided = t.matches[match.id]
        assert decided.state is MatchState.FINISHED and decided.table_record == key
        assert t.phase is Stage.FINISHED and t == cup.tournament
        games_0, games_1, tantos_0, tantos_1, _ = await table_result(db, key)
        assert decided.games == [games_0, games_1] and decided.tantos == [tantos_0, tantos_1]
        saved = await saved_match(db, tournament_id, match.id)
        assert saved["table_record"] == key and saved["state"] == "finished"
        assert not {"games", "tantos", "winner"} & set(saved), "stored once: in the table's"
        assert not list(tables), "its table closed once the result was in"
        tables.suspend_all()
        await db.close()


async def test_the_result_is_read_from_the_one_place_and_a_save_cannot_contradict_it(
        target: str, opened: list[Database]) -> None:
    clock = ManualClock()
    db, tables, runner = await start(target, clock, opened)
    cup = await one_match(runner)
    [match] = cup.tournament.ready()
    await play_tables(tables, set())
    await runner.idle()
    decided = cup.tournament.matches[match.id]
    key = decided.table_record
    assert decided.state is MatchState.FINISHED and key is not None
    winner = decided.winner
    assert winner is not None

    # A copy slipped into the tournament's state is not read: the table's stored match is.
    document = await saved_state(db, cup.tournament_id)
    for m in document["matches"]:
        if m["id"] == match.id:
            m.update(games=[0, 7], tantos=[1, 2], winner=1 - winner)
    await execute(db, "UPDATE tournaments SET state = ? WHERE tournament_id = ?",
                  (orjson.dumps(document).decode(), cup.tournament_id))
    loaded = (await db.load_tournament(cup.tournament_id)).tournament.matches[match.id]
    assert (loaded.games, loaded.tantos, loaded.winner) == \
        (decided.games, decided.tantos, decided.winner)

    # A save whose result is not the stored match's is refused, the stored state kept.
    t = (await db.load_tournament(cup.tournament_id)).tournament
    revision = t.revision
    t.matches[match.id].tantos = [t.matches[match.id].tantos[0] + 1,
                                  t.matches[match.id].tantos[1]]
    t.revision += 1
    with pytest.raises(UnrecordedMatch):
        await db.save_tournament(cup.tournament_id, t)
    assert (await db.load_tournament(cup.tournament_id)).tournament.revision == revision

    # Nor may it refer to a stored match that has not finished.
    open_key = "not-finished"
    await execute(db, "INSERT INTO matches (match_key, rules, players, started_at)"
                      " VALUES (?, '{}', 4, '2025-01-01T00:00:00+00:00')", (open_key,))
    t = (await db.load_tournament(cup.tournament_id)).tournament
    t.matches[match.id].table_record = open_key
    t.revision += 1
    with pytest.raises(UnrecordedMatch):
        await db.save_tournament(cup.tournament_id, t)
    await db.close()


async def test_a_result_set_by_the_organiser_is_the_tournaments_own(
        target: str, opened: list[Database]) -> None:
    """Corrected by the organiser, the match no longer refers to its table: its result is
    kept in the tournament's state, again in one place."""
    clock = ManualClock()
    db, tables, runner = await start(target, clock, opened)
    cup = await one_match(runner)
    [match] = cup.tournament.ready()
    await play_tables(tables, set())
    await runner.idle()
    loser = 1 - (cup.tournament.matches[match.id].winner or 0)
    games = [0, 0]
    games[loser] = 1
    await runner.change(cup, lambda t, now: t.set_result(match.id, games, now=now))
    corrected = cup.tournament.matches[match.id]
    assert corrected.table_record is None and corrected.games == games
    saved = await saved_match(db, cup.tournament_id, match.id)
    assert "table_record" not in saved and saved["games"] == games
    assert (await db.load_tournament(cup.tournament_id)).tournament.matches[match.id].games \
        == games
    await db.close()


async def test_a_result_whose_records_wait_is_recorded_once_they_are_stored(
        target: str, opened: list[Database], monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's end could not be stored (the database refused the records, not the table):
    the tournament waits, rather than keep a result of its own, and records it when the
    table's records are stored and its notice says so."""
    clock = ManualClock()
    db, tables, runner = await start(target, clock, opened)
    cup = await one_match(runner)
    [match] = cup.tournament.ready()
    finish = db.record_finished_match
    down = [True]

    async def refused(*args: Any, **kwargs: Any) -> Any:
        if down[0]:
            raise DatabaseUnavailable(target, "the records' store is down")
        return await finish(*args, **kwargs)

    monkeypatch.setattr(db, "record_finished_match", refused)
    await play_tables(tables, set())
    await runner.idle()
    table = tables.get(cup.places[match.id])
    assert table is not None and table.notice is not None
    assert table.notice.over and not table.notice.recorded
    assert cup.tournament.matches[match.id].state is MatchState.PLAYING, "it waits"
    down[0] = False
    await clock.advance(120)  # the table's next attempt at its records
    for _ in range(200):  # a real server answers in its own time
        if cup.tournament.matches[match.id].decided:
            break
        await asyncio.sleep(0.01)
        await runner.idle()
    decided = cup.tournament.matches[match.id]
    assert decided.state is MatchState.FINISHED
    assert decided.table_record == table.notice.match_record
    games_0, games_1, tantos_0, tantos_1, _ = await table_result(db, decided.table_record)
    assert decided.games == [games_0, games_1] and decided.tantos == [tantos_0, tantos_1]
    await db.close()
