"""Restart safety: every live table is saved after each change and restored at start-up.

The table layer stays free of storage: a :class:`Table` calls its ``on_change`` hook (lock held)
after every applied change, and keeps the match records it produced (start, finished hands,
result) in :attr:`Table.outbox`. :class:`TablePersister` is that hook. It writes the whole state,
outbox included, atomically (``Database.save_table``, one statement on the event loop's own
connection, returning once it is committed), then stores the records; every
record call is idempotent (match key, same hand twice, a finished match), so a crash between the
two only means they are stored again from the saved outbox at the next start.

Most changes are one move within a hand (a bet, a «paso», a discard). Those are appended to the
table's journal instead (``Database.append_to_journal``: a few dozen bytes, not the 2 KB state),
and a restore replays the journal on the saved state, as the engine replays a hand's actions on
its deal. A new deal, a finished hand, a seña, anything else changed: the whole state again.

For the Discord side, from ``setup_hook`` and then ``on_ready``::

    self.persister = await start_persistence(self.db, self.tables, announce=False)
    await self.persister.announce_restored()   # on_ready: channels are reachable now
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from musbot.ai import DEFAULT_LEVEL, LEVELS, make_player
from musbot.engine import Match, Rules
from musbot.engine.cards import Card
from musbot.engine.senas import Sena
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
from .table import Seat, Table, _HandSenas
from .transport import Transport

log = logging.getLogger(__name__)

STATE_VERSION = 1
"""Version of :func:`table_state`'s format; a newer one is left in the database untouched."""

_TRANSIENT = (DatabaseLocked, DatabaseClosed, CorruptDatabase, OSError)
"""Failures worth retrying later: the records stay in the outbox."""


class SeededShuffler:
    """A reproducible shuffler whose position is saved with the table, so a restored table deals
    the decks the uninterrupted one would have: tests and ``--seed`` demos, never real tables
    (those use the engine's ``secure_shuffle``, and nothing about it is saved)."""

    def __init__(self, seed: int | str, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws
        """How many decks it has shuffled: deck ``n`` depends only on the seed and ``n``."""

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        rng = random.Random(f"{self.seed}/{self.draws}")
        self.draws += 1
        return rng.sample(list(cards), len(cards))

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "draws": self.draws}


class StateError(ValueError):
    """A saved table state this musbot cannot restore (newer format, damaged document)."""


# --- the state document ----------------------------------------------------------------------


def table_state(table: Table) -> dict[str, Any]:
    """Everything needed to put the table back exactly as it is: JSON-able, private (cards)."""
    senas = table._senas
    shuffler = table.shuffler
    return {
        "version": STATE_VERSION,
        "channel_id": table.channel_id,
        "guild_id": table.guild_id,
        "opener_id": table.opener_id,
        "league_id": table.league_id,
        "rules": table.rules.to_dict(),
        "state": table.state,
        "seats": [None if s is None else _seat_state(s) for s in table.seats],
        "first_mano": table.first_mano,
        "lang": table.lang,
        "turn_seconds": table.turn_seconds,
        "bot_level": table.bot_level,
        "bots_alone": table.bots_alone,
        "turn": table._turn,
        "senas": {
            "sent": [[seat, sorted(s.value for s in sent)] for seat, sent in senas.sent.items()],
            "received": [[seat, [[sender, sena.value, caught] for sender, sena, caught in got]]
                         for seat, got in senas.received.items()],
        },
        "rng": _rng_state(table),
        "shuffler": shuffler.to_dict() if isinstance(shuffler, SeededShuffler) else None,
        "match": None if table.match is None else table.match.snapshot(),
        "match_info": table.match_info,
        "outbox": table.outbox,
    }


def _rng_state(table: Table) -> list[Any] | None:
    """The table's random state, only where a restored table must go on exactly as before: a
    seeded one (tests, ``--seed`` demos). A real table deals with ``secure_shuffle``, which is
    not saved either, so its bots and caught señas may as well start from fresh randomness, and
    the 625 numbers of the generator (7 KB, three quarters of the state) are not rewritten
    after every action."""
    if not isinstance(table.shuffler, SeededShuffler):
        return None
    version, internal, gauss = table.rng.getstate()
    return [version, list(internal), gauss]


