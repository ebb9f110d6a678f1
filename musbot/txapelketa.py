"""Runs a bot's tournaments (:mod:`musbot.tournament`) on live tables: each change applied,
saved, then acted on; a table per match, opened for its four players only, whose finished
match is the match's result; the grace time and the round's time on the bot's clock (a round
time up decides the match by its table's board, :func:`board`); sign-ups closed and drawn at
their deadline. No Discord here: a :class:`Venue` makes the places where the tables are played
and shows the news and the bracket (threads on Discord, ``musbot.discordio.venue``; plain
channel ids in ``musbot bench txapelketa``).

One order for every change, as for a table's moves: under the tournament's lock, the change is
made on the state, the state is saved (:meth:`Database.save_tournament`), and only then are
its events acted on (a table opened, a result told). A change that cannot be saved is undone
(the state read back) and raised. After a restart, :meth:`TournamentRunner.start` looks at
each tournament in play and does what its saved state asks and was not done: a match ready
without its table gets one (in the place it had, if it had one: never two), a table whose
match ended while the bot was down gives its result, a table whose match was decided
meanwhile closes. Nothing is done twice: every change of the state is idempotent.

A match's table is a table like any other (its clock, its bots for a missed turn), set to the
tournament's rules with one vaca of the match's games, so the score of games is carried from
game to game on the table (:attr:`musbot.tournament.Settings.table_rules`); only its four
players may sit, each with their partner, and it begins when the four have sat down. A game
of which a bot played every move of a person's seat (the person missed
:data:`~musbot.table.MAX_EXPIRIES` turns, or left, and was not back before the game ended)
flags the match for the organiser.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from musbot.i18n import catalog, error_text
from musbot.settings import TableSettings
from musbot.storage import Database, StorageError
from musbot.table import Clock, Table, TableManager
from musbot.table.clock import Alarm
from musbot.tournament import (
    Event,
    EventKind,
    Match,
    MatchState,
    Phase,
    Reporting,
    Settings,
    Tournament,
    TournamentError,
    parse_time,
)
from musbot.tournament.board import ICONS
from musbot.tournament.board import board as round_board
from musbot.tournament.labels import Words
from musbot.words import normalise

log = logging.getLogger(__name__)

WHEN = "\ue000"
"""Where a deadline's date and time go in a sentence (a venue writes it for each reader)."""
LEFT = "\ue001"
"""Where the time left until a deadline goes."""

Wall = Callable[[], datetime]
"""The time a tournament's changes are stamped with (UTC)."""


def wall_clock(clock: Clock) -> Wall:
    """Wall time that moves with ``clock``: now, plus what the clock has run since (a fake
    clock's tests and a real bot alike)."""
    base, start = datetime.now(UTC), clock.now()
    return lambda: base + timedelta(seconds=clock.now() - start)


@dataclass(slots=True)
class Cup:
    """A tournament this process runs: its stored state and where its news go."""

    tournament_id: int
    guild_id: int
    channel_id: int | None
    tournament: Tournament
    lang: str
    places: dict[str, int] = field(default_factory=dict)
    """Match id → the channel where its table is played."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    organiser: int | None = None
    """Who created it: told when a match needs their word (a table lost)."""

    @property
    def name(self) -> str:
        return self.tournament.settings.name


class Venue(Protocol):
    """Where a runner's tables are played and its news shown."""

    async def open_place(self, cup: Cup, match: Match, title: str) -> int | None:
        """A new place (a thread) for the match's table, ready for the table to show itself:
        its channel id, or None if none can be made now (the runner tries again later)."""
        ...

    async def reach_place(self, cup: Cup, channel_id: int) -> bool:
        """A place made before a restart, ready again for a new table; False if it is gone."""
        ...

    async def call_players(self, cup: Cup, channel_id: int, text: str,
                           users: Sequence[int]) -> None:
        """Tells the match's players, in its place, to sit down (notifying those ``users``)."""
        ...

    async def news(self, cup: Cup, text: str, users: Sequence[int] = ()) -> None:
        """A sentence of the tournament's (plain text: the venue escapes it), notifying
        ``users`` alone."""
        ...

    async def paused(self, cup: Cup, match: Match, text: str, users: Sequence[int]) -> None:
        """A match paused (its table lost): ``text`` told notifying ``users``, with the
        organiser's way to send it to a new table."""
        ...

    async def bracket(self, cup: Cup, matches: Collection[str] | None) -> None:
        """The bracket's pictures (those showing ``matches``; all when None) and its text."""
        ...

    async def timed_news(self, cup: Cup, text: str, users: Sequence[int],
                         when: datetime) -> None:
        """:meth:`news` whose ``text`` shows ``when`` where it holds :data:`WHEN` (the date
        and time in each reader's own zone) and :data:`LEFT` (how long from now)."""
        ...

    async def ask_organiser(self, cup: Cup, match: Match, text: str,
                            users: Sequence[int]) -> None:
        """A match's deadline passed: ``text`` notifying the organiser (``users``), with their
        choices in one tap: a walkover for either pair, a double walkover, more time."""
        ...

    async def board(self, cup: Cup, text: str) -> None:
        """The organiser's board (``text``, every match of the round in play): one message,
        posted once and then edited as it changes, within the channel's edits."""
        ...

    async def ask_agreement(self, cup: Cup, match: Match, text: str, users: Sequence[int],
                            number: int) -> None:
        """A reported result (``text``), notifying the other pair (``users``) alone, with their
        way to confirm or dispute report ``number`` in one tap."""
        ...


