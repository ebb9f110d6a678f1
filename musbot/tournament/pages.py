"""What goes on which page of a tournament's picture (:mod:`.picture`): a bracket cut into
pages of two rounds by :data:`ROWS` matches, in reading order, a match of the second round on
the page of its feeders; standings cut into pages of :data:`TABLE_ROWS` lines, a group kept
whole when it fits."""

from __future__ import annotations

from dataclasses import dataclass, field

from .labels import Words
from .model import Bracket, Fixture
from .settings import Format
from .standings import PairStanding
from .tournament import Tournament

ROWS = 8
"""Matches of one round on one page."""
TABLE_ROWS = 20
"""Lines of standings (with their headings) on one page."""


@dataclass
class Box:
    match: Fixture
    column: int
    row: float


@dataclass
class BracketPage:
    section: str
    headings: list[str]
    boxes: list[Box] = field(default_factory=list)


@dataclass
class TablePage:
    section: str
    blocks: list[tuple[str, list[tuple[int, PairStanding]], int]]
    """(heading, (place, row) lines, how many places go through)."""
    swiss: bool


Page = BracketPage | TablePage


def feeders(match: Fixture) -> list[str]:
    return [str(s.ref) for s in match.sources if s.kind in ("winner", "loser")]


def bracket_pages(t: Tournament, words: Words, bracket: Bracket) -> list[BracketPage]:
    """Two rounds a page, eight matches a round; a match of the second round on the page of
    its feeders, or where there is room."""
    matches = [m for m in t.matches.values() if m.bracket is bracket]
    if not matches:
        return []
    rounds = sorted({m.round for m in matches})
    last = rounds[-1]
    section = words.section(bracket)
    pages: list[BracketPage] = []
    for i in range(0, len(rounds), 2):
        first_round = rounds[i]
        second_round = rounds[i + 1] if i + 1 < len(rounds) else None
        firsts = [m for m in matches if m.round == first_round]
        seconds = [m for m in matches if m.round == second_round]
        headings = [words.column(bracket, first_round, last)]
        if second_round is not None:
            headings.append(words.column(bracket, second_round, last))
        chunks = [firsts[j:j + ROWS] for j in range(0, len(firsts), ROWS)]
        placed: list[list[Fixture]] = [[] for _ in chunks]
        where = {m.id: n for n, chunk in enumerate(chunks) for m in chunk}
        leftover = []
        for match in seconds:
            homes = [where[f] for f in feeders(match) if f in where]
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
            page = BracketPage(section, headings)
            rows = {m.id: float(r) for r, m in enumerate(chunk)}
            page.boxes += [Box(m, 0, rows[m.id]) for m in chunk]
            wanted: list[tuple[float, Fixture]] = []
            for match in seconds_here:
                ys = [rows[f] for f in feeders(match) if f in rows]
                wanted.append((sum(ys) / len(ys) if ys else float(len(wanted)), match))
            previous = -1.0
            for y, match in sorted(wanted, key=lambda w: w[0]):
                y = max(y, previous + 1.0)
                page.boxes.append(Box(match, 1, y))
                previous = y
            pages.append(page)
    return pages


def table_pages(t: Tournament, words: Words) -> list[TablePage]:
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
    pages: list[TablePage] = []
    current: list[tuple[str, list[tuple[int, PairStanding]], int]] = []
    used = 0
    for heading, rows, through in blocks:
        numbered = list(enumerate(rows, 1))
        if used and used + len(numbered) + 2 > TABLE_ROWS >= len(numbered) + 2:
            pages.append(TablePage(section, current, swiss))  # a group whole on a new page
            current, used = [], 0
        while True:
            room = TABLE_ROWS - used - 2
            if room < 1:
                pages.append(TablePage(section, current, swiss))
                current, used = [], 0
                continue
            part, numbered = numbered[:room], numbered[room:]
            current.append((heading, part, through))
            used += len(part) + 2
            if not numbered:
                break
            pages.append(TablePage(section, current, swiss))
            current, used = [], 0
    if current:
        pages.append(TablePage(section, current, swiss))
    return pages


def paginate(t: Tournament, words: Words) -> list[Page]:
    fmt = t.settings.format
    pages: list[Page] = []
    if fmt in (Format.GROUPS, Format.ROUND_ROBIN, Format.SWISS):
        pages += table_pages(t, words)
    if fmt in (Format.KNOCKOUT, Format.GROUPS, Format.DOUBLE):
        pages += bracket_pages(t, words, Bracket.WINNERS)
    if fmt is Format.DOUBLE:
        pages += bracket_pages(t, words, Bracket.LOSERS)
        pages += bracket_pages(t, words, Bracket.FINAL)
    return pages
