"""The tournament runner (``musbot/tournament/live/``) and what it needs of the table layer, without
Discord: match tables for four entrants, results read from finished tables, walkovers on the
clock, a restart that finds a match finished while the bot was down, seeding from league ratings.
A real SQLite file; the venue is the benchmark's (places counted up, the bracket drawn)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from table_helpers import make_table

from musbot.bench.txapelketa import EPOCH, BenchVenue, QuietTransport, play_tables
from musbot.engine import Match, Rules, seeded_shuffler
from musbot.engine.match import Match as EngineMatch
from musbot.storage import Database
from musbot.storage.ratings import display, pair_from_people
from musbot.table import ManualClock, Table, TableError, TableManager
from musbot.table.entry import Entry
from musbot.table.persist import TablePersister
from musbot.table.saved import from_json, to_json
from musbot.tournament import (
    AtDeadline,
    Format,
    Lateness,
    MatchState,
    Settings,
    Stage,
    TournamentError,
)
from musbot.tournament.live import Cup, Lacking, TournamentRunner
from musbot.tournament.model import Fixture

# --- the table layer: entrants, finished games --------------------------------------------


async def test_a_match_table_seats_only_its_entrants_each_with_their_partner() -> None:
    table, _, _ = make_table(entry=Entry({1: 0, 2: 1, 3: 0, 4: 1}))
    with pytest.raises(TableError, match="table_reserved"):
        await table.join(9, "Intrusa")
    with pytest.raises(TableError, match="table_reserved"):
        await table.add_bot()
    assert await table.join(2, "Bea", 0) in (1, 3), "the pair is the entrant's, not the button's"
    await table.join(1, "Ane")
    with pytest.raises(TableError, match="entrants_missing"):
        await table.start(1)  # never with a bot in an entrant's seat
    await table.join(3, "Koldo")
    assert table.lifecycle == "waiting"
    await table.join(4, "Mikel")
    assert table.lifecycle == "playing", "the fourth to sit starts the match"
    assert {table.state.rules.team(table.seat_of(u) or 0) for u in (1, 3)} == {0}
    restored = from_json(to_json(table.state))
    assert restored.entry.entrants == {1: 0, 2: 1, 3: 0, 4: 1}


def test_a_match_keeps_its_finished_games_across_vacas_and_snapshots() -> None:
    match = EngineMatch(Rules(puntos=5, juegos=2, vacas=1), first_mano=0,
                        shuffler=seeded_shuffler(3))
    rng = random.Random(3)
    while not match.finished:
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        again = Match.restore(match.snapshot(), shuffler=seeded_shuffler(3))
        assert again.games_played == match.games_played
    winner = match.winner
    assert match.games == [0, 0], "the games are reset when the vaca is won"
    assert [w for w, _, _ in match.games_played].count(winner) == 2
    for won, first, second in match.games_played:
        assert (first, second)[won] >= 5 or max(first, second) < 5  # an órdago ends a game too


# --- the runner -------------------------------------------------------------------------------


def bot_played(table: Table) -> bool:
    """The flag of the table's last notice: what the tournament reads of it."""
    return table.notice is not None and table.notice.bot_game


class Venue(BenchVenue):
    """The benchmark's venue, keeping what it was told to say."""

    def __init__(self) -> None:
        super().__init__()
        self.news_sent: list[tuple[str, list[int]]] = []

    async def news(self, cup: Cup, text: str, users: Sequence[int] = ()) -> None:
        self.news_sent.append((text, list(users)))


async def start(path: Path, clock: ManualClock, seed: int = 5, *,
                turn_seconds: int | None = None
                ) -> tuple[Database, TableManager, TournamentRunner, Venue]:
    db = Database(path)
    await db.connect()
    tables = TableManager(QuietTransport(), clock=clock, persist=TablePersister(db),
                          shuffler=seeded_shuffler(seed), rng=random.Random(seed))
    venue = Venue()
    runner = TournamentRunner(db, tables, venue, clock=clock, turn_seconds=turn_seconds,
                              wall=lambda: EPOCH + timedelta(seconds=clock.now()))
    return db, tables, runner, venue


