"""A table's state as a JSON document and back: what restart safety saves.

The document holds cards (the match's deal and moves): it is private, and stored only where the
table's own storage keeps it. Its format is versioned (:data:`STATE_VERSION`); an older one is
read as it was written, a newer one refused with :class:`StateError`, so it can wait in the
database for a newer musbot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from musbot.coach.book import HandBook
from musbot.engine import Match, Shuffler, secure_shuffle
from musbot.engine.cards import Card
from musbot.engine.senas import SenaLog
from musbot.settings import TableSettings

from .entry import Entry
from .readings import TableReadings
from .seats import Seat
from .state import TableState

STATE_VERSION = 3
"""1: before pages; 2: the settings as separate keys (``rules``, ``lang``, ``turn_seconds``,
``bot_level``) and the lifecycle as ``state``; 3: ``settings`` and ``lifecycle``."""
LIFECYCLES = ("waiting", "playing", "finished", "closed")


class StateError(ValueError):
    """A saved table state this musbot cannot restore (newer format, damaged document)."""


class SeededShuffler:
    """A reproducible shuffler whose position is saved with the table, so a restored table deals
    the decks the uninterrupted one would have: tests and ``--seed`` demos, never real tables
    (those use the engine's ``secure_shuffle``, and nothing about it is saved)."""

    def __init__(self, seed: int | str, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws
        """How many decks it has shuffled: deck ``n`` depends only on the seed and ``n``."""

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        rng = random.Random(f"{self.seed}/{self.draws}")
        self.draws += 1
        return rng.sample(list(cards), len(cards))

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "draws": self.draws}


def seeded(state: TableState) -> bool:
    """A seeded table's random generator is saved with it and moves on with every bot's
    decision, so its moves are never journaled alone (see ``persist.py``)."""
    return isinstance(state.shuffler, SeededShuffler)


def to_json(state: TableState) -> dict[str, Any]:
    """Everything needed to put the table back exactly as it is: JSON-able, private (cards)."""
    return {
        "version": STATE_VERSION,
        "channel_id": state.channel_id,
        "guild_id": state.guild_id,
        "opener_id": state.opener_id,
        "league_id": state.league_id,
        "settings": state.settings.to_json(),
        "lifecycle": state.lifecycle,
        "seats": [None if s is None else s.to_json() for s in state.seats],
        "first_mano": state.first_mano,
        "bots_alone": state.bots_alone,
        **state.entry.to_json(),
        "turn": state.turn,
        "senas": state.senas.to_json(),
        "rng": _rng_state(state),
        "shuffler": state.shuffler.to_dict() if isinstance(state.shuffler, SeededShuffler)
        else None,
        "match": None if state.match is None else state.match.snapshot(),
        "match_info": state.records.info,
        "outbox": state.records.outbox,
        "readings_off": state.readings.to_json(state.humans()),
        "repaso": state.handbook.to_json(),
        **({"left_deal": sorted(state.left_deal)} if state.left_deal else {}),
        "bot_readings": state.readings.bots(state.seats, state.settings.bot_level),
        **state.pages.to_json(),
    }


def _rng_state(state: TableState) -> list[Any] | None:
    """The table's random state, only where a restored table must go on exactly as before: a
    seeded one (tests, ``--seed`` demos). A real table deals with ``secure_shuffle``, which is
    not saved either, so its bots and caught señas may as well start from fresh randomness, and
    the 625 numbers of the generator (three quarters of the state) are not rewritten after every
    action."""
    if not seeded(state):
        return None
    version, internal, gauss = state.rng.getstate()
    return [version, list(internal), gauss]


def from_json(document: dict[str, Any], *, journal: Sequence[Any] = (), kept: bool = False,
              shuffler: Shuffler = secure_shuffle, rng: random.Random | None = None
              ) -> TableState:
    """The state :func:`to_json` saved (or an older musbot did), with the moves of its
    ``journal`` played again (the engine checks each). ``shuffler`` and ``rng`` are used where
    the document keeps none (a table's own, going back to what it stored). Raises
    :class:`StateError`."""
    if document.get("version") not in (1, 2, STATE_VERSION):
        raise StateError(f"unknown table state version {document.get('version')!r}")
    try:
        state = _build(_with_journal(document, journal), kept, shuffler, rng)
        if journal:
            # The señas each journaled word was said with: the saved ones (a seña sent, like
            # new cards, saves the state whole, so none came between the save and the word).
            first = len(document["match"]["hand"]["actions"])
            for k, entry in enumerate(journal):
                state.handbook.spoke(first + k, state.senas.seen_by(int(entry[0])))
        return state
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise StateError(f"damaged table state: {exc!r}") from exc


def reloaded(old: TableState, document: dict[str, Any] | None, journal: Sequence[Any]
             ) -> TableState:
    """``old`` as last stored (``document`` None: as it was opened), after a save that failed,
    with the same page objects: whoever shows them holds them, and a new object would read as
    a new page. Its own shuffler and random generator go on where the document keeps none."""
    if document is None:
        fresh = TableState(old.channel_id, old.settings, guild_id=old.guild_id,
                           opener_id=old.opener_id, league_id=old.league_id,
                           bots_alone=old.bots_alone, first_mano=old.first_mano, rng=old.rng,
                           shuffler=old.shuffler, kept=old.records.kept,
                           entry=old.entry)
    else:
        fresh = from_json(document, journal=journal, kept=old.records.kept,
                          shuffler=old.shuffler, rng=old.rng)
    old.pages.adopt(fresh.pages)
    fresh.pages = old.pages
    fresh.readings = old.readings  # what the bots learnt lives in memory, saved or not…
    fresh.readings.dealt_to = None  # …and a hand played again is not learnt twice
    return fresh


def _with_journal(document: dict[str, Any], journal: Sequence[Any]) -> dict[str, Any]:
    """The document with the journal's moves added to its hand's actions and to the table's
    turn count; the saved document is not changed."""
    if not journal:
        return document
    if document.get("lifecycle", document.get("state")) != "playing" or \
            document["match"] is None:
        raise ValueError("a journal without a match in play")
    match = document["match"]
    hand = {**match["hand"], "actions": [*match["hand"]["actions"], *journal]}
    return {**document, "match": {**match, "hand": hand},
            "turn": int(document["turn"]) + len(journal)}


def _settings(document: dict[str, Any]) -> TableSettings:
    if "settings" in document:
        return TableSettings.from_json(document["settings"])
    old = {"rules": document["rules"], "lang": document["lang"],
           "turn_seconds": document["turn_seconds"], "bot_level": document["bot_level"]}
    return TableSettings.from_json(old)


def _build(document: dict[str, Any], kept: bool, shuffler: Shuffler,
           own_rng: random.Random | None) -> TableState:
    rng = own_rng or random.Random()
    if document["rng"] is not None:
        rng = random.Random()
        version, internal, gauss = document["rng"]
        rng.setstate((version, tuple(internal), gauss))
    if document.get("shuffler") is not None:
        shuffler = SeededShuffler(document["shuffler"]["seed"], document["shuffler"]["draws"])
    settings = _settings(document)
    state = TableState(int(document["channel_id"]), settings, guild_id=document["guild_id"],
                       opener_id=document.get("opener_id"), league_id=document["league_id"],
                       bots_alone=bool(document["bots_alone"]),
                       first_mano=document["first_mano"], rng=rng, shuffler=shuffler, kept=kept,
                       entry=Entry.from_json(document))
    seats = [None if s is None else Seat.from_json(s, settings.bot_level)
             for s in document["seats"]]
    if len(seats) != state.players:
        raise ValueError("seats do not match the rules")
    state.seating.seats = seats
    if document["match"] is not None:
        state.match = Match.restore(document["match"], shuffler=shuffler)
    lifecycle = document.get("lifecycle", document.get("state"))
    if lifecycle not in LIFECYCLES or (lifecycle == "playing" and state.match is None):
        raise ValueError(f"bad table lifecycle {lifecycle!r}")
    state.lifecycle = lifecycle
    state.turn = int(document["turn"])
    state.senas = SenaLog.from_json(document["senas"])
    state.records.info = document["match_info"]
    state.records.outbox = list(document["outbox"])
    state.readings = TableReadings.from_json(document.get("readings_off"),
                                             document.get("bot_readings"))
    state.handbook = HandBook.from_json(document.get("repaso"))  # None: saved before books
    state.left_deal = {int(user) for user in document.get("left_deal", [])}
    _restore_pages(state, document)
    return state


def _restore_pages(state: TableState, document: dict[str, Any]) -> None:
    match = state.match
    saved = document.get("page") or {"number": 1,  # a state from before pages
                                     "hand": None if match is None else match.hand_number}
    on_hand = match is not None and saved.get("hand") is not None
    events = list(match.hand.events) if on_hand and match is not None else []
    state.pages.restore({"page": saved, "previous": document.get("previous")}, events,
                        state.page_tail() if on_hand else (), state.event_renderer())


__all__ = ["STATE_VERSION", "SeededShuffler", "StateError", "from_json", "reloaded", "seeded",
           "to_json"]
