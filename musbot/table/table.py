"""One live table in one channel: seats, a match, bots, señas, the turn clock, and a transport.

The engine decides everything about the game; this layer decides who sits where, who may speak,
what each person is told, and when time runs out. All changes go through one ``asyncio.Lock`` per
table, so two commands that race (two players, or a player and the timer) are applied one after
the other against the state the first one left. Nothing waits for the outside world with the lock
held: what the table says goes to its transport, which shows it when it can.

Every change is saved (``on_change``) before anyone is told of it, so after a crash nobody has
seen a move that the restored table lacks. The public record is the table's :class:`Page`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.ai.base import hand_over
from musbot.commands import parse_sena
from musbot.engine import (
    Action,
    Hand,
    Match,
    MusError,
    Rules,
    Shuffler,
    secure_shuffle,
)
from musbot.engine import events as ev
from musbot.engine.senas import Sena, SenaLog, check_sena, senas_open

from . import render
from .clock import Clock, RealClock
from .notify import Notifier
from .page import Page
from .seating import Seat, Seating, TableError
from .transport import Transport
from .turns import DEFAULT_TURN_SECONDS, REMINDER_SECONDS, TurnClock, check_turn_seconds

log = logging.getLogger(__name__)

MAX_EXPIRIES = 3
"""Expiries in a row before a bot takes the seat over until «vuelvo»."""
_DEALS = (ev.HandStarted, ev.CardsReplaced, ev.Reshuffled)
"""Events with cards from the shuffler: only a whole saved state keeps them."""

State = Literal["waiting", "playing", "finished", "closed"]
ChangeHook = Callable[["Table"], Awaitable[None]]
"""Called under the table's lock after every applied change (persistence, see ``persist.py``)."""

__all__ = ["MAX_EXPIRIES", "ChangeHook", "Seat", "State", "Table", "TableError"]


