"""Bots that fill empty seats. They play through a seat's view only (see :mod:`musbot.ai.base`).

Levels are registered by name so a table setting («facil», «normal», «dificil») picks the class
without the table knowing any of them:

- «facil» (:mod:`.heuristic`): rules of thumb, deliberately loose.
- «normal» (:mod:`.normal`): precomputed lance odds (:mod:`.odds`), pot odds and the score.
- «dificil» (:mod:`.dificil`): samples the hidden hands the public history allows and plays each
  candidate action out, against each player as the table has read them (:mod:`.reading`).

The benchmark also plays «random» and the opponent styles of :mod:`.styles` (cautious, bluffer,
passive), which no table offers.
"""

from __future__ import annotations

from collections.abc import Callable

from musbot.engine import Rules

from . import odds
from .base import Player, SenaSeen
from .dificil import DificilBot
from .heuristic import HeuristicBot
from .normal import NormalBot, keep_values, sena_hints

LEVELS: dict[str, Callable[[], Player]] = {
    "facil": HeuristicBot, "normal": NormalBot, "dificil": DificilBot,
}
DEFAULT_LEVEL = "normal"
"""A table's bots unless told otherwise."""


def register_level(name: str, factory: Callable[[], Player]) -> None:
    """Adds a level; stronger bots call this from their module."""
    LEVELS[name] = factory


def make_player(level: str = DEFAULT_LEVEL) -> Player:
    """A new bot of that level; unknown levels are a ``KeyError`` the caller words."""
    return LEVELS[level]()


def warm(rules: Rules | None = None) -> None:
    """Builds what a table's first showdown and its bots' first decisions ask for under these
    rules (the odds tables, the game's values for its target, the señas' hints, the discards'
    values), which are kept for the process's life: built at a showdown instead, they would
    stop every table of the bot while they are. Call before the tables play."""
    rules = rules or Rules()
    odds.odds(rules.reyes)
    odds.game_value(0, 0, rules.puntos)
    sena_hints(rules.reyes, rules.real)
    for pos in range(4):
        keep_values(rules.reyes, pos)


__all__ = ["DEFAULT_LEVEL", "LEVELS", "DificilBot", "HeuristicBot", "NormalBot", "Player",
           "SenaSeen", "make_player", "register_level", "warm"]
