"""What a tournament gives the pair ratings and the hall of fame."""

from __future__ import annotations

from dataclasses import dataclass

from .model import MatchState, PairKey
from .tournament import Tournament


@dataclass(frozen=True, slots=True)
class PairResult:
    """One rated match between two stable pairs."""

    winner: PairKey
    loser: PairKey


def rated_results(tournament: Tournament) -> list[PairResult]:
    """The matches that count for pair ratings, in the order they were decided: played to the
    end at a table or set by the organiser, between two pairs whose people are all known, with
    no bot having played a whole game (as league ratings never change with a bot). Walkovers,
    disqualifications and byes do not count."""
    found = []
    for match in sorted(tournament.matches.values(),
                        key=lambda m: (m.decided_at or "", m.id)):
        if match.state is not MatchState.FINISHED or "bot_game" in match.flags:
            continue
        winner, loser = match.winner_pair, match.loser_pair
        if winner is None or loser is None:
            continue
        keys = tournament.pairs[winner].key, tournament.pairs[loser].key
        if keys[0] is not None and keys[1] is not None:
            found.append(PairResult(keys[0], keys[1]))
    return found
