"""The 40 cards of the Spanish deck and a card back, drawn here with Pillow: no downloaded art.

A card is its rank, big, at the top, and its suit's sign below, each in the suit's colour, as
the Spanish deck colours them: oros a gold coin, copas a red cup, espadas a blue sword, bastos a
green club. The suit is told by shape *and* by colour (and by the card's border, in the suit's
colour), so neither a colour-blind reader nor a tiny emoji loses it. The figures keep the
numbers the bot types (10 sota, 11 caballo, 12 rey: ``12o``), white on a band of the suit's dark
colour, so a figure stands out from a number card at a glance. The same art serves 4 and 8
reyes: the table's picture marks a 3 that counts as a rey, not the card.

Everything is drawn at four times its size and reduced once (smooth edges without Pillow's
antialiasing of shapes, which it lacks), from fixed geometry and one font: the same card gives
the same pixels and the same PNG bytes on every run: about 8 ms a card the first time, then
cached (all 41 emojis: a third of a second, 5.6-10.8 KB each).

- :func:`card_image`, :func:`back_image`: a card (or the back) as a Pillow image of a given
  height, for the hand's and the table's pictures.
- :func:`emoji_png`: a card (None: the back) as the 128×128 PNG uploaded as a Discord emoji.
- :func:`emoji_key`, :func:`art_digest`: what names an emoji, and what changes with its art.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from musbot.engine.cards import DECK, Card, card_code, rank, suit

from .fonts import font

SS = 4
"""Supersampling: drawn at this many times the size, then reduced."""
EMOJI_SIZE = 128
"""Discord's emoji size (it shows them at 22-48 px): the upload is a square of this side."""
ASPECT = 0.84
"""Width over height of a card: squarer than a real one (0.64), to fill an emoji's square."""

FACE = (255, 252, 242, 255)
"""Ivory, the card's face."""
WHITE = (255, 255, 255, 255)


@dataclass(frozen=True)
class Palette:
    fill: tuple[int, int, int]
    dark: tuple[int, int, int]
    """Outline, the rank's ink, the figures' band: dark enough for white text on it."""
    light: tuple[int, int, int]


PALETTES: dict[str, Palette] = {
    "o": Palette((242, 183, 5), (125, 82, 0), (255, 228, 122)),
    "c": Palette((211, 47, 47), (127, 16, 16), (255, 150, 140)),
    "e": Palette((30, 99, 198), (11, 47, 107), (156, 195, 255)),
    "b": Palette((46, 139, 58), (20, 80, 28), (142, 216, 154)),
}
BACK = Palette((142, 27, 42), (90, 12, 24), (196, 74, 88))
FIGURES = (10, 11, 12)


def emoji_key(card: Card | None) -> str:
    """What names a card's emoji: its code (``1o``, ``12c``), ``back`` for the back."""
    return "back" if card is None else card_code(card)


# --- the suits' signs: shapes in a unit square, drawn into a mask -------------------------------

Box = tuple[float, float, float, float]
Draw = Callable[[ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], float], None]


def _oros(d: ImageDraw.ImageDraw, p: Callable[[float, float], tuple[float, float]],
          s: float) -> None:
    d.ellipse([p(0.04, 0.04), p(0.96, 0.96)], fill=255)


def _copas(d: ImageDraw.ImageDraw, p: Callable[[float, float], tuple[float, float]],
           s: float) -> None:
    d.pieslice([p(0.08, -0.26), p(0.92, 0.54)], 0, 180, fill=255)   # the bowl
    d.ellipse([p(0.08, 0.04), p(0.92, 0.22)], fill=255)             # its rim
    d.rectangle([p(0.43, 0.50), p(0.57, 0.82)], fill=255)           # the stem
    d.ellipse([p(0.35, 0.57), p(0.65, 0.69)], fill=255)             # the knot
    d.polygon([p(0.42, 0.78), p(0.58, 0.78), p(0.80, 0.93), p(0.20, 0.93)], fill=255)
    d.ellipse([p(0.18, 0.87), p(0.82, 0.99)], fill=255)             # the foot


