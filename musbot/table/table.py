"""One live table in one channel: seats, a match, bots, señas, the turn timer, and a transport.

The engine decides everything about the game; this layer decides who sits where, who may speak,
what each person is told, and when time runs out. All changes go through one ``asyncio.Lock`` per
table, so two commands that race (two players, or a player and the timer) are applied one after
the other against the state the first one left.
"""

from __future__ import annotations

import asyncio
import logging
import random
import unicodedata
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from musbot.ai import DEFAULT_LEVEL, LEVELS, Player, SenaSeen, make_player
from musbot.ai.base import hand_over
from musbot.engine import (
    Action,
    Hand,
    Match,
    MusError,
    Rules,
    SeatView,
    Shuffler,
    secure_shuffle,
)
from musbot.engine import events as ev
from musbot.engine.senas import Sena, parse_sena, senas_posibles

from . import render
from .clock import Alarm, Clock, RealClock
from .transport import DmClosed, Transport

log = logging.getLogger(__name__)

DEFAULT_TURN_SECONDS = 60.0
MIN_TURN_SECONDS = 15.0
MAX_TURN_SECONDS = 600.0
REMINDER_SECONDS = 15.0
"""The reminder comes when this much time is left."""
MAX_EXPIRIES = 3
"""Expiries in a row before a bot takes the seat over until «vuelvo»."""
COME_BACK_WORDS = frozenset({"vuelvo", "ya vuelvo", "estoy aqui", "i'm back", "back"})
_DEALS = (ev.HandStarted, ev.CardsReplaced, ev.Reshuffled)
"""Events with cards from the shuffler: only a whole saved state keeps them."""
_NEW_CARDS = (ev.HandStarted, ev.CardsReplaced)
"""Events after which every seat holds new cards (its DM, its señas)."""

State = Literal["waiting", "playing", "finished", "closed"]
ChangeHook = Callable[["Table"], Awaitable[None]]
"""Called under the table's lock after every applied change (persistence, see ``persist.py``)."""


class TableError(MusError):
    """A table command that cannot be done now (seat taken, match not started, …)."""


@dataclass
class Seat:
    """Who sits in a seat. ``user_id`` None is a bot's seat; a person may be ``away`` while a bot
    plays for them."""

    name: str
    user_id: int | None = None
    bot: Player | None = None
    away: bool = False
    expiries: int = 0
    dm_warned: bool = False
    level: str | None = None
    """The bot level of a bot's seat, kept so a restored table seats the same bot."""

    @property
    def human(self) -> bool:
        return self.user_id is not None

    @property
    def bot_plays(self) -> bool:
        return not self.human or self.away


