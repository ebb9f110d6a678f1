"""Who sits where at a table: people, bots, and people a bot stands in for."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from musbot.ai import LEVELS, Player, make_player
from musbot.engine import MusError
from musbot.words import normalise, visible_name


class TableError(MusError):
    """A table command that cannot be done now (seat taken, match not started, …)."""


@dataclass(slots=True)
class Seat:
    """Who sits in a seat. ``user_id`` None is a bot's seat; a person may be ``away`` while a bot
    plays for them."""

    name: str
    user_id: int | None = None
    bot: Player | None = None
    away: bool = False
    expiries: int = 0
    """Turns in a row the clock ran out on (see ``clockwork.py``)."""
    dm_warned: bool = False
    """The channel was told this hand that the person's DMs are closed."""
    level: str | None = None
    """The bot level of a bot's seat, kept so a restored table seats the same bot."""

    @property
    def human(self) -> bool:
        return self.user_id is not None

    @property
    def bot_plays(self) -> bool:
        return not self.human or self.away

    @classmethod
    def robot(cls, name: str, level: str) -> Seat:
        return cls(name=name, bot=make_player(level), level=level)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id, "level": self.level,
                "away": self.away, "expiries": self.expiries, "dm_warned": self.dm_warned}

    @classmethod
    def from_json(cls, data: dict[str, Any], default_level: str) -> Seat:
        seat = cls(name=str(data["name"]), user_id=data["user_id"], away=bool(data["away"]),
                   expiries=int(data["expiries"]), dm_warned=bool(data["dm_warned"]),
                   level=data.get("level"))
        if seat.user_id is None:
            seat.level = seat.level if seat.level in LEVELS else default_level
            seat.bot = make_player(seat.level)
        return seat


@functools.lru_cache(maxsize=4096)
def distinct_names(seats: tuple[tuple[str, bool] | None, ...], unnamed: str, suffixed: str
                   ) -> tuple[str | None, ...]:
    """The name each seat is shown by: visible (:func:`visible_name`; ``unnamed``, a template
    of ``{seat}``, when nothing of it is), and told apart from every other at the table, as
    people read them (:func:`~musbot.words.normalise`). ``seats`` holds (name, is a person)
    per seat. A bot's name is the table's own: a person whose name reads as another seat's gets
    ``suffixed`` (a template of ``{name}`` and ``{seat}``), and so does every person of a name
    two people share, so none of them passes for another. Seats count from 1 in the templates."""
    shown: list[str | None] = [None if s is None else visible_name(s[0]) or
                               unnamed.format(seat=i + 1) for i, s in enumerate(seats)]
    keys = [None if name is None else normalise(name) for name in shown]
    counts = Counter(key for key in keys if key is not None)
    bots = {key for key, seat in zip(keys, seats, strict=True)
            if seat is not None and not seat[1]}
    for i, seat in enumerate(seats):
        key = keys[i]
        if seat is None or key is None or not seat[1]:
            continue
        if key in bots or counts[key] > 1:
            shown[i] = suffixed.format(name=shown[i], seat=i + 1)
    return tuple(shown)


class Seating:
    """The seats of one table, in playing order; pairs alternate (seats 0, 2 against 1, 3)."""

    def __init__(self, players: int) -> None:
        self.seats: list[Seat | None] = [None] * players

    def __iter__(self) -> Iterator[Seat | None]:
        return iter(self.seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, seat: int) -> Seat | None:
        return self.seats[seat]

    def __setitem__(self, seat: int, occupant: Seat | None) -> None:
        self.seats[seat] = occupant

    def names(self, unnamed: str = "{seat}", suffixed: str = "{name} ({seat})"
              ) -> dict[int, str]:
        """Each seat's name as shown: visible and told apart (:func:`distinct_names`, with
        its templates)."""
        shown = distinct_names(tuple(None if s is None else (s.name, s.human)
                                     for s in self.seats), unnamed, suffixed)
        return {i: name for i, name in enumerate(shown) if name is not None}

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and s.user_id is not None]

    def free_seat(self, pair: int | None, *, take_bots: bool) -> int:
        """The first empty seat (of ``pair`` if given), else with ``take_bots`` the first seat a
        bot holds for nobody."""
        if pair is not None and pair not in (0, 1):
            raise TableError("bad_pair", pair=pair + 1)
        order = range(len(self.seats)) if pair is None else range(pair, len(self.seats), 2)
        for seat in order:
            if self.seats[seat] is None:
                return seat
        if take_bots:
            for seat in order:
                occupant = self.seats[seat]
                if occupant is not None and not occupant.human:
                    return seat
        raise TableError("table_full" if pair is None else "pair_full")
