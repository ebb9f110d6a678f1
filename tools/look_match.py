"""Records a whole match on the test suite's Discord double, as people play it, for a look at
what Discord shows them: four people type their words in the channel and discard by DM (the
real bot, real discord.py, a real SQLite file; only Discord is the double), and the record is
written as JSON lines in the ``discord-look`` renderer's shape (``tests/wire/look.py``).

    python tools/look_match.py --out match.jsonl [--puntos 40] [--seed 7]
    python …/discord-look/render.py match.jsonl OUT --phone   # the pictures in docs/

Needs the test dependencies (``pip install ".[test]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


async def record(out: Path, *, puntos: int, seed: int) -> int:
    from discord_match import make_scene, play_to_the_end
    from wire.look import write_look

    with tempfile.TemporaryDirectory() as folder:
        scene = make_scene(Path(folder), ("Ana", "Beñat", "Carmen", "Dani"), seed=seed)
        world = scene.world
        await world.connect(scene.bot)
        await scene.settle()
        first = scene.people[0]
        await scene.slash(first, "mus mesa", puntos=puntos, juegos=1, vacas=1)
        await scene.advance(1)
        for i, person in enumerate(scene.people):
            await scene.press(person, "join1" if i % 2 == 0 else "join2")
            await scene.advance(1)
        await scene.press(first, "start")
        moves = await play_to_the_end(scene)
        write_look(world, out)
        await world.disconnect(scene.bot)
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the JSON lines to write")
    parser.add_argument("--puntos", type=int, default=40, help="tantos to win the game")
    parser.add_argument("--seed", type=int, default=7, help="the deals and the bots' choices")
    args = parser.parse_args(argv)
    moves = asyncio.run(record(args.out, puntos=args.puntos, seed=args.seed))
    print(f"{args.out}: a match of {moves} moves made by people")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
