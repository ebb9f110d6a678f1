"""Players and their privacy: a player exists once seen at a table or in a league, and
``/mus olvidarme`` erases what identifies them."""

from __future__ import annotations

from collections.abc import Iterable

from musbot.i18n import LANGUAGE_CODES

from .store import Store
from .tournaments import forget_in_tournaments
from .tx import Tx

CALLS = ("mention", "dm")
"""How a person not watching the table is told their turn: a mention there, or a DM."""
TOUCH_PLAYER = (
    "INSERT INTO players (user_id, display_name, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET "
    " display_name = COALESCE(excluded.display_name, players.display_name),"
    " forgotten = 0, forgotten_at = NULL")
"""Create or rename a player. A forgotten player who comes back (sits at a table, joins a
league) is a player again from then on; the forgotten past stays anonymous."""

USER_TABLES = ("rating_history", "ratings", "league_members", "person_languages",
               "person_calls", "player_readings")
"""Where a user's own rows are (besides ``players`` and the seats of ``match_seats``): what
forgetting deletes."""
NAMED_TABLES = ("players", "live_tables", *USER_TABLES)
"""Where a player's name or rows were written: scrubbed once they are forgotten (the live
tables' states name the people seated)."""


async def touch_player(tx: Tx, user_id: int, name: str | None, now: str) -> None:
    await tx.execute(TOUCH_PLAYER, user_id, name, now)


async def names(tx: Tx, users: Iterable[int]) -> dict[int, str | None]:
    """Display names of these users (None once forgotten)."""
    wanted = tuple(users)
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = await tx.fetch(
        f"SELECT user_id, display_name FROM players WHERE user_id IN ({marks})", *wanted)
    return {user_id: name for user_id, name in rows}


class Players(Store):
    async def player_name(self, user_id: int) -> str | None:
        return await self._read(lambda tx: tx.fetchval(
            "SELECT display_name FROM players WHERE user_id = ?", user_id))

    async def forgotten_players(self, users: Iterable[int]) -> set[int]:
        """Which of these users asked to be forgotten (and have not played since)."""
        wanted = tuple(users)
        if not wanted:
            return set()
        marks = ",".join("?" * len(wanted))
        rows = await self._read(lambda tx: tx.fetch(
            f"SELECT user_id FROM players WHERE forgotten = 1 AND user_id IN ({marks})",
            *wanted))
        return {int(user_id) for (user_id,) in rows}

    async def person_language(self, user_id: int) -> str | None:
        """The language the person chose (``/mus idioma``); None if they never chose one."""
        return await self._read(lambda tx: tx.fetchval(
            "SELECT language FROM person_languages WHERE user_id = ?", user_id))

    async def person_languages(self, users: Iterable[int]) -> dict[int, str]:
        """The languages these people chose (those who chose none are left out)."""
        wanted = tuple(users)
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        rows = await self._read(lambda tx: tx.fetch(
            f"SELECT user_id, language FROM person_languages WHERE user_id IN ({marks})",
            *wanted))
        return {int(user_id): str(language) for user_id, language in rows}

    async def set_person_language(self, user_id: int, language: str | None) -> None:
        """Saves the person's choice; None forgets it (back to their Discord client's).
        ValueError for a language musbot does not speak."""
        if language is not None and language not in LANGUAGE_CODES:
            raise ValueError(f"unknown language {language!r}")
        if language is None:
            await self._write(lambda tx: tx.execute(
                "DELETE FROM person_languages WHERE user_id = ?", user_id))
            return
        await self._write(lambda tx: tx.execute(
            "INSERT INTO person_languages (user_id, language, chosen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " chosen_at = excluded.chosen_at", user_id, language, self._now()))

    async def person_call(self, user_id: int) -> str | None:
        """How the person asked to be told their turn (``/mus avisos``): ``mention`` or ``dm``;
        None if they never chose (a mention)."""
        return await self._read(lambda tx: tx.fetchval(
            "SELECT way FROM person_calls WHERE user_id = ?", user_id))

    async def set_person_call(self, user_id: int, way: str) -> None:
        """Saves how the person is told their turn. ValueError for another way."""
        if way not in CALLS:
            raise ValueError(f"unknown way to call {way!r}")
        await self._write(lambda tx: tx.execute(
            "INSERT INTO person_calls (user_id, way, chosen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET way = excluded.way,"
            " chosen_at = excluded.chosen_at", user_id, way, self._now()))

    async def forget_player(self, user_id: int) -> bool:
        """Erase what identifies the player: name, ratings, memberships, chosen language, how
        the bots read their betting on every server, their places in tournaments
        (:func:`~.tournaments.forget_in_tournaments`). Past matches stay (the other players'
        standings depend on them) with this player's seats made anonymous. Returns False if
        musbot knew nothing of them (they neither played, chose a language, were read, nor
        signed up). Live table states are the table layer's, rewritten before this
        (``TablePersister.forget_player``): the files are scrubbed last
        (:meth:`~musbot.storage.backend.Backend.scrub`), old versions of rows included."""

        async def write(tx: Tx) -> bool:
            known = await tx.fetchval(
                "SELECT 1 FROM players WHERE user_id = ? UNION ALL "
                "SELECT 1 FROM person_languages WHERE user_id = ? UNION ALL "
                "SELECT 1 FROM person_calls WHERE user_id = ?", user_id, user_id,
                user_id) is not None
            await tx.execute(
                "UPDATE match_seats SET kind = 'anonymous', player_id = NULL WHERE player_id = ?",
                user_id)
            for table in USER_TABLES:
                # A reading may outlive what made the player (a table's first hands, stored
                # before its match record): it too is something musbot knew of them.
                known |= await tx.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id) > 0
            await tx.execute("UPDATE leagues SET created_by = NULL WHERE created_by = ?", user_id)
            await tx.execute(
                "UPDATE players SET display_name = NULL, forgotten = 1, forgotten_at = ? "
                "WHERE user_id = ?", self._now(), user_id)
            in_tournaments = await forget_in_tournaments(tx, user_id, self._now())
            return known or in_tournaments

        known = await self._write(write)
        await self._backend.scrub(NAMED_TABLES)
        return known
