"""A PNG of one player's rating over a season, drawn without pyplot (no global state, so it is
safe to render in a worker thread while the bot runs)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from musbot.i18n import translate

from . import ratings
from .errors import ChartUnavailable
from .models import RatingPoint

LABELS = ("x", "y", "start", "season")
"""The chart's words, from the catalogues (``SERVER.chart_*``)."""


def labels(lang: str) -> dict[str, str]:
    return {word: translate(f"SERVER.chart_{word}", lang) for word in LABELS}


def render_rating_chart(points: Sequence[RatingPoint], title: str, lang: str = "es") -> bytes:
    """Draw the display rating after each rated match, starting from a newcomer's rating, and
    return PNG bytes."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ChartUnavailable() from exc

    words = labels(lang)
    xs = list(range(len(points) + 1))
    shown = [ratings.display(*ratings.initial()), *(p.rating for p in points)]

    fig = Figure(figsize=(6.4, 3.6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.axhline(ratings.DISPLAY_BASE, color="grey", linewidth=0.8, linestyle="--")
    ax.plot(xs, shown, marker="o", markersize=3)
    ax.set_title(title, parse_math=False)  # a name is text: «$x^2$» is not typeset
    ax.set_xlabel(words["x"])
    ax.set_ylabel(words["y"])
    ax.grid(True, alpha=0.3)
    if len(xs) <= 20:
        ax.set_xticks(xs, [words["start"], *(str(x) for x in xs[1:])])
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
