"""Time: the grace and round time limits of Discord's tables, and the organiser's deadlines
with their reminders."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from .core import Core
from .errors import TournamentError
from .model import EventKind, Fixture, MatchState, Stage, TournamentEvent
from .settings import AtDeadline, Reporting
from .timestamps import later, parse_time, stamp

REMINDERS = (("reminded_day", timedelta(days=1), EventKind.DEADLINE_DAY),
             ("reminded_hour", timedelta(hours=1), EventKind.DEADLINE_HOUR))
"""The reminders before a match's deadline: a day, then an hour before."""
MORE_TIME = timedelta(days=1)
"""What «more time» gives a match whose deadline passed (the organiser's button)."""
MORE_PLAY = timedelta(minutes=30)
"""What «more time» gives a match played on Discord past its time limit: half an hour from
its limit, or from the organiser's answer if that came later."""


@dataclass(frozen=True, slots=True)
class Reminder:
    """A match's deadline to act on (:meth:`Tournament.deadlines_due`)."""

    match: str
    kind: Literal["reminded_day", "reminded_hour", "deadline_passed"]


@dataclass(frozen=True, slots=True)
class Due:
    """A time limit passed (:meth:`Tournament.due`)."""

    match: str
    kind: Literal["grace", "overtime"]
    """``grace``: ready and not started after the grace time, so the adapter checks who sat
    down and calls :meth:`Tournament.late`; ``overtime``: past its time limit
    (:meth:`Tournament.limit_of`), so the adapter reads the board and calls
    :meth:`Tournament.overtime`, which decides or asks the organiser (once: a match dealt with
    is not due again until the organiser gives it more time)."""
    since: str


class Deadlines(Core):
    """What time asks of a tournament."""

    def due(self, now: datetime) -> list[Due]:
        """Time limits passed that the bot acts on: only for matches played at Discord's
        tables (a tournament played at real tables has its organiser's deadlines)."""
        found: list[Due] = []
        if self.settings.reporting is not Reporting.DISCORD:
            return found
        for match in self.matches.values():
            if match.ready_at is None or match.paused_at is not None:
                continue
            if match.state is MatchState.READY and "both_late" not in match.flags:
                grace = later(match.ready_at,
                              self.settings.grace_minutes * (sum(match.forfeits) + 1))
                if now >= grace:
                    found.append(Due(match.id, "grace", stamp(grace)))
            limit = self.limit_of(match)
            if match.state in (MatchState.READY, MatchState.PLAYING) and limit is not None \
                    and "overtime" not in match.flags and "time_up" not in match.flags \
                    and now >= limit:
                found.append(Due(match.id, "overtime", stamp(limit)))
        return found

    def deadline_of(self, match: Fixture) -> datetime | None:
        """The match's deadline: its own, else its round's; None without one."""
        found = self.deadlines.get(match.id) or self.deadlines.get(f"round:{match.round}")
        return None if found is None else parse_time(found)

    def deadlines_due(self, now: datetime) -> list[Reminder]:
        """What a match's deadline asks now: a reminder a day before, one an hour before (each
        once; one that came too late for its time is skipped), or the organiser's word once
        it has passed. Only for matches to be played, not paused."""
        found: list[Reminder] = []
        if self.phase is not Stage.RUNNING:
            return found  # over or cancelled: nothing left to remind of
        for match in self.matches.values():
            deadline = self.deadline_of(match)
            if deadline is None or match.paused_at is not None \
                    or match.state not in (MatchState.READY, MatchState.PLAYING):
                continue
            if now >= deadline:
                if "deadline_passed" not in match.flags:
                    found.append(Reminder(match.id, "deadline_passed"))
                continue
            for flag, before, _ in reversed(REMINDERS):
                if now >= deadline - before:
                    if flag not in match.flags:
                        found.append(Reminder(match.id, flag))  # type: ignore[arg-type]
                    break
        return found

    def next_deadline(self, now: datetime) -> datetime | None:
        """The earliest time a deadline asks something (:meth:`deadlines_due`): now, if
        something is due already."""
        if self.phase is not Stage.RUNNING:
            return None
        if self.deadlines_due(now):
            return now
        times = []
        for match in self.matches.values():
            deadline = self.deadline_of(match)
            if deadline is None or match.paused_at is not None \
                    or match.state not in (MatchState.READY, MatchState.PLAYING) \
                    or "deadline_passed" in match.flags:
                continue
            times.append(deadline)
            times += [deadline - before for flag, before, _ in REMINDERS
                      if flag not in match.flags and deadline - before > now]
        return min(times, default=None)

    def set_deadline(self, target: str | int, when: datetime, *, now: datetime
                     ) -> list[TournamentEvent]:
        """The organiser's deadline for a match (its id) or a round (its number): reminders
        and the organiser's question come again for it. It must be in the future."""
        if self.phase is not Stage.RUNNING:
            raise TournamentError("tournament_not_running")
        if when <= now:
            raise TournamentError("tournament_deadline_past")
        if isinstance(target, int):
            if not any(m.round == target for m in self.matches.values()):
                raise TournamentError("tournament_unknown_round", round=target)
            key = f"round:{target}"
            touched = [m for m in self.matches.values() if m.round == target]
        else:
            match = self.match(target)
            if match.decided:
                raise TournamentError("tournament_already_decided", match=target)
            key, touched = target, [match]
        if self.deadlines.get(key) == stamp(when):
            return []
        self.deadlines[key] = stamp(when)
        for match in touched:
            match.flags = [f for f in match.flags if f not in
                           ("reminded_day", "reminded_hour", "deadline_passed")]
        return self._changed([TournamentEvent(EventKind.DEADLINE_SET, match=key)])

    def remind(self, match_id: str, kind: str, *, now: datetime) -> list[TournamentEvent]:
        """A deadline's reminder or question (:meth:`deadlines_due`), given once. At a deadline
        passed, a reported result not answered stands if the settings say so; anything else
        is the organiser's to decide."""
        match = self.match(match_id)
        if kind in match.flags or match.decided:
            return []
        deadline = self.deadline_of(match)
        if deadline is None:
            return []
        match.flags.append(kind)
        if kind != "deadline_passed":
            event = next(e for flag, _, e in REMINDERS if flag == kind)
            return self._changed([TournamentEvent(event, match=match_id)])
        report = match.report
        if self.settings.at_deadline is not AtDeadline.ASK and report is not None \
                and not report.disputed:
            return self._confirmed(match, None, now)
        return self._changed([TournamentEvent(EventKind.DEADLINE_PASSED, match=match_id)])

    def more_time(self, match_id: str, *, now: datetime) -> list[TournamentEvent]:
        """The organiser's «more time» for a match played on Discord whose time limit ran
        out: :data:`MORE_PLAY` more, from its limit or from now if later; it is asked again
        at the new limit. Refused for a match decided, or not being played."""
        match = self.match(match_id)
        if match.decided:
            raise TournamentError("tournament_already_decided", match=match_id)
        limit = self.played_limit(match)
        match.time_limit = stamp(max(limit, now) + MORE_PLAY)
        match.flags = [f for f in match.flags if f not in ("time_up", "overtime")]
        self._log(now, match, "more_time", None, None)
        return self._changed([TournamentEvent(EventKind.TIME_GIVEN, match=match_id)])
