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

from musbot.console import cli_language, cli_text, whole

MAX_WORKERS = 64
"""More processes than that is no benchmark this machine's kind runs."""


def bench_ai(args: argparse.Namespace) -> int:
    from musbot.ai.arena import OrdagoTally, bench_levels, percentile, play_games, wilson

    levels = bench_levels()
    for level in (args.a, args.b):
        if level not in levels:

            lang = getattr(args, "idioma", None) or cli_language()
            print(cli_text("unknown_level", lang, level=level, levels=", ".join(sorted(levels))),
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
            print(f"  … {game.index + 1} games, A {wins / (game.index + 1):.1%}", flush=True)
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
    print(f"musbot bench ai — {args.a} (A) vs {args.b} (B), {n} games to "
          f"{args.target} tantos, seed {args.seed}, {args.workers} worker(s), {wall:.0f} s")
    print(f"  A wins:            {wins}/{n} = {result['win_rate']:.1%} "
          f"(95% Wilson CI {lo:.1%}–{hi:.1%})")
    print(f"  tantos A − B:      {result['mean_tantos_diff']:+.2f} per game (mean), "
          f"{hands / max(n, 1):.1f} hands per game")
    print(f"  decision CPU time: A ({args.a}) median {result['decision_ms_p50']:.3f} ms, "
          f"p99 {result['decision_ms_p99']:.3f} ms, max {max(times_a, default=0) * ms:.1f} ms "
          f"over {len(times_a)} decisions")
    print(f"                     B ({args.b}) median {result['b_decision_ms_p50']:.3f} ms, "
          f"p99 {result['b_decision_ms_p99']:.3f} ms, max {max(times_b, default=0) * ms:.1f} ms "
          f"over {len(times_b)} decisions")
    if bets:
        result["bluff_rate"] = round(bluffs / bets, 4)
        print(f"  A's bets/raises:   {bets}, of which bluffs (under 40 % at the lance) "
              f"{bluffs} = {bluffs / bets:.1%}")
    result["ordagos"] = {"a": vars(ordagos_a), "b": vars(ordagos_b)}
    print("  órdagos:           called  accepted (forced)  won by the caller (forced)")
    for side, level, tally in (("A", args.a, ordagos_a), ("B", args.b, ordagos_b)):
        share = f" {tally.won / tally.accepted:.0%}" if tally.accepted else ""
        print(f"    {side} ({level}){'':<{max(0, 12 - len(level))}}{tally.called:>6}"
              f"  {tally.accepted:>8} ({tally.forced:>4})  {tally.won:>5}{share:<5}"
              f" ({tally.won_forced})")
    if args.json:
        print(json.dumps(result))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    from musbot.ai.arena import bench_levels

    levels = ", ".join(sorted(bench_levels()))
    ai = kinds.add_parser("ai", parents=list(parents), help=cli_text("bench_ai", lang),
                          description=cli_text("bench_ai", lang))
    ai.add_argument("--a", default="dificil", metavar=cli_text("level", lang),
                    help=cli_text("level_a", lang, levels=levels))
    ai.add_argument("--b", default="normal", metavar=cli_text("level", lang),
                    help=cli_text("level_b", lang, levels=levels))
    ai.add_argument("--games", type=whole(lang), default=200, metavar="N",
                    help=cli_text("games", lang))
    ai.add_argument("--seed", type=int, default=1, metavar="N", help=cli_text("bench_seed", lang))
    ai.add_argument("--workers", type=whole(lang, 1, MAX_WORKERS), default=1, metavar="N",
                    help=cli_text("workers", lang))
    ai.add_argument("--progress", type=whole(lang, 0), default=0, metavar="N",
                    help=cli_text("progress", lang))
    ai.add_argument("--json", action="store_true", help=cli_text("json", lang))
    ai.set_defaults(func=bench_ai, target=40)
