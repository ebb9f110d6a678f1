"""Restart safety: every live table is saved after each change and restored at start-up.

The table layer stays free of storage: a :class:`Table` calls its ``on_change`` hook (lock held)
after every applied change, and keeps the match records it produced (start, finished hands,
result) in :attr:`Table.outbox`. :class:`TablePersister` is that hook. It writes the whole state,
outbox included, atomically (``Database.save_table``, one statement on the event loop's own
connection, returning once it is committed), then stores the records, then the state again
without them (and with the league's new ratings on the page); every record call is idempotent
(match key, same hand twice, a finished match), so a crash in between only means they are
stored again from the saved outbox at the next start. Records that cannot be stored now wait in
the outbox, saved, and the table saves itself again later until they are (never dropped for an
outage; only a record the database refuses for what it says, a bug, is logged and set aside).

A change that cannot be saved is not made. The persister keeps, for each table, what is stored
of it (its last saved document, a few kilobytes of bytes, and the journal entries after it), and
a failed save raises :class:`~musbot.table.pause.Unsaved` carrying it: the table goes back to
exactly that and pauses until a save succeeds again (``musbot/table/pause.py``). Every failure
is one of storage's own errors, each logged once by the table that paused.

Most changes are one move within a hand (a bet, a «paso», a discard). Those are appended to the
table's journal instead (``Database.append_to_journal``: a few dozen bytes, not the whole state),
and a restore replays the journal on the saved state, as the engine replays a hand's actions on
its deal. A new deal, a finished hand, a seña, anything else changed: the whole state again.

On Discord the tables are restored in ``setup_hook`` without resuming them, and each resumes
once its channel can be reached (see ``musbot.bot``)::

    self.persister = await start_persistence(self.db, self.tables, resume=False)
    ...
    await table.resume()   # the channel is known: «mesa restaurada», and the bots play on
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import orjson

from musbot.storage import (
    ConflictingHand,
    ConstraintViolation,
    Database,
    LiveTable,
    MatchFinished,
    SeatRecord,
    StorageError,
    UnknownLeague,
    UnknownMatch,
    UnknownSeason,
)
from musbot.storage.documents import state_document

from . import render
from .manager import TableManager
from .pause import NotSaved, Unsaved
from .state import SeededShuffler, StateError, seeded
from .table import Table

log = logging.getLogger(__name__)

__all__ = ["SeededShuffler", "StateError", "TablePersister", "start_persistence"]

_REFUSED = (ConstraintViolation, UnknownMatch, ConflictingHand, UnknownLeague, UnknownSeason,
            ValueError)
"""A record the database refuses for what it says (a bug, or its league deleted): it would block
every later one, so it is logged and set aside. Any other failure is the database's, and the
records wait in the outbox to be stored later."""


class Stored:
    """What is stored of one table: its last saved document and the journal entries written
    after it, as JSON bytes (some 4 KB a table; as Python objects they would take several times
    that). What a table goes back to when a save fails."""

    __slots__ = ("document", "entries")

    def __init__(self, document: bytes, journal: Sequence[Any] = ()) -> None:
        self.document = document
        self.entries = bytearray(orjson.dumps(list(journal))[1:-1])
        """The journal's entries, comma-separated, without the brackets."""

    def append(self, entries: Sequence[Any]) -> None:
        if self.entries:
            self.entries += b","
        self.entries += orjson.dumps(entries)[1:-1]

    @property
    def journal(self) -> list[Any]:
        return list(orjson.loads(b"[" + self.entries + b"]"))

    def unsaved(self, error: BaseException) -> Unsaved:
        return Unsaved(error, orjson.loads(self.document), self.journal)


