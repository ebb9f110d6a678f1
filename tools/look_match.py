"""Records a whole match on the test suite's Discord double, as people play it, for a look at
what Discord shows them: four people type their words in the channel and discard by DM (the
real bot, real discord.py, a real SQLite file; only Discord is the double), and the record is
written as JSON lines in the ``discord-look`` renderer's shape (``tests/wire/look.py``).

    python tools/look_match.py --out match.jsonl [--puntos 40] [--seed 7]
    python …/discord-look/render.py match.jsonl OUT --phone
    python tools/look_match.py --out match.jsonl --docs docs/pictures --renderer …/discord-look

With ``--docs``, the renderer draws two moments of the record at desktop and phone width into
that folder, the pictures of ``docs/look.md``: a hand being played while an envite stands
(``live-desktop.png``, ``live-phone.png``) and the first finished hand with its showdown
(``finished-desktop.png``, ``finished-phone.png``).

Needs the test dependencies (``pip install ".[test]"``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


async def record(out: Path, *, puntos: int, seed: int) -> int:
    from discord_match import make_scene, open_and_start, play_to_the_end
    from wire.look import write_look

    with tempfile.TemporaryDirectory() as folder:
        scene = make_scene(Path(folder), ("Ana", "Beñat", "Carmen", "Dani"), seed=seed)
        world = scene.world
        await world.connect(scene.bot)
        await scene.settle()
        await open_and_start(scene, puntos=puntos, juegos=1, vacas=1)
        moves = await play_to_the_end(scene)
        write_look(world, out)
        await world.disconnect(scene.bot)
    return moves


def moments(record: Path) -> dict[str, int]:
    """The events after which the record shows a hand with an envite standing, and the first
    finished hand with its showdown picture."""
    found: dict[str, int] = {}
    for i, line in enumerate(record.read_text(encoding="utf-8").splitlines()):
        payload = json.loads(line).get("payload")
        embeds = payload.get("embeds") if isinstance(payload, dict) else None
        if not embeds:
            continue
        embed = embeds[0]
        if "live" not in found and any(f.get("name") == "En juego"
                                       for f in embed.get("fields", [])):
            found["live"] = i + 1
        if "finished" not in found and (embed.get("image") or {}).get("url"):
            found["finished"] = i + 1
    return found


def draw_docs(record: Path, folder: Path, renderer: Path) -> list[Path]:
    """The record's two moments, at desktop and phone width, as ``folder``'s pictures."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for name, at in moments(record).items():
        for width, phone in (("desktop", []), ("phone", ["--phone"])):
            with tempfile.TemporaryDirectory() as out:
                subprocess.run([sys.executable, str(renderer / "render.py"), str(record), out,
                                "--at", str(at), "--channel", "mus", "--viewer", "Ana", *phone],
                               check=True, capture_output=True)
                (shot,) = Path(out, "shots").glob(f"at_{at}_*.png")
                target = folder / f"{name}-{width}.png"
                shutil.copyfile(shot, target)
                made.append(target)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the JSON lines to write")
    parser.add_argument("--puntos", type=int, default=40, help="tantos to win the game")
    parser.add_argument("--seed", type=int, default=7, help="the deals and the bots' choices")
    parser.add_argument("--docs", type=Path, help="draw docs/look.md's pictures into this folder")
    parser.add_argument("--renderer", type=Path, help="the discord-look folder (with --docs)")
    args = parser.parse_args(argv)
    if args.docs is not None and args.renderer is None:
        parser.error("--docs needs --renderer (the discord-look folder)")
    moves = asyncio.run(record(args.out, puntos=args.puntos, seed=args.seed))
    print(f"{args.out}: a match of {moves} moves made by people")
    if args.docs is not None:
        for picture in draw_docs(args.out, args.docs, args.renderer):
            print(picture)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
