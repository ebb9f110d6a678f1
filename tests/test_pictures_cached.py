"""The pictures laid from cached pieces and packed with one palette (issue 43: cheap enough that
a busy bot sends them) look as they did when each was drawn from nothing and given its own 96
colours: a few fixed hands and tables against the PNGs the bot sent before
(``tests/data/pictures/before_*.png``, drawn by the code of main at a5496da); the marks of new
cards are still there; and every cache the worker keeps is bounded."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from musbot.engine.cards import parse_card
from musbot.pictures import canvas, fonts
from musbot.pictures.hand import AROUND, CARD_H, MARGIN, hand_picture, hand_png
from musbot.pictures.table import LanceRow, TableSnapshot, table_picture, table_png

BEFORE = Path(__file__).parent / "data" / "pictures"


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


HANDS = {
    "h_plain": (cards("7e", "12o", "1c", "4b"), (), 8, "es"),
    "h_reyes": (cards("3o", "2c", "7e", "12b"), cards("7e", "12b"), 8, "fr"),
    "h_new_eu": (cards("3o", "3c", "2e", "2b"), cards("3o", "3c", "2e", "2b"), 8, "eu"),
}
TABLES = {
    "t4": TableSnapshot(
        names=("Ane", "Koldo el del bar de la esquina", "Maite", "Bot 4"), mano=1,
        hands=(cards("4e", "5e", "5o", "12c"), cards("11b", "1e", "5b", "2b"),
               cards("2e", "12o", "5c", "6b"), cards("10b", "11e", "3o", "6e")),
        lances=(LanceRow(0, 0, 2, "querido"), LanceRow(1, 1, 1, "paso"),
                LanceRow(2, 0, 5, "deje"), LanceRow(3, 1, 3, None)),
        scores=(23, 17), reyes=8, lang="es", extra=("La pareja 1 gana el juego",)),
    "t2": TableSnapshot(
        names=("Ñandú", "אבי כהן"), mano=0, hands=(cards("4e", "5e", "5o", "12c"), None),
        lances=(LanceRow(0, None, 0, "paso"), LanceRow(4, 1, 2, None)), scores=(3, 40),
        reyes=4, lang="eu"),
}


def rgb(data: bytes | Image.Image) -> np.ndarray:
    img = Image.open(io.BytesIO(data)) if isinstance(data, bytes) else data
    return np.asarray(img.convert("RGB"), dtype=np.int16)


def drawn(name: str) -> tuple[bytes, Image.Image]:
    """The picture ``name`` as sent now (PNG) and as drawn before packing."""
    if name in HANDS:
        hand, new, reyes, lang = HANDS[name]
        return (hand_png(hand, new=new, reyes=reyes, lang=lang),
                hand_picture(hand, new=new, reyes=reyes, lang=lang))
    return table_png(TABLES[name]), table_picture(TABLES[name])


@pytest.mark.parametrize("name", [*HANDS, *TABLES])
def test_a_picture_looks_as_it_did_before_its_pieces_were_cached(name: str) -> None:
    """Against the PNG sent before: the same size, the same pixels but for the palettes'
    rounding (on average under one level in 255; hardly a pixel in ten thousand off by more
    than 48, where the two palettes round an edge's blend apart)."""
    png, _ = drawn(name)
    now, before = rgb(png), rgb((BEFORE / f"before_{name}.png").read_bytes())
    assert now.shape == before.shape
    assert float(np.abs(now - before).mean()) < 1.0
    assert float((np.abs(now - before).max(axis=-1) > 48).mean()) < 0.001


@pytest.mark.parametrize("name", [*HANDS, *TABLES])
def test_the_one_palette_keeps_the_drawing_s_colours(name: str) -> None:
    """Every pixel sent within 40 levels of what was drawn (a picture's own 96 colours were
    off by up to 58), and each named colour kept exactly."""
    png, picture = drawn(name)
    error = np.abs(rgb(png) - rgb(picture)).max(axis=-1)
    assert error.max() <= 40 and float(error.mean()) < 1.5
    colours = {tuple(c) for c in rgb(png).reshape(-1, 3).tolist()}
    assert tuple(canvas.FELT) in colours and tuple(canvas.INK) in colours


def test_every_picture_is_packed_with_the_same_palette_and_the_same_bytes() -> None:
    first = hand_png(*HANDS["h_reyes"][:1], new=HANDS["h_reyes"][1], lang="fr")
    again = hand_png(*HANDS["h_reyes"][:1], new=HANDS["h_reyes"][1], lang="fr")
    assert first == again
    for png in (first, table_png(TABLES["t4"])):
        img = Image.open(io.BytesIO(png))
        assert img.mode == "P"
        assert img.getpalette() == canvas.palette().getpalette()


def test_new_cards_keep_their_ring_and_pill_and_the_others_have_none() -> None:
    """After a discard, cards 3 and 4 are new: a ring of ink round each and a gold «nouvelle»
    above it; cards 1 and 2 have neither (their «=12» and «=1» stay)."""
    hand, new, _, _ = HANDS["h_reyes"]
    img = rgb(hand_png(hand, new=new, lang="fr"))
    width = canvas.card_width(CARD_H)
    gap = (img.shape[1] - 2 * MARGIN - 4 * width) // 3
    top = img.shape[0] - (CARD_H + 8 + 40 + MARGIN)  # the cards' top, below the pills' row
    ink, gold = np.array(canvas.INK), np.array(canvas.GOLD)
    for i in range(4):
        x = MARGIN + i * (width + gap)
        ring = img[top + CARD_H // 2, x - AROUND:x - AROUND + 4]  # its left side, half-way
        pill = img[MARGIN:top - AROUND, x:x + width]
        marked = hand[i] in new
        assert (np.abs(ring - ink).max(axis=-1) <= 2).any() == marked, i
        assert (np.abs(pill - gold).max(axis=-1) <= 2).any() == marked, i
    plain = rgb(hand_png(hand, lang="fr"))
    assert plain.shape[0] < img.shape[0], "no row of pills without a new card"


def test_the_glyph_cache_is_bounded_and_draws_what_freetype_draws() -> None:
    face = fonts.font(31, bold=True)
    assert isinstance(face, fonts.CachedFont)
    for n in range(fonts.GLYPH_CACHE + 50):
        face.getmask2(f"Jugador {n}", "L")
        face.getlength(f"Jugador {n}")
    assert len(face._masks) == fonts.GLYPH_CACHE and len(face._measures) == fonts.GLYPH_CACHE
    mask, offset = face.getmask2("Koldo", "L", start=(0.5, 0.0))
    plain = fonts.ImageFont.truetype(face.path, 31, layout_engine=fonts.ImageFont.Layout.BASIC)
    fresh, fresh_offset = plain.getmask2("Koldo", "L", start=(0.5, 0.0))
    assert offset == fresh_offset and bytes(mask) == bytes(fresh)
    assert face.getmask2("Koldo", "L", start=(0.5, 0.0))[0] is mask, "rendered once"


def test_the_pieces_caches_are_bounded() -> None:
    for cached in (canvas.card_on, canvas._badge_piece, fonts.font):
        assert cached.cache_info().maxsize is not None, cached
