"""``musbot bench ai``: full games between two bot levels, with the win rate's Wilson interval
and each decision's CPU time."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from musbot.console import cli_language, whole
from musbot.i18n import BENCH, CLI

from .text import figure, rows, share

MAX_WORKERS = 64
"""More processes than that is no benchmark this machine's kind runs."""


def bench_ai(args: argparse.Namespace) -> int:
    from musbot.ai.arena import OrdagoTally, bench_levels, percentile, play_games, wilson

    levels = bench_levels()
    lang = getattr(args, "idioma", None) or cli_language()
    for level in (args.a, args.b):
        if level not in levels:
            print(CLI("unknown_level", lang, level=level, levels=", ".join(sorted(levels))),
                  file=sys.stderr)
            return 2
    wins = 0
    diffs: list[int] = []
    times_a: list[float] = []
    times_b: list[float] = []
    hands = 0
    bets = bluffs = 0
    ordagos_a, ordagos_b = OrdagoTally(), OrdagoTally()
    wall = time.perf_counter()
    for game in play_games(args.a, args.b, args.games, args.seed, args.workers):
        wins += game.a_won
        diffs.append(game.diff)
        times_a.extend(game.times_a)
        times_b.extend(game.times_b)
        hands += game.hands
        bets += game.bets_a
        bluffs += game.bluffs_a
        ordagos_a.add(game.ordagos_a)
        ordagos_b.add(game.ordagos_b)
        if args.progress and (game.index + 1) % args.progress == 0:
            print(BENCH("ai_progress", lang, games=game.index + 1,
                        share=share(wins / (game.index + 1), lang)), flush=True)
    wall = time.perf_counter() - wall
    n = len(diffs)
    lo, hi = wilson(wins, n)
    ms = 1000.0
    result: dict[str, Any] = {
        "a": args.a, "b": args.b, "games": n, "seed": args.seed,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "mean_tantos_diff": round(statistics.fmean(diffs), 2) if diffs else 0.0,
        "decision_ms_p50": round(percentile(times_a, 50) * ms, 3),
        "decision_ms_p99": round(percentile(times_a, 99) * ms, 3),
        "b_decision_ms_p50": round(percentile(times_b, 50) * ms, 3),
        "b_decision_ms_p99": round(percentile(times_b, 99) * ms, 3),
    }

    def fig(value: float, spec: str) -> str:
        return figure(value, spec, lang)

    def times(side: str, level: str, p50: float, p99: float, all_: list[float]) -> str:
        return BENCH("ai_decisions", lang, side=side, level=level, p50=fig(p50, ".3f"),
                     p99=fig(p99, ".3f"), max=fig(max(all_, default=0) * ms, ".1f"),
                     count=len(all_))

    print(BENCH("ai_head", lang, a=args.a, b=args.b, games=n, target=args.target,
                seed=args.seed, workers=args.workers, seconds=fig(wall, ".0f")))
    lines = [
        ("ai_wins", BENCH("ai_wins", lang, wins=wins, games=n, rate=share(result["win_rate"], lang),
                          low=share(lo, lang), high=share(hi, lang))),
        ("ai_tantos", BENCH("ai_tantos", lang, diff=fig(result["mean_tantos_diff"], "+.2f"),
                            hands=fig(hands / max(n, 1), ".1f"))),
        ("ai_decisions", times("A", args.a, result["decision_ms_p50"],
                               result["decision_ms_p99"], times_a)),
        ("", times("B", args.b, result["b_decision_ms_p50"], result["b_decision_ms_p99"],
                   times_b)),
    ]
    if bets:
        result["bluff_rate"] = round(bluffs / bets, 4)
        lines.append(("ai_bets", BENCH("ai_bets", lang, bets=bets, bluffs=bluffs,
                                       share=share(bluffs / bets, lang))))
    result["ordagos"] = {"a": vars(ordagos_a), "b": vars(ordagos_b)}
    for side, level, tally in (("A", args.a, ordagos_a), ("B", args.b, ordagos_b)):
        won = share(tally.won / tally.accepted, lang, 0) if tally.accepted else "—"
        lines.append(("ai_ordagos" if side == "A" else "", BENCH(
            "ai_ordagos", lang, side=side, level=level, called=tally.called,
            accepted=tally.accepted, forced=tally.forced, won=tally.won, share=won,
            won_forced=tally.won_forced)))
    print("\n".join(rows(lines, lang)))
    if args.json:
        print(json.dumps(result))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    from musbot.ai.arena import bench_levels

    levels = ", ".join(sorted(bench_levels()))
    ai = kinds.add_parser("ai", parents=list(parents), help=CLI("bench_ai", lang),
                          description=CLI("bench_ai", lang))
    ai.add_argument("--a", default="dificil", metavar=CLI("level", lang),
                    help=CLI("level_a", lang, levels=levels))
    ai.add_argument("--b", default="normal", metavar=CLI("level", lang),
                    help=CLI("level_b", lang, levels=levels))
    ai.add_argument("--games", type=whole(lang), default=200, metavar="N",
                    help=CLI("games", lang))
    ai.add_argument("--seed", type=int, default=1, metavar="N", help=CLI("bench_seed", lang))
    ai.add_argument("--workers", type=whole(lang, 1, MAX_WORKERS), default=1, metavar="N",
                    help=CLI("workers", lang))
    ai.add_argument("--progress", type=whole(lang, 0), default=0, metavar="N",
                    help=CLI("progress", lang))
    ai.add_argument("--json", action="store_true", help=CLI("json", lang))
    ai.set_defaults(func=bench_ai, target=40)
