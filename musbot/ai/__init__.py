"""Bots that fill empty seats. They play through a seat's view only (see :mod:`musbot.ai.base`).

Levels are registered by name so a table setting («facil», later «normal», «dificil») picks the
class without the table knowing any of them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Player, SenaSeen
from .heuristic import HeuristicBot

LEVELS: dict[str, Callable[[], Player]] = {"facil": HeuristicBot}
DEFAULT_LEVEL = "facil"


def register_level(name: str, factory: Callable[[], Player]) -> None:
    """Adds a level; stronger bots call this from their module."""
    LEVELS[name] = factory


def make_player(level: str = DEFAULT_LEVEL) -> Player:
    """A new bot of that level; unknown levels are a ``KeyError`` the caller words."""
    return LEVELS[level]()


__all__ = ["DEFAULT_LEVEL", "LEVELS", "HeuristicBot", "Player", "SenaSeen", "make_player",
           "register_level"]
