"""Leagues, seasons, standings, recent results and profiles on both backends (a real SQLite
file, a real PostgreSQL database)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from db_helpers import PAIR_0_DEAL, hand

from musbot.storage import (
    AlreadyMember,
    Database,
    LeagueExists,
    SeatRecord,
    UnknownLeague,
    UnknownSeason,
)


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target) as database:
        yield database


def seats(*users: int | str) -> list[SeatRecord]:
    """Seats in order; a str is a bot marker."""
    return [SeatRecord.robot(i, u) if isinstance(u, str) else SeatRecord.human(i, u, f"p{u}")
            for i, u in enumerate(users)]


def game_hand(winner: int, scores: tuple[int, int], actions: list[list[Any]] | None = None,
              ledger: list[dict[str, Any]] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A hand that ends a game; dealt so that pair 0 holds the best hand at every lance."""
    return hand(list(scores), winner, actions, ledger, deal=PAIR_0_DEAL)


async def play(db: Database, players: Sequence[SeatRecord], winner: int,
               games: Sequence[tuple[int, int, int]] = ((0, 40, 20),),
               league_id: int | None = None) -> int:
    """A finished match whose hands each end one game (winner, score_0, score_1)."""
    match_id = await db.start_match(players, league_id=league_id)
    for number, (game_winner, s0, s1) in enumerate(games, start=1):
        await db.record_hand(match_id, number, *game_hand(game_winner, (s0, s1)))
    await db.record_finished_match(match_id, winner)
    return match_id


async def test_create_get_and_list_leagues(db: Database) -> None:
    league = await db.create_league(1, "  Liga   de  Otoño ", created_by=7)
    assert league.name == "Liga de Otoño" and league.created_by == 7
    assert league.season.number == 1 and league.season.is_open
    assert await db.get_league(1, "liga de otoño") == league
    assert await db.get_league(1, " LIGA DE  OTONO") == league  # musbot.words.normalise
    with pytest.raises(LeagueExists):
        await db.create_league(1, "LIGA DE OTOÑO")
    other = await db.create_league(2, "Liga de Otoño")  # unique per server only
    assert other.league_id != league.league_id
    with pytest.raises(UnknownLeague):
        await db.get_league(1, "Nope")
    with pytest.raises(ValueError):
        await db.create_league(1, "   ")
    await db.create_league(1, "Amigos")
    assert [lg.name for lg in await db.leagues(1)] == ["Amigos", "Liga de Otoño"]


async def test_join_league(db: Database) -> None:
    league = await db.create_league(1, "Liga")
    await db.join_league(league.league_id, 10, "Ane")
    await db.join_league(league.league_id, 11)
    with pytest.raises(AlreadyMember):
        await db.join_league(league.league_id, 10)
    with pytest.raises(UnknownLeague):
        await db.join_league(999, 10)
    assert await db.league_members(league.league_id) == [10, 11]
    assert await db.player_name(10) == "Ane"
    table = await db.standings(league.league_id)
    assert {s.user_id for s in table} == {10, 11}
    assert all(s.played == 0 and s.rating is None for s in table)


