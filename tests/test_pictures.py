"""Cards, hands and the showdown's table as pictures (issue 43): the same bytes every run, small,
every card its own, legible (a contrast measure standing in for eyes), the hand numbered as
«descarto» counts, names of any text drawn safely, and the table under Discord's 150 KB."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import io
import random
import time

import numpy as np
import pytest
from PIL import Image

from musbot.ai import NormalBot
from musbot.discordio.drawing import in_thread
from musbot.engine import DECK, Hand, Rules
from musbot.engine.cards import parse_card, rank, suit
from musbot.i18n import LANGUAGE_CODES
from musbot.pictures import canvas
from musbot.pictures.cards import (
    EMOJI_SIZE,
    PALETTES,
    art_digest,
    card_image,
    emoji_cards,
    emoji_key,
    emoji_png,
)
from musbot.pictures.fonts import MISSING, font, name_text, visual_order
from musbot.pictures.hand import hand_picture, hand_png, new_cards
from musbot.pictures.table import (
    LAYOUTS,
    LanceRow,
    TableSnapshot,
    lance_results,
    table_png,
)


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


def pixels(img: Image.Image) -> list[tuple[int, ...]]:
    """An image's pixels, row by row (Pillow's ``getdata`` is deprecated)."""
    array = np.asarray(img)
    return [tuple(int(v) for v in p) for p in array.reshape(-1, array.shape[-1])]


def luminance(rgb: tuple[int, ...]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# --- the cards --------------------------------------------------------------------------------

def test_there_are_41_emoji_cards_each_small_square_and_transparent_around() -> None:
    assert len(emoji_cards()) == 41 and emoji_cards()[-1] is None
    for card in emoji_cards():
        data = emoji_png(card)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 16_000, (emoji_key(card), len(data))  # Discord takes 256 KiB
        img = Image.open(io.BytesIO(data))
        assert img.size == (EMOJI_SIZE, EMOJI_SIZE) and img.mode == "RGBA"
        assert img.getpixel((0, EMOJI_SIZE // 2))[3] == 0, "the sides are transparent"


def test_the_art_is_the_same_bytes_on_every_run() -> None:
    before = {emoji_key(c): emoji_png(c) for c in emoji_cards()}
    digests = {emoji_key(c): art_digest(c) for c in emoji_cards()}
    for cached in (emoji_png, card_image, art_digest):
        cached.cache_clear()
    assert {emoji_key(c): emoji_png(c) for c in emoji_cards()} == before
    assert {emoji_key(c): art_digest(c) for c in emoji_cards()} == digests


def test_every_card_is_its_own_picture_even_at_emoji_size() -> None:
    full = {hashlib.sha256(emoji_png(c)).digest() for c in emoji_cards()}
    small = {Image.open(io.BytesIO(emoji_png(c))).resize((22, 22), Image.Resampling.LANCZOS)
             .tobytes() for c in emoji_cards()}
    digests = {art_digest(c) for c in emoji_cards()}
    assert len(full) == len(small) == len(digests) == 41
    assert [emoji_key(c) for c in emoji_cards()[:3]] == ["1o", "2o", "3o"]
    assert emoji_key(None) == "back"


def _rank_area(card: int, height: int) -> list[tuple[int, ...]]:
    """The pixels of the card's top part, where its rank is, inside the border."""
    img = card_image(card, height).convert("RGBA")
    w, h = img.size
    box = img.crop((round(w * 0.15), round(h * 0.10), round(w * 0.85), round(h * 0.45)))
    return [p for p in pixels(box) if p[3] == 255]


