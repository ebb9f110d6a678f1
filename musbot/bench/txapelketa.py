"""``musbot bench txapelketa``: a whole tournament of bot-played pairs through the real layers:
the tournament runner (:mod:`musbot.tournament.live`), a live table per match with its four
entrants, every move saved by the table persister into a real database (a temporary SQLite
file unless ``--db``), results read from the finished tables, a share of pairs that never sit
down (walkovers after the grace time, on a manual clock), and the bracket drawn after every
match as on Discord, in the language of the run (the server's language is set to it). Prints
the matches played, games, hands, the champion, the wall time and where the final bracket's
first page was written.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from musbot.console import cli_language, decimal, output_file, whole
from musbot.engine import seeded_shuffler
from musbot.i18n import BENCH, CLI, TOURNAMENT
from musbot.settings import TableSettings
from musbot.storage import Database, ServerSettings
from musbot.table import ManualClock, MatchNotice, Table, TableManager
from musbot.table.persist import TablePersister
from musbot.tournament import (
    MAX_PAIRS,
    AtDeadline,
    Format,
    MatchState,
    Settings,
    Stage,
    Tournament,
    TournamentEvent,
)
from musbot.tournament.labels import FORMAT_KEYS
from musbot.tournament.live import Cup, Lacking, TournamentRunner
from musbot.tournament.picture import render

from .text import figure, rows

EPOCH = datetime(2025, 6, 1, 10, tzinfo=UTC)
NAMES = ("Ane", "Beñat", "Maite", "Koldo", "Itziar", "Xabi", "Nerea", "Jon", "Leire", "Unai",
         "Amaia", "Iker", "Garazi", "Mikel", "Oihana", "Asier")
"""Short names, so the bracket shows them whole (the benchmark's people are numbered after
sixteen)."""


def name_of(user: int) -> str:
    index = user - 1000
    round_, slot = divmod(index, len(NAMES))
    return NAMES[slot] + (str(round_ + 1) if round_ else "")


class QuietTransport:
    """The table layer's transport with nobody watching: nothing is shown."""

    def changed(self, table: Table) -> None:
        return None

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        return None

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        return None

    def private_changed(self, table: Table, user_id: int) -> None:
        return None

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        return None

    def mention(self, user_id: int) -> str:
        return f"@{user_id}"


class BenchVenue:
    """Places are channel ids counted up; the bracket is drawn as on Discord and timed."""

    def __init__(self) -> None:
        self.next_place = 10**12
        self.calls: list[tuple[int, list[int]]] = []
        """(place, players) for each match called."""
        self.news_count = 0
        self.boards = 0
        self.drawings = 0
        self.drawing_seconds = 0.0
        self.largest_png = 0

    async def open_place(self, cup: Cup, match: Any, title: str) -> int | None:
        self.next_place += 1
        return self.next_place

    async def reach_place(self, cup: Cup, channel_id: int) -> bool:
        return True

    async def lacking(self, cup: Cup) -> Lacking | None:
        return None

    async def call_players(self, cup: Cup, channel_id: int, text: str,
                           users: Sequence[int]) -> None:
        self.calls.append((channel_id, list(users)))

    async def news(self, cup: Cup, text: str, users: Sequence[int] = ()) -> None:
        self.news_count += 1

    async def paused(self, cup: Cup, match: Any, text: str, users: Sequence[int]) -> None:
        await self.news(cup, text, users)

    async def ask_agreement(self, cup: Cup, match: Any, text: str, users: Sequence[int],
                            number: int) -> None:
        await self.news(cup, text, users)

    async def board(self, cup: Cup, text: str) -> None:
        self.boards += 1

    async def timed_news(self, cup: Cup, text: str, users: Sequence[int], when: Any) -> None:
        await self.news(cup, text, users)

    async def ask_organiser(self, cup: Cup, match: Any, text: str,
                            users: Sequence[int], *, playing: bool = False) -> None:
        await self.news(cup, text, users)

    async def bracket(self, cup: Cup, matches: Collection[str] | None) -> None:
        start = time.perf_counter()
        pictures = render(cup.tournament, cup.lang, matches=matches)
        self.drawing_seconds += time.perf_counter() - start
        self.drawings += 1
        self.largest_png = max([self.largest_png, *(len(p.png) for p in pictures)])


