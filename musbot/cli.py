"""The ``musbot`` command: run the bot, play in the terminal, replay a hand, benchmark.

One language per run, decided once by :func:`cli_language` before anything is parsed: every
help text, error and piece of guidance comes from the ``CLI`` catalogs (argparse's own words
included, see :func:`argparse_in`), so nothing is Spanish at the top and English below.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

from musbot.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog

LANGUAGE_OPTION: Final = "--idioma"
INTERRUPTED: Final = 130
"""Exit status after Ctrl-C: 128 + SIGINT, what a shell reports for a program it stopped."""
READER_GONE: Final = 141
"""Exit status when standard output was closed by its reader (``| head``): 128 + SIGPIPE."""

ARGPARSE_KEYS: Final[Mapping[str, str]] = {
    "usage: ": "argparse_usage",
    "positional arguments": "argparse_positionals",
    "options": "argparse_options",
    "show this help message and exit": "argparse_help",
    "%(prog)s: error: %(message)s\n": "argparse_error",
    "argument %(argument_name)s: %(message)s": "argparse_argument",
    "the following arguments are required: %s": "argparse_required",
    "unrecognized arguments: %s": "argparse_unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse_invalid_choice",
    "invalid %(type)s value: %(value)r": "argparse_invalid_value",
    "expected one argument": "argparse_expected_one",
    "expected at most one argument": "argparse_expected_at_most_one",
    "expected at least one argument": "argparse_expected_at_least_one",
    "ambiguous option: %(option)s could match %(matches)s": "argparse_ambiguous",
    "ignored explicit argument %r": "argparse_ignored_explicit",
    "not allowed with argument %s": "argparse_not_allowed",
    "one of the arguments %s is required": "argparse_one_required",
}
"""argparse's message ids (its English source text) → our catalog keys."""


