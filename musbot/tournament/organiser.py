"""The organiser's changes: a walkover, a result set or corrected, a match replayed, paused
or resumed, a pair disqualified, the tournament cancelled."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from .core import Core
from .errors import TournamentError
from .model import EventKind, Fixture, MatchState, Stage, TournamentEvent
from .timestamps import parse_time, stamp

MAX_REASON = 200


class Organiser(Core):
    """What only the organiser decides."""

    def walkover(self, match_id: str, absent: Collection[int], *,
                 now: datetime) -> list[TournamentEvent]:
        """The organiser's walkover: the pair of ``absent`` (one side) loses the match, or
        both (a double walkover: neither goes on; a knockout's next match is a bye for its
        other pair, and in a league both have a defeat)."""
        match = self.match(match_id)
        sides = set(absent)
        if not sides or not sides <= {0, 1}:
            raise TournamentError("tournament_bad_side")
        if match.decided:
            raise TournamentError("tournament_already_decided", match=match_id)
        if match.state not in (MatchState.READY, MatchState.PLAYING):
            raise TournamentError("tournament_not_ready", match=match_id)
        events: list[TournamentEvent] = []
        target = self.settings.games_to_win
        if match.report is not None:
            self._log(now, match, "settled", None, None)
        if "time_up" in match.flags:  # the organiser's answer to its time running out
            self._log(now, match, "double_walkover" if len(sides) == 2 else "walkover", None,
                      None)
        match.tantos = [0, 0]
        if len(sides) == 2:
            match.games = [0, 0]
            match.flags.append("double_walkover")
            self._decide(match, None, MatchState.WALKOVER, now, events)
        else:
            present = 1 - next(iter(sides))
            match.games = [0, 0]
            match.games[present] = target
            self._decide(match, present, MatchState.WALKOVER, now, events)
        if "organiser" not in match.flags:
            match.flags.append("organiser")
        return self._changed(events)

    def set_result(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0),
                   *, now: datetime) -> list[TournamentEvent]:
        """The organiser's result: for a match not played on a table, or to correct one (which
        replays it first, so only while nothing after it has started)."""
        match = self.match(match_id)
        score = self._check_score(match, games, forfeits=not match.decided)
        points = self._check_tantos(tantos)
        events: list[TournamentEvent] = []
        if match.decided:
            if match.state is MatchState.FINISHED and tuple(match.games) == score \
                    and tuple(match.tantos) == points:
                return []
            events += self._reopen(match, now)
        elif match.state not in (MatchState.READY, MatchState.PLAYING):
            raise TournamentError("tournament_not_ready", match=match_id)
        if match.report is not None or "reported" in match.flags:
            self._log(now, match, "settled", None, score)
        match.games = list(score)
        match.tantos = list(points)
        if "organiser" not in match.flags:
            match.flags.append("organiser")
        self._decide(match, 0 if score[0] > score[1] else 1, MatchState.FINISHED, now, events)
        return self._changed(events)

    def by_board(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0),
                 *, playing: Sequence[int] = (0, 0), now: datetime,
                 bot_game: bool = False) -> list[TournamentEvent]:
        """The organiser's «by the board» for a match played on Discord past its time limit:
        the board as it stands now (as :meth:`overtime` reads it) decides, the pair ahead
        winning. Level, it is refused (one sentence: nothing to decide by), and the table
        plays on."""
        match = self.match(match_id)
        if match.decided:
            raise TournamentError("tournament_already_decided", match=match_id)
        self.played_limit(match, now)
        score, points, ahead = self._board(match, games, tantos, playing)
        if ahead is None:
            raise TournamentError("tournament_board_level", match=match_id,
                                  games=f"{score[0]}–{score[1]}")
        events: list[TournamentEvent] = []
        if bot_game:
            self._flag_bot(match, events)
        match.games = list(score)
        match.tantos = list(points)
        match.flags += [f for f in ("overtime", "organiser") if f not in match.flags]
        self._log(now, match, "board", None, score)
        self._decide(match, ahead, MatchState.FINISHED, now, events)
        return self._changed(events)

    def replay(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """The match is to be played again: its result, and what followed from it (a pair
        placed in a later match, a later Swiss round, the knockout after the groups), are
        undone. Refused once anything that followed has started."""
        match = self.match(match_id)
        if match.state in (MatchState.READY, MatchState.PLAYING):
            return self._restart(match, now) if match.paused_at is not None else []
        if match.state is MatchState.PENDING or match.state is MatchState.BYE:
            raise TournamentError("tournament_not_decided", match=match_id)
        if "reported" in match.flags:
            self._log(now, match, "replayed", None, match.games)
        events = self._reopen(match, now)
        self._refresh(match, now, events)
        return self._changed(events)

    def pause(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """The match's table is gone or out of reach (closed by a moderator, its thread deleted
        or locked): nothing but the organiser decides the match now, and its time limits stand
        still until it plays on (:meth:`resume`, :meth:`replay`). Again, it changes nothing."""
        match = self.match(match_id)
        if match.state not in (MatchState.READY, MatchState.PLAYING) \
                or match.paused_at is not None:
            return []
        match.paused_at = stamp(now)
        return self._changed([TournamentEvent(EventKind.MATCH_PAUSED, match=match_id)])

    def resume(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """The paused match's table can be reached again: it plays on where it was, its time
        limits moved on by the time it was paused."""
        match = self.match(match_id)
        if match.paused_at is None or match.decided:
            return []
        stood = now - parse_time(match.paused_at)
        if match.ready_at is not None:
            match.ready_at = stamp(parse_time(match.ready_at) + stood)
        if match.time_limit is not None:
            match.time_limit = stamp(parse_time(match.time_limit) + stood)
        match.paused_at = None
        return self._changed([TournamentEvent(EventKind.MATCH_RESUMED, match=match_id)])

    def _restart(self, match: Fixture, now: datetime) -> list[TournamentEvent]:
        """A paused match played again from the start at a new table: ready from now, with the
        games given for lateness it had."""
        match.paused_at = None
        match.report = None
        match.table_record = None
        match.state = MatchState.READY
        match.games = list(match.forfeits)
        match.tantos = [0, 0]
        match.flags = []
        match.ready_at = stamp(now)
        match.started_at = None
        match.time_limit = None
        return self._changed([TournamentEvent(EventKind.MATCH_REOPENED, match=match.id),
                              TournamentEvent(EventKind.MATCH_READY, match=match.id)])

    def disqualify(self, pair_id: int, reason: str, *, now: datetime) -> list[TournamentEvent]:
        """Out of the tournament, with the reason shown: every match of the pair not played yet
        is lost (the played ones stand). Again for a pair already out changes nothing."""
        pair = self.pair(pair_id)
        if self.phase is not Stage.RUNNING:
            raise TournamentError("tournament_not_running")
        reason = " ".join(str(reason).split())[:MAX_REASON]
        if not reason:
            raise TournamentError("tournament_reason_needed")
        if pair.disqualified:
            return []
        pair.disqualified = reason
        events = [TournamentEvent(EventKind.DISQUALIFIED, pair=pair_id)]
        for match in self.matches_of(pair_id):
            if match.state is MatchState.PENDING and None in match.pairs:
                continue
            if match.state in (MatchState.PENDING, MatchState.READY, MatchState.PLAYING):
                self._disqualify_in(match, now, events)
        self._after(now, events)
        return self._changed(events)

    def cancel(self, reason: str, *, now: datetime) -> list[TournamentEvent]:
        """The organiser stops the tournament (no champion). Again: nothing changes."""
        if self.phase is Stage.CANCELLED:
            return []
        if self.phase is Stage.FINISHED:
            raise TournamentError("tournament_over")
        self.phase = Stage.CANCELLED
        self.cancelled = " ".join(str(reason).split())[:MAX_REASON] or "-"
        self.finished_at = stamp(now)
        return self._changed([TournamentEvent(EventKind.CANCELLED)])

    def _reopen(self, match: Fixture, now: datetime) -> list[TournamentEvent]:
        """Undo a decided match and what followed from it (see :meth:`replay`)."""
        reset: list[tuple[Fixture, int | None]] = []
        for dependent_id in self._dependents.get(match.id, []):
            dependent = self.matches[dependent_id]
            sides = [i for i, s in enumerate(dependent.sources) if s.ref == match.id]
            reset += [(dependent, side) for side in sides]
        for pair in match.pairs:
            for other_id in self._by_pair.get(pair, []) if pair is not None else []:
                other = self.matches[other_id]
                if self._order[other_id] > self._order[match.id] \
                        and other.state is MatchState.READY:
                    reset.append((other, None))
        withdrawn = self._rules.taken_back(self, match)
        for other, _ in reset:
            if other.state not in (MatchState.PENDING, MatchState.READY):
                raise TournamentError("tournament_replay_too_late", match=match.id,
                                      blocking=other.id)
        for other in withdrawn:
            if other.state not in (MatchState.PENDING, MatchState.READY, MatchState.BYE):
                raise TournamentError("tournament_replay_too_late", match=match.id,
                                      blocking=other.id)
        events = [TournamentEvent(EventKind.MATCH_REOPENED, match=match.id)]
        self._rules.reopened(self, match)
        for other in withdrawn:
            if other.state is MatchState.READY:
                events.append(TournamentEvent(EventKind.MATCH_WITHDRAWN, match=other.id))
            self._remove(other.id)
        for other, side in reset:
            if other.id not in self.matches:
                continue
            if other.state is MatchState.READY:
                events.append(TournamentEvent(EventKind.MATCH_WITHDRAWN, match=other.id))
            other.state = MatchState.PENDING
            other.ready_at = None
            if side is not None:
                self._unplace(other, side)
        match.state = MatchState.PENDING
        self._undecided += 1
        for pair in match.pairs:
            if pair is not None:
                self._cursor.pop(pair, None)
        match.winner = None
        match.games = [0, 0]
        match.tantos = [0, 0]
        match.forfeits = [0, 0]
        match.flags = []
        match.note = None
        match.report = None
        match.table_record = None
        match.ready_at = match.started_at = match.decided_at = match.time_limit = None
        if self.phase is Stage.FINISHED:
            self.phase = Stage.RUNNING
            self.finished_at = None
        return events
