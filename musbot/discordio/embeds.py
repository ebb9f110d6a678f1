"""A table's page as a Discord message: one embed per page, the hand's lines, its status, its
buttons; kept within Discord's embed limits by continuing a long page in a new message.

What a page message shows is captured from the table when it changes (:class:`Face`): by the
time the message is sent or edited the table may be ahead of what it has saved, and nothing
unsaved may be shown. Lines are the table's own (``Page.lines``, append-only, saved first),
plain text shown escaped (``markup.plain``); the footer is shown as it is (Discord renders no
markdown and no mention there).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import discord

from musbot.table import Page, Table, status, texts
from musbot.table.status import NameList, StatusFacts

from . import ui
from .markup import plain
from .texts import dt

DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256
FOOTER_LIMIT = 2048
EMBED_COLOUR = discord.Colour.dark_green()
FINISHED_COLOUR = discord.Colour.dark_grey()


@dataclass(frozen=True, slots=True)
class Face:
    """What a live page shows besides its lines: the table as last published, captured when a
    message is to show it (``boards.py``), as facts worded when shown."""

    page: Page
    count: int
    """How many of the page's lines were saved and shown by then."""
    title: str
    status: tuple[str, ...]
    """Status lines worded already (a table without a match); a match's are ``facts``."""
    footer: str
    verbs: tuple[str, ...]
    """The buttons: the table's (join, cards, back, rematch…) then the moves of the person
    whose turn it is."""
    lang: str
    closed: bool
    facts: StatusFacts | None = None
    """The match's status (see :mod:`musbot.table.status`), with the seats' ``names``."""
    names: NameList = ()

    @classmethod
    def capture(cls, table: Table) -> Face:
        page = table.state.page
        lang = table.lang
        names = tuple(table.names().items())
        closed = table.lifecycle == "closed"
        match = table.match
        worded: tuple[str, ...]
        facts: StatusFacts | None
        if closed:
            worded, facts = (), None
        elif match is None or page.hand_number is None:
            worded, facts = (table.status(),), None
        else:
            worded, facts = (), status.status_facts(match.view(-1))
        verbs = tuple(ui.board_verbs(table))
        if table.settled and table.lifecycle == "playing":
            verbs = (*verbs, *ui.action_verbs(table))
        seats = status.seats_text(names, texts.seat_notes(table.state), table.state.players,
                                  lang)
        return cls(page, len(page.lines), page_title(page, lang), worded, seats, verbs, lang,
                   closed, facts, names if facts is not None else ())

    def status_lines(self) -> tuple[str, ...]:
        if self.facts is None:
            return self.status
        return status.facts_lines(self.facts, self.names, self.lang)

    def signature(self, first: int, final: bool) -> tuple[Any, ...]:
        """Equal signatures, equal messages: an edit that would change nothing is not made."""
        if final:
            return (self.page.number, self.page.revision, first, self.count, "final")
        return (self.page.number, self.page.revision, first, self.count, self.status,
                self.facts, self.names, self.verbs, self.footer)

    @classmethod
    def finished(cls, page: Page, lang: str) -> Face:
        """A finished page: its lines (all saved) and its title are all it shows."""
        return cls(page, len(page.lines), page_title(page, lang), (), "", (), lang, True)


def page_title(page: Page, lang: str) -> str:
    return _title(page.hand_number, lang)


@functools.lru_cache(maxsize=1024)
def _title(hand_number: int | None, lang: str) -> str:
    if hand_number is None:
        return dt("table_title", lang)
    return dt("hand_title", lang, number=hand_number)


def split_at(lines: list[str], first: int, count: int, reserve: int) -> int:
    """The end of the lines one message can show from ``first`` (at least one line, cut to fit
    if it alone is too long), leaving ``reserve`` characters for the status."""
    room = DESCRIPTION_LIMIT - reserve
    used = 0
    end = first
    while end < count:
        used += len(lines[end]) + 1
        if used > room and end > first:
            break
        end += 1
    return end


@dataclass(frozen=True, slots=True)
class Rendered:
    embed: discord.Embed
    view_verbs: tuple[str, ...]
    end: int
    """The line after the last one shown."""
    frozen: bool
    """The page goes on beyond ``end``, in another message: this one's lines are final."""
    signature: tuple[Any, ...]


@dataclass(slots=True)
class Escaped:
    """A page's lines as Discord gets them (:func:`~.markup.plain`), each escaped once: a page
    is rendered at every edit, its lines only ever added to, or reworded as a whole (a new
    revision: a forgotten player's name)."""

    revision: int = -1
    lines: list[str] = field(default_factory=list)

    def upto(self, page: Page, count: int) -> list[str]:
        """The first ``count`` lines (at least), escaped."""
        if self.revision != page.revision:
            self.revision, self.lines = page.revision, []
        lines = self.lines
        for line in page.lines[len(lines):count]:
            shown = plain(line)
            lines.append(line if shown == line else shown)  # the same string, kept once
        return lines


def render_page(face: Face, first: int, *, final: bool, escaped: Escaped | None = None
                ) -> Rendered:
    """The message showing ``face``'s lines from ``first``: the status and the buttons when the
    page is live, only the lines (and no buttons) once it is finished or continued elsewhere.
    ``escaped``: the page's lines escaped by an earlier render."""
    lines = (escaped or Escaped()).upto(face.page, face.count)[first:face.count]
    worded = "" if final else "\n".join(plain(line) for line in face.status_lines())
    reserve = len(worded) + 2 if worded else 0
    end = first + split_at(lines, 0, len(lines), reserve)
    frozen = end < face.count
    shown = [line if len(line) <= DESCRIPTION_LIMIT else line[:DESCRIPTION_LIMIT - 1] + "…"
             for line in lines[:end - first]]
    text = "\n".join(shown)
    if worded and not frozen:
        text = f"{text}\n\n{worded}" if text else worded
        if len(text) > DESCRIPTION_LIMIT:
            text = text[:DESCRIPTION_LIMIT - 1] + "…"
    embed = discord.Embed(title=face.title[:TITLE_LIMIT], description=text or None,
                          colour=FINISHED_COLOUR if final or face.closed else EMBED_COLOUR)
    if not final and not frozen:
        embed.set_footer(text=face.footer[:FOOTER_LIMIT])
    live = not final and not frozen and not face.closed
    verbs = face.verbs if live else ()
    signature = (face.page.number, face.page.revision, first, end, "final") if frozen else \
        face.signature(first, final)
    return Rendered(embed, verbs, end, frozen, signature)
