"""What a table's bots learn of its players, as part of the table's state (pure, no I/O).

A :class:`TableReadings` holds the table's :class:`~musbot.ai.memory.OpponentMemory`: how each
player who sat here bets, read from the showdowns (``musbot.ai.reading``). It lives in the
:class:`~musbot.table.state.TableState`, so it lasts across the matches played at the table;
the decisions of a level that reads the table («dificil») get each seat's model from it.

Whose words a seat's are: a person's (``user:ID``), or the seat's bot's (``bot:SEAT:LEVEL``; a
bot standing in for an absent person is that bot). A hand teaches nothing of a seat that changed
hands during it, nor of a person whose turn a bot played (the clock ran out): those words were
not theirs. A hand in play when the table was restored teaches nothing either (who spoke for
whom before the restart is not saved).

People's readings are kept per server, in storage: the persister fetches a person's once they
sit at one of the server's tables and stores what the table learnt since, every few hands
(:meth:`TableReadings.exchange`, then :meth:`TableReadings.settle` with what it did). The
readings of the bots seated now are saved with the table's state (:meth:`TableReadings.bots`),
so a restored table's bots are read as before the restart. ``/mus olvidarme`` erases a
person's reading here (:meth:`TableReadings.forget`), and this table never stores one of them
again, even if they play on at it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from musbot.ai import make_player
from musbot.ai.base import Player, SenaSeen, ask, heavy
from musbot.ai.memory import OpponentMemory
from musbot.ai.reading import OpponentModel, Reading
from musbot.engine import Action, SeatView

from .seats import Seat

if TYPE_CHECKING:
    from .state import TableState

__all__ = ["STORE_EVERY", "Exchange", "Exchanged", "Question", "TableReadings", "question"]

log = logging.getLogger(__name__)

STORE_EVERY = 4
"""Hands that teach something of a seated person between two stores of their reading, while
their match goes on: a store is a write of every such reading, and a hand adds a few words to
hundreds. It is stored at once when they leave, when the match ends or the table closes, and
when the bot stops (:meth:`~musbot.table.persist.TablePersister.store_readings`); a crash
loses at most the hands since the last store."""


@dataclass(frozen=True, slots=True)
class Question:
    """Everything one bot decision reads, taken from the table's state: frozen, so it may be
    thought about in a worker thread while the table goes on (see ``runner.py``)."""

    seat: int
    player: Player
    view: SeatView
    rng: random.Random
    senas: tuple[SenaSeen, ...]
    models: tuple[OpponentModel, ...]

    @property
    def heavy(self) -> bool:
        """The decision takes milliseconds: a table thinks it off its event loop."""
        return heavy(self.player)

    def answer(self) -> Action:
        return ask(self.player, self.view, self.rng, self.senas, self.models)

    def on_its_own(self) -> Question:
        """The question with a random generator of its own, drawn from the table's: a worker
        thread must not share the table's generator with the event loop."""
        return Question(self.seat, self.player, self.view, random.Random(self.rng.random()),
                        self.senas, self.models)


