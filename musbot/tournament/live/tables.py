"""A match's own table: opened in its place for its four players, closed once the match is
decided, and its notices (:class:`~musbot.table.MatchNotice`: begun, over, lost, back, its
board when the round's time is up) turned into the tournament's changes."""

from __future__ import annotations

import logging

from musbot.i18n import TXAPELKETA, permission_names
from musbot.settings import TableSettings
from musbot.storage import StorageError
from musbot.table import MatchNotice, Table
from musbot.tournament import Fixture, MatchState, TournamentError, TournamentEvent
from musbot.tournament.labels import Words

from .base import RunnerBase
from .cup import Cup, entrants_of, match_key
from .readings import board

log = logging.getLogger(__name__)


class MatchTables(RunnerBase):
    """The runner's side of the match tables."""

    def _settings(self, cup: Cup) -> TableSettings:
        settings = TableSettings(rules=cup.tournament.settings.table_rules, language=cup.lang)
        return settings if self.turn_seconds is None else \
            settings.with_(turn_seconds=self.turn_seconds)

    def _told_of_pause(self, cup: Cup, match: Fixture) -> list[int]:
        """Who hears that a match's table was lost: its four players and the organiser."""
        users = sorted(entrants_of(cup, match))
        if cup.organiser is not None and cup.organiser not in users:
            users.append(cup.organiser)
        return users

    async def _open_table(self, cup: Cup, match: Fixture) -> None:
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
            title = TXAPELKETA("place_title", cup.lang, match=match.id, first=words.pair(first),
                               second=words.pair(second))
            place = await self.venue.open_place(cup, match, title[:100])
            if place is None:
                await self._no_place(cup, match)
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
        given = "" if not any(match.forfeits) else " " + TXAPELKETA(
            "forfeits_so_far", cup.lang, games=f"{match.forfeits[0]}–{match.forfeits[1]}")
        text = TXAPELKETA("call_players", cup.lang, match=match.id, name=cup.name,
                          first=words.pair(first), second=words.pair(second),
                          games=t.settings.games_to_win, grace=t.settings.grace_minutes) + given
        await self.venue.call_players(cup, place, text, sorted(entrants))

    async def _no_place(self, cup: Cup, match: Fixture) -> None:
        """No place could be made for the match. For a permission the venue lacks (taken away
        since the draw), the match pauses, as for a table lost, so the organiser sends it to
        a new table once it is given back; the organiser is told which, once, in their own
        language. Anything else is tried again at the next start. Lock held."""
        refused = await self._places_refused(cup)
        if refused is None:
            log.warning("tournament %s: no place for match %s yet", cup.tournament_id,
                        match.id)
            return
        if "places" not in cup.told:
            cup.told.add("places")
            lang = await self._organiser_lang(cup)
            organiser = [cup.organiser] if cup.organiser is not None else []
            key = "private_places_lost" if cup.tournament.settings.private_threads \
                else "places_lost"
            await self.venue.news(cup, TXAPELKETA(
                key, lang, name=cup.name, channel=refused.params["channel"],
                permissions=permission_names(refused.params["permissions"], lang)), organiser)
        await self._change(cup, lambda t, now: t.pause(match.id, now=now))

    async def _close_table(self, cup: Cup, match: Fixture, *,
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

    def _heard(self, table: Table, notice: MatchNotice) -> None:
        """The manager's listener (the table's lock held): a match's own table began, ended,
        closed, or went out of reach or back. Any other table is no news of the match's."""
        found = self._by_place.get(notice.channel_id)
        cup = self.cups.get(found[0]) if found is not None else None
        if found is None or cup is None or not self._is_of(cup, found[1], notice):
            return
        self._spawn(self._locked_news(cup, found[1], table, notice))

    async def _locked_news(self, cup: Cup, match_id: str, table: Table,
                           notice: MatchNotice) -> None:
        async with cup.lock:
            if notice.lifecycle == "closed" or notice.hidden is not None:
                await self._table_lost(cup, match_id, table)
                return
            await self._table_back(cup, match_id, table)
            if notice.lifecycle in ("playing", "finished"):
                await self._table_news(cup, match_id, table, notice)

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

    async def _table_news(self, cup: Cup, match_id: str, table: Table,
                          notice: MatchNotice) -> None:
        """What a match's own table says (lock held): begun, or, in its «match over» notice,
        its result."""
        match = cup.tournament.matches.get(match_id)
        if match is None or match.decided or self._own_table(cup, match_id) is not table:
            return
        try:
            if match.state is MatchState.READY and notice.lifecycle in ("playing", "finished"):
                await self._change(cup, lambda t, now: t.start(match_id, now=now))
            if notice.over and notice.recorded:  # else: told again once its records are stored
                played, tantos = notice.score()
                games = (played[0] + match.forfeits[0], played[1] + match.forfeits[1])
                await self._change(cup, lambda t, now: t.record(
                    match_id, games, tantos, now=now, bot_game=notice.bot_game,
                    table_record=notice.match_record))
        except (TournamentError, StorageError):
            log.exception("tournament %s: the table of %s could not give its result",
                          cup.tournament_id, match_id)

    async def _board_now(self, cup: Cup, match_id: str
                         ) -> tuple[bool, Fixture, tuple[tuple[int, int], tuple[int, int],
                                                          tuple[int, int]], bool]:
        """A match past its time limit, cup's lock held: whether its table had just finished
        (its result given first), the match, its board as its table's last notice shows it
        (games, tantos, the game in play's tantos) and whether a bot played a game of it."""
        table = self._own_table(cup, match_id)
        notice = table.notice if table is not None else None
        finished = table is not None and notice is not None and notice.lifecycle == "finished"
        if finished:
            assert table is not None and notice is not None
            await self._table_news(cup, match_id, table, notice)
        match = cup.tournament.match(match_id)
        return finished, match, board(notice, match), notice is not None and notice.bot_game

    async def _time_up(self, cup: Cup, match_id: str) -> None:
        """A match whose time limit ran out: its table's board as it stands is given to
        :meth:`Tournament.overtime`, which asks the organiser or, if the tournament says so,
        decides by it; a table that has just finished gives its result instead."""
        async with cup.lock:
            finished, _, (games, tantos, playing), bot = await self._board_now(cup, match_id)
            if finished:
                return
            await self._change(cup, lambda t, now: t.overtime(
                match_id, games, tantos, playing=playing, now=now, bot_game=bot))

    async def decide_by_board(self, cup: Cup, match_id: str) -> list[TournamentEvent]:
        """The organiser's «by the board» for a match past its time limit: its table's board as
        it stands now decides (:meth:`Tournament.by_board`); a table that has just finished
        gives its result instead."""
        async with cup.lock:
            _, match, (games, tantos, playing), bot = await self._board_now(cup, match_id)
            if match.decided:
                raise TournamentError("tournament_already_decided", match=match_id)
            return await self._change(cup, lambda t, now: t.by_board(
                match_id, games, tantos, playing=playing, now=now, bot_game=bot))

    def _absent(self, cup: Cup, match: Fixture) -> set[int]:
        """The sides whose two people have not both sat down at the match's table."""
        table = self._own_table(cup, match.id)
        seated = set(table.notice.players) if table is not None and table.notice else set()
        absent = set()
        for side, pair_id in enumerate(match.pairs):
            if pair_id is None:
                continue
            players = {u for u in cup.tournament.pairs[pair_id].players if u is not None}
            if not players <= seated:
                absent.add(side)
        return absent