async def play_tables(tables: TableManager, late: set[int]) -> int:
    """Sits the entrants of every waiting match table (but the late ones) and plays every
    person's turn as the heuristic bot would, until no table waits for anyone; the moves
    made."""
    moves = 0
    progress = True
    while progress:
        progress = False
        for table in list(tables):
            state = table.state
            if not state.entry.entrants or table.lifecycle == "closed":
                continue
            if table.lifecycle == "waiting":
                for user, pair in state.entry.entrants.items():
                    if user not in late and table.seat_of(user) is None:
                        await table.join(user, name_of(user), pair)
                        progress = True
            while table.lifecycle == "playing":
                seat = state.person_to_act()
                if seat is None:
                    break
                occupant = state.seats[seat]
                assert occupant is not None and occupant.user_id is not None
                await table.act(occupant.user_id, state.decide(seat))
                moves += 1
                progress = True
    return moves


def sign_up(user: int, partner: int) -> Callable[[Tournament, datetime], list[TournamentEvent]]:
    return lambda t, now: t.sign_up(user, name_of(user), partner=partner, now=now)


def organiser_result(match_id: str, games: int
                     ) -> Callable[[Tournament, datetime], list[TournamentEvent]]:
    return lambda t, now: t.set_result(match_id, (games, 0), now=now)


async def run_tournament(pairs: int, fmt: Format, *, games: int, seed: int, late_rate: float,
                         db_path: Path, out: Path, lang: str = "es") -> dict[str, Any]:
    clock = ManualClock()
    rng = random.Random(seed)
    started = time.perf_counter()
    async with Database(db_path) as db:
        persister = TablePersister(db)
        tables = TableManager(QuietTransport(), clock=clock, persist=persister,
                              shuffler=seeded_shuffler(f"{seed}/deck"),
                              rng=random.Random(f"{seed}/table"))
        venue = BenchVenue()
        hands = [0]

        counted: set[tuple[int, str | None]] = set()

        def count(_table: Table, notice: MatchNotice) -> None:
            match = (notice.channel_id, notice.match_record)
            if notice.over and match not in counted:  # told again once its records are stored
                counted.add(match)
                hands[0] += notice.hands

        tables.subscribe(count)
        runner = TournamentRunner(db, tables, venue, clock=clock,
                                  wall=lambda: EPOCH + timedelta(seconds=clock.now()))
        await runner.start()
        settings = Settings(f"Bench {pairs}", format=fmt, games_to_win=games,
                            grace_minutes=10, round_minutes=240,
                            at_deadline=AtDeadline.DECIDE)  # nobody to ask: the bot decides
        # The server's language is the tournament's: its news, and the bracket drawn after
        # every match and written at the end.
        await db.save_server_settings(1, ServerSettings(table=TableSettings(language=lang)))
        cup = await runner.create(1, 1, settings, organiser=None, seed=seed)
        users = list(range(1000, 1000 + 2 * pairs))
        for first, second in zip(users[::2], users[1::2], strict=True):
            for one, other in ((first, second), (second, first)):
                await runner.change(cup, sign_up(one, other))
        await runner.draw(cup)
        late_pairs = {p.id for p in cup.tournament.pairs if rng.random() < late_rate}
        moves = 0
        while cup.tournament.phase is Stage.RUNNING:
            # Late pairs miss their first match only: its walkover is the figure wanted.
            late = {u for p in cup.tournament.pairs if p.id in late_pairs
                    and not any(m.decided for m in cup.tournament.matches_of(p.id)
                                if m.state is not MatchState.BYE)
                    for u in p.players if u is not None}
            before = cup.tournament.revision
            moves += await play_tables(tables, late)
            await runner.idle()
            if cup.tournament.revision == before:
                await clock.advance(settings.grace_minutes * 60 + 5)
                await runner.idle()
            for match in list(cup.tournament.ready()):
                if "both_late" in match.flags:  # the organiser decides: the better seed
                    await runner.change(cup, organiser_result(match.id, games))
        wall = time.perf_counter() - started
        t = cup.tournament
        final = render(t, cup.lang)
        out.write_bytes(final[0].png)
        played = [m for m in t.matches.values() if m.state is MatchState.FINISHED]
        champion = t.champion
        return {
            "pairs": pairs, "format": fmt.value, "games_to_win": games,
            "matches": sum(1 for m in t.matches.values() if m.played),
            "played_at_tables": len(played),
            "walkovers": sum(1 for m in t.matches.values() if m.state is MatchState.WALKOVER),
            "byes": sum(1 for m in t.matches.values() if m.state is MatchState.BYE),
            "games": sum(sum(m.games) for m in played),
            "hands": hands[0], "moves": moves,
            "champion": None if champion is None else list(champion.names),
            "wall_seconds": round(wall, 2),
            "bracket_drawings": venue.drawings,
            "bracket_seconds": round(venue.drawing_seconds, 2),
            "largest_page_bytes": venue.largest_png,
            "saves_journaled": persister.journaled, "saves_whole": persister.saved_whole,
            "final_bracket": str(out), "final_pages": len(final),
        }