@dataclass(frozen=True, slots=True)
class Exchange:
    """What a table asks of storage for its people's readings at its server: those to fetch,
    and those to store (as JSON documents)."""

    guild_id: int
    wanted: tuple[int, ...]
    due: Mapping[int, Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Exchanged:
    """What storage did of an :class:`Exchange`: the readings fetched (None: none stored, or one
    that could not be read) and the people whose reading was stored."""

    fetched: Mapping[int, Reading | None] = field(default_factory=dict)
    stored: frozenset[int] = frozenset()


def question(state: TableState, seat: int) -> Question:
    """What the seat's bot decides from: its view, the señas it got, the table's generator, and
    how the table read each player."""
    occupant = state.seats[seat]
    player = occupant.bot if occupant is not None and occupant.bot is not None else \
        make_player(state.settings.bot_level)
    return Question(seat, player, state.require_match().view(seat), state.rng,
                    tuple(state.senas.seen_by(seat)),
                    state.readings.models(state.seats, state.settings.bot_level))


def seat_key(seat: int, occupant: Seat | None, bot_level: str) -> str | None:
    """Whose words the seat's are (see the module)."""
    if occupant is None:
        return None
    if occupant.user_id is not None and not occupant.away:
        return OpponentMemory.person(occupant.user_id)
    level = occupant.level if occupant.user_id is None and occupant.level else bot_level
    return f"bot:{seat}:{level}"


class TableReadings:
    """A table's readings of its players, and what is needed to learn them right."""

    __slots__ = ("dealt_to", "memory", "spoke_for", "unstored")

    def __init__(self, memory: OpponentMemory | None = None) -> None:
        self.memory = memory or OpponentMemory()
        self.dealt_to: list[str | None] | None = None
        """Whose words each seat's were when the hand in play was dealt (None: not known, a
        table restored mid-hand: that hand teaches nothing)."""
        self.spoke_for: set[int] = set()
        """People's seats a bot played a turn of in this hand."""
        self.unstored: set[int] = set()
        """People who asked to be forgotten while seated here: never stored from this table
        (saved with the table while they sit)."""

    @staticmethod
    def who(seats: Sequence[Seat | None], bot_level: str) -> list[str | None]:
        return [seat_key(i, s, bot_level) for i, s in enumerate(seats)]

    def models(self, seats: Sequence[Seat | None], bot_level: str
               ) -> tuple[OpponentModel, ...]:
        return self.memory.models(self.who(seats, bot_level))

    # --- learning -----------------------------------------------------------------------------

    def dealt(self, seats: Sequence[Seat | None], bot_level: str) -> None:
        """A new hand: who speaks for each seat now."""
        self.dealt_to = self.who(seats, bot_level)
        self.spoke_for = set()

    def bot_spoke(self, seat: int, occupant: Seat | None) -> None:
        """A bot played the seat's turn; a person's seat then teaches nothing of them this hand."""
        if occupant is not None and occupant.user_id is not None:
            self.spoke_for.add(seat)

    def learn(self, public: SeatView, seats: Sequence[Seat | None], bot_level: str) -> None:
        """The hand just finished, as a spectator saw it (``public``: the view of seat -1)."""
        before, self.dealt_to = self.dealt_to, None
        if before is None:
            return
        speakers: list[str | None] = []
        for seat, (now, then) in enumerate(zip(self.who(seats, bot_level), before,
                                               strict=True)):
            speakers.append(None if now != then or seat in self.spoke_for else now)
        try:
            self.memory.learn(public, speakers)
        except Exception:  # the bots' bookkeeping must never undo a move the engine applied
            log.exception("the table's readings could not learn from a hand")

    def forget(self, user_id: int, *, seated: bool) -> bool:
        """«Forget me»: the bots forget how this person bets, and, while they sit here, this
        table never stores it again (a person who sits down afresh is a player again). Whether
        anything of theirs was here."""
        known = OpponentMemory.person(user_id) in self.memory.readings
        self.memory.forget(user_id)
        if seated:
            self.unstored.add(user_id)
        return known

    # --- storage ------------------------------------------------------------------------------

    def exchange(self, guild_id: int | None, people: Sequence[int], *,
                 playing: bool = False) -> Exchange | None:
        """What storage is to do for the people seated now, or None (nothing; or no server to
        keep readings for: the terminal). While the match is ``playing``, a seated person's
        reading is stored every :data:`STORE_EVERY` hands; anyone else's at once."""
        if guild_id is None:
            return None
        memory = self.memory
        wanted = tuple(u for u in memory.wanted(people) if u not in self.unstored)
        due = {u: r.to_json() for u, r in memory.due(people if playing else (),
                                                     STORE_EVERY).items()
               if u not in self.unstored}
        if not wanted and not due:
            return None
        return Exchange(guild_id, wanted, due)

    def settle(self, done: Exchanged) -> None:
        """What storage did (:meth:`exchange`): readings fetched join what was learnt here."""
        for user_id, reading in done.fetched.items():
            if user_id not in self.unstored:
                self.memory.fetched(user_id, reading)
        self.memory.stored(done.stored)

    # --- the table's saved state ----------------------------------------------------------------

    def to_json(self, seated: Sequence[int]) -> list[int]:
        """What the table's saved state keeps: who of the people seated is never stored."""
        return sorted(u for u in self.unstored if u in seated)

    def bots(self, seats: Sequence[Seat | None], bot_level: str) -> dict[str, Any]:
        """What the table's saved state keeps of its readings: those of the bots seated now
        (numbers only; people's are kept by their server, see :meth:`exchange`)."""
        memory = self.memory
        return {who: memory.readings[who].to_json() for who in self.who(seats, bot_level)
                if who is not None and not OpponentMemory.is_person(who)
                and who in memory.readings}

    @classmethod
    def from_json(cls, data: Any, bots: Any = None) -> TableReadings:
        """A restored table's (a hand in play then teaches nothing: see the module): who is
        never stored, and the seated bots' readings (:meth:`bots`). A bot's reading that
        cannot be read is relearnt (logged), a person's is not taken from the table's state,
        and neither keeps the table from being restored."""
        readings = cls()
        if isinstance(data, list):
            readings.unstored = {int(u) for u in data}
        if isinstance(bots, dict):
            for who, document in bots.items():
                if not isinstance(who, str) or OpponentMemory.is_person(who):
                    log.warning("a table's saved readings held a person's; left out")
                    continue
                try:
                    readings.memory.readings[who] = Reading.from_json(document)
                except ValueError as exc:
                    log.warning("a bot's saved reading could not be read; relearnt (%s)", exc)
        return readings