class Table:
    """A table in a channel. Public coroutines take the lock; ``_``-methods expect it held."""

    def __init__(
        self,
        channel_id: int,
        transport: Transport,
        *,
        rules: Rules | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        shuffler: Shuffler = secure_shuffle,
        first_mano: int | None = None,
        turn_seconds: float | None = DEFAULT_TURN_SECONDS,
        bot_level: str = DEFAULT_LEVEL,
        bot_delay: float = 0.0,
        lang: str = "es",
        bots_alone: bool = False,
        guild_id: int | None = None,
        opener_id: int | None = None,
        league_id: int | None = None,
        on_close: Callable[[Table], None] | None = None,
        on_change: ChangeHook | None = None,
    ) -> None:
        if turn_seconds is not None:
            check_turn_seconds(turn_seconds)
        self.channel_id = channel_id
        self.transport = transport
        self.rules = rules or Rules()
        self.clock: Clock = clock or RealClock()
        self.rng = rng or random.Random()
        self.shuffler = shuffler
        self.first_mano = first_mano
        self.turn_seconds = turn_seconds
        """None: no turn timer (the terminal)."""
        if bot_level not in LEVELS:
            raise TableError("unknown_level", level=bot_level)
        self.bot_level = bot_level
        self.bot_delay = bot_delay
        """Seconds a bot «thinks» before speaking, so people can follow; 0: bots answer at once
        (tests, the terminal), within the move that handed them the turn."""
        self.lang = lang
        self.bots_alone = bots_alone
        """Whether a match may start with no person seated (demos, ``musbot play --auto``)."""
        self.guild_id = guild_id
        self.opener_id = opener_id
        """Who opened the table: may close it without Manage Channels."""
        self.league_id = league_id
        """The league this table's matches count for (None: a friendly table)."""
        self.seating = Seating(self.rules.jugadores)
        self.match: Match | None = None
        self.state: State = "waiting"
        self.on_change = on_change
        """Awaited after every change, lock held; with it the table keeps :attr:`outbox`."""
        self.match_info: dict[str, Any] | None = None
        """Who sat where when the current match started, under a unique ``key``: what a match
        record is made from."""
        self.outbox: list[dict[str, Any]] = []
        """Match records (start, finished hands, result) not yet stored; saved with the table's
        state, so a crash between saving and storing loses none of them."""
        self.senas = SenaLog()
        """The señas on the current cards (§7)."""
        self.page = Page(1)
        """The public record of the hand in play (or of the lobby)."""
        self.previous: Page | None = None
        """The page before, finished: kept (and saved) until the next one finishes, so a
        transport that had not shown its end yet (a restart in between) still can."""
        self.notify = Notifier(self)
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self.turns = TurnClock(self.clock, self._locked, self._remind, self._time_up,
                               label=channel_id)
        self._turn = 0
        """Bumped on every applied action: a timer or a bot only plays the turn it was for."""
        self._bot_task: asyncio.Task[None] | None = None
        self._journal: list[tuple[int, Action]] | None = None
        """The moves applied since the last save, while they are the only change: a save may
        append them to the table's journal instead of writing its whole state (see
        :meth:`take_moves`). None: something else changed, the whole state is due."""

    # --- what anyone may ask ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.jugadores

    @property
    def seats(self) -> list[Seat | None]:
        return self.seating.seats

    @property
    def turn(self) -> int:
        """How many actions the table has applied: a move's identity for timers and bots."""
        return self._turn

    def names(self) -> dict[int, str]:
        return self.seating.names()

    def seat_of(self, user_id: int) -> int | None:
        return self.seating.seat_of(user_id)

    def humans(self) -> list[int]:
        return self.seating.humans()

    def status(self) -> str:
        """The public table status (seats, pairs, score, lance, bet, turn)."""
        view = self.match.view(-1) if self.match is not None else None
        return render.status_text(view, self.names(), self.notes(), self.rules, self.lang)

    def notes(self) -> dict[int, str]:
        """«(bot)», «(ausente)» beside the seats' names."""
        notes = {}
        for seat, occupant in enumerate(self.seats):
            if occupant is None:
                continue
            if not occupant.human:
                notes[seat] = render.t("status_bot", self.lang)
            elif occupant.away:
                notes[seat] = render.t("status_away", self.lang)
        return notes

    @property
    def settled(self) -> bool:
        """Nothing is about to happen by itself: no bot is about to play. A transport showing
        the table may wait for this, so the moves of the bots between two people's turns are
        shown together."""
        match = self.match
        if self.state != "playing" or match is None or match.finished:
            return True
        seat = match.to_act
        occupant = self.seats[seat] if seat is not None else None
        return occupant is None or not occupant.bot_plays

    def awaits(self, user_id: int) -> bool:
        """Whether the match waits for this person now (their turn)."""
        match = self.match
        seat = self.seat_of(user_id)
        return (self.state == "playing" and match is not None and seat is not None
                and match.to_act == seat)

    def private_text(self, user_id: int) -> str:
        """«Ver mis cartas»: the private text of the user's seat, from that seat's view only."""
        seat = self._require_seat(user_id)
        if self.match is None:
            raise TableError("not_started")
        return self.notify.private_text(seat)

    def senas_open(self) -> bool:
        """Whether señas may be sent now (§7: the variant, and never in a corrido hand)."""
        match = self.match
        return (match is not None and not match.finished
                and senas_open(self.rules, match.hand.corrido))

    # --- seating ------------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, pair: int | None = None) -> int:
        """Sits a person; mid-match they take over a bot's seat. Returns the seat."""
        async with self._lock:
            self._require_open()
            already = self.seat_of(user_id)
            if already is not None:
                raise TableError("already_seated", number=already + 1)
            seat = self.seating.free_seat(pair, take_bots=True)
            old = self.seats[seat]
            self.seats[seat] = Seat(name=name, user_id=user_id)
            if old is not None and self.state == "playing":
                self._say("took_bot_seat", name=name, seat=seat + 1)
                await self._changed()
                self._show()
                await self.notify.send_hand(seat)
                self._arm_timer()
            else:
                self._say("joined", name=name, seat=seat + 1,
                          pair=render.pair_text(self.rules.team(seat), self.names(),
                                                self.players, self.lang))
                await self._changed()
                self._show()
            return seat

    async def leave(self, user_id: int) -> None:
        """Frees the seat; mid-match a bot plays it, and a table left without people closes."""
        async with self._lock:
            seat = self._require_seat(user_id)
            person = self.seats[seat]
            assert person is not None
            if self.state != "playing":
                self.seats[seat] = None
                self._say("left", name=person.name)
                await self._changed()
                self._show()
                return
            self.seats[seat] = Seat.robot(person.name, self.bot_level)
            self._bot_took_over()
            self._say("left_bot", name=person.name)
            if not self.humans():
                await self._close("closed_empty")
                return
            await self._changed()
            await self._advance([])

    async def add_bot(self, pair: int | None = None, level: str | None = None) -> int:
        """Sits a bot before the match (empty seats get bots at start anyway)."""
        async with self._lock:
            self._require_open()
            if self.state == "playing":
                raise TableError("already_started")
            level = level or self.bot_level
            if level not in LEVELS:
                raise TableError("unknown_level", level=level)
            seat = self.seating.free_seat(pair, take_bots=False)
            self.seats[seat] = self._bot_seat(seat, level)
            self._say("bot_added", level=level, seat=seat + 1)
            await self._changed()
            self._show()
            return seat

    # --- the match ----------------------------------------------------------------------------

    async def start(self, user_id: int | None = None) -> None:
        """Fills empty seats with bots and deals the first hand."""
        async with self._lock:
            self._require_open()
            if self.state != "waiting":
                raise TableError("already_started")
            await self._begin(user_id, "started")

    async def rematch(self, user_id: int | None = None) -> None:
        """A new match with the same seats, once the last one is over."""
        async with self._lock:
            self._require_open()
            if self.state != "finished":
                raise TableError("not_finished")
            await self._begin(user_id, "rematch")

    async def close(self) -> None:
        async with self._lock:
            if self.state != "closed":
                await self._close("closed")

    async def close_unreachable(self) -> None:
        """The table's channel is gone (deleted, or the bot removed from the server): nobody can
        read it any more, so each person seated is told by DM, and the match counts nowhere."""
        async with self._lock:
            if self.state == "closed":
                return
            text = render.t("closed_gone", self.lang)
            for user_id in self.humans():
                await self.notify.private(user_id, text)
            await self._close("closed_gone")

    async def act(self, user_id: int, action: Action) -> list[ev.Event]:
        """Applies a seated person's action. Raises the engine's errors (nothing changes then)
        or :class:`TableError`; returns the events it caused, bots' answers excluded."""
        async with self._lock:
            return await self._act(user_id, action)

    async def _act(self, user_id: int, action: Action) -> list[ev.Event]:
        seat = self._require_seat(user_id)
        self._require_match()
        events = self._apply(seat, action)
        person = self.seats[seat]
        assert person is not None
        if person.expiries:
            person.expiries = 0
            self._journal = None
        await self._advance(events)
        return events

    async def handle_text(self, user_id: int, text: str) -> bool:
        """A chat message: True if it was a command for this table (answered, applied or
        refused with a reply), False if it is ordinary chat or from someone not seated."""
        from musbot.commands import is_come_back, parse  # the grammar: imported late, layers

        if self.seat_of(user_id) is None:
            return False
        if is_come_back(text):
            try:
                await self.come_back(user_id)
            except MusError as error:
                await self.notify.reply_error(user_id, error)
            return True
        async with self._lock:
            seat = self.seat_of(user_id)
            if self.match is None or self.state != "playing" or seat is None:
                return False
            try:
                # Parsed under the lock: «descarto 1 3» means the cards held right now.
                action = parse(text, self.match.view(seat).cards)
                if action is None:
                    return False
                await self._act(user_id, action)
            except MusError as error:
                await self.notify.reply_error(user_id, error)
            return True

    async def come_back(self, user_id: int) -> None:
        """«vuelvo»: the person takes the seat back from the bot."""
        async with self._lock:
            seat = self._require_seat(user_id)
            person = self.seats[seat]
            assert person is not None
            if not person.away:
                raise TableError("not_away")
            person.away = False
            person.expiries = 0
            self._say("back", name=person.name)
            await self._changed()
            self._show()
            self._arm_timer()

    async def set_league(self, league_id: int | None) -> None:
        """Makes the table count for a league (or a friendly one again); only before the match,
        so nobody finds out afterwards that a result counted."""
        async with self._lock:
            self._require_open()
            if self.state == "playing":
                raise TableError("already_started")
            self.league_id = league_id
            await self._changed()

    async def announce(self, text: str) -> None:
        """A line of news for the page (league ratings after a match, …)."""
        async with self._lock:
            self.page.note(text)
            await self._changed()
            self._show()

    async def scrub_user(self, user_id: int, name: str) -> bool:
        """«Forget me»: a seated person keeps the seat under a neutral name; the match records
        (the one in play and those waiting to be stored) no longer name them, nor, where the
        person no longer sits, hold their id; the pages say the neutral name. Returns whether
        anything of theirs was here."""
        async with self._lock:
            old_names: set[str] = set()
            seat = self.seat_of(user_id)
            if seat is not None:
                occupant = self.seats[seat]
                assert occupant is not None
                old_names.add(occupant.name)
                occupant.name = name
            playing = seat is not None and self.state == "playing"
            infos = [self.match_info, *(item.get("match") for item in self.outbox)]
            for info in infos:
                for entry in (info or {}).get("seats", []):
                    if entry.get("user_id") != user_id:
                        continue
                    if entry.get("name"):
                        old_names.add(str(entry["name"]))
                    entry["name"] = None
                    if not playing:
                        entry["user_id"] = None
                        entry["forgotten"] = True
            found = seat is not None or bool(old_names)
            if self.opener_id == user_id and seat is None:
                self.opener_id = None  # closing the table is left to whoever manages it
                found = True
            for old in sorted(old_names - {name}, key=len, reverse=True):
                self.page.rename(old, name, self._page_lines)
                if self.previous is not None:
                    self.previous.rename(old, name, None)
            if found:
                await self._changed()
                self._show()
            return found

    def _page_lines(self, page: Page) -> list[str]:
        """The page's lines rendered again from its hand's events (see :meth:`Page.rename`)."""
        match = self.match
        if match is None or page.hand_number is None:
            return list(page.lines)
        return Page.rebuild(page.to_json(), match.hand.events, self._event_lines,
                            tail=self.page_tail()).lines

    async def resume(self, *, announce: bool = True) -> None:
        """After a restart, once the table's channel can be reached: say so, and play on (bots
        whose turn it is, the turn clock afresh: nobody could speak while the bot was down)."""
        async with self._lock:
            if self.state == "closed":
                return
            if announce:
                self._say("restored")
                await self._changed()
            if self.state == "playing":
                turn = self._turn
                await self._advance([])
                if turn != self._turn:
                    await self._changed()
            else:
                self._show()

    async def private_refused(self, user_id: int) -> None:
        """A DM to this person could not be delivered (found out after it was queued): tell the
        channel once a hand, without any card, to use «Ver mis cartas»."""
        async with self._lock:
            seat = self.seat_of(user_id)
            if seat is not None and await self.notify.dm_refused(seat):
                await self._changed()

    async def remember_refs(self, page_number: int, refs: list[tuple[int, int]]) -> None:
        """The transport's references to the messages showing a page, saved with the table so
        that after a restart it edits them rather than show the same moves again."""
        async with self._lock:
            for page in (self.page, self.previous):
                if page is not None and page.number == page_number and page.refs != refs:
                    page.refs = list(refs)
                    if self.state != "closed":
                        await self._changed()

    def to_state(self) -> dict[str, Any]:
        """The table as a JSON document (private: it holds the cards), see ``state.py``."""
        from .state import to_state

        return to_state(self)

    @classmethod
    def from_state(cls, state: dict[str, Any], transport: Transport, *,
                   journal: Sequence[Any] = (), **options: Any) -> Table:
        """The table :meth:`to_state` saved, with the moves journaled since replayed."""
        from .state import from_state

        return from_state(state, transport, journal=journal, **options)

    def show(self) -> None:
        """Has the transport show the table as it is (a new table, a table message asked for
        again)."""
        self._show()

    def take_moves(self) -> list[tuple[int, Action]] | None:
        """For the ``on_change`` hook: the moves (seat, action) applied since the last save if
        nothing else changed, in order; None when the whole state must be saved. The next
        save starts counting from here."""
        moves, self._journal = self._journal, []
        return moves

    def mark_changed(self) -> None:
        """Something of the state changed besides the moves: the next save writes it whole."""
        self._journal = None

    def suspend(self) -> None:
        """Clean shutdown: stop the clock and the bots but keep the table (it is restored at
        the next start), unlike :meth:`close`."""
        self.turns.cancel()
        self._cancel_bots()

    # --- señas --------------------------------------------------------------------------------

    async def send_sena(self, user_id: int, name: str | Sena) -> Sena:
        """Sends a seña to the partner(s) if the hand shows it (§7); maybe caught by one
        opponent. The sender is told nothing beyond the returned seña."""
        async with self._lock:
            seat = self._require_seat(user_id)
            self._require_match()
            sena = parse_sena(name) if isinstance(name, str) else name
            self._check_sena(seat, sena)
            await self._deliver_sena(seat, sena)
            await self._changed()
            return sena

    def _check_sena(self, seat: int, sena: Sena) -> None:
        match = self._require_match()
        hand = match.hand
        check_sena(self.rules, corrido=hand.corrido, finished=hand.finished,
                   cards=match.view(seat).cards, sena=sena, sent=self.senas.sent_by(seat))

    async def _deliver_sena(self, seat: int, sena: Sena) -> None:
        self._journal = None
        for receiver, caught in self.senas.send(self.rules, seat, sena, self.rng):
            await self.notify.sena(receiver, seat, sena, caught=caught)

    async def _bot_senas(self) -> bool:
        """The bots' señas on new cards; True if any was sent (the table's state changed)."""
        match = self.match
        if match is None or not self.senas_open():
            return False
        sent = False
        for seat, occupant in enumerate(self.seats):
            if occupant is None or occupant.human or occupant.bot is None:
                continue
            for sena in occupant.bot.choose_senas(match.view(seat), self.rng):
                try:
                    self._check_sena(seat, sena)
                except MusError:
                    continue
                await self._deliver_sena(seat, sena)
                sent = True
        return sent

    # --- driving the match (lock held) --------------------------------------------------------

    async def _locked(self, step: Callable[[], Awaitable[None]]) -> None:
        async with self._lock:
            await step()

    async def _begin(self, user_id: int | None, key: str) -> None:
        if user_id is not None:
            self._require_seat(user_id)
        if not self.humans() and not self.bots_alone:
            raise TableError("no_humans")
        for seat in range(self.players):
            if self.seats[seat] is None:
                self.seats[seat] = self._bot_seat(seat, self.bot_level)
        for occupant in self.seats:
            if occupant is not None:
                occupant.expiries = 0
        first = self.first_mano if self.first_mano is not None else \
            self.rng.randrange(self.players)
        self.match = Match(self.rules, first_mano=first, shuffler=self.shuffler)
        self.state = "playing"
        self._start_record()
        self._new_cards(self.match.hand.events)
        self._turn_page(self.match.hand_number)
        self._say(key)
        await self._changed()  # the deal is saved before anyone is told about it
        await self._advance(list(self.match.hand.events), saved=True)

    async def _advance(self, events: list[ev.Event], *, saved: bool = False) -> None:
        """Saves and publishes ``events``, lets the bots play while it is their turn (each of
        their moves saved, then published), then times the person to act. ``saved``: the caller
        saved ``events``. With a think time the bots play from a task of their own."""
        match = self._require_match()
        while True:
            if match.finished:
                self.state = "finished"
            if events and not saved:
                await self._changed(moves=True)
            saved = False
            changed = await self._publish(events)
            if changed:
                await self._changed()  # the bots' señas on the cards just shown, …
            if match.finished:
                self.turns.cancel()
                return
            seat = match.to_act
            occupant = self.seats[seat] if seat is not None else None
            if seat is None or occupant is None or not occupant.bot_plays:
                break
            if self.bot_delay:
                self.turns.stop()
                self._schedule_bots()
                return
            events = self._apply(seat, self._bot_action(seat))
        self._arm_timer()

    def _schedule_bots(self) -> None:
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_turn(self._turn))

    async def _bot_turn(self, turn: int) -> None:
        """A bot thinks (outside the lock: people may still ask for their cards, send señas)
        and plays, if the turn is still the one it thought about."""
        try:
            await self.clock.sleep(self.bot_delay)
            async with self._lock:
                if self._bot_task is asyncio.current_task():
                    self._bot_task = None
                match = self.match
                if turn != self._turn or self.state != "playing" or match is None:
                    return
                seat = match.to_act
                occupant = self.seats[seat] if seat is not None else None
                if seat is None or occupant is None or not occupant.bot_plays:
                    return
                await self._advance(self._apply(seat, self._bot_action(seat)))
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the table down: the clock still runs
            log.exception("bot move failed on table %s", self.channel_id)

    def _cancel_bots(self) -> None:
        task, self._bot_task = self._bot_task, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def _apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Every action goes through here: the engine applies it, and a finished hand or match
        becomes a record in the outbox."""
        match = self._require_match()
        hand, number = match.hand, match.hand_number
        events = match.apply(seat, action)
        self._turn += 1
        if self._journal is not None:
            if hand.finished or match.hand is not hand or \
                    any(isinstance(e, _DEALS) for e in events):
                self._journal = None  # cards from the shuffler: the state is saved whole
            else:
                self._journal.append((seat, action))
        self._new_cards(events)
        if hand.finished:
            self._record("hand", number=number, transcript=hand.transcript(),
                         result=hand.result(), ordagos=[o.to_dict() for o in hand.ordagos()])
            self._hand_over(hand, number)
        if match.winner is not None:
            rated = not (self.match_info or {}).get("bot_took_over", False)
            self._record("finish", winner=match.winner, summary=match.summary(), rated=rated)
        return events

    def _hand_over(self, hand: Hand, number: int) -> None:
        """Bots that learn from showdowns (``hand_over``, see :class:`~musbot.ai.Player`) get
        their own seat's view of the hand just ended, as a person at the table sees it. What
        they learn lives in memory only: a restored table's bots start afresh."""
        for seat, occupant in enumerate(self.seats):
            if occupant is None or occupant.bot is None:
                continue
            try:
                hand_over(occupant.bot, hand, seat, number)
            except Exception:  # a bot's bookkeeping must never stop the table
                log.exception("bot hand_over failed on table %s", self.channel_id)

    def _new_cards(self, events: list[ev.Event]) -> None:
        """Señas speak about cards: new cards, new señas; a new hand may warn of closed DMs
        again. State, so it changes before the save that precedes publishing."""
        if any(isinstance(e, ev.HandStarted) for e in events):
            for occupant in self.seats:
                if occupant is not None:
                    occupant.dm_warned = False
            self.senas = SenaLog()
        elif any(isinstance(e, ev.CardsReplaced) for e in events):
            self.senas = SenaLog()

    def _bot_took_over(self) -> None:
        """A bot played a seat for more than one turn: the match no longer rates anyone."""
        self._journal = None
        if self.match_info is not None:
            self.match_info["bot_took_over"] = True

    def _start_record(self) -> None:
        seats = []
        for seat, occupant in enumerate(self.seats):
            assert occupant is not None
            seats.append({"seat": seat, "user_id": occupant.user_id, "name": occupant.name,
                          "bot": None if occupant.human else f"ai:{occupant.level or 'bot'}"})
        self.match_info = {"key": uuid.uuid4().hex, "seats": seats, "league_id": self.league_id,
                           "rules": self.rules.to_dict()}
        self._record("start")

    def _record(self, kind: str, **data: Any) -> None:
        if self.on_change is None or self.match_info is None:
            return  # nobody stores records (terminal, tests): keep no outbox
        self.outbox.append({"kind": kind, "match": self.match_info, **data})
        self._journal = None

    async def _changed(self, *, moves: bool = False) -> None:
        """Hands the new state to the hook; a failing hook (a full disk) must not stop the game,
        and the next change saves the whole state again. ``moves``: the change is the moves
        just applied (and, if :attr:`_journal` still holds them, nothing else)."""
        if self.on_change is None:
            return
        if not moves:
            self._journal = None
        try:
            await self.on_change(self)
        except Exception:
            self._journal = None
            log.exception("saving table %s failed", self.channel_id)

    def _bot_action(self, seat: int) -> Action:
        from musbot.ai import make_player

        match = self._require_match()
        occupant = self.seats[seat]
        player = occupant.bot if occupant is not None and occupant.bot is not None else None
        player = player or make_player(self.bot_level)
        return player.decide(match.view(seat), self.rng, self.senas.seen_by(seat))

    async def _publish(self, events: list[ev.Event]) -> bool:
        """Tells everyone what ``events`` show: the page for all, each person's private text;
        True when that changed the state (bots sent señas on the new cards, closed DMs were
        announced)."""
        self._add_to_pages(events)
        self._show()
        match = self.match
        assert match is not None
        if any(isinstance(e, (ev.HandStarted, ev.CardsReplaced)) for e in events) \
                and not match.finished:
            warned = [await self.notify.send_hand(seat) for seat in range(self.players)]
            return await self._bot_senas() or any(warned)
        if events:
            await self.notify.update_views()
        return False

    # --- the page -----------------------------------------------------------------------------

    def _add_to_pages(self, events: list[ev.Event]) -> None:
        """Each hand on a page of its own: a deal turns the page (see :meth:`_turn_page`)."""
        match = self.match
        for event in events:
            if isinstance(event, ev.HandStarted) and match is not None and \
                    (self.page.hand_number is None or self.page.events):
                self._turn_page(match.hand_number)
            self.page.add_events([event], self._event_lines)

    def _turn_page(self, hand_number: int) -> None:
        if self.page.hand_number == hand_number and not self.page.events and \
                self.page.hand_number is not None:
            return
        self.page.final = True
        self.previous = self.page
        self.page = Page(self.page.number + 1, hand_number)

    def _event_lines(self, event: ev.Event) -> list[str]:
        return render.event_lines(event, self.names(), players=self.players,
                                  target=self.rules.puntos, lang=self.lang)

    def page_tail(self) -> list[ev.Event]:
        """The events after the last hand's own that belong on its page: the vaca and the
        match it won. A restored page needs them (the match keeps only the hand's events)."""
        match = self.match
        if match is None or match.winner is None:
            return []
        return [ev.VacaWon(match.winner, (match.vacas[0], match.vacas[1])),
                ev.MatchWon(match.winner)]

    def _say(self, key: str, **params: object) -> None:
        self.page.note(render.t(key, self.lang, **params))

    def _show(self) -> None:
        """The public face changed and is saved: the transport shows it when it can (it only
        takes note now, so nothing here waits for the outside world)."""
        self.transport.changed(self)

    # --- the turn clock -----------------------------------------------------------------------

    def _arm_timer(self) -> None:
        match = self.match
        self.turns.stop()
        if self.turn_seconds is None or self.state != "playing" or match is None:
            return
        seat = match.to_act
        occupant = self.seats[seat] if seat is not None else None
        if seat is None or occupant is None or occupant.bot_plays:
            return
        self.turns.start(self.turn_seconds, self._turn, seat)

    async def _remind(self, turn: int, seat: int) -> None:
        occupant = self.seats[seat]
        if (turn != self._turn or self.state != "playing" or occupant is None
                or occupant.user_id is None):
            return
        await self.notify.alert(occupant.user_id, render.t(
            "reminder", self.lang, mention=self.transport.mention(occupant.user_id),
            seconds=int(REMINDER_SECONDS)))
        if turn == self._turn:
            self.turns.after_reminder(turn, seat)

    async def _time_up(self, turn: int, seat: int) -> None:
        if turn == self._turn and self.state == "playing":
            await self._expire(seat)
            await self._changed()

    async def _expire(self, seat: int) -> None:
        """Time is up: the seat's bot plays this one turn; the third time in a row it keeps the
        seat until «vuelvo»."""
        occupant = self.seats[seat]
        self._require_match()
        if occupant is None or occupant.bot_plays:
            return
        occupant.expiries += 1
        self._journal = None
        self._say("expired", name=occupant.name)
        events = self._apply(seat, self._bot_action(seat))
        if occupant.expiries >= MAX_EXPIRIES:
            occupant.away = True
            self._bot_took_over()
            self._say("away", name=occupant.name)
        await self._advance(events)

    # --- small helpers ------------------------------------------------------------------------

    async def _close(self, key: str) -> None:
        if self.state == "playing":
            self._record("abandon")  # nobody won: the match counts nowhere
        self.state = "closed"
        self.turns.cancel()
        self._cancel_bots()
        self._say(key)
        self.page.final = True
        await self._changed()
        self._show()
        if self._on_close is not None:
            self._on_close(self)

    def _bot_seat(self, seat: int, level: str) -> Seat:
        return Seat.robot(render.t("bot_name", self.lang, seat=seat + 1), level)

    def _require_open(self) -> None:
        if self.state == "closed":
            raise TableError("table_closed")

    def _require_seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    def _require_match(self) -> Match:
        if self.match is None or self.state != "playing":
            raise TableError("not_started" if self.state == "waiting" else "match_over")
        return self.match
