"""«¿Cómo jugué?» at a table: the hands a review may be asked of.

A table keeps the transcripts of its match's last :data:`KEPT` finished hands and, for every word
said in them, the señas that had reached its speaker then (a seña is part of what a seat knew).
A review is asked of the book as a :class:`~musbot.coach.reviewer.ReviewAsk` — plain data,
taken under the table's lock in a moment — and answered by the
:class:`~musbot.coach.reviewer.Reviewer`'s worker process. Finished hands are kept compressed: a
table keeps five, and a transcript as Python objects is dozens of objects for the garbage
collector to walk.

Saved with the table (:meth:`HandBook.to_json`, the transcripts as they are kept: compressed), so
``/mus repaso`` answers after a restart; a table saved before the book was saved gets an empty
one. The words journaled since the table's last whole save get their señas back from the saved
ones (``saved.py``).
"""

from __future__ import annotations

import base64
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from musbot.engine import Match
from musbot.engine.senas import Sena, SenaSeen

from .reviewer import ReviewAsk, ReviewRefused

KEPT = 5
"""Finished hands of the match kept for review."""


@dataclass(frozen=True, slots=True)
class Holder:
    """The person dealt a seat's cards in a hand; ``upto``: the actions of the hand played
    when they left it (None: they held it to the end)."""

    user_id: int
    upto: int | None = None

    def to_json(self) -> list[int | None]:
        return [self.user_id, self.upto]

    @classmethod
    def from_json(cls, data: list[Any]) -> Holder:
        return cls(int(data[0]), None if data[1] is None else int(data[1]))


@dataclass(slots=True)
class _Hand:
    number: int
    packed: bytes
    """The transcript, as compressed JSON."""
    senas: dict[int, tuple[SenaSeen, ...]] = field(default_factory=dict)
    holders: dict[int, Holder] = field(default_factory=dict)
    """Seat → who was dealt its cards, and how far they played them (a hand kept before
    holders were has none: nobody's to review)."""

    @property
    def transcript(self) -> dict[str, Any]:
        return dict(orjson.loads(zlib.decompress(self.packed)))




@dataclass(frozen=True, slots=True)
class KeptBook:
    """A :class:`HandBook` as it was at a save (``TablePersister`` keeps it beside the saved
    document it leaves out: its hands are compressed already, and held by the table)."""

    match_id: str
    finished: tuple[_Hand, ...]
    current: dict[int, tuple[SenaSeen, ...]]
    holders: dict[int, Holder] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """:meth:`HandBook.to_json` as it was."""
        return {"match_id": self.match_id,
                "finished": [{"number": h.number,
                              "packed": base64.b64encode(h.packed).decode("ascii"),
                              "senas": _senas_json(h.senas),
                              "holders": _holders_json(h.holders)} for h in self.finished],
                "current": _senas_json(self.current),
                "holders": _holders_json(self.holders)}


