"""The runner's ground: its tournaments (:class:`.cup.Cup`), one change applied, saved and
then acted on, a match's own table, and the work its tables' news start."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from datetime import datetime

from musbot.storage import Database, StorageError
from musbot.table import Clock, MatchNotice, Table, TableManager
from musbot.table.clock import Pending
from musbot.tournament import Reporting, Stage, Tournament, TournamentError, TournamentEvent
from musbot.words import normalise

from .cup import Cup, Venue, Wall, entrants_of, match_key, wall_clock

log = logging.getLogger(__name__)


class RunnerBase:
    """What every part of :class:`.runner.TournamentRunner` stands on."""

    def __init__(self, db: Database, tables: TableManager, venue: Venue, *, clock: Clock,
                 wall: Wall | None = None, turn_seconds: int | None = None,
                 shards: tuple[int, Collection[int]] | None = None) -> None:
        self.db = db
        self.tables = tables
        self.venue = venue
        self.clock = clock
        self.wall = wall or wall_clock(clock)
        self.turn_seconds = turn_seconds
        """A match table's turn clock (None: the table's default)."""
        self.shards = shards
        self.cups: dict[int, Cup] = {}
        self._by_place: dict[int, tuple[int, str]] = {}
        self._alarm: Pending | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.started = False
        tables.subscribe(self._heard)

    def _bind(self, cup: Cup, match_id: str, place: int) -> None:
        """``place`` is the match's: its table alone is played there (the manager refuses
        any other), and what that table does is the match's news."""
        self._by_place[place] = (cup.tournament_id, match_id)
        self.tables.reserve(place, match_key(cup, match_id))

    def _own_table(self, cup: Cup, match_id: str) -> Table | None:
        """The match's own table, live in its place: none if the place holds no table, or a
        table that is not the match's (a table is the match's by the key the runner gave it,
        or, saved before keys were, by its entrants being the match's four)."""
        place = cup.places.get(match_id)
        table = self.tables.get(place) if place is not None else None
        return table if table is not None and self._owns(cup, match_id, table) else None

    def _owns(self, cup: Cup, match_id: str, table: Table) -> bool:
        return self._is_of(cup, match_id, table.notice)

    def _is_of(self, cup: Cup, match_id: str, notice: MatchNotice | None) -> bool:
        """Whether the notice is of the match's table (its key, or, for a table saved before
        keys were, its entrants)."""
        if notice is None:
            return False
        if notice.match:
            return notice.match == match_key(cup, match_id)
        match = cup.tournament.matches.get(match_id)
        return match is not None and dict(notice.entrants) == entrants_of(cup, match)

    async def _organiser_lang(self, cup: Cup) -> str:
        """The organiser's own language (chosen, else their client's as last seen), else the
        server's: what is said to them alone."""
        if cup.organiser is None:
            return cup.lang
        own = self.tables.speakers.language(cup.organiser)
        if own is None:
            try:
                own = await self.db.person_language(cup.organiser)
            except StorageError:
                own = None
        return own or cup.lang

    async def _places_refused(self, cup: Cup) -> TournamentError | None:
        """The refusal to open the tournament's match places, if the venue lacks a permission
        for them (none for a tournament played at real tables)."""
        settings = cup.tournament.settings
        if settings.reporting is Reporting.TABLE:
            return None
        lacking = await self.venue.lacking(cup)
        if lacking is None:
            return None
        code = "tournament_private_places_refused" if settings.private_threads \
            else "tournament_places_refused"
        return TournamentError(code, permissions=list(lacking.permissions),
                               channel=lacking.where)

    async def _lang(self, guild_id: int) -> str:
        try:
            return (await self.db.server_settings(guild_id)).table.language
        except StorageError:
            return "es"

    # --- changes --------------------------------------------------------------------------

    async def change(self, cup: Cup, step: Callable[[Tournament, datetime], list[TournamentEvent]]
                     ) -> list[TournamentEvent]:
        """One change (``step(tournament, now)``), saved, then acted on. Bad input raises
        :class:`TournamentError` and changes nothing; a save refused undoes it."""
        async with cup.lock:
            return await self._change(cup, step)

    async def _change(self, cup: Cup, step: Callable[[Tournament, datetime], list[TournamentEvent]]
                      ) -> list[TournamentEvent]:
        events = step(cup.tournament, self.wall())
        if not events:
            return []
        try:
            await self.db.save_tournament(cup.tournament_id, cup.tournament)
        except BaseException:
            stored = await self._reload(cup)
            log.warning("tournament %s: a change could not be saved; back to revision %s",
                        cup.tournament_id, stored)
            raise
        await self._act(cup, events)
        self._arm()
        return events

    async def _reload(self, cup: Cup) -> int | None:
        try:
            cup.tournament = (await self.db.load_tournament(cup.tournament_id)).tournament
        except StorageError:
            return None
        return cup.tournament.revision

    async def _act(self, cup: Cup, events: list[TournamentEvent]) -> None:
        """The saved change's effects (:class:`.runner.TournamentRunner`)."""
        raise NotImplementedError

    def _arm(self) -> None:
        """Set the alarm for the next time limit (:class:`.runner.TournamentRunner`)."""
        raise NotImplementedError

    def _heard(self, table: Table, notice: MatchNotice) -> None:
        """A table's notice (:class:`.tables.MatchTables`)."""
        raise NotImplementedError

    # --- housekeeping ---------------------------------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Waits for the work the tables' news started (tests, the benchmark)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        for task in list(self._tasks):
            task.cancel()

    def cup_of(self, guild_id: int, name: str | None) -> Cup | None:
        """The server's tournament by name (ignoring case); without one, its only tournament
        taking sign-ups or in play."""
        mine = [c for c in self.cups.values() if c.guild_id == guild_id]
        if name is not None:
            return next((c for c in mine if normalise(c.name) == normalise(name)), None)
        live = [c for c in mine if c.tournament.phase in (Stage.SIGNUP, Stage.RUNNING)]
        return live[0] if len(live) == 1 else None
