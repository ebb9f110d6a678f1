"""The storage API the rest of musbot uses: players, server settings, live tables, match records,
leagues with seasons, ratings, profiles. Every public method is one transaction."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any

import orjson

from musbot.engine.rules import Rules

from . import ratings
from .chart import labels as chart_labels
from .chart import render_rating_chart
from .connection import Connection, _WriteLockBusy
from .errors import (
    AlreadyMember,
    ConflictingHand,
    LeagueExists,
    MatchFinished,
    UnknownLeague,
    UnknownMatch,
    UnknownSeason,
)
from .models import (
    League,
    LiveTable,
    MatchSummary,
    Partner,
    Profile,
    RatingChange,
    RatingPoint,
    Season,
    SeatRecord,
    SeatResult,
    ServerSettings,
    Standing,
)
from .records import find_ordagos, normalise


def _json(data: Any) -> str:
    """Stored documents (hands, results, settings): compact and with sorted keys, the same
    text the standard encoder gives, at a tenth of its cost (two per finished hand). Like the
    live states, a non-finite float is written as null, never as invalid JSON."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def _state_json(data: Any) -> str:
    """A live table's state: compact and unsorted (rewritten after every action, compared
    with nothing, so key order does not matter). orjson, because this runs on every move of
    every table: the standard encoder took a tenth of a busy bot's time here."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


_TOUCH_PLAYER = (
    "INSERT INTO players (user_id, display_name, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET "
    " display_name = COALESCE(excluded.display_name, display_name),"
    " forgotten = 0, forgotten_at = NULL")
"""Create or rename a player (and bring a forgotten one back)."""

_SAVE_SQL = (
    "INSERT INTO live_tables (channel_id, guild_id, state, version, updated_at)"
    " VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel_id) DO UPDATE SET"
    " guild_id = excluded.guild_id, state = excluded.state, journal = '[]',"
    " version = version + 1, updated_at = excluded.updated_at RETURNING version")

_JOURNAL_SQL = (
    "UPDATE live_tables SET journal = json_insert(journal, '$[#]', json(?)),"
    " version = version + 1, updated_at = ? WHERE channel_id = ?")
"""No RETURNING: it costs as much again as the rest of the statement (measured), and the
journal's caller needs only to know that the row was there."""

_LiveWrite = Callable[[sqlite3.Connection, str], Any]
"""One write of a live table (a whole save or a journal entry), given the time to stamp."""
_PendingWrite = tuple[_LiveWrite, "asyncio.Future[Any]"]
"""A queued live-table write and its caller's future."""


def _save_row(raw: sqlite3.Connection, now: str, row: tuple[int, int | None, str]) -> int:
    """Writes one save; returns the table's new version. ``fetchall``, not ``fetchone``: on its
    own (autocommit) the statement commits when it finishes, and only a statement stepped to
    its end reports a failed commit (a full disk) instead of dropping it unseen."""
    [(version,)] = raw.execute(_SAVE_SQL, (*row, now)).fetchall()
    return int(version)


def _journal_rows(raw: sqlite3.Connection, now: str, channel_id: int,
                  entries: Sequence[str]) -> bool:
    """Appends JSON ``entries`` to the table's journal; False (nothing written) if the table has
    no saved row. Without RETURNING the statement runs to its end (and commits, on its own)
    inside ``execute``."""
    for entry in entries:
        if raw.execute(_JOURNAL_SQL, (entry, now, channel_id)).rowcount != 1:
            return False
    return True


def _write_all(raw: sqlite3.Connection, batch: list[_PendingWrite], now: str) -> list[Any]:
    return [write(raw, now) for write, _ in batch]


def _answer_writes(batch: list[_PendingWrite], outcome: list[Any] | BaseException) -> None:
    """Each waiting writer gets its result, or the error that stopped the batch."""
    for i, (_, done) in enumerate(batch):
        if done.done():
            continue
        if isinstance(outcome, BaseException):
            done.set_exception(outcome)
        else:
            done.set_result(outcome[i])


