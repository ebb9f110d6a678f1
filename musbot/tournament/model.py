"""The records a tournament is made of: sign-ups, pairs, matches, and the events its changes
report. Plain dataclasses of JSON values (times are ISO text), so a state is its own JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, TypeAlias

PairKey: TypeAlias = tuple[int, int]
"""The two people of a stable pair, lower user id first: what a pair rating is kept under."""


def is_odd(count: int) -> bool:
    """An odd count (of pairs, of slots): someone waits, rests or has a bye."""
    return bool(count & 1)


def pair_key(first: int, second: int) -> PairKey:
    if first == second:
        raise ValueError("a pair is two people")
    return (first, second) if first < second else (second, first)


class Stage(StrEnum):
    """Where a txapelketa is in its life: sign-up, played, over or called off. «Stage», not
    «phase»: a hand's :class:`~musbot.engine.hand.Phase` is the engine's word."""

    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class MatchState(StrEnum):
    PENDING = "pending"
    """A pair (or both) not known yet, or one still has an earlier match to play."""
    READY = "ready"
    """Both pairs known and free: the match may start; the grace time runs."""
    PLAYING = "playing"
    FINISHED = "finished"
    """Played (or its result set by the organiser)."""
    WALKOVER = "walkover"
    """A pair did not sit down in time."""
    DISQUALIFIED = "disqualified"
    """A pair was disqualified: the other wins."""
    BYE = "bye"
    """Only one pair in the slot: it goes through without playing. Not a match played."""


DECIDED = frozenset({MatchState.FINISHED, MatchState.WALKOVER, MatchState.DISQUALIFIED,
                     MatchState.BYE})
PLAYED = frozenset({MatchState.FINISHED, MatchState.WALKOVER, MatchState.DISQUALIFIED})
"""Decided between two pairs: what counts as a match in standings and in the match counts."""


class Bracket(StrEnum):
    WINNERS = "W"
    """The knockout (a knockout's only bracket, double elimination's winners' bracket, the
    knockout after the groups)."""
    LOSERS = "L"
    """Double elimination's repesca."""
    FINAL = "F"
    """Double elimination's grand final (F1; F2 when the repesca's pair wins F1)."""
    GROUP = "G"
    LEAGUE = "R"
    """Round robin."""
    SWISS = "S"


SourceKind = Literal["pair", "winner", "loser", "bye"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where one side of a match comes from: a pair drawn into it, the winner or the loser of
    another match, or nobody (a bye)."""

    kind: SourceKind
    ref: int | str | None = None

    def to_json(self) -> list[Any]:
        return [self.kind, self.ref]

    @classmethod
    def from_json(cls, data: list[Any]) -> Source:
        kind, ref = data
        if kind not in ("pair", "winner", "loser", "bye"):
            raise ValueError(f"unknown source {kind!r}")
        return cls(kind, ref)


BYE_SOURCE = Source("bye")


@dataclass(slots=True)
class Signup:
    """A person signed up: alone (``partner`` None) or naming a partner. Two people naming each
    other are a pair; an invitation is confirmed by the partner naming the inviter back. Clubs
    say one signs up for a txapelketa; a table's :class:`~musbot.table.entry.Entry` is what a
    tournament set on one of its tables."""

    user_id: int
    name: str
    partner: int | None
    signed_at: str

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "partner": self.partner,
                "signed_at": self.signed_at}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Signup:
        return cls(int(data["user_id"]), str(data["name"]), data["partner"], data["signed_at"])


@dataclass(slots=True)
class Pair:
    """A pair in the draw. ``id`` is its seed − 1 (seed 1 is pair 0)."""

    id: int
    players: tuple[int | None, int | None]
    """User ids; None for a person who asked to be forgotten."""
    names: tuple[str | None, str | None]
    """Display names at sign-up; None once forgotten."""
    rating: float | None = None
    """Pair rating at the draw (display scale), None when unrated."""
    group: int | None = None
    disqualified: str | None = None
    """The organiser's reason, once disqualified."""

    @property
    def seed(self) -> int:
        return self.id + 1

    @property
    def key(self) -> PairKey | None:
        first, second = self.players
        return None if first is None or second is None else pair_key(first, second)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "players": list(self.players), "names": list(self.names),
                "rating": self.rating, "group": self.group, "disqualified": self.disqualified}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pair:
        first, second = data["players"]
        name_a, name_b = data["names"]
        return cls(int(data["id"]), (first, second), (name_a, name_b), data["rating"],
                   data["group"], data["disqualified"])


