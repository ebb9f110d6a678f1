"""«¿Cómo jugué?» at a table: a review never tells a seat more than its own view held, however
early in the hand it is asked; the table keeps the match's last hands; bad asks get a sentence."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest
from table_helpers import cards_mentioned, make_table, play_humans, seat_humans
from test_i18n import spanish_words

from musbot.coach.book import KEPT
from musbot.coach.review import decisions
from musbot.coach.reviewer import Reviewer, ReviewRefused
from musbot.engine import MusError, Rules, SeatView
from musbot.engine.senas import senas_posibles
from musbot.table.saved import from_json, to_json
from musbot.table.state import TableState


def _public_part(view: SeatView) -> tuple[Any, ...]:
    """Everything of a view the engine builds for the seat (the match's counters aside)."""
    return (view.seat, view.phase, view.lance, view.cards, view.scores, view.discards,
            dict(view.declarations), view.bet, view.ordago, view.speakers, view.legal,
            view.history, view.revealed, view.corrido)


async def test_reviews_asked_during_hands_hold_only_what_the_seat_saw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """People (played by «facil»'s choices) ask for the review of the hand in play before
    their own words, with señas flying: every review sent before the showdown names only cards
    the seat held in that hand, and it was computed from exactly the views the seat had when it
    spoke (taken live, compared with those the review read), none showing another hand. The
    same holds for the table restored from its last whole save and the journal after it, as a
    restart would restore it: it asks exactly what the live table asks. (Each word is played
    out in few worlds here: what is checked is what the reviews read, not their precision.)"""
    from musbot.coach import options

    monkeypatch.setattr(options, "MOST", options.LEAST)
    monkeypatch.setattr(options, "MOST_HAND", options.LEAST)
    rules = Rules(juegos=1, puntos=15, sena_cazada=0.5)
    checked = 0
    for seed in range(3):
        checked += await _asking_match(rules, seed)
    assert checked >= 20


async def _asking_match(rules: Rules, seed: int) -> int:
    """One match where people ask for reviews mid-hand; returns the reviews checked."""
    table, _, _ = make_table(seed, rules=rules, turn_seconds=None)
    await seat_humans(table)
    rng = random.Random(seed)
    live: dict[tuple[int, int], list[SeatView]] = {}
    held: dict[tuple[int, int], set[int]] = {}
    checked = 0
    saved: dict[str, Any] = {}
    """The last whole save (a new deal or new cards, a seña sent) and the hand's moves then."""

    def save_whole() -> None:
        match = table.match
        assert match is not None
        saved.update(document=orjson.loads(orjson.dumps(to_json(table.state))),
                     at=(match.hand_number, match.hand.mus_rounds),
                     moves=len(match.hand.actions))

    def restored() -> TableState:
        match = table.match
        assert match is not None
        if saved.get("at") != (match.hand_number, match.hand.mus_rounds):
            save_whole()  # the moves that dealt cards were saved whole
        journal = [[seat, *action.to_json()]
                   for seat, action in match.hand.actions[saved["moves"]:]]
        return from_json(saved["document"], journal=journal)

    async def before(seat: int, user: int) -> None:
        nonlocal checked
        match = table.match
        assert match is not None
        number = match.hand_number
        for s in range(4):
            held.setdefault((number, s), set()).update(match.view(s).cards)
        live.setdefault((number, seat), []).append(match.view(seat))
        if table.state.senas_open() and rng.random() < 0.3:
            possible = senas_posibles(match.view(seat).cards, rules)
            if possible:
                with contextlib.suppress(MusError):  # already sent on these cards
                    await table.send_sena(user, rng.choice(possible))
                    save_whole()
        if rng.random() > 0.35:
            return
        ask = table.state.review_ask(user, number)
        again = restored().review_ask(user, number)
        assert (again.transcript, again.senas, again.upto, again.seat, again.match_id) == \
            (ask.transcript, ask.senas, ask.upto, ask.seat, ask.match_id)
        assert ask.number == number and ask.seat == seat
        text = ask.answer()
        assert cards_mentioned(text) <= held[(number, seat)], (seat, text)
        found, finished = decisions(ask.transcript, seat, ask.senas, ask.upto)
        assert not finished
        assert [_public_part(d.view) for d in found] == \
            [_public_part(v) for v in live[(number, seat)][:-1]]
        assert all(d.view.revealed is None for d in found)
        checked += 1

    await table.start(1)
    await play_humans(table, rng, via_text=False, before=before)
    return checked


async def test_the_table_keeps_the_last_hands_and_words_refusals() -> None:
    table, _, _ = make_table(4, rules=Rules(juegos=3, puntos=40), turn_seconds=None)
    users = await seat_humans(table)
    await table.start(1)
    rng = random.Random(4)
    reviewer = Reviewer(ThreadPoolExecutor(max_workers=1))
    finished = 0

    def count_hands(seat: int, user: int) -> None:
        nonlocal finished
        match = table.match
        assert match is not None
        finished = match.hand_number - 1

    with pytest.raises(ReviewRefused) as refused:
        table.state.review_ask(users[0], 3)
    assert "3" in refused.value.text("es")
    await play_humans(table, rng, via_text=False, max_steps=120, before=count_hands)
    assert finished > KEPT
    # The last finished hand by default; a hand no longer kept is refused, naming those kept.
    text = await table.review(users[1], reviewer=reviewer)
    assert text.startswith("¿Cómo jugué en la mano")
    with pytest.raises(ReviewRefused) as refused:
        table.state.review_ask(users[1], 1)
    assert refused.value.key == "no_hand"
    assert str(finished) in refused.value.text("en")
    # Someone who held no cards of it is told so: a hand is its holder's to review.
    with pytest.raises(ReviewRefused) as stranger:
        await table.review(99, reviewer=reviewer)
    assert stranger.value.key == "not_your_hand"
    # The same review again is answered from the cache, at once.
    again = await table.review(users[1], reviewer=reviewer)
    assert again == text


async def test_a_review_is_in_its_reader_s_language_not_the_table_s() -> None:
    """Issue 25: the review is a private answer. At a Spanish table a player who chose Basque
    reads it in Basque, one whose client is French in French (the words said as those tables
    show them, percentages and decimal commas as each language writes them), the others in
    Spanish; a refusal too."""
    table, _, _ = make_table(3, rules=Rules(juegos=1, puntos=40), turn_seconds=None)
    users = await seat_humans(table)
    await table.start(1)
    await play_humans(table, random.Random(3), via_text=False, max_steps=40)
    table.speakers.choose(users[1], "eu")
    table.speakers.saw_locale(users[2], "fr")
    reviewer = Reviewer(ThreadPoolExecutor(max_workers=1))
    spanish, basque, french = [await table.review(users[seat], reviewer=reviewer)
                                for seat in range(3)]
    assert re.match(r"¿Cómo jugué en la mano \d+\?", spanish)
    assert re.match(r"Nola jokatu nuen \d+\. eskuan\?", basque)
    assert re.match(r"Comment ai-je joué au coup \d+ \?", french)
    for text, lang in ((basque, "eu"), (french, "fr")):
        assert not spanish_words(text), (lang, spanish_words(text))
        assert "¿" not in text and "dijiste" not in text and "Consejo" not in text
        assert not re.search(r"\d\.\d", text), text  # a decimal comma: «+0,4»
    assert re.search(r"%\d", basque) and not re.search(r"\d %", basque)  # «%37»
    assert re.search(r"\d %", french) and "« " in french  # «37 %», « paso »
    assert "«iduki»" in basque or "«paso»" in basque or "«mus»" in basque
    with pytest.raises(ReviewRefused) as refused:
        table.state.review_ask(users[1], 99, table.lang_for(users[1]))
    assert refused.value.text(table.lang_for(users[1])).startswith("Ez daukat partida honetako")
    assert table.lang == "es"


async def test_one_review_in_flight_per_person() -> None:
    table, _, _ = make_table(2, turn_seconds=None)
    users = await seat_humans(table)
    await table.start(1)
    await play_humans(table, random.Random(2), via_text=False, max_steps=12)
    reviewer = Reviewer(ThreadPoolExecutor(max_workers=1))
    first = asyncio.ensure_future(table.review(users[0], reviewer=reviewer))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    with pytest.raises(ReviewRefused) as refused:
        await table.review(users[0], reviewer=reviewer)
    assert refused.value.key == "busy"
    assert (await first).startswith("¿Cómo jugué")


def test_a_new_match_is_never_answered_from_the_last_ones_cache() -> None:
    """Hand 1 of a rematch is not hand 1 of the match before it: reviews are cached by the
    match's own id, which a new match changes."""
    from musbot.coach.book import HandBook

    book = HandBook()
    before = book.match_id
    book.new_match()
    assert book.match_id != before


async def test_the_kept_hands_survive_a_restart() -> None:
    """The finished hands are saved with the table, compressed as they are kept: the table
    restored from its saved state asks the same review of each (same transcript, señas, match
    id, so the same answer). A state saved before books were saved restores an empty book; a
    damaged book is a damaged state, refused."""
    from musbot.table.saved import StateError

    table, _, _ = make_table(6, rules=Rules(juegos=3, puntos=40), turn_seconds=None)
    users = await seat_humans(table)
    await table.start(1)
    await play_humans(table, random.Random(6), via_text=False, max_steps=60)
    book = table.state.handbook
    assert len(book.finished) >= 2
    document = orjson.loads(orjson.dumps(to_json(table.state)))
    after = from_json(document)
    for kept in book.finished:
        live = table.state.review_ask(users[1], kept.number)
        back = after.review_ask(users[1], kept.number)
        assert (back.transcript, back.senas, back.upto, back.match_id) == \
            (live.transcript, live.senas, live.upto, live.match_id)
    assert [h.packed for h in after.handbook.finished] == [h.packed for h in book.finished]

    older = {k: v for k, v in document.items() if k != "repaso"}
    before_books = from_json(older)
    assert not before_books.handbook.finished and not before_books.handbook.current
    last = book.finished[-1].number
    with pytest.raises(ReviewRefused) as refused:
        before_books.review_ask(users[1], last)
    assert refused.value.key == "no_hand"

    for damage in ({"packed": "not base64!"}, {"packed": "AAAA"}, {"number": "x"},
                   {"senas": [[0, [[1, "no such seña", True]]]]}):
        broken = orjson.loads(orjson.dumps(document))
        broken["repaso"]["finished"][0].update(damage)
        with pytest.raises(StateError):
            from_json(broken)