def cli_language(argv: Sequence[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """``--idioma es|en`` anywhere on the command line (the last one wins, as in argparse), else
    ``LANG``: ``en…`` is English, anything else (``C.UTF-8``, ``es_ES``, unset) Spanish."""
    words = list(sys.argv[1:] if argv is None else argv)
    chosen: str | None = None
    for i, word in enumerate(words):
        if word == "--":
            break
        value = None
        if word == LANGUAGE_OPTION and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith(LANGUAGE_OPTION + "="):
            value = word.partition("=")[2]
        if value in LANGUAGES:
            chosen = value
    if chosen is not None:
        return chosen
    lang = (os.environ if environ is None else environ).get("LANG", "")
    return "en" if lang.lower().startswith("en") else DEFAULT_LANGUAGE


def cli_text(key: str, lang: str, **params: Any) -> str:
    """One sentence of the ``CLI`` catalog."""
    template = str(catalog(lang).CLI[key])
    return template.format(**params) if params else template


@contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse words its own sentences («usage:», «error:», «invalid choice») with gettext,
    bound at its import as ``argparse._``; while a command line is built and parsed, they come
    from the catalog instead. Put back afterwards: other code in the process is not affected."""
    texts = catalog(lang).CLI

    def translate(message: str) -> str:
        key = ARGPARSE_KEYS.get(message)
        return str(texts[key]) if key is not None else message

    saved = argparse._  # type: ignore[attr-defined]
    argparse._ = translate  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = saved  # type: ignore[attr-defined]


def add_language_option(parser: argparse.ArgumentParser, lang: str,
                        default: Any = argparse.SUPPRESS) -> None:
    """``--idioma``, on the top parser and on every subcommand's (``musbot play --idioma en``);
    a subcommand's default is SUPPRESS so it never overwrites a value given before it."""
    parser.add_argument(LANGUAGE_OPTION, dest="idioma", choices=tuple(LANGUAGES), default=default,
                        help=cli_text("idioma", lang))


def version_text(lang: str) -> str:
    """The installed version, and whether the engine is the mypyc build (a shared library)."""
    from importlib.metadata import PackageNotFoundError, version

    from musbot.engine import hand

    try:
        number = version("musbot")
    except PackageNotFoundError:
        number = cli_text("version_unknown", lang)
    compiled = str(hand.__file__).endswith((".so", ".pyd"))
    engine = cli_text("engine_compiled" if compiled else "engine_pure", lang)
    return cli_text("version_line", lang, version=number, engine=engine)


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


def connection_problem(problem: BaseException, lang: str) -> str:
    """«No se puede conectar con discord.com: …», one sentence for ``musbot run`` instead of
    aiohttp's traceback; the usual causes (no name resolution, refused, no answer) in the run's
    language, anything else in the system's words."""
    import socket

    cause = getattr(problem, "os_error", None) or problem
    if isinstance(cause, socket.gaierror) or type(problem).__name__.endswith("DNSError"):
        reason = cli_text("reason_dns", lang)
    elif isinstance(cause, ConnectionRefusedError):
        reason = cli_text("reason_refused", lang)
    elif isinstance(cause, TimeoutError):
        reason = cli_text("reason_timeout", lang)
    else:
        reason = str(getattr(cause, "strerror", None) or cause or type(cause).__name__)
    host = getattr(problem, "host", None) or "discord.com"
    return cli_text("connect_failed", lang, host=host, reason=reason.rstrip("."))


def _replay(args: argparse.Namespace) -> int:
    from musbot.replay import run

    return run(args.file, lang=args.idioma)


def _run(args: argparse.Namespace) -> int:
    from musbot.bot import run_command

    return run_command(args)


def _db_copy(args: argparse.Namespace) -> int:
    from musbot.storage.transfer import run_copy

    return run_copy(args.source, args.target, lang=args.idioma)


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand and option, worded in ``lang`` (argparse's own words too when built
    inside :func:`argparse_in`, as :func:`main` does)."""
    lang = lang or cli_language([])
    parser = argparse.ArgumentParser(prog="musbot", description=cli_text("description", lang))
    add_language_option(parser, lang, default=None)
    parser.add_argument("--version", action=_VersionAction, lang=lang,
                        help=cli_text("version", lang))
    common = argparse.ArgumentParser(add_help=False)
    add_language_option(common, lang)
    parents = [common]
    sub = parser.add_subparsers(dest="command", required=True, metavar=cli_text("command", lang))

    from musbot.config import add_run_arguments

    run = sub.add_parser("run", parents=parents, help=cli_text("run", lang),
                         description=cli_text("run", lang))
    add_run_arguments(run, lang)
    run.set_defaults(func=_run)

    replay = sub.add_parser("replay", parents=parents, help=cli_text("replay", lang),
                            description=cli_text("replay", lang))
    replay.add_argument("file", metavar=cli_text("file", lang), help=cli_text("replay_file", lang))
    replay.set_defaults(func=_replay)

    from musbot import bench
    from musbot.terminal import add_play_arguments, run_play

    play = sub.add_parser("play", parents=parents, help=cli_text("play", lang),
                          description=cli_text("play_description", lang),
                          epilog=cli_text("play_epilog", lang))
    add_play_arguments(play, lang)
    play.set_defaults(func=run_play)

    from musbot.invite import add_invite_arguments, run_invite

    invite = sub.add_parser("invite", parents=parents, help=cli_text("invite", lang),
                            description=cli_text("invite", lang))
    add_invite_arguments(invite, lang)
    invite.set_defaults(func=run_invite)

    bench.add_arguments(sub, lang, parents)

    db = sub.add_parser("db", parents=parents, help=cli_text("db", lang),
                        description=cli_text("db", lang))
    db_sub = db.add_subparsers(dest="db_command", required=True,
                               metavar=cli_text("command", lang))
    copy = db_sub.add_parser("copy", parents=parents, help=cli_text("db_copy", lang),
                             description=cli_text("db_copy_description", lang))
    copy.add_argument("source", metavar="SRC", help=cli_text("db_source", lang))
    copy.add_argument("target", metavar="DST", help=cli_text("db_target", lang))
    copy.set_defaults(func=_db_copy)
    return parser


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line, ``idioma`` always set: the one language of this run."""
    words = list(sys.argv[1:] if argv is None else argv)
    lang = cli_language(words)
    with argparse_in(lang):
        args = build_parser(lang).parse_args(words)
    args.idioma = getattr(args, "idioma", None) or lang
    return args


def silence_stdout() -> None:
    """The reader of standard output is gone: what is still buffered for it, flushed at exit,
    must not fail a second time (and print «Exception ignored … BrokenPipeError»)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


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
