"""The bracket as PNG pages and as text: sized and legible for a phone in Discord, within
Discord's limits, every match shown once, hostile names drawn as plain text inside their boxes."""

from __future__ import annotations

import io
import random
import warnings

import pytest
from PIL import Image
from tournament_helpers import T0, drawn, minutes

from musbot.tournament import Bracket, Format, MatchState, Tournament
from musbot.tournament.labels import Words
from musbot.tournament.pages import bracket_pages as _bracket_pages
from musbot.tournament.picture import (
    BOX_W,
    DISPLAY_WIDTH,
    MIN_DISPLAY_FONT,
    MIN_FONT_PX,
    PAGE_WIDTH,
    Picture,
    _draw_bracket,
    render,
)
from musbot.tournament.simulate import random_results, simulate
from musbot.tournament.text import MAX_MESSAGES, MESSAGE_LIMIT, bracket_text
from musbot.words import visible_name as clean

PHONE_HEIGHT = 1400
"""The tallest page: at most about twice as tall as wide, so that a page fitted to a phone's
width needs little scrolling (and Discord's preview does not shrink it to a strip)."""
DISCORD_FILE_LIMIT = 8 * 1024 * 1024
AIM = 1_000_000


def finished(n: int, fmt: Format, seed: int = 1, late: float = 0.2) -> Tournament:
    t = drawn(n, fmt, seed)
    simulate(t, random_results(random.Random(seed), late_rate=late), start=T0)
    return t


def check_page(page: Picture) -> None:
    assert page.png.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(page.png)) as image:
        assert image.size == (page.width, page.height)
    assert page.width == PAGE_WIDTH and page.height <= PHONE_HEIGHT
    assert len(page.png) < AIM < DISCORD_FILE_LIMIT
    assert page.min_font_px >= MIN_FONT_PX
    assert page.min_font_px * DISPLAY_WIDTH / page.width >= MIN_DISPLAY_FONT


@pytest.mark.parametrize(("fmt", "n"), [(Format.DOUBLE, 16), (Format.GROUPS, 12),
                                        (Format.SWISS, 9), (Format.ROUND_ROBIN, 30)])
def test_every_page_fits_a_phone_and_discord(fmt: Format, n: int) -> None:
    pages = render(finished(n, fmt))
    assert pages
    for page in pages:
        check_page(page)


def test_every_match_of_a_bracket_is_on_exactly_one_page() -> None:
    for t in (finished(40, Format.KNOCKOUT), finished(11, Format.DOUBLE)):
        pages = render(t)
        shown = [m for page in pages for m in page.matches]
        bracket = [m.id for m in t.matches.values()
                   if m.bracket in (Bracket.WINNERS, Bracket.LOSERS, Bracket.FINAL)]
        assert sorted(shown) == sorted(bracket)
        assert [p.title.endswith(f"{i}/{len(pages)}") for i, p in enumerate(pages, 1)]
    only = render(t, matches={"F1"})
    assert len(only) == 1 and "F1" in only[0].matches
    league = finished(30, Format.ROUND_ROBIN)
    last = list(league.matches.values())[-1]
    tables = render(league, matches={last.id})
    assert 1 <= len(tables) < len(render(league))


def test_a_page_before_and_during_play_shows_who_is_to_come() -> None:
    t = drawn(8, Format.DOUBLE)
    words = Words(t, "en")
    pages = _bracket_pages(t, words, Bracket.LOSERS)
    match = pages[0].boxes[0].match
    assert match.state is MatchState.PENDING
    assert words.side(match, 0) == "Loser W1-1"
    assert render(Tournament.new(t.settings, 1, now=T0)) == [], "nothing before the draw"


HOSTILE = [
    "$\\frac{1}{2}$ mathtext",
    "<@123456789012345678> @everyone",
    "**negrita** __sub__ ||spoiler||",
    "x" * 300,
    "\u202eRTL override\u202c",
    "Z\u0338\u0322\u031b\u0317a\u0337l\u0336g\u0335o\u0334" * 5,
    "名前がとても長い日本語の名前です",
    "😀🎉 emoji",
    "new\nline\ttab",
    "\u200b\u200d\u2060",
    "Ñandú Ëtxebarria-Goikoetxea",
]


