"""The ``musbot`` command: run the bot, play in the terminal, replay a hand, benchmark."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _replay(args: argparse.Namespace) -> int:
    from musbot.replay import run

    return run(args.file, lang=args.idioma)


def _run(args: argparse.Namespace) -> int:
    from musbot.bot import run_command

    return run_command(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="musbot", description="Mus en Discord y en la terminal.")
    sub = parser.add_subparsers(dest="command", required=True)

    from musbot.config import add_run_arguments

    run = sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN in .env)")
    add_run_arguments(run)
    run.set_defaults(func=_run)

    replay = sub.add_parser(
        "replay", help="replay one hand from a transcript (docs/replay.md)",
        description="Plays one hand of Mus from a JSON transcript and prints its outcome as JSON; "
                    "a transcript that breaks the format or the rules is refused with exit status "
                    "2 and a sentence saying why. The format, what is checked and the errors: "
                    "docs/replay.md.")
    replay.add_argument("file", help="transcript JSON file, or - for standard input")
    replay.add_argument("--idioma", choices=("es", "en"), default=None,
                        help="language of the refusals (default: en if LANG starts with en, "
                             "else es)")
    replay.set_defaults(func=_replay)

    from musbot import bench
    from musbot.terminal import add_play_arguments, run_play

    play = sub.add_parser("play", help="play in the terminal against or with bots, no token needed")
    add_play_arguments(play)
    play.set_defaults(func=run_play)

    from musbot.invite import add_invite_arguments, run_invite

    invite = sub.add_parser("invite", help="print the URL that adds musbot to a server")
    add_invite_arguments(invite)
    invite.set_defaults(func=run_invite)

    bench.add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
