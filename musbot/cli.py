"""The ``musbot`` command: run the bot, play in the terminal, replay a hand, benchmark.

One language per run, decided once by :func:`~musbot.console.cli_language` before anything is
parsed: every help text, error and piece of guidance comes from the ``CLI`` catalogs (argparse's
own words included, see :func:`~musbot.console.argparse_in`), so nothing is Spanish at the top
and English below.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from musbot.coach.cli import add_review_arguments, run_review
from musbot.config import add_run_arguments
from musbot.console import (
    INTERRUPTED,
    LANGUAGE_OPTION,
    READER_GONE,
    add_language_option,
    argparse_in,
    cli_language,
    silence_stdout,
)
from musbot.i18n import CLI, COACH, DEFAULT_LANGUAGE
from musbot.invite import add_invite_arguments, run_invite
from musbot.terminal import add_play_arguments, run_play


def version_text(lang: str) -> str:
    """The installed version, and whether the engine is the mypyc build (a shared library)."""
    from importlib.metadata import PackageNotFoundError, version

    from musbot.engine import hand

    try:
        number = version("musbot")
    except PackageNotFoundError:
        number = CLI("version_unknown", lang)
    compiled = str(hand.__file__).endswith((".so", ".pyd"))
    engine = CLI("engine_compiled" if compiled else "engine_pure", lang)
    return CLI("version_line", lang, version=number, engine=engine)


class _VersionAction(argparse.Action):
    """``--version``, worked out only when asked: it imports the engine."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None,
                 lang: str = DEFAULT_LANGUAGE) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)
        self.lang = lang

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(version_text(self.lang))
        parser.exit()


def _replay(args: argparse.Namespace) -> int:
    from musbot.replay import run

    return run(args.file, lang=args.idioma)


def _run(args: argparse.Namespace) -> int:
    from musbot.bot import run_command

    return run_command(args)


def _db_copy(args: argparse.Namespace) -> int:
    from musbot.storage.transfer import run_copy

    return run_copy(args.source, args.target, lang=args.idioma)


def chosen_command(words: Sequence[str]) -> str | None:
    """The subcommand ``words`` name (the first word that is neither an option nor the
    language's value), or None."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == LANGUAGE_OPTION:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


def build_parser(lang: str | None = None, command: str | None = "bench"
                 ) -> argparse.ArgumentParser:
    """Every subcommand and option, worded in ``lang`` (argparse's own words too when built
    inside :func:`argparse_in`, as :func:`main` does). The benchmarks' options are built (and
    their modules imported) only when ``command`` is ``bench``: the bot and every other command
    never load them."""
    lang = lang or cli_language([])
    parser = argparse.ArgumentParser(prog="musbot", description=CLI("description", lang))
    add_language_option(parser, lang, default=None)
    parser.add_argument("--version", action=_VersionAction, lang=lang,
                        help=CLI("version", lang))
    common = argparse.ArgumentParser(add_help=False)
    add_language_option(common, lang)
    parents = [common]
    sub = parser.add_subparsers(dest="command", required=True, metavar=CLI("command", lang))

    run = sub.add_parser("run", parents=parents, help=CLI("run", lang),
                         description=CLI("run", lang))
    add_run_arguments(run, lang)
    run.set_defaults(func=_run)

    replay = sub.add_parser("replay", parents=parents, help=CLI("replay", lang),
                            description=CLI("replay", lang))
    replay.add_argument("file", metavar=CLI("file", lang), help=CLI("replay_file", lang))
    replay.set_defaults(func=_replay)

    review = sub.add_parser("repaso", parents=parents, help=COACH("cli_repaso", lang),
                            description=COACH("cli_repaso", lang))
    add_review_arguments(review, lang)
    review.set_defaults(func=run_review)

    play = sub.add_parser("play", parents=parents, help=CLI("play", lang),
                          description=CLI("play_description", lang),
                          epilog=CLI("play_epilog", lang))
    add_play_arguments(play, lang)
    play.set_defaults(func=run_play)

    invite = sub.add_parser("invite", parents=parents, help=CLI("invite", lang),
                            description=CLI("invite", lang))
    add_invite_arguments(invite, lang)
    invite.set_defaults(func=run_invite)

    if command == "bench":
        from musbot import bench

        bench.add_arguments(sub, lang, parents)
    else:
        sub.add_parser("bench", help=CLI("bench", lang))

    db = sub.add_parser("db", parents=parents, help=CLI("db", lang),
                        description=CLI("db", lang))
    db_sub = db.add_subparsers(dest="db_command", required=True,
                               metavar=CLI("command", lang))
    copy = db_sub.add_parser("copy", parents=parents, help=CLI("db_copy", lang),
                             description=CLI("db_copy_description", lang))
    copy.add_argument("source", metavar="SRC", help=CLI("db_source", lang))
    copy.add_argument("target", metavar="DST", help=CLI("db_target", lang))
    copy.set_defaults(func=_db_copy)

    from musbot import dbcommands

    dbcommands.add_arguments(db_sub, lang, parents)
    return parser


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line, ``idioma`` always set: the one language of this run."""
    words = list(sys.argv[1:] if argv is None else argv)
    lang = cli_language(words)
    with argparse_in(lang):
        args = build_parser(lang, chosen_command(words)).parse_args(words)
    args.idioma = getattr(args, "idioma", None) or lang
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status of the command; Ctrl-C and a closed output end it quietly, never with a
    traceback."""
    try:
        args = parse(argv)
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return READER_GONE


if __name__ == "__main__":
    sys.exit(main())