async def signed(runner: TournamentRunner, pairs: int, **options: object) -> Cup:
    settings = Settings("Kopa", **options)  # type: ignore[arg-type]
    cup = await runner.create(7, 8, settings, organiser=1, seed=3)
    for user in range(100, 100 + 2 * pairs):
        await runner.change(cup, lambda t, now, u=user: t.sign_up(u, f"P{u}", now=now))
    return cup


async def test_a_knockout_runs_on_tables_to_its_champions(tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue = await start(tmp_path / "k.db", clock)
    await runner.start()
    cup = await signed(runner, 4, format=Format.KNOCKOUT, games_to_win=1,
                       rules=Rules(puntos=5))
    await runner.draw(cup)
    assert len(venue.calls) == 2 and all(len(users) == 4 for _, users in venue.calls)
    while cup.tournament.phase is Stage.RUNNING:
        await play_tables(tables, set())
        await runner.idle()
    t = cup.tournament
    assert t.champion is not None
    for match in t.matches.values():
        assert match.state is MatchState.FINISHED and sum(match.games) == 1
        assert max(match.tantos) >= 5 or match.tantos == [0, 0] or sum(match.tantos) > 0
    assert not list(tables), "every match's table closed once its result was in"
    assert (await db.hall_of_fame(7))[0].name == "Kopa"
    await db.close()


async def test_a_pair_that_does_not_sit_down_loses_by_walkover_after_the_grace_time(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, _ = await start(tmp_path / "w.db", clock)
    cup = await signed(runner, 2, games_to_win=1, grace_minutes=10, rules=Rules(puntos=5))
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    absent = cup.tournament.pairs[match.pairs[1] or 0].players
    table = tables.get(cup.places[match.id])
    assert table is not None
    for user, pair in table.state.entry.entrants.items():
        if user not in absent:
            await table.join(user, f"P{user}", pair)
    await clock.advance(9 * 60)
    assert match.state is MatchState.READY, "not before the grace time"
    await clock.advance(2 * 60)
    await runner.idle()
    assert match.state is MatchState.WALKOVER and match.winner == 0
    assert cup.tournament.phase is Stage.FINISHED
    assert tables.get(cup.places[match.id]) is None, "its table closed"
    await db.close()


async def test_a_late_pair_loses_a_game_and_the_match_starts_with_it_on_the_table(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, _ = await start(tmp_path / "g.db", clock)
    cup = await signed(runner, 2, games_to_win=2, grace_minutes=5, lateness=Lateness.GAME,
                       rules=Rules(puntos=5))
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    late = set(cup.tournament.pairs[match.pairs[1] or 0].players)
    table = tables.get(cup.places[match.id])
    assert table is not None
    await play_tables(tables, late)  # the others sit down
    await clock.advance(6 * 60)
    await runner.idle()
    assert match.forfeits == [1, 0] and match.state is MatchState.READY
    assert table.state.entry.games == (1, 0)
    await play_tables(tables, set())  # the late pair comes: 1-0 on the table from the start
    await runner.idle()
    assert match.state is MatchState.FINISHED
    assert match.games[match.winner or 0] == 2 and match.games[0] >= 1
    assert sum(match.games) == 1 + len(table.match.games_played if table.match else [])
    await db.close()


async def test_neither_pair_seated_is_left_to_the_organiser(tmp_path: Path) -> None:
    clock = ManualClock()
    db, _, runner, _ = await start(tmp_path / "b.db", clock)
    cup = await signed(runner, 2, games_to_win=1, grace_minutes=5)
    await runner.draw(cup)
    await clock.advance(6 * 60)
    await runner.idle()
    [match] = cup.tournament.ready()
    assert "both_late" in match.flags and match.state is MatchState.READY
    await db.close()


async def test_a_match_finished_while_the_bot_was_down_gives_its_result_at_start(
        tmp_path: Path) -> None:
    clock = ManualClock()
    path = tmp_path / "r.db"
    db, tables, runner, _ = await start(path, clock)
    cup = await signed(runner, 2, games_to_win=1, rules=Rules(puntos=5))
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    place = cup.places[match.id]
    runner.stop()
    tables.unsubscribe(runner._heard)  # the bot «dies» as the match ends: nobody hears of it
    await play_tables(tables, set())
    table = tables.get(place)
    assert table is not None and table.lifecycle == "finished"
    tables.suspend_all()
    await db.close()

    db, tables, runner, venue = await start(path, clock)
    await TablePersister(db).restore(tables)  # what the bot does before its cogs
    restored = tables.get(place)
    assert restored is not None and restored.lifecycle == "finished"
    await runner.start()
    [cup] = runner.cups.values()
    assert cup.tournament.matches[match.id].state is MatchState.FINISHED
    assert cup.tournament.phase is Stage.FINISHED
    assert venue.calls == [], "nothing reopened"
    await db.close()


async def test_pair_seeds_come_from_league_ratings_until_the_pair_has_its_own(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "s.db") as db:
        league = await db.create_league(7, "Liga")
        season = league.season
        now = "2025-01-01T00:00:00+00:00"
        for user in (1, 2, 3):
            await db.join_league(league.league_id, user, f"P{user}")
        raw = sqlite3.connect(tmp_path / "s.db", isolation_level=None)
        for user, mu in ((1, 30.0), (2, 28.0), (3, 20.0)):
            raw.execute("INSERT INTO ratings (season_id, user_id, mu, sigma, matches, updated_at)"
                        " VALUES (?, ?, ?, ?, 5, ?)", (season.season_id, user, mu, 3.0, now))
        raw.close()
        found = await db.seeding_ratings(7, [1, 2, 3, 4])
        assert found[(1, 2)] == display(*pair_from_people((30.0, 3.0), (28.0, 3.0)))
        assert found[(1, 2)] > found[(1, 3)] > found[(2, 3)] - 100
        assert (1, 4) not in found, "someone without a rating leaves the pair unrated"
        assert display(*pair_from_people((25.0, 2.0), (25.0, 2.0))) == display(25.0, 2.0)


# --- the round's time --------------------------------------------------------------------------

SLOW = 600
"""A turn clock slower than the round's five minutes: no bot plays a missed turn here."""


async def sit_and_play(table: Table, until: Callable[[Table], bool]) -> None:
    """Its four entrants sit down, then play as the bot would until ``until(table)``."""
    state = table.state
    for user, pair in state.entry.entrants.items():
        if table.seat_of(user) is None:
            await table.join(user, f"P{user}", pair)
    while table.lifecycle == "playing" and not until(table):
        seat = state.person_to_act()
        assert seat is not None
        occupant = state.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        await table.act(occupant.user_id, state.decide(seat))


def one_game_played(table: Table) -> bool:
    return table.match is not None and len(table.match.games_played) == 1


async def timed_match(path: Path, clock: ManualClock, games_to_win: int,
                      at_deadline: AtDeadline = AtDeadline.DECIDE
                      ) -> tuple[Database, TableManager, TournamentRunner, Venue, Cup,
                                 Fixture, Table]:
    """Two pairs drawn into one match of 5-tanto games with a 5-minute round: the runner's
    pieces, the cup, the match and its table. The bot decides alone at the time limit unless
    ``at_deadline`` says otherwise."""
    db, tables, runner, venue = await start(path, clock, turn_seconds=SLOW)
    cup = await signed(runner, 2, games_to_win=games_to_win, round_minutes=5, grace_minutes=1,
                       rules=Rules(puntos=5), at_deadline=at_deadline)
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    table = tables.get(cup.places[match.id])
    assert table is not None
    return db, tables, runner, venue, cup, match, table


async def test_when_the_round_time_runs_out_the_pair_ahead_wins_and_the_table_closes(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue, cup, match, table = await timed_match(tmp_path / "o.db", clock,
                                                                     2)
    await sit_and_play(table, one_game_played)
    await runner.idle()
    assert match.state is MatchState.PLAYING
    assert table.match is not None
    ahead = table.match.games_played[0][0]
    await clock.advance(4 * 60)
    await runner.idle()
    assert match.state is MatchState.PLAYING, "not before its time"
    await clock.advance(2 * 60)
    await runner.idle()
    assert match.state is MatchState.FINISHED and match.winner == ahead
    assert match.games[ahead] == 1 and "overtime" in match.flags
    assert tables.get(cup.places[match.id]) is None, "its table closed"
    assert sum("se acabó el tiempo" in text for text, _ in venue.news_sent) == 1
    assert cup.tournament.phase is Stage.FINISHED
    await db.close()


async def test_level_when_the_time_runs_out_plays_on_to_the_tables_result(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue, _, match, table = await timed_match(tmp_path / "l.db", clock, 1)
    await sit_and_play(table, lambda _: True)  # seated: 0-0, the first hand dealt
    await runner.idle()
    await clock.advance(5 * 60 + 30)
    await runner.idle()
    assert match.state is MatchState.PLAYING and "overtime" in match.flags
    told = [text for text, _ in venue.news_sent if "empatadas" in text]
    assert len(told) == 1 and "5 minutos" in told[0]
    await clock.advance(2 * 60)
    await runner.idle()
    assert len([t for t, _ in venue.news_sent if "empatadas" in t]) == 1, "told once"
    await play_tables(tables, set())
    await runner.idle()
    assert match.state is MatchState.FINISHED and sum(match.games) == 1
    await db.close()


async def test_a_round_time_that_ran_out_while_the_bot_was_down_is_acted_on_once(
        tmp_path: Path) -> None:
    clock = ManualClock()
    path = tmp_path / "d.db"
    db, tables, runner, _, cup, match, table = await timed_match(path, clock, 2)
    place = cup.places[match.id]
    await sit_and_play(table, one_game_played)
    await runner.idle()
    assert table.match is not None
    ahead = table.match.games_played[0][0]
    runner.stop()
    tables.suspend_all()
    await db.close()
    await clock.advance(6 * 60)  # the bot is down past the round's time

    for attempt in range(2):
        db, tables, runner, venue = await start(path, clock, turn_seconds=SLOW)
        await TablePersister(db).restore(tables)
        await runner.start()
        await clock.advance(2)
        await runner.idle()
        assert len(runner.cups) == 1 - attempt, "a finished tournament is not carried on"
        stored = await db.load_tournament(cup.tournament_id)
        decided = stored.tournament.matches[match.id]
        assert decided.state is MatchState.FINISHED and decided.winner == ahead
        said = [text for text, _ in venue.news_sent if "se acabó el tiempo" in text]
        assert len(said) == (1 if attempt == 0 else 0), "decided at catch-up, never twice"
        assert tables.get(place) is None
        runner.stop()
        await db.close()


# --- a bot playing a whole game ----------------------------------------------------------------

ABSENT = 4


async def play_first_game(table: Table, clock: ManualClock, *, back: bool = False) -> bool:
    """The first game: everyone plays their turns but ABSENT, whose turns run out until a bot
    plays their seat; with ``back``, they say «vuelvo» as soon as it does and play on. Whether
    they came back before the game ended."""
    state = table.state
    for user, pair in state.entry.entrants.items():
        await table.join(user, f"P{user}", pair)
    absent = state.seats[table.seat_of(ABSENT) or 0]
    assert table.match is not None and absent is not None
    came_back = False
    while not table.match.games_played:
        if back and absent.away and not came_back:
            await table.come_back(ABSENT)
            came_back = True
            continue
        seat = state.person_to_act()
        occupant = state.seats[seat] if seat is not None else None
        if seat is None or occupant is None or occupant.user_id is None or \
                (occupant.user_id == ABSENT and not came_back):
            await clock.advance(5)  # a bot's turn, or ABSENT's running out
        else:
            await table.act(occupant.user_id, state.decide(seat))
    return came_back


async def test_a_game_a_bot_played_for_a_person_flags_the_match() -> None:
    table, _, clock = make_table(entry=Entry({1: 0, 2: 1, 3: 0, ABSENT: 1}),
                                 rules=Rules(puntos=15, juegos=2, vacas=1), turn_seconds=15)
    await play_first_game(table, clock)
    assert bot_played(table), "the bot played every move of ABSENT's seat in that game"
    assert from_json(to_json(table.state)).records.bot_game, "kept across a restart"


async def test_a_person_back_before_the_game_ends_leaves_the_match_unflagged() -> None:
    """Missed turns played by the bot, even for good until «vuelvo», are not a whole game: the
    person played in it (the league still rates no one for it, as before)."""
    table, _, clock = make_table(entry=Entry({1: 0, 2: 1, 3: 0, ABSENT: 1}),
                                 rules=Rules(puntos=40, juegos=2, vacas=1), turn_seconds=15)
    assert await play_first_game(table, clock, back=True), "back before the game ended"
    assert not bot_played(table)
    assert not table.state.records.rated
    while table.match is not None and len(table.match.games_played) < 2 and \
            table.lifecycle == "playing":  # the next game, everyone at the table
        seat = table.state.person_to_act()
        if seat is None:
            await clock.advance(5)
            continue
        occupant = table.state.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        await table.act(occupant.user_id, table.state.decide(seat))
    assert not bot_played(table), "a game all four played"


# --- a match is decided by its own table only (issue 42) --------------------------------------


async def test_a_match_place_takes_no_other_table_and_a_replay_opens_its_own_again(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue = await start(tmp_path / "p.db", clock)
    cup = await signed(runner, 4, games_to_win=1, rules=Rules(puntos=5))
    await runner.draw(cup)
    match = sorted(cup.tournament.ready(), key=lambda m: m.id)[0]
    place = cup.places[match.id]
    with pytest.raises(TableError, match="table_exists"):
        tables.open(place)
    await runner.change(cup, lambda t, now: t.set_result(match.id, (1, 0), now=now))
    assert tables.get(place) is None, "the organiser's result closed its table"
    with pytest.raises(TableError, match="place_reserved"):
        tables.open(place)  # anyone's casual table in the match's thread
    with pytest.raises(TableError, match="place_reserved"):
        tables.open(place, entrants={9: 0, 10: 1}, match="99:W1-1")  # another «match»'s
    calls = len(venue.calls)
    await runner.change(cup, lambda t, now: t.replay(match.id, now=now))
    table = tables.get(place)
    assert table is not None and table.state.entry.match == f"{cup.tournament_id}:{match.id}"
    assert match.state is MatchState.READY and len(venue.calls) == calls + 1, "players called"
    assert venue.calls[-1] == (place, sorted(table.state.entry.entrants))
    await db.close()


async def test_a_match_table_closed_by_anyone_but_the_tournament_pauses_the_match(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue = await start(tmp_path / "c.db", clock)
    cup = await signed(runner, 2, games_to_win=1, grace_minutes=10, round_minutes=60,
                       rules=Rules(puntos=40))
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    place = cup.places[match.id]
    table = tables.get(place)
    assert table is not None
    for user, pair in table.state.entry.entrants.items():
        await table.join(user, f"P{user}", pair)
    assert table.lifecycle == "playing"
    await runner.idle()
    assert match.state is MatchState.PLAYING
    told = len(venue.news_sent)
    await tables.close(place)  # a moderator's /mus cerrar
    await runner.idle()
    assert match.paused_at is not None and match.state is MatchState.PLAYING
    paused = venue.news_sent[told:]
    assert len(paused) == 1, paused
    assert set(paused[0][1]) == set(table.state.entry.entrants) | {1}, \
        "its four players and the organiser are told, once"
    await clock.advance(3 * 3600)  # far past the round's time: nothing decides it
    await runner.idle()
    assert not match.decided and len(venue.news_sent) == told + 1
    with pytest.raises(TableError, match="place_reserved"):
        tables.open(place)
    await runner.change(cup, lambda t, now: t.replay(match.id, now=now))  # a new table
    again = tables.get(place)
    assert again is not None and again is not table and again.lifecycle == "waiting"
    assert match.paused_at is None and match.state is MatchState.READY
    await play_tables(tables, set())
    await runner.idle()
    assert match.state is MatchState.FINISHED, "its own new table decides it"
    await db.close()


async def test_a_match_table_out_of_reach_pauses_its_time_until_it_is_back(
        tmp_path: Path) -> None:
    clock = ManualClock()
    db, tables, runner, venue = await start(tmp_path / "h.db", clock)
    cup = await signed(runner, 2, games_to_win=1, grace_minutes=10, round_minutes=60)
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    table = tables.get(cup.places[match.id])
    assert table is not None
    ready_at = match.ready_at
    await clock.advance(5 * 60)
    await table.hide("hilo cerrado")  # its thread locked by a moderator
    await runner.idle()
    assert match.paused_at is not None
    await clock.advance(2 * 3600)
    await runner.idle()
    assert match.state is MatchState.READY and not match.flags, "no walkover, no overtime"
    await table.unhide()
    await runner.idle()
    assert match.paused_at is None
    assert match.ready_at is not None and ready_at is not None
    assert (datetime.fromisoformat(match.ready_at) - datetime.fromisoformat(ready_at)
            == timedelta(hours=2)), "its time moved on by the time it stood still"
    told = [text for text, _ in venue.news_sent]
    assert sum("⏸️" in t for t in told) == 1 and sum("▶️" in t for t in told) == 1
    await db.close()


class Unpermitted(Venue):
    """A venue that cannot make private threads: the bot lacks Create Private Threads."""

    async def lacking(self, cup: Cup) -> Lacking | None:
        return Lacking("txapelketa", ("create_private_threads",))


async def test_a_draw_at_its_deadline_without_private_threads_waits_for_the_organiser(
        tmp_path: Path) -> None:
    """Not drawn, not cancelled: the organiser is told once, in the language they chose (the
    server's is Spanish), and the sign-ups stay open for them to draw by hand."""
    clock = ManualClock()
    db = Database(tmp_path / "p.db")
    await db.connect()
    await db.set_person_language(1, "en")
    tables = TableManager(QuietTransport(), clock=clock, persist=TablePersister(db))
    venue = Unpermitted()
    runner = TournamentRunner(db, tables, venue, clock=clock,
                              wall=lambda: EPOCH + timedelta(seconds=clock.now()))
    await runner.start()
    settings = Settings.create("Kopa", deadline=EPOCH + timedelta(hours=1),
                               private_threads=True)
    cup = await runner.create(7, 8, settings, organiser=1, seed=3)
    for user in range(100, 104):
        await runner.change(cup, lambda t, now, u=user: t.sign_up(u, f"P{u}", now=now))
    for _ in range(3):
        await clock.advance(3600)
        await runner.idle()
    told = [(text, users) for text, users in venue.news_sent if text.startswith("⚠️")]
    assert told == [(
        "⚠️ «Kopa»: the sign-up deadline has passed. I have not drawn: I lack the Create "
        "Private Threads permission in #txapelketa to open the matches' private threads, and "
        "a public one would let spectators in, which this tournament does not allow. Give it "
        "to me (Edit Channel › Permissions) and draw again (/musadmin txapelketa draw). "
        "Meanwhile, sign-ups stay open.", [1])]
    assert cup.tournament.phase is Stage.SIGNUP and runner._next_due() is None
    with pytest.raises(TournamentError) as refused:
        await runner.draw(cup)
    assert refused.value.code == "tournament_private_places_refused"
    runner.stop()
    await db.close()
