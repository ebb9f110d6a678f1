"""``musbot bench pictures``: how long the pictures of issue 43 take to draw and how big they
are — the 41 emoji cards (each drawn from nothing: what a start-up pays once), a hand's picture
and the showdown's table (with the pieces they are laid from cached, and each language's words
read, as a running bot's worker has them after its first pictures), as the median and 99th
percentile of wall-clock milliseconds over random hands, and their bytes. A process's first
hand and first table are timed apart: they draw the palette and the cards at their sizes."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any


def _ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p99_ms": round(p99 * 1000, 2), "max_ms": round(ordered[-1] * 1000, 2)}


def _sizes(values: list[int]) -> dict[str, int]:
    return {"min_bytes": min(values), "max_bytes": max(values),
            "mean_bytes": round(statistics.fmean(values))}


def _timed(make: Callable[[], bytes], times: list[float], sizes: list[int]) -> None:
    start = time.perf_counter()
    data = make()
    times.append(time.perf_counter() - start)
    sizes.append(len(data))


def measure(runs: int, seed: int) -> dict[str, Any]:
    from musbot.engine.cards import DECK
    from musbot.pictures import cards as art
    from musbot.pictures.hand import hand_png
    from musbot.pictures.table import LanceRow, TableSnapshot, table_png

    rng = random.Random(seed)
    emoji_t: list[float] = []
    emoji_b: list[int] = []
    for _ in range(max(1, runs // 10)):
        for cached in (art.card_image, art.emoji_png, art.art_digest):
            cached.cache_clear()
        for card in art.emoji_cards():
            _timed(partial(art.emoji_png, card), emoji_t, emoji_b)
    hand_t: list[float] = []
    hand_b: list[int] = []
    table_t: list[float] = []
    table_b: list[int] = []
    names = ("Ane", "Koldo el del bar de la esquina", "Maite", "Bot 4")
    # The first of each, its cards' pictures drawn at its size then (once per process).
    deck = list(DECK)
    first: dict[str, float] = {}
    for key, make in (("hand", lambda: hand_png(tuple(deck[:4]))),
                      ("table", lambda: table_png(TableSnapshot(
                          names=names, mano=0, hands=tuple(tuple(deck[4 * i:4 * i + 4])
                                                           for i in range(4)))))):
        start = time.perf_counter()
        make()
        first[key] = round((time.perf_counter() - start) * 1000, 1)
    from musbot.i18n import LANGUAGE_CODES

    for lang in LANGUAGE_CODES:  # each language's catalogue read once, as in a running worker
        hand_png(tuple(deck[:4]), new=set(deck[:1]), lang=lang)
    for n in range(runs):
        deck = list(DECK)
        rng.shuffle(deck)
        hands = tuple(tuple(deck[4 * i:4 * i + 4]) for i in range(4))
        new = set(rng.sample(hands[0], rng.randrange(0, 5)))
        lang = ("es", "eu", "fr", "en")[n % 4]
        _timed(partial(hand_png, hands[0], new=new, lang=lang), hand_t, hand_b)
        lances = tuple(LanceRow(lance, rng.randrange(2), rng.randrange(1, 9),
                                   rng.choice(("paso", "querido", "deje", None)))
                       for lance in (0, 1, 2, 3))
        snap = TableSnapshot(names=names, mano=n % 4, hands=hands, lances=lances,
                             scores=(rng.randrange(40), rng.randrange(40)), lang=lang)
        _timed(partial(table_png, snap), table_t, table_b)
    return {"runs": runs, "seed": seed,
            "emoji": {"cards": len(emoji_t), **_ms(emoji_t), **_sizes(emoji_b),
                      "set_of_41_ms": round(sum(emoji_t) / max(1, runs // 10) * 1000, 1)},
            "hand": {**_ms(hand_t), **_sizes(hand_b), "first_ms": first["hand"]},
            "table": {**_ms(table_t), **_sizes(table_b), "first_ms": first["table"]}}


def bench_pictures(args: argparse.Namespace) -> int:
    result = measure(args.runs, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"musbot bench pictures — {args.runs} hands, seed {args.seed} (wall clock, one thread)")
    for key, what in (("emoji", "emoji card (drawn from nothing)"),
                      ("hand", "hand picture"), ("table", "showdown table")):
        r = result[key]
        print(f"  {what:32} p50 {r['p50_ms']:7.2f} ms  p99 {r['p99_ms']:7.2f} ms  "
              f"max {r['max_ms']:7.2f} ms   {r['min_bytes']:,}-{r['max_bytes']:,} bytes")
    print(f"  the 41 emoji cards together: {result['emoji']['set_of_41_ms']} ms; a process's "
          f"first hand {result['hand']['first_ms']} ms and first table "
          f"{result['table']['first_ms']} ms (drawing the cards at their size)")
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    from musbot.i18n import CLI

    bench = kinds.add_parser("pictures", parents=list(parents),
                             help=CLI("bench_pictures", lang),
                             description=CLI("bench_pictures", lang))
    bench.add_argument("--runs", type=int, default=200, metavar="N",
                       help=CLI("bench_pictures_runs", lang))
    bench.add_argument("--seed", type=int, default=1, metavar="N",
                       help=CLI("bench_seed", lang))
    bench.add_argument("--json", action="store_true", help=CLI("json", lang))
    bench.set_defaults(func=bench_pictures)
