"""One tournament's whole state and every change to it (see the package docstring for the
life of a tournament)."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from . import brackets, swiss
from .errors import ResultConflict, TournamentError
from .model import (
    Bracket,
    Entry,
    Event,
    EventKind,
    Match,
    MatchState,
    Pair,
    PairKey,
    Phase,
    Report,
    Source,
    is_odd,
    pair_key,
)
from .settings import AtDeadline, Format, Lateness, Reporting, Seeding, Settings
from .standings import Standing, circle, league_table, swiss_table
from .timestamps import later, parse_time, stamp

STATE_VERSION = 1
INVITES_PER_PERSON = 3
"""Partners one person may name in a tournament's sign-ups: each named person is notified
(once per tournament, whoever names them), so naming is budgeted, not a way to ping people."""
"""Of :meth:`Tournament.to_dict`'s document; a newer one is refused, an older one upgraded."""

MAX_PAIRS = {Format.KNOCKOUT: 512, Format.DOUBLE: 256, Format.GROUPS: 512,
             Format.ROUND_ROBIN: 128, Format.SWISS: 4096}
"""The largest field of each format: a round robin of 128 pairs is already 8,128 matches;
Swiss is the format for the biggest fields."""

MAX_REASON = 200
MAX_REPORTS = 3
"""Results one match may be reported (a report replaced counts): each report notifies the
other pair, so reporting is budgeted, not a way to ping people."""
MAX_LOG = 2000
"""Entries kept in a tournament's log of reported results (the oldest go first)."""


