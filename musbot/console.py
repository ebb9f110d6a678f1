"""What every command-line program of musbot shares (``musbot`` and its subcommands, the
terminal table, the benchmarks): the run's one language, its sentences from the ``CLI``
catalogs, argparse worded in that language, and the exit statuses of an interrupted run.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from musbot.i18n import CLI, DEFAULT_LANGUAGE, LANGUAGES, language_of_locale

LANGUAGE_OPTION: Final = "--idioma"
INTERRUPTED: Final = 130
"""Exit status after Ctrl-C: 128 + SIGINT, what a shell reports for a program it stopped."""
READER_GONE: Final = 141
"""Exit status when standard output was closed by its reader (``| head``): 128 + SIGPIPE."""
ID_DIGITS: Final = (17, 20)
"""How many digits a Discord id (a snowflake) has: 17 for the first ones (2015), 20 at most."""
ID_MOST: Final = 2**64 - 1
"""A snowflake is an unsigned 64-bit number."""

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


@contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse words its own sentences («usage:», «error:», «invalid choice») with gettext,
    bound at its import as ``argparse._``; while a command line is built and parsed, they come
    from the catalog instead. Put back afterwards: other code in the process is not affected."""
    def translate(message: str) -> str:
        key = ARGPARSE_KEYS.get(message)
        return CLI.template(key, lang) if key is not None else message

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
                        help=CLI("idioma", lang))


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
        reason = CLI("reason_dns", lang)
    elif isinstance(cause, ConnectionRefusedError):
        reason = CLI("reason_refused", lang)
    elif isinstance(cause, TimeoutError):
        reason = CLI("reason_timeout", lang)
    else:
        reason = str(getattr(cause, "strerror", None) or cause or type(cause).__name__)
    host = getattr(problem, "host", None) or "discord.com"
    return CLI("connect_failed", lang, host=host, reason=reason.rstrip("."))


# --- argparse types: a value refused at the boundary, one sentence, exit 2 ---------------------

def whole(lang: str, low: int = 1, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``). Refused by argparse (usage,
    exit 2) like any bad option, rather than later by the work with a traceback or nonsense
    (``bench engine --runs 0``: StatisticsError)."""

    def check(text: str) -> int:
        try:
            value: int | None = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            if high is not None:
                message = CLI("between", lang, low=low, high=high, value=text)
            elif low == 1:
                message = CLI("positive", lang, value=text)
            else:
                message = CLI("at_least", lang, low=low, value=text)
            raise argparse.ArgumentTypeError(message)
        return value

    return check


def decimal(lang: str, low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` (or, ``above``, more than it) to
    ``high``; ``nan`` and ``inf`` are refused too (``bench load --minutes inf`` never ends)."""

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            key = "decimal_above" if above else "decimal_between"
            raise argparse.ArgumentTypeError(
                CLI(key, lang, low=_number(low), high=_number(high), value=text))
        return value

    return check


def _number(value: float) -> str:
    """1440, 0.5: as people write them (``:g`` writes a million as 1e+06)."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def id_problem(text: str) -> tuple[str, dict[str, object]] | None:
    """Why ``text`` is not a Discord id (a ``CLI`` key and its values), or None: only the
    digits 0 to 9 (``\\d`` would take Arabic-Indic ones), 17 to 20 of them, at most 2⁶⁴ − 1."""
    if not text or not all("0" <= c <= "9" for c in text):
        return "id_chars", {"value": text}
    low, high = ID_DIGITS
    if not low <= len(text) <= high:
        return "id_length", {"value": text, "digits": len(text), "low": low, "high": high}
    if int(text) > ID_MOST:
        return "id_range", {"value": text, "most": ID_MOST}
    return None


def discord_id(lang: str) -> Callable[[str], int]:
    """An argparse type: a Discord id (``--guild``, ``--dev-guild``)."""

    def check(text: str) -> int:
        problem = id_problem(text)
        if problem is not None:
            key, params = problem
            raise argparse.ArgumentTypeError(CLI(key, lang, **params))
        return int(text)

    return check


def output_file(lang: str, *, new: str | None = None) -> Callable[[str], Path]:
    """An argparse type: a file the command will write, checked before it starts (a benchmark
    that ran for minutes must not then fail to write its result): not a directory, in a folder
    that is there and takes files; with ``new`` (a ``CLI`` key), a file that is not there yet.
    Nothing is made."""

    def check(text: str) -> Path:
        path = Path(text).expanduser()
        if path.is_dir():
            raise argparse.ArgumentTypeError(CLI("out_directory", lang, value=text))
        if path.exists() or path.is_symlink():
            if new is not None:
                raise argparse.ArgumentTypeError(CLI(new, lang, value=text))
            try:
                os.close(os.open(path, os.O_WRONLY))
            except OSError as exc:
                raise argparse.ArgumentTypeError(CLI(
                    "out_not_writable", lang, value=text, detail=exc.strerror or exc)) from None
            return path
        folder = path.parent
        if not folder.is_dir():
            raise argparse.ArgumentTypeError(CLI("out_no_folder", lang, folder=folder))
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            raise argparse.ArgumentTypeError(CLI(
                "out_folder_not_writable", lang, folder=folder,
                detail=exc.strerror or exc)) from None
        return path

    return check
