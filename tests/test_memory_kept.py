"""What a live table keeps between moves, kept small (issue 43: at most 70 KB a live table at a
thousand): a finished page's lines and summary packed, the review book's holders shared from
hand to hand, the bots' readings in single precision, the benchmark's people drawing from a few
bytes. Each form reads back exactly what was put in."""

from __future__ import annotations

import math
import random
from array import array

import pytest
from table_helpers import make_table, play_humans, seat_humans

from musbot.ai.reading import Reading
from musbot.bench.load_tables import TableDraws
from musbot.coach.book import KEPT, HandBook
from musbot.i18n import LANGUAGE_CODES, compile_all, compiled
from musbot.table.page import PackedLines, Page, Pages


def test_packed_lines_read_back_as_the_list_they_were() -> None:
    lines = ["🃏 Nueva mano: es mano Ana.", "Ana: envido (van 2).", "— Grande —", 'dice "x"\n']
    packed = PackedLines(lines)
    assert len(packed) == 4 and list(packed) == lines
    assert packed[1] == "Ana: envido (van 2)." and packed[-1] == 'dice "x"\n'
    assert packed[1:3] == lines[1:3] and packed[10:] == []
    assert packed == lines and packed == PackedLines(lines) and packed != lines[:3]
    assert packed != PackedLines(lines[::-1])
    assert PackedLines([]) == [] and not PackedLines([])
    with pytest.raises(IndexError):
        packed[4]
    with pytest.raises(TypeError):
        hash(packed)


def test_a_page_turned_over_is_packed_and_says_the_same() -> None:
    pages = Pages()
    pages.note("Ana se sienta.")
    pages.turn(1)
    pages.note("🃏 Nueva mano: es mano Ana.")
    pages.page.summary = ("Grande: Ana 2", "Fin de la mano. Pareja 1: 2 tantos")
    said = list(pages.page.lines)
    pages.turn(2)
    previous = pages.previous
    assert previous is not None and previous.final
    assert isinstance(previous.lines, PackedLines) and previous.lines == said
    assert isinstance(previous.summary, PackedLines)
    assert list(previous.summary) == ["Grande: Ana 2", "Fin de la mano. Pareja 1: 2 tantos"]
    assert isinstance(pages.page.lines, list)  # the page in play grows as a list
    saved = pages.to_json()["previous"]
    assert saved["lines"] == said and saved["summary"] == list(previous.summary)
    again = Page.from_json_final(saved)
    assert again.lines == previous.lines and again.summary == previous.summary


def test_a_packed_page_written_on_again_grows_as_a_list() -> None:
    """A closed table's last word, or a note after the match's last hand, on a packed page."""
    page = Page(3, 2, lines=["a", "b"])
    page.pack()
    page.note("c")
    assert isinstance(page.lines, list) and page.lines == ["a", "b", "c"]
    assert page.notes[-1] == (0, "c")


def test_forget_me_rewords_a_packed_page_and_keeps_it_packed() -> None:
    page = Page(2, 1, lines=["Ana: envido.", "Bea: quiero."],
                summary=("Grande: +2 para Ana y Carla",))
    page.pack()
    revision = page.revision
    page.rename("Ana", "Jugador 1", None)
    assert isinstance(page.lines, PackedLines) and isinstance(page.summary, PackedLines)
    assert list(page.lines) == ["Jugador 1: envido.", "Bea: quiero."]
    assert list(page.summary) == ["Grande: +2 para Jugador 1 y Carla"]
    assert page.revision == revision + 1


def test_a_failed_save_adopts_a_packed_page_without_showing_it_again() -> None:
    shown = Pages()
    shown.note("x")
    shown.turn(1)
    shown.note("y")
    saved = Pages()
    saved.restore(shown.to_json(), [], [], lambda event, **_: [])
    assert shown.previous is not None and saved.previous is not None
    before = shown.previous
    revision = before.revision
    shown.adopt(saved)
    assert shown.previous is before and before.revision == revision  # the same lines


