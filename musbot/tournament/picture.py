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

from collections.abc import Collection
from dataclasses import dataclass

from .canvas import (
    BOX,
    BOX_H,
    BOX_W,
    COLUMN_GAP,
    DISPLAY_WIDTH,
    FAINT,
    HEADER_H,
    HEADING_H,
    INK,
    LINE,
    LINE_H,
    LIVE,
    MARGIN,
    MIN_DISPLAY_FONT,
    MIN_FONT_PX,
    NAME_PX,
    PAGE_WIDTH,
    SLOT_H,
    SMALL_PX,
    TABLE_ROW_H,
    THROUGH,
    TITLE_H,
    TITLE_PX,
    WON,
    Canvas,
)
from .labels import Words
from .model import MatchState, is_odd
from .pages import Box, BracketPage, Page, TablePage, bracket_pages, feeders, paginate
from .standings import PairStanding
from .tournament import Tournament

__all__ = ["BOX_W", "DISPLAY_WIDTH", "MIN_DISPLAY_FONT", "MIN_FONT_PX", "PAGE_WIDTH", "Canvas",
           "Picture", "bracket_pages", "render"]


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


def _column_x(column: int) -> float:
    return MARGIN + column * (BOX_W + COLUMN_GAP)


def _row_y(row: float) -> float:
    return TITLE_H + HEADING_H + row * SLOT_H


def _draw_match(canvas: Canvas, words: Words, box: Box) -> None:
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


def _draw_bracket(page: BracketPage, words: Words, title: str) -> Canvas:
    rows = max((b.row for b in page.boxes), default=0.0) + 1
    height = int(_row_y(rows) - SLOT_H + BOX_H + MARGIN)
    canvas = Canvas(height)
    canvas.text(MARGIN, TITLE_H / 2, title, TITLE_PX, bold=True, room=PAGE_WIDTH - 2 * MARGIN)
    for column, heading in enumerate(page.headings):
        canvas.text(_column_x(column), TITLE_H + HEADING_H / 2 - 6, heading, SMALL_PX,
                    bold=True, color=FAINT, room=BOX_W)
    where = {b.match.id: b for b in page.boxes}
    for box in page.boxes:
        for feeder in feeders(box.match):
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


def _cells(canvas: Canvas, row: PairStanding, place: int, words: Words, swiss: bool,
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


def _draw_table(page: TablePage, words: Words, title: str) -> Canvas:
    lines = sum(len(rows) + 2 for _, rows, _ in page.blocks)
    height = TITLE_H + lines * TABLE_ROW_H + MARGIN
    canvas = Canvas(height)
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


def _shows(page: Page, matches: Collection[str], pairs: set[int]) -> bool:
    """Whether the page shows one of ``matches``: a bracket page the match itself, a table
    page the standing of one of its pairs."""
    if isinstance(page, BracketPage):
        return any(b.match.id in matches for b in page.boxes)
    return any(row.pair in pairs for _, rows, _ in page.blocks for _, row in rows)


def render(tournament: Tournament, lang: str = "es", *,
           matches: Collection[str] | None = None) -> list[Picture]:
    """The bracket's pages, in reading order (module docstring); with ``matches``, only the
    pages that show one of them, or a table row of one of their pairs (after a match: its
    page and the next match's). Before the draw: none."""
    words = Words(tournament, lang)
    pages = paginate(tournament, words)
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
        if isinstance(page, BracketPage):
            canvas = _draw_bracket(page, words, title)
            ids = frozenset(b.match.id for b in page.boxes)
        else:
            canvas = _draw_table(page, words, title)
            ids = frozenset()
        png = canvas.png()
        width, height = canvas.canvas.get_width_height()
        pictures.append(Picture(title, png, width, height, ids, canvas.smallest))
    return pictures
