"""League matches finished at the same moment by two connections, and by two processes, give the
standings and ratings of the same matches finished one after the other in the order they
committed, on both backends. Finishing a rated match reads its players' season ratings and
writes them back: two finishes that share a player must not both start from the same rating.

The order they committed is the order of the matches' ``ended_at``: a finish stamps it inside
its transaction after reading the ratings, so when one finish read what another wrote (the
only case where their order changes anything) it began after the other committed, and stamped
a later time.

Run as a script, this module is one of the two processes:
``python test_concurrency.py TARGET START_AT MATCH_ID,MATCH_ID,…``.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from db_helpers import hand, select

from musbot.storage import Database, SeatRecord

PLAYERS = list(range(1, 9))
MATCHES = 24


def scenario(seed: int = 5) -> list[tuple[list[int], int]]:
    """Each match's four players (seats in order) and winning team: eight players, so nearly
    every two matches share one."""
    rng = random.Random(seed)
    return [(rng.sample(PLAYERS, 4), rng.randrange(2)) for _ in range(MATCHES)]


async def set_up(db: Database) -> tuple[int, list[int]]:
    """The league and its matches, started and played, not yet finished."""
    league_id = (await db.create_league(1, "Liga")).league_id
    ids = []
    for number, (users, winner) in enumerate(scenario()):
        seats = [SeatRecord.human(seat, user, f"p{user}") for seat, user in enumerate(users)]
        match_id = await db.start_match(seats, league_id=league_id)
        scores = [40, number % 40] if winner == 0 else [number % 40, 40]
        await db.record_hand(match_id, 1, *hand(scores, game_winner=winner))
        ids.append(match_id)
    return league_id, ids


async def finish(db: Database, match_id: int) -> None:
    [(winner,)] = await select(db, "SELECT winner_team FROM games WHERE match_id = ?",
                               [match_id])
    await db.record_finished_match(match_id, winner)


async def outcome(db: Database, league_id: int, ids: Sequence[int]) -> dict[str, Any]:
    """Everything the finishes decided, matches named by their place in :func:`scenario`."""
    place = {match_id: i for i, match_id in enumerate(ids)}
    history = await select(db, "SELECT user_id, match_id, mu, sigma FROM rating_history")
    return {
        "standings": await db.standings(league_id),
        "ratings": sorted(await select(db, "SELECT user_id, mu, sigma, matches FROM ratings")),
        "history": sorted((u, place[m], mu, sigma) for u, m, mu, sigma in history),
        "results": sorted((place[r.match_id], r.winner_team, r.games, r.tantos)
                          for r in await db.recent_results(league_id, limit=MATCHES)),
    }


async def commit_order(db: Database, ids: Sequence[int]) -> list[int]:
    """The matches' places in the order their finishes committed (module docstring)."""
    place = {match_id: i for i, match_id in enumerate(ids)}
    rows = await select(db, "SELECT match_id FROM matches ORDER BY ended_at, match_id")
    return [place[match_id] for (match_id,) in rows]


async def replayed(target: str, order: Sequence[int]) -> dict[str, Any]:
    """The same matches on a fresh database, finished one after the other in ``order``."""
    async with Database(target) as db:
        league_id, ids = await set_up(db)
        for i in order:
            await finish(db, ids[i])
        return await outcome(db, league_id, ids)


async def test_two_connections_finishing_league_matches_at_once(
        new_target: Callable[[], Awaitable[str]]) -> None:
    target = await new_target()
    async with Database(target) as db:
        league_id, ids = await set_up(db)
    # Two pools (PostgreSQL) or two pairs of connections (SQLite), every finish at once.
    async with Database(target, busy_timeout=30) as one, \
            Database(target, busy_timeout=30) as two:
        await asyncio.gather(*(finish(one if i % 2 else two, match_id)
                               for i, match_id in enumerate(ids)))
        order = await commit_order(one, ids)
        together = await outcome(one, league_id, ids)
    assert sorted(order) == list(range(MATCHES))
    assert len(together["history"]) == 4 * MATCHES
    assert together == await replayed(await new_target(), order)


def test_two_processes_finishing_league_matches_at_once(
        new_target: Callable[[], Awaitable[str]], tmp_path: Path) -> None:
    target = asyncio.run(new_target())

    async def prepare() -> tuple[int, list[int]]:
        async with Database(target) as db:
            return await set_up(db)

    league_id, ids = asyncio.run(prepare())
    start_at = time.time() + 1.5  # both processes started and connected by then
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    halves = [ids[0::2], ids[1::2]]
    procs = [subprocess.Popen([sys.executable, __file__, target, str(start_at),
                               ",".join(map(str, half))], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for half in halves]
    results = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], results

    async def compare() -> None:
        async with Database(target) as db:
            order = await commit_order(db, ids)
            together = await outcome(db, league_id, ids)
        assert sorted(order) == list(range(MATCHES))
        assert together == await replayed(await new_target(), order)

    asyncio.run(compare())


async def process(target: str, start_at: float, ids: Sequence[int]) -> None:
    """One of the two processes: connected first, then every finish of its half at once."""
    async with Database(target, busy_timeout=30) as db:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        await asyncio.gather(*(finish(db, match_id) for match_id in ids))


if __name__ == "__main__":
    asyncio.run(process(sys.argv[1], float(sys.argv[2]),
                        [int(x) for x in sys.argv[3].split(",")]))
