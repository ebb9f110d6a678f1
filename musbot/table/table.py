"""One live table in one channel: seats, a match, bots, señas, the turn clock, and a transport.

The engine decides everything about the game; this layer decides who sits where, who may speak,
what each person is told, and when time runs out. All changes go through one ``asyncio.Lock`` per
table, so two commands that race (two players, or a player and the timer) are applied one after
the other against the state the first one left. Nothing waits for the outside world with the lock
held: what the table says goes to its transport, which shows it when it can.

Every change is saved (``on_change``) before anyone is told of it, so after a crash nobody has
seen a move that the restored table lacks. The public record is the table's :class:`Page`.

A little over 500 lines: what is left here is the match driver (deal, apply, what happens after
each move, rematch, close), which runs under the one lock; seating, señas, bots, the turn clock,
the pages, the records and the saved state are their own modules (``seating.py``, ``notify.py``,
``bots.py``, ``turns.py``, ``page.py``, ``records.py``, ``state.py``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.engine import Action, Match, MusError, Phase, Rules, Shuffler, secure_shuffle
from musbot.engine import events as ev
from musbot.engine.senas import SenaLog, senas_open

from . import render
from .bots import Bots
from .clock import Clock, RealClock
from .core import State
from .notify import Notifier, SenaCommands
from .page import Page, Pages
from .records import MatchRecords
from .seating import Seat, Seating, SeatingCommands, TableError
from .transport import Transport
from .turns import DEFAULT_TURN_SECONDS, TurnKeeper, check_turn_seconds

log = logging.getLogger(__name__)

_DEALS = (ev.HandStarted, ev.CardsReplaced, ev.Reshuffled)
"""Events with cards from the shuffler: only a whole saved state keeps them."""

ChangeHook = Callable[["Table"], Awaitable[None]]
"""Called under the table's lock after every applied change (persistence, see ``persist.py``)."""

__all__ = ["ChangeHook", "Seat", "State", "Table", "TableError"]


class Table(SeatingCommands, SenaCommands):
    """A table in a channel. Public coroutines take the lock; ``_``-methods expect it held.
    Sitting down, leaving and coming back are in ``seating.py``; the bots in ``bots.py``; the
    turn clock in ``turns.py``; what each person is told in ``notify.py``; the public record in
    ``page.py`` (señas in ``notify.py`` too); the match records in ``records.py``; the saved
    form in ``state.py``."""

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
        """Awaited after every change, lock held; with it the table keeps match records."""
        self.records = MatchRecords(kept=on_change is not None)
        self.senas = SenaLog()
        """The señas on the current cards (§7)."""
        self.pages = Pages(self._event_lines)
        """The public record: the hand in play (or the lobby), and the page before."""
        self.notify = Notifier(self)
        self.bots = Bots(self)
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self.turns = TurnKeeper(self)
        """The turn clock, and what happens when time runs out (see ``turns.py``)."""
        self._turn = 0
        """Bumped on every applied action: a timer or a bot only plays the turn it was for."""
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
    def page(self) -> Page:
        """The page in play: what a transport shows (see ``page.py``)."""
        return self.pages.page

    @property
    def previous(self) -> Page | None:
        return self.pages.previous

    @property
    def outbox(self) -> list[dict[str, Any]]:
        """Match records (start, finished hands, result) not yet stored; saved with the table's
        state, so a crash between saving and storing loses none of them."""
        return self.records.outbox

    @outbox.setter
    def outbox(self, items: list[dict[str, Any]]) -> None:
        self.records.outbox = items

    @property
    def match_info(self) -> dict[str, Any] | None:
        return self.records.info

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

    def discard_round(self) -> tuple[int, int] | None:
        """(hand number, mus round) while the hand is in a discard round, else None: which
        cards a discard prompt speaks of."""
        match = self.match
        if match is None or match.finished or match.hand.phase is not Phase.DESCARTE:
            return None
        return match.hand_number, match.hand.mus_rounds

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
            self.pages.note(text)
            await self._changed()
            self._show()

    async def scrub_user(self, user_id: int, name: str) -> bool:
        """«Forget me»: a seated person keeps the seat under a neutral name; the match records
        (the one in play and those waiting to be stored) no longer name them, nor, where the
        person no longer sits, hold their id; the pages say the neutral name; the bots forget how
        they bet. Returns whether anything of theirs was here."""
        async with self._lock:
            seat = self.seat_of(user_id)
            found = seat is not None or self.records.held_by(user_id)
            old_names = self.records.forget(
                user_id, keep_id=seat is not None and self.state == "playing")
            if seat is not None:
                occupant = self.seats[seat]
                assert occupant is not None
                old_names.add(occupant.name)
                occupant.name = name
            self.bots.forget(user_id)  # how they bet, as the bots read it
            if self.opener_id == user_id and seat is None:
                self.opener_id = None  # closing the table is left to whoever manages it
                found = True
            match = self.match
            events = match.hand.events if match is not None else []
            for old in sorted(old_names - {name}, key=len, reverse=True):
                self.pages.rename(old, name, events, self.page_tail())
            if found:
                await self._changed()
                self._show()
            return found

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
            if self.pages.remember(page_number, refs) and self.state != "closed":
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
        self.bots.cancel()

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
        self.records.start(self.seats, self.league_id, self.rules)
        self._journal = None
        self._new_cards(self.match.hand.events)
        self.pages.turn(self.match.hand_number)
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
                self.bots.schedule()
                return
            events = self._apply(seat, self.bots.decide(seat))
        self.turns.arm()

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
            self.bots.hand_over(hand, number)
        if match.winner is not None:
            self._record("finish", winner=match.winner, summary=match.summary(),
                         rated=self.records.rated)
        return events

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
        self.records.bot_took_over()

    def _record(self, kind: str, **data: Any) -> None:
        if self.records.add(kind, **data):
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

    async def _publish(self, events: list[ev.Event]) -> bool:
        """Tells everyone what ``events`` show: the page for all, each person's private text;
        True when that changed the state (bots sent señas on the new cards, closed DMs were
        announced)."""
        match = self.match
        self.pages.add_events(events, match.hand_number if match is not None else 0)
        self._show()
        match = self.match
        assert match is not None
        if any(isinstance(e, (ev.HandStarted, ev.CardsReplaced)) for e in events) \
                and not match.finished:
            warned = [await self.notify.send_hand(seat) for seat in range(self.players)]
            return await self.bots.send_senas() or any(warned)
        if events:
            await self.notify.update_views()
        return False

    # --- the page -----------------------------------------------------------------------------

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
        self.pages.note(render.t(key, self.lang, **params))

    def _show(self) -> None:
        """The public face changed and is saved: the transport shows it when it can (it only
        takes note now, so nothing here waits for the outside world)."""
        self.transport.changed(self)

    # --- small helpers ------------------------------------------------------------------------

    async def _close(self, key: str) -> None:
        if self.state == "playing":
            self._record("abandon")  # nobody won: the match counts nowhere
        self.state = "closed"
        self.turns.cancel()
        self.bots.cancel()
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