@dataclass(frozen=True, slots=True)
class Report:
    """A result a pair reported for a match played off Discord (at a table in a txoko or a
    bar): it stands until the other pair confirms it (the match is decided) or disputes it
    (the organiser decides)."""

    side: int
    """The reporting pair's side (0 or 1)."""
    user: int
    """Who reported it."""
    games: tuple[int, int]
    """Games won by each side, in the match's order (side 0 first)."""
    at: str
    number: int = 1
    """Reports made on this match so far (a report replaced counts): the buttons under a
    report name it, so a tap on an older one is refused."""
    disputed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "user": self.user, "games": list(self.games), "at": self.at,
                "number": self.number, "disputed": self.disputed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        first, second = data["games"]
        return cls(int(data["side"]), int(data["user"]), (int(first), int(second)),
                   str(data["at"]), int(data["number"]), bool(data["disputed"]))


Flag = Literal["bot_game", "both_late", "organiser", "overtime", "reported", "disputed",
               "reminded_day", "reminded_hour", "deadline_passed", "double_walkover",
               "time_up"]
"""``bot_game``: a bot played a whole game of it in a person's place (for the organiser to
look at); ``both_late``: neither pair sat down in the grace time (the organiser decides);
``organiser``: its result was set by the organiser; ``overtime``: the round's time ran out
before it ended (decided by the board then, or, level, left to play on); ``reported``: decided
by a result one pair reported and the other confirmed; ``disputed``: a reported result was
disputed (the organiser decided it); ``reminded_day``, ``reminded_hour``: its pairs were reminded
of its deadline; ``deadline_passed``: its deadline passed undecided (the organiser was asked);
``double_walkover``: neither pair played, both lose (the organiser's word); ``time_up``: played
on Discord, its time limit ran out undecided and the organiser was asked (its table plays on
meanwhile)."""


@dataclass(slots=True)
class Fixture:
    """One slot of the draw: two sides, known or still to come from earlier matches, and how
    their meeting went. A fixture, as a competition's calendar says, because it exists before
    anyone plays it (pending, ready) and may never be played (a bye, a walkover); the game
    played at its table is an engine's :class:`~musbot.engine.match.Match`."""

    id: str
    """Short and stable, shown in the bracket: ``W2-3`` (winners' bracket, round 2, match 3),
    ``L4-1``, ``F1``, ``GA1-2`` (group A, round 1), ``R5-3`` (round robin), ``S2-7`` (Swiss)."""
    bracket: Bracket
    round: int
    """The round (or, in the repesca, the column) it is drawn in, from 1."""
    sources: tuple[Source, Source]
    pairs: list[int | None] = field(default_factory=lambda: [None, None])
    state: MatchState = MatchState.PENDING
    games: list[int] = field(default_factory=lambda: [0, 0])
    """Games won by each side (forfeited games included)."""
    tantos: list[int] = field(default_factory=lambda: [0, 0])
    """Tantos of each side summed over the games (0 for what was not played)."""
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    """Games given to each side because the other was late."""
    winner: int | None = None
    """The winning side (0 or 1) once decided."""
    group: int | None = None
    ready_at: str | None = None
    started_at: str | None = None
    decided_at: str | None = None
    note: str | None = None
    """The disqualification's reason."""
    flags: list[str] = field(default_factory=list)
    paused_at: str | None = None
    """When its table was lost (:meth:`Tournament.pause`): its time limits stand still since."""
    report: Report | None = None
    """A result reported by a pair, waiting for the other's word (:meth:`Tournament.report`)."""
    time_limit: str | None = None
    """Its time limit, once the organiser gave it more time (:meth:`Tournament.more_time`);
    None: :attr:`ready_at` plus the settings' round time."""
    table_record: str | None = None
    """Decided by its table: the table's stored match (its key), which holds the result. Saved,
    it stands for :attr:`games`, :attr:`tantos` and :attr:`winner`, read back from that match
    (``musbot.storage.tournaments``): a result stored once."""

    @property
    def decided(self) -> bool:
        return self.state in DECIDED

    @property
    def played(self) -> bool:
        return self.state in PLAYED

    @property
    def winner_pair(self) -> int | None:
        return None if self.winner is None else self.pairs[self.winner]

    @property
    def loser_pair(self) -> int | None:
        return None if self.winner is None else self.pairs[1 - self.winner]

    def side_of(self, pair: int) -> int | None:
        if self.pairs[0] == pair:
            return 0
        if self.pairs[1] == pair:
            return 1
        return None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "bracket": self.bracket.value, "round": self.round,
                "sources": [s.to_json() for s in self.sources], "pairs": list(self.pairs),
                "state": self.state.value, "games": list(self.games),
                "tantos": list(self.tantos), "forfeits": list(self.forfeits),
                "winner": self.winner, "group": self.group, "ready_at": self.ready_at,
                "started_at": self.started_at, "decided_at": self.decided_at,
                "note": self.note, "flags": list(self.flags),
                **({"paused_at": self.paused_at} if self.paused_at is not None else {}),
                **({"report": self.report.to_json()} if self.report is not None else {}),
                **({"time_limit": self.time_limit} if self.time_limit is not None else {}),
                **({"table_record": self.table_record} if self.table_record is not None else {})}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fixture:
        first, second = (Source.from_json(s) for s in data["sources"])
        return cls(str(data["id"]), Bracket(data["bracket"]), int(data["round"]),
                   (first, second), list(data["pairs"]), MatchState(data["state"]),
                   list(data["games"]), list(data["tantos"]), list(data["forfeits"]),
                   data["winner"], data["group"], data["ready_at"], data["started_at"],
                   data["decided_at"], data["note"], list(data["flags"]),
                   data.get("paused_at"),
                   None if data.get("report") is None else Report.from_json(data["report"]),
                   data.get("time_limit"), data.get("table_record"))


