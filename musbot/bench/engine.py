"""``musbot bench engine``: medians of several single-threaded runs, timed in CPU seconds of this
process (one core's work; another busy process on the machine does not skew it)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from musbot.console import whole
from musbot.engine import Lance, Match, Rules, tables
from musbot.engine.cards import DECK
from musbot.engine.randomplay import random_action
from musbot.i18n import BENCH, CLI

from .text import figure, rows


def hands_per_second(hands: int, seed: int, rules: Rules | None = None) -> tuple[float, int]:
    """Full hands (secure deal, mus phase, lances with random legal betting, tanteo) per second,
    across as many matches as it takes; returns (rate, actions applied)."""
    rng = random.Random(seed)
    rules = rules or Rules()
    match = Match(rules, first_mano=0)
    done = 0
    actions = 0
    start = time.process_time()
    while done < hands:
        number = match.hand_number
        seat = match.to_act
        match.apply(seat, random_action(match.legal_actions(seat), rng))  # type: ignore[arg-type]
        actions += 1
        if match.finished:
            done += 1
            match = Match(rules, first_mano=rng.randrange(4))
        elif match.hand_number != number:
            done += 1
    return hands / (time.process_time() - start), actions


def comparisons_per_second(count: int, seed: int) -> float:
    """Lance comparisons of evaluated hands through the precomputed tables."""
    rng = random.Random(seed)
    t = tables(8, False)
    pairs = []
    for _ in range(1000):
        deck = rng.sample(DECK, 8)
        pairs.append((t.index(deck[:4]), t.index(deck[4:])))
    lances = list(Lance)
    compare = t.compare
    rounds = max(1, count // (len(pairs) * len(lances)))
    start = time.process_time()
    for _ in range(rounds):
        for lance in lances:
            for a, b in pairs:
                compare(lance, a, b)
    elapsed = time.process_time() - start
    return rounds * len(pairs) * len(lances) / elapsed


def bench_engine(args: argparse.Namespace) -> int:
    hand_rates = []
    cmp_rates = []
    for run in range(args.runs):
        rate, _ = hands_per_second(args.hands, seed=args.seed + run)
        hand_rates.append(rate)
        cmp_rates.append(comparisons_per_second(args.comparisons, seed=args.seed + run))
    result: dict[str, Any] = {
        "hands_per_s": round(statistics.median(hand_rates)),
        "comparisons_per_s": round(statistics.median(cmp_rates)),
    }
    lang = args.idioma

    def rate(value: float, runs: list[float]) -> str:
        return BENCH("engine_rate", lang, rate=figure(value, ">12,.0f", lang),
                     runs=", ".join(figure(r, ",.0f", lang) for r in runs))

    print(BENCH("engine_head", lang, runs=args.runs))
    print("\n".join(rows([("hands_per_s", rate(result["hands_per_s"], hand_rates)),
                          ("comparisons_per_s", rate(result["comparisons_per_s"], cmp_rates))],
                         lang)))
    if args.json:
        print(json.dumps(result))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:

    engine = kinds.add_parser("engine", parents=list(parents), help=CLI("bench_engine", lang),
                              description=CLI("bench_engine", lang))
    engine.add_argument("--runs", type=whole(lang), default=5, metavar="N",
                        help=CLI("runs", lang))
    engine.add_argument("--hands", type=whole(lang), default=20000, metavar="N",
                        help=CLI("hands", lang))
    engine.add_argument("--comparisons", type=whole(lang), default=2_000_000, metavar="N",
                        help=CLI("comparisons", lang))
    engine.add_argument("--seed", type=int, default=1, metavar="N",
                        help=CLI("bench_seed", lang))
    engine.add_argument("--json", action="store_true", help=CLI("json", lang))
    engine.set_defaults(func=bench_engine)
