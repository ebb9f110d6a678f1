"""Every live table of a bot process: one per channel, many at once."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator, Mapping

from musbot.engine import Shuffler, secure_shuffle
from musbot.i18n import TABLE
from musbot.settings import TableSettings

from .clock import Clock
from .entry import Entry
from .languages import Speakers
from .notice import MatchNotice
from .runner import Persist, Table
from .seats import TableError
from .state import TableState
from .transport import Transport

log = logging.getLogger(__name__)

Listener = Callable[[Table, MatchNotice], None]
"""Who hears a tournament match table's notices (:meth:`TableManager.subscribe`)."""


class TableManager:
    """The registry the adapters talk to: find, open and close the table of a channel. Every
    table it holds runs with its ``clock``, ``bot_delay`` and ``persist``."""

    def __init__(self, transport: Transport, *, clock: Clock | None = None,
                 bot_delay: float = 0.0, persist: Persist | None = None,
                 shuffler: Shuffler = secure_shuffle, rng: random.Random | None = None,
                 first_mano: int | None = None, speakers: Speakers | None = None) -> None:
        self.transport = transport
        self.clock = clock
        self.bot_delay = bot_delay
        self.persist = persist
        self.shuffler = shuffler
        """How its tables deal (restored ones too, where their state keeps no shuffler of its
        own): ``secure_shuffle`` but in tests and benchmarks."""
        self.rng = rng
        """Its tables' random generator (None: one of their own each)."""
        self.first_mano = first_mano
        self.speakers = speakers or Speakers()
        """Each person's own language, shared by its tables (``languages.py``)."""
        self._tables: dict[int, Table] = {}
        self._listeners: list[Listener] = []
        self._reserved: dict[int, str] = {}
        """Channel id → the tournament match whose table alone may be played there."""

    def get(self, channel_id: int) -> Table | None:
        return self._tables.get(channel_id)

    def open(self, channel_id: int, settings: TableSettings | None = None, *,
             guild_id: int | None = None, opener_id: int | None = None,
             league_id: int | None = None, bots_alone: bool = False,
             shuffler: Shuffler | None = None, rng: random.Random | None = None,
             first_mano: int | None = None, entrants: Mapping[int, int] | None = None,
             given_games: tuple[int, int] = (0, 0), match: str = "") -> Table:
        """A new table in the channel; refused if one is live there, or if the channel is a
        tournament match's place (:meth:`reserve`) and this is not that match's table. It
        deals with the manager's ``shuffler``, ``rng`` and first mano unless given its own (a
        benchmark's)."""
        if channel_id in self._tables:
            raise TableError("table_exists")
        reserved = self._reserved.get(channel_id)
        if reserved is not None and (not entrants or match != reserved):
            raise TableError("place_reserved")
        state = TableState(channel_id, settings, guild_id=guild_id, opener_id=opener_id,
                           league_id=league_id, bots_alone=bots_alone,
                           first_mano=self.first_mano if first_mano is None else first_mano,
                           rng=rng or self.rng, shuffler=shuffler or self.shuffler,
                           kept=self.persist is not None,
                           entry=Entry.of(entrants, given_games, match))
        return self.adopt(state)

    def reserve(self, channel_id: int, match: str) -> None:
        """The channel is a tournament match's place (``match``: its key, as in
        :attr:`Entry.match`): no other table opens there, so nothing else can decide it."""
        self._reserved[channel_id] = match

    def reserved(self, channel_id: int) -> str | None:
        return self._reserved.get(channel_id)

    def adopt(self, state: TableState, *, register: bool = True) -> Table:
        """Runs a table whose state was made elsewhere (restored from the database); one not
        ``register``ed is not found by its channel (a closed table that only stores what its
        last match left)."""
        if state.channel_id in self._tables:
            raise TableError("table_exists")
        table = Table(state, self.transport, clock=self.clock, bot_delay=self.bot_delay,
                      persist=self.persist, on_close=self._forget, on_recovered=self._recovered,
                      on_notice=self._tell, speakers=self.speakers)
        if register:
            self._tables[state.channel_id] = table
        return table

    def subscribe(self, listener: Listener) -> None:
        """``listener(table, notice)`` hears each notice of a tournament match's table
        (``notice.py``: built under the table's lock from what it has just saved and shown;
        the listener must not wait on the table): a match begun, a match over, a table
        closed, out of reach or back (:meth:`Table.hide`). What runs tournaments hears of its
        tables so, and reads nothing else of them."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _tell(self, table: Table, notice: MatchNotice) -> None:
        for listener in list(self._listeners):
            try:
                listener(table, notice)
            except Exception:  # a listener's bug must not undo a move already saved and shown
                log.exception("a listener of table %s failed", table.channel_id)

    def _recovered(self, saved: Table) -> None:
        """The database takes saves again: the paused tables need not wait their turn."""
        for table in self._tables.values():
            if table is not saved:
                table.retry_now()

    def tables_of(self, user_id: int) -> list[Table]:
        """The open tables where the user sits, in the order they were opened."""
        return [t for t in self._tables.values()
                if t.lifecycle != "closed" and t.seat_of(user_id) is not None]

    def table_for(self, user_id: int) -> tuple[Table | None, bool]:
        """Where a command sent by DM goes, for someone who may sit at several tables: the table
        waiting for them (their turn), else one with a match in play, else the last opened. The
        second value says whether they sit at another table too, so the answer can name it."""
        seated = self.tables_of(user_id)
        if not seated:
            return None, False
        playing = [t for t in seated if t.lifecycle == "playing"]
        waiting = [t for t in playing if t.state.awaits(user_id)]
        chosen = waiting[0] if waiting else playing[0] if playing else seated[-1]
        return chosen, len(seated) > 1

    async def close(self, channel_id: int, reason: str = "closed", *,
                    unless: Callable[[], bool] | None = None, **params: object) -> bool:
        """Closes the channel's table for good, its page saying why (see :meth:`Table.close`);
        whether it closed."""
        table = self._tables.get(channel_id)
        if table is None:
            raise TableError("no_table")
        await table.close(reason, unless=unless, **params)
        if table.lifecycle != "closed":
            return False
        self._tables.pop(channel_id, None)
        return True

    async def close_all(self) -> None:
        """Close every table for good (with persistence, their saved states are deleted too);
        for a restart use :meth:`suspend_all`."""
        for channel_id in list(self._tables):
            await self.close(channel_id)

    def suspend_all(self) -> None:
        """Clean shutdown before a restart: stop every clock and bot, keep every table as
        saved."""
        for table in self._tables.values():
            table.suspend()

    async def forget_user(self, user_id: int) -> int:
        """Scrubs the user from every live table (privacy, ``/mus olvidarme``); returns how many
        tables held them. A seat they still hold is kept, under a neutral name; their language
        is forgotten too."""
        self.speakers.forget(user_id)
        count = 0
        for table in self:
            seat = table.seat_of(user_id)
            name = TABLE("forgotten_name", table.lang, seat=(seat or 0) + 1)
            if await table.scrub_user(user_id, name):
                count += 1
        return count

    def _forget(self, table: Table) -> None:
        if self._tables.get(table.channel_id) is table:
            del self._tables[table.channel_id]

    def __len__(self) -> int:
        return len(self._tables)

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._tables.values()))


__all__ = ["TableManager"]