def bench_txapelketa(args: argparse.Namespace) -> int:
    lang = args.idioma or cli_language()
    limit = MAX_PAIRS[Format(args.format)]
    if args.pairs > limit:  # the one check that needs two options: before any work too
        print(CLI("bench_pairs_format", lang, format=args.format, limit=limit,
                  pairs=args.pairs), file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        db_path = args.db or Path(folder) / "txapelketa.db"
        out = args.out or Path(tempfile.gettempdir()) / \
            f"txapelketa-{args.pairs}-{args.format}.png"
        result = asyncio.run(run_tournament(
            args.pairs, Format(args.format), games=args.games, seed=args.seed,
            late_rate=args.late, db_path=db_path, out=out, lang=lang))
    r = result
    print(BENCH("txapelketa_head", lang, pairs=r["pairs"],
                format=TOURNAMENT(FORMAT_KEYS[Format(r["format"])], lang),
                games=r["games_to_win"]))
    print("\n".join(rows([
        ("txapelketa_matches", BENCH("txapelketa_matches", lang, matches=r["matches"],
                                     tables=r["played_at_tables"], walkovers=r["walkovers"],
                                     byes=r["byes"])),
        ("txapelketa_games", BENCH("txapelketa_games", lang, games=r["games"], hands=r["hands"],
                                   moves=r["moves"])),
        ("txapelketa_champion", " / ".join(r["champion"] or ["-"])),
        ("txapelketa_wall", BENCH("txapelketa_wall", lang,
                                  seconds=figure(r["wall_seconds"], "g", lang),
                                  drawings=r["bracket_drawings"],
                                  drawing=figure(r["bracket_seconds"], "g", lang),
                                  largest=figure(r["largest_page_bytes"], ",", lang))),
        ("txapelketa_bracket", BENCH("txapelketa_bracket", lang, path=r["final_bracket"],
                                     pages=r["final_pages"])),
    ], lang)))
    if args.json:
        print(json.dumps(result))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    bench = kinds.add_parser("txapelketa", parents=list(parents),
                             help=CLI("bench_txapelketa", lang),
                             description=CLI("bench_txapelketa", lang))
    bench.add_argument("--pairs", type=whole(lang, 2, max(MAX_PAIRS.values())), default=16,
                       metavar="N",
                       help=CLI("bench_pairs", lang))
    bench.add_argument("--format", default="double", choices=[f.value for f in Format],
                       help=CLI("bench_format", lang))
    bench.add_argument("--games", type=int, default=3, choices=(1, 2, 3),
                       help=CLI("bench_games", lang))
    bench.add_argument("--late", type=decimal(lang, 0, 1), default=0.1, metavar="P",
                       help=CLI("bench_late", lang))
    bench.add_argument("--seed", type=int, default=1, metavar="N",
                       help=CLI("bench_seed", lang))
    bench.add_argument("--db", type=output_file(lang, new="bench_db_new_only"), metavar="FILE",
                       help=CLI("bench_db_file", lang))
    bench.add_argument("--out", type=output_file(lang), metavar="PNG",
                       help=CLI("bench_out", lang))
    bench.add_argument("--json", action="store_true", help=CLI("json", lang))
    bench.set_defaults(func=bench_txapelketa)
