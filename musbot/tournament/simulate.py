"""Playing a whole tournament with a function that says how each match goes: for the tests, and
for ``musbot bench txapelketa``, which will play each match at real tables instead."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from .errors import TournamentError
from .model import Fixture, MatchState, Stage, TournamentEvent
from .timestamps import later
from .tournament import Tournament


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one match goes: played to ``games`` (side 0, side 1), or a side that never sits
    down (``late``: it loses by walkover, or game after game, as the settings say)."""

    games: tuple[int, int] | None = None
    tantos: tuple[int, int] = (0, 0)
    late: int | None = None
    bot_game: bool = False


ResultFunction = Callable[[Tournament, Fixture], Outcome]


def random_results(rng: random.Random, *, late_rate: float = 0.0,
                   bot_rate: float = 0.0) -> ResultFunction:
    """Results drawn from ``rng``: either side wins, by any legal score, with tantos to
    match; a side is late with probability ``late_rate``."""

    def result(tournament: Tournament, match: Fixture) -> Outcome:
        target = tournament.settings.games_to_win
        if late_rate and rng.random() < late_rate:
            return Outcome(late=rng.randrange(2))
        winner = rng.randrange(2)
        games = [0, 0]
        games[winner] = target
        games[1 - winner] = rng.randrange(target)
        games = [max(g, f) for g, f in zip(games, match.forfeits, strict=True)]
        if games[1 - winner] >= target:
            games[1 - winner] = target - 1
            games[winner] = target
        puntos = tournament.settings.rules.puntos
        tantos = [games[s] * puntos + rng.randrange(puntos) for s in (0, 1)]
        return Outcome((games[0], games[1]), (tantos[0], tantos[1]),
                       bot_game=bool(bot_rate) and rng.random() < bot_rate)

    return result


def simulate(tournament: Tournament, result: ResultFunction, *, start: datetime,
             step: timedelta = timedelta(minutes=30),
             after: Callable[[Tournament, list[TournamentEvent]], None] | None = None,
             max_changes: int = 1_000_000) -> list[TournamentEvent]:
    """Plays the drawn ``tournament`` to its end: every ready match, in order, as ``result``
    says, the clock moving on ``step`` for each. ``after(tournament, events)`` is called after
    every change (to check a property, or to save). Returns every event."""
    if tournament.phase is Stage.SIGNUP:
        raise TournamentError("tournament_not_running")
    now = start
    history: list[TournamentEvent] = []

    def changed(events: list[TournamentEvent]) -> None:
        history.extend(events)
        if after is not None:
            after(tournament, events)
        if len(history) > max_changes:
            raise RuntimeError("the tournament does not end")

    while tournament.phase is Stage.RUNNING:
        waiting = [m for m in tournament.matches.values()
                   if m.state in (MatchState.READY, MatchState.PLAYING)]
        if not waiting:
            raise RuntimeError(f"no match to play in {tournament!r}")
        for match in waiting:
            if match.state not in (MatchState.READY, MatchState.PLAYING):
                continue  # decided meanwhile (a disqualification by ``after``)
            if match.state is MatchState.READY and match.ready_at is not None:
                now = max(now, later(match.ready_at, 0))
            outcome = result(tournament, match)
            if outcome.late is not None and match.state is MatchState.READY:
                # The late side never sits down: a walkover, or game after game.
                while match.state is MatchState.READY:
                    assert match.ready_at is not None
                    now = max(now, later(match.ready_at, tournament.settings.grace_minutes
                                         * (sum(match.forfeits) + 1)))
                    changed(tournament.late(match.id, {outcome.late}, now=now))
                continue
            if outcome.games is None:
                raise ValueError(f"no result for {match.id}")
            changed(tournament.start(match.id, now=now))
            if match.decided:
                continue  # decided meanwhile (a disqualification by ``after``)
            now += step
            changed(tournament.record(match.id, outcome.games, outcome.tantos, now=now,
                                      bot_game=outcome.bot_game))
    return history
