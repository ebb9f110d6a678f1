"""``musbot bench repaso``: «¿Cómo jugué?» answered as a table answers it — asked on the event
loop, computed in the reviewer's worker process — for hands played by four «normal» bots, with
the time to answer each (p50, p99, max), the worker's CPU time per review, and how late the
event loop ran meanwhile (a 5 ms ticker's lateness: what every table on the process waits)."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from musbot.ai import NormalBot
from musbot.engine import DECK, Hand, Rules
from musbot.i18n import BENCH

from .text import figure, rows


def _hands(count: int, seed: int) -> list[tuple[dict[str, Any], int]]:
    """Finished hands of four «normal» bots at random scores, each with the seat to review."""
    rng = random.Random(seed)
    bot = NormalBot()
    out = []
    for n in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        scores = (rng.randrange(35), rng.randrange(35))
        h = Hand(Rules(), [deck[4 * i:4 * i + 4] for i in range(4)], deck[16:], mano=n % 4,
                 scores=scores, reshuffler=lambda d: list(d))
        while h.to_act is not None:
            h.apply(h.to_act, bot.decide(h.view(h.to_act), rng))
        out.append((h.transcript(), rng.randrange(4)))
    return out


async def _measure(hands: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    from musbot.coach.reviewer import ReviewAsk, Reviewer

    reviewer = Reviewer()
    # The worker process starts once, at the first review (a second or so: Python, numpy):
    # a bot's first review pays it; the figures are of those after it.
    warm, seat = hands[0]
    await reviewer.answer(-1, ReviewAsk(warm, seat, 0, (), len(warm["actions"]), "es", "warm"))
    reviewer.cpu.clear()
    lateness: list[float] = []
    done = False

    async def ticker() -> None:
        step = 0.005
        while not done:
            start = time.perf_counter()
            await asyncio.sleep(step)
            lateness.append(max(0.0, time.perf_counter() - start - step))

    tick = asyncio.create_task(ticker())
    times = []
    for k, (transcript, seat) in enumerate(hands):
        ask = ReviewAsk(transcript, seat, k + 1, (), len(transcript["actions"]), "es",
                        f"bench{k}")
        start = time.perf_counter()
        await reviewer.answer(k, ask)
        times.append(time.perf_counter() - start)
    done = True
    await tick
    reviewer.close()
    times.sort()
    lateness.sort()
    cpu = sorted(reviewer.cpu)
    ms = 1000.0

    def pct(values: list[float], p: float) -> float:
        return round(values[min(len(values) - 1, int(p / 100 * len(values)))] * ms, 1)

    return {"reviews": len(times), "answer_ms_p50": round(statistics.median(times) * ms, 1),
            "answer_ms_p99": pct(times, 99), "answer_ms_max": round(times[-1] * ms, 1),
            "cpu_ms_p50": round(statistics.median(cpu) * ms, 1), "cpu_ms_p99": pct(cpu, 99),
            "loop_late_ms_p99": pct(lateness, 99) if lateness else 0.0,
            "loop_late_ms_max": round(lateness[-1] * ms, 1) if lateness else 0.0}


def bench_review(args: argparse.Namespace) -> int:
    hands = _hands(args.hands, args.seed)
    result = asyncio.run(_measure(hands))
    result["seed"] = args.seed
    if args.json:
        print(json.dumps(result))
        return 0
    lang = args.idioma

    def ms(key: str) -> str:
        return figure(result[key], "g", lang)

    print(BENCH("repaso_head", lang, reviews=result["reviews"], seed=args.seed))
    print("\n".join(rows([
        ("repaso_answer", BENCH("repaso_answer", lang, p50=ms("answer_ms_p50"),
                                p99=ms("answer_ms_p99"), max=ms("answer_ms_max"))),
        ("repaso_cpu", BENCH("repaso_cpu", lang, p50=ms("cpu_ms_p50"), p99=ms("cpu_ms_p99"))),
        ("repaso_late", BENCH("repaso_late", lang, p99=ms("loop_late_ms_p99"),
                              max=ms("loop_late_ms_max"))),
    ], lang)))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    from musbot.console import whole
    from musbot.i18n import CLI, COACH

    bench = kinds.add_parser("repaso", parents=list(parents), help=COACH("bench_repaso", lang),
                             description=COACH("bench_repaso", lang))
    bench.add_argument("--hands", type=whole(lang), default=200, metavar="N",
                       help=COACH("bench_hands", lang))
    bench.add_argument("--seed", type=int, default=1, metavar="N", help=COACH("bench_seed", lang))
    bench.add_argument("--json", action="store_true", help=CLI("json", lang))
    bench.set_defaults(func=bench_review)
