"""A page's lines are escaped once per render cache (``discordio.embeds.Escaped``), and shown
again in full whenever lines already shown change: a name forgotten, or moves undone after a
save that failed (issues 22, 23 and 24)."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import make_table, seat_humans

from musbot.discordio.embeds import Escaped, Snapshot, render_page
from musbot.engine import MUS, NO_HAY_MUS, envido
from musbot.table import status
from musbot.table.page import Page, Pages


def _face(page: Page) -> Snapshot:
    return Snapshot(page, len(page.lines), "Mano 1", (), "", (), "es", False)


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


async def test_a_table_message_keeps_the_match_as_facts_and_words_them_only_when_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: a busy table changes several times between two edits of its message, so the
    face captured at each change holds the status as facts; they are worded when the message
    is rendered, the same lines the table's own status gives."""
    table, _, _ = make_table()
    await seat_humans(table)
    await table.start(1)
    worded: list[Any] = []
    real = status.facts_lines
    monkeypatch.setattr(status, "facts_lines",
                        lambda *args: worded.append(args) or real(*args))
    face = Snapshot.capture(table)
    again = Snapshot.capture(table)
    assert worded == [] and face.status == ()
    assert face.signature(0, False) == again.signature(0, False)
    lines = face.status_lines()
    assert len(worded) == 1
    assert "\n".join(lines) in table.status()
    rendered = render_page(face, 0, final=False)  # issue 43: a Mus table at a glance
    embed = rendered.embed
    assert embed.title == "🃏 Mano 1 · Mus · habla P1", "the hand, its part, who speaks"
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Pareja 1"] == "P1, P3\n0 tantos"
    assert "En juego" not in fields and fields["Tiempo"].startswith("<t:")
    assert embed.description == "¡Empieza la partida!\n🃏 Nueva mano: es mano P1."
    await table.act(1, MUS)
    moved = Snapshot.capture(table)
    assert moved.signature(0, False) != face.signature(0, False)
    assert moved.status_lines() != lines  # another seat to speak
    await table.act(2, NO_HAY_MUS)
    await table.act(1, envido(3))
    fields = {f.name: f.value for f in render_page(Snapshot.capture(table), 0,
                                                   final=False).embed.fields}
    assert fields["En juego"] == "3, de P1", "the standing envite and who made it"
