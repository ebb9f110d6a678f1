"""Tournaments of pairs (:mod:`musbot.tournament`): each one's whole state, saved after every
change; the people it names, the hall of fame, and the ratings of stable pairs.

How the tournament runner uses it::

    stored = await db.create_tournament(guild_id, Tournament.new(settings, seed, now=now),
                                        created_by=organiser)
    ratings = await db.pair_ratings(guild_id, t.people())     # before the draw, to seed
    t.draw(now=now, ratings={key: r.rating for key, r in ratings.items()})
    await db.save_tournament(stored.tournament_id, t)        # after every change
    for stored in await db.open_tournaments(shards):         # at start-up: carry on
        ...
    await db.hall_of_fame(guild_id)

A match decided by its table is stored once: the table's stored match (``matches``, written by
the table's records) holds its games and tantos, and the tournament's state only refers to it
(:attr:`musbot.tournament.Fixture.table_record`). A save refers only to a stored match that is
finished and says the same (else :class:`~.errors.UnrecordedMatch`), and a load reads the result
back from it (:func:`_read_back`), so the two cannot disagree.

A save of a finished tournament also records its podium and, once, rates its pairs
(:func:`musbot.tournament.rated_results`); a save writes no state older than the stored one
(:class:`~.errors.StaleTournament`), and writing the same state again changes nothing. People
who asked to be forgotten are scrubbed from every state saved, so a runner holding an older copy
cannot write their names back.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from musbot.tournament import PairKey, PairResult, Stage, Tournament, rated_results
from musbot.words import normalise

from . import ratings
from .errors import (
    ConstraintViolation,
    StaleTournament,
    TournamentExists,
    UnknownTournament,
    UnrecordedMatch,
)
from .live import shard_filter
from .store import Store
from .tx import Row, Tx

_COLUMNS = "tournament_id, guild_id, state, created_by, created_at, updated_at, channel_id"

_SEE_PLAYER = (
    "INSERT INTO players (user_id, display_name, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (user_id) DO NOTHING")
"""A person signed up is a player from then on; unlike a table's, a tournament's save never
makes a forgotten person known again (it may be an older copy of the state)."""


@dataclass(frozen=True, slots=True)
class StoredTournament:
    tournament_id: int
    guild_id: int
    tournament: Tournament
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    channel_id: int | None = None
    """Where its news and its bracket are posted."""


@dataclass(frozen=True, slots=True)
class PairRating:
    players: PairKey
    mu: float
    sigma: float
    matches: int

    @property
    def rating(self) -> int:
        """On the display scale of people's ratings (:mod:`.ratings`)."""
        return ratings.display(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class HallOfFameEntry:
    """A finished tournament's champions and finalists (names None once forgotten)."""

    tournament_id: int
    name: str
    finished_at: datetime
    champions: tuple[str | None, str | None]
    finalists: tuple[str | None, str | None] | None
    champion_ids: tuple[int | None, int | None]


async def _stored(tx: Tx, row: Row) -> StoredTournament:
    tournament_id, guild_id, state, created_by, created_at, updated_at, channel_id = row
    document = await _read_back(tx, int(tournament_id), orjson.loads(state))
    return StoredTournament(int(tournament_id), int(guild_id),
                            Tournament.from_dict(document), created_by,
                            datetime.fromisoformat(created_at), datetime.fromisoformat(updated_at),
                            None if channel_id is None else int(channel_id))


async def _table_results(tx: Tx, keys: Collection[str]
                         ) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """Each finished stored match of ``keys``: its games and tantos won by each pair."""
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    rows = await tx.fetch(
        "SELECT match_key, games_0, games_1, tantos_0, tantos_1 FROM matches"
        f" WHERE ended_at IS NOT NULL AND abandoned = 0 AND match_key IN ({marks})",
        *sorted(keys))
    return {str(key): ((int(g0), int(g1)), (int(t0), int(t1))) for key, g0, g1, t0, t1 in rows}


def _referred(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The matches of a tournament's document decided by their tables
    (:attr:`Match.table_record`)."""
    return [m for m in document.get("matches", []) if m.get("table_record")]


async def _read_back(tx: Tx, tournament_id: int, document: dict[str, Any]) -> dict[str, Any]:
    """The document with each match decided by its table given its result from the table's
    stored match: games won there plus the games given for lateness, tantos, and the winner
    they make. Whatever the document holds for them is not read."""
    referred = _referred(document)
    found = await _table_results(tx, {m["table_record"] for m in referred})
    for match in referred:
        if match["table_record"] not in found:
            raise UnrecordedMatch(tournament_id, str(match["id"]), str(match["table_record"]))
        (first, second), tantos = found[match["table_record"]]
        forfeits = match.get("forfeits", [0, 0])
        games = [first + int(forfeits[0]), second + int(forfeits[1])]
        match.update(games=games, tantos=list(tantos), winner=0 if games[0] > games[1] else 1)
    return document


async def _refer(tx: Tx, tournament_id: int, document: dict[str, Any]) -> None:
    """The document as saved: each match decided by its table keeps only its reference, to a
    stored match that is finished and holds the same result (else :class:`UnrecordedMatch`)."""
    referred = _referred(document)
    found = await _table_results(tx, {m["table_record"] for m in referred})
    for match in referred:
        stored = found.get(match["table_record"])
        forfeits = match["forfeits"]
        if stored is None or list(stored[1]) != match["tantos"] or \
                [stored[0][0] + forfeits[0], stored[0][1] + forfeits[1]] != match["games"]:
            raise UnrecordedMatch(tournament_id, str(match["id"]), str(match["table_record"]))
        for key in ("games", "tantos", "winner"):
            del match[key]


async def _row(tx: Tx, tournament_id: int) -> StoredTournament:
    row = await tx.fetchrow(f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = ?",
                            tournament_id)
    if row is None:
        raise UnknownTournament(tournament_id)
    return await _stored(tx, row)


async def _forgotten(tx: Tx, users: Collection[int]) -> set[int]:
    if not users:
        return set()
    marks = ",".join("?" * len(users))
    rows = await tx.fetch(
        f"SELECT user_id FROM players WHERE forgotten = 1 AND user_id IN ({marks})", *users)
    return {int(user_id) for (user_id,) in rows}


async def _write_state(tx: Tx, now: str, tournament_id: int, tournament: Tournament) -> None:
    """The state, who it names, and (finished) the podium: everything a save writes."""
    for user in await _forgotten(tx, tournament.people()):
        tournament.forget(user)
    document = tournament.to_dict()
    await _refer(tx, tournament_id, document)
    await tx.execute(
        "UPDATE tournaments SET name = ?, phase = ?, state = ?, revision = ?, updated_at = ?,"
        " finished_at = ? WHERE tournament_id = ?",
        tournament.settings.name, tournament.phase.value,
        orjson.dumps(document).decode(), tournament.revision, now,
        tournament.finished_at, tournament_id)
    people = tournament.people()
    await tx.execute("DELETE FROM tournament_people WHERE tournament_id = ?", tournament_id)
    await tx.executemany("INSERT INTO tournament_people (tournament_id, user_id) VALUES (?, ?)",
                         [(tournament_id, user) for user in sorted(people)])
    names = _names(tournament)
    await tx.executemany(_SEE_PLAYER, [(user, names.get(user), now) for user in sorted(people)])
    await tx.execute("DELETE FROM tournament_podium WHERE tournament_id = ?", tournament_id)
    if tournament.phase is Stage.FINISHED:
        podium = []
        for place, pair in ((1, tournament.champion), (2, tournament.finalist)):
            if pair is not None:
                podium += [(tournament_id, place, slot, pair.players[slot], pair.names[slot])
                           for slot in (0, 1)]
        await tx.executemany(
            "INSERT INTO tournament_podium (tournament_id, place, slot, user_id, name)"
            " VALUES (?, ?, ?, ?, ?)", podium)


def _names(tournament: Tournament) -> dict[int, str]:
    names = {entry.user_id: entry.name for entry in tournament.entries.values()}
    for pair in tournament.pairs:
        for user, name in zip(pair.players, pair.names, strict=True):
            if user is not None and name is not None:
                names[user] = name
    return names


async def rate_pair_results(tx: Tx, now: str, guild_id: int, results: Sequence[PairResult],
                            key: str) -> bool:
    """Applies ``results`` in order, once per ``key``; False if applied before (looked up
    first: on PostgreSQL a refused insert would abort the caller's whole transaction, a league
    match's person ratings with it)."""
    if await tx.fetchval("SELECT 1 FROM pair_rating_keys WHERE guild_id = ? AND rating_key = ?",
                         guild_id, key) is not None:
        return False
    try:
        await tx.execute(
            "INSERT INTO pair_rating_keys (guild_id, rating_key, applied_at) VALUES (?, ?, ?)",
            guild_id, key, now)
    except ConstraintViolation:
        return False
    skills: dict[PairKey, tuple[float, float, int]] = {}
    wanted = {pair for result in results for pair in (result.winner, result.loser)}
    for pair in wanted:
        row = await tx.fetchrow(
            "SELECT mu, sigma, matches FROM pair_ratings"
            " WHERE guild_id = ? AND player_a = ? AND player_b = ?", guild_id, *pair)
        skills[pair] = (float(row[0]), float(row[1]), int(row[2])) if row \
            else (*ratings.initial(), 0)
    for result in results:
        winner, loser = skills[result.winner], skills[result.loser]
        new_winner, new_loser = ratings.rate_pairs(winner[:2], loser[:2])
        skills[result.winner] = (*new_winner, winner[2] + 1)
        skills[result.loser] = (*new_loser, loser[2] + 1)
    await tx.executemany(
        "INSERT INTO pair_ratings (guild_id, player_a, player_b, mu, sigma, matches, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, player_a, player_b) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,"
        " updated_at = excluded.updated_at",
        [(guild_id, *pair, mu, sigma, matches, now)
         for pair, (mu, sigma, matches) in sorted(skills.items())])
    return True


async def forget_in_tournaments(tx: Tx, user_id: int, now: str) -> bool:
    """``/mus olvidarme``'s part here: the person's sign-ups, places in draws and podiums lose
    their id and name (the pairs' results stay), their pair ratings go, and they no longer
    create what they created. True if any tournament named them."""
    rows = await tx.fetch(
        f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id IN"
        " (SELECT tournament_id FROM tournament_people WHERE user_id = ?)", user_id)
    for row in rows:
        stored = await _stored(tx, row)
        stored.tournament.forget(user_id)
        await _write_state(tx, now, stored.tournament_id, stored.tournament)
    await tx.execute("DELETE FROM tournament_people WHERE user_id = ?", user_id)
    await tx.execute(
        "UPDATE tournament_podium SET user_id = NULL, name = NULL WHERE user_id = ?", user_id)
    await tx.execute("UPDATE tournaments SET created_by = NULL WHERE created_by = ?", user_id)
    await tx.execute("DELETE FROM pair_ratings WHERE player_a = ? OR player_b = ?",
                     user_id, user_id)
    return bool(rows)


class Tournaments(Store):
    async def create_tournament(self, guild_id: int, tournament: Tournament, *,
                                created_by: int | None = None,
                                channel_id: int | None = None) -> StoredTournament:
        """Stores a new tournament, whose news go to ``channel_id``. Names are unique per
        server, ignoring case and accents (:class:`~.errors.TournamentExists`)."""
        name = tournament.settings.name

        async def write(tx: Tx) -> StoredTournament:
            now = self._now()
            try:
                tournament_id = await tx.fetchval(
                    "INSERT INTO tournaments (guild_id, name, name_key, phase, state, revision,"
                    " created_by, channel_id, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, '{}', ?, ?, ?, ?, ?) RETURNING tournament_id",
                    guild_id, name, normalise(name), tournament.phase.value,
                    tournament.revision, created_by, channel_id, now, now)
            except ConstraintViolation as exc:
                raise TournamentExists(name) from exc
            await _write_state(tx, now, int(tournament_id), tournament)
            return await _row(tx, int(tournament_id))

        return await self._write(write)

    async def load_tournament(self, tournament_id: int) -> StoredTournament:
        return await self._read(lambda tx: _row(tx, tournament_id))

    async def find_tournament(self, guild_id: int, name: str) -> StoredTournament:
        """A server's tournament by name (ignoring case and accents)."""

        async def read(tx: Tx) -> StoredTournament:
            row = await tx.fetchrow(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? AND name_key = ?",
                guild_id, normalise(name))
            if row is None:
                raise UnknownTournament(name)
            return await _stored(tx, row)

        return await self._read(read)

    async def tournaments(self, guild_id: int,
                          phases: Iterable[Stage] | None = None) -> list[StoredTournament]:
        """A server's tournaments, newest first (only those in ``phases`` if given)."""
        wanted = [p.value for p in phases] if phases is not None else [p.value for p in Stage]

        async def read(tx: Tx) -> list[StoredTournament]:
            marks = ",".join("?" * len(wanted))
            rows = await tx.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? AND phase IN ({marks})"
                " ORDER BY created_at DESC, tournament_id DESC", guild_id, *wanted)
            return [await _stored(tx, row) for row in rows]

        return await self._read(read) if wanted else []

    async def open_tournaments(self, shards: tuple[int, Collection[int]] | None = None
                               ) -> list[StoredTournament]:
        """Tournaments taking sign-ups or in play, to carry them on at start-up: all, or those
        of this process's shards (shard count, shard ids), whose servers they are on."""
        where, params = shard_filter(shards) if shards is not None else ("", [])
        clause = where.replace(" WHERE ", " AND ", 1)

        async def read(tx: Tx) -> list[StoredTournament]:
            rows = await tx.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE phase IN ('signup', 'running')"
                f"{clause} ORDER BY tournament_id", *params)
            return [await _stored(tx, row) for row in rows]

        return await self._read(read)

    async def save_tournament(self, tournament_id: int, tournament: Tournament) -> None:
        """Writes the tournament's state (module docstring): refused if older than the stored
        one; on finishing, its podium and, once, its pairs' ratings."""

        async def write(tx: Tx) -> None:
            row = await tx.fetchrow(
                "SELECT guild_id, revision, rated FROM tournaments WHERE tournament_id = ?",
                tournament_id)
            if row is None:
                raise UnknownTournament(tournament_id)
            guild_id, stored, rated = int(row[0]), int(row[1]), int(row[2])
            if tournament.revision < stored:
                raise StaleTournament(tournament_id, stored, tournament.revision)
            now = self._now()
            await _write_state(tx, now, tournament_id, tournament)
            if tournament.phase is Stage.FINISHED and not rated:
                await rate_pair_results(tx, now, guild_id, rated_results(tournament),
                            f"tournament:{tournament_id}")
                await tx.execute("UPDATE tournaments SET rated = 1 WHERE tournament_id = ?",
                                 tournament_id)

        await self._write(write)

    async def match_tables(self, tournament_id: int) -> dict[str, int]:
        """Where each match of the tournament has its table (match id → channel id)."""
        rows = await self._read(lambda tx: tx.fetch(
            "SELECT match_id, channel_id FROM tournament_tables WHERE tournament_id = ?",
            tournament_id))
        return {str(match_id): int(channel_id) for match_id, channel_id in rows}

    async def add_match_table(self, tournament_id: int, match_id: str, channel_id: int) -> None:
        """The match's table is played in ``channel_id`` from now on (a thread opened for it);
        the same again changes nothing."""
        await self._write(lambda tx: tx.execute(
            "INSERT INTO tournament_tables (tournament_id, match_id, channel_id) VALUES (?, ?, ?)"
            " ON CONFLICT (tournament_id, match_id) DO UPDATE SET channel_id = excluded.channel_id",
            tournament_id, match_id, channel_id))

    async def delete_tournament(self, tournament_id: int) -> bool:
        """Removes a tournament and everything of it (its pairs' ratings stay)."""
        return bool(await self._write(lambda tx: tx.execute(
            "DELETE FROM tournaments WHERE tournament_id = ?", tournament_id)))

    async def pair_ratings(self, guild_id: int, users: Collection[int]
                           ) -> dict[PairKey, PairRating]:
        """The server's ratings of every stable pair made of two of ``users`` (the people
        signed up: what a draw seeded by rating needs, whoever ends up partnering whom)."""
        wanted = sorted(set(users))
        if len(wanted) < 2:
            return {}

        async def read(tx: Tx) -> dict[PairKey, PairRating]:
            marks = ",".join("?" * len(wanted))
            rows = await tx.fetch(
                "SELECT player_a, player_b, mu, sigma, matches FROM pair_ratings"
                f" WHERE guild_id = ? AND player_a IN ({marks}) AND player_b IN ({marks})",
                guild_id, *wanted, *wanted)
            return {(int(a), int(b)): PairRating((int(a), int(b)), float(mu), float(sigma),
                                                 int(n)) for a, b, mu, sigma, n in rows}

        return await self._read(read)

    async def pairs_of(self, guild_id: int, user_id: int, limit: int = 3
                       ) -> list[tuple[str | None, PairRating]]:
        """The person's stable pairs in this server with a rating, best first: each partner's
        name (None once forgotten) and the pair's rating."""

        async def read(tx: Tx) -> list[Row]:
            return await tx.fetch(
                "SELECT r.player_a, r.player_b, r.mu, r.sigma, r.matches, p.display_name"
                " FROM pair_ratings r LEFT JOIN players p ON p.user_id ="
                " CASE WHEN r.player_a = ? THEN r.player_b ELSE r.player_a END"
                " WHERE r.guild_id = ? AND (r.player_a = ? OR r.player_b = ?)",
                user_id, guild_id, user_id, user_id)

        found = [(name, PairRating((int(a), int(b)), float(mu), float(sigma), int(n)))
                 for a, b, mu, sigma, n, name in await self._read(read)]
        found.sort(key=lambda item: -item[1].rating)
        return found[:limit]

    async def seeding_ratings(self, guild_id: int, users: Collection[int]
                              ) -> dict[PairKey, float]:
        """What a draw seeded by rating sorts by, for every two of ``users``: the pair's own
        rating where the two have played rated matches together; else one made from their
        league ratings in this server (:func:`.ratings.pair_from_people`), each person's latest
        (the season last rated); pairs with neither are left out (unrated, seeded last)."""
        found: dict[PairKey, float] = {key: float(r.rating) for key, r in
                                       (await self.pair_ratings(guild_id, users)).items()}
        wanted = sorted(set(users))
        if len(wanted) < 2:
            return found

        async def read(tx: Tx) -> dict[int, tuple[float, float]]:
            marks = ",".join("?" * len(wanted))
            rows = await tx.fetch(
                "SELECT r.user_id, r.mu, r.sigma FROM ratings r"
                " JOIN seasons s ON s.season_id = r.season_id"
                " JOIN leagues l ON l.league_id = s.league_id"
                f" WHERE l.guild_id = ? AND r.matches > 0 AND r.user_id IN ({marks})"
                " ORDER BY r.updated_at, r.season_id", guild_id, *wanted)
            return {int(user): (float(mu), float(sigma)) for user, mu, sigma in rows}

        people = await self._read(read)  # the latest row of each person wins
        for first in people:
            for second in people:
                key = (first, second)
                if first < second and key not in found:
                    found[key] = float(ratings.display(
                        *ratings.pair_from_people(people[first], people[second])))
        return found

    async def rate_pairs(self, guild_id: int, results: Sequence[PairResult], key: str) -> bool:
        """Applies results between stable pairs to their ratings, in order, once per ``key``
        (e.g. ``match:ID`` for a league match): False, changing nothing, if done before."""
        return await self._write(
            lambda tx: rate_pair_results(tx, self._now(), guild_id, results, key))

    async def hall_of_fame(self, guild_id: int) -> list[HallOfFameEntry]:
        """The server's finished tournaments, newest first, with their champions and
        finalists."""

        async def read(tx: Tx) -> list[HallOfFameEntry]:
            rows = await tx.fetch(
                "SELECT t.tournament_id, t.name, t.finished_at, p.place, p.slot, p.user_id,"
                " p.name FROM tournaments t JOIN tournament_podium p"
                " ON p.tournament_id = t.tournament_id WHERE t.guild_id = ?"
                " ORDER BY t.finished_at DESC, t.tournament_id DESC, p.place, p.slot", guild_id)
            names: dict[int, tuple[str, str]] = {}
            people: dict[tuple[int, int], list[str | None]] = {}
            ids: dict[int, list[int | None]] = {}
            for tournament_id, name, finished_at, place, slot, user_id, person in rows:
                names.setdefault(int(tournament_id), (name, finished_at))
                people.setdefault((int(tournament_id), int(place)), [None, None])[slot] = person
                if place == 1:
                    ids.setdefault(int(tournament_id), [None, None])[slot] = user_id
            found = []
            for tournament_id, (name, finished_at) in names.items():
                champions = people.get((tournament_id, 1), [None, None])
                finalists = people.get((tournament_id, 2))
                champion_ids = ids.get(tournament_id, [None, None])
                found.append(HallOfFameEntry(
                    tournament_id, name, datetime.fromisoformat(finished_at),
                    (champions[0], champions[1]),
                    None if finalists is None else (finalists[0], finalists[1]),
                    (champion_ids[0], champion_ids[1])))
            return found

        return await self._read(read)