def _espadas(d: ImageDraw.ImageDraw, p: Callable[[float, float], tuple[float, float]],
             s: float) -> None:
    d.polygon([p(0.5, 0.0), p(0.635, 0.16), p(0.635, 0.62), p(0.365, 0.62), p(0.365, 0.16)],
              fill=255)                                             # the blade
    d.rounded_rectangle([p(0.08, 0.595), p(0.92, 0.715)], radius=0.06 * s, fill=255)
    d.ellipse([p(0.0, 0.575), p(0.16, 0.735)], fill=255)            # the guard's ends
    d.ellipse([p(0.84, 0.575), p(0.999, 0.735)], fill=255)
    d.rectangle([p(0.425, 0.70), p(0.575, 0.88)], fill=255)         # the grip
    d.ellipse([p(0.39, 0.84), p(0.61, 0.999)], fill=255)            # the pommel


def _club_axis(t: float) -> tuple[float, float, float]:
    """The club's centre line, handle (t=0) to head (t=1), and its half-width there."""
    x0, y0, x1, y1 = 0.27, 0.88, 0.62, 0.22
    return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, 0.09 + 0.11 * t


def _bastos(d: ImageDraw.ImageDraw, p: Callable[[float, float], tuple[float, float]],
            s: float) -> None:
    x0, y0, _ = _club_axis(0)
    x1, y1, _ = _club_axis(1)
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # a unit normal to the axis
    left, right = [], []
    for i in range(11):
        x, y, w = _club_axis(i / 10)
        left.append(p(x + nx * w, y + ny * w))
        right.append(p(x - nx * w, y - ny * w))
    d.polygon(left + right[::-1], fill=255)
    for t, r in ((0.0, 0.10), (1.0, 0.21)):
        x, y, _ = _club_axis(t)
        d.ellipse([p(x - r, y - r), p(x + r, y + r)], fill=255)
    for t, side, r in ((0.36, 1, 0.08), (0.64, -1, 0.085)):  # two knots where twigs were cut
        x, y, w = _club_axis(t)
        cx, cy = x + side * nx * (w + 0.01), y + side * ny * (w + 0.01)
        d.ellipse([p(cx - r, cy - r), p(cx + r, cy + r)], fill=255)


def _details(kind: str, d: ImageDraw.ImageDraw,
             p: Callable[[float, float], tuple[float, float]], s: float,
             pal: Palette) -> None:
    """What is drawn over a sign's fill: the coin's rings, the cup's mouth, the blade's
    ridge, the club's grain."""
    line = max(1, round(0.045 * s))
    if kind == "o":
        d.ellipse([p(0.20, 0.20), p(0.80, 0.80)], outline=pal.dark, width=line)
        d.ellipse([p(0.38, 0.38), p(0.62, 0.62)], fill=pal.dark)
        d.ellipse([p(0.18, 0.13), p(0.36, 0.31)], fill=pal.light)
    elif kind == "c":
        d.ellipse([p(0.16, 0.075), p(0.84, 0.185)], fill=pal.dark)
        d.ellipse([p(0.22, 0.30), p(0.34, 0.42)], fill=pal.light)
    elif kind == "e":
        d.line([p(0.5, 0.10), p(0.5, 0.60)], fill=pal.light, width=line)
        d.line([p(0.46, 0.74), p(0.54, 0.77)], fill=pal.dark, width=line)
        d.line([p(0.46, 0.80), p(0.54, 0.83)], fill=pal.dark, width=line)
    elif kind == "b":
        for t in (0.18, 0.50, 0.80):
            x, y, w = _club_axis(t)
            d.line([p(x - 0.55 * w, y - 0.25 * w), p(x + 0.55 * w, y + 0.25 * w)],
                   fill=pal.dark, width=line)


