"""The bots of one table: when they play, what they decide, what they learn.

A bot sees only its seat's view and the señas that reached it (``musbot.ai``). With a think
time (Discord: people follow the moves) a bot plays from a task of its own, and plays only if the
turn is still the one it thought about. A level whose decisions take milliseconds («dificil»,
``heavy``) thinks in a worker thread with the table's lock released, so neither the event loop
nor the table waits for it (people may still ask for their cards or send señas meanwhile).
Without a think time (tests, the terminal) bots answer within the move that handed them the turn.

What the bots learn of the players — how each bets, read from the showdowns — is the table's
:class:`~musbot.ai.reading.OpponentMemory` (:attr:`Bots.memory`): it lasts across the matches
played at this table, people's readings are kept per server through :meth:`Bots.exchange`
(``persist.py`` calls it after saving the table), and ``/mus olvidarme`` erases them
(:meth:`Bots.forget`). Bots' readings live in memory only: a restored table relearns them.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from musbot.ai import make_player
from musbot.ai.base import Player, SenaSeen, ask, hand_over, heavy
from musbot.ai.reading import OpponentMemory, OpponentModel, Reading
from musbot.engine import Action, Hand, MusError, SeatView

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)


class ReadingStore(Protocol):
    """Where people's readings are kept per server (:class:`musbot.storage.Database`)."""

    async def player_readings(self, guild_id: int,
                              user_ids: Iterable[int]) -> dict[int, dict[str, Any]]: ...

    async def save_player_readings(self, guild_id: int,
                                   readings: Mapping[int, Mapping[str, Any]]) -> None: ...


class _Question(NamedTuple):
    """Everything a decision reads, taken under the table's lock: frozen, so it may be thought
    about in another thread."""

    seat: int
    player: Player
    view: SeatView
    rng: random.Random
    senas: tuple[SenaSeen, ...]
    models: tuple[OpponentModel, ...]

    def answer(self) -> Action:
        return ask(self.player, self.view, self.rng, self.senas, self.models)


