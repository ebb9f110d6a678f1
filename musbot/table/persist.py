"""Restart safety: every live table is saved after each change and restored at start-up.

The table layer stays free of storage: a table's runner hands each change to its
:class:`~musbot.table.runner.Persist` (this :class:`TablePersister`), lock held, before anyone
is told of it, and keeps the match records it produced (start, finished hands, result) in its
outbox. The persister writes the whole state, outbox included, atomically
(``Database.save_table``, returning once it is committed), then stores the records; every
record call is idempotent (match key, same hand twice, a finished match), so a crash between
the two only means they are stored again from the saved outbox at the next start.

Most changes are one move within a hand (a bet, a «paso», a discard). Those are appended to the
table's journal instead (``Database.append_to_journal``: a few dozen bytes, not the whole state),
and a restore replays the journal on the saved state, as the engine replays a hand's actions on
its deal. A new deal, a finished hand, a seña, anything else changed: the whole state again.

On Discord the tables are restored in ``setup_hook`` without resuming them, and each resumes
once its channel can be reached (see ``musbot.bot``)::

    persister = TablePersister(db)
    tables = TableManager(transport, persist=persister, ...)
    await persister.restore(tables)           # asleep until their channels can be reached
    ...
    await table.resume()                       # «mesa restaurada», and the bots play on
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from musbot.storage import (
    CorruptDatabase,
    Database,
    DatabaseClosed,
    DatabaseLocked,
    LiveTable,
    MatchFinished,
    RatingChange,
    SeatRecord,
    StorageError,
)

from .manager import TableManager
from .result import Result, Save
from .runner import Table
from .saved import SeededShuffler, StateError, from_json, seeded, to_json
from .state import TableState

log = logging.getLogger(__name__)

__all__ = ["SeededShuffler", "StateError", "TablePersister", "forget_player"]

_TRANSIENT = (DatabaseLocked, DatabaseClosed, CorruptDatabase, OSError)
"""Failures worth retrying later: the records stay in the outbox."""

Elsewhere = Callable[[int], Awaitable[int]]
"""Scrubs a user from the tables of the bot's other processes (sharded, ``relay.py``);
returns how many processes held them."""


class TablePersister:
    """Saves tables into a :class:`Database` and brings them back after a restart."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._match_ids: dict[str, int] = {}
        self._stale: set[int] = set()
        """Tables whose stored outbox is behind their own: their next save is whole."""
        self.journaled = 0
        """Saves that were journal entries, and saves of a whole state (``musbot bench``)."""
        self.saved_whole = 0

    async def save(self, table: Table, result: Result) -> list[RatingChange]:
        """A runner's change: the moves in the table's journal, or else the state in one
        statement, then the records. A closed table's row is deleted once its records are
        stored. Returns the league ratings a finished match changed."""
        state = table.state
        channel = state.channel_id
        if result.save is Save.MOVES and result.moves and state.lifecycle == "playing" and \
                not state.records.outbox and channel not in self._stale and not seeded(state):
            entries = [[seat, *action.to_json()] for seat, action in result.moves]
            if await self.db.append_to_journal(channel, entries):
                self.journaled += 1
                return []
        changes: list[RatingChange] = []
        if state.lifecycle == "closed":
            changes = await self._store(state)
            if not state.records.outbox:
                await self.db.delete_table(channel)
                self._stale.discard(channel)
                return changes
        await self.db.save_table(channel, state.guild_id, to_json(state))
        self.saved_whole += 1
        self._stale.discard(channel)
        if state.records.outbox:
            changes = await self._store(state)
            self._stale.add(channel)  # the emptier outbox goes with the next save
        return changes

    async def restore(self, manager: TableManager, *,
                      shards: tuple[int, Sequence[int]] | None = None) -> list[Table]:
        """Every saved table (of these shards), back in ``manager`` where it was, not resumed:
        the caller resumes each when its channel can be reached (at once, or on Discord once
        the gateway has delivered it). A state that cannot be restored stays in the database
        (logged), so a newer musbot can still take it."""
        restored = []
        saved_tables = await (self.db.load_tables() if shards is None
                              else self.db.load_tables(shards=shards))
        for saved in saved_tables:
            table = await self._restore(saved, manager)
            if table is not None:
                restored.append(table)
        await self._forget_again(restored, manager)
        return restored

    async def _restore(self, saved: LiveTable, manager: TableManager) -> Table | None:
        if manager.get(saved.channel_id) is not None:
            return None
        try:
            state = from_json(saved.state, journal=saved.journal, kept=True)
        except StateError:
            log.exception("table %s cannot be restored; its saved state is kept",
                          saved.channel_id)
            return None
        if state.lifecycle == "closed":  # closed while its records could not be stored
            await self._store(state)
            if not state.records.outbox:
                await self.db.delete_table(state.channel_id)
            return None
        table = manager.adopt(state)
        if state.records.outbox:
            await self._store(state)
            self._stale.add(state.channel_id)
        return table

    async def _forget_again(self, tables: Sequence[Table], manager: TableManager) -> None:
        """Someone who asked to be forgotten while these tables' process was down (another
        process took the request) is scrubbed from them before anyone sees them again."""
        seated = {s.user_id for table in tables for s in table.seats
                  if s is not None and s.user_id is not None}
        for user_id in await self.db.forgotten_players(seated):
            await manager.forget_user(user_id)

    # --- match records ------------------------------------------------------------------------

    async def _store(self, state: TableState) -> list[RatingChange]:
        """Stores the outbox's records in order, leaving those still to store (after a
        transient error, retried with the next save or at the next start)."""
        items = state.records.outbox
        changes: list[RatingChange] = []
        for i, item in enumerate(items):
            try:
                changes += await self._store_one(item, state)
            except _TRANSIENT:
                log.warning("match records of table %s postponed", state.channel_id,
                            exc_info=True)
                state.records.outbox = items[i:]
                return changes
            except (StorageError, ValueError):
                # A record the database refuses for good (e.g. its league was deleted) would
                # block every later one: log it and move on.
                log.exception("match record dropped on table %s: %s", state.channel_id,
                              item.get("kind"))
        state.records.outbox = []
        return changes

    async def _store_one(self, item: dict[str, Any], state: TableState) -> list[RatingChange]:
        match_id = await self._match_id(item["match"], state)
        kind = item["kind"]
        try:
            if kind == "hand":
                # A hand record saved by an earlier musbot has no órdagos: storage finds them.
                await self.db.record_hand(match_id, int(item["number"]), item["transcript"],
                                          item["result"], item.get("ordagos"))
            elif kind == "finish":
                return list(await self.db.record_finished_match(
                    match_id, int(item["winner"]), final_score=item["summary"],
                    rated=bool(item.get("rated", True))))
            elif kind == "abandon":
                await self.db.abandon_match(match_id)
        except MatchFinished:
            pass  # stored before a crash, and the match closed since: nothing left to do
        return []

    async def _match_id(self, info: dict[str, Any], state: TableState) -> int:
        key = str(info["key"])
        if key not in self._match_ids:
            seats = [_seat_record(s) for s in info["seats"]]
            self._match_ids[key] = await self.db.start_match(
                seats, rules=info["rules"], channel_id=state.channel_id,
                guild_id=state.guild_id, league_id=info["league_id"], key=key)
        return self._match_ids[key]


async def forget_player(db: Database, manager: TableManager, user_id: int, *,
                        elsewhere: Elsewhere | None = None) -> bool:
    """Everything ``/mus olvidarme`` erases: the name in live tables first (so no pending
    record brings it back), in the bot's other processes too (``elsewhere``), then the stored
    player (see ``Database.forget_player``). Returns whether musbot knew anything of them."""
    tables = await manager.forget_user(user_id)
    if elsewhere is not None:
        tables += await elsewhere(user_id)
    known = await db.forget_player(user_id)
    return known or tables > 0


def _seat_record(seat: dict[str, Any]) -> SeatRecord:
    if seat.get("forgotten"):
        return SeatRecord.forgotten(seat["seat"])
    if seat["user_id"] is not None:
        return SeatRecord.human(seat["seat"], seat["user_id"], seat["name"])
    return SeatRecord.robot(seat["seat"], seat["bot"])
