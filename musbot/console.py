"""What every command-line program of musbot shares (``musbot`` and its subcommands, the
terminal table, the benchmarks): the run's one language, its sentences from the ``CLI``
catalogs, argparse worded in that language, and the exit statuses of an interrupted run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

from musbot.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, language_of_locale, translate

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
    """``--idioma es|eu|fr|en`` anywhere on the command line (the last one wins, as in
    argparse), else ``LANG``'s language (``fr_FR.UTF-8`` French, ``eu_ES`` Basque, ``en…``
    English), anything else (``C.UTF-8``, ``de_DE``, unset) Spanish."""
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
    return language_of_locale(lang) or DEFAULT_LANGUAGE


def cli_text(key: str, lang: str, **params: Any) -> str:
    """One sentence of the ``CLI`` catalog."""
    return translate(f"CLI.{key}", lang, **params)


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


def silence_stdout() -> None:
    """The reader of standard output is gone: what is still buffered for it, flushed at exit,
    must not fail a second time (and print «Exception ignored … BrokenPipeError»)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


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
