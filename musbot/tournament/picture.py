"""The bracket as PNG pictures sized for a phone: the knockout's (or both brackets and the grand
final in double elimination), the groups' tables then their knockout, or the standings of a
round robin or Swiss tournament; names, scores, byes, walkovers and disqualifications.

**Readable on a phone.** Discord's image viewer shows a picture across the phone's width, about
:data:`DISPLAY_WIDTH` density-independent pixels (dp) on a phone held upright. Every page is
:data:`PAGE_WIDTH` pixels wide, so it is shown at ``DISPLAY_WIDTH / PAGE_WIDTH`` of its size,
and no text is smaller than :data:`MIN_FONT_PX` pixels, which is :data:`MIN_DISPLAY_FONT` dp
there (Android's smallest recommended text is 12 sp; 10 is the least still read without
zooming). A big bracket is therefore cut into pages of two rounds by eight matches, in
reading order, each page naming its matches so that the next page's «Winner W1-3» can be
followed; a page is well under a megabyte (Discord takes 8 MB, or 25 MB with Nitro boosts), and
ten fit in one message.

Drawn with Matplotlib's Agg canvas, without pyplot (no global state: safe in a worker thread).
Names are drawn as plain text (no mathtext: a ``$`` is a dollar), cleaned of control characters
and piled marks (:func:`musbot.words.visible_name`), cut with «…» to fit their box as
measured, and a character the font lacks is drawn as □ rather than left out.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cache

from .labels import Words
from .model import Bracket, Match, MatchState, is_odd
from .settings import Format
from .standings import Standing
from .tournament import Tournament

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
ROWS = 8
"""Matches of one round on one page."""
TABLE_ROW_H = 46
TABLE_ROWS = 20
"""Lines of standings (with their headings) on one page."""

INK = "#1b1b1b"
FAINT = "#6b6b6b"
LINE = "#9a9a9a"
BOX = "#f3f3f3"
LIVE = "#1f6fd1"
WON = "#e6f2e6"
THROUGH = "#2e7d32"


@dataclass(frozen=True, slots=True)
class Picture:
    """One page of the bracket."""

    title: str
    png: bytes
    width: int
    height: int
    matches: frozenset[str]
    """The matches drawn on it (to post the page of a match just played)."""
    min_font_px: float
    """The smallest text drawn, in pixels."""


@dataclass
class _Box:
    match: Match
    column: int
    row: float


@dataclass
class _BracketPage:
    section: str
    headings: list[str]
    boxes: list[_Box] = field(default_factory=list)


@dataclass
class _TablePage:
    section: str
    blocks: list[tuple[str, list[tuple[int, Standing]], int]]
    """(heading, (place, row) lines, how many places go through)."""
    swiss: bool


_Page = _BracketPage | _TablePage


def _feeders(match: Match) -> list[str]:
    return [str(s.ref) for s in match.sources if s.kind in ("winner", "loser")]


def _bracket_pages(t: Tournament, words: Words, bracket: Bracket) -> list[_BracketPage]:
    """Two rounds a page, eight matches a round; a match of the second round on the page of
    its feeders, or where there is room."""
    matches = [m for m in t.matches.values() if m.bracket is bracket]
    if not matches:
        return []
    rounds = sorted({m.round for m in matches})
    last = rounds[-1]
    section = words.section(bracket)
    pages: list[_BracketPage] = []
    for i in range(0, len(rounds), 2):
        first_round = rounds[i]
        second_round = rounds[i + 1] if i + 1 < len(rounds) else None
        firsts = [m for m in matches if m.round == first_round]
        seconds = [m for m in matches if m.round == second_round]
        headings = [words.column(bracket, first_round, last)]
        if second_round is not None:
            headings.append(words.column(bracket, second_round, last))
        chunks = [firsts[j:j + ROWS] for j in range(0, len(firsts), ROWS)]
        placed: list[list[Match]] = [[] for _ in chunks]
        where = {m.id: n for n, chunk in enumerate(chunks) for m in chunk}
        leftover = []
        for match in seconds:
            homes = [where[f] for f in _feeders(match) if f in where]
            if homes and len(placed[homes[0]]) < ROWS:
                placed[homes[0]].append(match)
            else:
                leftover.append(match)
        for match in leftover:
            room = next((n for n, p in enumerate(placed) if len(p) < ROWS), None)
            if room is None:
                chunks.append([])
                placed.append([])
                room = len(placed) - 1
            placed[room].append(match)
        for chunk, seconds_here in zip(chunks, placed, strict=True):
            page = _BracketPage(section, headings)
            rows = {m.id: float(r) for r, m in enumerate(chunk)}
            page.boxes += [_Box(m, 0, rows[m.id]) for m in chunk]
            wanted: list[tuple[float, Match]] = []
            for match in seconds_here:
                ys = [rows[f] for f in _feeders(match) if f in rows]
                wanted.append((sum(ys) / len(ys) if ys else float(len(wanted)), match))
            previous = -1.0
            for y, match in sorted(wanted, key=lambda w: w[0]):
                y = max(y, previous + 1.0)
                page.boxes.append(_Box(match, 1, y))
                previous = y
            pages.append(page)
    return pages


def _table_pages(t: Tournament, words: Words) -> list[_TablePage]:
    if t.settings.format is Format.GROUPS:
        blocks = [(words.section(Bracket.GROUP, g), t.standings(g), t.plan.get("advance", 0))
                  for g in range(t.plan.get("groups", 0))]
        section = words["groups"]
    elif t.settings.format is Format.SWISS:
        paired = t.plan.get("paired", 0)
        done = paired if all(m.decided for m in t.matches.values()) else paired - 1
        blocks = [(words["swiss_standings"].format(round=max(done, 0),
                                                   rounds=t.plan.get("rounds", 0)),
                   t.standings(), 0)]
        section = words["standings"]
    else:
        blocks = [(words["standings"], t.standings(), 0)]
        section = words["standings"]
    swiss = t.settings.format is Format.SWISS
    pages: list[_TablePage] = []
    current: list[tuple[str, list[tuple[int, Standing]], int]] = []
    used = 0
    for heading, rows, through in blocks:
        numbered = list(enumerate(rows, 1))
        if used and used + len(numbered) + 2 > TABLE_ROWS >= len(numbered) + 2:
            pages.append(_TablePage(section, current, swiss))  # a group whole on a new page
            current, used = [], 0
        while True:
            room = TABLE_ROWS - used - 2
            if room < 1:
                pages.append(_TablePage(section, current, swiss))
                current, used = [], 0
                continue
            part, numbered = numbered[:room], numbered[room:]
            current.append((heading, part, through))
            used += len(part) + 2
            if not numbered:
                break
            pages.append(_TablePage(section, current, swiss))
            current, used = [], 0
    if current:
        pages.append(_TablePage(section, current, swiss))
    return pages


def _pages(t: Tournament, words: Words) -> list[_Page]:
    fmt = t.settings.format
    pages: list[_Page] = []
    if fmt in (Format.GROUPS, Format.ROUND_ROBIN, Format.SWISS):
        pages += _table_pages(t, words)
    if fmt in (Format.KNOCKOUT, Format.GROUPS, Format.DOUBLE):
        pages += _bracket_pages(t, words, Bracket.WINNERS)
    if fmt is Format.DOUBLE:
        pages += _bracket_pages(t, words, Bracket.LOSERS)
        pages += _bracket_pages(t, words, Bracket.FINAL)
    return pages


# --- drawing ---------------------------------------------------------------------------------

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


class _Canvas:
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


def _column_x(column: int) -> float:
    return MARGIN + column * (BOX_W + COLUMN_GAP)


def _row_y(row: float) -> float:
    return TITLE_H + HEADING_H + row * SLOT_H


def _draw_match(canvas: _Canvas, words: Words, box: _Box) -> None:
    match = box.match
    x, y = _column_x(box.column), _row_y(box.row)
    live = match.state in (MatchState.READY, MatchState.PLAYING)
    canvas.box(x, y, BOX_W, BOX_H, edge=LIVE if live else LINE, width=3 if live else 1.5)
    canvas.text(x + 10, y + HEADER_H / 2, match.id, SMALL_PX, color=FAINT)
    mark = words.state(match)
    if mark:
        canvas.text(x + BOX_W - 10, y + HEADER_H / 2, mark, SMALL_PX, color=FAINT,
                    align="right", room=BOX_W - 130)
    shown = (match.decided and match.state is not MatchState.BYE) or any(match.games)
    for side in (0, 1):
        top = y + HEADER_H + side * LINE_H
        won = match.winner == side and match.state is not MatchState.BYE
        if won:
            canvas.box(x + 1.5, top, BOX_W - 3, LINE_H, fill=WON, edge=WON, width=0)
        known = match.pairs[side] is not None
        color = INK if known and (match.winner is None or won
                                  or match.state is MatchState.BYE) else FAINT
        pair = match.pairs[side]
        room = BOX_W - 80
        label = words.side(match, side) if pair is None else canvas.fit_pair(
            words["pair"], *words.people(pair), NAME_PX, room, won)
        canvas.text(x + 12, top + LINE_H / 2, label, NAME_PX, bold=won, color=color,
                    room=room)
        if shown:
            canvas.text(x + BOX_W - 14, top + LINE_H / 2, str(match.games[side]), NAME_PX,
                        bold=won, color=color, align="right")


def _draw_bracket(page: _BracketPage, words: Words, title: str) -> _Canvas:
    rows = max((b.row for b in page.boxes), default=0.0) + 1
    height = int(_row_y(rows) - SLOT_H + BOX_H + MARGIN)
    canvas = _Canvas(height)
    canvas.text(MARGIN, TITLE_H / 2, title, TITLE_PX, bold=True, room=PAGE_WIDTH - 2 * MARGIN)
    for column, heading in enumerate(page.headings):
        canvas.text(_column_x(column), TITLE_H + HEADING_H / 2 - 6, heading, SMALL_PX,
                    bold=True, color=FAINT, room=BOX_W)
    where = {b.match.id: b for b in page.boxes}
    for box in page.boxes:
        for feeder in _feeders(box.match):
            source = where.get(feeder)
            if source is None or source.column >= box.column:
                continue
            x0 = _column_x(source.column) + BOX_W
            y0 = _row_y(source.row) + BOX_H / 2
            x1 = _column_x(box.column)
            y1 = _row_y(box.row) + BOX_H / 2
            middle = (x0 + x1) / 2
            canvas.line([x0, middle, middle, x1], [y0, y0, y1, y1])
    for box in page.boxes:
        _draw_match(canvas, words, box)
    return canvas


_TABLE_COLUMNS = {
    False: [("head_place", 50, "right"), ("head_pair", 470, "left"),
            ("head_played", 70, "right"), ("head_won", 70, "right"),
            ("head_lost", 70, "right"), ("head_games", 90, "right"),
            ("head_tantos", 110, "right")],
    True: [("head_place", 50, "right"), ("head_pair", 420, "left"),
           ("head_points", 80, "right"), ("head_buchholz", 100, "right"),
           ("head_played", 60, "right"), ("head_games", 90, "right"),
           ("head_tantos", 110, "right")],
}


def _cells(canvas: _Canvas, row: Standing, place: int, words: Words, swiss: bool,
           room: float, bold: bool) -> list[str]:
    pair = words.tournament.pairs[row.pair]
    mark = f" ({words['disqualified_mark']})" if pair.disqualified else ""
    name = canvas.fit_pair(words["pair"], *words.people(pair), NAME_PX,
                           room - canvas.wide(mark, NAME_PX, bold), bold) + mark
    games, tantos = f"{row.games_diff:+d}", f"{row.tantos_diff:+d}"
    if swiss:
        return [str(place), name, str(row.points), str(row.buchholz or 0), str(row.played),
                games, tantos]
    return [str(place), name, str(row.played), str(row.won), str(row.lost), games, tantos]


def _draw_table(page: _TablePage, words: Words, title: str) -> _Canvas:
    lines = sum(len(rows) + 2 for _, rows, _ in page.blocks)
    height = TITLE_H + lines * TABLE_ROW_H + MARGIN
    canvas = _Canvas(height)
    canvas.text(MARGIN, TITLE_H / 2, title, TITLE_PX, bold=True, room=PAGE_WIDTH - 2 * MARGIN)
    columns = _TABLE_COLUMNS[page.swiss]
    y = TITLE_H
    for heading, rows, through in page.blocks:
        canvas.text(MARGIN, y + TABLE_ROW_H / 2, heading, NAME_PX, bold=True,
                    room=PAGE_WIDTH - 2 * MARGIN)
        y += TABLE_ROW_H
        x = MARGIN
        for key, w, align in columns:
            canvas.text(x + (w - 8 if align == "right" else 8), y + TABLE_ROW_H / 2,
                        words[key], SMALL_PX, bold=True, color=FAINT, align=align, room=w - 10)
            x += w
        y += TABLE_ROW_H
        for offset, (place, row) in enumerate(rows):
            fill = "#ffffff" if is_odd(offset) else BOX
            canvas.box(MARGIN, y, PAGE_WIDTH - 2 * MARGIN, TABLE_ROW_H, fill=fill, edge=fill,
                       width=0)
            goes = place <= through
            x = MARGIN
            cells = _cells(canvas, row, place, words, page.swiss, columns[1][1] - 12, goes)
            for (_, w, align), cell in zip(columns, cells, strict=True):
                canvas.text(x + (w - 8 if align == "right" else 8), y + TABLE_ROW_H / 2, cell,
                            NAME_PX, bold=goes, color=THROUGH if goes else INK, align=align,
                            room=w - 12)
                x += w
            y += TABLE_ROW_H
    return canvas


def _shows(page: _Page, matches: Collection[str], pairs: set[int]) -> bool:
    """Whether the page shows one of ``matches``: a bracket page the match itself, a table
    page the standing of one of its pairs."""
    if isinstance(page, _BracketPage):
        return any(b.match.id in matches for b in page.boxes)
    return any(row.pair in pairs for _, rows, _ in page.blocks for _, row in rows)


def render(tournament: Tournament, lang: str = "es", *,
           matches: Collection[str] | None = None) -> list[Picture]:
    """The bracket's pages, in reading order (module docstring); with ``matches``, only the
    pages that show one of them, or a table row of one of their pairs (after a match: its
    page and the next match's). Before the draw: none."""
    words = Words(tournament, lang)
    pages = _pages(tournament, words)
    pictures = []
    name = words.title()
    wanted = {p for m in matches or () if m in tournament.matches
              for p in tournament.matches[m].pairs if p is not None}
    for number, page in enumerate(pages, 1):
        if matches is not None and not _shows(page, matches, wanted):
            continue
        title = f"{name} — {page.section}"
        if len(pages) > 1:
            title = words["page"].format(title=title, page=number, pages=len(pages))
        if isinstance(page, _BracketPage):
            canvas = _draw_bracket(page, words, title)
            ids = frozenset(b.match.id for b in page.boxes)
        else:
            canvas = _draw_table(page, words, title)
            ids = frozenset()
        png = canvas.png()
        width, height = canvas.canvas.get_width_height()
        pictures.append(Picture(title, png, width, height, ids, canvas.smallest))
    return pictures
