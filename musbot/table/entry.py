"""A tournament match's table (issue 26): who alone may sit there and with which pair, the games
each pair starts with (what the tournament hears of its table: ``notice.py``). A friendly or
league table has an empty :class:`Entry`: anyone sits anywhere. Pure, like the state's commands
(see ``state.py``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .result import Result, Save
from .seats import TableError

if TYPE_CHECKING:
    from .state import TableState


@dataclass
class Entry:
    """What a tournament set on one of its match tables (empty: a table anyone sits at)."""

    entrants: dict[int, int] = field(default_factory=dict)
    """The only people who may sit, each with their pair (0 or 1); the match starts by itself
    once they all sit, never with a bot for one of them."""
    games: tuple[int, int] = (0, 0)
    """Games each pair starts its match with (given for lateness)."""
    match: str = ""
    """Which tournament match this table plays (``"tournament id:match id"``): the only
    table whose result the tournament reads for it (a table saved before this was kept has
    none, and is known by its entrants alone)."""

    @classmethod
    def of(cls, entrants: Mapping[int, int] | None = None,
           games: tuple[int, int] = (0, 0), match: str = "") -> Entry:
        return cls(dict(entrants or {}), games, match)

    def __bool__(self) -> bool:
        return bool(self.entrants)

    def pair_of(self, user_id: int, pair: int | None) -> int | None:
        """The pair a person sits with: their own at a reserved table (refused if not an
        entrant), else the one they asked for."""
        if not self.entrants:
            return pair
        if user_id not in self.entrants:
            raise TableError("table_reserved")
        return self.entrants[user_id]

    def seated(self, humans: Collection[int]) -> bool:
        """Whether every entrant sits (always, at a table anyone sits at)."""
        return set(self.entrants) <= set(humans)

    def to_json(self) -> dict[str, Any]:
        """Its keys of the table's saved document (none for an empty entry)."""
        return {**({"entrants": [[user, pair] for user, pair in self.entrants.items()]}
                   if self.entrants else {}),
                **({"given_games": list(self.games)} if any(self.games) else {}),
                **({"tournament_match": self.match} if self.match else {})}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Entry:
        games = document.get("given_games")
        return cls({int(user): int(pair) for user, pair in document.get("entrants", [])},
                   (0, 0) if not games else (int(games[0]), int(games[1])),
                   str(document.get("tournament_match", "")))


def give_games(state: TableState, games: tuple[int, int]) -> Result:
    """A tournament gave games for lateness before the match began: it starts with them."""
    if state.lifecycle != "waiting" or games == state.entry.games:
        return Result()
    state.entry.games = games
    state.say("games_given", games=f"{games[0]}–{games[1]}")
    return Result(save=Save.WHOLE, shown=True)


__all__ = ["Entry", "give_games"]
