"""Match records: who sat where, every finished hand (docs/replay.md transcript and result, its
ledger and órdagos), the games, the result, and the rating changes a rated league match makes
(its people's, and, between two stable pairs, the pairs' own: ``tournaments.py``)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from musbot.engine.events import Ordago
from musbot.engine.rules import Rules
from musbot.replay import ReplayError, replay_hand
from musbot.tournament import PairResult, pair_key

from . import ratings
from .documents import document_json
from .errors import ConflictingHand, MatchFinished, UnknownMatch
from .leagues import league_row, season_row
from .models import MatchSummary, RatingChange, SeatRecord, SeatResult
from .players import TOUCH_PLAYER
from .store import Store
from .tournaments import rate_pair_results
from .tx import Tx

log = logging.getLogger(__name__)


async def match_seats(tx: Tx, match_id: int) -> tuple[SeatResult, ...]:
    rows = await tx.fetch(
        "SELECT s.seat, s.team, s.kind, s.player_id, p.display_name, s.bot"
        " FROM match_seats s LEFT JOIN players p ON p.user_id = s.player_id"
        " WHERE s.match_id = ? ORDER BY s.seat", match_id)
    return tuple(SeatResult(*row) for row in rows)


async def _open_match(tx: Tx, match_id: int) -> tuple[Any, ...]:
    """(league_id, has_bots) of a match still being played."""
    row = await tx.fetchrow(
        "SELECT league_id, has_bots, ended_at FROM matches WHERE match_id = ?", match_id)
    if row is None:
        raise UnknownMatch(match_id)
    if row[2] is not None:
        raise MatchFinished(match_id)
    return tuple(row[:2])


def _ordagos(number: int, transcript: Mapping[str, Any],
             given: Sequence[Mapping[str, Any]] | None) -> list[Ordago]:
    """The hand's órdagos as the engine told them (``given``: :meth:`Ordago.to_dict` each, in
    the table's hand record). A record without them, saved by an earlier musbot and waiting in a
    table's outbox, gets them from its transcript played again by the engine; if it does not
    play (never the case for a table's hand), the hand is kept without its órdagos rather than
    lost with its game."""
    if given is not None:
        try:
            return [Ordago.from_dict(o) for o in given]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"hand {number}'s órdagos are not Ordago.to_dict()'s: "
                             f"{exc!r}") from exc
    try:
        return replay_hand(transcript).ordagos()
    except ReplayError as exc:
        log.warning("hand %s stored without its órdagos: its transcript does not replay (%s)",
                    number, exc.message("en"))
        return []


def _hand_rows(number: int, result: Mapping[str, Any], ordagos: Sequence[Ordago]
               ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], tuple[int, ...] | None]:
    """The hand's ledger steps, órdagos and the game it ended (winner, scores), if any."""
    try:
        steps = [(i, int(s["pair"]), int(s["tantos"]), str(s["lance"]), str(s["kind"]))
                 for i, s in enumerate(result.get("ledger", ()))]
        game = None
        if result.get("game_winner") is not None:
            score_0, score_1 = (int(x) for x in result["scores"])
            game = (int(result["game_winner"]), score_0, score_1)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"hand {number} is not a docs/replay.md transcript and result: "
                         f"{exc!r}") from exc
    rows = [(o.caller, o.accepter, o.lance.nombre, o.winner) for o in ordagos]
    return steps, rows, game


