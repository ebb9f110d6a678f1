"""A table as a JSON document and back: what restart safety saves after each change.

The document holds cards (the match's deal and moves): it is private, and stored only where the
table's own storage keeps it. Its format is versioned (:data:`STATE_VERSION`); a newer one is
refused with :class:`StateError`, so it can wait in the database for a newer musbot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from musbot.ai import DEFAULT_LEVEL, LEVELS
from musbot.engine import Match, Rules
from musbot.engine.cards import Card
from musbot.engine.senas import SenaLog

from .seating import Seat

if TYPE_CHECKING:
    from .table import Table
    from .transport import Transport

STATE_VERSION = 2
"""1: before pages (restored as a table without its notes and message references)."""
STATES = ("waiting", "playing", "finished", "closed")


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


def seeded(table: Table) -> bool:
    """A seeded table's random generator is saved with it and moves on with every bot's
    decision, so its moves are never journaled alone (see ``persist.py``)."""
    return isinstance(table.shuffler, SeededShuffler)


def to_state(table: Table) -> dict[str, Any]:
    """Everything needed to put the table back exactly as it is: JSON-able, private (cards)."""
    return {
        "version": STATE_VERSION,
        "channel_id": table.channel_id,
        "guild_id": table.guild_id,
        "opener_id": table.opener_id,
        "league_id": table.league_id,
        "rules": table.rules.to_dict(),
        "state": table.state,
        "seats": [None if s is None else s.to_json() for s in table.seats],
        "first_mano": table.first_mano,
        "lang": table.lang,
        "turn_seconds": table.turn_seconds,
        "bot_level": table.bot_level,
        "bots_alone": table.bots_alone,
        "turn": table.turn,
        "senas": table.senas.to_json(),
        "rng": _rng_state(table),
        "shuffler": table.shuffler.to_dict() if isinstance(table.shuffler, SeededShuffler)
        else None,
        "match": None if table.match is None else table.match.snapshot(),
        "match_info": table.records.info,
        "outbox": table.records.outbox,
        **table.pages.to_json(),
    }


def _rng_state(table: Table) -> list[Any] | None:
    """The table's random state, only where a restored table must go on exactly as before: a
    seeded one (tests, ``--seed`` demos). A real table deals with ``secure_shuffle``, which is
    not saved either, so its bots and caught señas may as well start from fresh randomness, and
    the 625 numbers of the generator (three quarters of the state) are not rewritten after every
    action."""
    if not seeded(table):
        return None
    version, internal, gauss = table.rng.getstate()
    return [version, list(internal), gauss]


def from_state(state: dict[str, Any], transport: Transport, *, journal: Sequence[Any] = (),
               **options: Any) -> Table:
    """The table :func:`to_state` saved, with the moves of its ``journal`` played again (the
    engine checks each). ``options`` are the manager's (clock, bot_delay, hooks); the saved
    settings win over them. Raises :class:`StateError`."""
    if state.get("version") not in (1, STATE_VERSION):
        raise StateError(f"unknown table state version {state.get('version')!r}")
    try:
        return _build(_with_journal(state, journal), transport, options)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise StateError(f"damaged table state: {exc!r}") from exc


def _with_journal(state: dict[str, Any], journal: Sequence[Any]) -> dict[str, Any]:
    """The state with the journal's moves added to its hand's actions and to the table's turn
    count; the saved document is not changed."""
    if not journal:
        return state
    if state["state"] != "playing" or state["match"] is None:
        raise ValueError("a journal without a match in play")
    match = state["match"]
    hand = {**match["hand"], "actions": [*match["hand"]["actions"], *journal]}
    return {**state, "match": {**match, "hand": hand}, "turn": int(state["turn"]) + len(journal)}


def reload(table: Table, state: dict[str, Any] | None, journal: Sequence[Any] = ()) -> None:
    """Puts ``table`` back as ``state`` and ``journal`` restore it (a save that failed, see
    ``pause.py``), in place: the same :class:`Table`, and the same page objects where the same
    page is meant, since the cogs, the transport and the tasks waiting for the table's lock hold
    them. ``state`` None: nothing was stored yet, the table is as it was opened (its seats empty,
    no match). A state that cannot be restored leaves the table as it is (logged by the caller's
    hook, which keeps what it stored)."""
    from .table import Table

    if state is None:
        fresh = Table(table.channel_id, table.transport, rules=table.rules, clock=table.clock,
                      rng=table.rng, shuffler=table.shuffler, first_mano=table.first_mano,
                      turn_seconds=table.turn_seconds, bot_level=table.bot_level,
                      lang=table.lang, bots_alone=table.bots_alone, guild_id=table.guild_id,
                      opener_id=table.opener_id, league_id=table.league_id)
        other = fresh
    else:
        seeded_state = state.get("shuffler") is not None
        options: dict[str, Any] = {"clock": table.clock}
        if not seeded_state:
            options["shuffler"] = table.shuffler  # not saved: the table's own goes on
        other = from_state(state, table.transport, journal=journal, **options)
        table.shuffler = other.shuffler
        if state.get("rng") is not None:
            table.rng = other.rng
    for key in ("rules", "first_mano", "lang", "turn_seconds", "bot_level", "bots_alone",
                "guild_id", "league_id", "opener_id", "match", "state", "senas"):
        setattr(table, key, getattr(other, key))
    table.seating.seats = other.seating.seats
    table._turn = other.turn
    table.records.info = other.records.info
    table.records.outbox = other.records.outbox
    table.pages.adopt(other.pages)
    table.mark_changed()


def _build(state: dict[str, Any], transport: Transport, options: dict[str, Any]) -> Table:
    from .table import Table

    options.pop("rng", None)
    rng = random.Random()
    if state["rng"] is not None:
        version, internal, gauss = state["rng"]
        rng.setstate((version, tuple(internal), gauss))
    if state.get("shuffler") is not None:
        options["shuffler"] = SeededShuffler(state["shuffler"]["seed"],
                                             state["shuffler"]["draws"])
    for key in ("first_mano", "lang", "turn_seconds", "bot_level", "bots_alone", "guild_id",
                "league_id"):
        options[key] = state[key]
    options["opener_id"] = state.get("opener_id")
    if options["bot_level"] not in LEVELS:
        options["bot_level"] = DEFAULT_LEVEL
    table = Table(int(state["channel_id"]), transport, rules=Rules.from_dict(state["rules"]),
                  rng=rng, **options)
    seats = [None if s is None else Seat.from_json(s, table.bot_level) for s in state["seats"]]
    if len(seats) != table.players:
        raise ValueError("seats do not match the rules")
    table.seating.seats = seats
    if state["match"] is not None:
        table.match = Match.restore(state["match"], shuffler=table.shuffler)
    if state["state"] not in STATES or (state["state"] == "playing" and table.match is None):
        raise ValueError(f"bad table state {state['state']!r}")
    table.state = state["state"]
    table._turn = int(state["turn"])
    table.senas = SenaLog.from_json(state["senas"])
    table.records.info = state["match_info"]
    table.records.outbox = list(state["outbox"])
    _restore_pages(table, state)
    return table


def _restore_pages(table: Table, state: dict[str, Any]) -> None:
    match = table.match
    saved = state.get("page") or {"number": 1,  # a state from before pages
                                  "hand": None if match is None else match.hand_number}
    on_hand = match is not None and saved.get("hand") is not None
    events = list(match.hand.events) if on_hand and match is not None else []
    table.pages.restore({"page": saved, "previous": state.get("previous")}, events,
                        table.page_tail() if on_hand else ())