class EventKind(StrEnum):
    SIGNED_UP = "signed_up"
    INVITED = "invited"
    """A person named as a partner for the first time in this tournament: notified (once)."""
    PAIRED = "paired"
    """Two people named each other: a pair is formed (before the draw)."""
    WITHDRAWN = "withdrawn"
    DRAWN = "drawn"
    UNPAIRED = "unpaired"
    """A person signed up alone was left without a partner at the draw (odd count)."""
    MATCH_READY = "match_ready"
    """Open its table: both pairs are known and free."""
    MATCH_STARTED = "match_started"
    MATCH_DECIDED = "match_decided"
    GAME_FORFEITED = "game_forfeited"
    BOTH_LATE = "both_late"
    BOT_FLAGGED = "bot_flagged"
    OVERTIME_LEVEL = "overtime_level"
    """The round's time ran out with the pairs level on the board: the match plays on (its
    table's result counts) unless the organiser sets one."""
    MATCH_REOPENED = "match_reopened"
    """A replay: the match is to be played again (and what followed it is undone)."""
    MATCH_PAUSED = "match_paused"
    """The match's table is gone or cannot be reached (closed by a moderator, its thread
    deleted or locked): nothing decides the match meanwhile, its time limits stop, and the
    organiser is asked for a new place (:meth:`Tournament.replay`)."""
    MATCH_RESUMED = "match_resumed"
    """A paused match's table can be reached again: it plays on, its time limits run again."""
    MATCH_WITHDRAWN = "match_withdrawn"
    """A match not played yet was taken back by a replay (a later Swiss round, the knockout
    after the groups, the grand final's second match): close its table if one was opened."""
    RESULT_REPORTED = "result_reported"
    """A pair reported a result played off Discord: the other pair is asked to confirm it."""
    TIME_UP = "time_up"
    """A match played on Discord ran past its time limit undecided: the organiser is asked (a
    walkover, a double walkover, more time, or the board as it stands); its table plays on."""
    TIME_GIVEN = "time_given"
    """The organiser gave a match played on Discord more time: its new limit is told."""
    DEADLINE_SET = "deadline_set"
    DEADLINE_DAY = "deadline_day"
    """A day to a match's deadline: its pairs are reminded."""
    DEADLINE_HOUR = "deadline_hour"
    DEADLINE_PASSED = "deadline_passed"
    """A match's deadline passed undecided: the organiser is asked (walkover, double
    walkover, more time)."""
    RESULT_DISPUTED = "result_disputed"
    """The other pair disputed a reported result: the organiser decides."""
    DISQUALIFIED = "disqualified"
    ROUND_PAIRED = "round_paired"
    KNOCKOUT_DRAWN = "knockout_drawn"
    CHAMPION = "champion"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    """What a change did, for the adapter to act on (open a table, announce, redraw). The
    tournament's own, beside the engine's :class:`~musbot.engine.events.Event` of a hand."""

    kind: EventKind
    match: str | None = None
    pair: int | None = None
    user: int | None = None