def say(key: str, lang: str, **params: object) -> str:
    """A sentence of the TXAPELKETA catalogue (a plural one in the form its count asks for)."""
    return str(catalog(lang).TXAPELKETA[key].format(**params))


class TournamentRunner:
    """Every tournament of one bot process (see the module docstring)."""

    def __init__(self, db: Database, tables: TableManager, venue: Venue, *, clock: Clock,
                 wall: Wall | None = None, turn_seconds: int | None = None,
                 shards: tuple[int, Collection[int]] | None = None) -> None:
        self.db = db
        self.tables = tables
        self.venue = venue
        self.clock = clock
        self.wall = wall or wall_clock(clock)
        self.turn_seconds = turn_seconds
        """A match table's turn clock (None: the table's default)."""
        self.shards = shards
        self.cups: dict[int, Cup] = {}
        self._by_place: dict[int, tuple[int, str]] = {}
        self._alarm: Alarm | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.started = False
        tables.watch(self._table_changed)

    # --- start-up -------------------------------------------------------------------------

    async def start(self) -> None:
        """Carries on every tournament of this process's shards (module docstring)."""
        if self.started:
            return
        self.started = True
        try:
            stored_cups = await self.db.open_tournaments(self.shards)
        except BaseException:
            self.started = False  # nothing was read: the next start reads them
            raise
        for stored in stored_cups:
            if stored.tournament_id in self.cups:
                continue  # made here meanwhile
            cup = await self._adopt(stored.tournament_id, stored.guild_id, stored.channel_id,
                                    stored.tournament, stored.created_by)
            async with cup.lock:
                await self._catch_up(cup)
        self._arm()

    async def _adopt(self, tournament_id: int, guild_id: int, channel_id: int | None,
                     tournament: Tournament, organiser: int | None) -> Cup:
        lang = await self._lang(guild_id)
        cup = Cup(tournament_id, guild_id, channel_id, tournament, lang,
                  await self.db.match_tables(tournament_id), organiser=organiser)
        self.cups[tournament_id] = cup
        for match_id, place in cup.places.items():
            self._bind(cup, match_id, place)
        return cup

    def _bind(self, cup: Cup, match_id: str, place: int) -> None:
        """``place`` is the match's: its table alone is played there (the manager refuses
        any other), and what that table does is the match's news."""
        self._by_place[place] = (cup.tournament_id, match_id)
        self.tables.reserve(place, match_key(cup, match_id))

    def _own_table(self, cup: Cup, match_id: str) -> Table | None:
        """The match's own table, live in its place: none if the place holds no table, or a
        table that is not the match's (a table is the match's by the key the runner gave it,
        or, saved before keys were, by its entrants being the match's four)."""
        place = cup.places.get(match_id)
        table = self.tables.get(place) if place is not None else None
        return table if table is not None and self._owns(cup, match_id, table) else None

    def _owns(self, cup: Cup, match_id: str, table: Table) -> bool:
        entry = table.state.entry
        if entry.match:
            return entry.match == match_key(cup, match_id)
        match = cup.tournament.matches.get(match_id)
        return bool(entry) and match is not None and entry.entrants == entrants_of(cup, match)

    async def _lang(self, guild_id: int) -> str:
        try:
            return (await self.db.server_settings(guild_id)).table.language
        except StorageError:
            return "es"

    async def _catch_up(self, cup: Cup) -> None:
        """What the saved state asks and was not done (lock held)."""
        t = cup.tournament
        for match in list(t.matches.values()):
            table = self._own_table(cup, match.id)
            if match.state in (MatchState.READY, MatchState.PLAYING):
                if t.settings.reporting is Reporting.TABLE:
                    continue  # played at a real table: nothing to open
                if match.paused_at is not None:
                    if table is not None and table.lifecycle != "closed" \
                            and table.hidden is None:
                        await self._change(cup, lambda t, now, m=match.id: t.resume(m, now=now))
                elif table is None:
                    await self._open_table(cup, match)
                elif table.lifecycle in ("playing", "finished"):
                    await self._table_news(cup, match.id, table)
            elif table is not None and match.decided:
                await self._close_table(cup, match)

    # --- changes --------------------------------------------------------------------------

    async def create(self, guild_id: int, channel_id: int, settings: Settings, *,
                     organiser: int | None, seed: int) -> Cup:
        """A new tournament taking sign-ups; its news go to ``channel_id``."""
        tournament = Tournament.new(settings, seed, now=self.wall())
        stored = await self.db.create_tournament(guild_id, tournament, created_by=organiser,
                                                 channel_id=channel_id)
        cup = await self._adopt(stored.tournament_id, guild_id, channel_id, stored.tournament,
                                organiser)
        self._arm()
        return cup

    async def change(self, cup: Cup,
                     step: Callable[[Tournament, datetime], list[Event]]) -> list[Event]:
        """One change (``step(tournament, now)``), saved, then acted on. Bad input raises
        :class:`TournamentError` and changes nothing; a save refused undoes it."""
        async with cup.lock:
            return await self._change(cup, step)

    async def _change(self, cup: Cup,
                      step: Callable[[Tournament, datetime], list[Event]]) -> list[Event]:
        events = step(cup.tournament, self.wall())
        if not events:
            return []
        try:
            await self.db.save_tournament(cup.tournament_id, cup.tournament)
        except BaseException:
            stored = await self._reload(cup)
            log.warning("tournament %s: a change could not be saved; back to revision %s",
                        cup.tournament_id, stored)
            raise
        await self._act(cup, events)
        self._arm()
        return events

    async def _reload(self, cup: Cup) -> int | None:
        try:
            cup.tournament = (await self.db.load_tournament(cup.tournament_id)).tournament
        except StorageError:
            return None
        return cup.tournament.revision

    async def draw(self, cup: Cup) -> list[Event]:
        """Closes the sign-ups and draws, seeded by the pairs' ratings in this server (their
        own, else made from their league ratings) when the settings say so."""
        ratings = await self.db.seeding_ratings(cup.guild_id, cup.tournament.people())
        return await self.change(cup, lambda t, now: t.draw(now=now, ratings=ratings))

    # --- what events do -------------------------------------------------------------------

    async def _act(self, cup: Cup, events: list[Event]) -> None:
        """The saved change's effects, in order (lock held). A failure of one (Discord, the
        database) is logged and left for :meth:`_catch_up`, which the next start runs."""
        lang = cup.lang
        t = cup.tournament
        words = Words(t, lang)
        decided: list[str] = []
        for event in events:
            try:
                kind = event.kind
                match = t.matches.get(event.match or "")
                if kind is EventKind.DRAWN:
                    await self.venue.news(cup, say("drawn", lang, name=cup.name,
                                                   pairs=len(t.pairs)))
                    for user in t.unpaired:
                        await self.venue.news(cup, say("unpaired", lang), [user])
                elif kind is EventKind.MATCH_READY and match is not None:
                    if t.settings.reporting is Reporting.TABLE:
                        await self._call_to_table(cup, match, words)
                    else:
                        await self._open_table(cup, match)
                elif kind is EventKind.RESULT_REPORTED and match is not None \
                        and match.report is not None:
                    await self._ask_agreement(cup, match, words)
                elif kind in (EventKind.DEADLINE_DAY, EventKind.DEADLINE_HOUR) \
                        and match is not None:
                    when = t.deadline_of(match)
                    if when is not None:
                        key = "deadline_day" if kind is EventKind.DEADLINE_DAY \
                            else "deadline_hour"
                        await self.venue.timed_news(cup, say(
                            key, lang, match=match.id, first=words.side(match, 0),
                            second=words.side(match, 1), when=WHEN, left=LEFT),
                            sorted(entrants_of(cup, match)), when)
                elif kind is EventKind.DEADLINE_PASSED and match is not None:
                    organiser = [cup.organiser] if cup.organiser is not None else []
                    await self.venue.ask_organiser(cup, match, say(
                        "deadline_passed", lang, match=match.id, first=words.side(match, 0),
                        second=words.side(match, 1)), organiser)
                elif kind is EventKind.DEADLINE_SET:
                    await self._deadline_news(cup, event.match, lang)
                elif kind is EventKind.RESULT_DISPUTED and match is not None:
                    report = match.report
                    games = "?" if report is None else f"{report.games[0]}–{report.games[1]}"
                    organiser = [cup.organiser] if cup.organiser is not None else []
                    await self.venue.news(cup, say(
                        "result_disputed", lang, match=match.id, games=games,
                        person=person_name(t, event.user, words)), organiser)
                elif kind is EventKind.MATCH_DECIDED and match is not None:
                    decided.append(match.id)
                    await self._close_table(cup, match)
                    await self.venue.news(cup, result_line(words, match, lang))
                elif kind is EventKind.MATCH_WITHDRAWN and match is not None:
                    await self._close_table(cup, match, reason="tournament_withdrawn")
                elif kind is EventKind.MATCH_REOPENED and match is not None:
                    await self.venue.news(cup, say("replayed", lang, match=match.id))
                elif kind is EventKind.MATCH_PAUSED and match is not None:
                    await self.venue.paused(cup, match, say(
                        "match_paused", lang, match=match.id, first=words.side(match, 0),
                        second=words.side(match, 1)), self._told_of_pause(cup, match))
                elif kind is EventKind.MATCH_RESUMED and match is not None:
                    await self.venue.news(cup, say("match_resumed", lang, match=match.id))
                elif kind is EventKind.BOTH_LATE and match is not None:
                    await self.venue.news(cup, say("both_late", lang, match=match.id))
                elif kind is EventKind.OVERTIME_LEVEL and match is not None:
                    await self.venue.news(cup, say(
                        "overtime_level", lang, match=match.id,
                        minutes=t.settings.round_minutes))
                elif kind is EventKind.BOT_FLAGGED and match is not None:
                    await self.venue.news(cup, say("bot_flagged", lang, match=match.id))
                elif kind is EventKind.GAME_FORFEITED and match is not None \
                        and event.pair is not None:
                    table = self._own_table(cup, match.id)
                    if table is not None and not match.decided:
                        await table.give_games((match.forfeits[0], match.forfeits[1]))
                    await self.venue.news(cup, say("game_forfeited", lang, match=match.id,
                                                   pair=words.pair(event.pair)))
                elif kind is EventKind.DISQUALIFIED and event.pair is not None:
                    pair = t.pairs[event.pair]
                    await self.venue.news(cup, say("disqualified", lang, pair=words.pair(pair),
                                                   reason=pair.disqualified or ""))
                elif kind is EventKind.CHAMPION:
                    await self._champion(cup, words)
                elif kind is EventKind.CANCELLED:
                    for match in t.matches.values():
                        await self._close_table(cup, match, reason="tournament_cancelled")
                    await self.venue.news(cup, say("cancelled", lang, name=cup.name,
                                                   reason=t.cancelled or ""))
            except Exception:
                log.exception("tournament %s: acting on %s failed", cup.tournament_id, event)
        try:
            if t.phase in (Phase.RUNNING, Phase.FINISHED) \
                    and any(e.kind in BOARD_NEWS for e in events):
                await self.venue.board(cup, board_text(cup, self.wall()))
        except Exception:
            log.exception("tournament %s: the board could not be shown", cup.tournament_id)
        try:
            if any(e.kind in (EventKind.DRAWN, EventKind.CHAMPION) for e in events):
                await self.venue.bracket(cup, None)
            elif decided:
                await self.venue.bracket(cup, decided)
        except Exception:
            log.exception("tournament %s: the bracket could not be shown", cup.tournament_id)

    async def _champion(self, cup: Cup, words: Words) -> None:
        t = cup.tournament
        champion, finalist = t.champion, t.finalist
        if champion is None:
            await self.venue.news(cup, say("over_no_champion", cup.lang, name=cup.name))
            return
        users = [u for u in champion.players if u is not None]
        text = say("champions", cup.lang, name=cup.name, pair=words.pair(champion))
        if finalist is not None:
            text += "\n" + say("finalists", cup.lang, pair=words.pair(finalist))
        await self.venue.news(cup, text, users)

    async def _deadline_news(self, cup: Cup, key: str | None, lang: str) -> None:
        """A deadline set: a match's (``key`` its id) or a round's (``round:N``)."""
        t = cup.tournament
        stamp_ = t.deadlines.get(key or "")
        if key is None or stamp_ is None:
            return
        if key.startswith("round:"):
            text = say("deadline_round", lang, round=key.removeprefix("round:"), when=WHEN,
                       left=LEFT)
        else:
            text = say("deadline_match", lang, match=key, when=WHEN, left=LEFT)
        await self.venue.timed_news(cup, text, (), parse_time(stamp_))

    async def _call_to_table(self, cup: Cup, match: Match, words: Words) -> None:
        """A match played at a real table: its four players are told, in the tournament's
        channel, to play it and report its result."""
        t = cup.tournament
        await self.venue.news(cup, say(
            "play_at_table", cup.lang, match=match.id, name=cup.name,
            first=words.side(match, 0), second=words.side(match, 1),
            games=t.settings.games_to_win), sorted(entrants_of(cup, match)))

    async def _ask_agreement(self, cup: Cup, match: Match, words: Words) -> None:
        report = match.report
        assert report is not None
        other = 1 - report.side
        pair = match.pairs[other]
        users = [] if pair is None else \
            [u for u in cup.tournament.pairs[pair].players if u is not None]
        text = say("result_reported", cup.lang, match=match.id, first=words.side(match, 0),
                   second=words.side(match, 1), games=f"{report.games[0]}–{report.games[1]}",
                   person=person_name(cup.tournament, report.user, words),
                   other=words.side(match, other))
        await self.venue.ask_agreement(cup, match, text, users, report.number)

    # --- the tables -----------------------------------------------------------------------

    def _settings(self, cup: Cup) -> TableSettings:
        settings = TableSettings(rules=cup.tournament.settings.table_rules, language=cup.lang)
        return settings if self.turn_seconds is None else \
            settings.with_(turn_seconds=self.turn_seconds)

    def _told_of_pause(self, cup: Cup, match: Match) -> list[int]:
        """Who hears that a match's table was lost: its four players and the organiser."""
        users = sorted(entrants_of(cup, match))
        if cup.organiser is not None and cup.organiser not in users:
            users.append(cup.organiser)
        return users

    async def _open_table(self, cup: Cup, match: Match) -> None:
        """The match's table, in its place (made now, or the one it had, if it can still be
        played there), for its four players only; they are called to sit down. Lock held."""
        t = cup.tournament
        words = Words(t, cup.lang)
        first, second = (t.pairs[p] for p in match.pairs if p is not None)
        place = cup.places.get(match.id)
        there = self.tables.get(place) if place is not None else None
        if there is not None:
            if self._owns(cup, match.id, there) and there.hidden is None:
                return
            if self._owns(cup, match.id, there):  # out of reach (a locked thread)
                await self.tables.close(there.channel_id, "tournament_moved", match=match.id)
            place = None  # a new place: this one is taken, or cannot be played in
        if place is None or not await self.venue.reach_place(cup, place):
            title = say("place_title", cup.lang, match=match.id, first=words.pair(first),
                        second=words.pair(second))
            place = await self.venue.open_place(cup, match, title[:100])
            if place is None:
                log.warning("tournament %s: no place for match %s yet", cup.tournament_id,
                            match.id)
                return
            await self.db.add_match_table(cup.tournament_id, match.id, place)
            cup.places[match.id] = place
        self._bind(cup, match.id, place)
        entrants = entrants_of(cup, match)
        table = self.tables.open(place, self._settings(cup), guild_id=cup.guild_id,
                                 entrants=entrants,
                                 given_games=(match.forfeits[0], match.forfeits[1]),
                                 match=match_key(cup, match.id))
        table.show()
        given = "" if not any(match.forfeits) else " " + say(
            "forfeits_so_far", cup.lang, games=f"{match.forfeits[0]}–{match.forfeits[1]}")
        text = say("call_players", cup.lang, match=match.id, name=cup.name,
                   first=words.pair(first), second=words.pair(second),
                   games=t.settings.games_to_win, grace=t.settings.grace_minutes) + given
        await self.venue.call_players(cup, place, text, sorted(entrants))

    async def _close_table(self, cup: Cup, match: Match, *,
                           reason: str = "tournament_decided") -> None:
        table = self._own_table(cup, match.id)
        if table is None or table.lifecycle == "closed":
            return
        if reason == "tournament_decided":
            score = f"{match.games[0]}–{match.games[1]}"
            await self.tables.close(table.channel_id, "tournament_decided", match=match.id,
                                    score=score)
        else:
            await self.tables.close(table.channel_id, reason, match=match.id)

    def _table_changed(self, table: Table) -> None:
        """The manager's watcher (the table's lock held): a match's own table began, ended,
        closed, or went out of reach or back. Any other table is no news of the match's."""
        found = self._by_place.get(table.channel_id)
        cup = self.cups.get(found[0]) if found is not None else None
        if found is None or cup is None or not self._owns(cup, found[1], table):
            return
        self._spawn(self._locked_news(cup, found[1], table))

    async def _locked_news(self, cup: Cup, match_id: str, table: Table) -> None:
        async with cup.lock:
            if table.lifecycle == "closed" or table.hidden is not None:
                await self._table_lost(cup, match_id, table)
                return
            await self._table_back(cup, match_id, table)
            if table.lifecycle in ("playing", "finished"):
                await self._table_news(cup, match_id, table)

    async def _table_lost(self, cup: Cup, match_id: str, table: Table) -> None:
        """The match's table closed without the tournament closing it (a moderator, its thread
        deleted) or went out of reach (its thread locked): the match pauses for the organiser,
        who is told once with its players. Lock held."""
        match = cup.tournament.matches.get(match_id)
        if match is None or match.decided or self._own_table(cup, match_id) not in (table, None):
            return  # decided (the tournament closed it), or played on elsewhere already
        try:
            await self._change(cup, lambda t, now: t.pause(match_id, now=now))
        except (TournamentError, StorageError):
            log.exception("tournament %s: match %s could not be paused", cup.tournament_id,
                          match_id)

    async def _table_back(self, cup: Cup, match_id: str, table: Table) -> None:
        """A paused match's table can be played at again (its thread unlocked): it plays on."""
        match = cup.tournament.matches.get(match_id)
        if match is None or match.paused_at is None or self._own_table(cup, match_id) is not table:
            return
        try:
            await self._change(cup, lambda t, now: t.resume(match_id, now=now))
        except (TournamentError, StorageError):
            log.exception("tournament %s: match %s could not resume", cup.tournament_id,
                          match_id)

    async def _table_news(self, cup: Cup, match_id: str, table: Table) -> None:
        """What a match's own table says (lock held): begun, or its result."""
        match = cup.tournament.matches.get(match_id)
        if match is None or match.decided or self._own_table(cup, match_id) is not table:
            return
        try:
            if match.state is MatchState.READY and table.lifecycle in ("playing", "finished"):
                await self._change(cup, lambda t, now: t.start(match_id, now=now))
            if table.lifecycle == "finished" and table.match is not None:
                played, tantos = table_score(table)
                games = (played[0] + match.forfeits[0], played[1] + match.forfeits[1])
                bot = bot_played(table)
                await self._change(cup, lambda t, now: t.record(
                    match_id, games, tantos, now=now, bot_game=bot))
        except (TournamentError, StorageError):
            log.exception("tournament %s: the table of %s could not give its result",
                          cup.tournament_id, match_id)

    # --- time -----------------------------------------------------------------------------

    def _next_due(self) -> datetime | None:
        """The earliest grace time, round time or sign-up deadline to act on."""
        times = []
        for cup in self.cups.values():
            t = cup.tournament
            if t.phase is Phase.SIGNUP and t.settings.deadline is not None:
                times.append(t.settings.deadline)
            if t.phase is Phase.RUNNING:
                deadline = t.next_deadline(self.wall())
                if deadline is not None:
                    times.append(deadline)
            if t.phase is not Phase.RUNNING or t.settings.reporting is not Reporting.DISCORD:
                continue
            grace, limit = t.settings.grace_minutes, t.settings.round_minutes
            for match in t.ready():
                if match.ready_at is None or match.paused_at is not None:
                    continue
                if match.state is MatchState.READY and "both_late" not in match.flags:
                    times.append(parse_time(match.ready_at)
                                 + timedelta(minutes=grace * (sum(match.forfeits) + 1)))
                if "overtime" not in match.flags:
                    times.append(parse_time(match.ready_at) + timedelta(minutes=limit))
        return min(times, default=None)

    def _arm(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        due = self._next_due()
        if due is not None:
            seconds = max(0.0, (due - self.wall()).total_seconds()) + 1.0
            self._alarm = self.clock.call_later(seconds, lambda: self._spawn(self.check_due()))

    async def check_due(self) -> None:
        """Sign-ups past their deadline are drawn; a match past its grace time loses the
        pairs not sat down at its table (by walkover, or a game, as the tournament says)."""
        now = self.wall()
        for cup in list(self.cups.values()):
            t = cup.tournament
            try:
                if t.phase is Phase.SIGNUP and t.settings.deadline is not None \
                        and now > t.settings.deadline:
                    try:
                        await self.draw(cup)
                    except TournamentError as problem:
                        await self.venue.news(cup, say("draw_failed", cup.lang, name=cup.name,
                                                       reason=error_text(problem, cup.lang)))
                        await self.change(cup, lambda t, now: t.cancel("-", now=now))
                    continue
                for reminder in t.deadlines_due(now):
                    await self.change(cup, lambda t, now, r=reminder: t.remind(
                        r.match, r.kind, now=now))
                for due in t.due(now):
                    if due.kind == "overtime":
                        await self._time_up(cup, due.match)
                        continue
                    absent = self._absent(cup, t.match(due.match))
                    if absent:
                        await self.change(cup, late(due.match, absent))
            except (TournamentError, StorageError):
                log.exception("tournament %s: a time limit could not be dealt with",
                              cup.tournament_id)
        self._arm()

    async def _time_up(self, cup: Cup, match_id: str) -> None:
        """A match whose round time ran out: decided by its table's board as it stands
        (:meth:`Tournament.overtime`); a table that has just finished gives its result
        instead."""
        async with cup.lock:
            table = self._own_table(cup, match_id)
            if table is not None and table.lifecycle == "finished":
                await self._table_news(cup, match_id, table)
                return
            match = cup.tournament.match(match_id)
            games, tantos, playing = board(table, match)
            bot = table is not None and bot_played(table)
            await self._change(cup, lambda t, now: t.overtime(
                match_id, games, tantos, playing=playing, now=now, bot_game=bot))

    def _absent(self, cup: Cup, match: Match) -> set[int]:
        """The sides whose two people have not both sat down at the match's table."""
        table = self._own_table(cup, match.id)
        seated = set(table.humans()) if table is not None else set()
        absent = set()
        for side, pair_id in enumerate(match.pairs):
            if pair_id is None:
                continue
            players = {u for u in cup.tournament.pairs[pair_id].players if u is not None}
            if not players <= seated:
                absent.add(side)
        return absent

    # --- housekeeping ---------------------------------------------------------------------

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Waits for the work the tables' news started (tests, the benchmark)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        for task in list(self._tasks):
            task.cancel()

    def cup_of(self, guild_id: int, name: str | None) -> Cup | None:
        """The server's tournament by name (ignoring case); without one, its only tournament
        taking sign-ups or in play."""
        mine = [c for c in self.cups.values() if c.guild_id == guild_id]
        if name is not None:
            return next((c for c in mine if normalise(c.name) == normalise(name)), None)
        live = [c for c in mine if c.tournament.phase in (Phase.SIGNUP, Phase.RUNNING)]
        return live[0] if len(live) == 1 else None


def match_key(cup: Cup, match_id: str) -> str:
    """A match's key on its table (:attr:`musbot.table.entry.Entry.match`)."""
    return f"{cup.tournament_id}:{match_id}"


def entrants_of(cup: Cup, match: Match) -> dict[int, int]:
    """The match's four people, each with their side (0 or 1)."""
    t = cup.tournament
    return {user: side for side, pair_id in enumerate(match.pairs) if pair_id is not None
            for user in t.pairs[pair_id].players if user is not None}


BOARD_NEWS = frozenset({
    EventKind.DRAWN, EventKind.MATCH_READY, EventKind.MATCH_STARTED, EventKind.MATCH_DECIDED,
    EventKind.MATCH_REOPENED, EventKind.MATCH_PAUSED, EventKind.MATCH_RESUMED,
    EventKind.MATCH_WITHDRAWN, EventKind.RESULT_REPORTED, EventKind.RESULT_DISPUTED,
    EventKind.DEADLINE_PASSED, EventKind.DEADLINE_SET, EventKind.ROUND_PAIRED,
    EventKind.KNOCKOUT_DRAWN, EventKind.DISQUALIFIED, EventKind.CHAMPION})
"""What changes a line of the organiser's board."""
BOARD_LIMIT = 2000
BOARD_KEYS = {"played": "board_played", "agreed": "board_agreed", "walkover": "board_walkover",
              "disputed": "board_disputed", "reported": "board_reported", "late": "board_late",
              "playing": "board_playing", "paused": "board_paused", "waiting": "board_waiting"}
"""A board line's sentence by the match's state (``TXAPELKETA.board_…``)."""


def board_text(cup: Cup, now: datetime) -> str:
    """The organiser's board in the tournament's language: a title with how many matches of
    the round are decided, then a line per match (its state's sign, its id, its pairs, its
    games or what it waits for), within one message."""
    t, lang = cup.tournament, cup.lang
    words = Words(t, lang)
    rows = round_board(t, now)
    done = sum(1 for r in rows if r.match.decided)
    lines = [say("board_title", lang, name=cup.name, done=done, total=len(rows))]
    for row in rows:
        match = row.match
        games = f"{match.games[0]}–{match.games[1]}"
        if row.status == "reported" and match.report is not None:
            games = f"{match.report.games[0]}–{match.report.games[1]}"
        lines.append(say(BOARD_KEYS[row.status], lang, icon=ICONS[row.status], match=match.id,
                         first=words.side(match, 0), second=words.side(match, 1),
                         games=games))
    text = "\n".join(lines)
    while len(text) > BOARD_LIMIT and len(lines) > 2:
        lines.pop()
        text = "\n".join(lines) + "\n…"
    return text


def zone_of(name: str) -> ZoneInfo:
    """The time zone a tournament's deadlines are written in; one the system does not know is
    the tournament's refusal (``tournament_bad_zone``)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise TournamentError("tournament_bad_zone", zone=name[:40]) from exc


def person_name(t: Tournament, user: int | None, words: Words) -> str:
    """A player's name as signed up (plain text for the venue to escape)."""
    for pair in t.pairs:
        if user is not None and user in pair.players:
            return words.person(pair.names[pair.players.index(user)])
    return words.person(None)


def late(match_id: str, sides: set[int]) -> Callable[[Tournament, datetime], list[Event]]:
    """The change that gives a late pair's walkover (or game) at a match."""
    return lambda t, now: t.late(match_id, sides, now=now)


def result_line(words: Words, match: Match, lang: str) -> str:
    """A decided match in one sentence: its score, or how it was won without playing."""
    first, second = words.side(match, 0), words.side(match, 1)
    winner = words.side(match, match.winner or 0)
    if match.state is MatchState.WALKOVER and match.winner is None:
        return say("result_double_walkover", lang, match=match.id, first=first, second=second)
    if match.state is MatchState.WALKOVER:
        return say("result_walkover", lang, match=match.id, winner=winner, first=first,
                   second=second)
    if "overtime" in match.flags:
        return say("result_overtime", lang, match=match.id, first=first, second=second,
                   winner=winner, games=f"{match.games[0]}–{match.games[1]}")
    if match.state is MatchState.DISQUALIFIED:
        return say("result_disqualified", lang, match=match.id, first=first, second=second,
                   winner=winner)
    return say("result", lang, match=match.id, first=first, second=second,
               games=f"{match.games[0]}–{match.games[1]}")


def board(table: Table | None, match: Match
          ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A match's board while it is played: games won by each pair (those given for lateness
    included), tantos summed over its games (the one in play included), and the tantos of
    the game in play. Without a table that began, the games given for lateness alone."""
    if table is None or table.lifecycle != "playing" or table.match is None:
        return (match.forfeits[0], match.forfeits[1]), (0, 0), (0, 0)
    played = table.match
    _, finished = table_score(table)
    playing = (played.scores[0], played.scores[1])
    return ((played.games[0], played.games[1]),
            (finished[0] + playing[0], finished[1] + playing[1]), playing)


def table_score(table: Table) -> tuple[tuple[int, int], tuple[int, int]]:
    """A finished match table's games played (each pair's, from its finished games: the games
    given for lateness are the tournament's) and tantos (summed over those games)."""
    match = table.match
    assert match is not None
    games = [0, 0]
    tantos = [0, 0]
    for winner, first, second in match.games_played:
        games[winner] += 1
        tantos[0] += first
        tantos[1] += second
    return (games[0], games[1]), (tantos[0], tantos[1])


def bot_played(table: Table) -> bool:
    """Whether a bot played a whole game of this match in a person's place (every move of
    their seat in that game: they left, or missed turn after turn and did not come back before
    the game ended): the match is flagged for the organiser."""
    return table.state.records.bot_game


__all__ = ["LEFT", "WHEN", "Cup", "TournamentRunner", "Venue", "Wall", "board", "board_text",
           "bot_played", "entrants_of", "match_key", "person_name", "result_line", "say",
           "table_score", "wall_clock", "zone_of"]
