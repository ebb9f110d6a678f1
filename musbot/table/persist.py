"""Restart safety: every live table is saved after each change and restored at start-up.

The table layer stays free of storage: a table's runner hands each change to its
:class:`~musbot.table.runner.Persist` (this :class:`TablePersister`), lock held, before anyone
is told of it, and keeps the match records it produced (start, finished hands, result) in its
outbox. The persister writes the whole state, outbox included, atomically
(``Database.save_table``, returning once it is committed), then stores the records, which the
saved outbox keeps until the table's next whole save (a journaled move does not rewrite it);
every record call is idempotent (match key, same hand twice, a finished match), so a restart
before then only means they are stored again from the saved outbox. Records that
cannot be stored now wait in the outbox, saved, and the table saves itself again later until
they are (never dropped for an outage; only a record the database refuses for what it says, a
bug, is logged and set aside).

A change that cannot be saved is not made. The persister keeps, for each table, what is stored
of it (its last saved document, a few kilobytes of bytes, and the journal entries after it), and
a failed save raises :class:`~musbot.table.pause.Unsaved` carrying it: the table goes back to
exactly that and pauses until a save succeeds again (``pause.py``). Every failure is one of
storage's own errors, logged once by the table that paused.

Most changes are one move within a hand (a bet, a «paso», a discard). Those are appended to the
table's journal instead (``Database.append_to_journal``: a few dozen bytes, not the whole state),
and a restore replays the journal on the saved state, as the engine replays a hand's actions on
its deal. A new deal, a finished hand, a seña, anything else changed: the whole state again.

After each save the table's people's readings (how the bots read their betting,
``readings.py``) are fetched and stored per server as the table asks (every few hands, and when
the bot stops: :meth:`TablePersister.store_readings`); a failure there only postpones them to
the next save.

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
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

import orjson

from musbot.ai.reading import Reading
from musbot.coach.book import KeptBook
from musbot.storage import (
    ConflictingHand,
    ConstraintViolation,
    Database,
    DatabaseClosed,
    LiveTable,
    MatchFinished,
    RatingChange,
    SeatRecord,
    StorageError,
    UnknownLeague,
    UnknownMatch,
    UnknownSeason,
)
from musbot.storage.documents import state_document

from .manager import TableManager
from .pause import Unsaved
from .readings import Exchanged
from .result import Result, Save
from .runner import Saved, Table
from .saved import SeededShuffler, StateError, from_json, seeded, to_json
from .state import TableState

log = logging.getLogger(__name__)

__all__ = ["SeededShuffler", "StateError", "TablePersister", "forget_player"]

_REFUSED = (ConstraintViolation, UnknownMatch, ConflictingHand, UnknownLeague, UnknownSeason,
            ValueError)
"""A record the database refuses for what it says (a bug, or its league deleted): it would block
every later one, so it is logged and set aside. Any other failure is the database's, and the
records wait in the outbox to be stored later."""

Elsewhere = Callable[[int], Awaitable[int]]
"""Scrubs a user from the tables of the bot's other processes (sharded, ``relay.py``);
returns how many processes held them."""


def _compress(document: bytes) -> bytes:
    """zlib for a document of a few kilobytes: a small window and little memory compress it as
    well as the defaults, without setting up their 256 KB of tables at every save;
    ``zlib.decompress`` reads it as any other."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 13, 4)
    return packer.compress(document) + packer.flush()


def _with_repaso(document: bytes, repaso: Any) -> bytes:
    """The whole document: ``document`` (an object without ``repaso``) with it added, spliced
    in rather than encoding the rest a second time."""
    rest = document[1:-1]
    return b"{%s%s\"repaso\":%s}" % (rest, b"," if rest else b"", state_document(repaso))


class Stored:
    """What is stored of one table: its last saved document and the journal entries written
    after it, as JSON bytes, the document compressed (it is read back only when a save fails,
    and a thousand live tables each keep one). What a table goes back to when a save fails.

    ``book``: the hands kept for review as saved, when ``document`` leaves them out: they are
    compressed already (compressing them again gains nothing) and the table holds them."""

    __slots__ = ("book", "document", "entries")

    def __init__(self, document: bytes, journal: Sequence[Any] = (),
                 book: KeptBook | None = None) -> None:
        self.document = _compress(document)
        self.book = book
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
        state = orjson.loads(zlib.decompress(self.document))
        if self.book is not None:
            state["repaso"] = self.book.to_json()
        return Unsaved(error, state, self.journal)


