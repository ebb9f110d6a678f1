"""Type for the pictures: DejaVu Sans, the face Matplotlib ships (and the tournament's bracket
already draws with), read by Pillow's FreeType; names made safe to draw.

**Licence.** DejaVu Sans is under the Bitstream Vera licence and its public-domain DejaVu
changes: free to use and to embed, shipped beside the font files as ``LICENSE_DEJAVU`` in
Matplotlib's ``mpl-data/fonts/ttf`` (a dependency of musbot). Without those files the pictures
fall back to Pillow's own default face, Aileron Regular (CC0, public domain), which lacks a bold
and most scripts: still legible, never a crash.

**Glyph work once.** A face caches what it renders (:class:`CachedFont`): the same words at
the same size and sub-pixel start are drawn from the bitmap FreeType made the first time, and
measured once. A showdown's lances, scores, badges and the names of a match's four players are
the same text picture after picture: about 0.07 ms a text saved, half of a table's drawing.

**Determinism.** Text is laid out with Pillow's basic engine, never Raqm (present on some
machines, not on others), so the same text gives the same pixels everywhere. A run of
right-to-left letters (Hebrew, Arabic) is put in visual order here, letter by letter, without
Arabic joining: readable, if not typeset.
"""

from __future__ import annotations

import functools
import importlib.util
from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from PIL import Image, ImageFont

from musbot.words import is_mark, right_to_left, visible_name

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

MISSING = "□"
"""Drawn for a character the face lacks (an emoji, a script it does not cover)."""
ELLIPSIS = "…"


@functools.cache
def font_dir() -> Path | None:
    """Matplotlib's font folder, found without importing Matplotlib (a second of start-up)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"
    return folder if (folder / "DejaVuSans.ttf").is_file() else None


GLYPH_CACHE = 256
"""Texts a face keeps rendered (and as many measures): a few kilobytes each (a name at 36 px
is about 300×40 one-byte pixels), so at most a few megabytes a face in the worker process."""


class _Bounded(OrderedDict[Hashable, Any]):
    """A dict that forgets its least recently used entry past ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_or(self, key: Hashable, make: Any) -> Any:
        try:
            self.move_to_end(key)
            return self[key]
        except KeyError:
            value = self[key] = make()
            if len(self) > self.size:
                self.popitem(last=False)
            return value


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType face that renders and measures each plain text once (``ImageDraw.text``
    draws with :meth:`getmask2`, so the pixels are those it would draw without the cache)."""

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size, layout_engine=ImageFont.Layout.BASIC)
        self._masks = _Bounded(GLYPH_CACHE)
        self._measures = _Bounded(GLYPH_CACHE)

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None,
                 stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: Any, **kwargs: Any
                 ) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        """The bitmap of ``text``: FreeType's the first time, the same object after (the
        drawing only reads it)."""
        def render() -> tuple[Image.core.ImagingCore, tuple[int, int]]:
            return super(CachedFont, self).getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start,
                *args, **kwargs)

        if args or direction or features or language or stroke_width \
                or set(kwargs) - {"stroke_filled"}:
            return render()  # a use the pictures do not make: not cached
        return self._masks.get_or((text, mode, anchor, ink, start), render)  # type: ignore[no-any-return]

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        if direction or features or language:
            return super().getlength(text, mode, direction, features, language)
        return self._measures.get_or(  # type: ignore[no-any-return]
            ("length", text, mode), lambda: super(CachedFont, self).getlength(text, mode))

    def getbbox(self, text: str | bytes | bytearray, mode: str = "",
                direction: str | None = None, features: list[str] | None = None,
                language: str | None = None, stroke_width: float = 0,
                anchor: str | None = None) -> tuple[float, float, float, float]:
        if direction or features or language or stroke_width or isinstance(text, bytearray):
            return super().getbbox(text, mode, direction, features, language, stroke_width,
                                   anchor)
        return self._measures.get_or(  # type: ignore[no-any-return]
            ("bbox", text, mode, anchor),
            lambda: super(CachedFont, self).getbbox(text, mode, anchor=anchor))


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold) at ``size`` pixels, caching its glyph work (:class:`CachedFont`);
    Aileron (Pillow's default) without it."""
    folder = font_dir()
    if folder is not None:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        return CachedFont(str(folder / name), size)
    return ImageFont.load_default(size)


@functools.cache
def _charmap(bold: bool) -> frozenset[int]:
    """The code points the face draws (DejaVu's cmap; Aileron's basic Latin without it)."""
    folder = font_dir()
    if folder is None:
        return frozenset(range(0x20, 0x7F)) | frozenset(range(0xA0, 0x180))
    from matplotlib.ft2font import FT2Font  # its extension alone, not pyplot

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return frozenset(FT2Font(str(folder / name)).get_charmap())


def drawable(text: str, bold: bool = False) -> str:
    """``text`` with every character the face lacks drawn as :data:`MISSING` (kept once for a
    run of them: an emoji sequence is one mark, not five)."""
    known = _charmap(bold)
    missing = MISSING if ord(MISSING) in known else "?"
    out: list[str] = []
    for char in text:
        if ord(char) in known or char == " ":
            out.append(char)
        elif is_mark(char) or char == "\u200d" \
                or 0xFE00 <= ord(char) <= 0xFE0F or 0x1F3FB <= ord(char) <= 0x1F3FF:
            continue  # a mark, a joiner or a modifier on a character already replaced
        elif not out or out[-1] != missing:
            out.append(missing)
    return "".join(out)


def visual_order(text: str) -> str:
    """Runs of right-to-left letters reversed in place (a left-to-right line keeps its order):
    the little of the Unicode bidirectional algorithm a one-line name needs."""
    out: list[str] = []
    run: list[str] = []
    for char in text:
        if right_to_left(char) or (run and char == " "):
            run.append(char)
        else:
            if run:
                trailing = len(run) - len("".join(run).rstrip(" "))
                out.extend(reversed(run[:len(run) - trailing]))
                out.extend(" " * trailing)
                run = []
            out.append(char)
    if run:
        out.extend(reversed(run))
    return "".join(out)


def fit(text: str, face: Font, width: float) -> str:
    """``text`` as wide as ``width`` at most, cut with «…» where it must be."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid].rstrip() + ELLIPSIS) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def name_text(name: str, face: Font, width: float, *, bold: bool = False,
              fallback: str = "?") -> str:
    """A person's name ready to draw: what :func:`musbot.words.visible_name` keeps of it (no
    control or direction characters, no piled marks), capped at 64 characters before it is
    measured, characters the face lacks as □, right-to-left runs in visual order, and cut with
    «…» to ``width`` pixels."""
    shown = visible_name(name, 64, fallback) or fallback
    return fit(visual_order(drawable(shown, bold)), face, width)
