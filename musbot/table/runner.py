"""The one runner of a table: it alone changes the table's :class:`TableState`, under one lock,
and does every bit of the table's I/O in one order: apply a command, save what it changed, then
publish it (the page, each person's private news), then let the bots play and time the person
to act. Two commands that race (two players, or a player and the clock) run one after the other
against the state the first one left; nothing is shown that is not saved.

Bots think for ``bot_delay`` seconds (people follow the moves) in a task of their own, outside
the lock, and play only if the turn is still the one they thought about; with no delay (tests,
the terminal) they answer within the command that handed them the turn. A heavy level
(«dificil») thinks in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from musbot.coach.reviewer import REVIEWER, Reviewer
from musbot.engine import Action, MusError
from musbot.engine.senas import Sena

from . import clockwork, entry, halts, lobby, typed_words, upkeep
from .alarm import Alarm
from .clock import Clock, RealClock
from .languages import Speakers
from .notice import MatchNotice, notice_of
from .pause import Backoff, NotSaved, Unsaved
from .publish import publish
from .readings import question as bot_question
from .result import Persist, Result, Save, Saved, Typed
from .saved import reloaded
from .state import Lifecycle, TableState
from .transport import Transport
from .view import TableView

log = logging.getLogger(__name__)


class Table(TableView):
    """A live table: its state, and the runner that alone changes it (what anyone may read of
    it: :class:`~.view.TableView`). Public coroutines take the lock and raise the state's
    refusals (:class:`~musbot.engine.MusError`)."""

    def __init__(self, state: TableState, transport: Transport, *, clock: Clock | None = None,
                 bot_delay: float = 0.0, persist: Persist | None = None,
                 on_close: Callable[[Table], None] | None = None,
                 on_recovered: Callable[[Table], None] | None = None,
                 on_notice: Callable[[Table, MatchNotice], None] | None = None,
                 speakers: Speakers | None = None) -> None:
        self.state = state
        self.transport = transport
        self.clock: Clock = clock or RealClock()
        self.bot_delay = bot_delay
        """Seconds a bot «thinks» before speaking; 0: bots answer at once."""
        self.persist = persist
        self.speakers = speakers or Speakers()
        """Each person's own language, for what only they read (:meth:`lang_for`)."""
        self._on_close = on_close
        self._on_recovered = on_recovered
        self._on_notice = on_notice or (lambda _table, _notice: None)
        self._lifecycle_told: Lifecycle = state.lifecycle  # on_notice hears it once saved
        self.notice: MatchNotice | None = notice_of(state)
        """A tournament match table's last notice (``notice.py``): what it saved and showed
        last; None at a table no tournament set."""
        self._lock = asyncio.Lock()
        self._alarm = Alarm(self.clock, self._ring)
        self._bot: asyncio.Task[None] | None = None
        self._retries = Backoff(self.clock, self._lock, self._try_again)
        """While paused: the next attempt to save (``pause.py``)."""
        self._records = Backoff(self.clock, self._lock, self._store_records)
        """While match records wait in the outbox: the next save, which stores them."""
        self._paused_since: float | None = None

    # --- commands -----------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, pair: int | None = None) -> int:
        """Sits a person; mid-match they take over a bot's seat. Returns the seat."""
        result = await self._locked(lambda: lobby.join(self.state, user_id, name, pair))
        assert result.seat is not None
        return result.seat

    async def add_bot(self, pair: int | None = None, level: str | None = None) -> int:
        result = await self._locked(lambda: lobby.add_bot(self.state, pair, level))
        assert result.seat is not None
        return result.seat

    async def leave(self, user_id: int) -> None:
        await self._locked(lambda: lobby.leave(self.state, user_id))

    async def come_back(self, user_id: int) -> None:
        await self._locked(lambda: lobby.come_back(self.state, user_id))

    async def start(self, user_id: int | None = None) -> None:
        await self._locked(lambda: self.state.start(user_id))

    async def rematch(self, user_id: int | None = None) -> None:
        await self._locked(lambda: self.state.rematch(user_id))

    async def act(self, user_id: int, action: Action) -> list[Any]:
        """A seated person's move; returns its events (the bots' answers excluded)."""
        result = await self._locked(lambda: self.state.move(user_id, action))
        return result.events

    async def review(self, user_id: int, number: int | None = None,
                     reviewer: Reviewer | None = None) -> str:
        """«¿Cómo jugué?»: asked under the lock, answered in a worker, in the reader's language."""
        async with self._lock:
            ask = self.state.review_ask(user_id, number, self.lang_for(user_id))
        return await (reviewer or REVIEWER).answer(user_id, ask)

    async def send_sena(self, user_id: int, sena: Sena) -> Sena:
        await self._locked(lambda: self.state.send_sena(user_id, sena))
        return sena

    async def typed(self, user_id: int, text: str, *, public: bool = False) -> Typed:
        """What a seated person typed (``public``: in the channel), read by ``typed_words.py``."""
        async with self._lock:
            command, result = typed_words.typed(self.state, user_id, text, public=public)
            try:
                if command == typed_words.CARDS:
                    return Typed(command, text=self.private_text(user_id))
                if result is not None:
                    await self._run(result)
            except MusError as error:
                return Typed(command, error)
            return Typed(command)

    async def close(self, reason: str = "closed", *, unless: Callable[[], bool] | None = None,
                    **params: object) -> None:
        """Closes the table for good, unless ``unless()`` says otherwise under the lock (the
        idle sweep: a move came meanwhile); its page says why (``reason``, with ``params``)."""
        await self._locked(lambda: Result() if unless is not None and unless()
                           else upkeep.close(self.state, reason, **params))

    async def close_unreachable(self) -> None:
        """The channel is gone: each person seated is told by DM; the match counts nowhere."""
        await self._locked(lambda: upkeep.close_unreachable(self.state))

    async def set_league(self, league_id: int | None) -> None:
        await self._locked(lambda: upkeep.set_league(self.state, league_id))

    async def give_games(self, games: tuple[int, int]) -> None:  # see entry.give_games
        await self._bookkeeping(lambda: entry.give_games(self.state, games))

    async def announce(self, text: str) -> None:
        await self._locked(lambda: upkeep.announce(self.state, text))

    async def scrub_user(self, user_id: int, name: str) -> bool:
        """«Forget me» here (:func:`upkeep.scrub_user`); whether anything of theirs was here."""
        result = await self._locked(lambda: upkeep.scrub_user(self.state, user_id, name))
        return bool(result.save)

    async def resume(self, *, announce: bool = True) -> None:
        """After a restart, once the table's channel can be reached: say so, and play on."""
        await self._bookkeeping(lambda: halts.resume(self.state, announce=announce))

    async def private_refused(self, user_id: int) -> None:
        """A DM to this person could not be delivered (found out after it was queued)."""
        await self._bookkeeping(lambda: upkeep.dm_refused(self.state, user_id))

    async def remember_refs(self, page_number: int, refs: list[tuple[int, int]]) -> None:
        await self._bookkeeping(lambda: upkeep.remember_refs(self.state, page_number, refs))

    @property
    def hidden(self) -> str | None:
        """Why nobody can see the table now, or None (see :meth:`hide`)."""
        return self.state.hidden

    async def hide(self, reason: str) -> bool:
        """Nobody can see the table now (see :func:`halts.hide`); True if it was seen."""
        async with self._lock:
            if not halts.hide(self.state, reason):
                return False
            await self._play_on()  # nothing to play, nobody to time: the clock stops
            self._tell()  # out of reach: news for the tournament
            return True

    async def unhide(self) -> bool:
        """The table can be seen again (see :func:`halts.unhide`); True if it was hidden."""
        return await self._bookkeeping(lambda: halts.unhide(self.state), tell=True)

    def retry_now(self) -> None:
        """The database takes saves again (another table's was stored): a paused one tries now."""
        if self.paused:
            self._retries.schedule(at_once=True)

    def show(self) -> None:
        """Has the transport show the table as it is (a new table, its message asked for)."""
        self.transport.changed(self)

    def suspend(self) -> None:
        """Clean shutdown: clock and bots stop, the table stays as saved (unlike :meth:`close`):
        suspended, one of the four ways of not being played (``halts.py``)."""
        self._alarm.cancel()
        self._cancel_bot()
        self._retries.cancel()
        self._records.cancel()

    # --- the runner (lock held from here on) --------------------------------------------------

    async def _locked(self, command: Callable[[], Result]) -> Result:
        """A person's command; refused while the table waits for its database."""
        async with self._lock:
            if self.paused:
                raise NotSaved()
            return await self._run(command())

    async def _bookkeeping(self, command: Callable[[], Result], *, tell: bool = False) -> bool:
        """The table's own upkeep: while paused, noted in the state (shown, saved with it once
        the database is back), never refused. Whether it did anything; if so and ``tell``,
        the tournament hears of it (:meth:`_tell`)."""
        async with self._lock:
            result = command()
            if not self.paused:
                await self._run(result)
            elif result.shown:
                self.transport.changed(self)
            done = bool(result.save or result.shown)
            if done and tell:
                self._tell()
            return done

    async def _run(self, result: Result) -> Result:
        """A command's result: refused, or saved, published, and played on from."""
        result.check()
        await self._commit(result)
        if self.state.lifecycle == "closed":
            self.suspend()
            if self._on_close is not None:
                self._on_close(self)
            return result
        await self._play_on()
        return result

    async def _commit(self, result: Result) -> None:
        """Save, then publish; a change that cannot be saved is undone and refused
        (:class:`NotSaved`), the table paused. A league's new ratings follow as news."""
        if not result.save and not result.shown and not result.notices:
            return
        saved = Saved()
        if result.save and self.persist is not None:
            try:
                saved = await self.persist.save(self, result)
            except Unsaved as failure:
                self._pause(failure)
                raise NotSaved() from failure.error
            if saved.recovered and self._on_recovered is not None:
                self._on_recovered(self)
            if saved.readings is not None:
                self.state.readings.settle(saved.readings)
            if not self.state.records.outbox:
                self._records.reset()
            elif not self._records.pending:
                self._records.schedule()  # saved with the state, stored later: never lost
        await self._publish(result)
        if saved.ratings:
            await self._commit(upkeep.ratings(self.state, saved.ratings))
        told = self.notice
        self.notice = notice = notice_of(self.state)
        moved = self.state.lifecycle != self._lifecycle_told
        self._lifecycle_told = self.state.lifecycle
        stored = told is not None and notice is not None and notice.over and notice.recorded \
            and not told.recorded  # the match over, its records stored at last
        if notice is not None and (moved or stored):
            self._on_notice(self, notice)

    def _tell(self) -> None:
        """The notice of what was just saved and shown, to whoever runs the tournament (lock
        held: the state cannot move on before it is built)."""
        self.notice = notice = notice_of(self.state)
        if notice is not None:
            self._on_notice(self, notice)

    async def _publish(self, result: Result) -> None:
        for user_id in await publish(self, result):  # their hand could not reach them by DM
            await self._commit(upkeep.dm_refused(self.state, user_id))

    async def _play_on(self) -> None:
        """The bots play while it is their turn (each move saved, then published); then the
        person to act is timed. A bot's move that cannot be saved is undone, the table paused:
        the command before it was saved, and stands."""
        while (seat := self.state.bot_turn()) is not None:
            if self.bot_delay:
                self._alarm.set(None)
                self._schedule_bot(self.state.turn)
                return
            try:
                await self._commit(self.state.bot_move(seat, await self._think(seat)))
            except NotSaved:
                return
        clockwork.arm(self.state, self.clock.now())
        self._alarm.set(self.state.deadline.at if self.state.deadline is not None else None)

    def _schedule_bot(self, turn: int) -> None:
        if self._bot is None or self._bot.done():
            self._bot = asyncio.get_running_loop().create_task(self._bot_turn(turn))

    async def _think(self, seat: int) -> Action | None:
        """A heavy bot's move, thought in a worker thread, lock held (the turn cannot change);
        None for a light one, which answers within :meth:`TableState.bot_move`."""
        question = bot_question(self.state, seat)
        return await asyncio.to_thread(question.on_its_own().answer) if question.heavy else None

    async def _bot_turn(self, turn: int) -> None:
        """A heavy bot thinks in a worker thread with the lock released; a move counts only if
        the turn is still the one it was thought for."""
        try:
            await self.clock.sleep(self.bot_delay)
            async with self._lock:
                seat = self.state.bot_turn()
                question = bot_question(self.state, seat) \
                    if turn == self.state.turn and seat is not None else None
            action = await asyncio.to_thread(question.on_its_own().answer) \
                if question is not None and question.heavy else None
            async with self._lock:
                if self._bot is asyncio.current_task():
                    self._bot = None
                if turn == self.state.turn and (seat := self.state.bot_turn()) is not None:
                    await self._commit(self.state.bot_move(seat, action))
                await self._play_on()
        except NotSaved:
            pass  # undone, the table paused: it plays on by itself once saved
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the table down: the clock still runs
            log.exception("bot move failed on table %s", self.channel_id)

    def _cancel_bot(self) -> None:
        task, self._bot = self._bot, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def _ring(self) -> None:
        """The turn clock's alarm: its step, if still due, under the lock like any command."""
        async with self._lock:
            now = self.clock.now()
            seat = clockwork.expiring(self.state, now)
            action = await self._think(seat) if seat is not None else None
            try:
                await self._commit(clockwork.tick(self.state, now, action))
            except NotSaved:
                return
            if self.state.lifecycle == "playing":
                await self._play_on()

    # --- a database that fails (``pause.py``) ---------------------------------------------

    def _pause(self, failure: Unsaved) -> None:
        """Back to what is stored, paused: clock and bots stop, the page says so, a retry is due."""
        self.state = reloaded(self.state, failure.state, failure.journal)
        self._alarm.cancel()
        self._cancel_bot()
        halts.pause(self.state)
        if self._paused_since is None:
            self._paused_since = self.clock.now()
            self._retries.reset()
            code = getattr(failure.error, "code", type(failure.error).__name__)
            log.warning("table %s: a change could not be saved (%s: %s); paused until the "
                        "database takes it", self.channel_id, code, failure.error)
        self.transport.changed(self)
        self._retries.schedule()

    async def _try_again(self) -> None:
        """One attempt while paused (lock held): the table, saying it plays on, saved; once
        stored, it plays on (else it is paused again, and tries later)."""
        if not self.paused:
            return
        try:
            await self._commit(halts.unpause(self.state))
        except NotSaved:
            return
        self._retries.reset()
        since, self._paused_since = self._paused_since, None
        log.warning("table %s: saving again after %.1f s paused; playing on", self.channel_id,
                    self.clock.now() - (since or 0.0))
        await self._play_on()

    async def store_records(self) -> None:
        """Match records waiting in the outbox (a restored table's): stored now, or the table
        saves again later until they are."""
        async with self._lock:
            await self._store_records()

    async def _store_records(self) -> None:
        """Lock held: saved again, for the persister to store the match records still waiting
        (while paused, the pause's saves do it); a closed table waiting for them then goes."""
        if self.state.records.outbox and not self.paused:
            try:
                await self._commit(Result(save=Save.WHOLE))
            except NotSaved:
                return
        if self.lifecycle == "closed" and not self.state.records.outbox and \
                self._on_close is not None:
            self._on_close(self)


__all__ = ["Table"]