class TablePersister:
    """Saves a manager's tables into a :class:`Database` and brings them back after a restart."""

    def __init__(self, db: Database, manager: TableManager) -> None:
        self.db = db
        self.manager = manager
        self._match_ids: dict[str, int] = {}
        self.journaled = 0
        """Saves that were journal entries, and saves of a whole state (``musbot bench``)."""
        self.saved_whole = 0
        self.failed = 0
        """Saves that could not be stored (each undone, its table paused)."""
        self.down = False
        """The last save could not be stored: the database is not taking writes (no new
        table is opened meanwhile)."""
        self._stored: dict[int, Stored] = {}
        self._postponed: set[int] = set()
        """Tables whose match records wait for the database (logged once, when they begin)."""
        self.elsewhere: Callable[[int], Awaitable[int]] | None = None
        """Scrubs a user from the tables of the bot's other processes (sharded, ``relay.py``);
        returns how many processes held them."""

    def attach(self) -> None:
        """Every table the manager opens from now on is saved after each change."""
        self.manager.on_change = self.save

    def stored(self, channel_id: int) -> Stored | None:
        """What is stored of the table (None: nothing yet)."""
        return self._stored.get(channel_id)

    async def save(self, table: Table) -> None:
        """The tables' ``on_change`` hook: the moves in the table's journal, or else the state in
        one statement, then the records. A closed table's row is deleted once its records are
        stored. Raises :class:`~musbot.table.pause.Unsaved` when the change is not stored."""
        try:
            await self._save(table)
        except Exception as error:
            self.failed += 1
            if isinstance(error, StorageError):
                self.down = True
            elif not table.paused:
                log.exception("saving table %s failed", table.channel_id)
            stored = self._stored.get(table.channel_id)
            raise (Unsaved(error, None) if stored is None else stored.unsaved(error)) \
                from error
        if self.down:  # the database is back: the paused tables need not wait their turn
            self.down = False
            for other in self.manager:
                if other is not table:
                    other.retry_now()

    async def _save(self, table: Table) -> None:
        channel = table.channel_id
        moves = table.take_moves()
        stored = self._stored.get(channel)
        if moves and stored is not None and table.state == "playing" and not table.outbox \
                and not seeded(table):
            entries = [[seat, *action.to_json()] for seat, action in moves]
            if await self.db.append_to_journal(channel, entries):
                stored.append(entries)
                self.journaled += 1
                return
        if table.state == "closed":
            table.outbox = await self._store(table.outbox, table)
            if not table.outbox:
                await self.db.delete_table(channel)
                self._stored.pop(channel, None)
                return
        await self._save_whole(table)
        if table.outbox:
            waiting = len(table.outbox)
            table.outbox = await self._store(table.outbox, table)
            if len(table.outbox) < waiting:
                # The emptier outbox, and the league's ratings on the page: stored before the
                # table shows them.
                await self._save_whole(table)

    async def _save_whole(self, table: Table) -> None:
        document = state_document(table.to_state())
        await self.db.save_table(table.channel_id, table.guild_id, document)
        self._stored[table.channel_id] = Stored(document)
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
        built = [(saved, table) for saved in saved_tables
                 if (table := self._build(saved)) is not None]
        # The last read, before any table is adopted: a database lost until here leaves the
        # manager as it was, for a later attempt (``MusBot.open_storage``).
        seated = {s.user_id for _, table in built for s in table.seats
                  if s is not None and s.user_id is not None}
        forgotten = await self.db.forgotten_players(seated)
        for saved, table in built:
            if await self._adopt(saved, table):
                restored.append(table)
        await self._forget_again(forgotten)
        if resume:
            for table in restored:
                await table.resume()
        return restored

    def _build(self, saved: LiveTable) -> Table | None:
        if self.manager.get(saved.channel_id) is not None:
            return None
        try:
            return Table.from_state(saved.state, self.manager.transport, journal=saved.journal,
                                    **self.manager.table_options())
        except StateError:
            log.exception("table %s cannot be restored; its saved state is kept",
                          saved.channel_id)
            return None

    async def _adopt(self, saved: LiveTable, table: Table) -> bool:
        """The restored table in the manager (a closed one only stores its records)."""
        self._stored[saved.channel_id] = Stored(state_document(saved.state), saved.journal)
        if table.state == "closed":  # closed while its records could not be stored
            try:
                await table.save()  # stored now, or later, by the table itself
            except NotSaved:
                log.warning("closed table %s waits for the database", saved.channel_id)
            return False
        self.manager.adopt(table)
        if table.outbox:
            table.outbox = await self._store(table.outbox, table)
            table.mark_changed()
        return True

    async def _forget_again(self, forgotten: Iterable[int]) -> None:
        """Someone who asked to be forgotten while these tables' process was down (another
        process took the request) is scrubbed from them before anyone sees them again."""
        for user_id in sorted(forgotten):
            try:
                await self.forget_user(user_id)
            except NotSaved:  # a table paused: scrubbed at the next start
                log.warning("a forgotten player could not be scrubbed from every table yet")

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
        """Stores the records in order; returns those still to store (the database failed:
        they wait in the outbox, and the table saves again later until they are stored)."""
        channel = table.channel_id
        for i, item in enumerate(items):
            try:
                await self._store_one(item, table)
            except _REFUSED:
                # Refused for what it says (e.g. its league was deleted): it would block every
                # later one, so it is logged and set aside.
                log.exception("match record of table %s refused by the database: %s", channel,
                              item.get("kind"))
            except StorageError as error:
                if channel not in self._postponed:
                    self._postponed.add(channel)
                    log.warning("table %s: match records wait for the database (%s: %s)",
                                channel, error.code, error)
                return items[i:]
        if channel in self._postponed:
            self._postponed.discard(channel)
            log.warning("table %s: match records stored", channel)
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
        """The league's new ratings, on the table's page (saved by the same save, before the
        table shows it; the lock is held here, inside the table's own save)."""
        names = {s.user_id: s.name for s in table.seats if s is not None}
        parts = [render.t("rating_change", table.lang, name=names.get(c.user_id, "?"),
                          before=c.before, after=c.after, delta=c.delta) for c in changes]
        table.page.note(render.t("ratings", table.lang, list=", ".join(parts)))


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