SIGNS: dict[str, Draw] = {"o": _oros, "c": _copas, "e": _espadas, "b": _bastos}


def _sign(kind: str, size: int, pal: Palette) -> Image.Image:
    """A suit's sign as an RGBA image ``size`` pixels square (already supersampled: the caller
    reduces the whole card), with an outline of the suit's dark colour."""
    pad = round(size * 0.06)
    inner = size - 2 * pad

    def p(x: float, y: float) -> tuple[float, float]:
        return pad + x * inner, pad + y * inner

    mask = Image.new("L", (size, size), 0)
    SIGNS[kind](ImageDraw.Draw(mask), p, inner)
    grow = max(2, round(size * 0.035))
    ring = mask.filter(ImageFilter.GaussianBlur(grow / 2)).point(lambda v: 255 if v > 8 else 0)
    out = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    out.paste(pal.dark, (0, 0), ring)
    out.paste(pal.fill, (0, 0), mask)
    details = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    _details(kind, ImageDraw.Draw(details), p, inner, pal)
    clipped = Image.new("L", (size, size), 0)
    clipped.paste(details.getchannel("A"), (0, 0), mask)
    details.putalpha(clipped)
    out.alpha_composite(details)
    return out


# --- text ---------------------------------------------------------------------------------------

def _text(text: str, height: int, max_width: int, color: tuple[int, ...],
          min_squeeze: float = 0.72) -> Image.Image:
    """``text`` in bold, its ink ``height`` pixels tall, narrowed (down to ``min_squeeze``) or
    made smaller to fit ``max_width``: an RGBA image cropped to the ink."""
    size = max(4, round(height / 0.73))  # DejaVu's figures are 0.73 em tall
    face = font(size, bold=True)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    width, ink = mask.size
    scale = height / ink if ink else 1.0
    target_w = width * scale
    squeeze = min(1.0, max_width / target_w) if target_w else 1.0
    if squeeze < min_squeeze:  # narrower would be unreadable: smaller instead
        scale *= squeeze / min_squeeze
        squeeze = min_squeeze
    size_out = (max(1, round(width * scale * squeeze)), max(1, round(ink * scale)))
    mask = mask.resize(size_out, Image.Resampling.LANCZOS)
    out = Image.new("RGBA", size_out, color)
    out.putalpha(mask)
    return out


# --- cards --------------------------------------------------------------------------------------

