"""One table's whole state, with no I/O: seats, the match, señas, the public record, the match
records, the turn clock's deadline as data, and the bots' decisions.

Every command returns a :class:`~musbot.table.result.Result` (what happened, what to save, what
each person is told), or refuses with a coded error in it and changes nothing: it checks before
it changes. Time comes in as an argument (``now``), randomness from the table's own generator, so
the state is tested without asyncio and replays exactly. Its runner
(:class:`~musbot.table.runner.Table`) owns the lock, the clock and the order «save, then publish».
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, Literal

from musbot.ai.base import hand_over
from musbot.coach import HandBook, ReviewAsk
from musbot.engine import Action, Match, MusError, Phase, Shuffler, secure_shuffle
from musbot.engine import events as ev
from musbot.engine.senas import Sena, SenaLog, check_sena, senas_open
from musbot.i18n import TABLE
from musbot.settings import TableSettings

from . import ending, render
from .clockwork import Deadline
from .entry import Entry
from .page import EventLines, Page, Pages
from .readings import TableReadings, question
from .records import MatchRecords
from .result import DiscardRound, HandDealt, Result, Save, SenaShown, command
from .seats import Seat, Seating, TableError

Lifecycle = Literal["waiting", "playing", "finished", "closed"]

_DEALS = (ev.HandStarted, ev.CardsReplaced, ev.Reshuffled)
"""Events with cards from the shuffler: only a whole saved state keeps them."""

UNSEEDED = random.Random()
"""The chance where no seed was given: one generator for all tables (each would keep 2.5 KB)."""


class TableState:
    """A table in a channel, as data and rules. See the module docstring."""

    def __init__(self, channel_id: int, settings: TableSettings | None = None, *,
                 guild_id: int | None = None, opener_id: int | None = None,
                 league_id: int | None = None, bots_alone: bool = False,
                 first_mano: int | None = None, rng: random.Random | None = None,
                 shuffler: Shuffler = secure_shuffle, kept: bool = False,
                 entry: Entry | None = None) -> None:
        self.channel_id = channel_id
        self.settings = settings or TableSettings()
        self.guild_id = guild_id
        self.opener_id = opener_id
        """Who opened the table: may close it without Manage Channels."""
        self.league_id = league_id
        """The league this table's matches count for (None: a friendly table)."""
        self.bots_alone = bots_alone
        """Whether a match may start with no person seated (demos, ``musbot play --auto``)."""
        self.entry = entry or Entry()
        """A tournament match's: who alone sits here, and with what games (``entry.py``)."""
        self.first_mano = first_mano
        self.rng = rng or UNSEEDED
        self.shuffler = shuffler
        self.seating = Seating(self.settings.rules.jugadores)
        self.match: Match | None = None
        self.lifecycle: Lifecycle = "waiting"
        self.records = MatchRecords(kept=kept)
        """Match records for storage, kept only where something stores them (``kept``)."""
        self.senas = SenaLog()
        """The señas on the current cards (§7)."""
        self.pages = Pages()
        self.turn = 0
        """Actions applied: a move's identity for the clock and the bots."""
        self.deadline: Deadline | None = None
        """When the person to act is due a reminder, then runs out (``clockwork.py``)."""
        self.paused: bool = False
        """Waiting for its database (a change could not be saved, ``pause.py``): nothing is
        played, no clock runs, every command is refused until a save succeeds again."""
        self.hidden: str | None = None
        """Waiting to be seen again (its channel lost to the bot, ``musbot.discordio.access``):
        why, in the table's language. Nothing is played, no clock runs, moves are refused."""
        self.prompted: tuple[int, int] | None = None
        """The discard round (hand, mus round) whose pick controls were last handed out."""
        self.readings = TableReadings()
        """How the bots read each player who sat here, across matches (``readings.py``)."""
        self.handbook = HandBook()
        """The match's last hands, for «¿Cómo jugué?» (saved with the table)."""
        self.left_deal: set[int] = set()
        """Who left the hand in play: nobody holds two hands of one deal (``lobby.join``)."""

    # --- what anyone may ask --------------------------------------------------------------

    @property
    def rules(self) -> Any:
        return self.settings.rules

    @property
    def lang(self) -> str:
        return self.settings.language

    @property
    def players(self) -> int:
        return self.settings.rules.jugadores

    @property
    def seats(self) -> list[Seat | None]:
        return self.seating.seats

    def names(self) -> dict[int, str]:
        """Each seat's name as shown: visible, no two alike (:func:`.seats.distinct_names`)."""
        return self.seating.names(TABLE.template("unnamed_seat", self.lang),
                                  TABLE.template("name_in_seat", self.lang))

    @property
    def match_key(self) -> str:
        """The match in play's unique key (kept with the table across restarts); empty before
        the first match."""
        info = self.records.info
        return str(info["key"]) if info is not None else ""

    def seat_of(self, user_id: int) -> int | None:
        return self.seating.seat_of(user_id)

    def humans(self) -> list[int]:
        return self.seating.humans()

    def bot_turn(self) -> int | None:
        """The seat whose bot is to play now, if any: the one place that says so."""
        seat, occupant = self._to_act()
        return seat if occupant is not None and occupant.bot_plays else None

    def person_to_act(self) -> int | None:
        """The seat of the person whose turn it is, if a person (not a bot for them) plays it."""
        seat, occupant = self._to_act()
        return seat if occupant is not None and not occupant.bot_plays else None

    def _to_act(self) -> tuple[int | None, Seat | None]:
        match = self.match
        if self.lifecycle != "playing" or match is None or match.finished or self.paused or \
                self.hidden is not None:
            return None, None
        seat = match.to_act
        return seat, self.seats[seat] if seat is not None else None

    def awaits(self, user_id: int) -> bool:
        """Whether the match waits for this person now (their turn)."""
        match = self.match
        seat = self.seat_of(user_id)
        return (self.lifecycle == "playing" and match is not None and seat is not None
                and match.to_act == seat)

    def discard_round(self) -> tuple[int, int] | None:
        """(hand number, mus round) while the hand is in a discard round, else None."""
        match = self.match
        if match is None or match.finished or match.hand.phase is not Phase.DESCARTE:
            return None
        return match.hand_number, match.hand.mus_rounds

    def senas_open(self) -> bool:
        """Whether señas may be sent now (§7: the variant, and never in a corrido hand)."""
        match = self.match
        return (match is not None and not match.finished
                and senas_open(self.rules, match.hand.corrido))

    def page_tail(self) -> list[ev.Event]:
        """The events after the last hand's own that belong on its page: the vaca and the
        match it won (the match keeps only the hand's events)."""
        match = self.match
        if match is None or match.winner is None:
            return []
        return [ev.VacaWon(match.winner, (match.vacas[0], match.vacas[1])),
                ev.MatchWon(match.winner)]

    def event_renderer(self) -> EventLines:
        """The table's events as lines, with the seats' names as they are now: taken once for
        a batch of events, which never changes who sits."""
        return functools.partial(render.event_lines, names=self.names(), players=self.players,
                                 target=self.rules.puntos, lang=self.lang)

    def require_seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    def require_match(self) -> Match:
        if self.match is None or self.lifecycle != "playing":
            raise TableError("not_started" if self.lifecycle == "waiting" else "match_over")
        return self.match

    def require_open(self) -> None:
        if self.lifecycle == "closed":
            raise TableError("table_closed")

    # --- the match ----------------------------------------------------------------------------

    @command
    def start(self, user_id: int | None = None) -> Result:
        """Fills empty seats with bots and deals the first hand."""
        self.require_open()
        if self.lifecycle != "waiting":
            raise TableError("already_started")
        return self._begin(user_id, "started")

    @command
    def rematch(self, user_id: int | None = None) -> Result:
        """A new match with the same seats, once the last one is over."""
        self.require_open()
        if self.lifecycle != "finished":
            raise TableError("not_finished")
        return self._begin(user_id, "rematch")

    def _begin(self, user_id: int | None, key: str) -> Result:
        if user_id is not None:
            self.require_seat(user_id)
        if not self.humans() and not self.bots_alone:
            raise TableError("no_humans")
        if not self.entry.seated(self.humans()):
            raise TableError("entrants_missing")
        for seat in range(self.players):
            if self.seats[seat] is None:
                self.seats[seat] = self.bot_seat(seat, self.settings.bot_level)
        for occupant in self.seats:
            if occupant is not None:
                occupant.expiries = 0
        first = self.first_mano if self.first_mano is not None else \
            self.rng.randrange(self.players)
        match = self.match = Match(self.rules, first_mano=first, shuffler=self.shuffler,
                                   games=self.entry.games if key == "started" else (0, 0))
        self.handbook.new_match()
        self.lifecycle = "playing"
        self.records.start(self.seats, self.league_id, self.rules)
        self.pages.turn(match.hand_number)
        self.say(key)
        events = list(match.hand.events)
        self.pages.add_events(events, match.hand_number, self.event_renderer())
        result = self._dealt(events)
        result.events = events
        return result

    @command
    def move(self, user_id: int, action: Action) -> Result:
        """A seated person's move."""
        seat = self.require_seat(user_id)
        self.require_match()
        if self.hidden is not None:
            raise TableError("table_paused", reason=self.hidden)
        result = self.apply(seat, action)
        person = self.seats[seat]
        assert person is not None
        if person.expiries:
            person.expiries = 0
            result.need(Save.WHOLE)
        return result

    def bot_move(self, seat: int, action: Action | None = None) -> Result:
        """The bot's move for ``seat`` (``action``: thought elsewhere), applied; legal by
        construction."""
        self.readings.bot_spoke(seat, self.seats[seat])
        return self.apply(seat, self.decide(seat) if action is None else action, by_bot=True)

    def decide(self, seat: int) -> Action:
        return question(self, seat).answer()

    def apply(self, seat: int, action: Action, *, by_bot: bool = False) -> Result:
        """Every action goes through here: the engine applies it (or refuses, nothing changed),
        and a finished hand or match becomes a record."""
        match = self.require_match()
        hand, number, games = match.hand, match.hand_number, len(match.games_played)
        index = len(hand.actions)
        events = match.apply(seat, action)
        new_player = bool(self.entry) and self.records.moved(seat, by_bot=by_bot)
        if self.entry and len(match.games_played) > games:  # a tournament's: who played
            self.records.game_over([s for s, o in enumerate(self.seats) if o and o.user_id])
        self.handbook.spoke(index, self.senas.seen_by(seat))
        self.turn += 1
        result = Result(events=list(events), moves=[(seat, action)], save=Save.MOVES,
                        shown=True)
        if hand.finished or match.hand is not hand or new_player or \
                any(isinstance(e, _DEALS) for e in events):
            result.need(Save.WHOLE)  # cards from the shuffler: the state is saved whole
        if hand.finished:
            transcript = hand.transcript()
            self.handbook.hand_over(number, transcript)
            self._record("hand", into=result, number=number, transcript=transcript,
                         result=hand.result(), ordagos=[o.to_dict() for o in hand.ordagos()])
        if match.winner is not None:
            self.lifecycle = "finished"
            self.deadline = None
            self._record("finish", into=result, winner=match.winner, summary=match.summary(),
                         rated=self.records.rated)
        self.pages.add_events(events, match.hand_number, self.event_renderer())
        if hand.finished:
            self._hand_over(hand, number, events)
        if any(isinstance(e, (ev.HandStarted, ev.CardsReplaced)) for e in events):
            result.merge(self._dealt(events))
        else:
            result.notices += self._discard_round()
        return result

    def _dealt(self, events: Sequence[ev.Event]) -> Result:
        """New cards (their events on the page already): new señas (and a new hand may warn of
        closed DMs again); each person gets their hand, and the bots signal theirs."""
        result = Result(save=Save.WHOLE, shown=True)
        if any(isinstance(e, ev.HandStarted) for e in events):
            for occupant in self.seats:
                if occupant is not None:
                    occupant.dm_warned = False
            self.readings.dealt(self.seats, self.settings.bot_level)
            self.handbook.dealt(dict(enumerate(self.seats)))
            self.left_deal.clear()
        self.senas = SenaLog()
        match = self.match
        if match is None or match.finished:
            return result
        for seat, occupant in enumerate(self.seats):
            if occupant is not None and occupant.user_id is not None:
                result.notices.append(HandDealt(occupant.user_id, seat))
        if self.senas_open():
            for seat, occupant in enumerate(self.seats):
                if occupant is None or occupant.human or occupant.bot is None:
                    continue
                for sena in occupant.bot.choose_senas(match.view(seat), self.rng):
                    try:
                        self._check_sena(seat, sena)
                    except MusError:
                        continue
                    result.notices += self._deliver_sena(seat, sena)
        result.notices += self._discard_round()
        return result

    def _discard_round(self) -> list[DiscardRound]:
        """Each person's pick controls, once a discard round, when one begins."""
        round_ = self.discard_round()
        if round_ is None or round_ == self.prompted:
            return []
        self.prompted = round_
        return [DiscardRound(occupant.user_id, seat) for seat, occupant in enumerate(self.seats)
                if occupant is not None and occupant.user_id is not None]

    def _hand_over(self, hand: Any, number: int, events: Sequence[ev.Event]) -> None:
        """The page gets the hand's summary (``ending.py``); the bots, their seat's view of it."""
        ending.hand_ended(self, hand, number, events)
        for seat, occupant in enumerate(self.seats):
            if occupant is not None and occupant.bot is not None:
                hand_over(occupant.bot, hand, seat, number)
        self.readings.learn(hand.view(-1), self.seats, self.settings.bot_level)

    def _record(self, kind: str, *, into: Result, **data: Any) -> None:
        if self.records.add(kind, **data):
            into.need(Save.WHOLE)

    def review_ask(self, user_id: int, number: int | None = None,
                   lang: str | None = None) -> ReviewAsk:
        """«¿Cómo jugué?» of hand ``number``, by whoever held its cards (``musbot.coach.book``)."""
        return self.handbook.ask(self.match, user_id, number, lang or self.lang)

    # --- señas --------------------------------------------------------------------------------

    @command
    def send_sena(self, user_id: int, sena: Sena) -> Result:
        """A person's seña to the partner(s), if the hand shows it (§7); maybe caught by one
        opponent."""
        seat = self.require_seat(user_id)
        self.require_match()
        self._check_sena(seat, sena)
        return Result(save=Save.WHOLE, notices=list(self._deliver_sena(seat, sena)))

    def _check_sena(self, seat: int, sena: Sena) -> None:
        match = self.require_match()
        hand = match.hand
        check_sena(self.rules, corrido=hand.corrido, finished=hand.finished,
                   cards=match.view(seat).cards, sena=sena, sent=self.senas.sent_by(seat))

    def _deliver_sena(self, seat: int, sena: Sena) -> list[SenaShown]:
        notices = []
        for receiver, caught in self.senas.send(self.rules, seat, sena, self.rng):
            occupant = self.seats[receiver]
            if occupant is not None and occupant.user_id is not None:
                notices.append(SenaShown(occupant.user_id, seat, sena, caught))
        return notices

    # --- helpers ------------------------------------------------------------------------------

    def say(self, key: str, **params: object) -> None:
        """A notice of the table's own on its page, in its language."""
        self.pages.note(TABLE(key, self.lang, **params))

    def bot_seat(self, seat: int, level: str) -> Seat:
        return Seat.robot(TABLE("bot_name", self.lang, seat=seat + 1), level)

    @property
    def page(self) -> Page:
        return self.pages.page


__all__ = ["Lifecycle", "TableState"]
