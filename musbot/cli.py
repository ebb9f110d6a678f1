"""The ``musbot`` command: run the bot, play in the terminal, replay a hand, benchmark."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _replay(args: argparse.Namespace) -> int:
    from musbot.replay import run

    return run(args.file)


def _run(args: argparse.Namespace) -> int:
    from musbot.bot import run_command

    return run_command(args)


def _db_copy(args: argparse.Namespace) -> int:
    from musbot.storage.transfer import run_copy

    return run_copy(args.source, args.target)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="musbot", description="Mus en Discord y en la terminal.")
    sub = parser.add_subparsers(dest="command", required=True)

    from musbot.config import add_run_arguments

    run = sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN in .env)")
    add_run_arguments(run)
    run.set_defaults(func=_run)

    replay = sub.add_parser("replay", help="replay one hand from a REPLAY.md transcript")
    replay.add_argument("file", help="transcript JSON file, or - for standard input")
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

    db = sub.add_parser("db", help="database tools")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    copy = db_sub.add_parser(
        "copy", help="copy a whole database into an empty one (SQLite ↔ PostgreSQL), checked",
        description="SRC and DST as MUSBOT_DB takes them: a file path, sqlite:///path or "
                    "postgresql://…. Stop the bot first. DST must be empty (exit 2 otherwise); "
                    "a DST that already holds this copy is left as it is.")
    copy.add_argument("source", metavar="SRC")
    copy.add_argument("target", metavar="DST")
    copy.set_defaults(func=_db_copy)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
