"""The table at the showdown, seen from above, as one PNG for the channel.

The seats sit where they sit at a real table, in playing order counter-clockwise from the
bottom, so partners face each other: with four players seat 1 at the bottom, 2 on the right,
3 at the top, 4 on the left; with two, face to face; with six (trios) around a hexagon, each
team a triangle. Each seat shows its name (a person's text, drawn as text: see
:func:`musbot.pictures.fonts.name_text`), a chip of its pair's colour, the «mano» mark, and
its cards face up (backs for a hand not shown). Below: each lance, the pair that won it and
what it scored; then each pair's tantos, as a number and as amarrakos (a stone per five);
with 8 reyes, a 3 carries «=12» and a 2 «=1», and a line says why.

**Readable on a phone.** The picture is laid out for a phone's width, :data:`DISPLAY_WIDTH` dp
(what Discord shows when the picture is tapped), and drawn at :data:`SCALE` times that, sharp
on a phone's dense screen. In the chat, beside the avatar, Discord shows it narrower, about
:data:`CHAT_WIDTH` dp: the type is sized for that, names :data:`NAME` dp (13 there) and the
smallest text :data:`SMALL` dp (10 there). Opaque, light text on the felt
(:mod:`musbot.pictures.canvas`): both Discord themes. Under 150 KB (about a third of that),
made in about 5 ms once the palette and the cards are drawn: 1.5 to draw (the cards laid on the
felt from :func:`musbot.pictures.canvas.card_on`, the words from the faces' glyph cache), 1 to
map to the palette, 2.5 to pack.

The input is a plain frozen value (:class:`TableSnapshot`), built by the caller from what the
showdown made public, so drawing never touches a live table: :func:`table_png` is pure and
CPU-bound, drawn off the event loop by the bot's painter (:mod:`musbot.discordio.drawing`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from musbot.engine import Rules
from musbot.engine import events as ev
from musbot.engine.cards import Card
from musbot.i18n import COMMON, LANCE_NAME, PICTURE_WORDS, SCORE_KIND, TABLE

from .canvas import (
    FELT,
    FELT_DARK,
    GOLD,
    GOLD_INK,
    INK,
    PAIR_COLOURS,
    SOFT,
    badge,
    card_on,
    card_width,
    counts_as,
    png,
)
from .fonts import font, name_text

DISPLAY_WIDTH = 390
"""dp across which a phone shows the picture, tapped."""
CHAT_WIDTH = 290
"""dp across which Discord shows it in the chat on such a phone."""
SCALE = 2
WIDTH = DISPLAY_WIDTH * SCALE
MARGIN = 8
CARD_H = 50
CARD_GAP = 3
NAME_H = 26
ROW_GAP = 14
LINE_H = 28
SCORE_H = 38
NAME = 18
"""dp: names, lances."""
SMALL = 14
"""dp: the smallest text (a lance's kind, the legend): 10 dp in the chat, 14 tapped."""
BIG = 24

KINDS = {"paso": "paso", "querido": "apuesta", "deje": "deje", "ordago": "ordago"}
"""A lance's outcome → its word in the ``SCORE_KINDS`` catalogue section."""


@dataclass(frozen=True, slots=True)
class LanceRow:
    """One lance's row in the showdown picture: the pair that took it (0 or 1; None if nobody) and
    the tantos it scored there; ``outcome`` as :class:`musbot.engine.events.LanceEnded` says
    it (``paso``, ``querido``, ``deje``, ``ordago``; None: played without betting)."""

    lance: int
    """A :class:`musbot.engine.Lance` (0 Grande … 4 Punto)."""
    team: int | None
    tantos: int
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """What the showdown's picture shows: the seats' names in playing order, the mano, each
    seat's cards (None: not shown), the lances' results, the pairs' tantos and the target,
    the reyes rule (8: mark the 3s and 2s) and the reader's language."""

    names: tuple[str, ...]
    mano: int
    hands: tuple[tuple[Card, ...] | None, ...]
    lances: tuple[LanceRow, ...] = ()
    scores: tuple[int, int] = (0, 0)
    target: int = 40
    reyes: int = 8
    lang: str = "es"
    extra: tuple[str, ...] = field(default=())
    """Lines of the caller's under the score (already worded), e.g. who won the game."""

    def __post_init__(self) -> None:
        players = len(self.names)
        if players not in LAYOUTS:
            raise ValueError(f"a table of 2, 4 or 6 seats, not {players}")
        if len(self.hands) != players:
            raise ValueError(f"{players} names but {len(self.hands)} hands")
        if not 0 <= self.mano < players:
            raise ValueError(f"no seat {self.mano} among {players}")


def lance_results(events: Iterable[ev.Event]) -> tuple[LanceRow, ...]:
    """The lances of a hand's public events, as :class:`TableSnapshot` takes them: each lance
    that was played or scored, in order, with the tantos its ``Scored`` steps gave, by pair."""
    outcome: dict[int, str | None] = {}
    scored: dict[tuple[int, int], int] = {}
    for event in events:
        if isinstance(event, ev.LanceEnded):
            outcome[int(event.lance)] = event.outcome
        elif isinstance(event, ev.LanceWithoutBetting):
            outcome.setdefault(int(event.lance), None)
        elif isinstance(event, ev.Scored) and event.kind != "ordago":
            key = (int(event.lance), event.team)
            scored[key] = scored.get(key, 0) + event.tantos
    out = []
    for lance in sorted(set(outcome) | {lance for lance, _ in scored}):
        teams = sorted(team for (lc, team) in scored if lc == lance)
        if not teams:
            out.append(LanceRow(lance, None, 0, outcome.get(lance)))
        for team in teams:
            out.append(LanceRow(lance, team, scored[(lance, team)], outcome.get(lance)))
    return tuple(out)


# --- where the seats sit --------------------------------------------------------------------------

Slot = tuple[int, str]
"""A row of the table (0 at the top) and a place in it: ``c`` centre, ``l`` left, ``r`` right."""

LAYOUTS: dict[int, tuple[Slot, ...]] = {
    2: ((1, "c"), (0, "c")),
    4: ((2, "c"), (1, "r"), (0, "c"), (1, "l")),
    6: ((3, "c"), (2, "r"), (1, "r"), (0, "c"), (1, "l"), (2, "l")),
}
"""Each seat's slot, in playing order counter-clockwise from the bottom (docs/rules.md §1, §8)."""


def _px(dp: float) -> int:
    return round(dp * SCALE)


class _Painter:
    def __init__(self, snap: TableSnapshot) -> None:
        self.snap = snap
        self.card_h = _px(CARD_H)
        self.card_w = card_width(self.card_h)
        self.block_w = 4 * self.card_w + 3 * _px(CARD_GAP)
        self.block_h = _px(NAME_H) + self.card_h
        self.rows = max(row for row, _ in LAYOUTS[len(snap.names)]) + 1

    # The table.

    def height(self) -> int:
        table = _px(MARGIN) + self.rows * self.block_h + (self.rows - 1) * _px(ROW_GAP)
        lines = len(self.snap.lances) * _px(LINE_H)
        score = 2 * _px(SCORE_H)
        legend = _px(SMALL + 8) * ((self.snap.reyes == 8) + len(self.snap.extra))
        return table + _px(MARGIN * 2) + lines + _px(6) + score + legend + _px(MARGIN)

    def draw(self) -> Image.Image:
        img = Image.new("RGB", (WIDTH, self.height()), FELT)
        d = ImageDraw.Draw(img)
        top = _px(MARGIN)
        table_h = self.rows * self.block_h + (self.rows - 1) * _px(ROW_GAP)
        inset = _px(MARGIN / 2)
        d.rounded_rectangle([inset, top - inset, WIDTH - inset, top + table_h + inset],
                            radius=_px(36), fill=FELT_DARK)
        for seat, (row, place) in enumerate(LAYOUTS[len(self.snap.names)]):
            x = {"c": (WIDTH - self.block_w) // 2, "l": _px(MARGIN),
                 "r": WIDTH - _px(MARGIN) - self.block_w}[place]
            y = top + row * (self.block_h + _px(ROW_GAP))
            self.seat(img, d, seat, x, y)
        y = top + table_h + _px(MARGIN * 2)
        for result in self.snap.lances:
            self.lance(d, result, y)
            y += _px(LINE_H)
        y += _px(6)
        for team in (0, 1):
            self.score(d, team, y)
            y += _px(SCORE_H)
        lines = ([PICTURE_WORDS("legend_reyes", self.snap.lang)]
                 if self.snap.reyes == 8 else []) + list(self.snap.extra)
        small = font(_px(SMALL))
        for line in lines:
            d.text((_px(MARGIN), y + _px(3)), name_text(line, small, WIDTH - _px(2 * MARGIN)),
                   font=small, fill=SOFT)
            y += _px(SMALL + 8)
        return img

    def seat(self, img: Image.Image, d: ImageDraw.ImageDraw, seat: int, x: int, y: int) -> None:
        snap = self.snap
        team = Rules.team(seat)
        face = font(_px(NAME), bold=True)
        chip = _px(NAME_H - 6)
        cy = y + _px(NAME_H) / 2 - _px(1)
        d.ellipse([x, cy - chip / 2, x + chip, cy + chip / 2], fill=PAIR_COLOURS[team])
        label = str(team + 1)
        small = font(_px(SMALL), bold=True)
        left, up, right, down = small.getbbox(label)
        d.text((x + chip / 2 - (left + right) / 2, cy - (up + down) / 2), label, font=small,
               fill=FELT_DARK)
        room = self.block_w - chip - _px(6)
        mano_w = 0
        if seat == snap.mano:
            mano = PICTURE_WORDS("mano", snap.lang)
            mano_w = round(small.getlength(mano)) + _px(SMALL * 0.6) + _px(6)
            room -= mano_w
        fallback = COMMON("SEAT", snap.lang, seat=seat + 1)
        shown = name_text(snap.names[seat] or fallback, face, room, bold=True, fallback=fallback)
        name_x = x + chip + _px(6)
        d.text((name_x, cy), shown, font=face, fill=INK, anchor="lm")
        if seat == snap.mano:
            end = name_x + face.getlength(shown) + _px(6)
            badge(d, (end + (mano_w - _px(6)) / 2, cy), PICTURE_WORDS("mano", snap.lang),
                  _px(NAME_H - 6), GOLD, GOLD_INK)
        hand = snap.hands[seat]
        cards: Sequence[Card | None] = hand if hand is not None else (None,) * 4
        cards_y = y + _px(NAME_H)
        for i, card in enumerate(cards[:4] if len(cards) > 4 else cards):
            cx = x + i * (self.card_w + _px(CARD_GAP))
            img.paste(card_on(card, self.card_h, FELT_DARK), (cx, cards_y))  # on the panel
            target = counts_as(card, snap.reyes) if card is not None else None
            if target is not None:
                badge(d, (cx + self.card_w / 2, cards_y + self.card_h), f"={target}",
                      _px(15))  # on the card's foot: its rank and suit stay in sight

    def lance(self, d: ImageDraw.ImageDraw, result: LanceRow, y: int) -> None:
        face = font(_px(NAME), bold=True)
        small = font(_px(SMALL))
        x = _px(MARGIN)
        cy = y + _px(LINE_H) / 2
        name = LANCE_NAME.get(result.lance, self.snap.lang, str(result.lance))
        d.text((x, cy), name, font=face, fill=INK, anchor="lm")
        kind = KINDS.get(result.outcome or "")
        if kind is not None:
            said = SCORE_KIND.get(kind, self.snap.lang, kind)
            kind_x = max(x + _px(92), x + face.getlength(name) + _px(10))
            d.text((kind_x, cy), said, font=small, fill=SOFT, anchor="lm")
        right_x = WIDTH - _px(MARGIN)
        if result.team is None:
            text, colour = "—", SOFT
        else:
            text = f"{TABLE('pair_label', self.snap.lang, label=result.team + 1)}"
            text += f"  +{result.tantos}"
            colour = PAIR_COLOURS[result.team]
        d.text((right_x, cy), text, font=face, fill=colour, anchor="rm")
        d.line([x, y + _px(LINE_H) - 1, right_x, y + _px(LINE_H) - 1], fill=FELT_DARK,
               width=max(1, _px(1)))

    def score(self, d: ImageDraw.ImageDraw, team: int, y: int) -> None:
        snap = self.snap
        face = font(_px(NAME), bold=True)
        big = font(_px(BIG), bold=True)
        small = font(_px(SMALL))
        x = _px(MARGIN)
        cy = y + _px(SCORE_H) / 2
        label = TABLE("pair_label", snap.lang, label=team + 1)
        d.text((x, cy), label, font=face, fill=PAIR_COLOURS[team], anchor="lm")
        target = f"/{snap.target}"
        right_x = WIDTH - _px(MARGIN)
        baseline = cy + _px(BIG * 0.36)
        d.text((right_x, baseline), target, font=small, fill=SOFT, anchor="rs")
        number_x = right_x - small.getlength(target) - _px(3)
        number = str(snap.scores[team])
        d.text((number_x, baseline), number, font=big, fill=INK, anchor="rs")
        # The amarrakos (a stone per five tantos) and the tantos left over (pebbles), between
        # the label and the number, smaller if a long game needs more of them.
        tantos = max(0, snap.scores[team])
        amarrakos, rest = divmod(tantos, 5)
        start = x + max(_px(96), face.getlength(label) + _px(10))
        room = number_x - big.getlength(number) - _px(10) - start
        stone, pebble, gap = _px(11), _px(5), _px(3)
        need = amarrakos * (stone + gap) + rest * (pebble + gap)
        shrink = min(1.0, room / need) if need > 0 else 1.0
        stone, pebble, gap = stone * shrink, pebble * shrink, gap * shrink
        sx = start
        for _ in range(amarrakos):
            d.ellipse([sx, cy - stone / 2, sx + stone, cy + stone / 2], fill=INK)
            sx += stone + gap
        for _ in range(rest):
            d.ellipse([sx, cy - pebble / 2, sx + pebble, cy + pebble / 2], fill=SOFT)
            sx += pebble + gap


def table_picture(snapshot: TableSnapshot) -> Image.Image:
    """The picture as a Pillow image; :func:`table_png` encodes it."""
    return _Painter(snapshot).draw()


def table_png(snapshot: TableSnapshot) -> bytes:
    """The showdown's picture as PNG bytes: pure, CPU-bound (about 5 ms), the same bytes for
    the same snapshot."""
    return png(table_picture(snapshot))

