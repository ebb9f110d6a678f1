"""Playing at Discord's tables: a match started, its result, a bot in a person's place, a
pair late, the round's time up."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from .core import Core
from .errors import ResultConflict, TournamentError
from .model import EventKind, MatchState, TournamentEvent
from .settings import AtDeadline, Lateness
from .timestamps import later, stamp


class Playing(Core):
    """What a match's table tells the tournament."""

    def start(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """The match's table has begun (both pairs sat down): its grace time stops."""
        match = self.match(match_id)
        if match.state is MatchState.PLAYING:
            return []
        if match.state is not MatchState.READY:
            raise TournamentError("tournament_not_ready", match=match_id)
        match.state = MatchState.PLAYING
        match.started_at = stamp(now)
        return self._changed([TournamentEvent(EventKind.MATCH_STARTED, match=match_id)])

    def record(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0), *,
               now: datetime, bot_game: bool = False,
               table_record: str | None = None) -> list[TournamentEvent]:
        """The table's result: games won by each side (forfeited games included) and tantos
        summed over the games. ``bot_game``: a bot played a whole game in a person's place
        (the match is flagged for the organiser). ``table_record``: the table's stored match, which
        holds this result from then on (:attr:`Fixture.table_record`). The same result again changes
        nothing; a different one for a decided match is a :class:`ResultConflict`."""
        match = self.match(match_id)
        score = self._check_score(match, games)
        points = self._check_tantos(tantos)
        if match.decided:
            if match.state is MatchState.FINISHED and tuple(match.games) == score \
                    and tuple(match.tantos) == points:
                return self._changed(self._flag_bot(match, [])) if bot_game else []
            raise ResultConflict(match_id)
        if match.state not in (MatchState.READY, MatchState.PLAYING):
            raise TournamentError("tournament_not_ready", match=match_id)
        events: list[TournamentEvent] = []
        if bot_game:
            self._flag_bot(match, events)
        match.games = list(score)
        match.tantos = list(points)
        self._decide(match, 0 if score[0] > score[1] else 1, MatchState.FINISHED, now, events,
                     table_record=table_record)
        return self._changed(events)

    def flag_bot(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """A bot played a whole game of this match in a person's place."""
        return self._changed(self._flag_bot(self.match(match_id), []))

    def late(self, match_id: str, sides: Collection[int], *, now: datetime
             ) -> list[TournamentEvent]:
        """The grace time passed and the pairs of ``sides`` (0, 1 or both) have not sat down:
        each absent pair loses the match by walkover or one game (the settings' lateness; a
        game per grace time passed). Both absent: nothing is decided, the match is flagged for
        the organiser. Called again for a grace time already dealt with, it changes nothing."""
        match = self.match(match_id)
        absent = set(sides)
        if not absent or not absent <= {0, 1}:
            raise TournamentError("tournament_bad_side")
        if match.state is MatchState.WALKOVER and len(absent) == 1 \
                and match.winner == 1 - next(iter(absent)):
            return []
        if match.state is not MatchState.READY or match.ready_at is None:
            raise TournamentError("tournament_not_waiting", match=match_id)
        forfeited = sum(match.forfeits)
        deadline = later(match.ready_at, self.settings.grace_minutes * (forfeited + 1))
        if now < deadline:
            if forfeited:
                return []
            raise TournamentError("tournament_not_late", match=match_id)
        if len(absent) == 2:
            if "both_late" in match.flags:
                return []
            match.flags.append("both_late")
            return self._changed([TournamentEvent(EventKind.BOTH_LATE, match=match_id)])
        present = 1 - next(iter(absent))
        events: list[TournamentEvent] = []
        target = self.settings.games_to_win
        if self.settings.lateness is Lateness.GAME:
            match.forfeits[present] += 1
            match.games[present] += 1
            events.append(TournamentEvent(EventKind.GAME_FORFEITED, match=match_id,
                                          pair=match.pairs[1 - present]))
        if self.settings.lateness is Lateness.MATCH or match.games[present] >= target:
            match.games[present] = target
            self._decide(match, present, MatchState.WALKOVER, now, events)
        return self._changed(events)

    def overtime(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0),
                 *, playing: Sequence[int] = (0, 0), now: datetime,
                 bot_game: bool = False) -> list[TournamentEvent]:
        """The match's time limit ran out (:meth:`limit_of`) before it ended; ``games`` and
        ``tantos`` are the board then (games won by each side, forfeited ones included; tantos
        summed over the games, the one in play included) and ``playing`` the tantos of the game
        in play. Unless the settings let the bot decide alone (:attr:`AtDeadline.DECIDE`), the
        organiser is asked, once (flag ``time_up``): a walkover, a double walkover, more time
        (:meth:`more_time`) or the board as it stands then (:meth:`by_board`); the table plays
        on meanwhile and its result counts if it comes first. Deciding alone, the pair ahead
        wins: more games, else more tantos in the game in play; level, nothing is decided: the
        match is flagged, the organiser told, and the table plays on (its result counts, or the
        organiser's). Again for a match dealt with, it changes nothing."""
        match = self.match(match_id)
        if match.decided or "overtime" in match.flags or "time_up" in match.flags:
            return []
        self.played_limit(match, now)
        score, points, ahead = self._board(match, games, tantos, playing)
        events: list[TournamentEvent] = []
        if bot_game:
            self._flag_bot(match, events)
        if self.settings.at_deadline is not AtDeadline.DECIDE:
            match.flags.append("time_up")
            self._log(now, match, "time_up", None, score)
            events.append(TournamentEvent(EventKind.TIME_UP, match=match_id))
            return self._changed(events)
        match.flags.append("overtime")
        if ahead is None:
            events.append(TournamentEvent(EventKind.OVERTIME_LEVEL, match=match_id))
            return self._changed(events)
        match.games = list(score)
        match.tantos = list(points)
        self._decide(match, ahead, MatchState.FINISHED, now, events)
        return self._changed(events)
