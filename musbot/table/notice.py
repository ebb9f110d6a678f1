"""What a tournament match's table tells whoever runs the tournament (issue 45): an immutable
:class:`MatchNotice`, built by the runner (``runner.py``) under the table's lock from the state
it has just saved and published, the same state a transport's snapshot shows. Nothing of the
live table travels with it: the tournament reads its match's board, its end and its flag from
here, never from the table's state or records.

The runner keeps the last one on the table (:attr:`Table.notice`: the board as saved, for a
round's time running out) and hands it to the manager's subscribers when the table's lifecycle
changes (a match begun, a match over, a table closed), when the records of a match over are
all stored (the stored match then holds its result, which the tournament refers to), or when it
goes out of reach or comes back."""

from __future__ import annotations

from dataclasses import dataclass

from .state import Lifecycle, TableState


@dataclass(frozen=True, slots=True)
class MatchNotice:
    """One tournament match table as saved: where, whose, how far its match went."""

    channel_id: int
    match: str
    """The tournament match it plays (:attr:`~.entry.Entry.match`; empty for a table saved
    before tables were keyed, known by its entrants alone)."""
    entrants: tuple[tuple[int, int], ...]
    """Who alone may sit, each with their pair (0 or 1)."""
    lifecycle: Lifecycle
    hidden: str | None
    """Why nobody can see the table now (a locked thread), or None."""
    begun: bool
    """Whether its match was dealt (a table still waiting for its players has no board)."""
    games: tuple[int, int]
    """Games each pair has won in the vaca in play (the games given for lateness included)."""
    games_played: tuple[tuple[int, int, int], ...]
    """Every finished game: (the pair that won it, pair 0's tantos, pair 1's tantos)."""
    tantos: tuple[int, int]
    """Each pair's tantos in the game in play."""
    bot_game: bool
    """A bot played a whole game of the match in a person's place (flagged for the
    organiser)."""
    players: tuple[int, ...]
    """The people seated."""
    hands: int
    """Hands dealt in the match."""
    match_record: str | None = None
    """The match as the table stores it (its key in storage: ``Database.start_match``), or None
    at a table nobody stores (tests, benchmarks without a database)."""
    recorded: bool = True
    """Whether the table's records of the match are all stored (none waits in its outbox, see
    ``records.py``): once over and recorded, the stored match holds the result."""

    @property
    def over(self) -> bool:
        """The «match over» notice: the table's match has ended (its result is final)."""
        return self.lifecycle == "finished" and self.begun

    @property
    def playing(self) -> bool:
        return self.lifecycle == "playing" and self.begun

    def score(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Games won at the table (each pair's finished games; the games given for lateness
        are the tournament's) and tantos summed over those games."""
        games, tantos = [0, 0], [0, 0]
        for winner, first, second in self.games_played:
            games[winner] += 1
            tantos[0] += first
            tantos[1] += second
        return (games[0], games[1]), (tantos[0], tantos[1])


def notice_of(state: TableState) -> MatchNotice | None:
    """The state's notice, or None for a table no tournament set (anyone sits there)."""
    entry = state.entry
    if not entry:
        return None
    match, records = state.match, state.records
    return MatchNotice(
        state.channel_id, entry.match, tuple(entry.entrants.items()), state.lifecycle,
        state.hidden, match is not None,
        (0, 0) if match is None else (match.games[0], match.games[1]),
        () if match is None else tuple(match.games_played),
        (0, 0) if match is None else (match.scores[0], match.scores[1]),
        records.bot_game, tuple(state.humans()),
        0 if match is None else match.hand_number,
        records.info["key"] if records.kept and records.info is not None else None,
        not records.outbox)


__all__ = ["MatchNotice", "notice_of"]
