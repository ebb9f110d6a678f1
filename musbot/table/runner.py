"""The one runner of a table: it alone changes the table's :class:`TableState`, under one lock,
and does every bit of the table's I/O in one order: apply a command, save what it changed, then
publish it (the page, each person's private news), then let the bots play and time the person
to act. Two commands that race (two players, or a player and the clock) run one after the other
against the state the first one left; nothing is shown that is not saved.

Bots think for ``bot_delay`` seconds (people follow the moves) in a task of their own, outside
the lock, and play only if the turn is still the one they thought about; with no delay (tests,
the terminal) they answer within the command that handed them the turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from musbot.commands import Move, Request, SendSena, read
from musbot.engine import Action, Match, MusError
from musbot.engine.senas import Sena

from . import clockwork, lobby, notify, render, upkeep
from .alarm import Alarm
from .clock import Clock, RealClock
from .page import Page
from .result import Alert, Direct, DiscardRound, HandDealt, Result, SenaShown, Typed
from .seats import Seat, TableError
from .state import Lifecycle, TableState
from .transport import DmClosed, Transport

log = logging.getLogger(__name__)


class Persist(Protocol):
    """Where a table's changes are stored (``persist.py``): ``save`` returns once they are, and
    gives the league ratings a finished match changed, to be announced."""

    async def save(self, table: Table, result: Result) -> Sequence[Any]: ...


class Table:
    """A live table: its state, and the runner that alone changes it. Public coroutines take the
    lock and raise the state's refusals (:class:`~musbot.engine.MusError`)."""

    def __init__(self, state: TableState, transport: Transport, *, clock: Clock | None = None,
                 bot_delay: float = 0.0, persist: Persist | None = None,
                 on_close: Callable[[Table], None] | None = None) -> None:
        self.state = state
        self.transport = transport
        self.clock: Clock = clock or RealClock()
        self.bot_delay = bot_delay
        """Seconds a bot «thinks» before speaking; 0: bots answer at once."""
        self.persist = persist
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self._alarm = Alarm(self.clock, self._ring)
        self._bot: asyncio.Task[None] | None = None

    # --- what anyone may read -----------------------------------------------------------------

    @property
    def channel_id(self) -> int:
        return self.state.channel_id

    @property
    def guild_id(self) -> int | None:
        return self.state.guild_id

    @property
    def opener_id(self) -> int | None:
        return self.state.opener_id

    @property
    def league_id(self) -> int | None:
        return self.state.league_id

    @property
    def lang(self) -> str:
        return self.state.lang

    @property
    def rules(self) -> Any:
        return self.state.rules

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def lifecycle(self) -> Lifecycle:
        return self.state.lifecycle

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def seats(self) -> list[Seat | None]:
        return self.state.seats

    @property
    def page(self) -> Page:
        return self.state.pages.page

    @property
    def previous(self) -> Page | None:
        return self.state.pages.previous

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def settled(self) -> bool:
        """No bot is about to play: a transport may wait for this, so the moves of the bots
        between two people's turns are shown together."""
        return self.state.bot_turn() is None

    def names(self) -> dict[int, str]:
        return self.state.names()

    def seat_of(self, user_id: int) -> int | None:
        return self.state.seat_of(user_id)

    def humans(self) -> list[int]:
        return self.state.humans()

    def awaits(self, user_id: int) -> bool:
        return self.state.awaits(user_id)

    def status(self) -> str:
        """The public table status (seats, pairs, score, lance, bet, turn)."""
        match = self.state.match
        view = match.view(-1) if match is not None else None
        return render.status_text(view, self.names(), self.notes(), self.rules, self.lang)

    def notes(self) -> dict[int, str]:
        """«(bot)», «(ausente)» beside the seats' names."""
        notes = {}
        for seat, occupant in enumerate(self.seats):
            if occupant is not None and not occupant.human:
                notes[seat] = render.t("status_bot", self.lang)
            elif occupant is not None and occupant.away:
                notes[seat] = render.t("status_away", self.lang)
        return notes

    def private_text(self, user_id: int) -> str:
        """«Ver mis cartas»: the user's seat's private text, from that seat's view only."""
        seat = self.state.require_seat(user_id)
        if self.state.match is None:
            raise TableError("not_started")
        return notify.private_text(self.state, seat)

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

    async def send_sena(self, user_id: int, sena: Sena) -> Sena:
        await self._locked(lambda: self.state.send_sena(user_id, sena))
        return sena

    async def typed(self, user_id: int, text: str, *, public: bool = False) -> Typed:
        """What a seated person typed (in the channel when ``public``, else by DM or in the
        terminal), read by the one grammar against the cards they hold now; a refusal is in
        the answer, for the surface to word."""
        async with self._lock:
            state = self.state
            seat = state.seat_of(user_id)
            if seat is None:
                return Typed(None)
            match = state.match
            hand = match.view(seat).cards if match is not None and not match.finished else None
            try:
                command = read(text, hand, public=public)
            except MusError as error:
                return Typed(None, error) if state.lifecycle == "playing" else Typed(None)
            if command is None:
                return Typed(None)
            if isinstance(command, Move) and state.lifecycle != "playing":
                return Typed(None)  # no match in play: a word like any other
            try:
                return await self._typed(user_id, command)
            except MusError as error:
                return Typed(command, error)

    async def _typed(self, user_id: int, command: Any) -> Typed:
        if isinstance(command, Move):
            await self._run(self.state.move(user_id, command.action))
        elif isinstance(command, SendSena):
            await self._run(self.state.send_sena(user_id, command.sena))
        elif command == Request("come_back"):
            await self._run(lobby.come_back(self.state, user_id))
        elif command == Request("cards"):
            return Typed(command, text=self.private_text(user_id))
        return Typed(command)

    async def close(self) -> None:
        await self._locked(lambda: upkeep.close(self.state, "closed"))

    async def close_unreachable(self) -> None:
        """The table's channel is gone: each person seated is told by DM; the match counts
        nowhere."""
        await self._locked(lambda: upkeep.close_unreachable(self.state))

    async def set_league(self, league_id: int | None) -> None:
        await self._locked(lambda: upkeep.set_league(self.state, league_id))

    async def announce(self, text: str) -> None:
        await self._locked(lambda: upkeep.announce(self.state, text))

    async def scrub_user(self, user_id: int, name: str) -> bool:
        """«Forget me» at this table (see :func:`upkeep.scrub_user`); whether anything of
        theirs was here."""
        result = await self._locked(lambda: upkeep.scrub_user(self.state, user_id, name))
        return bool(result.save)

    async def resume(self, *, announce: bool = True) -> None:
        """After a restart, once the table's channel can be reached: say so, and play on."""
        await self._locked(lambda: upkeep.resume(self.state, announce=announce))

    async def private_refused(self, user_id: int) -> None:
        """A DM to this person could not be delivered (found out after it was queued)."""
        await self._locked(lambda: upkeep.dm_refused(self.state, user_id))

    async def remember_refs(self, page_number: int, refs: list[tuple[int, int]]) -> None:
        await self._locked(lambda: upkeep.remember_refs(self.state, page_number, refs))

    def show(self) -> None:
        """Has the transport show the table as it is (a new table, its message asked for)."""
        self.transport.changed(self)

    def suspend(self) -> None:
        """Clean shutdown: the clock and the bots stop, the table stays as saved (restored at
        the next start), unlike :meth:`close`."""
        self._alarm.cancel()
        self._cancel_bot()

    # --- the runner (lock held from here on) --------------------------------------------------

    async def _locked(self, command: Callable[[], Result]) -> Result:
        async with self._lock:
            return await self._run(command())

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
        """Save, then publish. A league's new ratings follow as news of their own."""
        if not result.save and not result.shown and not result.notices:
            return
        changes: Sequence[Any] = ()
        if result.save and self.persist is not None:
            changes = await self.persist.save(self, result)
        await self._publish(result)
        if changes:
            await self._commit(upkeep.ratings(self.state, changes))

    async def _publish(self, result: Result) -> None:
        if result.shown:
            self.transport.changed(self)
        refused: list[int] = []
        for notice in result.notices:
            if not await self._notify(notice):
                refused.append(notice.user_id)
        if result.events:
            for user_id in self.humans():
                self.transport.private_changed(self, user_id)
        for user_id in refused:
            await self._commit(upkeep.dm_refused(self.state, user_id))

    async def _notify(self, notice: Any) -> bool:
        """One private notice; False when a hand could not reach its owner by DM."""
        state, transport = self.state, self.transport
        try:
            if isinstance(notice, HandDealt):
                await transport.private(self, notice.user_id, notify.private_text(state,
                                                                                  notice.seat))
            elif isinstance(notice, SenaShown):
                await transport.private(self, notice.user_id, notify.sena_text(
                    state, notice.sender, notice.sena, caught=notice.caught))
                transport.private_changed(self, notice.user_id)
            elif isinstance(notice, DiscardRound):
                await transport.discard_round(self, notice.user_id,
                                              notify.private_text(state, notice.seat))
            elif isinstance(notice, Alert):
                await transport.alert(self, notice.user_id, render.t(
                    notice.key, self.lang, mention=transport.mention(notice.user_id),
                    seconds=int(clockwork.REMINDER_SECONDS)), offer=notice.offer)
            elif isinstance(notice, Direct):
                await transport.private(self, notice.user_id, render.t(notice.key, self.lang))
        except DmClosed:
            return not isinstance(notice, HandDealt)
        except Exception:  # the outside world failing must not stop the table
            log.warning("%s failed at table %s", type(notice).__name__, self.channel_id,
                        exc_info=True)
            return not isinstance(notice, HandDealt)
        return True

    async def _play_on(self) -> None:
        """The bots play while it is their turn (each move saved, then published); then the
        person to act is timed."""
        while (seat := self.state.bot_turn()) is not None:
            if self.bot_delay:
                self._alarm.set(None)
                self._schedule_bot(self.state.turn)
                return
            await self._commit(self.state.bot_move(seat))
        clockwork.arm(self.state, self.clock.now())
        self._alarm.set(self.state.deadline.at if self.state.deadline is not None else None)

    def _schedule_bot(self, turn: int) -> None:
        if self._bot is None or self._bot.done():
            self._bot = asyncio.get_running_loop().create_task(self._bot_turn(turn))

    async def _bot_turn(self, turn: int) -> None:
        try:
            await self.clock.sleep(self.bot_delay)
            async with self._lock:
                if self._bot is asyncio.current_task():
                    self._bot = None
                seat = self.state.bot_turn()
                if turn != self.state.turn or seat is None:
                    return
                await self._commit(self.state.bot_move(seat))
                await self._play_on()
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
            result = clockwork.tick(self.state, self.clock.now())
            await self._commit(result)
            if self.state.lifecycle == "playing":
                await self._play_on()


__all__ = ["Persist", "Table"]