def group_label(index: int) -> str:
    """A, B, …, Z, AA, AB, …: the groups' names in every language."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def group_sizes(n: int, size: int) -> list[int]:
    """Groups near ``size`` (round(n / size) of them, at least one), differing by one at most,
    larger groups first."""
    count = max(1, (n + size // 2) // size)
    base, extra = divmod(n, count)
    return [base + 1 if i < extra else base for i in range(count)]


REMINDERS = (("reminded_day", timedelta(days=1), EventKind.DEADLINE_DAY),
             ("reminded_hour", timedelta(hours=1), EventKind.DEADLINE_HOUR))
"""The reminders before a match's deadline: a day, then an hour before."""
MORE_TIME = timedelta(days=1)
"""What «more time» gives a match whose deadline passed (the organiser's button)."""


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
    down and calls :meth:`Tournament.late`; ``overtime``: past the round's time, so the
    adapter reads the board and calls :meth:`Tournament.overtime` (once: a match dealt with
    is not due again)."""
    since: str


class Tournament:
    """A tournament: sign-ups, then the draw, then matches until a champion. Every change is a
    method that takes the time it happens at and returns the :class:`Event` list it caused (an
    empty list: it changed nothing, so a repeated call after a restart is harmless); bad input
    raises :class:`TournamentError` and changes nothing."""

    def __init__(self, settings: Settings, seed: int, created_at: str, *,
                 phase: Phase = Phase.SIGNUP, entries: Iterable[Entry] = (),
                 pairs: Iterable[Pair] = (), matches: Iterable[Match] = (),
                 unpaired: Iterable[int] = (), plan: Mapping[str, int] | None = None,
                 drawn_at: str | None = None, finished_at: str | None = None,
                 cancelled: str | None = None, revision: int = 0,
                 invited: Mapping[int, Sequence[int]] | None = None,
                 log: Iterable[Mapping[str, Any]] = (),
                 deadlines: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        self.seed = seed
        """Everything random (who partners whom, the random draw, ties in the seeding) comes
        from this, so a draw can be made again identically."""
        self.created_at = created_at
        self.phase = phase
        self.entries: dict[int, Entry] = {e.user_id: e for e in entries}
        self.pairs: list[Pair] = list(pairs)
        self.matches: dict[str, Match] = {}
        self.unpaired: list[int] = list(unpaired)
        """People signed up alone and left without a partner by the draw (an odd count)."""
        self.plan: dict[str, int] = dict(plan or {})
        """What the draw fixed: ``groups`` and ``advance`` (groups), ``rounds`` (Swiss)."""
        self.drawn_at = drawn_at
        self.finished_at = finished_at
        self.cancelled = cancelled
        self.revision = revision
        """Grows by one with every change (what a save can compare)."""
        self.invited: dict[int, list[int]] = {int(k): [int(u) for u in v]
                                              for k, v in (invited or {}).items()}
        """Who named whom as a partner in the sign-ups (:data:`INVITES_PER_PERSON`)."""
        self.deadlines: dict[str, str] = dict(deadlines or {})
        """Deadlines set by the organiser: a match's (by its id) or a round's (``round:N``,
        for every match of round N, those made later too); a match's own wins."""
        self.log: list[dict[str, Any]] = [dict(entry) for entry in log]
        """What was done with results reported off Discord, oldest first: ``at``, ``match``,
        ``what`` (reported, confirmed, disputed, settled, replayed), ``user`` (None: the
        organiser) and ``games``."""
        self._order: dict[str, int] = {}
        self._dependents: dict[str, list[str]] = {}
        self._by_pair: dict[int, list[str]] = {}
        self._undecided = 0
        self._cursor: dict[int, int] = {}
        """Per pair, an index into its matches before which all are decided (a hint that only
        saves scanning; any change to its matches resets it)."""
        for match in matches:
            self._add(match)

    @classmethod
    def new(cls, settings: Settings, seed: int, *, now: datetime) -> Tournament:
        return cls(settings, seed, stamp(now))

    # --- reading ---------------------------------------------------------------------------

    def match(self, match_id: str) -> Match:
        try:
            return self.matches[match_id]
        except KeyError:
            raise TournamentError("tournament_unknown_match", match=match_id) from None

    def pair(self, pair_id: int) -> Pair:
        if not 0 <= pair_id < len(self.pairs):
            raise TournamentError("tournament_unknown_pair", pair=pair_id)
        return self.pairs[pair_id]

    def pair_of(self, user_id: int) -> Pair | None:
        return next((p for p in self.pairs if user_id in p.players), None)

    def matches_of(self, pair_id: int) -> list[Match]:
        return [self.matches[m] for m in self._by_pair.get(pair_id, [])]

    def ready(self) -> list[Match]:
        """Matches whose table should be open (ready or playing)."""
        return [m for m in self.matches.values()
                if m.state in (MatchState.READY, MatchState.PLAYING)]

    def signed_pairs(self) -> list[tuple[int, int]]:
        """People who named each other, in sign-up order."""
        found = []
        for entry in self.entries.values():
            other = self.entries.get(entry.partner) if entry.partner is not None else None
            if other is not None and other.partner == entry.user_id \
                    and entry.user_id < other.user_id:
                found.append((entry.user_id, other.user_id))
        order = {user: i for i, user in enumerate(self.entries)}
        return sorted(found, key=lambda p: min(order[p[0]], order[p[1]]))

    def solos(self) -> list[int]:
        """People who will be drawn a partner: alone, or whose invitation is unanswered."""
        paired = {u for p in self.signed_pairs() for u in p}
        return [u for u in self.entries if u not in paired]

    def standings(self, group: int | None = None) -> list[Standing]:
        """A group's table (``group``), the round robin's, or the Swiss standings."""
        out = [p.id for p in self.pairs if p.disqualified]
        if self.settings.format is Format.SWISS:
            return swiss_table([p.id for p in self.pairs], list(self.matches.values()), out)
        if group is not None:
            members = [p.id for p in self.pairs if p.group == group]
            return league_table(members, [m for m in self.matches.values()
                                          if m.group == group], out)
        return league_table([p.id for p in self.pairs],
                            [m for m in self.matches.values()
                             if m.bracket is Bracket.LEAGUE], out)

    @property
    def champion(self) -> Pair | None:
        """The winner, once the tournament is decided (None while it is not, or if the last
        pair standing was disqualified)."""
        podium = self._podium()
        if podium is None or podium[0] is None:
            return None
        pair = self.pairs[podium[0]]
        return None if pair.disqualified else pair

    @property
    def finalist(self) -> Pair | None:
        """The runner-up: the final's loser, or second in a league or Swiss."""
        podium = self._podium()
        return None if podium is None or podium[1] is None else self.pairs[podium[1]]

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
            if match.state in (MatchState.READY, MatchState.PLAYING) \
                    and "overtime" not in match.flags:
                limit = later(match.ready_at, self.settings.round_minutes)
                if now >= limit:
                    found.append(Due(match.id, "overtime", stamp(limit)))
        return found

    def deadline_of(self, match: Match) -> datetime | None:
        """The match's deadline: its own, else its round's; None without one."""
        found = self.deadlines.get(match.id) or self.deadlines.get(f"round:{match.round}")
        return None if found is None else parse_time(found)

    def deadlines_due(self, now: datetime) -> list[Reminder]:
        """What a match's deadline asks now: a reminder a day before, one an hour before (each
        once; one that came too late for its time is skipped), or the organiser's word once
        it has passed. Only for matches to be played, not paused."""
        found: list[Reminder] = []
        if self.phase is not Phase.RUNNING:
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
        if self.phase is not Phase.RUNNING:
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

    # --- sign-ups --------------------------------------------------------------------------

    def _open_for_signups(self, now: datetime) -> None:
        deadline = self.settings.deadline
        if self.phase is not Phase.SIGNUP or (deadline is not None and now > deadline):
            raise TournamentError("tournament_signups_closed")

    def sign_up(self, user_id: int, name: str, *, partner: int | None = None,
                now: datetime) -> list[Event]:
        """Sign up alone (``partner`` None) or naming a partner; naming back someone who named
        you confirms the pair. Signing up again replaces one's entry (a new partner, a new
        name); the same entry again changes nothing."""
        self._open_for_signups(now)
        if partner == user_id:
            raise TournamentError("tournament_partner_self")
        name = " ".join(str(name).split())[:100] or str(user_id)
        old = self.entries.get(user_id)
        if old is not None and (old.name, old.partner) == (name, partner):
            return []
        named = self.invited.get(user_id, [])
        if partner is not None and partner not in named and len(named) >= INVITES_PER_PERSON:
            raise TournamentError("tournament_invites_spent", limit=INVITES_PER_PERSON)
        self.entries[user_id] = Entry(user_id, name, partner, stamp(now))
        events = [Event(EventKind.SIGNED_UP, user=user_id)]
        other = self.entries.get(partner) if partner is not None else None
        if other is not None and other.partner == user_id:
            events.append(Event(EventKind.PAIRED, user=partner))
        elif partner is not None and not any(partner in v for v in self.invited.values()):
            events.append(Event(EventKind.INVITED, user=partner))  # told once, by anyone
        if partner is not None and partner not in named:
            self.invited[user_id] = [*named, partner]
        return self._changed(events)

    def withdraw(self, user_id: int, *, now: datetime) -> list[Event]:
        """Leave before the draw. A partner who had confirmed stays signed up, to be drawn a
        partner unless they withdraw too or name someone else."""
        if self.phase is not Phase.SIGNUP:
            raise TournamentError("tournament_signups_closed")
        if user_id not in self.entries:
            raise TournamentError("tournament_not_signed_up")
        del self.entries[user_id]
        return self._changed([Event(EventKind.WITHDRAWN, user=user_id)])

    # --- the draw --------------------------------------------------------------------------

    def _random(self, purpose: str) -> random.Random:
        return random.Random(f"{self.seed}:{purpose}")

    def draw(self, *, now: datetime, ratings: Mapping[PairKey, float] | None = None
             ) -> list[Event]:
        """Close the sign-ups and draw: pairs for those alone, then the seeding and the
        format's first matches. ``ratings`` are the pair ratings to seed by (display scale)."""
        if self.phase is not Phase.SIGNUP:
            raise TournamentError("tournament_already_drawn")
        couples = self.signed_pairs()
        solos = self.solos()
        self._random("partners").shuffle(solos)
        unpaired = [solos.pop()] if is_odd(len(solos)) else []
        couples += [(solos[i], solos[i + 1]) for i in range(0, len(solos), 2)]
        n = len(couples)
        if n < 2:
            raise TournamentError("tournament_too_few", count=n)
        limit = MAX_PAIRS[self.settings.format]
        if n > limit:
            raise TournamentError("tournament_too_many", count=n, limit=limit)
        rounds = self.settings.swiss_rounds or swiss.default_rounds(n)
        if self.settings.format is Format.SWISS and rounds > swiss.max_rounds(n):
            raise TournamentError("tournament_too_many_rounds", rounds=rounds,
                                  limit=swiss.max_rounds(n))
        order = list(range(n))
        self._random("seeding").shuffle(order)
        table = ratings or {}

        def rating(index: int) -> float | None:
            return table.get(pair_key(*couples[index]))

        if self.settings.seeding is Seeding.RATING:
            order.sort(key=lambda i: (rating(i) is None, -(rating(i) or 0.0)))
        self.pairs = []
        for seed, index in enumerate(order):
            first, second = couples[index]
            self.pairs.append(Pair(seed, (first, second),
                                   (self.entries[first].name, self.entries[second].name),
                                   rating(index)))
        self.unpaired = unpaired
        self.phase = Phase.RUNNING
        self.drawn_at = stamp(now)
        events = [Event(EventKind.DRAWN)] + [Event(EventKind.UNPAIRED, user=u) for u in unpaired]
        seeds = [p.id for p in self.pairs]
        fmt = self.settings.format
        if fmt is Format.KNOCKOUT:
            self._add_all(brackets.knockout(seeds))
        elif fmt is Format.DOUBLE:
            self._add_all(brackets.double_elimination(seeds))
        elif fmt is Format.ROUND_ROBIN:
            self._add_all(self._league(seeds, Bracket.LEAGUE, "R", None))
        elif fmt is Format.GROUPS:
            self._draw_groups(seeds)
        else:
            self.plan["rounds"] = rounds
            pairing, bye = swiss.first_round(seeds)
            self._add_round(1, pairing, bye)
            self.plan["paired"] = 1
        self._refresh_all(now, events)
        return self._changed(events)

    @staticmethod
    def _league(pairs: Sequence[int], bracket: Bracket, prefix: str,
                group: int | None) -> list[Match]:
        return [Match(f"{prefix}{r}-{i}", bracket, r,
                      (Source("pair", a), Source("pair", b)), group=group)
                for r, games in enumerate(circle(pairs), 1)
                for i, (a, b) in enumerate(games, 1)]

    def _draw_groups(self, seeds: list[int]) -> None:
        """Groups balanced by seed (snake order: 1, 2, …, g, then g, …, 2, 1, …)."""
        sizes = group_sizes(len(seeds), self.settings.group_size)
        count = len(sizes)
        members: list[list[int]] = [[] for _ in range(count)]
        for i, pair in enumerate(seeds):
            row, col = divmod(i, count)
            group = count - 1 - col if is_odd(row) else col
            members[group].append(pair)
        self.plan["groups"] = count
        self.plan["advance"] = max(1, min(self.settings.advance, min(sizes) - 1))
        for group, pairs in enumerate(members):
            for pair in pairs:
                self.pairs[pair].group = group
            self._add_all(self._league(pairs, Bracket.GROUP, f"G{group_label(group)}", group))

    def _add_round(self, number: int, pairing: list[tuple[int, int]], bye: int | None) -> None:
        made = [Match(f"S{number}-{i}", Bracket.SWISS, number,
                      (Source("pair", a), Source("pair", b)))
                for i, (a, b) in enumerate(pairing, 1)]
        if bye is not None:
            made.append(Match(f"S{number}-{len(pairing) + 1}", Bracket.SWISS, number,
                              (Source("pair", bye), Source("bye"))))
        self._add_all(made)

    # --- playing ---------------------------------------------------------------------------

    def start(self, match_id: str, *, now: datetime) -> list[Event]:
        """The match's table has begun (both pairs sat down): its grace time stops."""
        match = self.match(match_id)
        if match.state is MatchState.PLAYING:
            return []
        if match.state is not MatchState.READY:
            raise TournamentError("tournament_not_ready", match=match_id)
        match.state = MatchState.PLAYING
        match.started_at = stamp(now)
        return self._changed([Event(EventKind.MATCH_STARTED, match=match_id)])

    def _check_score(self, match: Match, games: Sequence[int], *,
                     forfeits: bool = True) -> tuple[int, int]:
        """A match's final games; with ``forfeits``, counting the games already given for
        lateness (a table's result does; the organiser's replaces them)."""
        target = self.settings.games_to_win
        if len(games) != 2 or any(not isinstance(g, int) or g < 0 for g in games):
            raise TournamentError("tournament_bad_score", target=target)
        first, second = games
        given = match.forfeits if forfeits else [0, 0]
        if max(first, second) != target or min(first, second) >= target \
                or first < given[0] or second < given[1]:
            raise TournamentError("tournament_bad_score", target=target)
        return first, second

    def record(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0), *,
               now: datetime, bot_game: bool = False) -> list[Event]:
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
        events: list[Event] = []
        if bot_game:
            self._flag_bot(match, events)
        match.games = list(score)
        match.tantos = list(points)
        self._decide(match, 0 if score[0] > score[1] else 1, MatchState.FINISHED, now, events)
        return self._changed(events)

    @staticmethod
    def _check_tantos(tantos: Sequence[int]) -> tuple[int, int]:
        if len(tantos) != 2 or any(not isinstance(t, int) or t < 0 for t in tantos):
            raise TournamentError("tournament_bad_tantos")
        return tantos[0], tantos[1]

    def flag_bot(self, match_id: str, *, now: datetime) -> list[Event]:
        """A bot played a whole game of this match in a person's place."""
        return self._changed(self._flag_bot(self.match(match_id), []))

    def _flag_bot(self, match: Match, events: list[Event]) -> list[Event]:
        if "bot_game" not in match.flags:
            match.flags.append("bot_game")
            events.append(Event(EventKind.BOT_FLAGGED, match=match.id))
        return events

    def late(self, match_id: str, sides: Collection[int], *, now: datetime) -> list[Event]:
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
            return self._changed([Event(EventKind.BOTH_LATE, match=match_id)])
        present = 1 - next(iter(absent))
        events: list[Event] = []
        target = self.settings.games_to_win
        if self.settings.lateness is Lateness.GAME:
            match.forfeits[present] += 1
            match.games[present] += 1
            events.append(Event(EventKind.GAME_FORFEITED, match=match_id,
                                pair=match.pairs[1 - present]))
        if self.settings.lateness is Lateness.MATCH or match.games[present] >= target:
            match.games[present] = target
            self._decide(match, present, MatchState.WALKOVER, now, events)
        return self._changed(events)

    def overtime(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0),
                 *, playing: Sequence[int] = (0, 0), now: datetime,
                 bot_game: bool = False) -> list[Event]:
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
        events: list[Event] = []
        if bot_game:
            self._flag_bot(match, events)
        match.flags.append("overtime")
        board = (games[0], current[0]), (games[1], current[1])
        if board[0] == board[1]:
            events.append(Event(EventKind.OVERTIME_LEVEL, match=match_id))
            return self._changed(events)
        match.games = [games[0], games[1]]
        match.tantos = list(points)
        self._decide(match, 0 if board[0] > board[1] else 1, MatchState.FINISHED, now, events)
        return self._changed(events)

    # --- results reported off Discord ------------------------------------------------------

    def _reported_match(self, match_id: str, user_id: int) -> tuple[Match, int]:
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

    def current_match(self, user_id: int) -> Match | None:
        """The person's match to be played now (ready or playing), if any."""
        pair = self.pair_of(user_id)
        if pair is None:
            return None
        return next((m for m in self.matches_of(pair.id)
                     if m.state in (MatchState.READY, MatchState.PLAYING)), None)

    def report(self, match_id: str, user_id: int, games: Sequence[int], *,
               now: datetime) -> list[Event]:
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
        return self._changed([Event(EventKind.RESULT_REPORTED, match=match_id,
                                    pair=match.pairs[side], user=user_id)])

    def _answering(self, match_id: str, user_id: int, number: int) -> tuple[Match, Report]:
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
                now: datetime) -> list[Event]:
        """A player of the other pair agrees with report ``number``: the match is decided."""
        match, _ = self._answering(match_id, user_id, number)
        return self._confirmed(match, user_id, now)

    def dispute(self, match_id: str, user_id: int, number: int, *,
                now: datetime) -> list[Event]:
        """A player of the other pair disputes report ``number``: the organiser decides
        (:meth:`set_result` or :meth:`replay`); nothing advances meanwhile."""
        match, report = self._answering(match_id, user_id, number)
        match.report = Report(report.side, report.user, report.games, report.at,
                              report.number, True)
        return self._disputed(match, user_id, now, None)

    def _confirmed(self, match: Match, user_id: int | None, now: datetime) -> list[Event]:
        """The report stands: confirmed by ``user_id``, or (None) by the settings at the
        deadline."""
        report = match.report
        assert report is not None
        events: list[Event] = []
        match.games = list(report.games)
        match.tantos = [0, 0]
        if "reported" not in match.flags:
            match.flags.append("reported")
        self._log(now, match, "confirmed" if user_id is not None else "stood", user_id,
                  report.games)
        self._decide(match, 0 if report.games[0] > report.games[1] else 1,
                     MatchState.FINISHED, now, events)
        return self._changed(events)

    def _disputed(self, match: Match, user_id: int, now: datetime,
                  claim: tuple[int, int] | None) -> list[Event]:
        if "disputed" not in match.flags:
            match.flags.append("disputed")
        self._log(now, match, "disputed", user_id, claim)
        return self._changed([Event(EventKind.RESULT_DISPUTED, match=match.id, user=user_id)])

    def _log(self, now: datetime, match: Match, what: str, user: int | None,
             games: Sequence[int] | None) -> None:
        self.log.append({"at": stamp(now), "match": match.id, "what": what, "user": user,
                         "games": None if games is None else list(games)})
        del self.log[:-MAX_LOG]

    # --- deadlines ---------------------------------------------------------------------------

    def set_deadline(self, target: str | int, when: datetime, *, now: datetime) -> list[Event]:
        """The organiser's deadline for a match (its id) or a round (its number): reminders
        and the organiser's question come again for it. It must be in the future."""
        if self.phase is not Phase.RUNNING:
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
        return self._changed([Event(EventKind.DEADLINE_SET, match=key)])

    def remind(self, match_id: str, kind: str, *, now: datetime) -> list[Event]:
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
            return self._changed([Event(event, match=match_id)])
        report = match.report
        if self.settings.at_deadline is AtDeadline.REPORT and report is not None \
                and not report.disputed:
            return self._confirmed(match, None, now)
        return self._changed([Event(EventKind.DEADLINE_PASSED, match=match_id)])

    def walkover(self, match_id: str, absent: Collection[int], *,
                 now: datetime) -> list[Event]:
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
        events: list[Event] = []
        target = self.settings.games_to_win
        if match.report is not None:
            self._log(now, match, "settled", None, None)
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

    # --- the organiser ---------------------------------------------------------------------

    def set_result(self, match_id: str, games: Sequence[int], tantos: Sequence[int] = (0, 0),
                   *, now: datetime) -> list[Event]:
        """The organiser's result: for a match not played on a table, or to correct one (which
        replays it first, so only while nothing after it has started)."""
        match = self.match(match_id)
        score = self._check_score(match, games, forfeits=not match.decided)
        points = self._check_tantos(tantos)
        events: list[Event] = []
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

    def replay(self, match_id: str, *, now: datetime) -> list[Event]:
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

    def pause(self, match_id: str, *, now: datetime) -> list[Event]:
        """The match's table is gone or out of reach (closed by a moderator, its thread deleted
        or locked): nothing but the organiser decides the match now, and its time limits stand
        still until it plays on (:meth:`resume`, :meth:`replay`). Again, it changes nothing."""
        match = self.match(match_id)
        if match.state not in (MatchState.READY, MatchState.PLAYING) \
                or match.paused_at is not None:
            return []
        match.paused_at = stamp(now)
        return self._changed([Event(EventKind.MATCH_PAUSED, match=match_id)])

    def resume(self, match_id: str, *, now: datetime) -> list[Event]:
        """The paused match's table can be reached again: it plays on where it was, its time
        limits moved on by the time it was paused."""
        match = self.match(match_id)
        if match.paused_at is None or match.decided:
            return []
        stood = now - parse_time(match.paused_at)
        if match.ready_at is not None:
            match.ready_at = stamp(parse_time(match.ready_at) + stood)
        match.paused_at = None
        return self._changed([Event(EventKind.MATCH_RESUMED, match=match_id)])

    def _restart(self, match: Match, now: datetime) -> list[Event]:
        """A paused match played again from the start at a new table: ready from now, with the
        games given for lateness it had."""
        match.paused_at = None
        match.report = None
        match.state = MatchState.READY
        match.games = list(match.forfeits)
        match.tantos = [0, 0]
        match.flags = []
        match.ready_at = stamp(now)
        match.started_at = None
        return self._changed([Event(EventKind.MATCH_REOPENED, match=match.id),
                              Event(EventKind.MATCH_READY, match=match.id)])

    def disqualify(self, pair_id: int, reason: str, *, now: datetime) -> list[Event]:
        """Out of the tournament, with the reason shown: every match of the pair not played yet
        is lost (the played ones stand). Again for a pair already out changes nothing."""
        pair = self.pair(pair_id)
        if self.phase is not Phase.RUNNING:
            raise TournamentError("tournament_not_running")
        reason = " ".join(str(reason).split())[:MAX_REASON]
        if not reason:
            raise TournamentError("tournament_reason_needed")
        if pair.disqualified:
            return []
        pair.disqualified = reason
        events = [Event(EventKind.DISQUALIFIED, pair=pair_id)]
        for match in self.matches_of(pair_id):
            if match.state is MatchState.PENDING and None in match.pairs:
                continue
            if match.state in (MatchState.PENDING, MatchState.READY, MatchState.PLAYING):
                self._disqualify_in(match, now, events)
        self._after(now, events)
        return self._changed(events)

    def cancel(self, reason: str, *, now: datetime) -> list[Event]:
        """The organiser stops the tournament (no champion). Again: nothing changes."""
        if self.phase is Phase.CANCELLED:
            return []
        if self.phase is Phase.FINISHED:
            raise TournamentError("tournament_over")
        self.phase = Phase.CANCELLED
        self.cancelled = " ".join(str(reason).split())[:MAX_REASON] or "-"
        self.finished_at = stamp(now)
        return self._changed([Event(EventKind.CANCELLED)])

    def forget(self, user_id: int) -> bool:
        """``/mus olvidarme``: the person's sign-up goes, and in the draw their id and name are
        blanked (their pair's results stay, as league results do). True if they were here.
        The revision does not change: forgetting is not a step of the tournament, and storage
        applies it to every state it saves, whatever copy a runner holds."""
        found = False
        if self.entries.pop(user_id, None) is not None:
            found = True
        for entry in self.entries.values():
            if entry.partner == user_id:
                entry.partner = None
                found = True
        for pair in self.pairs:
            if user_id in pair.players:
                i = pair.players.index(user_id)
                players, names = list(pair.players), list(pair.names)
                players[i], names[i] = None, None
                pair.players = (players[0], players[1])
                pair.names = (names[0], names[1])
                found = True
        if user_id in self.unpaired:
            self.unpaired.remove(user_id)
            found = True
        if self.invited.pop(user_id, None) is not None:
            found = True
        for author, named in list(self.invited.items()):
            if user_id in named:
                self.invited[author] = [u for u in named if u != user_id]
                found = True
        return found

    def people(self) -> set[int]:
        """Everyone this state names: what forgetting a person must look through."""
        found = set(self.entries) | set(self.unpaired)
        found |= {e.partner for e in self.entries.values() if e.partner is not None}
        found |= {u for p in self.pairs for u in p.players if u is not None}
        found |= set(self.invited) | {u for named in self.invited.values() for u in named}
        return found

    # --- the machinery ---------------------------------------------------------------------

    def _changed(self, events: list[Event]) -> list[Event]:
        if events:
            self.revision += 1
        return events

    def _add(self, match: Match) -> None:
        self._order[match.id] = len(self._order)
        self.matches[match.id] = match
        if not match.decided:
            self._undecided += 1
        for source in match.sources:
            if source.kind in ("winner", "loser"):
                self._dependents.setdefault(str(source.ref), []).append(match.id)
        for pair in match.pairs:
            if pair is not None:
                self._by_pair.setdefault(pair, []).append(match.id)
                self._cursor.pop(pair, None)

    def _add_all(self, matches: Iterable[Match]) -> None:
        for match in matches:
            if match.id in self.matches:
                raise AssertionError(f"match {match.id} made twice")
            self._add(match)

    def _remove(self, match_id: str) -> None:
        match = self.matches.pop(match_id)
        del self._order[match_id]
        if not match.decided:
            self._undecided -= 1
        for source in match.sources:
            if source.kind in ("winner", "loser"):
                self._dependents[str(source.ref)].remove(match_id)
        for pair in set(match.pairs):
            if pair is not None:
                self._by_pair[pair].remove(match_id)
                self._cursor.pop(pair, None)

    def _place(self, match: Match, side: int, pair: int) -> None:
        match.pairs[side] = pair
        ids = self._by_pair.setdefault(pair, [])
        if match.id not in ids:
            ids.append(match.id)
            ids.sort(key=self._order.__getitem__)
            self._cursor.pop(pair, None)

    def _unplace(self, match: Match, side: int) -> None:
        pair = match.pairs[side]
        match.pairs[side] = None
        if pair is not None and pair not in match.pairs:
            self._by_pair[pair].remove(match.id)
            self._cursor.pop(pair, None)

    def _resolve(self, source: Source) -> int | Literal["unknown"] | None:
        if source.kind == "pair":
            return int(source.ref or 0)
        if source.kind == "bye":
            return None
        feeder = self.matches[str(source.ref)]
        if not feeder.decided:
            return "unknown"
        return feeder.winner_pair if source.kind == "winner" else feeder.loser_pair

    def _earlier_open(self, match: Match, pair: int) -> bool:
        """Whether the pair still has a match before this one to play."""
        first = self._next_open(pair)
        return first is not None and self._order[first.id] < self._order[match.id]

    def _refresh_all(self, now: datetime, events: list[Event]) -> None:
        for match in list(self.matches.values()):
            self._refresh(match, now, events)
        self._after(now, events)

    def _refresh(self, match: Match, now: datetime, events: list[Event]) -> None:
        """A pending match whose pairs may now be known: it becomes a bye, is lost by a
        disqualified pair, or becomes ready once both its pairs are free."""
        if match.state is not MatchState.PENDING:
            return
        for side in (0, 1):
            if match.pairs[side] is None:
                found = self._resolve(match.sources[side])
                if found == "unknown":
                    return
                if found is not None:
                    self._place(match, side, found)
        first, second = match.pairs
        if first is None or second is None:
            if first is None and second is None:  # both sides lost a double walkover
                self._decide(match, None, MatchState.BYE, now, events)
                return
            self._decide(match, 0 if second is None else 1, MatchState.BYE, now, events)
            return
        if self.pairs[first].disqualified or self.pairs[second].disqualified:
            self._disqualify_in(match, now, events)
            return
        if self._earlier_open(match, first) or self._earlier_open(match, second):
            return
        match.state = MatchState.READY
        match.ready_at = stamp(now)
        events.append(Event(EventKind.MATCH_READY, match=match.id))

    def _disqualify_in(self, match: Match, now: datetime, events: list[Event]) -> None:
        first, second = match.pairs
        assert first is not None and second is not None
        out_first = self.pairs[first].disqualified
        winner = 1 if out_first and not self.pairs[second].disqualified else 0
        loser = match.pairs[1 - winner]
        match.note = None if loser is None else self.pairs[loser].disqualified
        match.games = [0, 0]
        match.games[winner] = self.settings.games_to_win
        match.tantos = [0, 0]
        self._decide(match, winner, MatchState.DISQUALIFIED, now, events)

    def _decide(self, match: Match, winner: int | None, state: MatchState, now: datetime,
                events: list[Event]) -> None:
        match.report = None  # decided: a report waiting for an answer is moot
        match.winner = winner
        match.state = state
        match.decided_at = stamp(now)
        self._undecided -= 1
        if state is not MatchState.BYE:
            events.append(Event(EventKind.MATCH_DECIDED, match=match.id,
                                pair=match.winner_pair))
        for dependent in list(self._dependents.get(match.id, [])):
            self._refresh(self.matches[dependent], now, events)
        for pair in match.pairs:
            following = self._next_open(pair) if pair is not None else None
            if following is not None:
                self._refresh(following, now, events)
        self._after(now, events)

    def _next_open(self, pair: int) -> Match | None:
        """The pair's first match not decided: the only one of its that can become ready."""
        ids = self._by_pair.get(pair, [])
        index = self._cursor.get(pair, 0)
        while index < len(ids) and self.matches[ids[index]].decided:
            index += 1
        self._cursor[pair] = index
        return self.matches[ids[index]] if index < len(ids) else None

    def _after(self, now: datetime, events: list[Event]) -> None:
        """What a decided match may start: the grand final's second match, the next Swiss
        round, the knockout after the groups, the end."""
        if self.phase is not Phase.RUNNING:
            return
        fmt = self.settings.format
        if fmt is Format.DOUBLE:
            first = self.matches.get("F1")
            if first is not None and first.decided and first.winner == 1 \
                    and "F2" not in self.matches:
                self._add(Match("F2", Bracket.FINAL, 2,
                                (Source("winner", "F1"), Source("loser", "F1"))))
                self._refresh(self.matches["F2"], now, events)
        elif fmt is Format.SWISS:
            # Rounds before the last one paired are all decided (a replay takes back the later
            # ones), so nothing undecided means the last round is over.
            current = self.plan.get("paired", 0)
            if current < self.plan["rounds"] and not self._undecided:
                self._pair_swiss(current + 1, now, events)
        elif fmt is Format.GROUPS and not self._undecided and not any(
                m.bracket is Bracket.WINNERS for m in self.matches.values()):
            self._draw_knockout(now, events)
        if self.phase is Phase.RUNNING and self._podium() is not None:
            self.phase = Phase.FINISHED
            self.finished_at = stamp(now)
            champion = self.champion
            events.append(Event(EventKind.CHAMPION,
                                pair=None if champion is None else champion.id))

    def _pair_swiss(self, number: int, now: datetime, events: list[Event]) -> None:
        table = [s.pair for s in self.standings() if not self.pairs[s.pair].disqualified]
        met = {frozenset(p for p in m.pairs if p is not None)
               for m in self.matches.values() if m.played and None not in m.pairs}
        had_bye = {m.winner_pair for m in self.matches.values() if m.state is MatchState.BYE}
        if len(table) < 2:
            self.plan["rounds"] = number - 1
            return
        pairing, bye = swiss.pair_round(table, met, {p for p in had_bye if p is not None})
        self._add_round(number, pairing, bye)
        self.plan["paired"] = number
        events.append(Event(EventKind.ROUND_PAIRED))
        for match in [m for m in self.matches.values() if m.round == number]:
            self._refresh(match, now, events)

    def qualifiers(self) -> list[int]:
        """Groups format: the pairs that go through, best first: by place in their group, then
        by their results (wins, game and tanto difference), then by seed."""
        ranked = []
        for group in range(self.plan.get("groups", 0)):
            table = [s for s in self.standings(group) if not self.pairs[s.pair].disqualified]
            for place, row in enumerate(table[: self.plan["advance"]]):
                ranked.append((place, -row.won, -row.games_diff, -row.tantos_diff, row.pair))
        return [row[-1] for row in sorted(ranked)]

    def _draw_knockout(self, now: datetime, events: list[Event]) -> None:
        through = self.qualifiers()
        if len(through) < 2:
            return
        matches = brackets.knockout(through)
        self._separate_groups(matches)
        self._add_all(matches)
        events.append(Event(EventKind.KNOCKOUT_DRAWN))
        for match in matches:
            self._refresh(match, now, events)

    def _separate_groups(self, matches: list[Match]) -> None:
        """Two pairs of one group do not meet again in the knockout's first round while a swap
        of the lower-placed pairs of two first-round matches avoids it."""
        first = [m for m in matches if m.round == 1]

        def group(source: Source) -> int | None:
            return None if source.kind != "pair" else self.pairs[int(source.ref or 0)].group

        def clash(match: Match) -> bool:
            a, b = (group(s) for s in match.sources)
            return a is not None and a == b

        for match in first:
            if not clash(match):
                continue
            for other in sorted(first, key=lambda m: abs(first.index(m) - first.index(match))):
                if other is match or other.sources[1].kind != "pair":
                    continue
                swapped = (Match(match.id, match.bracket, 1, (match.sources[0], other.sources[1])),
                           Match(other.id, other.bracket, 1, (other.sources[0], match.sources[1])))
                if not any(clash(m) for m in swapped):
                    match.sources, other.sources = swapped[0].sources, swapped[1].sources
                    break

    def _podium(self) -> tuple[int | None, int | None] | None:
        """(winner, runner-up) once the tournament is decided, else None."""
        if self.phase is Phase.SIGNUP or not self.matches:
            return None
        fmt = self.settings.format
        if fmt is Format.DOUBLE:
            first, second = self.matches.get("F1"), self.matches.get("F2")
            final = second if second is not None else first
            if final is None or not final.decided or (final is first and first.winner == 1):
                return None
            return final.winner_pair, final.loser_pair
        if fmt in (Format.KNOCKOUT, Format.GROUPS):
            knockout = [m for m in self.matches.values() if m.bracket is Bracket.WINNERS]
            if knockout:
                final = knockout[-1]
                return (final.winner_pair, final.loser_pair) if final.decided else None
            if fmt is Format.KNOCKOUT or self._undecided:
                return None
            if self.plan.get("groups") == 1:  # one group: its table decides
                table = self.standings(0)
                return table[0].pair, table[1].pair if len(table) > 1 else None
            through = self.qualifiers()  # disqualifications left one or none to go through
            return (through[0] if through else None), None
        if self._undecided or (fmt is Format.SWISS
                               and self.plan.get("paired", 0) < self.plan["rounds"]):
            return None
        table = self.standings()
        return table[0].pair, table[1].pair if len(table) > 1 else None

    def _reopen(self, match: Match, now: datetime) -> list[Event]:
        """Undo a decided match and what followed from it (see :meth:`replay`)."""
        withdrawn: list[Match] = []
        reset: list[tuple[Match, int | None]] = []
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
        fmt = self.settings.format
        if fmt is Format.SWISS:
            withdrawn = [m for m in self.matches.values() if m.round > match.round]
        elif fmt is Format.GROUPS and match.bracket is Bracket.GROUP:
            withdrawn = [m for m in self.matches.values() if m.bracket is Bracket.WINNERS]
        elif match.id == "F1" and "F2" in self.matches:
            withdrawn = [self.matches["F2"]]
        for other, _ in reset:
            if other.state not in (MatchState.PENDING, MatchState.READY):
                raise TournamentError("tournament_replay_too_late", match=match.id,
                                      blocking=other.id)
        for other in withdrawn:
            if other.state not in (MatchState.PENDING, MatchState.READY, MatchState.BYE):
                raise TournamentError("tournament_replay_too_late", match=match.id,
                                      blocking=other.id)
        events = [Event(EventKind.MATCH_REOPENED, match=match.id)]
        if fmt is Format.SWISS:
            self.plan["paired"] = match.round
        for other in withdrawn:
            if other.state is MatchState.READY:
                events.append(Event(EventKind.MATCH_WITHDRAWN, match=other.id))
            self._remove(other.id)
        for other, side in reset:
            if other.id not in self.matches:
                continue
            if other.state is MatchState.READY:
                events.append(Event(EventKind.MATCH_WITHDRAWN, match=other.id))
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
        match.ready_at = match.started_at = match.decided_at = None
        if self.phase is Phase.FINISHED:
            self.phase = Phase.RUNNING
            self.finished_at = None
        return events

    # --- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON values; :meth:`from_dict` gives back an equal tournament."""
        return {"version": STATE_VERSION, "settings": self.settings.to_dict(),
                "seed": self.seed, "created_at": self.created_at, "phase": self.phase.value,
                "revision": self.revision, "drawn_at": self.drawn_at,
                "finished_at": self.finished_at, "cancelled": self.cancelled,
                "plan": dict(self.plan),
                "entries": [e.to_json() for e in self.entries.values()],
                "unpaired": list(self.unpaired),
                "pairs": [p.to_json() for p in self.pairs],
                "matches": [m.to_json() for m in self.matches.values()],
                **({"invited": [[author, list(named)] for author, named in
                                sorted(self.invited.items())]} if self.invited else {}),
                **({"log": [dict(entry) for entry in self.log]} if self.log else {}),
                **({"deadlines": dict(self.deadlines)} if self.deadlines else {})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        version = data.get("version")
        if not isinstance(version, int) or version < 1:
            raise TournamentError("tournament_bad_state")
        if version > STATE_VERSION:
            raise TournamentError("tournament_state_too_new", version=version,
                                  known=STATE_VERSION)
        try:
            return cls(Settings.from_dict(data["settings"]), int(data["seed"]),
                       str(data["created_at"]), phase=Phase(data["phase"]),
                       entries=[Entry.from_json(e) for e in data["entries"]],
                       pairs=[Pair.from_json(p) for p in data["pairs"]],
                       matches=[Match.from_json(m) for m in data["matches"]],
                       unpaired=[int(u) for u in data["unpaired"]], plan=data["plan"],
                       drawn_at=data["drawn_at"], finished_at=data["finished_at"],
                       cancelled=data["cancelled"], revision=int(data["revision"]),
                       invited={int(a): named for a, named in data.get("invited", [])},
                       log=data.get("log", []), deadlines=data.get("deadlines"))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, TournamentError):
                raise
            raise TournamentError("tournament_bad_state") from exc

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tournament) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Tournament({self.settings.name!r}, {self.settings.format.value}, "
                f"{self.phase.value}, {len(self.pairs)} pairs, {len(self.matches)} matches)")