@pytest.mark.parametrize("height", [128, 32, 22])
def test_the_rank_stands_out_from_its_ground_at_every_size(height: int) -> None:
    """Legibility's proxy: the rank's region holds a light and a dark that differ by WCAG's
    large-text contrast (3:1) even at 22 px, and by 4.5:1 at full size."""
    need = 4.5 if height == 128 else 3.0
    for card in DECK:
        pixels = sorted(_rank_area(card, height), key=luminance)
        dark, light = pixels[len(pixels) // 20], pixels[-len(pixels) // 20 - 1]
        assert contrast(dark, light) >= need, (emoji_key(card), height, dark, light)


def test_a_figure_is_white_on_the_suit_s_dark_colour_a_number_dark_on_ivory() -> None:
    for card in DECK:
        pixels = _rank_area(card, 128)
        lightest = max(pixels, key=luminance)
        share_dark = sum(luminance(p) < 0.2 for p in pixels) / len(pixels)
        if rank(card) in (10, 11, 12):
            assert share_dark > 0.38, emoji_key(card)
        else:
            assert share_dark < 0.38, emoji_key(card)
        assert luminance(lightest) > 0.85


def _sign(card: int) -> Image.Image:
    img = card_image(card, 128)
    w, h = img.size
    return img.crop((round(w * 0.1), round(h * 0.52), round(w * 0.9), round(h * 0.95)))


def test_each_suit_is_told_by_its_colour_and_by_its_shape() -> None:
    """Colour: the sign's commonest saturated colour is the suit's. Shape: the signs' coloured
    areas overlap little (a colour-blind reader still tells them apart)."""
    masks = {}
    for s in "oceb":
        card = parse_card(f"4{s}")
        sign = _sign(card).convert("RGB")
        fill = PALETTES[s].fill
        near = [p for p in pixels(sign) if sum(abs(a - b) for a, b in zip(p, fill, strict=True))
                < 60]
        assert len(near) > 0.12 * sign.width * sign.height, s
        masks[s] = {i for i, p in enumerate(pixels(sign)) if luminance(p) < 0.75}
    for a in "oceb":
        for b in "oceb":
            if a < b:
                union = masks[a] | masks[b]
                assert len(masks[a] & masks[b]) / len(union) < 0.6, (a, b)
    assert len({suit(c) for c in DECK}) == 4


def test_the_emojis_are_drawn_fast() -> None:
    for cached in (emoji_png, card_image):
        cached.cache_clear()
    start = time.perf_counter()
    for card in emoji_cards():
        emoji_png(card)
    assert time.perf_counter() - start < 3.0  # about 0.35 s on one core


# --- names ------------------------------------------------------------------------------------

HOSTILE = ["@everyone", "\u202eevil\u202c", "\u200f" + "Ane", "x" * 200, "Ane 🇪🇸👍🏽",
           "Z̷̢̛a̸l̵g̶o̴" * 5, "", "\u200b\u200d", "<@123456789012345678>", "שלום עליכם",
           "مرحبا Jon", "名前はとても長いです" * 10, "**negrita** ||spoiler||", "\x00\x1b[31m"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_of_any_text_is_drawn_as_text_that_fits(name: str) -> None:
    face = font(30, bold=True)
    shown = name_text(name, face, 300, bold=True)
    assert face.getlength(shown) <= 300
    assert shown, "never empty: the fallback stands in"
    assert not any(c in shown for c in "\u202e\u202c\u200f\u200b\x00\x1b")


def test_emoji_become_one_replacement_mark_and_rtl_runs_read_right_to_left() -> None:
    face = font(30)
    assert name_text("Ane 🇪🇸👍🏽", face, 500) == f"Ane {MISSING}"
    assert visual_order("abc אבג def") == "abc גבא def"
    assert name_text("x" * 200, face, 200).endswith("…")


# --- the hand ---------------------------------------------------------------------------------

def _slot(img: Image.Image, i: int) -> Image.Image:
    from musbot.pictures.hand import CARD_H, GAP, MARGIN

    width = canvas.card_width(CARD_H)
    top = img.height - MARGIN - canvas_number_h() - 8 - CARD_H
    x = MARGIN + i * (width + GAP)
    return img.crop((x + 20, top + 60, x + width - 20, top + CARD_H - 20))


def canvas_number_h() -> int:
    from musbot.pictures.hand import NUMBER_H

    return NUMBER_H


def test_the_hand_is_drawn_in_the_order_given_the_order_descarto_counts() -> None:
    """Position n under a card is the n-th card of the seat's view, never sorted: the slot of
    each card holds that card's picture."""
    hand = cards("7e", "12o", "1c", "4b")
    img = hand_picture(hand, reyes=4)
    for i, card in enumerate(hand):
        alone = hand_picture((card,), reyes=4)
        assert _slot(img, i).tobytes() == _slot(alone, 0).tobytes(), i
    swapped = hand_picture(cards("12o", "7e", "1c", "4b"), reyes=4)
    assert _slot(swapped, 0).tobytes() == _slot(img, 1).tobytes()


def test_new_cards_are_marked_and_the_others_not() -> None:
    before, after = cards("7e", "12o", "1c", "4b"), cards("7e", "12o", "5c", "6b")
    new = new_cards(before, after)
    assert new == frozenset(cards("5c", "6b"))
    plain = hand_picture(after, reyes=4)
    marked = hand_picture(after, new=new, reyes=4)
    assert marked.height > plain.height, "a row for the «nueva» pills"
    gold = canvas.GOLD
    top_row = marked.crop((0, 0, marked.width, 40)).convert("RGB")
    columns = {x for x in range(top_row.width) for y in range(top_row.height)
               if top_row.getpixel((x, y)) == gold}
    half = marked.width // 2
    assert columns and min(columns) > half - 30, "the pills are over cards 3 and 4 alone"


def test_the_hand_speaks_the_reader_s_language() -> None:
    hand = cards("7e", "12o", "1c", "4b")
    drawn = {hand_png(hand, new={hand[0]}, lang=lang) for lang in LANGUAGE_CODES}
    assert len(drawn) == len(LANGUAGE_CODES)


def test_with_8_reyes_a_3_and_a_2_are_marked_in_the_hand() -> None:
    hand = cards("3o", "2c", "7e", "12b")
    assert hand_png(hand, reyes=8) != hand_png(hand, reyes=4)
    assert canvas.counts_as(hand[0], 8) == 12 and canvas.counts_as(hand[1], 8) == 1
    assert canvas.counts_as(hand[0], 4) is None and canvas.counts_as(hand[2], 8) is None


def test_the_hand_is_small_and_quick() -> None:
    hand = cards("3o", "2c", "7e", "12b")
    hand_png(hand)  # the cards' pictures, once
    start = time.perf_counter()
    data = hand_png(hand, new=set(hand[2:]), lang="eu")
    assert time.perf_counter() - start < 0.5
    assert len(data) < 60_000
    assert hand_png(hand, new=set(hand[2:]), lang="eu") == data


# --- the table --------------------------------------------------------------------------------

FULL_LANCES = (LanceRow(0, 0, 2, "querido"), LanceRow(1, 1, 1, "paso"),
               LanceRow(2, 0, 5, "deje"), LanceRow(3, 1, 40, "ordago"))


def snapshot(players: int = 4, **changes: object) -> TableSnapshot:
    deck = list(DECK)
    random.Random(players).shuffle(deck)
    hands = tuple(tuple(deck[4 * i:4 * i + 4]) for i in range(players))
    names = tuple(HOSTILE[i % len(HOSTILE)] or f"Bot {i + 1}" for i in range(players))
    base = TableSnapshot(names=names, mano=1, hands=hands, lances=FULL_LANCES,
                         scores=(37, 39), target=40, reyes=8, lang="es",
                         extra=("La pareja 1 gana el juego " * 8,))
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_the_table_is_under_150_kb_whatever_it_shows(players: int, lang: str) -> None:
    data = table_png(snapshot(players, lang=lang))
    assert len(data) < 150_000, len(data)
    img = Image.open(io.BytesIO(data))
    assert img.width == 780, "twice the 390 dp a phone shows it across"
    assert img.height < 2 * img.width


def test_every_name_hostile_or_not_is_drawn_without_a_crash() -> None:
    for start in range(0, len(HOSTILE), 4):
        names = tuple((HOSTILE * 2)[start:start + 4])
        table_png(snapshot(4, names=names))
    table_png(snapshot(4, names=("", "", "", ""), hands=(None,) * 4, lances=()))


def test_the_table_is_the_same_bytes_for_the_same_snapshot_and_quick() -> None:
    snap = snapshot(4)
    first = table_png(snap)
    start = time.perf_counter()
    again = table_png(snap)
    assert time.perf_counter() - start < 0.5  # about 15 ms
    assert again == first
    assert asyncio.run(in_thread(table_png, snap)) == first  # the painter's thread, as sent
    assert table_png(dataclasses.replace(snap, mano=2)) != first


def test_the_table_reads_on_both_discord_themes() -> None:
    """Opaque felt with light text: the contrasts hold whatever Discord draws around it."""
    for ground in (canvas.FELT, canvas.FELT_DARK):
        assert contrast(canvas.INK, ground) >= 7
        assert contrast(canvas.SOFT, ground) >= 4.5
        for colour in canvas.PAIR_COLOURS:
            assert contrast(colour, ground) >= 4.5
    assert contrast(canvas.GOLD_INK, canvas.GOLD) >= 7
    img = Image.open(io.BytesIO(table_png(snapshot(4)))).convert("RGBA")
    assert all(img.getpixel((x, y))[3] == 255 for x in (0, 779) for y in (0, img.height - 1))


def test_partners_sit_opposite() -> None:
    four = LAYOUTS[4]
    assert four[0] == (2, "c") and four[2] == (0, "c"), "seat 1 at the bottom, 3 at the top"
    assert {four[1][1], four[3][1]} == {"l", "r"} and four[1][0] == four[3][0]
    assert LAYOUTS[2] == ((1, "c"), (0, "c"))
    six = LAYOUTS[6]
    assert six[0] == (3, "c") and six[3] == (0, "c")
    assert {place for _, place in six[0::2]} == {"c", "r", "l"}, "each team a triangle"


def test_a_snapshot_refuses_an_impossible_table() -> None:
    with pytest.raises(ValueError):
        TableSnapshot(names=("a", "b", "c"), mano=0, hands=(None,) * 3)
    with pytest.raises(ValueError):
        TableSnapshot(names=("a", "b"), mano=0, hands=(None,))
    with pytest.raises(ValueError):
        TableSnapshot(names=("a", "b"), mano=2, hands=(None, None))


def test_lance_results_add_up_a_played_hand_s_scores() -> None:
    rng = random.Random(3)
    bot = NormalBot()
    for _ in range(20):
        deck = list(DECK)
        rng.shuffle(deck)
        hand = Hand(Rules(), [deck[4 * i:4 * i + 4] for i in range(4)], deck[16:], mano=0,
                    scores=(0, 0), reshuffler=lambda d: list(d))
        while hand.to_act is not None:
            hand.apply(hand.to_act, bot.decide(hand.view(hand.to_act), rng))
        results = lance_results(hand.events)
        totals = [sum(r.tantos for r in results if r.team == team) for team in (0, 1)]
        assert tuple(totals) == tuple(hand.scores) or any(r.outcome == "ordago"
                                                          for r in results)
        assert [r.lance for r in results] == sorted(r.lance for r in results)
        table_png(TableSnapshot(names=("A", "B", "C", "D"), mano=0,
                                hands=tuple(tuple(h) for h in hand.hands), lances=results,
                                scores=tuple(hand.scores)))  # type: ignore[arg-type]


def test_the_bench_prints_times_and_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from musbot.cli import main

    assert main(["bench", "pictures", "--runs", "10", "--seed", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["emoji"]["cards"] == 41 and result["emoji"]["max_bytes"] < 16_000
    assert result["hand"]["max_bytes"] < 60_000 and result["table"]["max_bytes"] < 150_000
    assert {"p50_ms", "p99_ms", "first_ms"} <= set(result["table"])