class Matches(Store):
    async def start_match(
        self,
        seats: Sequence[SeatRecord],
        *,
        rules: Rules | Mapping[str, Any] | None = None,
        channel_id: int | None = None,
        guild_id: int | None = None,
        league_id: int | None = None,
        key: str | None = None,
    ) -> int:
        """Record who sits where when a match starts; returns the match id that
        :meth:`record_hand` and :meth:`record_finished_match` take. At a league table, players who
        are not members yet become members. With a ``key`` (the table's own id for the match,
        saved in its state first), calling again after a crash returns the same match."""
        ordered = sorted(seats, key=lambda s: s.seat)
        if len(ordered) not in (2, 4, 6) or [s.seat for s in ordered] != list(range(len(ordered))):
            raise ValueError("a match has 2, 4 or 6 seats numbered from 0")
        humans = [s.player_id for s in ordered if s.player_id is not None]
        if len(set(humans)) != len(humans):
            raise ValueError("a player can take only one seat")
        rules_dict = rules.to_dict() if isinstance(rules, Rules) else dict(rules or {})
        if rules_dict.get("jugadores", len(ordered)) != len(ordered):
            raise ValueError("the rules are for a different number of players")
        rules_json = document_json(rules_dict)

        async def write(tx: Tx) -> int:
            if key is not None:
                found = await tx.fetchval("SELECT match_id FROM matches WHERE match_key = ?", key)
                if found is not None:
                    return int(found)
            if league_id is not None:
                await league_row(tx, league_id)
            now = self._now()
            match_id = int(await tx.fetchval(
                "INSERT INTO matches (match_key, channel_id, guild_id, league_id, rules, players,"
                " has_bots, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING match_id",
                key, channel_id, guild_id, league_id, rules_json, len(ordered),
                int(any(s.bot is not None for s in ordered)), now))
            people = [s for s in ordered if s.player_id is not None]
            if people:
                await tx.executemany(TOUCH_PLAYER, [(s.player_id, s.name, now) for s in people])
                if league_id is not None:
                    await tx.executemany(
                        "INSERT INTO league_members (league_id, user_id, joined_at)"
                        " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        [(league_id, s.player_id, now) for s in people])
            await tx.executemany(
                "INSERT INTO match_seats (match_id, seat, team, kind, player_id, bot)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, s.seat, s.team, s.kind,
                  s.player_id, s.bot) for s in ordered])
            return match_id

        return await self._write(write)

    async def record_hand(self, match_id: int, number: int, transcript: Mapping[str, Any],
                          result: Mapping[str, Any],
                          ordagos: Sequence[Mapping[str, Any]] | None = None) -> int:
        """Store a finished hand (docs/replay.md transcript and result), its ledger and órdagos, and
        the game it ended, if any. ``ordagos`` are the engine's (:meth:`Hand.ordagos`, each
        :meth:`~musbot.engine.events.Ordago.to_dict`); without them the engine finds them in the
        transcript. Recording the same hand again is a no-op (safe to retry after a crash); a
        different hand under the same number is refused."""
        transcript_json, result_json = document_json(transcript), document_json(result)
        called = _ordagos(number, transcript, ordagos)  # CPU work: not inside the transaction

        async def write(tx: Tx) -> int:
            found = await tx.fetchrow(
                "SELECT m.ended_at, h.hand_id, h.transcript, h.result,"
                " (SELECT COUNT(*) FROM games g WHERE g.match_id = m.match_id)"
                " FROM matches m LEFT JOIN hands h ON h.match_id = m.match_id AND h.number = ?"
                " WHERE m.match_id = ?", number, match_id)
            if found is None:
                raise UnknownMatch(match_id)
            ended_at, hand_id, old_transcript, old_result, games = found
            if ended_at is not None:
                raise MatchFinished(match_id)
            if hand_id is not None:
                if (old_transcript, old_result) != (transcript_json, result_json):
                    raise ConflictingHand(match_id, number)
                return int(hand_id)
            game_number = int(games) + 1
            steps, ordago_rows, game = _hand_rows(number, result, called)
            hand_id = int(await tx.fetchval(
                "INSERT INTO hands (match_id, number, game_number, transcript, result,"
                " recorded_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING hand_id",
                match_id, number, game_number, transcript_json, result_json, self._now()))
            if steps:
                await tx.executemany(
                    "INSERT INTO ledger (hand_id, step, pair, tantos, lance, kind)"
                    " VALUES (?, ?, ?, ?, ?, ?)", [(hand_id, *step) for step in steps])
            if ordago_rows:
                await tx.executemany(
                    "INSERT INTO ordagos (hand_id, match_id, caller_seat, accepter_seat, lance,"
                    " winner_team) VALUES (?, ?, ?, ?, ?, ?)",
                    [(hand_id, match_id, *o) for o in ordago_rows])
            if game is not None:
                await tx.execute(
                    "INSERT INTO games (match_id, number, winner_team, score_0, score_1)"
                    " VALUES (?, ?, ?, ?, ?)", match_id, game_number, *game)
            return hand_id

        return await self._write(write)

    async def record_finished_match(
        self,
        match_id: int,
        winner_team: int,
        *,
        final_score: Mapping[str, Any] | None = None,
        rated: bool = True,
    ) -> list[RatingChange]:
        """Close the match record (games and tantos are summed from the recorded hands). At a
        league table, the match counts for the season open now; if every seat is a human (and
        ``rated``: no bot took a seat over during the match), the players' ratings change,
        returned as before/after pairs (else an empty list).
        ``final_score`` is kept as given, e.g. ``Match.summary()``. A second call raises
        :class:`MatchFinished`: the record is final."""
        if winner_team not in (0, 1):
            raise ValueError("winner_team must be 0 or 1")
        score_json = None if final_score is None else document_json(final_score)

        async def write(tx: Tx) -> list[RatingChange]:
            league_id, has_bots = await _open_match(tx, match_id)
            totals = await tx.fetchrow(
                "SELECT COALESCE(SUM(CASE WHEN winner_team = 0 THEN 1 ELSE 0 END), 0),"
                " COALESCE(SUM(CASE WHEN winner_team = 1 THEN 1 ELSE 0 END), 0),"
                " COALESCE(SUM(score_0), 0), COALESCE(SUM(score_1), 0)"
                " FROM games WHERE match_id = ?", match_id)
            assert totals is not None
            season_id = None
            if league_id is not None:
                season_id = (await season_row(tx, league_id, None)).season_id
            await tx.execute(
                "UPDATE matches SET ended_at = ?, winner_team = ?, season_id = ?, games_0 = ?,"
                " games_1 = ?, tantos_0 = ?, tantos_1 = ?, final_score = ? WHERE match_id = ?",
                self._now(), winner_team, season_id, *totals, score_json, match_id)
            if season_id is None or has_bots or not rated:
                return []
            return await self._rate(tx, match_id, season_id, winner_team)

        return await self._write(write)

    async def _rate(self, tx: Tx, match_id: int, season_id: int,
                    winner_team: int) -> list[RatingChange]:
        """Reads the players' ratings and writes them back changed: the transaction's
        serializable isolation keeps two matches that finish at once from both starting from
        the same rating."""
        seats = await tx.fetch(
            "SELECT team, kind, player_id FROM match_seats WHERE match_id = ? ORDER BY seat",
            match_id)
        if any(kind != "player" for _, kind, _ in seats):
            return []  # a forgotten player's seat: no one to rate against
        teams: list[list[int]] = [[], []]
        for team, _, player_id in seats:
            teams[team].append(player_id)
        before: dict[int, tuple[float, float]] = {}
        for user_id in teams[0] + teams[1]:
            row = await tx.fetchrow(
                "SELECT mu, sigma FROM ratings WHERE season_id = ? AND user_id = ?",
                season_id, user_id)
            before[user_id] = (row[0], row[1]) if row else ratings.initial()
        new = ratings.rate([[before[u] for u in team] for team in teams], winner_team)
        after = {user_id: skill for team, team_ratings in zip(teams, new, strict=True)
                 for user_id, skill in zip(team, team_ratings, strict=True)}
        now = self._now()
        # In user order: transactions that write the same players' rows then wait for each
        # other in one order (and the server aborts the later ones) instead of deadlocking.
        for user_id in sorted(after):
            mu, sigma = after[user_id]
            await tx.execute(
                "INSERT INTO ratings (season_id, user_id, mu, sigma, matches, updated_at)"
                " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (season_id, user_id) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, matches = ratings.matches + 1,"
                " updated_at = excluded.updated_at",
                season_id, user_id, mu, sigma, now)
            await tx.execute(
                "INSERT INTO rating_history (season_id, user_id, match_id, mu, sigma,"
                " recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                season_id, user_id, match_id, mu, sigma, now)
        if all(len(team) == 2 for team in teams):  # two stable pairs: their own rating too
            guild_id = await tx.fetchval(
                "SELECT l.guild_id FROM seasons s JOIN leagues l ON l.league_id = s.league_id"
                " WHERE s.season_id = ?", season_id)
            keys = [pair_key(*team) for team in teams]
            await rate_pair_results(tx, now, int(guild_id), [
                PairResult(keys[winner_team], keys[1 - winner_team])], f"match:{match_id}")
        changes = [RatingChange(user_id, ratings.display(*before[user_id]),
                                ratings.display(*after[user_id])) for user_id in after]
        await tx.execute("UPDATE matches SET rated = 1 WHERE match_id = ?", match_id)
        return changes

    async def abandon_match(self, match_id: int) -> None:
        """Close a match nobody won (table closed, players left): it counts nowhere."""

        async def write(tx: Tx) -> None:
            await _open_match(tx, match_id)
            await tx.execute("UPDATE matches SET ended_at = ?, abandoned = 1 WHERE match_id = ?",
                             self._now(), match_id)

        await self._write(write)

    async def match_hands(self, match_id: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(transcript, result) of every recorded hand, in order: what a disputed score is
        checked against (``python -m musbot replay``)."""
        rows = await self._read(lambda tx: tx.fetch(
            "SELECT transcript, result FROM hands WHERE match_id = ? ORDER BY number", match_id))
        return [(json.loads(t), json.loads(r)) for t, r in rows]

    async def recent_results(self, league_id: int, *, season: int | None = None,
                             limit: int = 10) -> list[MatchSummary]:
        """The league's latest finished matches, newest first (all seasons unless one is given)."""

        async def read(tx: Tx) -> list[MatchSummary]:
            await league_row(tx, league_id)
            query = (
                "SELECT m.match_id, m.ended_at, m.winner_team, m.games_0, m.games_1, m.tantos_0,"
                " m.tantos_1, m.rated, se.number FROM matches m"
                " LEFT JOIN seasons se ON se.season_id = m.season_id"
                " WHERE m.league_id = ? AND m.winner_team IS NOT NULL")
            params: list[Any] = [league_id]
            if season is not None:
                query += " AND m.season_id = ?"
                params.append((await season_row(tx, league_id, season)).season_id)
            query += " ORDER BY m.ended_at DESC, m.match_id DESC LIMIT ?"
            params.append(limit)
            return [MatchSummary(match_id, datetime.fromisoformat(ended),
                                 await match_seats(tx, match_id), winner, (g0, g1), (t0, t1),
                                 bool(was_rated), number)
                    for match_id, ended, winner, g0, g1, t0, t1, was_rated, number
                    in await tx.fetch(query, *params)]

        return await self._read(read)
