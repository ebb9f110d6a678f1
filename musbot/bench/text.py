"""What the benchmarks print, in the run's language: the ``BENCH`` catalogue, its figures written
with the language's thousands separator and decimal point, its labels aligned for their
lengths in that language."""

from __future__ import annotations

from collections.abc import Sequence

from musbot.i18n import BENCH, COACH


def figure(value: float, spec: str, lang: str) -> str:
    """``format(value, spec)`` («1,234.5») with the language's thousands separator and decimal
    point, read from how it writes a number (``BENCH.number_example``): Spanish and Basque
    «1.234,5», French «1 234,5»."""
    example = BENCH("number_example", lang)
    marks = {",": example[1], ".": example[-2]}
    return "".join(marks.get(char, char) for char in format(value, spec))


def share(value: float, lang: str, digits: int = 1) -> str:
    """A share as a percentage, written as the language writes one («12,5 %», Basque «%12,5»)."""
    return COACH("percent", lang, n=figure(100 * value, f".{digits}f", lang))


def rows(lines: Sequence[tuple[str, str]], lang: str) -> list[str]:
    """«  label: text» for each (label's key, text), the texts aligned after the longest of the
    language's labels (``BENCH.label_…``, each with its own colon: French «latence :»); an
    empty key, a line that goes on the one above."""
    labels = [BENCH(f"label_{key}", lang) if key else "" for key, _ in lines]
    width = max(map(len, labels), default=0)
    return [f"  {label:<{width}} {text}" for label, (_, text) in zip(labels, lines, strict=True)]


__all__ = ["figure", "rows", "share"]