async def test_standings_figures(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    # 1+3 beat 2+4 by 2 games to 1; then 1+2 beat 3+4 by 1 game to 0.
    await play(db, seats(1, 2, 3, 4), 0, [(0, 40, 20), (1, 31, 40), (0, 40, 0)], lid)
    await play(db, seats(1, 3, 2, 4), 0, [(0, 40, 38)], lid)
    table = {s.user_id: s for s in await db.standings(lid)}
    one, four = table[1], table[4]
    assert (one.played, one.won, one.lost) == (2, 2, 0)
    assert one.games_diff == (2 - 1) + (1 - 0)
    assert one.tantos_diff == (111 - 60) + (40 - 38)
    assert (four.played, four.won, four.lost, four.games_diff) == (2, 0, 2, -2)
    assert table[2].won == 1 and table[3].won == 1
    order = [s.user_id for s in await db.standings(lid)]
    assert order[0] == 1 and order[-1] == 4


async def test_only_league_matches_count_and_non_members_join(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    await play(db, seats(1, 2, 3, 4), 0)  # a casual table
    assert await db.standings(lid) == []
    await play(db, seats(1, 2, 3, 4), 1, league_id=lid)
    assert sorted(await db.league_members(lid)) == [1, 2, 3, 4]
    assert {s.user_id: s.played for s in await db.standings(lid)} == {1: 1, 2: 1, 3: 1, 4: 1}


async def test_bot_matches_count_in_standings_but_not_ratings(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    await play(db, seats(1, "ai", 3, "ai"), 0, league_id=lid)
    table = {s.user_id: s for s in await db.standings(lid)}
    assert set(table) == {1, 3}
    assert table[1].won == 1 and table[1].rating is None


async def test_seasons_keep_history(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    await play(db, seats(1, 2, 3, 4), 0, league_id=lid)
    second = await db.new_season(lid)
    assert second.number == 2 and second.is_open
    await play(db, seats(1, 2, 3, 4), 1, league_id=lid)
    await play(db, seats(1, 2, 3, 4), 1, league_id=lid)

    seasons = await db.seasons(lid)
    assert [(s.number, s.is_open) for s in seasons] == [(1, False), (2, True)]
    assert (await db.get_league(1, "Liga")).season == second
    old = {s.user_id: (s.played, s.won) for s in await db.standings(lid, season=1)}
    new = {s.user_id: (s.played, s.won) for s in await db.standings(lid)}
    assert old == {1: (1, 1), 2: (1, 0), 3: (1, 1), 4: (1, 0)}
    assert new == {1: (2, 0), 2: (2, 2), 3: (2, 0), 4: (2, 2)}
    assert await db.standings(lid, season=2) == await db.standings(lid)
    with pytest.raises(UnknownSeason):
        await db.standings(lid, season=3)
    with pytest.raises(UnknownLeague):
        await db.new_season(999)
    # A closed season lists who played in it, not members who joined later.
    await db.join_league(lid, 50)
    assert 50 not in {s.user_id for s in await db.standings(lid, season=1)}
    assert 50 in {s.user_id for s in await db.standings(lid)}


async def test_recent_results(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    first = await play(db, seats(1, 2, 3, 4), 0, league_id=lid)
    await db.new_season(lid)
    second = await play(db, seats(1, 2, 3, "ai"), 1, [(1, 3, 40), (1, 0, 40)], lid)
    await play(db, seats(5, 6, 7, 8), 0)  # elsewhere
    results = await db.recent_results(lid)
    assert [r.match_id for r in results] == [second, first]
    latest = results[0]
    assert latest.winner_team == 1 and latest.games == (0, 2) and latest.tantos == (3, 80)
    assert latest.season_number == 2 and latest.rated is False
    assert [(s.user_id, s.name, s.bot) for s in latest.seats][-2:] == [(3, "p3", None),
                                                                      (None, None, "ai")]
    assert results[1].rated is True
    assert [r.match_id for r in await db.recent_results(lid, season=1)] == [first]
    assert len(await db.recent_results(lid, limit=1)) == 1


async def test_player_profile(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    ordago_won = ([[0, "no hay mus"], [0, "órdago"], [1, "quiero"]],
                  [{"pair": 0, "tantos": 0, "lance": "grande", "kind": "ordago"}])
    ordago_lost = ([[0, "no hay mus"], [0, "paso"], [1, "órdago"], [2, "quiero"]],
                   [{"pair": 0, "tantos": 0, "lance": "grande", "kind": "ordago"}])
    refused: tuple[list[list[Any]], list[dict[str, Any]]] = (
        [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"], [3, "no quiero"]], [])
    match_id = await db.start_match(seats(1, 2, 3, 4), league_id=lid)
    await db.record_hand(match_id, 1, *game_hand(0, (12, 5), *ordago_won))
    await db.record_hand(match_id, 2, *game_hand(0, (20, 5), *ordago_lost))
    t, r = game_hand(0, (1, 0), *refused)
    r["game_winner"] = None
    await db.record_hand(match_id, 3, t, r)
    await db.record_finished_match(match_id, 0)
    await play(db, seats(1, 2, 5, 4), 1, league_id=lid)   # partner 5, lost
    await play(db, seats(1, 4, 3, 2), 0)                   # partner 3 again, casual table

    everywhere = await db.player_profile(1)
    assert (everywhere.matches, everywhere.won, everywhere.lost) == (3, 2, 1)
    assert everywhere.win_rate == pytest.approx(2 / 3)
    assert everywhere.favourite_partner is not None
    assert (everywhere.favourite_partner.user_id, everywhere.favourite_partner.matches,
            everywhere.favourite_partner.name) == (3, 2, "p3")
    assert everywhere.rating is None
    # Hand 1: 1 calls, 2 accepts, 1's pair wins. Hand 2: 2 calls, 3 accepts and wins.
    # Hand 3: 1 calls, refused by both: counted neither way.
    assert (everywhere.ordagos_won, everywhere.ordagos_lost) == (1, 0)
    two, three = await db.player_profile(2), await db.player_profile(3)
    assert (two.ordagos_won, two.ordagos_lost) == (0, 2)
    assert (three.ordagos_won, three.ordagos_lost) == (1, 0)
    league_only = await db.player_profile(1, league_id=lid)
    assert league_only.matches == 2 and league_only.rating is not None
    assert (await db.player_profile(99)).win_rate is None
    with pytest.raises(ValueError):
        await db.player_profile(1, season=1)
