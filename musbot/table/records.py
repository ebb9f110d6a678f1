"""What a table's matches leave for storage: who sat where when a match started, and the
records of its life (start, each finished hand, the result, an abandon).

The records wait in an outbox saved with the table's state, so a crash between saving the table
and storing them loses none (storing is idempotent, see ``persist.py``). A table nobody stores
(the terminal, tests) keeps no outbox.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from musbot.engine import Rules

from .seats import Seat


class MatchRecords:
    """The current match's seating record (:attr:`info`) and the records not yet stored."""

    def __init__(self, *, kept: bool) -> None:
        self.kept = kept
        """Whether anyone stores the records (a table with a save hook)."""
        self.info: dict[str, Any] | None = None
        """Who sat where when the current match started, under a unique ``key``: what a match
        record is made from."""
        self.outbox: list[dict[str, Any]] = []

    def start(self, seats: Sequence[Seat | None], league_id: int | None, rules: Rules) -> None:
        entries = []
        for seat, occupant in enumerate(seats):
            assert occupant is not None
            entries.append({"seat": seat, "user_id": occupant.user_id, "name": occupant.name,
                            "bot": None if occupant.human else f"ai:{occupant.level or 'bot'}"})
        self.info = {"key": uuid.uuid4().hex, "seats": entries, "league_id": league_id,
                     "rules": rules.to_dict()}
        self.add("start")

    def add(self, kind: str, **data: Any) -> bool:
        """Queues a record of the current match; False if there is none to add (nobody stores
        them, or no match started)."""
        if not self.kept or self.info is None:
            return False
        self.outbox.append({"kind": kind, "match": self.info, **data})
        return True

    def bot_took_over(self) -> None:
        """A bot played a seat for more than one turn: the match no longer rates anyone."""
        if self.info is not None:
            self.info["bot_took_over"] = True

    def moved(self, seat: int, *, by_bot: bool) -> bool:
        """Who played the seat's move in the game in play: the person, or a bot for them.
        True if that is new in this game (the state is then saved whole: a journal of moves
        does not say who played them)."""
        if self.info is None:
            return False
        game = self.info.setdefault("game", {"people": [], "bots": []})
        played = game["bots" if by_bot else "people"]
        if seat in played:
            return False
        played.append(seat)
        return True

    def game_over(self, people: Sequence[int]) -> None:
        """A game ended: if a bot played every move of one of ``people``'s seats in it, a bot
        played a whole game in a person's place (:attr:`bot_game`)."""
        if self.info is None:
            return
        game = self.info.pop("game", None) or {"people": [], "bots": []}
        if any(seat in game["bots"] and seat not in game["people"] for seat in people):
            self.info["bot_game"] = True

    @property
    def bot_game(self) -> bool:
        """Whether a bot played a whole game of this match in a person's seat (a tournament
        match's flag for its organiser)."""
        return bool((self.info or {}).get("bot_game", False))

    @property
    def rated(self) -> bool:
        return not (self.info or {}).get("bot_took_over", False)

    def forget(self, user_id: int, *, keep_id: bool) -> set[str]:
        """«Forget me»: the person's entries (the match in play and those waiting to be
        stored) lose their name and, unless ``keep_id`` (they still play this match), their id.
        Returns the names they had, to be worded out of the table's pages too."""
        names: set[str] = set()
        for info in [self.info, *(item.get("match") for item in self.outbox)]:
            for entry in (info or {}).get("seats", []):
                if entry.get("user_id") != user_id:
                    continue
                if entry.get("name"):
                    names.add(str(entry["name"]))
                entry["name"] = None
                if not keep_id:
                    entry["user_id"] = None
                    entry["forgotten"] = True
        return names

    def held_by(self, user_id: int) -> bool:
        return any(entry.get("user_id") == user_id
                   for info in [self.info, *(item.get("match") for item in self.outbox)]
                   for entry in (info or {}).get("seats", []))
