"""Standings of a league or a group (everyone against everyone) and of Swiss rounds, with their
tie-breaks, and the round-robin schedule.

**League and group tie-breaks**, in order: matches won; among pairs level on wins, the matches
won between them (head-to-head); game difference; games won; tanto difference; the better seed.
Head-to-head comes before the differences because it is the result the pairs made themselves;
the Basque and club rulebooks settle ties the same way.

**Swiss tie-breaks**, in order: points (a match won or a bye is one point); Buchholz (the sum of
the points of the pairs met, byes not counted, so a pair that met stronger opponents ranks
higher); game difference; tanto difference; the better seed.

A disqualified pair ranks below every other, whatever its results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .model import Fixture, MatchState, is_odd


@dataclass(frozen=True, slots=True)
class PairStanding:
    """One pair's line in a tournament's table (a group, a league, the Swiss rounds): its
    points and tie-breaks. A pair's, where a league's :class:`~musbot.storage.models.Standing`
    is one person's over a season."""

    pair: int
    played: int
    won: int
    lost: int
    byes: int
    games_for: int
    games_against: int
    tantos_for: int
    tantos_against: int
    buchholz: int | None = None
    """Swiss only."""

    @property
    def points(self) -> int:
        return self.won + self.byes

    @property
    def games_diff(self) -> int:
        return self.games_for - self.games_against

    @property
    def tantos_diff(self) -> int:
        return self.tantos_for - self.tantos_against


def circle(pairs: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Everyone against everyone, by the circle method: n − 1 rounds (n with an odd count, each
    pair resting once), every pair meeting every other exactly once."""
    ring: list[int | None] = list(pairs)
    if is_odd(len(ring)):
        ring.append(None)
    rounds = []
    for _ in range(len(ring) - 1):
        half = len(ring) // 2
        matches = [(ring[i], ring[-1 - i]) for i in range(half)]
        rounds.append([(a, b) for a, b in matches if a is not None and b is not None])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _tally(pairs: Sequence[int], matches: Iterable[Fixture]) -> dict[int, list[int]]:
    # played, won, lost, byes, games for/against, tantos for/against
    tally = {pair: [0] * 8 for pair in pairs}
    for match in matches:
        if match.state is MatchState.BYE:
            winner = match.winner_pair
            if winner in tally:
                tally[winner][3] += 1
            continue
        if match.played and match.winner is None:  # a double walkover: both lose
            for pair in match.pairs:
                if pair in tally:
                    tally[pair][0] += 1
                    tally[pair][2] += 1
            continue
        if not match.played:
            continue
        for side in (0, 1):
            pair = match.pairs[side]
            if pair not in tally:
                continue
            row = tally[pair]
            row[0] += 1
            row[1 if match.winner == side else 2] += 1
            row[4] += match.games[side]
            row[5] += match.games[1 - side]
            row[6] += match.tantos[side]
            row[7] += match.tantos[1 - side]
    return tally


def _standing(pair: int, row: list[int], buchholz: int | None = None) -> PairStanding:
    played, won, lost, byes, games_for, games_against, tantos_for, tantos_against = row
    return PairStanding(pair, played, won, lost, byes, games_for, games_against, tantos_for,
                        tantos_against, buchholz)


def league_table(pairs: Sequence[int], matches: Sequence[Fixture],
                 disqualified: Iterable[int] = ()) -> list[PairStanding]:
    """A league's or a group's standings, best first (module docstring)."""
    out = set(disqualified)
    rows = {pair: _standing(pair, row) for pair, row in _tally(pairs, matches).items()}
    level: dict[int, list[int]] = {}
    for pair, row in rows.items():
        level.setdefault(row.won, []).append(pair)
    head_to_head = {pair: 0 for pair in pairs}
    for tied in level.values():
        if len(tied) < 2:
            continue
        among = set(tied)
        for match in matches:
            if match.played and match.winner is not None \
                    and set(match.pairs) <= among and match.winner_pair is not None:
                head_to_head[match.winner_pair] += 1
    return sorted(rows.values(), key=lambda s: (
        s.pair in out, -s.won, -head_to_head[s.pair], -s.games_diff, -s.games_for,
        -s.tantos_diff, s.pair))


def swiss_table(pairs: Sequence[int], matches: Sequence[Fixture],
                disqualified: Iterable[int] = ()) -> list[PairStanding]:
    """Swiss standings, best first (module docstring)."""
    out = set(disqualified)
    tally = _tally(pairs, matches)
    points = {pair: row[1] + row[3] for pair, row in tally.items()}
    buchholz = {pair: 0 for pair in pairs}
    for match in matches:
        if match.played and None not in match.pairs:
            first, second = match.pairs
            assert first is not None and second is not None
            if first in buchholz and second in buchholz:
                buchholz[first] += points[second]
                buchholz[second] += points[first]
    rows = [_standing(pair, row, buchholz[pair]) for pair, row in tally.items()]
    return sorted(rows, key=lambda s: (s.pair in out, -s.points, -buchholz[s.pair],
                                       -s.games_diff, -s.tantos_diff, s.pair))
