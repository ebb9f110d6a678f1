"""What a table is played with besides the rules' own variants: its language, its turn clock and
its bots. One typed value from ``/musadmin config`` (a server's defaults) to a table's saved
state, so each setting has one name, one meaning for «none», and one check.

Below the table layer and storage alike (both keep it), above the engine and the bots.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.engine import MusError, Rules

DEFAULT_TURN_SECONDS = 60
"""A turn's time when the server sets none."""
MIN_TURN_SECONDS = 15
MAX_TURN_SECONDS = 600
DEFAULT_LANGUAGE = "es"


class InvalidSettings(MusError):
    """A setting out of its range (``bad_timeout``, ``unknown_level``): nothing is changed."""


def check_turn_seconds(seconds: int | None) -> int | None:
    """None is no turn clock; otherwise whole seconds within the range."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or int(seconds) != seconds or \
            not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise InvalidSettings("bad_timeout", seconds=seconds, low=MIN_TURN_SECONDS,
                              high=MAX_TURN_SECONDS)
    return int(seconds)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's settings, checked when made: an impossible one never exists."""

    rules: Rules = field(default_factory=Rules)
    language: str = DEFAULT_LANGUAGE
    """What the table says in public."""
    turn_seconds: int | None = DEFAULT_TURN_SECONDS
    """Seconds a person has for a turn; None: no turn clock."""
    bot_level: str = DEFAULT_LEVEL
    """The level of the bots that fill empty seats."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "turn_seconds", check_turn_seconds(self.turn_seconds))
        if self.bot_level not in LEVELS:
            raise InvalidSettings("unknown_level", level=self.bot_level)

    def with_(self, **changes: Any) -> TableSettings:
        """A copy with ``changes`` (checked like any new settings)."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "language": self.language,
                "turn_seconds": self.turn_seconds, "bot_level": self.bot_level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        """Read back, with the forms written before these settings had one shape: a table's
        ``lang`` and ``turn_seconds`` (a float or None), a server's ``turn_timer`` (0: none)
        and ``language``. A level no longer known falls back to the default."""
        default = cls()
        rules = data.get("rules")
        language = data.get("language", data.get("lang", default.language))
        if "turn_seconds" in data:
            seconds = data["turn_seconds"]
        elif "turn_timer" in data:
            seconds = data["turn_timer"] or None
        else:
            seconds = default.turn_seconds
        level = data.get("bot_level", default.bot_level)
        return cls(rules=Rules.from_dict(rules) if rules else default.rules,
                   language=str(language),
                   turn_seconds=None if seconds is None else int(seconds),
                   bot_level=level if level in LEVELS else default.bot_level)


__all__ = ["DEFAULT_LANGUAGE", "DEFAULT_TURN_SECONDS", "MAX_TURN_SECONDS", "MIN_TURN_SECONDS",
           "InvalidSettings", "TableSettings", "check_turn_seconds"]
