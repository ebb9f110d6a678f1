"""A player's profile (record, favourite partner, órdagos, rating) and rating chart."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from . import ratings
from .chart import chart_title, render_rating_chart
from .leagues import league_row, season_row
from .models import Partner, Profile, RatingPoint
from .players import names
from .store import Store
from .tx import Row, Tx

_WON = "CASE WHEN s.team = m.winner_team THEN 1 ELSE 0 END"
"""1 for a seat whose team won the match."""


class Profiles(Store):
    async def player_profile(self, user_id: int, *, league_id: int | None = None,
                             season: int | None = None) -> Profile:
        """The player's record over finished matches: everywhere, at one league (all its
        seasons), or one season of it. The rating is the league's current season's unless a
        season is given; None without a league."""
        if league_id is None and season is not None:
            raise ValueError("a season number needs a league")

        async def read(tx: Tx) -> Profile:
            where, params = "", []
            rating: int | None = None
            if league_id is not None:
                where, params = " AND m.league_id = ?", [league_id]
                se = await season_row(tx, league_id, season)
                if season is not None:
                    where += " AND m.season_id = ?"
                    params.append(se.season_id)
                row = await tx.fetchrow(
                    "SELECT mu, sigma FROM ratings WHERE season_id = ? AND user_id = ?",
                    se.season_id, user_id)
                rating = ratings.display(*row) if row else None
            totals = await tx.fetchrow(
                f"SELECT COUNT(*), COALESCE(SUM({_WON}), 0)"
                " FROM match_seats s JOIN matches m ON m.match_id = s.match_id"
                " WHERE s.player_id = ? AND m.winner_team IS NOT NULL" + where,
                user_id, *params)
            assert totals is not None
            matches, won = totals
            partner = await tx.fetchrow(
                f"SELECT p.player_id, pl.display_name, COUNT(*) AS n, SUM({_WON}) AS w"
                " FROM match_seats s"
                " JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team"
                "  AND p.seat != s.seat AND p.kind = 'player'"
                " JOIN matches m ON m.match_id = s.match_id"
                " LEFT JOIN players pl ON pl.user_id = p.player_id"
                " WHERE s.player_id = ? AND m.winner_team IS NOT NULL" + where +
                " GROUP BY p.player_id, pl.display_name"
                " ORDER BY n DESC, w DESC, p.player_id LIMIT 1",
                user_id, *params)
            ordagos = await tx.fetchrow(
                "SELECT COALESCE(SUM(CASE WHEN o.winner_team = s.team THEN 1 ELSE 0 END), 0),"
                " COALESCE(SUM(CASE WHEN o.winner_team != s.team THEN 1 ELSE 0 END), 0)"
                " FROM ordagos o"
                " JOIN match_seats s ON s.match_id = o.match_id"
                "  AND s.seat IN (o.caller_seat, o.accepter_seat)"
                " JOIN matches m ON m.match_id = o.match_id"
                " WHERE s.player_id = ? AND o.accepter_seat IS NOT NULL" + where,
                user_id, *params)
            assert ordagos is not None
            name = (await names(tx, {user_id})).get(user_id)
            return Profile(user_id, name, matches, won, matches - won,
                           Partner(*partner) if partner else None, ordagos[0], ordagos[1],
                           rating)

        return await self._read(read)

    async def rating_history(self, user_id: int, league_id: int,
                             season: int | None = None) -> list[RatingPoint]:
        """The player's rating after each rated match of the season (current by default)."""

        async def read(tx: Tx) -> list[Row]:
            se = await season_row(tx, league_id, season)
            return await tx.fetch(
                "SELECT match_id, recorded_at, mu, sigma FROM rating_history"
                " WHERE season_id = ? AND user_id = ? ORDER BY recorded_at, match_id",
                se.season_id, user_id)

        return [RatingPoint(m, datetime.fromisoformat(at), mu, sigma, ratings.display(mu, sigma))
                for m, at, mu, sigma in await self._read(read)]

    async def rating_chart(self, user_id: int, league_id: int, season: int | None = None,
                           *, title: str | None = None, lang: str = "es") -> bytes:
        """PNG of :meth:`rating_history`, drawn in a worker thread so the bot keeps answering.
        Raises :class:`~musbot.storage.errors.ChartUnavailable` without matplotlib."""
        points = await self.rating_history(user_id, league_id, season)
        if title is None:
            async def read(tx: Tx) -> str:
                se = await season_row(tx, league_id, season)
                league: tuple[Any, ...] = await league_row(tx, league_id)
                name = (await names(tx, {user_id})).get(user_id)
                return chart_title(name or str(user_id), league[2], se.number, lang)

            title = await self._read(read)
        return await asyncio.to_thread(render_rating_chart, points, title, lang)
