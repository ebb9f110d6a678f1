"""Results reported off Discord: a player reports the result of a match played at a real
table, the other pair confirms or disputes it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from .core import Core
from .errors import TournamentError
from .model import EventKind, Fixture, MatchState, Report, TournamentEvent
from .settings import Reporting
from .timestamps import stamp

MAX_REPORTS = 3
"""Results one match may be reported (a report replaced counts): each report notifies the
other pair, so reporting is budgeted, not a way to ping people."""


class Reports(Core):
    """A result reported, confirmed or disputed by the players."""

    def _reported_match(self, match_id: str, user_id: int) -> tuple[Fixture, int]:
        """The match and the side of ``user_id``, who must be one of its four players."""
        if self.settings.reporting is Reporting.DISCORD:
            raise TournamentError("tournament_reports_off")
        match = self.match(match_id)
        side = next((i for i, p in enumerate(match.pairs)
                     if p is not None and user_id in self.pairs[p].players), None)
        if side is None:
            raise TournamentError("tournament_not_your_match", match=match_id)
        if match.decided:
            raise TournamentError("tournament_already_decided", match=match_id)
        if match.state not in (MatchState.READY, MatchState.PLAYING):
            raise TournamentError("tournament_not_ready", match=match_id)
        return match, side

    def current_match(self, user_id: int) -> Fixture | None:
        """The person's match to be played now (ready or playing), if any."""
        pair = self.pair_of(user_id)
        if pair is None:
            return None
        return next((m for m in self.matches_of(pair.id)
                     if m.state in (MatchState.READY, MatchState.PLAYING)), None)

    def report(self, match_id: str, user_id: int, games: Sequence[int], *,
               now: datetime) -> list[TournamentEvent]:
        """A player reports the result of a match played at a real table: ``games`` are their
        own pair's first, then the other's. It stands until the other pair confirms it
        (:meth:`confirm`) or disputes it (:meth:`dispute`); nothing advances meanwhile. The
        other pair reporting the same result confirms it; a different one disputes it. The
        same report again changes nothing."""
        match, side = self._reported_match(match_id, user_id)
        if len(games) != 2:
            raise TournamentError("tournament_bad_score", target=self.settings.games_to_win)
        oriented = (games[0], games[1]) if side == 0 else (games[1], games[0])
        score = self._check_score(match, oriented)
        old = match.report
        if old is not None and old.disputed:
            raise TournamentError("tournament_report_disputed", match=match_id)
        if old is not None and old.side != side:
            if old.games == score:
                return self._confirmed(match, user_id, now)
            match.report = Report(old.side, old.user, old.games, old.at, old.number, True)
            return self._disputed(match, user_id, now, score)
        if old is not None and old.games == score:
            return []
        number = 1 if old is None else old.number + 1
        if number > MAX_REPORTS:
            raise TournamentError("tournament_reports_spent", limit=MAX_REPORTS)
        match.report = Report(side, user_id, score, stamp(now), number)
        self._log(now, match, "reported", user_id, score)
        return self._changed([TournamentEvent(EventKind.RESULT_REPORTED, match=match_id,
                                              pair=match.pairs[side], user=user_id)])

    def _answering(self, match_id: str, user_id: int, number: int) -> tuple[Fixture, Report]:
        match, side = self._reported_match(match_id, user_id)
        report = match.report
        if report is None or report.number != number:
            raise TournamentError("tournament_report_stale", match=match_id)
        if report.disputed:
            raise TournamentError("tournament_report_disputed", match=match_id)
        if report.side == side:
            raise TournamentError("tournament_report_other_pair", match=match_id)
        return match, report

    def confirm(self, match_id: str, user_id: int, number: int, *,
                now: datetime) -> list[TournamentEvent]:
        """A player of the other pair agrees with report ``number``: the match is decided."""
        match, _ = self._answering(match_id, user_id, number)
        return self._confirmed(match, user_id, now)

    def dispute(self, match_id: str, user_id: int, number: int, *,
                now: datetime) -> list[TournamentEvent]:
        """A player of the other pair disputes report ``number``: the organiser decides
        (:meth:`set_result` or :meth:`replay`); nothing advances meanwhile."""
        match, report = self._answering(match_id, user_id, number)
        match.report = Report(report.side, report.user, report.games, report.at,
                              report.number, True)
        return self._disputed(match, user_id, now, None)

    def _disputed(self, match: Fixture, user_id: int, now: datetime,
                  claim: tuple[int, int] | None) -> list[TournamentEvent]:
        if "disputed" not in match.flags:
            match.flags.append("disputed")
        self._log(now, match, "disputed", user_id, claim)
        return self._changed([TournamentEvent(EventKind.RESULT_DISPUTED, match=match.id,
                                              user=user_id)])
