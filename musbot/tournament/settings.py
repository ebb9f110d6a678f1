"""A tournament's settings: what the organiser chooses when creating it
(``/musadmin txapelketa sortu``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from musbot.engine.rules import Rules

from .errors import TournamentError
from .timestamps import parse_time, stamp


class Format(StrEnum):
    KNOCKOUT = "knockout"
    """Single elimination: byes in the first round to the top seeds."""
    DOUBLE = "double"
    """Double elimination: a pair is out after its second defeat; the first sends it to the
    losers' bracket (the repesca), whose winner meets the winners' bracket's in the grand
    final (played twice if the repesca's pair wins the first)."""
    GROUPS = "groups"
    """Groups of everyone against everyone, then a knockout of the best of each group."""
    ROUND_ROBIN = "round_robin"
    """One league: everyone against everyone (a club's liguilla)."""
    SWISS = "swiss"
    """Swiss rounds for big fields: pairs with like scores meet, never twice while avoidable."""


class Seeding(StrEnum):
    RATING = "rating"
    """Best pair rating first (:mod:`musbot.storage.ratings`); unrated pairs after, in draw
    order."""
    RANDOM = "random"


class Lateness(StrEnum):
    """What a pair that does not sit down within the grace time loses."""

    MATCH = "match"
    """The match, by walkover."""
    GAME = "game"
    """One game per grace time that passes: the match goes on, or ends once the present pair
    has the games to win."""


class Reporting(StrEnum):
    """Where a tournament's matches are played, so how their results come."""

    DISCORD = "discord"
    """On Discord: each match at its table in a thread, whose result is the match's."""
    TABLE = "mesa"
    """At a real table (a txoko, a bar): one pair reports the result, the other confirms it."""
    EITHER = "either"
    """Either: a table on Discord is opened, and a result confirmed by both pairs counts too."""


class KnockoutDraw(StrEnum):
    """Groups format: how the knockout after the groups is drawn from who went through
    (:mod:`.formats.crossing`; docs/txapelketa.md)."""

    CROSSED = "crossed"
    """Groups crossed two by two, as the Basque championship and most clubs draw it: first of A
    against second of B, first of B against second of A, then C with D, and so on (with more
    going through, the best place meets the last of the other group). Known before the groups
    end; the two of one group start in opposite halves. With an odd number of groups the last
    crosses with the first, and a field short of a power of two gives its byes to the best
    firsts (by wins, then game and tanto difference)."""
    SEEDED = "seeded"
    """By the overall table: every pair through ranked by its place, then its results; the
    best meets the worst, two of one group kept apart in the first round where a swap allows
    (tournaments stored before the rule was a setting)."""


class AtDeadline(StrEnum):
    """What the bot does by itself when a match's deadline, or the time limit of a match played
    on Discord, passes undecided."""

    ASK = "ask"
    """Nothing: the organiser is asked (a walkover, a double walkover, more time; for a match
    played on Discord past its time limit, the board as it stands too)."""
    REPORT = "report"
    """A reported result the other pair has not answered stands; anything else is asked."""
    DECIDE = "decide"
    """The bot decides alone what it can: a reported result not answered stands, and a match
    played on Discord past its time limit goes to the pair ahead on the board (level, it plays
    on and the organiser is told); anything else is asked."""


DEFAULT_ZONE = "Europe/Madrid"
"""The Basque Country's time (and Spain's but the Canaries')."""
def zone_name(name: str) -> bool:
    """Written as an IANA zone's name (``Europe/Madrid``, ``America/Argentina/Buenos_Aires``):
    that it names a zone the system knows is checked where zones are read
    (``musbot.tournament.live.zone_of``), the core doing no I/O."""
    parts = name.split("/")
    return 0 < len(name) <= 60 and name[0].isascii() and name[0].isalpha() and all(
        part and all(c.isascii() and (c.isalnum() or c in "_+-") for c in part)
        for part in parts)


BASQUE_RULES = Rules(reyes=4, puntos=40)
"""The Basque championship's: 4 reyes, 40 tantos (pairs)."""
MAX_GAMES = 5
"""A match is at most 5 games: at most 3 to win."""
MAX_NAME = 100


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    format: Format = Format.KNOCKOUT
    games_to_win: int = 3
    """Games that win a match (1 to 3, so a match has at most 2·n − 1 ≤ 5 games)."""
    rules: Rules = BASQUE_RULES
    """The rules of every game; :attr:`table_rules` adds the match's length."""
    seeding: Seeding = Seeding.RATING
    signup_deadline: str | None = None
    """ISO-8601 UTC (or None: the organiser draws when ready)."""
    round_minutes: int = 120
    """Time allowed for one match, from when it is ready."""
    grace_minutes: int = 10
    """How long a pair may take to sit down once its match is ready."""
    lateness: Lateness = Lateness.MATCH
    group_size: int = 4
    """Groups format: the size aimed at (groups differ by one at most)."""
    advance: int = 2
    """Groups format: pairs of each group that go through (at most a group's size − 1)."""
    knockout_draw: KnockoutDraw = KnockoutDraw.CROSSED
    """Groups format: how the knockout is drawn from those who go through."""
    swiss_rounds: int | None = None
    """Swiss format: None for ⌈log2 n⌉ rounds."""
    reporting: Reporting = Reporting.DISCORD
    """Where matches are played: Discord's tables, real ones (results reported), or either."""
    time_zone: str = DEFAULT_ZONE
    """The IANA zone deadlines are written in (``Europe/Madrid``, ``Europe/Paris``)."""
    at_deadline: AtDeadline = AtDeadline.ASK
    private_threads: bool = False
    """Match threads seen only by the match's four players, the organisers and the bot (rule 3
    of the Basque championship: no spectators)."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """Keys written by a newer musbot, kept on save."""

    def __post_init__(self) -> None:
        name = " ".join(self.name.split())
        if not name or len(name) > MAX_NAME:
            raise TournamentError("tournament_bad_name", limit=MAX_NAME)
        object.__setattr__(self, "name", name)
        for attr, kind in (("format", Format), ("seeding", Seeding), ("lateness", Lateness),
                           ("reporting", Reporting), ("at_deadline", AtDeadline),
                           ("knockout_draw", KnockoutDraw)):
            try:
                object.__setattr__(self, attr, kind(getattr(self, attr)))
            except ValueError as exc:
                raise TournamentError("tournament_bad_option", option=attr,
                                      value=str(getattr(self, attr))) from exc
        if not 1 <= self.games_to_win <= (MAX_GAMES + 1) // 2:
            raise TournamentError("tournament_bad_games", limit=(MAX_GAMES + 1) // 2)
        if self.rules.jugadores != 4:
            raise TournamentError("tournament_pairs_only")
        if not 5 <= self.round_minutes <= 7 * 24 * 60:
            raise TournamentError("tournament_bad_round_time")
        if not 1 <= self.grace_minutes < self.round_minutes:
            raise TournamentError("tournament_bad_grace")
        if not 3 <= self.group_size <= 8:
            raise TournamentError("tournament_bad_group_size")
        if not 1 <= self.advance < self.group_size:
            raise TournamentError("tournament_bad_advance", size=self.group_size)
        if self.swiss_rounds is not None and not 1 <= self.swiss_rounds <= 20:
            raise TournamentError("tournament_bad_swiss_rounds")
        if not zone_name(str(self.time_zone)):
            raise TournamentError("tournament_bad_zone", zone=str(self.time_zone)[:40])
        if self.signup_deadline is not None:
            object.__setattr__(self, "signup_deadline", stamp(parse_time(self.signup_deadline)))

    @classmethod
    def create(cls, name: str, *, deadline: datetime | None = None, **options: Any) -> Settings:
        """Settings from typed values (enums given by value are accepted)."""
        return cls(name, signup_deadline=None if deadline is None else stamp(deadline), **options)

    @property
    def table_rules(self) -> Rules:
        """The rules a match's table plays: one vaca of :attr:`games_to_win` games."""
        return self.rules.with_(juegos=self.games_to_win, vacas=1)

    @property
    def deadline(self) -> datetime | None:
        return None if self.signup_deadline is None else parse_time(self.signup_deadline)

    def to_dict(self) -> dict[str, Any]:
        return {**self.extra, "name": self.name, "format": self.format.value,
                "games_to_win": self.games_to_win, "rules": self.rules.to_dict(),
                "seeding": self.seeding.value, "signup_deadline": self.signup_deadline,
                "round_minutes": self.round_minutes, "grace_minutes": self.grace_minutes,
                "lateness": self.lateness.value, "group_size": self.group_size,
                "advance": self.advance, "knockout_draw": self.knockout_draw.value,
                "swiss_rounds": self.swiss_rounds,
                **({"reporting": self.reporting.value}
                   if self.reporting is not Reporting.DISCORD else {}),
                **({"time_zone": self.time_zone} if self.time_zone != DEFAULT_ZONE else {}),
                **({"at_deadline": self.at_deadline.value}
                   if self.at_deadline is not AtDeadline.ASK else {}),
                **({"private_threads": True} if self.private_threads else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {"name", "format", "games_to_win", "rules", "seeding", "signup_deadline",
                 "round_minutes", "grace_minutes", "lateness", "group_size", "advance",
                 "swiss_rounds", "reporting", "time_zone", "at_deadline", "private_threads",
                 "knockout_draw"}
        return cls(data["name"], Format(data["format"]), int(data["games_to_win"]),
                   Rules.from_dict(data["rules"]), Seeding(data["seeding"]),
                   data.get("signup_deadline"), int(data["round_minutes"]),
                   int(data["grace_minutes"]), Lateness(data["lateness"]),
                   int(data["group_size"]), int(data["advance"]),
                   # stored before the rule was a setting: the overall table's, as drawn then
                   KnockoutDraw(data.get("knockout_draw", KnockoutDraw.SEEDED.value)),
                   data.get("swiss_rounds"),
                   Reporting(data.get("reporting", "discord")),
                   str(data.get("time_zone", DEFAULT_ZONE)),
                   AtDeadline(data.get("at_deadline", "ask")),
                   bool(data.get("private_threads", False)),
                   {k: v for k, v in data.items() if k not in known})
