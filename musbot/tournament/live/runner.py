"""The runner of a bot's tournaments (see the package docstring): start-up, a tournament
made and drawn, what a saved change's events do, and the time limits on the bot's clock."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from musbot.i18n import TXAPELKETA, error_text
from musbot.storage import StorageError
from musbot.tournament import (
    EventKind,
    Fixture,
    MatchState,
    Reporting,
    Settings,
    Stage,
    Tournament,
    TournamentError,
    TournamentEvent,
    parse_time,
)
from musbot.tournament.labels import Words

from .cup import LEFT, WHEN, Cup, entrants_of
from .readings import BOARD_NEWS, board, board_text, late, person_name, result_line
from .tables import MatchTables

log = logging.getLogger(__name__)

PLACES_REFUSED = frozenset({"tournament_places_refused", "tournament_private_places_refused"})
"""The refusals of a draw whose match places the venue cannot open (:meth:`Venue.lacking`)."""


class TournamentRunner(MatchTables):
    """Every tournament of one bot process (see the package docstring)."""

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
                elif table.notice is not None \
                        and table.notice.lifecycle in ("playing", "finished"):
                    await self._table_news(cup, match.id, table, table.notice)
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

    async def draw(self, cup: Cup) -> list[TournamentEvent]:
        """Closes the sign-ups and draws, seeded by the pairs' ratings in this server (their
        own, else made from their league ratings) when the settings say so. Refused, with
        nothing drawn, while the venue cannot open the match places the settings ask for (a
        private thread without Create Private Threads: a public one would let spectators in)."""
        refused = await self._places_refused(cup)
        if refused is not None:
            raise refused
        ratings = await self.db.seeding_ratings(cup.guild_id, cup.tournament.people())
        return await self.change(cup, lambda t, now: t.draw(now=now, ratings=ratings))

    # --- what events do -------------------------------------------------------------------

    async def _act(self, cup: Cup, events: list[TournamentEvent]) -> None:
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
                    await self.venue.news(cup, TXAPELKETA("drawn", lang, name=cup.name,
                                                          pairs=len(t.pairs)))
                    for user in t.unpaired:
                        await self.venue.news(cup, TXAPELKETA("unpaired", lang), [user])
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
                        await self.venue.timed_news(cup, TXAPELKETA(
                            key, lang, match=match.id, first=words.side(match, 0),
                            second=words.side(match, 1), when=WHEN, left=LEFT),
                            sorted(entrants_of(cup, match)), when)
                elif kind is EventKind.DEADLINE_PASSED and match is not None:
                    organiser = [cup.organiser] if cup.organiser is not None else []
                    await self.venue.ask_organiser(cup, match, TXAPELKETA(
                        "deadline_passed", lang, match=match.id, first=words.side(match, 0),
                        second=words.side(match, 1)), organiser)
                elif kind is EventKind.TIME_UP and match is not None:
                    await self._ask_time_up(cup, match, words)
                elif kind is EventKind.TIME_GIVEN and match is not None:
                    until = t.limit_of(match)
                    if until is not None:
                        await self.venue.timed_news(cup, TXAPELKETA(
                            "time_given", lang, match=match.id, when=WHEN, left=LEFT),
                            sorted(entrants_of(cup, match)), until)
                elif kind is EventKind.DEADLINE_SET:
                    await self._deadline_news(cup, event.match, lang)
                elif kind is EventKind.RESULT_DISPUTED and match is not None:
                    report = match.report
                    games = "?" if report is None else f"{report.games[0]}–{report.games[1]}"
                    organiser = [cup.organiser] if cup.organiser is not None else []
                    await self.venue.news(cup, TXAPELKETA(
                        "result_disputed", lang, match=match.id, games=games,
                        person=person_name(t, event.user, words)), organiser)
                elif kind is EventKind.MATCH_DECIDED and match is not None:
                    decided.append(match.id)
                    await self._close_table(cup, match)
                    await self.venue.news(cup, result_line(words, match, lang))
                elif kind is EventKind.MATCH_WITHDRAWN and match is not None:
                    await self._close_table(cup, match, reason="tournament_withdrawn")
                elif kind is EventKind.MATCH_REOPENED and match is not None:
                    await self.venue.news(cup, TXAPELKETA("replayed", lang, match=match.id))
                elif kind is EventKind.MATCH_PAUSED and match is not None:
                    await self.venue.paused(cup, match, TXAPELKETA(
                        "match_paused", lang, match=match.id, first=words.side(match, 0),
                        second=words.side(match, 1)), self._told_of_pause(cup, match))
                elif kind is EventKind.MATCH_RESUMED and match is not None:
                    await self.venue.news(cup, TXAPELKETA("match_resumed", lang, match=match.id))
                elif kind is EventKind.BOTH_LATE and match is not None:
                    await self.venue.news(cup, TXAPELKETA("both_late", lang, match=match.id))
                elif kind is EventKind.OVERTIME_LEVEL and match is not None:
                    await self.venue.news(cup, TXAPELKETA(
                        "overtime_level", lang, match=match.id,
                        minutes=t.settings.round_minutes))
                elif kind is EventKind.BOT_FLAGGED and match is not None:
                    await self.venue.news(cup, TXAPELKETA("bot_flagged", lang, match=match.id))
                elif kind is EventKind.GAME_FORFEITED and match is not None \
                        and event.pair is not None:
                    table = self._own_table(cup, match.id)
                    if table is not None and not match.decided:
                        await table.give_games((match.forfeits[0], match.forfeits[1]))
                    await self.venue.news(cup, TXAPELKETA("game_forfeited", lang, match=match.id,
                                                          pair=words.pair(event.pair)))
                elif kind is EventKind.DISQUALIFIED and event.pair is not None:
                    pair = t.pairs[event.pair]
                    await self.venue.news(cup, TXAPELKETA(
                        "disqualified", lang, pair=words.pair(pair),
                        reason=pair.disqualified or ""))
                elif kind is EventKind.KNOCKOUT_DRAWN:
                    await self.venue.news(cup, TXAPELKETA("knockout_drawn", lang, name=cup.name,
                                                          rule=words.draw_rule()))
                elif kind is EventKind.CHAMPION:
                    await self._champion(cup, words)
                elif kind is EventKind.CANCELLED:
                    for match in t.matches.values():
                        await self._close_table(cup, match, reason="tournament_cancelled")
                    await self.venue.news(cup, TXAPELKETA("cancelled", lang, name=cup.name,
                                                          reason=t.cancelled or ""))
            except Exception:
                log.exception("tournament %s: acting on %s failed", cup.tournament_id, event)
        try:
            if t.phase in (Stage.RUNNING, Stage.FINISHED) \
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
            await self.venue.news(cup, TXAPELKETA("over_no_champion", cup.lang, name=cup.name))
            return
        users = [u for u in champion.players if u is not None]
        text = TXAPELKETA("champions", cup.lang, name=cup.name, pair=words.pair(champion))
        if finalist is not None:
            text += "\n" + TXAPELKETA("finalists", cup.lang, pair=words.pair(finalist))
        await self.venue.news(cup, text, users)

    async def _deadline_news(self, cup: Cup, key: str | None, lang: str) -> None:
        """A deadline set: a match's (``key`` its id) or a round's (``round:N``)."""
        t = cup.tournament
        stamp_ = t.deadlines.get(key or "")
        if key is None or stamp_ is None:
            return
        if key.startswith("round:"):
            text = TXAPELKETA("deadline_round", lang, round=key.removeprefix("round:"), when=WHEN,
                              left=LEFT)
        else:
            text = TXAPELKETA("deadline_match", lang, match=key, when=WHEN, left=LEFT)
        await self.venue.timed_news(cup, text, (), parse_time(stamp_))

    async def _call_to_table(self, cup: Cup, match: Fixture, words: Words) -> None:
        """A match played at a real table: its four players are told, in the tournament's
        channel, to play it and report its result."""
        t = cup.tournament
        await self.venue.news(cup, TXAPELKETA(
            "play_at_table", cup.lang, match=match.id, name=cup.name,
            first=words.side(match, 0), second=words.side(match, 1),
            games=t.settings.games_to_win), sorted(entrants_of(cup, match)))

    async def _ask_time_up(self, cup: Cup, match: Fixture, words: Words) -> None:
        """A match played on Discord is past its time limit: the organiser alone is asked, with
        the board as it stands, and the choices of a deadline passed plus «by the board» (its
        table plays on meanwhile)."""
        table = self._own_table(cup, match.id)
        games, _, _ = board(table.notice if table is not None else None, match)
        organiser = [cup.organiser] if cup.organiser is not None else []
        await self.venue.ask_organiser(cup, match, TXAPELKETA(
            "time_up", cup.lang, match=match.id, first=words.side(match, 0),
            second=words.side(match, 1), games=f"{games[0]}–{games[1]}"), organiser,
            playing=True)

    async def _ask_agreement(self, cup: Cup, match: Fixture, words: Words) -> None:
        report = match.report
        assert report is not None
        other = 1 - report.side
        pair = match.pairs[other]
        users = [] if pair is None else \
            [u for u in cup.tournament.pairs[pair].players if u is not None]
        text = TXAPELKETA("result_reported", cup.lang, match=match.id, first=words.side(match, 0),
                          second=words.side(match, 1), games=f"{report.games[0]}–{report.games[1]}",
                          person=person_name(cup.tournament, report.user, words),
                          other=words.side(match, other))
        await self.venue.ask_agreement(cup, match, text, users, report.number)

    async def _draw_waits(self, cup: Cup, problem: TournamentError) -> None:
        """The sign-ups' deadline passed, but the match places cannot be opened: the organiser
        is told once, in their language; the sign-ups stay open for them to draw by hand."""
        cup.told.add("places")
        lang = await self._organiser_lang(cup)
        organiser = [cup.organiser] if cup.organiser is not None else []
        await self.venue.news(cup, TXAPELKETA("draw_waits", lang, name=cup.name,
                                              reason=error_text(problem, lang)), organiser)

    # --- time -----------------------------------------------------------------------------

    def _next_due(self) -> datetime | None:
        """The earliest grace time, round time or sign-up deadline to act on."""
        times = []
        for cup in self.cups.values():
            t = cup.tournament
            if t.phase is Stage.SIGNUP and t.settings.deadline is not None \
                    and "places" not in cup.told:  # refused: the organiser draws by hand
                times.append(t.settings.deadline)
            if t.phase is Stage.RUNNING:
                deadline = t.next_deadline(self.wall())
                if deadline is not None:
                    times.append(deadline)
            if t.phase is not Stage.RUNNING or t.settings.reporting is not Reporting.DISCORD:
                continue
            grace = t.settings.grace_minutes
            for match in t.ready():
                if match.ready_at is None or match.paused_at is not None:
                    continue
                if match.state is MatchState.READY and "both_late" not in match.flags:
                    times.append(parse_time(match.ready_at)
                                 + timedelta(minutes=grace * (sum(match.forfeits) + 1)))
                limit = t.limit_of(match)
                if limit is not None and "overtime" not in match.flags \
                        and "time_up" not in match.flags:
                    times.append(limit)
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
                if t.phase is Stage.SIGNUP and t.settings.deadline is not None \
                        and now > t.settings.deadline and "places" not in cup.told:
                    try:
                        await self.draw(cup)
                    except TournamentError as problem:
                        if problem.code in PLACES_REFUSED:
                            await self._draw_waits(cup, problem)
                            continue
                        await self.venue.news(cup, TXAPELKETA(
                            "draw_failed", cup.lang, name=cup.name,
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