@dataclass
class _HandSenas:
    """Señas of the current cards: sent (to refuse repeats) and received, per seat."""

    sent: dict[int, set[Sena]] = field(default_factory=dict)
    received: dict[int, list[tuple[int, Sena, bool]]] = field(default_factory=dict)


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
            _check_turn_seconds(turn_seconds)
        self.channel_id = channel_id
        self.transport = transport
        self.rules = rules or Rules()
        self.clock: Clock = clock or RealClock()
        self.rng = rng or random.Random()
        self.shuffler = shuffler
        self.first_mano = first_mano
        self.turn_seconds = turn_seconds
        """None: no turn timer (the terminal)."""
        self.bot_level = bot_level
        self.bot_delay = bot_delay
        """Seconds a bot «thinks» before speaking, so people can follow; 0 in tests."""
        self.lang = lang
        self.bots_alone = bots_alone
        """Whether a match may start with no person seated (demos, ``musbot play --auto``)."""
        self.guild_id = guild_id
        self.opener_id = opener_id
        """Who opened the table: may close it without Manage Channels."""
        self.league_id = league_id
        """The league this table's matches count for (None: a friendly table)."""
        self.seats: list[Seat | None] = [None] * self.rules.jugadores
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
        self._on_close = on_close
        self._lock = asyncio.Lock()
        self._timer: asyncio.Task[None] | None = None
        """A timer's reminder or expiry while it runs (it takes the lock like a command)."""
        self._alarm: Alarm | None = None
        """The table's one scheduled alarm, due at ``_alarm_at`` (see :meth:`_set_alarm`)."""
        self._alarm_at = 0.0
        self._due: tuple[float, Callable[[], Awaitable[None]]] | None = None
        """When the turn timer's next step (reminder or expiry) is due, and that step."""
        self._turn = 0
        """Bumped on every applied action: a timer only fires for the turn it was armed for."""
        self._senas = _HandSenas()
        self._journal: list[tuple[int, Action]] | None = None
        """The moves applied since the last save, while they are the only change: a save may
        append them to the table's journal instead of writing its whole state (see
        :meth:`take_moves`). None: something else changed, the whole state is due."""
        self._texts: dict[int, tuple[tuple[Any, ...], str]] = {}
        """Each seat's last private text and what it was rendered from (see ``_private_text``)."""
        self._games_before: tuple[int, int] = (0, 0)
        """Games won before the last action: the match resets them when a vaca is won, and the
        «¡Juego para…!» of the game that won it still tells the count."""

    # --- what anyone may ask ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.jugadores

    def names(self) -> dict[int, str]:
        return {i: s.name for i, s in enumerate(self.seats) if s is not None}

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and s.user_id is not None]

    def status(self) -> str:
        """The public table status (seats, pairs, score, lance, bet, turn)."""
        view = self.match.view(-1) if self.match is not None else None
        return render.status_text(view, self.names(), self._notes(), self.rules, self.lang)

    def private_text(self, user_id: int) -> str:
        """«Ver mis cartas»: the private text of the user's seat, from that seat's view only."""
        seat = self._require_seat(user_id)
        if self.match is None:
            raise TableError("not_started")
        return self._private_text(seat)

    def senas_open(self) -> bool:
        """Whether señas may be sent now (§7: the variant, and never in a corrido hand)."""
        return (self.rules.senas and self.match is not None and not self.match.finished
                and not self.match.hand.corrido)

    # --- seating ------------------------------------------------------------------------------

    async def join(self, user_id: int, name: str, pair: int | None = None) -> int:
        """Sits a person; mid-match they take over a bot's seat. Returns the seat."""
        async with self._lock:
            self._require_open()
            already = self.seat_of(user_id)
            if already is not None:
                raise TableError("already_seated", number=already + 1)
            seat = self._free_seat(pair, take_bots=True)
            old = self.seats[seat]
            self.seats[seat] = Seat(name=name, user_id=user_id)
            if old is not None and self.state == "playing":
                await self._say("took_bot_seat", name=name, seat=seat + 1)
                await self._send_hand(seat)
                self._arm_timer()
            else:
                await self._say("joined", name=name, seat=seat + 1,
                                pair=render.pair_text(seat % 2, self.names(), self.players,
                                                      self.lang))
            await self._changed()
            return seat

    async def leave(self, user_id: int) -> None:
        """Frees the seat; mid-match a bot plays it, and a table left without people closes."""
        async with self._lock:
            seat = self._require_seat(user_id)
            person = self.seats[seat]
            assert person is not None
            if self.state != "playing":
                self.seats[seat] = None
                await self._say("left", name=person.name)
                await self._changed()
                return
            self.seats[seat] = Seat(name=person.name, bot=make_player(self.bot_level),
                                    level=self.bot_level)
            self._journal = None
            self._bot_took_over()
            await self._say("left_bot", name=person.name)
            if not self.humans():
                await self._close("closed_empty")
                return
            await self._advance([])
            await self._changed()

    async def add_bot(self, pair: int | None = None, level: str | None = None) -> int:
        """Sits a bot before the match (empty seats get bots at start anyway)."""
        async with self._lock:
            self._require_open()
            if self.state == "playing":
                raise TableError("already_started")
            level = level or self.bot_level
            if level not in LEVELS:
                raise TableError("unknown_level", level=level)
            seat = self._free_seat(pair, take_bots=False)
            self.seats[seat] = self._bot_seat(seat, level)
            await self._say("bot_added", level=level, seat=seat + 1)
            await self._changed()
            return seat

    async def set_turn_seconds(self, seconds: float) -> None:
        async with self._lock:
            _check_turn_seconds(seconds)
            self.turn_seconds = seconds
            await self._say("timeout_set", seconds=int(seconds))
            self._arm_timer()
            await self._changed()

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
        from musbot.commands import parse  # the grammar; imported late to keep layers loose

        if self.seat_of(user_id) is None:
            return False
        if _normal(text) in COME_BACK_WORDS:
            try:
                await self.come_back(user_id)
            except MusError as error:
                await self._reply_error(user_id, error)
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
                await self._reply_error(user_id, error)
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
            await self._say("back", name=person.name)
            self._arm_timer()
            await self._changed()

    async def set_league(self, league_id: int | None) -> None:
        """Makes the table count for a league (or a friendly one again); only before the match,
        so nobody finds out afterwards that a result counted."""
        async with self._lock:
            self._require_open()
            if self.state == "playing":
                raise TableError("already_started")
            self.league_id = league_id
            await self._changed()

    async def scrub_user(self, user_id: int, name: str) -> bool:
        """«Forget me»: the person's seat and pending records keep their place but no longer
        their name. Returns whether anything of theirs was here."""
        async with self._lock:
            found = False
            seat = self.seat_of(user_id)
            if seat is not None:
                occupant = self.seats[seat]
                assert occupant is not None
                occupant.name = name
                found = True
            infos = [self.match_info, *(item.get("match") for item in self.outbox)]
            for info in infos:
                for entry in (info or {}).get("seats", []):
                    if entry.get("user_id") == user_id:
                        entry["name"] = None
                        found = True
            if found:
                await self._changed()
            return found

    async def resume(self, *, announce: bool = True) -> None:
        """After a restart: restart the turn timer (a full turn: nobody could speak while the
        bot was down) and, with ``announce``, tell the channel (see :meth:`announce_restored`)."""
        async with self._lock:
            if self.state == "closed":
                return
            if announce:
                await self._announce_restored()
            if self.state == "playing":
                turn = self._turn
                await self._advance([])  # bots whose turn it is (an away player) play on
                if turn != self._turn:
                    await self._changed()

    async def announce_restored(self) -> None:
        """«Mesa restaurada», the status, and everyone's private text again: for a transport
        that could not speak yet when the table was resumed (Discord before its gateway)."""
        async with self._lock:
            if self.state != "closed":
                await self._announce_restored()

    async def _announce_restored(self) -> None:
        await self._say("restored")
        await self._public(self.status())
        for seat in range(self.players):
            await self._update_view(seat)

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
        """Clean shutdown: stop the timer but keep the table (it is restored at the next start),
        unlike :meth:`close`."""
        self._cancel_timer()

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
        if not self.rules.senas:
            raise TableError("senas_off")
        if match.hand.corrido:
            raise TableError("senas_corrido")
        cards = match.view(seat).cards
        if match.hand.finished or len(cards) != 4:
            raise TableError("sena_no_hand")
        if sena not in senas_posibles(cards, self.rules):
            raise TableError("sena_not_shown", sena=sena.nombre)
        if sena in self._senas.sent.get(seat, set()):
            raise TableError("sena_repeated")

    async def _deliver_sena(self, seat: int, sena: Sena) -> None:
        self._journal = None
        self._senas.sent.setdefault(seat, set()).add(sena)
        for partner in range(seat % 2, self.players, 2):
            if partner != seat:
                await self._tell_sena(partner, seat, sena, caught=False)
        # Always draw, so a seeded table stays reproducible whatever the probability.
        seen = self.rng.random() < self.rules.sena_cazada
        opponents = [s for s in range(self.players) if s % 2 != seat % 2]
        spotter = self.rng.choice(opponents)
        if seen:
            await self._tell_sena(spotter, seat, sena, caught=True)

    async def _tell_sena(self, to: int, sender: int, sena: Sena, *, caught: bool) -> None:
        self._senas.received.setdefault(to, []).append((sender, sena, caught))
        receiver = self.seats[to]
        if receiver is None or receiver.user_id is None:
            return
        text = render.sena_text(self.names().get(sender, "?"), sena, caught=caught,
                                lang=self.lang)
        # A closed DM is not announced: even saying «X got a seña» would tell the table.
        await self._private(receiver.user_id, text)
        await self._update_view(to)

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
        await self._changed()  # the deal is saved before anyone is told about it
        await self._say(key)
        await self._public(self.status())
        await self._advance(list(self.match.hand.events), saved=True)

    async def _advance(self, events: list[ev.Event], *, saved: bool = False) -> None:
        """Saves and publishes ``events``, lets bots play while it is their turn (each of their
        moves saved, then published), then arms the timer. Saved first: after a crash nobody has
        seen a move that the restored table lacks. ``saved``: the caller saved ``events``."""
        match = self._require_match()
        while True:
            if match.finished:
                self.state = "finished"
            if events and not saved:
                await self._changed(moves=True)
            saved = False
            changed = await self._publish(events)
            if match.finished:
                self._cancel_timer()
                return
            seat = match.to_act
            occupant = self.seats[seat] if seat is not None else None
            if seat is None or occupant is None or not occupant.bot_plays:
                if changed:
                    await self._changed()  # the bots' señas on the cards just shown, …
                break
            if self.bot_delay:
                await self.clock.sleep(self.bot_delay)
            events = self._apply(seat, self._bot_action(seat))
        self._arm_timer()

    def _apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Every action goes through here: the engine applies it, and a finished hand or match
        becomes a record in the outbox."""
        match = self._require_match()
        hand, number = match.hand, match.hand_number
        self._games_before = (match.games[0], match.games[1])
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
                         result=hand.result())
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
            self._senas = _HandSenas()
        elif any(isinstance(e, ev.CardsReplaced) for e in events):
            self._senas = _HandSenas()

    def _bot_took_over(self) -> None:
        """A bot played a seat for more than one turn: the match no longer rates anyone."""
        if self.match_info is not None:
            self.match_info["bot_took_over"] = True
            self._journal = None

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
        match = self._require_match()
        occupant = self.seats[seat]
        player = occupant.bot if occupant is not None and occupant.bot is not None else None
        player = player or make_player(self.bot_level)
        seen = [SenaSeen(sender, sena, not caught)
                for sender, sena, caught in self._senas.received.get(seat, [])]
        return player.decide(match.view(seat), self.rng, seen)

    async def _publish(self, events: list[ev.Event]) -> bool:
        """Tells everyone what ``events`` show; True when that changed the state: bots sent
        señas on the new cards, or someone's closed DMs were announced."""
        messages = render.public_messages(events, self.names(), players=self.players,
                                          target=self.rules.puntos, lang=self.lang,
                                          games=self._games_before)
        turn = self._turn_line()
        if messages and turn:
            # Whose turn it is, when a person must speak: bots never keep anyone waiting.
            messages[-1] += "\n" + turn
        for message in messages:
            await self._public(message)
        new_cards = any(isinstance(e, _NEW_CARDS) for e in events)
        match = self.match
        assert match is not None
        if new_cards and not match.finished:
            warned = [await self._send_hand(seat) for seat in range(self.players)]
            return await self._bot_senas() or any(warned)
        if events:
            for seat in range(self.players):
                await self._update_view(seat)
        return False

    def _turn_line(self) -> str | None:
        match = self.match
        seat = match.to_act if match is not None else None
        occupant = self.seats[seat] if seat is not None else None
        if occupant is None or occupant.bot_plays:
            return None
        return render.t("turn", self.lang, name=occupant.name)

    async def _send_hand(self, seat: int) -> bool:
        """The seat's new cards by DM; True if that could not be done and the channel was told
        (once a hand: a change of state)."""
        occupant = self.seats[seat]
        if occupant is None or occupant.user_id is None:
            return False
        text = self._private_text(seat)
        delivered = await self._private(occupant.user_id, text)
        warned = not delivered and not occupant.dm_warned
        if warned:
            occupant.dm_warned = True
            self._journal = None
            await self._say("dm_closed", mention=self.transport.mention(occupant.user_id))
        if self.transport.wants_view(self.channel_id, occupant.user_id):
            await self._view(occupant.user_id, text)
        return warned

    async def _update_view(self, seat: int) -> None:
        occupant = self.seats[seat]
        if occupant is None or occupant.user_id is None or self.match is None:
            return
        if self.transport.wants_view(self.channel_id, occupant.user_id):
            await self._view(occupant.user_id, self._private_text(seat))

    def _private_text(self, seat: int) -> str:
        assert self.match is not None
        view: SeatView = self.match.view(seat)
        names = self.names()
        received = [(names.get(sender, "?"), sena, caught)
                    for sender, sena, caught in self._senas.received.get(seat, [])]
        allowed = self.senas_open()
        key = render.hand_text_key(view, names, received, allowed, self.lang)
        cached = self._texts.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = render.hand_text(view, names, received=received, senas_allowed=allowed,
                                lang=self.lang)
        self._texts[seat] = (key, text)
        return text

    # --- the turn timer -----------------------------------------------------------------------

    def _arm_timer(self) -> None:
        self._cancel_timer_work()
        self._due = None
        match = self.match
        if self.turn_seconds is None or self.state != "playing" or match is None:
            return
        seat = match.to_act
        occupant = self.seats[seat] if seat is not None else None
        if seat is None or occupant is None or occupant.bot_plays:
            return
        seconds = self.turn_seconds or DEFAULT_TURN_SECONDS
        turn = self._turn
        if seconds > REMINDER_SECONDS:
            self._set_alarm(seconds - REMINDER_SECONDS, lambda: self._remind(turn, seat))
        else:
            self._set_alarm(seconds, lambda: self._time_up(turn, seat))

    def _set_alarm(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        """The turn timer's next step is due in ``seconds``. Every move sets it again, so the
        scheduled alarm is kept when it goes off no later than that: when it goes off early it
        schedules itself for the rest (:meth:`_ring`). A busy bot otherwise pushes and cancels
        an entry in the event loop's timer heap on every move of every table."""
        due = self.clock.now() + seconds
        self._due = (due, step)
        if self._alarm is not None and self._alarm_at <= due:
            return
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm_at = due
        self._alarm = self.clock.call_later(seconds, self._ring)

    def _ring(self) -> None:
        """The alarm went off: the step due now runs as a task, which holds the lock like any
        command; a step set later waits again; none (a bot's turn, the end) does nothing."""
        self._alarm = None
        if self._due is None:
            return
        due, step = self._due
        left = due - self.clock.now()
        if left > 0:
            self._alarm_at = due
            self._alarm = self.clock.call_later(left, self._ring)
            return
        self._due = None
        self._timer = asyncio.get_running_loop().create_task(self._timer_work(step))

    async def _timer_work(self, work: Callable[[], Awaitable[None]]) -> None:
        try:
            async with self._lock:
                await work()
        except asyncio.CancelledError:
            raise
        except Exception:  # a timer must never die silently nor take the table down
            log.exception("turn timer failed on table %s", self.channel_id)

    def _cancel_timer(self) -> None:
        self._due = None
        alarm, self._alarm = self._alarm, None
        if alarm is not None:
            alarm.cancel()
        self._cancel_timer_work()

    def _cancel_timer_work(self) -> None:
        task, self._timer = self._timer, None
        # The timer re-arms itself after an expiry: it must not cancel its own task.
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    async def _remind(self, turn: int, seat: int) -> None:
        occupant = self.seats[seat]
        if (turn != self._turn or self.state != "playing" or occupant is None
                or occupant.user_id is None):
            return
        await self._say("reminder", mention=self.transport.mention(occupant.user_id),
                        seconds=int(REMINDER_SECONDS))
        if turn == self._turn and self._due is None:
            self._set_alarm(REMINDER_SECONDS, lambda: self._time_up(turn, seat))

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
        await self._say("expired", name=occupant.name)
        events = self._apply(seat, self._bot_action(seat))
        if occupant.expiries >= MAX_EXPIRIES:
            occupant.away = True
            self._bot_took_over()
            await self._say("away", name=occupant.name)
        await self._advance(events)

    # --- small helpers ------------------------------------------------------------------------

    async def _public(self, text: str) -> None:
        """A channel message. A failing transport must not stop the game half-way through an
        action; the text is not logged, since after a showdown it holds cards."""
        try:
            await self.transport.public(self.channel_id, text)
        except Exception:
            log.warning("public message failed on table %s", self.channel_id, exc_info=True)

    async def _private(self, user_id: int, text: str) -> bool:
        """A DM; False when it could not be delivered (closed DMs or a transport failure)."""
        try:
            await self.transport.private(self.channel_id, user_id, text)
        except DmClosed:
            return False
        except Exception:
            log.warning("private message failed on table %s", self.channel_id, exc_info=True)
            return False
        return True

    async def _view(self, user_id: int, text: str) -> None:
        try:
            await self.transport.update_view(self.channel_id, user_id, text)
        except Exception:
            log.warning("view update failed on table %s", self.channel_id, exc_info=True)

    async def _say(self, key: str, **params: object) -> None:
        await self._public(render.t(key, self.lang, **params))

    async def _reply_error(self, user_id: int, error: MusError) -> None:
        text = error.message(self.lang, self.names())
        if "card" in error.params:
            # An error naming a card says something about a hand: only its owner reads it.
            if await self._private(user_id, text):
                return
            text = render.t("dm_closed", self.lang, mention=self.transport.mention(user_id))
        await self.transport.reply(self.channel_id, user_id, text)

    async def _close(self, key: str) -> None:
        if self.state == "playing":
            self._record("abandon")  # nobody won: the match counts nowhere
        self.state = "closed"
        self._cancel_timer()
        await self._say(key)
        await self._changed()
        if self._on_close is not None:
            self._on_close(self)

    def _notes(self) -> dict[int, str]:
        notes = {}
        for seat, occupant in enumerate(self.seats):
            if occupant is None:
                continue
            if not occupant.human:
                notes[seat] = render.t("status_bot", self.lang)
            elif occupant.away:
                notes[seat] = render.t("status_away", self.lang)
        return notes

    def _bot_seat(self, seat: int, level: str) -> Seat:
        return Seat(name=render.t("bot_name", self.lang, seat=seat + 1), bot=make_player(level),
                    level=level)

    def _free_seat(self, pair: int | None, *, take_bots: bool) -> int:
        if pair is not None and pair not in (0, 1):
            raise TableError("bad_pair", pair=pair + 1)
        order = range(self.players) if pair is None else range(pair, self.players, 2)
        for seat in order:
            if self.seats[seat] is None:
                return seat
        if take_bots:
            for seat in order:
                occupant = self.seats[seat]
                if occupant is not None and not occupant.human:
                    return seat
        raise TableError("table_full" if pair is None else "pair_full")

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


def _check_turn_seconds(seconds: float) -> None:
    if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise TableError("bad_timeout", seconds=seconds)


def _normal(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.strip(" .!¡").split())
