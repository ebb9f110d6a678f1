"""A page's lines are escaped once per render cache (``discordio.embeds.Escaped``), and shown
again in full whenever lines already shown change: a name forgotten, or moves undone after a
save that failed (issues 22, 23 and 24)."""

from __future__ import annotations

from musbot.discordio.embeds import Escaped, Face, render_page
from musbot.table.page import Page, Pages


def _face(page: Page) -> Face:
    return Face(page, len(page.lines), "Mano 1", (), "", (), "es", False)


def test_each_line_is_escaped_once_and_kept_as_it_is_when_nothing_needs_it() -> None:
    page = Page(1, 1, lines=["Ana: envido", "**Bea**: paso"])
    escaped = Escaped()
    first = escaped.upto(page, 2)
    assert first == ["Ana: envido", "\\*\\*Bea\\*\\*: paso"]
    assert first[0] is page.lines[0]  # nothing to escape: the same string, not a copy
    page.lines.append("Carlos: quiero")
    again = escaped.upto(page, 3)
    assert again is first and again[2] == "Carlos: quiero"  # only the new line was added


def test_a_rendered_page_shows_the_lines_escaped_from_the_first_asked() -> None:
    page = Page(1, 1, lines=["a", "<@1> b", "c"])
    escaped = Escaped()
    rendered = render_page(_face(page), 1, final=True, escaped=escaped)
    assert rendered.embed.description == "\\<\\@1> b\nc"
    assert render_page(_face(page), 0, final=True).embed.description == "a\n\\<\\@1> b\nc"


def test_lines_taken_back_by_a_failed_save_are_never_shown_from_the_cache() -> None:
    """A move undone takes its lines back (``Pages.adopt``), and the next move's lines take
    their places: the page's revision moves, so the render escapes them afresh."""
    shown = Pages()
    shown.page.lines[:] = ["Ana: envido", "Bea: quiero"]
    escaped = Escaped()
    face = _face(shown.page)
    assert render_page(face, 0, final=False, escaped=escaped).embed.description.endswith(
        "Bea: quiero")
    saved = Pages()
    saved.page.lines[:] = ["Ana: envido"]
    revision = shown.page.revision
    shown.adopt(saved)
    assert shown.page.revision == revision + 1
    shown.page.lines.append("Bea: _no quiero_")
    text = render_page(_face(shown.page), 0, final=False, escaped=escaped).embed.description
    assert text == "Ana: envido\nBea: \\_no quiero\\_"
    same = Pages()
    same.page.lines[:] = list(shown.page.lines)
    shown.adopt(same)  # nothing taken back: nothing to show again
    assert shown.page.revision == revision + 1
