"""Plain, immutable records that the storage layer takes and returns (no SQL rows leak out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from musbot.engine.rules import Rules
from musbot.settings import InvalidSettings, TableSettings

SeatKind = Literal["player", "bot", "anonymous"]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat where in a match: a Discord user or a bot; its team is the engine's
    (:meth:`Rules.team`)."""

    seat: int
    player_id: int | None = None
    """Discord user id of a human player."""
    name: str | None = None
    """Display name at the time, used to keep the players table current."""
    bot: str | None = None
    """Bot marker (e.g. ``"ai:basic"``) when the seat is played by the bot."""
    anonymous: bool = False
    """A person who asked to be forgotten before the match was stored: no id, no name."""

    def __post_init__(self) -> None:
        if not 0 <= self.seat <= 5:
            raise ValueError(f"seat must be 0-5, not {self.seat}")
        if self.anonymous:
            if self.player_id is not None or self.bot is not None or self.name is not None:
                raise ValueError("an anonymous seat has no player_id, name or bot marker")
        elif (self.player_id is None) == (self.bot is None):
            raise ValueError("a seat has either a player_id or a bot marker")

    @classmethod
    def human(cls, seat: int, user_id: int, name: str | None = None) -> SeatRecord:
        return cls(seat, player_id=user_id, name=name)

    @classmethod
    def robot(cls, seat: int, marker: str = "bot") -> SeatRecord:
        return cls(seat, bot=marker)

    @classmethod
    def forgotten(cls, seat: int) -> SeatRecord:
        return cls(seat, anonymous=True)

    @property
    def kind(self) -> str:
        """``match_seats.kind``."""
        if self.anonymous:
            return "anonymous"
        return "player" if self.player_id is not None else "bot"

    @property
    def team(self) -> int:
        return Rules.team(self.seat)


MAX_TABLES = 200
"""The highest limit of open tables one may set (0 is none)."""
MIN_IDLE_MINUTES = 5
MAX_IDLE_MINUTES = 1440


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Per-server configuration (one JSON document per guild; unknown keys are kept)."""

    table: TableSettings = field(default_factory=TableSettings)
    """What new tables in this server are played with."""
    allowed_channels: frozenset[int] = frozenset()
    """Channels where tables may be opened; empty means every channel."""
    max_tables: int = 25
    """Open tables in the server at most; 0: no limit."""
    max_tables_per_person: int = 3
    """Open tables one person may have opened in the server (who manages it, any); 0: no
    limit."""
    idle_minutes: int = 30
    """A table where nothing happened for this long closes; 0: never."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Keys written by a newer musbot, preserved on save."""

    def __post_init__(self) -> None:
        for limit in (self.max_tables, self.max_tables_per_person):
            if not 0 <= limit <= MAX_TABLES:
                raise InvalidSettings("bad_table_limit", value=limit, high=MAX_TABLES)
        if self.idle_minutes and not MIN_IDLE_MINUTES <= self.idle_minutes <= MAX_IDLE_MINUTES:
            raise InvalidSettings("bad_idle", value=self.idle_minutes, low=MIN_IDLE_MINUTES,
                                  high=MAX_IDLE_MINUTES)

    def allows(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a table may be opened in the channel: any when none is listed; a thread
        (``parent_id``: its channel) counts as its channel."""
        allowed = self.allowed_channels
        return not allowed or channel_id in allowed or \
            (parent_id is not None and parent_id in allowed)

    def to_dict(self) -> dict[str, Any]:
        return {**self.extra, **self.table.to_json(),
                "allowed_channels": sorted(self.allowed_channels),
                "max_tables": self.max_tables,
                "max_tables_per_person": self.max_tables_per_person,
                "idle_minutes": self.idle_minutes}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerSettings:
        data = dict(data)
        table = TableSettings.from_json(data)
        for key in _TABLE_KEYS:
            data.pop(key, None)
        default = cls()
        return cls(table=table,
                   allowed_channels=frozenset(int(c) for c in data.pop("allowed_channels", ())),
                   max_tables=int(data.pop("max_tables", default.max_tables)),
                   max_tables_per_person=int(data.pop("max_tables_per_person",
                                                      default.max_tables_per_person)),
                   idle_minutes=int(data.pop("idle_minutes", default.idle_minutes)),
                   extra=data)


_TABLE_KEYS = ("rules", "language", "lang", "turn_seconds", "turn_timer", "bot_level")
"""A server document's keys that :class:`TableSettings` reads (some from older musbots)."""


@dataclass(frozen=True, slots=True)
class LiveTable:
    """The last saved state of a table in play, as the table layer serialised it."""

    channel_id: int
    guild_id: int | None
    state: dict[str, Any]
    version: int
    """1 on the first save, +1 on every later save or journal entry: lets the table layer
    detect stale writes."""
    updated_at: datetime
    journal: list[Any] = field(default_factory=list)
    """What the table appended since its state was saved (``Database.append_to_journal``),
    oldest first."""


SHARD_SHIFT = 22
"""Discord's shard of a guild is ``(guild_id >> 22) % shard_count``."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The gateway shard that receives a guild's events; outside any guild (a DM, the
    terminal) shard 0, the only one Discord sends direct messages to."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % shard_count


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where a saved table is played: enough to tell which process owns it."""

    channel_id: int
    guild_id: int | None

    def shard(self, shard_count: int) -> int:
        return shard_of(self.guild_id, shard_count)


@dataclass(frozen=True, slots=True)
class Season:
    season_id: int
    league_id: int
    number: int
    started_at: datetime
    closed_at: datetime | None

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True, slots=True)
class League:
    league_id: int
    guild_id: int
    name: str
    created_by: int | None
    created_at: datetime
    season: Season
    """The current (open) season."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a rated match (display scale, see ratings.py)."""

    user_id: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a season's table."""

    user_id: int
    name: str | None
    played: int
    won: int
    lost: int
    games_diff: int
    tantos_diff: int
    rating: int | None
    """Display rating; None until the player's first rated match of the season."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    team: int
    kind: SeatKind
    user_id: int | None
    name: str | None
    bot: str | None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A finished match as shown in "recent results"."""

    match_id: int
    ended_at: datetime
    seats: tuple[SeatResult, ...]
    winner_team: int
    games: tuple[int, int]
    tantos: tuple[int, int]
    rated: bool
    season_number: int | None


@dataclass(frozen=True, slots=True)
class Partner:
    user_id: int
    name: str | None
    matches: int
    won: int


@dataclass(frozen=True, slots=True)
class Profile:
    """A player's record over finished matches (all of them, or one league and season)."""

    user_id: int
    name: str | None
    matches: int
    won: int
    lost: int
    favourite_partner: Partner | None
    """The human partner with the most matches together (ties: more wins, then lower id)."""
    ordagos_won: int
    """Accepted órdagos the player called or accepted, won by the player's team."""
    ordagos_lost: int
    rating: int | None

    @property
    def win_rate(self) -> float | None:
        return self.won / self.matches if self.matches else None


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The rating right after one rated match."""

    match_id: int
    at: datetime
    mu: float
    sigma: float
    rating: int
