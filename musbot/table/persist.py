"""Restart safety: every live table is saved after each change and restored at start-up.

The table layer stays free of storage: a :class:`Table` calls its ``on_change`` hook (lock held)
after every applied change, and keeps the match records it produced (start, finished hands,
result) in :attr:`Table.outbox`. :class:`TablePersister` is that hook. It writes the whole state,
outbox included, atomically (``Database.save_table``, one statement on the event loop's own
connection, returning once it is committed), then stores the records; every
record call is idempotent (match key, same hand twice, a finished match), so a crash between the
two only means they are stored again from the saved outbox at the next start.

Most changes are one move within a hand (a bet, a «paso», a discard). Those are appended to the
table's journal instead (``Database.append_to_journal``: a few dozen bytes, not the whole state),
and a restore replays the journal on the saved state, as the engine replays a hand's actions on
its deal. A new deal, a finished hand, a seña, anything else changed: the whole state again.
After a whole save the table's bots fetch the stored readings of people who sat down and store
what they learnt of them (``Bots.exchange``, per server; a failure is retried at the next one).

On Discord the tables are restored in ``setup_hook`` without resuming them, and each resumes
once its channel can be reached (see ``musbot.bot``)::

    self.persister = await start_persistence(self.db, self.tables, resume=False)
    ...
    await table.resume()   # the channel is known: «mesa restaurada», and the bots play on
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
    SeatRecord,
    StorageError,
)

from . import render
from .manager import TableManager
from .state import SeededShuffler, StateError, seeded
from .table import Table

log = logging.getLogger(__name__)

__all__ = ["SeededShuffler", "StateError", "TablePersister", "start_persistence"]

_TRANSIENT = (DatabaseLocked, DatabaseClosed, CorruptDatabase, OSError)
"""Failures worth retrying later: the records stay in the outbox."""


class TablePersister:
    """Saves a manager's tables into a :class:`Database` and brings them back after a restart."""

    def __init__(self, db: Database, manager: TableManager) -> None:
        self.db = db
        self.manager = manager
        self._match_ids: dict[str, int] = {}
        self.journaled = 0
        """Saves that were journal entries, and saves of a whole state (``musbot bench``)."""
        self.saved_whole = 0
        self.elsewhere: Callable[[int], Awaitable[int]] | None = None
        """Scrubs a user from the tables of the bot's other processes (sharded, ``relay.py``);
        returns how many processes held them."""

    def attach(self) -> None:
        """Every table the manager opens from now on is saved after each change."""
        self.manager.on_change = self.save

    async def save(self, table: Table) -> None:
        """The tables' ``on_change`` hook: the moves in the table's journal, or else the state in
        one transaction, then the records. A closed table's row is deleted once its records are
        stored."""
        moves = table.take_moves()
        if moves and table.state == "playing" and not table.outbox and not seeded(table):
            entries = [[seat, *action.to_json()] for seat, action in moves]
            if await self.db.append_to_journal(table.channel_id, entries):
                self.journaled += 1
                return
        if table.state == "closed":
            table.outbox = await self._store(table.outbox, table)
            if not table.outbox:
                await self.db.delete_table(table.channel_id)
                return
        await self._save_whole(table)
        if table.outbox:
            table.outbox = await self._store(table.outbox, table)
            table.mark_changed()  # the emptier outbox goes with the next save
        await self._exchange_readings(table)

    async def _exchange_readings(self, table: Table) -> None:
        """The bots fetch the stored readings of people who sat down and store what they
        learnt (``Bots.exchange``), after the table's own save and never at its cost."""
        try:
            await table.bots.exchange(self.db)
        except StorageError:
            log.warning("player readings of table %s postponed", table.channel_id,
                        exc_info=True)

    async def _save_whole(self, table: Table) -> None:
        await self.db.save_table(table.channel_id, table.guild_id, table.to_state())
        self.saved_whole += 1

    async def restore_all(self, *, resume: bool = True,
                          shards: tuple[int, Sequence[int]] | None = None) -> list[Table]:
        """Every saved table (of these shards), back in the manager where it was. With
        ``resume`` each says «mesa restaurada» and plays on at once; without, the caller resumes
        each when its channel can be reached (Discord, once the gateway has delivered it). A
        state that cannot be restored stays in the database (logged), so a newer musbot can
        still take it."""
        restored = []
        saved_tables = await (self.db.load_tables() if shards is None
                              else self.db.load_tables(shards=shards))
        for saved in saved_tables:
            table = await self._restore(saved)
            if table is not None:
                restored.append(table)
        await self._forget_again(restored)
        if resume:
            for table in restored:
                await table.resume()
        return restored

    async def _restore(self, saved: LiveTable) -> Table | None:
        if self.manager.get(saved.channel_id) is not None:
            return None
        try:
            table = Table.from_state(saved.state, self.manager.transport, journal=saved.journal,
                                     **self.manager.table_options())
        except StateError:
            log.exception("table %s cannot be restored; its saved state is kept",
                          saved.channel_id)
            return None
        if table.state == "closed":  # closed while its records could not be stored
            await self.save(table)
            return None
        self.manager.adopt(table)
        if table.outbox:
            table.outbox = await self._store(table.outbox, table)
            table.mark_changed()
        return table

    async def _forget_again(self, tables: Sequence[Table]) -> None:
        """Someone who asked to be forgotten while these tables' process was down (another
        process took the request) is scrubbed from them before anyone sees them again."""
        seated = {s.user_id for table in tables for s in table.seats
                  if s is not None and s.user_id is not None}
        for user_id in await self.db.forgotten_players(seated):
            await self.forget_user(user_id)

    async def forget_user(self, user_id: int) -> int:
        """Scrubs the user from every live table (privacy, ``/mus olvidarme``); returns how many
        tables held them. A seat they still hold is kept, under a neutral name."""
        count = 0
        for table in self.manager:
            seat = table.seat_of(user_id)
            name = render.t("forgotten_name", table.lang, seat=(seat or 0) + 1)
            if await table.scrub_user(user_id, name):
                count += 1
        return count

    async def forget_player(self, user_id: int) -> bool:
        """Everything ``/mus olvidarme`` erases: the name in live tables first (so no pending
        record brings it back), then the stored player (see ``Database.forget_player``).
        Returns whether musbot knew anything of them."""
        tables = await self.forget_user(user_id)
        if self.elsewhere is not None:
            tables += await self.elsewhere(user_id)
        known = await self.db.forget_player(user_id)
        return known or tables > 0

    # --- match records ------------------------------------------------------------------------

    async def _store(self, items: list[dict[str, Any]], table: Table) -> list[dict[str, Any]]:
        """Stores the records in order; returns those still to store (after a transient error,
        retried with the next save or at the next start)."""
        for i, item in enumerate(items):
            try:
                await self._store_one(item, table)
            except _TRANSIENT:
                log.warning("match records of table %s postponed", table.channel_id,
                            exc_info=True)
                return items[i:]
            except (StorageError, ValueError):
                # A record the database refuses for good (e.g. its league was deleted) would
                # block every later one: log it and move on.
                log.exception("match record dropped on table %s: %s", table.channel_id,
                              item.get("kind"))
        return []

    async def _store_one(self, item: dict[str, Any], table: Table) -> None:
        match_id = await self._match_id(item["match"], table)
        kind = item["kind"]
        try:
            if kind == "hand":
                # A hand record saved by an earlier musbot has no órdagos: storage finds them.
                await self.db.record_hand(match_id, int(item["number"]), item["transcript"],
                                          item["result"], item.get("ordagos"))
            elif kind == "finish":
                changes = await self.db.record_finished_match(
                    match_id, int(item["winner"]), final_score=item["summary"],
                    rated=bool(item.get("rated", True)))
                if changes:
                    self._note_ratings(table, changes)
            elif kind == "abandon":
                await self.db.abandon_match(match_id)
        except MatchFinished:
            pass  # stored before a crash, and the match closed since: nothing left to do

    async def _match_id(self, info: dict[str, Any], table: Table) -> int:
        key = str(info["key"])
        if key not in self._match_ids:
            seats = [_seat_record(s) for s in info["seats"]]
            self._match_ids[key] = await self.db.start_match(
                seats, rules=info["rules"], channel_id=table.channel_id,
                guild_id=table.guild_id, league_id=info["league_id"], key=key)
        return self._match_ids[key]

    @staticmethod
    def _note_ratings(table: Table, changes: Sequence[Any]) -> None:
        """The league's new ratings, on the table's page (saved with the table's next save;
        the lock is held here, inside the table's own save)."""
        names = {s.user_id: s.name for s in table.seats if s is not None}
        parts = [render.t("rating_change", table.lang, name=names.get(c.user_id, "?"),
                          before=c.before, after=c.after, delta=c.delta) for c in changes]
        table.page.note(render.t("ratings", table.lang, list=", ".join(parts)))
        table.mark_changed()
        table.transport.changed(table)


def _seat_record(seat: dict[str, Any]) -> SeatRecord:
    if seat.get("forgotten"):
        return SeatRecord.forgotten(seat["seat"])
    if seat["user_id"] is not None:
        return SeatRecord.human(seat["seat"], seat["user_id"], seat["name"])
    return SeatRecord.robot(seat["seat"], seat["bot"])


async def start_persistence(db: Database, manager: TableManager, *, resume: bool = True,
                            shards: tuple[int, Sequence[int]] | None = None) -> TablePersister:
    """The one call for start-up: saves every table from now on and restores the saved ones
    (of these shards: see :meth:`TablePersister.restore_all`)."""
    persister = TablePersister(db, manager)
    persister.attach()
    await persister.restore_all(resume=resume, shards=shards)
    return persister
