"""The surface a tournament's picture is drawn on (:mod:`.picture`): a page of
:data:`PAGE_WIDTH` pixels with Matplotlib's Agg canvas, without pyplot (no global state: safe in
a worker thread), its sizes and colours, and text fitted to its room: plain text (no mathtext: a
``$`` is a dollar), cut with «…» to fit as measured, and a character the font lacks drawn as □
rather than left out."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache

DPI = 100
DISPLAY_WIDTH = 400
"""dp across which a phone shows the picture (module docstring)."""
MIN_DISPLAY_FONT = 10
"""dp of the smallest text as shown at :data:`DISPLAY_WIDTH`."""
PAGE_WIDTH = 1000
MIN_FONT_PX = MIN_DISPLAY_FONT * PAGE_WIDTH / DISPLAY_WIDTH
TITLE_PX = 32
NAME_PX = 28
SMALL_PX = MIN_FONT_PX

MARGIN = 30
TITLE_H = 70
HEADING_H = 40
BOX_W = 440
COLUMN_GAP = PAGE_WIDTH - 2 * MARGIN - 2 * BOX_W
HEADER_H = 34
LINE_H = 42
BOX_H = HEADER_H + 2 * LINE_H
SLOT_H = BOX_H + 22
TABLE_ROW_H = 46

INK = "#1b1b1b"
FAINT = "#6b6b6b"
LINE = "#9a9a9a"
BOX = "#f3f3f3"
LIVE = "#1f6fd1"
WON = "#e6f2e6"
THROUGH = "#2e7d32"


@cache
def _glyphs() -> frozenset[int]:
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))
    return frozenset(FT2Font(path).get_charmap())


def _drawable(text: str) -> str:
    known = _glyphs()
    missing = "□" if ord("□") in known else "?"
    return "".join(c if ord(c) in known or c == " " else missing for c in text)


_advances: dict[tuple[float, bool], dict[str, float]] = {}
"""Characters' advances by (size, bold): measured once per process."""


class Canvas:
    def __init__(self, height: int) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        self.height = height
        self.figure = Figure(figsize=(PAGE_WIDTH / DPI, height / DPI), dpi=DPI)
        self.canvas = FigureCanvasAgg(self.figure)
        self.renderer = self.canvas.get_renderer()
        self.axes = self.figure.add_axes((0, 0, 1, 1))
        self.axes.set_xlim(0, PAGE_WIDTH)
        self.axes.set_ylim(height, 0)
        self.axes.axis("off")
        self.smallest = float("inf")

    def _props(self, px: float, bold: bool) -> object:
        from matplotlib.font_manager import FontProperties

        return FontProperties(family="DejaVu Sans", size=px * 72 / DPI,
                              weight="bold" if bold else "normal")

    def wide(self, text: str, px: float, bold: bool) -> float:
        """Width of ``text`` in pixels: the sum of its characters' advances, each measured
        once per size (kerning aside, which DejaVu Sans barely uses)."""
        table = _advances.setdefault((px, bold), {})
        total = 0.0
        for char in text:
            advance = table.get(char)
            if advance is None:
                w, _, _ = self.renderer.get_text_width_height_descent(
                    f"|{char}|", self._props(px, bold), ismath=False)
                bars, _, _ = self.renderer.get_text_width_height_descent(
                    "||", self._props(px, bold), ismath=False)
                advance = table[char] = float(w - bars)
            total += advance
        return total

    def fit(self, text: str, px: float, room: float, bold: bool = False) -> str:
        """``text`` cut with «…» to fit ``room`` pixels."""
        text = _drawable(text)
        if self.wide(text, px, bold) <= room:
            return text
        ellipsis = self.wide("…", px, bold)
        total = 0.0
        for i, char in enumerate(text):
            total += self.wide(char, px, bold)
            if total + ellipsis > room:
                return text[:i].rstrip() + "…"
        return text

    def fit_pair(self, template: str, first: str, second: str, px: float, room: float,
                 bold: bool) -> str:
        """A pair's name: whole if it fits, else each person cut to half the room, so that
        both are seen."""
        whole = _drawable(template.format(first=first, second=second))
        if self.wide(whole, px, bold) <= room:
            return whole
        half = (room - self.wide(template.format(first="", second=""), px, bold)) / 2
        return template.format(first=self.fit(first, px, half, bold),
                               second=self.fit(second, px, half, bold))

    def text(self, x: float, y: float, text: str, px: float, *, bold: bool = False,
             color: str = INK, align: str = "left", room: float | None = None) -> None:
        text = self.fit(text, px, room, bold) if room is not None else _drawable(text)
        self.smallest = min(self.smallest, px)
        self.axes.text(x, y, text, fontsize=px * 72 / DPI, fontfamily="DejaVu Sans",
                       fontweight="bold" if bold else "normal", color=color, ha=align,
                       va="center", parse_math=False)

    def box(self, x: float, y: float, w: float, h: float, *, fill: str = BOX,
            edge: str = LINE, width: float = 1.5) -> None:
        from matplotlib.patches import Rectangle

        self.axes.add_patch(Rectangle((x, y), w, h, facecolor=fill, edgecolor=edge,
                                      linewidth=width))

    def line(self, xs: Sequence[float], ys: Sequence[float]) -> None:
        self.axes.plot(xs, ys, color=LINE, linewidth=1.5)

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=DPI)
        return buf.getvalue()
