"""A tournament's state and the machinery every change goes through: matches added and
removed, pairs placed, a match made ready or decided, and what a decided match starts (its
format's strategy, :mod:`.formats`). The changes themselves are the mixins of
:class:`.tournament.Tournament`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from .errors import TournamentError
from .formats import RULES, FormatRules, Podium, qualifiers
from .model import EventKind, Fixture, MatchState, Pair, Signup, Source, Stage, TournamentEvent
from .settings import Settings
from .standings import PairStanding
from .timestamps import later, parse_time, stamp

MAX_LOG = 2000
"""Entries kept in a tournament's log of reported results (the oldest go first)."""


class Core:
    """The state of a tournament and its machinery; :class:`.tournament.Tournament` adds the
    changes."""

    def __init__(self, settings: Settings, seed: int, created_at: str, *,
                 phase: Stage = Stage.SIGNUP, entries: Iterable[Signup] = (),
                 pairs: Iterable[Pair] = (), matches: Iterable[Fixture] = (),
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
        self.entries: dict[int, Signup] = {e.user_id: e for e in entries}
        self.pairs: list[Pair] = list(pairs)
        self.matches: dict[str, Fixture] = {}
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
        """What was done with results reported off Discord, and with the time limits of
        matches played on it, oldest first: ``at``, ``match``, ``what`` (reported, confirmed,
        disputed, settled, replayed, stood; time_up: the organiser asked, then their answer:
        more_time, walkover, double_walkover, board), ``user`` (None: the organiser or the
        bot) and ``games``."""
        self._order: dict[str, int] = {}
        self._dependents: dict[str, list[str]] = {}
        self._by_pair: dict[int, list[str]] = {}
        self._undecided = 0
        self._cursor: dict[int, int] = {}
        """Per pair, an index into its matches before which all are decided (a hint that only
        saves scanning; any change to its matches resets it)."""
        for match in matches:
            self._add(match)

    # --- reading ---------------------------------------------------------------------------

    def match(self, match_id: str) -> Fixture:
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

    def matches_of(self, pair_id: int) -> list[Fixture]:
        return [self.matches[m] for m in self._by_pair.get(pair_id, [])]

    def ready(self) -> list[Fixture]:
        """Matches whose table should be open (ready or playing)."""
        return [m for m in self.matches.values()
                if m.state in (MatchState.READY, MatchState.PLAYING)]

    def limit_of(self, match: Fixture) -> datetime | None:
        """When the match's time runs out: the limit the organiser gave it, else the round's
        time from when it was ready (None while it is not)."""
        if match.time_limit is not None:
            return parse_time(match.time_limit)
        if match.ready_at is None:
            return None
        return later(match.ready_at, self.settings.round_minutes)

    def played_limit(self, match: Fixture, now: datetime | None = None) -> datetime:
        """The time limit of a match being played (or ready to be); refused for any other, and,
        given ``now``, for one whose limit has not come yet."""
        limit = self.limit_of(match)
        if match.state not in (MatchState.READY, MatchState.PLAYING) or limit is None:
            raise TournamentError("tournament_not_ready", match=match.id)
        if now is not None and now < limit:
            raise TournamentError("tournament_not_overtime", match=match.id)
        return limit

    def standings(self, group: int | None = None) -> list[PairStanding]:
        """A group's table (``group``), the round robin's, or the Swiss standings."""
        return self._rules.standings(self, group)

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

    def qualifiers(self) -> list[int]:
        """Groups format: the pairs that go through, best first: by place in their group, then
        by their results (wins, game and tanto difference), then by seed."""
        return qualifiers(self)

    # --- the machinery ---------------------------------------------------------------------

    @property
    def _rules(self) -> FormatRules:
        """The format's strategy."""
        return RULES[self.settings.format]

    def _changed(self, events: list[TournamentEvent]) -> list[TournamentEvent]:
        if events:
            self.revision += 1
        return events

    def _add(self, match: Fixture) -> None:
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

    def _add_all(self, matches: Iterable[Fixture]) -> None:
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

    def _place(self, match: Fixture, side: int, pair: int) -> None:
        match.pairs[side] = pair
        ids = self._by_pair.setdefault(pair, [])
        if match.id not in ids:
            ids.append(match.id)
            ids.sort(key=self._order.__getitem__)
            self._cursor.pop(pair, None)

    def _unplace(self, match: Fixture, side: int) -> None:
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

    def _earlier_open(self, match: Fixture, pair: int) -> bool:
        """Whether the pair still has a match before this one to play."""
        first = self._next_open(pair)
        return first is not None and self._order[first.id] < self._order[match.id]

    def _refresh_all(self, now: datetime, events: list[TournamentEvent]) -> None:
        for match in list(self.matches.values()):
            self._refresh(match, now, events)
        self._after(now, events)

    def _refresh(self, match: Fixture, now: datetime, events: list[TournamentEvent]) -> None:
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
        events.append(TournamentEvent(EventKind.MATCH_READY, match=match.id))

    def _disqualify_in(self, match: Fixture, now: datetime, events: list[TournamentEvent]) -> None:
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

    def _decide(self, match: Fixture, winner: int | None, state: MatchState, now: datetime,
                events: list[TournamentEvent], *, table_record: str | None = None) -> None:
        """``table_record``: the table's stored match that decided it
        (:attr:`Fixture.table_record`)."""
        match.report = None  # decided: a report waiting for an answer is moot
        match.table_record = table_record
        match.winner = winner
        match.state = state
        match.decided_at = stamp(now)
        self._undecided -= 1
        if state is not MatchState.BYE:
            events.append(TournamentEvent(EventKind.MATCH_DECIDED, match=match.id,
                                          pair=match.winner_pair))
        for dependent in list(self._dependents.get(match.id, [])):
            self._refresh(self.matches[dependent], now, events)
        for pair in match.pairs:
            following = self._next_open(pair) if pair is not None else None
            if following is not None:
                self._refresh(following, now, events)
        self._after(now, events)

    def _next_open(self, pair: int) -> Fixture | None:
        """The pair's first match not decided: the only one of its that can become ready."""
        ids = self._by_pair.get(pair, [])
        index = self._cursor.get(pair, 0)
        while index < len(ids) and self.matches[ids[index]].decided:
            index += 1
        self._cursor[pair] = index
        return self.matches[ids[index]] if index < len(ids) else None

    def _after(self, now: datetime, events: list[TournamentEvent]) -> None:
        """What a decided match may start (the format's: the grand final's second match, the
        next Swiss round, the knockout after the groups), and the end."""
        if self.phase is not Stage.RUNNING:
            return
        self._rules.after(self, now, events)
        if self.phase is Stage.RUNNING and self._podium() is not None:
            self.phase = Stage.FINISHED
            self.finished_at = stamp(now)
            champion = self.champion
            events.append(TournamentEvent(EventKind.CHAMPION,
                                          pair=None if champion is None else champion.id))

    def _podium(self) -> Podium | None:
        """(winner, runner-up) once the tournament is decided, else None."""
        if self.phase is Stage.SIGNUP or not self.matches:
            return None
        return self._rules.podium(self)

    # --- what several changes share --------------------------------------------------------

    def _check_score(self, match: Fixture, games: Sequence[int], *,
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

    @staticmethod
    def _check_tantos(tantos: Sequence[int]) -> tuple[int, int]:
        if len(tantos) != 2 or any(not isinstance(t, int) or t < 0 for t in tantos):
            raise TournamentError("tournament_bad_tantos")
        return tantos[0], tantos[1]

    def _board(self, match: Fixture, games: Sequence[int], tantos: Sequence[int],
               playing: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int], int | None]:
        """A match's board while it is played, checked: games won by each side (forfeited ones
        included, none won yet), tantos summed over its games, and the side ahead (more games,
        else more tantos in the game in play; None when level)."""
        target = self.settings.games_to_win
        if len(games) != 2 or any(not isinstance(g, int) or not given <= g < target
                                  for g, given in zip(games, match.forfeits, strict=False)):
            raise TournamentError("tournament_bad_score", target=target)
        points = self._check_tantos(tantos)
        current = self._check_tantos(playing)
        board = (games[0], current[0]), (games[1], current[1])
        ahead = None if board[0] == board[1] else 0 if board[0] > board[1] else 1
        return (games[0], games[1]), points, ahead

    def _flag_bot(self, match: Fixture, events: list[TournamentEvent]) -> list[TournamentEvent]:
        if "bot_game" not in match.flags:
            match.flags.append("bot_game")
            events.append(TournamentEvent(EventKind.BOT_FLAGGED, match=match.id))
        return events

    def _log(self, now: datetime, match: Fixture, what: str, user: int | None,
             games: Sequence[int] | None) -> None:
        self.log.append({"at": stamp(now), "match": match.id, "what": what, "user": user,
                         "games": None if games is None else list(games)})
        del self.log[:-MAX_LOG]

    def _confirmed(self, match: Fixture, user_id: int | None, now: datetime
                   ) -> list[TournamentEvent]:
        """The report stands: confirmed by ``user_id``, or (None) by the settings at the
        deadline."""
        report = match.report
        assert report is not None
        events: list[TournamentEvent] = []
        match.games = list(report.games)
        match.tantos = [0, 0]
        if "reported" not in match.flags:
            match.flags.append("reported")
        self._log(now, match, "confirmed" if user_id is not None else "stood", user_id,
                  report.games)
        self._decide(match, 0 if report.games[0] > report.games[1] else 1,
                     MatchState.FINISHED, now, events)
        return self._changed(events)
