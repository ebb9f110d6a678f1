"""Tournaments in the database, on both backends: the state saved after every change and
restored after a restart without losing or repeating anything, the hall of fame, pair ratings
applied once (from tournaments and league matches alike), and a forgotten player's tournament
records made anonymous."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
from db_helpers import four, hand, select
from tournament_helpers import T0, drawn, minutes, signed

from musbot.storage import (
    Database,
    MatchFinished,
    SeatRecord,
    StaleTournament,
    TournamentExists,
    UnknownTournament,
    ratings,
)
from musbot.tournament import (
    Format,
    MatchState,
    PairResult,
    Settings,
    Stage,
    Tournament,
    pair_key,
    rated_results,
)
from musbot.tournament.simulate import random_results, simulate

GUILD = 10**17


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target) as database:
        yield database


async def test_create_find_list_and_names_unique_per_server(db: Database) -> None:
    t = signed(3, Format.DOUBLE)
    stored = await db.create_tournament(GUILD, t, created_by=1000)
    assert stored.tournament == t and stored.created_by == 1000 and stored.guild_id == GUILD
    assert (await db.load_tournament(stored.tournament_id)).tournament == t
    found = await db.find_tournament(GUILD, "TXAPELKETA  double")
    assert found.tournament_id == stored.tournament_id
    other = Tournament.new(Settings("Txapelketa Double"), 2, now=T0)
    with pytest.raises(TournamentExists):
        await db.create_tournament(GUILD, other)
    await db.create_tournament(GUILD + 1, other)  # another server may
    with pytest.raises(UnknownTournament):
        await db.find_tournament(GUILD, "nada")
    with pytest.raises(UnknownTournament):
        await db.load_tournament(999)
    assert [s.tournament_id for s in await db.tournaments(GUILD)] == [stored.tournament_id]
    assert await db.tournaments(GUILD, [Stage.FINISHED]) == []


async def test_open_tournaments_are_those_of_this_processs_shards(db: Database) -> None:
    on_zero, on_one = 0 << 22, 1 << 22
    for guild, name in ((on_zero, "a"), (on_one, "b")):
        await db.create_tournament(guild, Tournament.new(Settings(name), 1, now=T0))
    finished = drawn(2)
    simulate(finished, random_results(random.Random(1)), start=T0)
    await db.create_tournament(on_zero, finished)
    assert {s.guild_id for s in await db.open_tournaments()} == {on_zero, on_one}
    assert [s.tournament.settings.name for s in await db.open_tournaments((2, [1]))] == ["b"]
    assert [s.tournament.settings.name for s in await db.open_tournaments((2, [0]))] == ["a"]


async def test_a_restart_mid_round_loses_nothing_and_reopens_nothing_twice(target: str) -> None:
    """Saved after every change; a new process loads it mid-round and plays on: the same
    tournament as one never interrupted, and every ready match is one the first process had
    already announced (nothing opened twice)."""
    t = drawn(8, Format.DOUBLE)
    twin = Tournament.from_dict(t.to_dict())
    announced: set[str] = set()
    async with Database(target) as db:
        stored = await db.create_tournament(GUILD, t)
        tournament_id = stored.tournament_id
        ready = [m for m in t.matches.values() if m.state is MatchState.READY]
        announced |= {m.id for m in ready}
        for match in ready[:3]:
            t.start(match.id, now=minutes(1))
            events = t.record(match.id, (3, 1), (120, 80), now=minutes(40))
            announced |= {e.match for e in events if e.match}
            await db.save_tournament(tournament_id, t)
            await db.save_tournament(tournament_id, t)  # a retried save: no harm
        playing = ready[3]
        t.start(playing.id, now=minutes(41))
        await db.save_tournament(tournament_id, t)
    async with Database(target) as db:  # the restart
        restored = (await db.load_tournament(tournament_id)).tournament
    assert restored == t
    assert restored.matches[playing.id].state is MatchState.PLAYING
    assert {m.id for m in restored.ready()} <= announced
    # The restarted process repeats the last result it may not have seen saved: a no-op.
    assert restored.record(ready[2].id, (3, 1), (120, 80), now=minutes(90)) == []
    for match in ready[:3]:
        twin.start(match.id, now=minutes(1))
        twin.record(match.id, (3, 1), (120, 80), now=minutes(40))
    twin.start(playing.id, now=minutes(41))
    assert twin == restored


async def test_an_older_state_is_not_saved_over_a_newer_one(db: Database) -> None:
    t = drawn(4)
    stored = await db.create_tournament(GUILD, t)
    old = Tournament.from_dict(t.to_dict())
    t.start("W1-1", now=minutes(1))
    t.record("W1-1", (3, 0), now=minutes(30))
    await db.save_tournament(stored.tournament_id, t)
    with pytest.raises(StaleTournament) as excinfo:
        await db.save_tournament(stored.tournament_id, old)
    assert (excinfo.value.stored, excinfo.value.given) == (t.revision, old.revision)
    assert (await db.load_tournament(stored.tournament_id)).tournament == t
    with pytest.raises(UnknownTournament):
        await db.save_tournament(999, t)


async def finished_cup(db: Database, seed: int = 4, fmt: Format = Format.DOUBLE,
                       n: int = 8) -> tuple[int, Tournament]:
    t = drawn(n, fmt, seed)
    stored = await db.create_tournament(GUILD, t, created_by=1000)
    simulate(t, random_results(random.Random(seed), late_rate=0.2, bot_rate=0.2), start=T0)
    await db.save_tournament(stored.tournament_id, t)
    return stored.tournament_id, t


async def test_a_finished_tournament_enters_the_hall_of_fame(db: Database) -> None:
    tournament_id, t = await finished_cup(db)
    assert t.champion is not None and t.finalist is not None
    hall = await db.hall_of_fame(GUILD)
    assert len(hall) == 1
    entry = hall[0]
    assert entry.tournament_id == tournament_id and entry.name == t.settings.name
    assert entry.champions == t.champion.names and entry.finalists == t.finalist.names
    assert entry.champion_ids == t.champion.players
    assert await db.hall_of_fame(GUILD + 1) == []


async def test_pair_ratings_are_applied_once_from_the_rated_matches(db: Database) -> None:
    tournament_id, t = await finished_cup(db)
    await db.save_tournament(tournament_id, t)  # saved again: rated once
    results = rated_results(t)
    assert results and len(results) < sum(1 for m in t.matches.values() if m.played)
    found = await db.pair_ratings(GUILD, t.people())
    counted: dict[tuple[int, int], int] = {}
    for result in results:
        for key in (result.winner, result.loser):
            counted[key] = counted.get(key, 0) + 1
    assert {k: r.matches for k, r in found.items()} == counted
    champion = t.champion.key  # type: ignore[union-attr]
    assert champion is not None and found[champion].rating > ratings.display(*ratings.initial())
    assert await db.pair_ratings(GUILD + 1, t.people()) == {}
    assert await db.pair_ratings(GUILD, [1000]) == {}
    key = next(iter(found))
    assert set(await db.pair_ratings(GUILD, key)) == {key}


async def test_rating_a_batch_twice_under_one_key_changes_nothing(db: Database) -> None:
    a, b = pair_key(1, 2), pair_key(3, 4)
    assert await db.rate_pairs(GUILD, [PairResult(a, b)], "match:1")
    once = await db.pair_ratings(GUILD, [1, 2, 3, 4])
    assert not await db.rate_pairs(GUILD, [PairResult(a, b)], "match:1")
    assert await db.pair_ratings(GUILD, [1, 2, 3, 4]) == once
    assert await db.rate_pairs(GUILD, [PairResult(b, a)], "match:2")
    again = await db.pair_ratings(GUILD, [1, 2, 3, 4])
    assert again[a].matches == 2 and again[a].mu < once[a].mu


async def test_forgetting_a_player_makes_their_tournament_records_anonymous(
        db: Database) -> None:
    tournament_id, t = await finished_cup(db)
    champion = t.champion
    assert champion is not None
    user = champion.players[0]
    assert user is not None
    open_one = signed(2, seed=3)
    open_one.sign_up(user, "Otra vez", now=T0)
    other = await db.create_tournament(GUILD, Tournament.from_dict(
        {**open_one.to_dict(), "settings": {**open_one.settings.to_dict(), "name": "Abierto"}}))
    runner_copy = Tournament.from_dict(t.to_dict())
    assert await db.forget_player(user)
    stored = (await db.load_tournament(tournament_id)).tournament
    assert user not in stored.people()
    pair = stored.pairs[champion.id]
    assert pair.players[0] is None and pair.names[0] is None
    assert pair.players[1] == champion.players[1]
    assert stored.champion is not None and stored.champion.id == champion.id
    assert user not in (await db.load_tournament(other.tournament_id)).tournament.entries
    hall = (await db.hall_of_fame(GUILD))[0]
    assert hall.champions[0] is None and hall.champion_ids[0] is None
    assert hall.champions[1] == champion.names[1]
    rows = await select(db, "SELECT COUNT(*) FROM pair_ratings WHERE player_a = ? OR player_b = ?",
                        (user, user))
    assert rows == [(0,)]
    assert await select(db, "SELECT COUNT(*) FROM tournament_people WHERE user_id = ?",
                        (user,)) == [(0,)]
    # A runner still holding the old state cannot write the person back.
    await db.save_tournament(tournament_id, runner_copy)
    again = (await db.load_tournament(tournament_id)).tournament
    assert user not in again.people() and runner_copy.pairs[champion.id].players[0] is None


async def test_a_person_only_seen_in_a_tournament_can_be_forgotten(db: Database) -> None:
    t = Tournament.new(Settings("Solo"), 1, now=T0)
    t.sign_up(77, "Nadie más", now=T0)
    await db.create_tournament(GUILD, t)
    assert await db.player_name(77) == "Nadie más"
    assert await db.forget_player(77)
    assert await db.player_name(77) is None
    assert not await db.forget_player(78)


async def test_delete_a_tournament(db: Database) -> None:
    tournament_id, _ = await finished_cup(db, fmt=Format.SWISS, n=5)
    assert await db.delete_tournament(tournament_id)
    assert not await db.delete_tournament(tournament_id)
    assert await db.hall_of_fame(GUILD) == []
    with pytest.raises(UnknownTournament):
        await db.load_tournament(tournament_id)


# --- league matches rate stable pairs too ------------------------------------------------------

async def league_match(db: Database, league_id: int, seats: list[SeatRecord], winner: int, *,
                       rated: bool = True) -> int:
    match_id = await db.start_match(seats, league_id=league_id, guild_id=GUILD)
    await db.record_hand(match_id, 1, *hand([40, 3] if winner == 0 else [3, 40],
                                            game_winner=winner))
    await db.record_finished_match(match_id, winner, rated=rated)
    return match_id


async def test_a_finished_league_match_rates_its_two_pairs_with_their_tournaments(
        db: Database) -> None:
    """One rating per stable pair from all its rated matches, league and tournament: seats 0
    and 2 are a pair, 1 and 3 the other (§ partners sit facing)."""
    league = await db.create_league(GUILD, "Liga")
    prior = ratings.initial()
    won, lost = ratings.rate_pairs(prior, prior)
    match_id = await league_match(db, league.league_id, four(), 0)
    found = await db.pair_ratings(GUILD, [1, 2, 3, 4])
    assert set(found) == {(1, 3), (2, 4)}
    assert (found[(1, 3)].mu, found[(1, 3)].sigma, found[(1, 3)].matches) == (*won, 1)
    assert (found[(2, 4)].mu, found[(2, 4)].sigma, found[(2, 4)].matches) == (*lost, 1)
    with pytest.raises(MatchFinished):
        await db.record_finished_match(match_id, 0)
    assert await db.pair_ratings(GUILD, [1, 2, 3, 4]) == found, "applied once"
    # The same pairs at a tournament: the one rating goes on from the league's.
    assert await db.rate_pairs(GUILD, [PairResult((2, 4), (1, 3))], "tournament:1")
    both = await db.pair_ratings(GUILD, [1, 2, 3, 4])
    assert both[(1, 3)].matches == both[(2, 4)].matches == 2
    assert (both[(2, 4)].mu, both[(2, 4)].sigma) == ratings.rate_pairs(lost, won)[0]
    # ... and a league match after it goes on from there (seated the other way round).
    await league_match(db, league.league_id, four((2, 1, 4, 3)), 1)
    last = await db.pair_ratings(GUILD, [1, 2, 3, 4])
    assert last[(1, 3)].matches == 3 and last[(1, 3)].mu > both[(1, 3)].mu
    assert await db.pair_ratings(GUILD + 1, [1, 2, 3, 4]) == {}, "per server"


async def test_league_matches_that_rate_no_one_rate_no_pair(db: Database) -> None:
    league = await db.create_league(GUILD, "Liga")
    await league_match(db, league.league_id, four(), 0, rated=False)  # a bot took a seat over
    with_bot = [*four()[:3], SeatRecord.robot(3)]
    await league_match(db, league.league_id, with_bot, 0)
    friendly = await db.start_match(four((5, 6, 7, 8)), guild_id=GUILD)
    await db.record_hand(friendly, 1, *hand([40, 3], game_winner=0))
    await db.record_finished_match(friendly, 0)
    assert await db.pair_ratings(GUILD, range(1, 9)) == {}
    assert await select(db, "SELECT COUNT(*) FROM pair_rating_keys") == [(0,)]
