"""``musbot repaso FILE --asiento N``: «¿Cómo jugué?» for one seat of a stored hand.

The hand is read and played as ``musbot replay`` reads and plays it (docs/replay.md; ``-`` is
standard input), and whatever the replay refuses is refused here with the same sentence, exit
status 2; the review is :mod:`musbot.coach`'s, printed in the run's language (``--idioma``). A
stored transcript keeps no señas, so none are counted.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

from musbot.console import whole
from musbot.engine.rules import PLAYER_COUNTS
from musbot.i18n import COACH
from musbot.replay import Lang, ReplayError, load, read_transcript

from .review import review_transcript
from .text import text


def add_review_arguments(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="FILE", help=COACH("cli_repaso_file", lang))
    parser.add_argument("--asiento", type=whole(lang, 1, max(PLAYER_COUNTS)), required=True,
                        metavar="N",
                        help=COACH("cli_asiento", lang))
    parser.add_argument("--semilla", type=int, default=None, metavar="N",
                        help=COACH("cli_semilla", lang))


def run(path: str, seat: int, *, seed: int | None = None, lang: Lang = "es",
        out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """0 and the review on ``out``; 2 and one sentence on ``err`` for a refused transcript or
    a seat the hand does not have. ``seat`` counts from 1, as the table shows seats."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        transcript = read_transcript(load(path))
        players = len(transcript.hands)
        if not 1 <= seat <= players:
            print(COACH("cli_bad_seat", lang, players=players), file=err)
            return 2
        found = review_transcript(transcript, seat - 1, seed=seed)
    except ReplayError as exc:
        print(exc.message(lang), file=err)
        return 2
    print(text(found, lang), file=out)
    return 0


def run_review(args: argparse.Namespace) -> int:
    return run(args.file, args.asiento, seed=args.semilla, lang=args.idioma)