def hostile_tournament() -> Tournament:
    t = Tournament.new(drawn(2).settings, 5, now=T0)
    for i, name in enumerate(HOSTILE * 2):
        t.sign_up(i, name, now=T0)
    t.draw(now=T0)
    simulate(t, random_results(random.Random(2)), start=minutes(1))
    return t


def test_hostile_names_are_plain_text_inside_their_boxes() -> None:
    t = hostile_tournament()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph would warn
        pages = render(t)
    for page in pages:
        check_page(page)
    words = Words(t, "es")
    for page in _bracket_pages(t, words, Bracket.WINNERS):
        canvas = _draw_bracket(page, words, "título")
        canvas.canvas.draw()
        texts = canvas.axes.texts
        assert texts
        for text in texts:
            assert text.get_parse_math() is False, "never mathtext"
            box = text.get_window_extent(canvas.renderer)
            assert box.x0 >= 0 and box.x1 <= PAGE_WIDTH, text.get_text()
            assert box.width <= BOX_W - 20 or text.get_text() == "título"
        drawn_text = " ".join(t.get_text() for t in texts)
        assert "\u202e" not in drawn_text and "\n" not in drawn_text


def test_names_are_cleaned_to_one_plain_line() -> None:
    assert clean("  Ane\n\tEtxe  ") == "Ane Etxe"
    assert clean("\u200b\u2060", fallback="(anónimo)") == "(anónimo)"
    assert clean("Ze\u0301") == "Zé", "composed first, so an accent stays"
    assert clean("a" + "\u0338" * 12 + "b") == "a\u0338\u0338b", "a «zalgo» pile cut"
    assert clean("\u0338a") == "a", "no mark on nothing"
    assert clean("x" * 50, 10) == "x" * 9 + "…"
    assert clean("名前名前名前", 6) == "名前…"
    assert clean(None, fallback="?") == "?"


def test_the_text_version_fits_discords_messages() -> None:
    for t in (finished(128, Format.ROUND_ROBIN, late=0.0), finished(128, Format.DOUBLE),
              finished(6, Format.GROUPS), hostile_tournament()):
        messages = bracket_text(t, "es")
        assert 1 <= len(messages) <= MAX_MESSAGES
        assert all(len(m) <= MESSAGE_LIMIT for m in messages)
        assert messages[0].startswith(clean(t.settings.name, 60))
        assert "Txapeldunak" in messages[0]


def test_a_big_field_in_text_is_summarised_with_what_is_in_play_first() -> None:
    t = drawn(128, Format.DOUBLE)
    for match in [m for m in t.matches.values() if m.state is MatchState.READY][:40]:
        t.start(match.id, now=minutes(1))
        t.record(match.id, (3, 1), now=minutes(50))
    t.late("W1-41", {1}, now=minutes(60))
    messages = bracket_text(t, "en")
    text = "\n".join(messages)
    open_ = [m.id for m in t.matches.values() if m.state is MatchState.READY]
    assert open_ and all(f"{m}:" in text for m in open_)
    assert "W1-41:" in text and "(walkover)" in text
    assert "Winner W1-1 against" not in text, "matches waiting for both pairs are left out"
    finished_big = finished(128, Format.DOUBLE)
    summary = "\n".join(bracket_text(finished_big, "en"))
    if len(summary) > MESSAGE_LIMIT * (MAX_MESSAGES - 1):
        assert "more matches" in summary


def test_the_text_version_escapes_names_with_the_adapters_function() -> None:
    t = hostile_tournament()
    messages = bracket_text(t, "en", escape=lambda s: s.replace("*", "\\*").replace("<", "‹"))
    text = "\n".join(messages)
    assert "\\*\\*negrita\\*\\*" in text and "<@" not in text
    assert "bye" in text or all(m.state is not MatchState.BYE for m in t.matches.values())


def test_byes_walkovers_and_disqualifications_are_marked() -> None:
    t = drawn(5)
    t.late("W1-2", {1}, now=minutes(10))
    t.disqualify(0, "señas", now=minutes(11))
    text = "\n".join(bracket_text(t, "es"))
    assert "exenta" in text and "no presentada" in text and "descalificada: señas" in text
    pages = render(t, "en")
    assert pages and all(p.min_font_px >= MIN_FONT_PX for p in pages)