def _seat_state(seat: Seat) -> dict[str, Any]:
    return {"name": seat.name, "user_id": seat.user_id, "level": seat.level, "away": seat.away,
            "expiries": seat.expiries, "dm_warned": seat.dm_warned}


def table_from_state(state: dict[str, Any], transport: Transport, *,
                     journal: Sequence[Any] = (), **options: Any) -> Table:
    """The table :func:`table_state` saved, with the moves of its ``journal`` (see
    :meth:`TablePersister.save`) played again. ``options`` are the manager's (clock,
    bot_delay, hooks); the saved settings win over them. Raises :class:`StateError`."""
    if state.get("version") != STATE_VERSION:
        raise StateError(f"unknown table state version {state.get('version')!r}")
    try:
        return _build(_with_journal(state, journal), transport, options)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise StateError(f"damaged table state: {exc!r}") from exc


def _journaled(table: Table) -> bool:
    """Whether a move may go to the journal: not at a seeded table, whose random generator is
    saved with its state (see :func:`_rng_state`) and moves on with every bot's decision."""
    return not isinstance(table.shuffler, SeededShuffler)


def _with_journal(state: dict[str, Any], journal: Sequence[Any]) -> dict[str, Any]:
    """The state with the journal's moves added to its hand's actions (the engine replays
    them, checking each) and to the table's turn count; the saved document is not changed."""
    if not journal:
        return state
    if state["state"] != "playing" or state["match"] is None:
        raise ValueError("a journal without a match in play")
    match = state["match"]
    hand = {**match["hand"], "actions": [*match["hand"]["actions"], *journal]}
    return {**state, "match": {**match, "hand": hand}, "turn": int(state["turn"]) + len(journal)}


def _build(state: dict[str, Any], transport: Transport, options: dict[str, Any]) -> Table:
    options.pop("rng", None)
    rng = random.Random()
    if state["rng"] is not None:
        version, internal, gauss = state["rng"]
        rng.setstate((version, tuple(internal), gauss))
    if state.get("shuffler") is not None:
        options["shuffler"] = SeededShuffler(state["shuffler"]["seed"],
                                             state["shuffler"]["draws"])
    for key in ("first_mano", "lang", "turn_seconds", "bot_level", "bots_alone", "guild_id",
                "league_id"):
        options[key] = state[key]
    options["opener_id"] = state.get("opener_id")
    if options["bot_level"] not in LEVELS:
        options["bot_level"] = DEFAULT_LEVEL
    table = Table(int(state["channel_id"]), transport, rules=Rules.from_dict(state["rules"]),
                  rng=rng, **options)
    table.seats = [None if s is None else _seat(s, table.bot_level) for s in state["seats"]]
    if len(table.seats) != table.players:
        raise ValueError("seats do not match the rules")
    if state["match"] is not None:
        table.match = Match.restore(state["match"], shuffler=table.shuffler)
    table.state = state["state"]
    if table.state not in ("waiting", "playing", "finished", "closed") or \
            (table.state == "playing" and table.match is None):
        raise ValueError(f"bad table state {table.state!r}")
    table._turn = int(state["turn"])
    senas = _HandSenas()
    for seat, sent in state["senas"]["sent"]:
        senas.sent[int(seat)] = {Sena(v) for v in sent}
    for seat, got in state["senas"]["received"]:
        senas.received[int(seat)] = [(int(s), Sena(v), bool(c)) for s, v, c in got]
    table._senas = senas
    table.match_info = state["match_info"]
    table.outbox = list(state["outbox"])
    return table


def _seat(data: dict[str, Any], default_level: str) -> Seat:
    level = data.get("level")
    seat = Seat(name=str(data["name"]), user_id=data["user_id"], away=bool(data["away"]),
                expiries=int(data["expiries"]), dm_warned=bool(data["dm_warned"]), level=level)
    if seat.user_id is None:
        seat.level = level if level in LEVELS else default_level
        seat.bot = make_player(seat.level)
    return seat


# --- the service -----------------------------------------------------------------------------


