"""What the hand's and the table's pictures share: the felt they are drawn on, the badge that
marks a card, and the PNG encoding that keeps them small.

**Both Discord themes.** A picture is opaque, on the green of a card table, with light text:
it reads the same on Discord's dark and light themes (a transparent picture would put light
text on a white page). :data:`INK` on :data:`FELT` has a contrast ratio of about 8:1, past the
7:1 of WCAG's AAA; :data:`SOFT` and the pairs' colours over 4.8:1, past AA's 4.5:1
(``tests/test_pictures.py``).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from musbot.engine.cards import Card, rank

from .cards import ASPECT
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


def png(img: Image.Image, colors: int = 96) -> bytes:
    """The picture as a PNG of at most ``colors`` colours (flat art on felt needs few: a third
    of the bytes of full colour, and Pillow's fast octree quantizer picks them in a few
    milliseconds); the same bytes every run."""
    flat = img.convert("RGB").quantize(colors=colors, method=Image.Quantize.FASTOCTREE,
                                       dither=Image.Dither.NONE)
    out = io.BytesIO()
    flat.save(out, "PNG", compress_level=6)
    return out.getvalue()