class TablePersister:
    """Saves tables into a :class:`Database` and brings them back after a restart."""

    def __init__(self, db: Database | None = None) -> None:
        self._db = db
        self._match_ids: dict[str, int] = {}
        self._stored: dict[int, Stored] = {}
        self._postponed: set[int] = set()
        """Tables whose match records wait for the database (logged once, when they begin)."""
        self.journaled = 0
        """Saves that were journal entries, and saves of a whole state (``musbot bench``)."""
        self.saved_whole = 0
        self.failed = 0
        """Saves that could not be stored (each undone, its table paused)."""
        self.down = False
        """The last save could not be stored: the database is not taking writes (no new
        table is opened meanwhile)."""

    def use(self, db: Database | None) -> None:
        """The database to save into from now on (None: none can be opened now)."""
        self._db = db

    @property
    def connected(self) -> bool:
        return self._db is not None

    @property
    def db(self) -> Database:
        """Where tables are saved; :class:`DatabaseClosed` until one is open (every save then
        fails, and the table pauses)."""
        if self._db is None:
            raise DatabaseClosed("no database is open")
        return self._db

    def stored(self, channel_id: int) -> Stored | None:
        """What is stored of the table (None: nothing yet)."""
        return self._stored.get(channel_id)

    async def save(self, table: Table, result: Result) -> Saved:
        """A runner's change: the moves in the table's journal, or else the state in one
        statement, then the records. A closed table's row is deleted once its records are
        stored. Raises :class:`Unsaved` (with the table as last stored) when the change is
        not."""
        try:
            ratings = await self._save(table.state, result)
        except Exception as error:
            self.failed += 1
            if isinstance(error, StorageError):
                self.down = True
            elif not table.paused:
                log.exception("saving table %s failed", table.channel_id)
            stored = self._stored.get(table.channel_id)
            raise (Unsaved(error, None) if stored is None else stored.unsaved(error)) \
                from error
        recovered, self.down = self.down, False
        return Saved(ratings, recovered, await self._readings(
            table.state, playing=table.state.lifecycle == "playing"))

    async def store_readings(self, tables: Iterable[Table]) -> None:
        """Stores now what each table learnt of its people and has not stored yet: the bot is
        stopping (its tables suspended), and a restored table fetches them again."""
        for table in tables:
            if self.down:
                return  # the database is gone: nothing to wait for, nothing to log per table
            await self._readings(table.state, playing=False)

    async def _readings(self, state: TableState, *, playing: bool) -> Exchanged | None:
        """The people's readings the table asks for (fetched when they sit, stored as the bots
        learn: ``readings.py``), after its own save and never at its cost: what fails waits
        for the next save."""
        exchange = state.readings.exchange(state.guild_id, state.humans(), playing=playing)
        if exchange is None:
            return None
        try:
            found = await self.db.player_readings(exchange.guild_id, exchange.wanted) \
                if exchange.wanted else {}
            if exchange.due:
                await self.db.save_player_readings(exchange.guild_id, exchange.due)
        except StorageError as error:
            log.warning("table %s: player readings postponed (%s: %s)", state.channel_id,
                        error.code, error)
            return None
        return Exchanged({u: _reading(found.get(u)) for u in exchange.wanted},
                         frozenset(exchange.due))

    async def _save(self, state: TableState, result: Result) -> list[RatingChange]:
        channel = state.channel_id
        stored = self._stored.get(channel)
        if result.save is Save.MOVES and result.moves and stored is not None and \
                state.lifecycle == "playing" and not state.records.outbox and \
                not seeded(state):
            entries = [[seat, *action.to_json()] for seat, action in result.moves]
            if await self.db.append_to_journal(channel, entries):
                stored.append(entries)
                self.journaled += 1
                return []
        ratings: list[RatingChange] = []
        if state.lifecycle == "closed":
            ratings = await self._store(state)
            if not state.records.outbox:
                await self.db.delete_table(channel)
                self._stored.pop(channel, None)
                return ratings
        await self._save_whole(state)
        if state.records.outbox:
            # What is stored now stays in the saved outbox until the next whole save (a deal,
            # a finished hand): a restart in between stores it again, which changes nothing.
            ratings += await self._store(state)
        return ratings

    async def _save_whole(self, state: TableState) -> None:
        data = to_json(state)
        repaso = data.pop("repaso")  # kept as the table holds it: see Stored
        document = state_document(data)
        await self.db.save_table(state.channel_id, state.guild_id, _with_repaso(document, repaso))
        self._stored[state.channel_id] = Stored(document, book=state.handbook.kept())
        self.saved_whole += 1

    async def restore(self, manager: TableManager, *,
                      shards: tuple[int, Sequence[int]] | None = None) -> list[Table]:
        """Every saved table (of these shards), back in ``manager`` where it was, not resumed:
        the caller resumes each when its channel can be reached (at once, or on Discord once
        the gateway has delivered it). A state that cannot be restored stays in the database
        (logged), so a newer musbot can still take it. Everything is read before any table is
        adopted: a database lost meanwhile leaves the manager as it was, for a later attempt.
        The languages the people seated chose (``/mus idioma``) are read with them."""
        saved_tables = await (self.db.load_tables() if shards is None
                              else self.db.load_tables(shards=shards))
        built = [(saved, state) for saved in saved_tables
                 if (state := self._build(saved, manager)) is not None]
        seated = {s.user_id for _, state in built for s in state.seats
                  if s is not None and s.user_id is not None}
        forgotten = await self.db.forgotten_players(seated)
        chosen = await self.db.person_languages(seated)
        manager.speakers.loaded(seated, chosen)  # their DMs in their own language at once
        restored = []
        for saved, state in built:
            table = await self._adopt(saved, state, manager)
            if table is not None:
                restored.append(table)
        for user_id in sorted(forgotten):  # forgotten while this process was down
            await manager.forget_user(user_id)
        return restored

    def _build(self, saved: LiveTable, manager: TableManager) -> TableState | None:
        if manager.get(saved.channel_id) is not None:
            return None
        try:
            return from_json(saved.state, journal=saved.journal, kept=True,
                             shuffler=manager.shuffler, rng=manager.rng)
        except StateError:
            log.exception("table %s cannot be restored; its saved state is kept",
                          saved.channel_id)
            return None

    async def _adopt(self, saved: LiveTable, state: TableState,
                     manager: TableManager) -> Table | None:
        """The restored table in the manager (a closed one only stores its records)."""
        self._stored[saved.channel_id] = Stored(state_document(saved.state), saved.journal)
        closed = state.lifecycle == "closed"  # closed while its records could not be stored
        table = manager.adopt(state, register=not closed)
        if state.records.outbox:
            await table.store_records()
        return None if closed else table

    # --- match records ------------------------------------------------------------------------

    async def _store(self, state: TableState) -> list[RatingChange]:
        """Stores the outbox's records in order, leaving those still to store (after a
        transient error, retried with the next save or at the next start)."""
        items = state.records.outbox
        changes: list[RatingChange] = []
        channel = state.channel_id
        for i, item in enumerate(items):
            try:
                changes += await self._store_one(item, state)
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
                state.records.outbox = items[i:]
                return changes
        if channel in self._postponed:
            self._postponed.discard(channel)
            log.warning("table %s: match records stored", channel)
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


def _reading(data: Mapping[str, Any] | None) -> Reading | None:
    """A stored reading, or None when there is none or it cannot be read (a newer musbot's, a
    damaged one): the bots then start that person afresh, and the next store replaces it."""
    if data is None:
        return None
    try:
        return Reading.from_json(data)
    except ValueError:
        log.warning("a stored player reading could not be read; starting afresh")
        return None


def _seat_record(seat: dict[str, Any]) -> SeatRecord:
    if seat.get("forgotten"):
        return SeatRecord.forgotten(seat["seat"])
    if seat["user_id"] is not None:
        return SeatRecord.human(seat["seat"], seat["user_id"], seat["name"])
    return SeatRecord.robot(seat["seat"], seat["bot"])
