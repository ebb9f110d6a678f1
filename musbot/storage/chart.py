"""A PNG of one player's rating over a season, drawn without pyplot (no global state, so it is
safe to render in a worker thread while the bot runs).

Discord shows the picture on its dark theme (#313338) or its light one (#ffffff), and a white
chart glares on the dark one. So the background is transparent and every mark is drawn in a
colour that stands out from both: a mid grey for the words and axes (about 3.5:1 against
either), a teal line thick enough to read at a phone's width (where Discord shows the picture
about 300 px wide), and the last rating written beside its point. ``tests/test_ratings.py``
composites the picture on both themes and measures the contrast.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from musbot.i18n import SERVER
from musbot.words import visible_name

from . import ratings
from .errors import ChartUnavailable
from .models import RatingPoint

LABELS = ("x", "y", "start")
"""The chart's words, from the catalogues (``SERVER.chart_*``)."""
NAME_COLUMNS = 20
LEAGUE_COLUMNS = 24
"""What a title keeps of a person's and a league's names (cut with «…»): the season fits after
them."""

INK = "#84878d"
"""Words, ticks, axes: a grey as far from Discord's dark background as from its light one."""
LINE = "#0f9d9a"
"""The rating: a teal of the same standing (3.8:1 on the dark theme, 3.3:1 on the light)."""
GRID_ALPHA = 0.35
SIZE = (6.0, 3.0)
"""Inches, at :data:`DPI`: 720 × 360 px, a 2:1 band that a phone shows about 300 px wide."""
DPI = 120
FONT = 15.0
"""Points: about 11 px on a phone once Discord has scaled the picture down."""
TITLE_COLUMNS = (48, 64)
"""A title up to the first length is written at :data:`FONT`, a longer one smaller (down to
three quarters of it), and one past the second is cut with «…»: a name and a league's name may
be long, and the picture does not grow for them."""
MARKED = 30
"""Up to this many matches each one is a dot on the line; past it the dots would be a smear."""


def labels(lang: str) -> dict[str, str]:
    return {word: SERVER(f"chart_{word}", lang) for word in LABELS}


def chart_title(name: str, league: str, season: int, lang: str = "es") -> str:
    """«Ane · Liga de Otoño · temporada 2», the names cut to what the picture's width holds."""
    return " · ".join((visible_name(name, NAME_COLUMNS, "?"),
                       visible_name(league, LEAGUE_COLUMNS, "?"),
                       SERVER("chart_season", lang, season=season)))


def render_rating_chart(points: Sequence[RatingPoint], title: str, lang: str = "es") -> bytes:
    """Draw the display rating after each rated match, starting from a newcomer's rating, and
    return PNG bytes (transparent background)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError as exc:
        raise ChartUnavailable() from exc

    words = labels(lang)
    xs = list(range(len(points) + 1))
    shown = [ratings.display(*ratings.initial()), *(p.rating for p in points)]

    fig = Figure(figsize=SIZE, dpi=DPI)
    fig.patch.set_alpha(0.0)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.patch.set_alpha(0.0)
    ax.axhline(ratings.DISPLAY_BASE, color=INK, linewidth=1.2, linestyle=(0, (4, 3)))
    ax.plot(xs, shown, color=LINE, linewidth=3.0 if len(xs) <= MARKED else 2.2,
            marker="o" if len(xs) <= MARKED else None, markersize=6, solid_capstyle="round",
            solid_joinstyle="round", zorder=3)
    ax.annotate(str(shown[-1]), (xs[-1], shown[-1]), xytext=(0, 9),
                textcoords="offset points", ha="center", va="bottom", color=LINE,
                fontsize=FONT, fontweight="bold", annotation_clip=False)
    short, longest = TITLE_COLUMNS
    title = visible_name(title, longest)
    size = FONT * max(0.75, min(1.0, short / max(len(title), 1)))
    # a name is text: «$x^2$» is not typeset
    fig.suptitle(title, parse_math=False, color=INK, fontsize=size, fontweight="bold",
                 x=0.015, ha="left")
    ax.set_xlabel(words["x"], color=INK, fontsize=FONT)
    ax.set_ylabel(words["y"], color=INK, fontsize=FONT)
    ax.tick_params(colors=INK, labelsize=FONT - 1, width=1.2)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(INK)
        ax.spines[side].set_linewidth(1.2)
    ax.grid(True, axis="y", color=INK, alpha=GRID_ALPHA, linewidth=0.8)
    ax.yaxis.set_major_locator(MaxNLocator(4, steps=[1, 2, 5, 10], integer=True))
    ax.margins(x=0.06, y=0.25)
    if len(xs) <= 12:
        ax.set_xticks(xs, [words["start"], *(str(x) for x in xs[1:])])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(8, integer=True))
    fig.tight_layout(pad=0.6)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", transparent=True)
    return buf.getvalue()