class Bots:
    """Every bot seat of one table, and people's seats while a bot plays them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._task: asyncio.Task[None] | None = None
        self.memory = OpponentMemory()
        """How each player who sat here bets, as the showdowns told (see the module)."""
        self._bot_spoke: set[int] = set()
        """People's seats a bot played a turn of in this hand: those words were not theirs."""
        self._seated: list[str | None] | None = None
        """Who sat where when this hand was dealt (None: not known, a match just began)."""
        self._unstored: set[int] = set()
        """People who asked to be forgotten while seated here: never stored from this table."""

    # --- deciding -----------------------------------------------------------------------------

    def decide(self, seat: int) -> Action:
        """The seat's bot move, thought about here and now (no think time, or the lock held)."""
        self._bot_spoke.add(seat)
        return self._question(seat, self.table.rng).answer()

    async def think(self, seat: int) -> Action:
        """:meth:`decide` for a caller holding the lock on the event loop: a heavy level thinks
        in a worker thread meanwhile (the turn cannot change, the lock is held)."""
        question = self._question(seat, self.table.rng)
        self._bot_spoke.add(seat)
        if not heavy(question.player):
            return question.answer()
        return await asyncio.to_thread(self._own_rng(question).answer)

    def _question(self, seat: int, rng: random.Random) -> _Question:
        table = self.table
        match = table._require_match()
        occupant = table.seats[seat]
        player = occupant.bot if occupant is not None and occupant.bot is not None else None
        player = player or make_player(table.bot_level)
        return _Question(seat, player, match.view(seat), rng, tuple(table.senas.seen_by(seat)),
                         self.memory.models(self.who()))

    def _own_rng(self, question: _Question) -> _Question:
        """The question with a generator of its own, drawn from the table's: a thread must not
        share the table's generator with the event loop."""
        return question._replace(rng=random.Random(question.rng.random()))

    def who(self) -> list[str | None]:
        """Whose reading each seat's words are: the person's, or the seat's bot's (a bot
        playing for an absent person is that bot)."""
        table = self.table
        keys: list[str | None] = []
        for seat, occupant in enumerate(table.seats):
            if occupant is None:
                keys.append(None)
            elif occupant.user_id is not None and not occupant.away:
                keys.append(OpponentMemory.person(occupant.user_id))
            else:
                level = occupant.level if occupant.user_id is None else table.bot_level
                keys.append(f"bot:{seat}:{level}")
        return keys

    def schedule(self) -> None:
        """A bot's turn, played after its think time (lock held by the caller)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._turn(self.table.turn))

    async def _turn(self, turn: int) -> None:
        table = self.table
        try:
            await table.clock.sleep(table.bot_delay)
            async with table._lock:
                seat = self._bot_to_play(turn)
                if seat is None:
                    self._finished()
                    return
                question = self._question(seat, table.rng)
                if not heavy(question.player):
                    self._finished()
                    self._bot_spoke.add(seat)
                    await table._advance(table._apply(seat, question.answer()))
                    return
                question = self._own_rng(question)
            action = await asyncio.to_thread(question.answer)
            async with table._lock:
                self._finished()
                if self._bot_to_play(turn) != seat:
                    return  # the table moved on while the bot thought: its move is stale
                self._bot_spoke.add(seat)
                await table._advance(table._apply(seat, action))
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the table down: the clock still runs
            log.exception("bot move failed on table %s", table.channel_id)

    def _bot_to_play(self, turn: int) -> int | None:
        """The seat whose bot is to play ``turn``, if that is still the table's turn."""
        table = self.table
        match = table.match
        if turn != table.turn or table.state != "playing" or match is None:
            return None
        seat = match.to_act
        occupant = table.seats[seat] if seat is not None else None
        if seat is None or occupant is None or not occupant.bot_plays:
            return None
        return seat

    def _finished(self) -> None:
        """This task no longer holds the turn: the next bot move may schedule its own."""
        if self._task is asyncio.current_task():
            self._task = None

    def cancel(self) -> None:
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    # --- learning -----------------------------------------------------------------------------

    def hand_over(self, hand: Hand, number: int) -> None:
        """Bots that learn from showdowns (``hand_over``, see :class:`~musbot.ai.Player`) get
        their own seat's view of the hand just ended, as a person at the table sees it; the
        table's memory learns from what the hand showed everybody."""
        table = self.table
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.bot is None:
                continue
            try:
                hand_over(occupant.bot, hand, seat, number)
            except Exception:  # a bot's bookkeeping must never stop the table
                log.exception("bot hand_over failed on table %s", table.channel_id)
        now = self.who()
        before = self._seated if self._seated is not None else now
        speakers: list[str | None] = []
        for seat, (key, then) in enumerate(zip(now, before, strict=True)):
            person = key is not None and key.startswith("user:")
            # A seat that changed hands, or a person's seat a bot spoke for: nobody's words.
            mixed = key != then or (person and seat in self._bot_spoke)
            speakers.append(None if mixed else key)
        try:
            self.memory.learn(hand.view(-1), speakers)
        except Exception:
            log.exception("learning from a hand failed on table %s", table.channel_id)
        self._bot_spoke.clear()
        self._seated = now

    def forget(self, user_id: int) -> None:
        """«Forget me»: the bots forget how this person bets, and this table never stores it
        again."""
        self.memory.forget(user_id)
        self._unstored.add(user_id)

    async def exchange(self, store: ReadingStore) -> None:
        """Fetches the stored readings of the people seated (this server's) that the memory
        lacks, and stores those it learnt more of since. Storage errors reach the caller; what
        could not be done is tried again at the next call."""
        guild_id = self.table.guild_id
        if guild_id is None:
            return  # no server to keep them for (the terminal, DMs)
        memory = self.memory
        wanted = [u for u in memory.wanted(self.table.humans()) if u not in self._unstored]
        if wanted:
            found = await store.player_readings(guild_id, wanted)
            for user_id in wanted:
                memory.fetched(user_id, _reading(found.get(user_id)))
        due = {u: r for u, r in memory.due().items() if u not in self._unstored}
        if due:
            await store.save_player_readings(guild_id, {u: r.to_json() for u, r in due.items()})
            memory.stored(due)

    # --- señas --------------------------------------------------------------------------------

    async def send_senas(self) -> bool:
        """The bots' señas on new cards; True if any was sent (the table's state changed)."""
        table = self.table
        match = table.match
        if match is None or not table.senas_open():
            return False
        sent = False
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.human or occupant.bot is None:
                continue
            for sena in occupant.bot.choose_senas(match.view(seat), table.rng):
                try:
                    table._check_sena(seat, sena)
                except MusError:
                    continue
                await table._deliver_sena(seat, sena)
                sent = True
        return sent


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
