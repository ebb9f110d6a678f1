"""Per-table rule variants (docs/rules.md, every rule marked [variant])."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import InvalidRules

PLAYER_COUNTS = (2, 4, 6)
TRIOS_PUNTOS = 50
"""§8: trios play to 50 by default (pairs and the individual variant to 40, §5)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The variants a table is played with; a table keeps the ones it started with."""

    reyes: Literal[4, 8] = 8
    """8: every 3 is a rey and every 2 an as (§1)."""
    puntos: int = 40
    """Target of a juego (§5); trios default to 50 (§8)."""
    juegos: int = 3
    """Games to win a vaca (§6)."""
    vacas: int = 1
    """Vacas to win the partida (§6)."""
    real: bool = False
    """La real: 7-7-7-sota beats every other 31 (§3)."""
    mus_corrido: bool = False
    """First hand of each game corrido y sin señas (§2)."""
    senas: bool = True
    sena_cazada: float = 0.10
    jugadores: Literal[2, 4, 6] = 4

    def __post_init__(self) -> None:
        if self.reyes not in (4, 8):
            raise InvalidRules("rules_reyes")
        if self.jugadores not in PLAYER_COUNTS:
            raise InvalidRules("rules_jugadores")
        if not 1 <= self.puntos <= 1000:
            raise InvalidRules("rules_puntos")
        if self.juegos < 1 or self.vacas < 1:
            raise InvalidRules("rules_juegos_vacas")
        if not 0.0 <= self.sena_cazada <= 1.0:
            raise InvalidRules("rules_sena_cazada")

    @classmethod
    def for_players(cls, jugadores: int, **variants: Any) -> Rules:
        """Defaults of docs/rules.md for that many players (see :meth:`with_`)."""
        return cls().with_(jugadores=jugadores, **variants)

    @staticmethod
    def team(seat: int) -> int:
        """Pairs (and trios) alternate seats (§1, §8): seats 0, 2, 4 against 1, 3, 5. The same
        at every table, so also ``Rules.team(seat)`` where no rules are at hand (a stored
        seat). The one place that says it: everything else asks here."""
        return seat % 2

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(range(team, self.jugadores, 2))

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seat's partners (none in the individual variant)."""
        return tuple(s for s in self.team_seats(self.team(seat)) if s != seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        return self.team_seats(1 - self.team(seat))

    def with_(self, **changes: Any) -> Rules:
        """These rules with ``changes``. Turning a table into trios also gives it their target
        (§8) unless ``puntos`` is among the changes; nothing else changes by itself."""
        trios = changes.get("jugadores", self.jugadores) == 6 and self.jugadores != 6
        if trios and "puntos" not in changes:
            changes["puntos"] = TRIOS_PUNTOS
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        # Every field is a scalar: a flat copy does what ``asdict``'s deep copy did, without its
        # cost (a live table's state includes the rules and is saved after every action).
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        return cls(**{k: v for k, v in data.items() if k in _FIELD_NAMES})


_FIELD_NAMES = tuple(f.name for f in fields(Rules))
