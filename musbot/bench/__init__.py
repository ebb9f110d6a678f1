"""``musbot bench …``: commands that print figures, not timed tests. Harness code, apart from the
runtime package: the bot never imports it, and ``musbot`` loads it only for ``musbot bench``.
The in-memory discord.py stand-ins that ``load`` and ``discord`` count calls with are
:mod:`musbot.testing.memory`.

- :mod:`~musbot.bench.engine`: the rules engine alone, hands and lance comparisons per second.
- :mod:`~musbot.bench.ai`: bot levels against each other.
- :mod:`~musbot.bench.load`: a busy bot, many tables through the real layers and a database.
- :mod:`~musbot.bench.budget`: the Discord calls one real match costs, on a manual clock.
- :mod:`~musbot.bench.review`: «¿Cómo jugué?» reviews, time to answer and the loop's wait.
- :mod:`~musbot.bench.txapelketa`: a whole tournament of bot-played pairs through the runner,
  the tables and a database.
- :mod:`~musbot.bench.pictures`: the cards', the hand's and the table's pictures: times, bytes.

What they print is in the run's language (``--idioma``, else ``LANG``):
:mod:`~musbot.bench.text`; the JSON line of ``--json`` is the same in every language.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from musbot.console import cli_language
from musbot.i18n import CLI


def add_arguments(sub: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str | None = None,
                  parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    """``musbot bench engine|ai|load|discord|repaso``, worded in ``lang``; ``parents`` carry
    the options every subcommand takes (``--idioma``). Each module adds its own subcommand."""

    from . import ai, budget, engine, load, pictures, review, txapelketa

    lang = lang or cli_language([])
    parents = list(parents)
    bench = sub.add_parser("bench", parents=parents, help=CLI("bench", lang),
                           description=CLI("bench", lang))
    kinds = bench.add_subparsers(dest="bench_kind", required=True,
                                 metavar=CLI("command", lang))
    for module in (engine, ai, load, budget, review, txapelketa, pictures):
        module.add_arguments(kinds, lang, parents)


__all__ = ["add_arguments"]