def _one(raw: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    """The single row of an aggregate query."""
    return raw.execute(sql, params).fetchone()


def _dt(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _season(row: sqlite3.Row | tuple[Any, ...]) -> Season:
    season_id, league_id, number, started_at, closed_at = row
    return Season(season_id, league_id, number, datetime.fromisoformat(started_at),
                  _dt(closed_at))


_SEASON_COLUMNS = "season_id, league_id, number, started_at, closed_at"
_LIVE_COLUMNS = "channel_id, guild_id, state, version, updated_at, journal"


def _live_table(row: sqlite3.Row | tuple[Any, ...]) -> LiveTable:
    channel_id, guild_id, state, version, updated_at, journal = row
    return LiveTable(channel_id, guild_id, orjson.loads(state), version,
                     datetime.fromisoformat(updated_at), orjson.loads(journal))


class Database(Connection):
    """musbot's SQLite database. Open with ``await Database.open(path)`` or
    ``async with Database(path) as db``; see :class:`~musbot.storage.connection.Connection`.

    Every public method is one transaction, written as a synchronous function of the raw
    connection and run by :meth:`_write` or :meth:`_fetch`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._late_saves: list[_PendingWrite] = []
        self._late_writer: asyncio.Task[None] | None = None

    # --- players ------------------------------------------------------------------------------

    def _touch_player(self, raw: sqlite3.Connection, user_id: int, name: str | None) -> None:
        raw.execute(_TOUCH_PLAYER, (user_id, name, self._now()))

    async def player_name(self, user_id: int) -> str | None:
        def read(raw: sqlite3.Connection) -> str | None:
            row = raw.execute(
                "SELECT display_name FROM players WHERE user_id = ?", (user_id,)).fetchone()
            return row[0] if row else None

        return await self._fetch(read)

    async def forget_player(self, user_id: int) -> bool:
        """Erase what identifies the player: name, ratings, memberships. Past matches stay (the
        other players' standings depend on them) with this player's seats made anonymous.
        Returns False if the player was unknown. Live table states are the table layer's."""

        def write(raw: sqlite3.Connection) -> bool:
            known = raw.execute("SELECT 1 FROM players WHERE user_id = ?",
                                (user_id,)).fetchone() is not None
            raw.execute(
                "UPDATE match_seats SET kind = 'anonymous', player_id = NULL WHERE player_id = ?",
                (user_id,))
            for table in ("rating_history", "ratings", "league_members"):
                raw.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            raw.execute("UPDATE leagues SET created_by = NULL WHERE created_by = ?", (user_id,))
            raw.execute(
                "UPDATE players SET display_name = NULL, forgotten = 1, forgotten_at = ? "
                "WHERE user_id = ?", (self._now(), user_id))
            return known

        return await self._write(write)

    # --- servers ------------------------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's settings, defaults where nothing was saved."""
        row = await self._fetch(lambda raw: raw.execute(
            "SELECT settings FROM servers WHERE guild_id = ?", (guild_id,)).fetchone())
        return ServerSettings.from_dict(json.loads(row[0])) if row else ServerSettings()

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        params = (guild_id, _json(settings.to_dict()), self._now())
        await self._write(lambda raw: raw.execute(
            "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at", params))

    # --- live tables --------------------------------------------------------------------------

    async def save_table(self, channel_id: int, guild_id: int | None,
                         state: Mapping[str, Any]) -> int:
        """Replace the table's saved state (and empty its journal); returns its new version once
        it is committed.

        Written at once on the loop's connection, where a commit appends a page or two to the
        log (tens of microseconds), so the caller does not even yield. While another
        connection holds the write lock, saves queue up for the database thread and are
        written there together, in the order they were made (a table's later save never
        overtakes an earlier one); each caller returns only after its own state is
        committed, so an acknowledged action is never lost."""
        row = (channel_id, guild_id, _state_json(state))
        return int(await self._write_live(partial(_save_row, row=row), one_statement=True))

    async def append_to_journal(self, channel_id: int, entries: Sequence[Any]) -> bool:
        """Appends ``entries`` (JSON values, in order) to the table's journal, which its next
        :meth:`save_table` empties: what a table in play writes after a move instead of its
        whole state. Same guarantees and order as :meth:`save_table`. False, with nothing
        written, if the table has no saved state to add to."""
        if not entries:
            return True
        encoded = [orjson.dumps(entry).decode() for entry in entries]
        return bool(await self._write_live(
            partial(_journal_rows, channel_id=channel_id, entries=encoded),
            one_statement=len(encoded) == 1))

    async def _write_live(self, write: _LiveWrite, *, one_statement: bool) -> Any:
        """A live table's write, at once on the loop's connection, or queued behind the writes
        already waiting for the database thread (see :meth:`save_table`)."""
        loop = asyncio.get_running_loop()
        if self._late_writer is None:
            try:
                now = self._now()
                return self._write_here(lambda raw: write(raw, now), one_statement=one_statement)
            except _WriteLockBusy:
                self._late_writer = loop.create_task(self._write_late())
        done: asyncio.Future[Any] = loop.create_future()
        self._late_saves.append((write, done))
        return await done

    async def _write_late(self) -> None:
        """The live-table writes that found the write lock taken, in order, through the
        database thread, each batch in one transaction."""
        try:
            while self._late_saves:
                batch, self._late_saves = self._late_saves, []
                now = self._now()
                try:
                    results = await self._write_there(partial(_write_all, batch=batch, now=now))
                except BaseException as exc:
                    _answer_writes(batch, exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                _answer_writes(batch, results)
        finally:
            self._late_writer = None

    async def load_tables(self) -> list[LiveTable]:
        """Every saved table, to restore them at start-up."""
        rows = await self._fetch(lambda raw: raw.execute(
            f"SELECT {_LIVE_COLUMNS} FROM live_tables ORDER BY channel_id").fetchall())
        return [_live_table(row) for row in rows]

    async def load_table(self, channel_id: int) -> LiveTable | None:
        row = await self._fetch(lambda raw: raw.execute(
            f"SELECT {_LIVE_COLUMNS} FROM live_tables WHERE channel_id = ?",
            (channel_id,)).fetchone())
        return _live_table(row) if row else None

    async def delete_table(self, channel_id: int) -> bool:
        """Forget a table that closed; False if there was none."""
        return await self._write(lambda raw: raw.execute(
            "DELETE FROM live_tables WHERE channel_id = ?", (channel_id,)).rowcount > 0)

    # --- matches ------------------------------------------------------------------------------

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
        return await self._write(lambda raw: self._insert_match(
            raw, seats, rules, channel_id, guild_id, league_id, key))

    async def record_hand(self, match_id: int, number: int, transcript: Mapping[str, Any],
                          result: Mapping[str, Any]) -> int:
        """Store a finished hand (REPLAY.md transcript and result), its ledger and órdagos, and
        the game it ended, if any. Recording the same hand again is a no-op (safe to retry after a
        crash); a different hand under the same number is refused."""
        return await self._write(
            lambda raw: self._insert_hand(raw, match_id, number, transcript, result))

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
        return await self._write(
            lambda raw: self._finish(raw, match_id, winner_team, final_score, rated))

    def _insert_match(
        self,
        raw: sqlite3.Connection,
        seats: Sequence[SeatRecord],
        rules: Rules | Mapping[str, Any] | None,
        channel_id: int | None,
        guild_id: int | None,
        league_id: int | None,
        key: str | None,
    ) -> int:
        ordered = sorted(seats, key=lambda s: s.seat)
        if len(ordered) not in (2, 4, 6) or [s.seat for s in ordered] != list(range(len(ordered))):
            raise ValueError("a match has 2, 4 or 6 seats numbered from 0")
        humans = [s.player_id for s in ordered if s.player_id is not None]
        if len(set(humans)) != len(humans):
            raise ValueError("a player can take only one seat")
        rules_dict = rules.to_dict() if isinstance(rules, Rules) else dict(rules or {})
        if rules_dict.get("jugadores", len(ordered)) != len(ordered):
            raise ValueError("the rules are for a different number of players")
        if key is not None:
            row = raw.execute("SELECT match_id FROM matches WHERE match_key = ?",
                              (key,)).fetchone()
            if row:
                return int(row[0])
        if league_id is not None:
            self._league_row(raw, league_id)
        now = self._now()
        match_id = raw.execute(
            "INSERT INTO matches (match_key, channel_id, guild_id, league_id, rules, players,"
            " has_bots, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (key, channel_id, guild_id, league_id, _json(rules_dict), len(ordered),
             int(any(s.bot is not None for s in ordered)), now)).lastrowid
        assert match_id is not None
        people = [s for s in ordered if s.player_id is not None]
        if people:
            raw.executemany(_TOUCH_PLAYER, [(s.player_id, s.name, now) for s in people])
            if league_id is not None:
                raw.executemany(
                    "INSERT OR IGNORE INTO league_members (league_id, user_id, joined_at)"
                    " VALUES (?, ?, ?)", [(league_id, s.player_id, now) for s in people])
        raw.executemany(
            "INSERT INTO match_seats (match_id, seat, team, kind, player_id, bot)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(match_id, s.seat, s.team, "player" if s.player_id is not None else "bot",
              s.player_id, s.bot) for s in ordered])
        return match_id

    @staticmethod
    def _open_match(raw: sqlite3.Connection, match_id: int) -> tuple[Any, ...]:
        row = raw.execute(
            "SELECT league_id, has_bots, ended_at FROM matches WHERE match_id = ?",
            (match_id,)).fetchone()
        if row is None:
            raise UnknownMatch(match_id)
        if row[2] is not None:
            raise MatchFinished(match_id)
        return tuple(row)

    def _insert_hand(self, raw: sqlite3.Connection, match_id: int, number: int,
                     transcript: Mapping[str, Any], result: Mapping[str, Any]) -> int:
        transcript_json, result_json = _json(transcript), _json(result)
        found = raw.execute(
            "SELECT m.ended_at, h.hand_id, h.transcript, h.result,"
            " (SELECT COUNT(*) FROM games g WHERE g.match_id = m.match_id)"
            " FROM matches m LEFT JOIN hands h ON h.match_id = m.match_id AND h.number = ?"
            " WHERE m.match_id = ?", (number, match_id)).fetchall()
        if not found:
            raise UnknownMatch(match_id)
        ended_at, hand_id, old_transcript, old_result, games = found[0]
        if ended_at is not None:
            raise MatchFinished(match_id)
        if hand_id is not None:
            if (old_transcript, old_result) != (transcript_json, result_json):
                raise ConflictingHand(match_id, number)
            return int(hand_id)
        game_number = int(games) + 1
        try:
            steps = [(i, int(s["pair"]), int(s["tantos"]), str(s["lance"]), str(s["kind"]))
                     for i, s in enumerate(result.get("ledger", ()))]
            ordagos = [(o.caller_seat, o.accepter_seat, o.lance, o.winner_team)
                       for o in find_ordagos(transcript, result)]
            game = None
            if result.get("game_winner") is not None:
                score_0, score_1 = (int(x) for x in result["scores"])
                game = (match_id, game_number, int(result["game_winner"]), score_0, score_1)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"hand {number} is not a REPLAY.md transcript and result: "
                             f"{exc!r}") from exc
        hand_id = raw.execute(
            "INSERT INTO hands (match_id, number, game_number, transcript, result, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, number, game_number, transcript_json, result_json, self._now())).lastrowid
        assert hand_id is not None
        if steps:
            raw.executemany(
                "INSERT INTO ledger (hand_id, step, pair, tantos, lance, kind)"
                " VALUES (?, ?, ?, ?, ?, ?)", [(hand_id, *step) for step in steps])
        if ordagos:
            raw.executemany(
                "INSERT INTO ordagos (hand_id, match_id, caller_seat, accepter_seat, lance,"
                " winner_team) VALUES (?, ?, ?, ?, ?, ?)",
                [(hand_id, match_id, *o) for o in ordagos])
        if game is not None:
            raw.execute(
                "INSERT INTO games (match_id, number, winner_team, score_0, score_1)"
                " VALUES (?, ?, ?, ?, ?)", game)
        return int(hand_id)

    def _finish(self, raw: sqlite3.Connection, match_id: int, winner_team: int,
                final_score: Mapping[str, Any] | None, rated: bool = True) -> list[RatingChange]:
        league_id, has_bots, _ = self._open_match(raw, match_id)
        totals = _one(
            raw,
            "SELECT COALESCE(SUM(winner_team = 0), 0), COALESCE(SUM(winner_team = 1), 0),"
            " COALESCE(SUM(score_0), 0), COALESCE(SUM(score_1), 0)"
            " FROM games WHERE match_id = ?", (match_id,))
        season_id = None
        if league_id is not None:
            season_id = self._season_row(raw, league_id, None).season_id
        raw.execute(
            "UPDATE matches SET ended_at = ?, winner_team = ?, season_id = ?, games_0 = ?,"
            " games_1 = ?, tantos_0 = ?, tantos_1 = ?, final_score = ? WHERE match_id = ?",
            (self._now(), winner_team, season_id, *totals,
             None if final_score is None else _json(final_score), match_id))
        if season_id is None or has_bots or not rated:
            return []
        return self._rate(raw, match_id, season_id, winner_team)

    def _rate(self, raw: sqlite3.Connection, match_id: int, season_id: int,
              winner_team: int) -> list[RatingChange]:
        seats = raw.execute(
            "SELECT team, kind, player_id FROM match_seats WHERE match_id = ? ORDER BY seat",
            (match_id,)).fetchall()
        if any(kind != "player" for _, kind, _ in seats):
            return []  # a forgotten player's seat: no one to rate against
        teams: list[list[int]] = [[], []]
        for team, _, player_id in seats:
            teams[team].append(player_id)
        before: dict[int, tuple[float, float]] = {}
        for user_id in teams[0] + teams[1]:
            row = raw.execute("SELECT mu, sigma FROM ratings WHERE season_id = ? AND user_id = ?",
                              (season_id, user_id)).fetchone()
            before[user_id] = (row[0], row[1]) if row else ratings.initial()
        new = ratings.rate([[before[u] for u in team] for team in teams], winner_team)
        now = self._now()
        changes = []
        for team, team_ratings in zip(teams, new, strict=True):
            for user_id, (mu, sigma) in zip(team, team_ratings, strict=True):
                raw.execute(
                    "INSERT INTO ratings (season_id, user_id, mu, sigma, matches, updated_at)"
                    " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (season_id, user_id) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, matches = matches + 1,"
                    " updated_at = excluded.updated_at",
                    (season_id, user_id, mu, sigma, now))
                raw.execute(
                    "INSERT INTO rating_history (season_id, user_id, match_id, mu, sigma,"
                    " recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (season_id, user_id, match_id, mu, sigma, now))
                changes.append(RatingChange(user_id, ratings.display(*before[user_id]),
                                            ratings.display(mu, sigma)))
        raw.execute("UPDATE matches SET rated = 1 WHERE match_id = ?", (match_id,))
        return changes

    async def abandon_match(self, match_id: int) -> None:
        """Close a match nobody won (table closed, players left): it counts nowhere."""

        def write(raw: sqlite3.Connection) -> None:
            self._open_match(raw, match_id)
            raw.execute("UPDATE matches SET ended_at = ?, abandoned = 1 WHERE match_id = ?",
                        (self._now(), match_id))

        await self._write(write)

    async def match_hands(self, match_id: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(transcript, result) of every recorded hand, in order: what a disputed score is
        checked against (``python -m musbot replay``)."""
        rows = await self._fetch(lambda raw: raw.execute(
            "SELECT transcript, result FROM hands WHERE match_id = ? ORDER BY number",
            (match_id,)).fetchall())
        return [(json.loads(t), json.loads(r)) for t, r in rows]

    # --- leagues and seasons ------------------------------------------------------------------

    async def create_league(self, guild_id: int, name: str,
                            created_by: int | None = None) -> League:
        """A new league with its first season open. Names are unique per server, ignoring case
        and accents ("Liga Otoño" = "liga otono")."""
        name = " ".join(name.split())
        if not name:
            raise ValueError("a league needs a name")

        def write(raw: sqlite3.Connection) -> League:
            try:
                league_id = raw.execute(
                    "INSERT INTO leagues (guild_id, name, name_key, created_by, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (guild_id, name, normalise(name), created_by, self._now())).lastrowid
            except sqlite3.IntegrityError as exc:
                raise LeagueExists(name) from exc
            assert league_id is not None
            raw.execute("INSERT INTO seasons (league_id, number, started_at) VALUES (?, 1, ?)",
                        (league_id, self._now()))
            return self._league(raw, league_id)

        return await self._write(write)

    async def get_league(self, guild_id: int, name: str) -> League:
        def read(raw: sqlite3.Connection) -> League:
            row = raw.execute(
                "SELECT league_id FROM leagues WHERE guild_id = ? AND name_key = ?",
                (guild_id, normalise(name))).fetchone()
            if row is None:
                raise UnknownLeague(name)
            return self._league(raw, row[0])

        return await self._fetch(read)

    async def leagues(self, guild_id: int) -> list[League]:
        return await self._fetch(lambda raw: [self._league(raw, row[0]) for row in raw.execute(
            "SELECT league_id FROM leagues WHERE guild_id = ? ORDER BY name",
            (guild_id,)).fetchall()])

    @staticmethod
    def _league_row(raw: sqlite3.Connection, league_id: int) -> tuple[Any, ...]:
        row = raw.execute(
            "SELECT league_id, guild_id, name, created_by, created_at FROM leagues"
            " WHERE league_id = ?", (league_id,)).fetchone()
        if row is None:
            raise UnknownLeague(league_id)
        return tuple(row)

    def _league(self, raw: sqlite3.Connection, league_id: int) -> League:
        league_id, guild_id, name, created_by, created_at = self._league_row(raw, league_id)
        season = self._season_row(raw, league_id, None)
        return League(league_id, guild_id, name, created_by, datetime.fromisoformat(created_at),
                      season)

    def _season_row(self, raw: sqlite3.Connection, league_id: int,
                    number: int | None) -> Season:
        """Season ``number`` of the league, or the open one when ``number`` is None."""
        self._league_row(raw, league_id)
        if number is None:
            row = raw.execute(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? AND closed_at IS NULL",
                (league_id,)).fetchone()
        else:
            row = raw.execute(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? AND number = ?",
                (league_id, number)).fetchone()
        if row is None:
            raise UnknownSeason(league_id, number or 0)
        return _season(row)

    async def join_league(self, league_id: int, user_id: int,
                          display_name: str | None = None) -> None:
        def write(raw: sqlite3.Connection) -> None:
            _, _, name, _, _ = self._league_row(raw, league_id)
            self._touch_player(raw, user_id, display_name)
            try:
                raw.execute(
                    "INSERT INTO league_members (league_id, user_id, joined_at) VALUES (?, ?, ?)",
                    (league_id, user_id, self._now()))
            except sqlite3.IntegrityError as exc:
                raise AlreadyMember(name, user_id) from exc

        await self._write(write)

    async def league_members(self, league_id: int) -> list[int]:
        def read(raw: sqlite3.Connection) -> list[int]:
            self._league_row(raw, league_id)
            return [row[0] for row in raw.execute(
                "SELECT user_id FROM league_members WHERE league_id = ? ORDER BY joined_at",
                (league_id,))]

        return await self._fetch(read)

    async def new_season(self, league_id: int) -> Season:
        """Close the current season (its standings stay readable) and open the next one, where
        everyone starts again with a newcomer's rating."""

        def write(raw: sqlite3.Connection) -> Season:
            current = self._season_row(raw, league_id, None)
            now = self._now()
            raw.execute("UPDATE seasons SET closed_at = ? WHERE season_id = ?",
                        (now, current.season_id))
            raw.execute("INSERT INTO seasons (league_id, number, started_at) VALUES (?, ?, ?)",
                        (league_id, current.number + 1, now))
            return self._season_row(raw, league_id, None)

        return await self._write(write)

    async def seasons(self, league_id: int) -> list[Season]:
        def read(raw: sqlite3.Connection) -> list[Season]:
            self._league_row(raw, league_id)
            return [_season(row) for row in raw.execute(
                f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE league_id = ? ORDER BY number",
                (league_id,))]

        return await self._fetch(read)

    async def standings(self, league_id: int, season: int | None = None) -> list[Standing]:
        """The season's table (the current one by default): everyone who played in it, plus the
        members of an open season who have not played yet. Best rating first."""

        def read(raw: sqlite3.Connection) -> list[Standing]:
            se = self._season_row(raw, league_id, season)
            played = {row[0]: row[1:] for row in raw.execute(
                "SELECT s.player_id, COUNT(*), SUM(s.team = m.winner_team),"
                " SUM(CASE s.team WHEN 0 THEN m.games_0 - m.games_1"
                "     ELSE m.games_1 - m.games_0 END),"
                " SUM(CASE s.team WHEN 0 THEN m.tantos_0 - m.tantos_1"
                "     ELSE m.tantos_1 - m.tantos_0 END)"
                " FROM matches m JOIN match_seats s ON s.match_id = m.match_id"
                " WHERE m.season_id = ? AND m.winner_team IS NOT NULL AND s.kind = 'player'"
                " GROUP BY s.player_id", (se.season_id,))}
            rated = {row[0]: ratings.display(row[1], row[2]) for row in raw.execute(
                "SELECT user_id, mu, sigma FROM ratings WHERE season_id = ?", (se.season_id,))}
            users = set(played) | set(rated)
            if se.is_open:
                users |= {row[0] for row in raw.execute(
                    "SELECT user_id FROM league_members WHERE league_id = ?", (league_id,))}
            names = self._names(raw, users)
            table = []
            for user_id in users:
                n, won, games_diff, tantos_diff = played.get(user_id, (0, 0, 0, 0))
                table.append(Standing(user_id, names.get(user_id), n, won, n - won, games_diff,
                                      tantos_diff, rated.get(user_id)))
            return table

        table = await self._fetch(read)
        table.sort(key=lambda s: (s.rating is None, -(s.rating or 0), -s.won, -s.games_diff,
                                  -s.tantos_diff, s.user_id))
        return table

    @staticmethod
    def _names(raw: sqlite3.Connection, users: set[int]) -> dict[int, str | None]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = raw.execute(
            f"SELECT user_id, display_name FROM players WHERE user_id IN ({marks})", tuple(users))
        return {user_id: name for user_id, name in rows}

    async def recent_results(self, league_id: int, *, season: int | None = None,
                             limit: int = 10) -> list[MatchSummary]:
        """The league's latest finished matches, newest first (all seasons unless one is given)."""

        def read(raw: sqlite3.Connection) -> list[MatchSummary]:
            self._league_row(raw, league_id)
            query = (
                "SELECT m.match_id, m.ended_at, m.winner_team, m.games_0, m.games_1, m.tantos_0,"
                " m.tantos_1, m.rated, se.number FROM matches m"
                " LEFT JOIN seasons se ON se.season_id = m.season_id"
                " WHERE m.league_id = ? AND m.winner_team IS NOT NULL")
            params: list[Any] = [league_id]
            if season is not None:
                query += " AND m.season_id = ?"
                params.append(self._season_row(raw, league_id, season).season_id)
            query += " ORDER BY m.ended_at DESC, m.match_id DESC LIMIT ?"
            params.append(limit)
            return [MatchSummary(match_id, datetime.fromisoformat(ended),
                                 self._seats(raw, match_id), winner, (g0, g1), (t0, t1),
                                 bool(was_rated), number)
                    for match_id, ended, winner, g0, g1, t0, t1, was_rated, number
                    in raw.execute(query, params).fetchall()]

        return await self._fetch(read)

    @staticmethod
    def _seats(raw: sqlite3.Connection, match_id: int) -> tuple[SeatResult, ...]:
        rows = raw.execute(
            "SELECT s.seat, s.team, s.kind, s.player_id, p.display_name, s.bot"
            " FROM match_seats s LEFT JOIN players p ON p.user_id = s.player_id"
            " WHERE s.match_id = ? ORDER BY s.seat", (match_id,))
        return tuple(SeatResult(*row) for row in rows)

    # --- profiles and ratings -----------------------------------------------------------------

    async def player_profile(self, user_id: int, *, league_id: int | None = None,
                             season: int | None = None) -> Profile:
        """The player's record over finished matches: everywhere, at one league (all its
        seasons), or one season of it. The rating is the league's current season's unless a
        season is given; None without a league."""
        if league_id is None and season is not None:
            raise ValueError("a season number needs a league")

        def read(raw: sqlite3.Connection) -> Profile:
            where, params = "", []
            rating: int | None = None
            if league_id is not None:
                where, params = " AND m.league_id = ?", [league_id]
                se = self._season_row(raw, league_id, season)
                if season is not None:
                    where += " AND m.season_id = ?"
                    params.append(se.season_id)
                row = raw.execute(
                    "SELECT mu, sigma FROM ratings WHERE season_id = ? AND user_id = ?",
                    (se.season_id, user_id)).fetchone()
                rating = ratings.display(*row) if row else None
            matches, won = _one(
                raw,
                "SELECT COUNT(*), COALESCE(SUM(s.team = m.winner_team), 0)"
                " FROM match_seats s JOIN matches m ON m.match_id = s.match_id"
                " WHERE s.player_id = ? AND m.winner_team IS NOT NULL" + where,
                [user_id, *params])
            partner = raw.execute(
                "SELECT p.player_id, pl.display_name, COUNT(*) AS n,"
                " SUM(s.team = m.winner_team) AS w"
                " FROM match_seats s"
                " JOIN match_seats p ON p.match_id = s.match_id AND p.team = s.team"
                "  AND p.seat != s.seat AND p.kind = 'player'"
                " JOIN matches m ON m.match_id = s.match_id"
                " LEFT JOIN players pl ON pl.user_id = p.player_id"
                " WHERE s.player_id = ? AND m.winner_team IS NOT NULL" + where +
                " GROUP BY p.player_id ORDER BY n DESC, w DESC, p.player_id LIMIT 1",
                [user_id, *params]).fetchone()
            ordagos_won, ordagos_lost = _one(
                raw,
                "SELECT COALESCE(SUM(o.winner_team = s.team), 0),"
                " COALESCE(SUM(o.winner_team != s.team), 0)"
                " FROM ordagos o"
                " JOIN match_seats s ON s.match_id = o.match_id"
                "  AND s.seat IN (o.caller_seat, o.accepter_seat)"
                " JOIN matches m ON m.match_id = o.match_id"
                " WHERE s.player_id = ? AND o.accepter_seat IS NOT NULL" + where,
                [user_id, *params])
            name = self._names(raw, {user_id}).get(user_id)
            return Profile(user_id, name, matches, won, matches - won,
                           Partner(*partner) if partner else None, ordagos_won, ordagos_lost,
                           rating)

        return await self._fetch(read)

    async def rating_history(self, user_id: int, league_id: int,
                             season: int | None = None) -> list[RatingPoint]:
        """The player's rating after each rated match of the season (current by default)."""

        def read(raw: sqlite3.Connection) -> list[tuple[Any, ...]]:
            se = self._season_row(raw, league_id, season)
            return raw.execute(
                "SELECT match_id, recorded_at, mu, sigma FROM rating_history"
                " WHERE season_id = ? AND user_id = ? ORDER BY recorded_at, match_id",
                (se.season_id, user_id)).fetchall()

        return [RatingPoint(m, datetime.fromisoformat(at), mu, sigma, ratings.display(mu, sigma))
                for m, at, mu, sigma in await self._fetch(read)]

    async def rating_chart(self, user_id: int, league_id: int, season: int | None = None,
                           *, title: str | None = None, lang: str = "es") -> bytes:
        """PNG of :meth:`rating_history`, drawn in a worker thread so the bot keeps answering.
        Raises :class:`~musbot.storage.errors.ChartUnavailable` without matplotlib."""
        points = await self.rating_history(user_id, league_id, season)
        if title is None:
            def read(raw: sqlite3.Connection) -> str:
                se = self._season_row(raw, league_id, season)
                league = self._league_row(raw, league_id)
                name = self._names(raw, {user_id}).get(user_id)
                season_word = chart_labels(lang)["season"]
                return f"{name or user_id} · {league[2]} · {season_word} {se.number}"

            title = await self._fetch(read)
        return await asyncio.to_thread(render_rating_chart, points, title, lang)