async def test_a_whole_match_keeps_its_finished_hands_packed_and_whole() -> None:
    """Every hand finished at a real table: the page before is packed, its summary too (also
    when the next hand was dealt in the move that ended it), and reads back as it was shown."""
    table, _, _ = make_table(seed=5)
    await seat_humans(table)
    await table.start(1)
    seen: dict[int, list[str]] = {}

    def look(seat: int, user: int) -> None:
        page = table.state.page
        seen[page.number] = list(page.lines)
        previous = table.state.pages.previous
        if previous is not None and previous.hand_number is not None:
            assert isinstance(previous.lines, PackedLines)
            assert list(previous.lines)[:len(seen.get(previous.number, []))] == \
                seen.get(previous.number, [])
            if previous.summary:
                assert isinstance(previous.summary, PackedLines)

    steps = await play_humans(table, random.Random(5), before=look, max_steps=400)
    assert steps == 400 or table.lifecycle != "playing"
    assert len(seen) >= 3  # several hands turned over


def test_the_review_book_shares_its_holders_while_the_same_people_hold_the_seats() -> None:
    class Sitter:
        def __init__(self, user_id: int | None) -> None:
            self.user_id = user_id

    book = HandBook()
    four = {seat: Sitter(seat + 1) for seat in range(4)}
    for number in range(1, KEPT + 3):
        book.dealt(four)
        book.hand_over(number, {"actions": []})
    assert len(book.finished) == KEPT
    assert len({id(kept.holders) for kept in book.finished}) == 1
    book.dealt(four)
    book.left(2, 3)  # Carla leaves the hand in play: only that hand says so
    assert all(kept.holders[2].upto is None for kept in book.finished)
    book.hand_over(KEPT + 3, {"actions": []})
    assert book.finished[-1].holders[2].upto == 3
    assert book.finished[-1].holders is not book.finished[-2].holders
    book.dealt({**four, 1: Sitter(9)})  # someone else at seat 2: a hand of its own
    book.hand_over(KEPT + 4, {"actions": []})
    assert book.finished[-1].holders[1].user_id == 9
    assert book.forget(1)  # «forget me»: no hand kept is Ana's any more, shared or not
    assert all(0 not in kept.holders for kept in book.finished)
    assert all(kept.holders[3].user_id == 4 for kept in book.finished)


def test_a_reading_keeps_its_counts_in_single_precision_and_saves_them_rounded() -> None:
    reading = Reading()
    assert reading.counts.typecode == "f" and reading.counts.itemsize == 4
    for i in range(40):
        reading.observe(i % 3, (i * 37 % 100) / 100, i % 2, 0)
    again = Reading.from_json(reading.to_json())
    assert again.counts.typecode == "f"
    assert again.to_json() == reading.to_json()
    assert max(abs(a - b) for a, b in zip(again.counts, reading.counts, strict=True)) < 1e-3
    assert isinstance(reading.counts, array)


def test_the_benchmarks_people_draw_the_same_from_the_same_seed() -> None:
    one, same, other = TableDraws("1/people/0"), TableDraws("1/people/0"), TableDraws("1/people/1")
    drawn = [one.random() for _ in range(2000)]
    assert drawn == [same.random() for _ in range(2000)]
    assert drawn[:20] != [other.random() for _ in range(20)]
    assert all(0.0 <= x < 1.0 for x in drawn)
    assert 0.45 < sum(drawn) / len(drawn) < 0.55
    picked = {TableDraws(f"k{i}").choice("abcd") for i in range(200)}
    assert picked == set("abcd")
    waits = TableDraws("arrivals")
    gaps = [waits.expovariate(4.0) for _ in range(5000)]
    assert all(g > 0 and math.isfinite(g) for g in gaps)
    assert 0.22 < sum(gaps) / len(gaps) < 0.28  # a mean of 1/4 s


def test_every_language_is_compiled_at_start() -> None:
    compile_all()
    assert compiled.cache_info().currsize == len(LANGUAGE_CODES)