def _card_shape(width: int, height: int, border: tuple[int, ...], fill: tuple[int, ...]
                ) -> tuple[Image.Image, int]:
    """A blank card (supersampled): rounded, with a border; and the border's width."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = round(width * 0.11)
    line = max(SS, round(width * 0.055))
    d.rounded_rectangle([0, 0, width - 1, height - 1], radius=radius, fill=border)
    d.rounded_rectangle([line, line, width - 1 - line, height - 1 - line],
                        radius=max(1, radius - line), fill=fill)
    return img, line


def _face(card: Card, width: int, height: int) -> Image.Image:
    """A card's face at supersampled size."""
    pal = PALETTES[suit(card)]
    img, line = _card_shape(width, height, (*pal.fill, 255), FACE)
    d = ImageDraw.Draw(img)
    number = rank(card)
    inner_w = width - 2 * line
    top_h = round(height * 0.49)
    if number in FIGURES:
        band = [line, line, width - 1 - line, top_h]
        d.rounded_rectangle(band, radius=max(1, round(width * 0.11) - line), fill=pal.dark)
        d.rectangle([line, line + (top_h - line) // 2, width - 1 - line, top_h], fill=pal.dark)
        ink = WHITE
    else:
        ink = (*pal.dark, 255)
    label = _text(str(number), round(height * 0.37), round(inner_w * 0.9), ink)
    img.alpha_composite(label, ((width - label.width) // 2,
                                line + (top_h - line - label.height) // 2 + round(height * 0.005)))
    sign_size = round(min(inner_w * 1.0, (height - top_h - line) * 1.08))
    sign = _sign(suit(card), sign_size, pal)
    y = top_h + (height - line - top_h - sign_size) // 2 + round(height * 0.005)
    img.alpha_composite(sign, ((width - sign_size) // 2, y))
    return img


def _back(width: int, height: int) -> Image.Image:
    """The back, at supersampled size: a red field of lighter diamonds, a gold coin at its
    heart, an ivory border."""
    img, line = _card_shape(width, height, FACE, (*BACK.fill, 255))
    edge = max(1, line // 3)  # a dark rim: the ivory border would vanish on a white page
    ImageDraw.Draw(img).rounded_rectangle([0, 0, width - 1, height - 1],
                                          radius=round(width * 0.11), outline=BACK.dark,
                                          width=edge)
    field = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(field)
    step = max(4, width // 5)
    for row in range(-1, height // (step // 2) + 2):
        for col in range(-1, width // step + 2):
            cx = col * step + (step // 2 if row & 1 else 0)  # odd rows half a step on
            cy = row * step // 2
            half = step * 0.36
            d.polygon([(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)],
                      fill=BACK.light)
    inside = Image.new("L", (width, height), 0)
    ImageDraw.Draw(inside).rounded_rectangle(
        [line * 2, line * 2, width - 1 - 2 * line, height - 1 - 2 * line],
        radius=max(1, round(width * 0.11) - 2 * line), fill=255)
    img.paste(field, (0, 0), ImageChops.multiply(field.getchannel("A"), inside))
    coin = _sign("o", round(width * 0.5), PALETTES["o"])
    img.alpha_composite(coin, ((width - coin.width) // 2, (height - coin.height) // 2))
    return img


@functools.lru_cache(maxsize=512)
def card_image(card: Card | None, height: int) -> Image.Image:
    """A card (None: the back), ``height`` pixels tall and ``ASPECT`` as wide, on a
    transparent ground. Cached: the caller must not draw on it (``.copy()`` first)."""
    width = max(4, round(height * ASPECT))
    big = _back(width * SS, height * SS) if card is None else _face(card, width * SS, height * SS)
    return big.resize((width, height), Image.Resampling.LANCZOS)


def back_image(height: int) -> Image.Image:
    return card_image(None, height)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


@functools.lru_cache(maxsize=64)
def emoji_png(card: Card | None) -> bytes:
    """The card's emoji: the card :data:`EMOJI_SIZE` pixels tall, centred on a transparent
    square of that side, as PNG bytes (a few kilobytes; Discord takes up to 256 KiB)."""
    square = Image.new("RGBA", (EMOJI_SIZE, EMOJI_SIZE), (0, 0, 0, 0))
    card_img = card_image(card, EMOJI_SIZE)
    square.alpha_composite(card_img, ((EMOJI_SIZE - card_img.width) // 2, 0))
    return _png(square)


def emoji_cards() -> tuple[Card | None, ...]:
    """Every card of the deck, then the back (None): what gets an emoji."""
    return (*DECK, None)


@functools.lru_cache(maxsize=64)
def art_digest(card: Card | None) -> str:
    """Six hex digits that change when the card's picture does (a hash of its pixels, not of
    the PNG's bytes, which a new zlib may pack differently): part of its emoji's name, so
    new art is a new emoji and the old one can be told apart and deleted."""
    img = card_image(card, EMOJI_SIZE)
    return hashlib.sha256(img.tobytes()).hexdigest()[:6]


def strip(cards: Sequence[Card | None], height: int, gap: int) -> Image.Image:
    """Cards side by side (None: a back), ``gap`` pixels apart, on a transparent ground."""
    images = [card_image(c, height) for c in cards]
    width = sum(i.width for i in images) + gap * max(0, len(images) - 1)
    out = Image.new("RGBA", (max(1, width), height), (0, 0, 0, 0))
    x = 0
    for img in images:
        out.alpha_composite(img, (x, 0))
        x += img.width + gap
    return out