class TablePersister:
    """Saves a manager's tables into a :class:`Database` and brings them back after a restart."""

    def __init__(self, db: Database, manager: TableManager) -> None:
        self.db = db
        self.manager = manager
        self._match_ids: dict[str, int] = {}
        self._unannounced: list[Table] = []
        self.journaled = 0
        """Saves that were journal entries, and saves of a whole state (``musbot bench``)."""
        self.saved_whole = 0

    def attach(self) -> None:
        """Every table the manager opens from now on is saved after each change."""
        self.manager.on_change = self.save

    async def save(self, table: Table) -> None:
        """The tables' ``on_change`` hook: the moves in the table's journal, or else the state in
        one transaction, then the records. A closed table's row is deleted once its records are
        stored."""
        moves = table.take_moves()
        if moves and table.state == "playing" and not table.outbox and _journaled(table):
            entries = [[seat, *action.to_json()] for seat, action in moves]
            if await self.db.append_to_journal(table.channel_id, entries):
                self.journaled += 1
                return
        if table.state == "closed":
            table.outbox = await self._store(table.outbox, table)
            if not table.outbox:
                await self.db.delete_table(table.channel_id)
                return
        await self.db.save_table(table.channel_id, table.guild_id, table_state(table))
        self.saved_whole += 1
        if table.outbox:
            table.outbox = await self._store(table.outbox, table)
            table.mark_changed()  # the emptier outbox goes with the next save

    async def restore_all(self, *, announce: bool = True) -> list[Table]:
        """Every saved table, back in the manager where it was, timers restarted and (with
        ``announce``) «mesa restaurada» said in its channel. A state that cannot be restored
        stays in the database (logged), so a newer musbot can still take it."""
        restored = []
        for saved in await self.db.load_tables():
            table = await self._restore(saved)
            if table is not None:
                restored.append(table)
        for table in restored:
            await table.resume(announce=announce)
        self._unannounced = [] if announce else restored
        return restored

    async def announce_restored(self) -> int:
        """Says «mesa restaurada» at the tables :meth:`restore_all` restored silently, once;
        returns how many. For Discord: from ``on_ready``, when channels can be reached."""
        tables, self._unannounced = self._unannounced, []
        for table in tables:
            await table.announce_restored()
        return len(tables)

    async def _restore(self, saved: LiveTable) -> Table | None:
        if self.manager.get(saved.channel_id) is not None:
            return None
        try:
            table = table_from_state(saved.state, self.manager.transport,
                                     journal=saved.journal, **self.manager.table_options())
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
        return table

    async def forget_user(self, user_id: int) -> int:
        """Scrubs the user's name from every live table (privacy, ``/mus olvidarme``); returns
        how many tables held it. Their seat is kept, under a neutral name."""
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
                await self.db.record_hand(match_id, int(item["number"]), item["transcript"],
                                          item["result"])
            elif kind == "finish":
                changes = await self.db.record_finished_match(
                    match_id, int(item["winner"]), final_score=item["summary"],
                    rated=bool(item.get("rated", True)))
                if changes:
                    await self._announce_ratings(table, changes)
            elif kind == "abandon":
                await self.db.abandon_match(match_id)
        except MatchFinished:
            pass  # stored before a crash, and the match closed since: nothing left to do

    async def _match_id(self, info: dict[str, Any], table: Table) -> int:
        key = str(info["key"])
        if key not in self._match_ids:
            seats = [SeatRecord.human(s["seat"], s["user_id"], s["name"])
                     if s["user_id"] is not None else SeatRecord.robot(s["seat"], s["bot"])
                     for s in info["seats"]]
            self._match_ids[key] = await self.db.start_match(
                seats, rules=info["rules"], channel_id=table.channel_id,
                guild_id=table.guild_id, league_id=info["league_id"], key=key)
        return self._match_ids[key]

    async def _announce_ratings(self, table: Table, changes: Sequence[Any]) -> None:
        names = {s.user_id: s.name for s in table.seats if s is not None}
        parts = [render.t("rating_change", table.lang, name=names.get(c.user_id, "?"),
                          before=c.before, after=c.after, delta=c.delta) for c in changes]
        await table._public(render.t("ratings", table.lang, list=", ".join(parts)))


async def start_persistence(db: Database, manager: TableManager, *,
                            announce: bool = True) -> TablePersister:
    """The one call for start-up: saves every table from now on and restores the saved ones.
    On Discord call it from ``setup_hook`` with ``announce=False`` (channels cannot be reached
    before the gateway is ready), then ``await persister.announce_restored()`` in ``on_ready``."""
    persister = TablePersister(db, manager)
    persister.attach()
    await persister.restore_all(announce=announce)
    return persister
