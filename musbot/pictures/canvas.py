"""What the hand's and the table's pictures share: the felt they are drawn on, the badge that
marks a card, and the PNG encoding that keeps them small.

**Both Discord themes.** A picture is opaque, on the green of a card table, with light text:
it reads the same on Discord's dark and light themes (a transparent picture would put light
text on a white page). :data:`INK` on :data:`FELT` has a contrast ratio of about 8:1, past the
7:1 of WCAG's AAA; :data:`SOFT` and the pairs' colours over 4.8:1, past AA's 4.5:1
(``tests/test_pictures.py``).

**One palette.** Every picture is encoded with the same 256 colours (:func:`palette`), chosen
once a process from the art itself: the cards at the sizes drawn, text and badges in each ink on
each ground, and the named colours above exactly. Mapping a picture to a palette it already has
is a lookup (under 1 ms for a showdown), where choosing a palette for each picture took 12 ms of
a showdown's 16; and its colours are closer to the drawing than a picture's own 96 were (mean
error 0.5-1.4 against 0.8-1.8, the worst pixel 44 against 71, on ``tests/test_pictures.py``'s
fixed hands and tables).
"""

from __future__ import annotations

import functools
import io
import math

from PIL import Image, ImageDraw

from musbot.engine.cards import DECK, Card, rank

from .cards import ASPECT, BACK, FACE, PALETTES, card_image
from .fonts import font

FELT = (22, 84, 54)
FELT_DARK = (15, 60, 38)
"""Panels on the felt (the score, a seat's place)."""
INK = (246, 244, 232)
SOFT = (190, 214, 196)
"""Secondary text: a lance's kind, the legend."""
GOLD = (255, 205, 60)
"""Marks: the mano, a new card, a card that counts as another."""
GOLD_INK = (40, 30, 0)
PAIR_COLOURS = ((135, 200, 255), (255, 176, 128))
"""Pair 1 blue, pair 2 orange: its seats' names, its lances, its score (both readable on the
felt and told apart by the colour-blind, being light against dark as well)."""

COUNTS_AS = {3: 12, 2: 1}
"""With 8 reyes a 3 is a rey and a 2 an as (docs/rules.md §1)."""


def counts_as(card: Card, reyes: int) -> int | None:
    """The rank a card counts as, when not its own: 12 for a 3, 1 for a 2, with 8 reyes."""
    return COUNTS_AS.get(rank(card)) if reyes == 8 else None


def card_width(height: int) -> int:
    return max(4, round(height * ASPECT))


def badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int,
          fill: tuple[int, int, int] = GOLD, ink: tuple[int, int, int] = GOLD_INK) -> None:
    """A pill of ``fill`` with ``text`` in bold, ``size`` pixels tall, centred on ``centre``."""
    face = font(max(6, round(size * 0.72)), bold=True)
    left, top, right, bottom = face.getbbox(text)
    width = max(size, right - left + size * 0.6)
    x, y = centre
    draw.rounded_rectangle([x - width / 2, y - size / 2, x + width / 2, y + size / 2],
                           radius=size / 2, fill=fill, outline=FELT_DARK,
                           width=max(1, size // 12))
    draw.text((x - (right + left) / 2, y - (bottom + top) / 2), text, font=face, fill=ink)


CARD_HEIGHTS = (100, 150)
"""The heights cards are drawn at in the pictures: the showdown's (``table.CARD_H`` dp at
``table.SCALE``) and the hand's (``hand.CARD_H``); the palette is chosen from them."""
COMPRESS_LEVEL = 1
"""zlib's fastest level: a showdown of 780×1008 palette pixels packs in about 2.5 ms (level 6:
7 ms) into 45-50 KB (level 6: 35 KB), a hand in 0.5 ms into 9-11 KB; well under the 150 KB and
60 KB the pictures may weigh."""


def named_colours() -> list[tuple[int, int, int]]:
    """Every flat colour the pictures draw with, once each, in a fixed order."""
    colours = [FELT, FELT_DARK, INK, SOFT, GOLD, GOLD_INK, *PAIR_COLOURS, FACE[:3],
               (255, 255, 255)]
    for pal in (*PALETTES.values(), BACK):
        colours += [pal.fill, pal.dark, pal.light]
    return list(dict.fromkeys(colours))


def _swatches() -> Image.Image:
    """What the pictures are made of, side by side: every card and the back at the heights
    drawn, on both felts; each ink's text on each ground it is written on; the badges, a
    ring. Its colours, edges included, are the palette's."""
    tiles: list[Image.Image] = []
    for height in CARD_HEIGHTS:
        for ground in (FELT, FELT_DARK):
            for card in (*DECK, None):
                art = card_image(card, height)
                tile = Image.new("RGB", (art.width + 8, height + 8), ground)
                tile.paste(art, (4, 4), art)
                tiles.append(tile)
    inks = [(INK, FELT), (INK, FELT_DARK), (SOFT, FELT), (SOFT, FELT_DARK),
            *((pair, ground) for pair in PAIR_COLOURS for ground in (FELT, FELT_DARK)),
            (GOLD_INK, GOLD), *((FELT_DARK, pair) for pair in PAIR_COLOURS)]
    for ink, ground in inks:
        for size, bold in ((19, True), (28, False), (36, True), (48, True)):
            tile = Image.new("RGB", (600, size + 12), ground)
            ImageDraw.Draw(tile).text((4, 4), "Grande Pareja 1 +2 =12 0123456789 mano ÑéœÁ—",
                                      font=font(size, bold), fill=ink)
            tiles.append(tile)
    for ground in (FELT, FELT_DARK):
        tile = Image.new("RGB", (400, 60), ground)
        draw = ImageDraw.Draw(tile)
        badge(draw, (60, 30), "mano", 40)
        badge(draw, (200, 30), "=12", 30)
        draw.ellipse([300, 10, 340, 50], outline=INK, width=3)
        tiles.append(tile)
    width = 1200
    rows: list[list[Image.Image]] = [[]]
    for tile in tiles:  # rows of tiles, each row as wide as it fits
        if sum(t.width for t in rows[-1]) + tile.width > width:
            rows.append([])
        rows[-1].append(tile)
    sheet = Image.new("RGB", (width, sum(max(t.height for t in row) for row in rows)), FELT)
    y = 0
    for row in rows:
        x = 0
        for tile in row:
            sheet.paste(tile, (x, y))
            x += tile.width
        y += max(t.height for t in row)
    return sheet


@functools.cache
def palette() -> Image.Image:
    """The 256 colours of every picture: the named colours exactly, and the rest chosen by
    Pillow's octree from :func:`_swatches` (about half a second once a process, most of it
    drawing the cards at their sizes, which the pictures then find drawn). The same art gives
    the same palette, so a picture gives the same bytes on every run."""
    named = named_colours()
    chosen = _swatches().quantize(256 - len(named), method=Image.Quantize.FASTOCTREE,
                                  dither=Image.Dither.NONE)
    colours = (chosen.getpalette() or [])[:3 * (256 - len(named))]
    for colour in named:
        colours.extend(colour)
    holder = Image.new("P", (1, 1))
    holder.putpalette(colours)
    return holder


def flat(img: Image.Image) -> Image.Image:
    """The picture in :func:`palette`'s colours, each pixel its nearest (no dithering: flat
    art stays flat)."""
    return img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


@functools.lru_cache(maxsize=256)
def card_on(card: Card | None, height: int, ground: tuple[int, int, int]) -> Image.Image:
    """A card (None: the back) already laid on ``ground``, an opaque picture: copied into a
    picture by a plain paste, the same pixels as laying the card there (41 cards at the two
    sizes on their grounds: 3.3 MB a process). Cached: the caller must not draw on it."""
    art = card_image(card, height)
    tile = Image.new("RGB", art.size, ground)
    tile.paste(art, (0, 0), art)
    return tile


@functools.lru_cache(maxsize=128)
def _badge_piece(text: str, size: int, fill: tuple[int, int, int], ink: tuple[int, int, int],
                 fraction: tuple[float, float]) -> tuple[Image.Image, int, int]:
    """:func:`badge` drawn once on a clear layer, its centre ``fraction`` of a pixel past the
    layer's point (``half_w``, ``half_h``): the layer, ``half_w``, ``half_h``."""
    face = font(max(6, round(size * 0.72)), bold=True)
    left, _, right, _ = face.getbbox(text)
    half_w = math.ceil(max(size, right - left + size * 0.6) / 2) + 2
    half_h = math.ceil(size / 2) + 2
    layer = Image.new("RGBA", (2 * half_w + 2, 2 * half_h + 2), (0, 0, 0, 0))
    badge(ImageDraw.Draw(layer), (half_w + fraction[0], half_h + fraction[1]), text, size,
          fill, ink)
    return layer, half_w, half_h


def lay_badge(img: Image.Image, centre: tuple[float, float], text: str, size: int,
              fill: tuple[int, int, int] = GOLD, ink: tuple[int, int, int] = GOLD_INK) -> None:
    """:func:`badge` on ``img``, laid from a piece drawn once: the same pixels (a pill's
    edges are hard and its text lies on its own fill, so a clear layer loses nothing)."""
    x, y = centre
    left, top = math.floor(x), math.floor(y)
    layer, half_w, half_h = _badge_piece(text, size, fill, ink, (x - left, y - top))
    img.paste(layer, (left - half_w, top - half_h), layer)


def png(img: Image.Image) -> bytes:
    """The picture as a PNG of :func:`palette`'s colours, packed at :data:`COMPRESS_LEVEL`;
    the same bytes every run."""
    out = io.BytesIO()
    flat(img).save(out, "PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
