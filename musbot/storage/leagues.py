"""Leagues of a server, their seasons and members, and a season's standings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from musbot.words import normalise

from . import ratings
from .errors import AlreadyMember, ConstraintViolation, LeagueExists, UnknownLeague, UnknownSeason
from .models import League, Season, Standing
from .players import names, touch_player
from .store import Store
from .tx import Row, Tx

_SEASON_COLUMNS = "season_id, league_id, number, started_at, closed_at"


def _season(row: Row) -> Season:
    season_id, league_id, number, started_at, closed_at = row
    return Season(season_id, league_id, number, datetime.fromisoformat(started_at),
                  None if closed_at is None else datetime.fromisoformat(closed_at))


async def league_row(tx: Tx, league_id: int) -> tuple[Any, ...]:
    """(league_id, guild_id, name, created_by, created_at); :class:`UnknownLeague` if none."""
    row = await tx.fetchrow(
        "SELECT league_id, guild_id, name, created_by, created_at FROM leagues"
        " WHERE league_id = ?", league_id)
    if row is None:
        raise UnknownLeague(league_id)
    return tuple(row)


async def season_row(tx: Tx, league_id: int, number: int | None) -> Season:
    """Season ``number`` of the league, or the open one when ``number`` is None."""
    await league_row(tx, league_id)
    if number is None:
        row = await tx.fetchrow(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? AND closed_at IS NULL",
            league_id)
    else:
        row = await tx.fetchrow(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? AND number = ?",
            league_id, number)
    if row is None:
        raise UnknownSeason(league_id, number or 0)
    return _season(row)


async def _league(tx: Tx, league_id: int) -> League:
    league_id, guild_id, name, created_by, created_at = await league_row(tx, league_id)
    season = await season_row(tx, league_id, None)
    return League(league_id, guild_id, name, created_by, datetime.fromisoformat(created_at),
                  season)


class Leagues(Store):
    async def create_league(self, guild_id: int, name: str,
                            created_by: int | None = None) -> League:
        """A new league with its first season open. Names are unique per server, ignoring case
        and accents ("Liga Otoño" = "liga otono")."""
        name = " ".join(name.split())
        if not name:
            raise ValueError("a league needs a name")

        async def write(tx: Tx) -> League:
            try:
                league_id = await tx.fetchval(
                    "INSERT INTO leagues (guild_id, name, name_key, created_by, created_at)"
                    " VALUES (?, ?, ?, ?, ?) RETURNING league_id",
                    guild_id, name, normalise(name), created_by, self._now())
            except ConstraintViolation as exc:
                raise LeagueExists(name) from exc
            await tx.execute(
                "INSERT INTO seasons (league_id, number, started_at) VALUES (?, 1, ?)",
                league_id, self._now())
            return await _league(tx, league_id)

        return await self._write(write)

    async def get_league(self, guild_id: int, name: str) -> League:
        async def read(tx: Tx) -> League:
            league_id = await tx.fetchval(
                "SELECT league_id FROM leagues WHERE guild_id = ? AND name_key = ?",
                guild_id, normalise(name))
            if league_id is None:
                raise UnknownLeague(name)
            return await _league(tx, league_id)

        return await self._read(read)

    async def leagues(self, guild_id: int) -> list[League]:
        async def read(tx: Tx) -> list[League]:
            rows = await tx.fetch(
                "SELECT league_id FROM leagues WHERE guild_id = ? ORDER BY name", guild_id)
            return [await _league(tx, row[0]) for row in rows]

        return await self._read(read)

    async def join_league(self, league_id: int, user_id: int,
                          display_name: str | None = None) -> None:
        async def write(tx: Tx) -> None:
            _, _, name, _, _ = await league_row(tx, league_id)
            await touch_player(tx, user_id, display_name, self._now())
            try:
                await tx.execute(
                    "INSERT INTO league_members (league_id, user_id, joined_at) VALUES (?, ?, ?)",
                    league_id, user_id, self._now())
            except ConstraintViolation as exc:
                raise AlreadyMember(name, user_id) from exc

        await self._write(write)

    async def league_members(self, league_id: int) -> list[int]:
        async def read(tx: Tx) -> list[int]:
            await league_row(tx, league_id)
            return [row[0] for row in await tx.fetch(
                "SELECT user_id FROM league_members WHERE league_id = ? ORDER BY joined_at",
                league_id)]

        return await self._read(read)

    async def new_season(self, league_id: int) -> Season:
        """Close the current season (its standings stay readable) and open the next one, where
        everyone starts again with a newcomer's rating."""

        async def write(tx: Tx) -> Season:
            current = await season_row(tx, league_id, None)
            now = self._now()
            await tx.execute("UPDATE seasons SET closed_at = ? WHERE season_id = ?",
                             now, current.season_id)
            await tx.execute(
                "INSERT INTO seasons (league_id, number, started_at) VALUES (?, ?, ?)",
                league_id, current.number + 1, now)
            return await season_row(tx, league_id, None)

        return await self._write(write)

    async def seasons(self, league_id: int) -> list[Season]:
        async def read(tx: Tx) -> list[Season]:
            await league_row(tx, league_id)
            return [_season(row) for row in await tx.fetch(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? ORDER BY number",
                league_id)]

        return await self._read(read)

    async def standings(self, league_id: int, season: int | None = None) -> list[Standing]:
        """The season's table (the current one by default): everyone who played in it, plus the
        members of an open season who have not played yet. Best rating first."""

        async def read(tx: Tx) -> list[Standing]:
            se = await season_row(tx, league_id, season)
            played = {row[0]: tuple(row[1:]) for row in await tx.fetch(
                "SELECT s.player_id, COUNT(*),"
                " SUM(CASE WHEN s.team = m.winner_team THEN 1 ELSE 0 END),"
                " SUM(CASE s.team WHEN 0 THEN m.games_0 - m.games_1"
                "     ELSE m.games_1 - m.games_0 END),"
                " SUM(CASE s.team WHEN 0 THEN m.tantos_0 - m.tantos_1"
                "     ELSE m.tantos_1 - m.tantos_0 END)"
                " FROM matches m JOIN match_seats s ON s.match_id = m.match_id"
                " WHERE m.season_id = ? AND m.winner_team IS NOT NULL AND s.kind = 'player'"
                " GROUP BY s.player_id", se.season_id)}
            rated = {row[0]: ratings.display(row[1], row[2]) for row in await tx.fetch(
                "SELECT user_id, mu, sigma FROM ratings WHERE season_id = ?", se.season_id)}
            users = set(played) | set(rated)
            if se.is_open:
                users |= {row[0] for row in await tx.fetch(
                    "SELECT user_id FROM league_members WHERE league_id = ?", league_id)}
            known = await names(tx, users)
            table = []
            for user_id in users:
                n, won, games_diff, tantos_diff = played.get(user_id, (0, 0, 0, 0))
                table.append(Standing(user_id, known.get(user_id), n, won, n - won, games_diff,
                                      tantos_diff, rated.get(user_id)))
            return table

        table = await self._read(read)
        table.sort(key=lambda s: (s.rating is None, -(s.rating or 0), -s.won, -s.games_diff,
                                  -s.tantos_diff, s.user_id))
        return table