class HandBook:
    """The hands of the match in play, each reviewed only by the person dealt a seat's cards
    in it, and only as far as they played them: whoever sits there later, or took the seat
    over during the hand, learns nothing of it here."""

    def __init__(self) -> None:
        self.match_id = uuid.uuid4().hex
        self.finished: list[_Hand] = []
        """The last :data:`KEPT`, oldest first (a list: a deque's first block alone is 600
        bytes, and every table keeps a book)."""
        self.current: dict[int, tuple[SenaSeen, ...]] = {}
        """The señas each word of the hand in play was said with, by the word's index."""
        self.holders: dict[int, Holder] = {}
        """Seat → who was dealt its cards in the hand in play."""

    def spoke(self, index: int, seen: Sequence[SenaSeen]) -> None:
        if seen:
            self.current[index] = tuple(seen)

    def dealt(self, seats: dict[int, Any]) -> None:
        """A new hand is dealt to ``seats`` (seat → its occupant): each person holds theirs."""
        self.holders = {seat: Holder(o.user_id) for seat, o in seats.items()
                        if o is not None and o.user_id is not None}

    def left(self, seat: int, played: int) -> None:
        """The seat's holder left the hand after ``played`` of its actions: what came after
        is the bot's, not theirs to review."""
        holder = self.holders.get(seat)
        if holder is not None and holder.upto is None:
            self.holders[seat] = Holder(holder.user_id, played)

    def forget(self, user_id: int) -> bool:
        """«Forget me»: no hand kept is theirs to review any more."""
        found = False
        for holders in (self.holders, *(kept.holders for kept in self.finished)):
            for seat, holder in list(holders.items()):
                if holder.user_id == user_id:
                    del holders[seat]
                    found = True
        return found

    def hand_over(self, number: int, transcript: dict[str, Any]) -> None:
        self.finished.append(_Hand(number, zlib.compress(orjson.dumps(transcript), 1),
                                   self.current, _shared(self.holders, self.finished)))
        del self.finished[:-KEPT]
        self.current = {}
        self.holders = {}

    def new_match(self) -> None:
        self.match_id = uuid.uuid4().hex
        self.finished.clear()
        self.current = {}
        self.holders = {}

    # --- saved with the table ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-able and private (the finished hands' cards, the hand in play's señas): stored
        only with the table's own state."""
        return self.kept().to_json()

    def kept(self) -> KeptBook:
        """The book as it is now, sharing its finished hands (a finished hand never changes)."""
        return KeptBook(self.match_id, tuple(self.finished), dict(self.current),
                        dict(self.holders))

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> HandBook:
        """The book :meth:`to_json` saved; None (a table saved before books were): an empty
        one. Raises ``ValueError`` (or ``KeyError``, ``TypeError``) on a damaged document."""
        book = cls()
        if data is None:
            return book
        book.match_id = str(data["match_id"])
        for kept in data["finished"][-KEPT:]:
            packed = base64.b64decode(kept["packed"], validate=True)
            try:  # a damaged transcript is refused now, not at a review
                orjson.loads(zlib.decompress(packed))
            except zlib.error as exc:
                raise ValueError(f"damaged hand transcript: {exc}") from exc
            book.finished.append(_Hand(int(kept["number"]), packed,
                                       _senas_from(kept["senas"]),
                                       _holders_from(kept.get("holders", []))))
        book.current = _senas_from(data["current"])
        book.holders = _holders_from(data.get("holders", []))
        return book

    def ask(self, match: Match | None, user_id: int, number: int | None,
            lang: str) -> ReviewAsk:
        """The person's review of hand ``number`` (None: the last finished one, or the hand in
        play before any has finished), of the seat they were dealt in it and as far as they
        played it; or :class:`ReviewRefused`, for a hand they held no cards of too."""
        if match is None:
            raise ReviewRefused("no_hands")
        in_play = match.hand if not match.hand.finished and not match.finished else None
        if number is None:
            if self.finished:
                number = self.finished[-1].number
            elif in_play is not None:
                number = match.hand_number
            else:
                raise ReviewRefused("no_hands")
        for kept in self.finished:
            if kept.number == number:
                seat, upto = _held(kept.holders, user_id, number)
                transcript = kept.transcript
                played = len(transcript["actions"])
                return ReviewAsk(transcript, seat, number, _aligned(kept.senas),
                                 played if upto is None else min(upto, played), lang,
                                 self.match_id)
        if in_play is not None and number == match.hand_number:
            seat, upto = _held(self.holders, user_id, number)
            transcript = in_play.transcript()
            played = len(transcript["actions"])
            return ReviewAsk(transcript, seat, number, _aligned(self.current),
                             played if upto is None else min(upto, played), lang,
                             self.match_id)
        numbers = [k.number for k in self.finished]
        if in_play is not None:
            numbers.append(match.hand_number)
        if not numbers:
            raise ReviewRefused("no_hands")
        raise ReviewRefused("no_hand", number=number, kept=KEPT,
                            numbers=", ".join(map(str, numbers)))


def _held(holders: dict[int, Holder], user_id: int, number: int) -> tuple[int, int | None]:
    """The seat the person was dealt in the hand, and how far they played it."""
    for seat, holder in holders.items():
        if holder.user_id == user_id:
            return seat, holder.upto
    raise ReviewRefused("not_your_hand", number=number)


def _holders_json(holders: dict[int, Holder]) -> list[list[Any]]:
    return [[seat, *holder.to_json()] for seat, holder in sorted(holders.items())]


def _holders_from(data: list[list[Any]]) -> dict[int, Holder]:
    return {int(item[0]): Holder.from_json(item[1:]) for item in data}


def _shared(holders: dict[int, Holder], finished: Sequence[_Hand]) -> dict[int, Holder]:
    """A finished hand's holders: the hand before's dict when they are the same (the same people
    held the same seats to the end, as in most hands), one dict for many hands. Only «forget
    me» changes a finished hand's holders, and it changes every hand's alike."""
    if finished and finished[-1].holders == holders:
        return finished[-1].holders
    return holders


def _senas_json(senas: dict[int, tuple[SenaSeen, ...]]) -> list[list[Any]]:
    return [[index, [[s.seat, s.sena.value, s.partner] for s in seen]]
            for index, seen in sorted(senas.items())]


def _senas_from(data: list[list[Any]]) -> dict[int, tuple[SenaSeen, ...]]:
    return {int(index): tuple(SenaSeen(int(seat), Sena(value), bool(partner))
                              for seat, value, partner in seen)
            for index, seen in data}


def _aligned(senas: dict[int, tuple[SenaSeen, ...]]) -> tuple[tuple[SenaSeen, ...], ...]:
    if not senas:
        return ()
    return tuple(senas.get(i, ()) for i in range(max(senas) + 1))


__all__ = ["KEPT", "HandBook", "Holder", "KeptBook"]
