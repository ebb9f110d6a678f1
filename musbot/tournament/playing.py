"""Playing at Discord's tables: a match started, its result, a bot in a person's place, a
pair late, the round's time up."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from .core import Core
from .errors import ResultConflict, TournamentError
from .model import EventKind, MatchState, TournamentEvent
from .settings import Lateness
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
               now: datetime, bot_game: bool = False) -> list[TournamentEvent]:
        """The table's result: games won by each side (forfeited games included) and tantos
        summed over the games. ``bot_game``: a bot played a whole game in a person's place
        (the match is flagged for the organiser). The same result again changes nothing; a
        different one for a decided match is a :class:`ResultConflict`."""
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
        self._decide(match, 0 if score[0] > score[1] else 1, MatchState.FINISHED, now, events)
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
        """The round's time ran out (:attr:`Settings.round_minutes` from when the match was
        ready) before the match ended; ``games`` and ``tantos`` are the board then (games won by
        each side, forfeited ones included; tantos summed over the games, the one in play
        included) and ``playing`` the tantos of the game in play. The pair ahead wins: more
        games, else more tantos in the game in play. Level, nothing is decided: the match is
        flagged, the organiser told, and the table plays on (its result counts, or the
        organiser's). Again for a match dealt with, it changes nothing."""
        match = self.match(match_id)
        if match.decided or "overtime" in match.flags:
            return []
        if match.state not in (MatchState.READY, MatchState.PLAYING) or match.ready_at is None:
            raise TournamentError("tournament_not_ready", match=match_id)
        if now < later(match.ready_at, self.settings.round_minutes):
            raise TournamentError("tournament_not_overtime", match=match_id)
        target = self.settings.games_to_win
        if len(games) != 2 or any(not isinstance(g, int) or not given <= g < target
                                  for g, given in zip(games, match.forfeits, strict=False)):
            raise TournamentError("tournament_bad_score", target=target)
        points = self._check_tantos(tantos)
        current = self._check_tantos(playing)
        events: list[TournamentEvent] = []
        if bot_game:
            self._flag_bot(match, events)
        match.flags.append("overtime")
        board = (games[0], current[0]), (games[1], current[1])
        if board[0] == board[1]:
            events.append(TournamentEvent(EventKind.OVERTIME_LEVEL, match=match_id))
            return self._changed(events)
        match.games = [games[0], games[1]]
        match.tantos = list(points)
        self._decide(match, 0 if board[0] > board[1] else 1, MatchState.FINISHED, now, events)
        return self._changed(events)
