"""``musbot bench …``: commands that print figures, not timed tests. Harness code, apart from the
runtime package: the bot never imports it.

- :mod:`~musbot.bench.engine`: the rules engine alone, hands and lance comparisons per second.
- :mod:`~musbot.bench.ai`: bot levels against each other.
- :mod:`~musbot.bench.load`: a busy bot, many tables through the real layers and a database.
- :mod:`~musbot.bench.budget`: the Discord calls one real match costs, on a manual clock.
- :mod:`~musbot.bench.repaso`: «¿Cómo jugué?» reviews, time to answer and the loop's wait.
- :mod:`~musbot.bench.txapelketa`: a whole tournament of bot-played pairs through the runner,
  the tables and a database.
- :mod:`~musbot.bench.memory`: the in-memory discord.py stand-ins the last two count calls with.

What they print is in the run's language (``--idioma``, else ``LANG``): the ``BENCH`` catalogue,
its figures written with the language's decimal point and thousands separator (:func:`figure`);
the JSON line of ``--json`` is the same in every language.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from musbot.console import cli_language, cli_text
from musbot.i18n import translate


def add_arguments(sub: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str | None = None,
                  parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    """``musbot bench engine|ai|load|discord|repaso``, worded in ``lang``; ``parents`` carry
    the options every subcommand takes (``--idioma``). Each module adds its own subcommand."""

    from . import ai, budget, engine, load, repaso, txapelketa

    lang = lang or cli_language([])
    parents = list(parents)
    bench = sub.add_parser("bench", parents=parents, help=cli_text("bench", lang),
                           description=cli_text("bench", lang))
    kinds = bench.add_subparsers(dest="bench_kind", required=True,
                                 metavar=cli_text("command", lang))
    for module in (engine, ai, load, budget, repaso, txapelketa):
        module.add_arguments(kinds, lang, parents)


def say(key: str, lang: str, /, **params: Any) -> str:
    """One sentence of what a benchmark prints (the ``BENCH`` catalogue), in ``lang``."""
    return translate(f"BENCH.{key}", lang, **params)


def figure(value: float, spec: str, lang: str) -> str:
    """``format(value, spec)`` («1,234.5») with the language's thousands separator and decimal
    point, read from how it writes a number (``BENCH.number_example``): Spanish and Basque
    «1.234,5», French «1 234,5»."""
    example = say("number_example", lang)
    marks = {",": example[1], ".": example[-2]}
    return "".join(marks.get(char, char) for char in format(value, spec))


def share(value: float, lang: str, digits: int = 1) -> str:
    """A share as a percentage, written as the language writes one («12,5 %», Basque «%12,5»)."""
    return translate("COACH.percent", lang, n=figure(100 * value, f".{digits}f", lang))


def rows(lines: Sequence[tuple[str, str]], lang: str) -> list[str]:
    """«  label: text» for each (label's key, text), the texts aligned after the longest of the
    language's labels (``BENCH.label_…``, each with its own colon: French «latence :»); an
    empty key, a line that goes on the one above."""
    labels = [say(f"label_{key}", lang) if key else "" for key, _ in lines]
    width = max(map(len, labels), default=0)
    return [f"  {label:<{width}} {text}" for label, (_, text) in zip(labels, lines, strict=True)]


__all__ = ["add_arguments", "figure", "rows", "say", "share"]
