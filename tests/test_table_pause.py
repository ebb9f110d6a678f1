"""A move is done only when it is saved (issue 23), on the table layer alone with a hand-driven
clock: a change its save hook cannot store is refused and undone for everyone, the table says
once that it is paused for its database, its bots wait and its clock stops, and it goes on by
itself once a save is stored again. The hook here is a stand-in database
(:class:`Store`: the last whole state and the moves journaled after it, as
``musbot.table.persist`` keeps them), so what «stored» means is checked against it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from table_helpers import FakeTransport, Sent, make_table, seat_humans, typed

from musbot.ai import HeuristicBot
from musbot.engine import Action, Rules
from musbot.engine.senas import senas_posibles
from musbot.i18n import TABLE, error_text
from musbot.storage import DatabaseUnavailable
from musbot.table import ManualClock, NotSaved, Result, Save, Table, Unsaved
from musbot.table.pause import FIRST_RETRY_SECONDS, MAX_RETRY_SECONDS
from musbot.table.result import Saved
from musbot.table.saved import from_json, to_json

PAUSED = TABLE("paused_db")
RESUMED = TABLE("resumed_db")


class Store:
    """A save hook that stores like the persister: the moves of a plain move as journal entries,
    else the whole state (and the match records, emptying the outbox). ``down`` makes every save
    fail as a stopped database does; ``ok_left`` lets that many more succeed first."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.journal: list[Any] = []
        self.down = False
        self.ok_left: int | None = None
        self.attempts = 0
        self.keep_records = 0
        """Saves that store the state but leave the match records waiting."""

    async def save(self, table: Table, result: Result) -> Saved:
        self.attempts += 1
        moves = result.moves if result.save is Save.MOVES else None
        if self.down or self.ok_left == 0:
            raise Unsaved(DatabaseUnavailable("test", "stopped"),
                          None if self.state is None else json.loads(json.dumps(self.state)),
                          list(self.journal))
        if self.ok_left is not None:
            self.ok_left -= 1
        if moves and self.state is not None and table.lifecycle == "playing" and \
                not table.state.records.outbox:
            self.journal += [[seat, *action.to_json()] for seat, action in moves]
            return Saved()
        self.state = json.loads(json.dumps(to_json(table.state)))
        self.journal = []
        if self.keep_records and table.state.records.outbox:
            self.keep_records -= 1
        else:
            table.state.records.outbox = []
        return Saved()

    def turn(self) -> int:
        """How many actions the stored table has applied."""
        assert self.state is not None
        return int(self.state["turn"]) + len(self.journal)

    def restored(self) -> Table:
        """The table as a restart would bring it back from what is stored."""
        assert self.state is not None
        return Table(from_json(self.state, journal=self.journal), FakeTransport(),
                     clock=ManualClock())


def stored_table(seed: int = 3, rules: Rules | None = None, **options: Any
                 ) -> tuple[Table, FakeTransport, ManualClock, Store]:
    store = Store()
    table, transport, clock = make_table(seed, rules, persist=store, **options)
    return table, transport, clock, store


def comparable(table: Table) -> dict[str, Any]:
    """The table's state but its pages (the pause's notices are on them) and records."""
    state = to_json(table.state)
    for key in ("page", "previous", "outbox"):
        state.pop(key)
    return state


def move_of(table: Table, rng: random.Random) -> tuple[int, Action]:
    """(user, action): what the person to speak says (users are seat + 1)."""
    match = table.match
    assert match is not None and match.to_act is not None
    seat = match.to_act
    return seat + 1, HeuristicBot().decide(match.view(seat), rng)


async def started(seed: int = 3, humans: int = 4, **options: Any
                  ) -> tuple[Table, FakeTransport, ManualClock, Store]:
    table, transport, clock, store = stored_table(seed, **options)
    await seat_humans(table, humans)
    await table.start(1)
    return table, transport, clock, store


async def test_a_move_that_cannot_be_saved_is_refused_and_undone_for_everyone() -> None:
    table, transport, _clock, store = await started()
    rng = random.Random(1)
    for _ in range(3):
        await table.act(*move_of(table, rng))
    before, turn, lines = comparable(table), table.state.turn, list(table.state.page.lines)
    sent = len(transport.sent)
    store.down = True
    user, action = move_of(table, rng)
    with pytest.raises(NotSaved) as refused:
        await table.act(user, action)
    assert error_text(refused.value, "es") == \
        "No puedo guardar la jugada; repite en unos segundos."
    assert error_text(refused.value, "en") == "I can't save that move; repeat it in a few seconds."
    # Nothing of it happened: the table is what the database holds.
    assert table.paused and table.state.turn == turn == store.turn()
    assert comparable(table) == before == comparable(store.restored())
    assert table.state.awaits(user)
    # The only thing anyone was told: the table is paused (on its page, once).
    assert table.state.page.lines == [*lines, PAUSED]
    assert [(s.kind, s.text) for s in transport.sent[sent:]] == [("public", PAUSED)]


async def test_while_paused_every_command_is_refused_without_trying_and_said_once() -> None:
    table, transport, clock, store = await started()
    rng = random.Random(2)
    store.down = True
    user, action = move_of(table, rng)
    with pytest.raises(NotSaved):
        await table.act(user, action)
    tried = store.attempts
    with pytest.raises(NotSaved):
        await table.act(user, action)
    assert await typed(table, user, action.text())  # typed: answered, privately
    assert transport.replies_to(user)[-1] == error_text(NotSaved(), "es")
    for command in (lambda: table.leave(1), table.close, lambda: table.announce("¡hola!")):
        with pytest.raises(NotSaved):
            await command()
    assert store.attempts == tried, "nothing tried but the table's own attempts"
    await clock.advance(60)
    assert store.attempts > tried + 5
    assert transport.public_lines().count(PAUSED) == 1
    assert table.seat_of(1) == 0 and table.lifecycle == "playing"


async def test_it_tries_again_with_growing_waits_and_goes_on_by_itself() -> None:
    table, transport, clock, store = await started()
    store.down = True
    with pytest.raises(NotSaved):
        await table.act(*move_of(table, random.Random(3)))
    attempts: list[float] = []
    tried = store.attempts
    while clock.now() < 60:
        await clock.advance(0.1)
        if store.attempts > tried:
            tried = store.attempts
            attempts.append(clock.now())
    waits = [b - a for a, b in zip([0.0, *attempts], attempts, strict=False)]
    assert FIRST_RETRY_SECONDS * 0.8 - 0.1 <= waits[0] <= FIRST_RETRY_SECONDS + 0.1
    assert waits[1] > waits[0] and waits[2] > waits[1], waits
    assert max(waits) <= MAX_RETRY_SECONDS + 0.1 and len(attempts) < 20
    store.down = False
    back = clock.now()
    while table.paused:
        await clock.advance(0.1)
    assert clock.now() - back <= MAX_RETRY_SECONDS + 0.1
    assert transport.public_lines()[-1] == RESUMED
    # The notices are stored like the rest; the table is the stored one.
    assert store.state is not None and comparable(store.restored()) == comparable(table)
    assert store.restored().state.page.lines[-2:] == [PAUSED, RESUMED]
    user, action = move_of(table, random.Random(4))
    turn = table.state.turn
    await table.act(user, action)
    assert table.state.turn > turn and table.state.turn == store.turn()


async def test_told_the_database_is_back_it_tries_at_once() -> None:
    """Another table's save was stored: a paused table does not wait out its backoff."""
    table, transport, clock, store = await started()
    store.down = True
    with pytest.raises(NotSaved):
        await table.act(*move_of(table, random.Random(3)))
    await clock.advance(20)  # its waits are long by now
    store.down = False
    table.retry_now()
    await clock.advance(0)
    assert not table.paused and transport.public_lines()[-1] == RESUMED
    table.retry_now()  # nothing to do when it plays
    assert not table.paused


async def test_its_bots_wait_and_its_clock_stops_until_it_goes_on() -> None:
    """A bot's own move that cannot be saved is undone too; paused, neither the bots nor the
    turn clock play; once it goes on, the bot plays and the person's clock starts afresh."""
    table, transport, clock, store = stored_table(4, bot_delay=1.0)
    await table.join(1, "Ana")
    await table.start(1)
    match = table.match
    assert match is not None and match.to_act == 0
    await table.act(1, move_of(table, random.Random(5))[1])
    turn = table.state.turn
    store.down = True
    await clock.advance(1.0)  # the bot of seat 1 speaks, and its move cannot be saved
    assert table.paused and table.state.turn == turn == store.turn()
    await clock.advance(600)
    assert table.state.turn == turn, "no bot played and no clock ran out while paused"
    assert not [line for line in transport.public_lines() if line.startswith("⏰")]
    store.down = False
    while table.paused:
        await clock.advance(0.5)
    while not table.state.awaits(1):
        await clock.advance(1.0)
    assert table.state.turn > turn, "the bots played on"
    waited = clock.now()
    await clock.advance(44)
    assert not [line for line in transport.public_texts() if line.startswith("⏰")]
    await clock.advance(1)
    reminders = [text for text in transport.public_texts() if text.startswith("⏰")]
    assert len(reminders) == 1 and clock.now() - waited == 45, "a full turn from the start"


async def test_a_bot_move_that_cannot_be_saved_does_not_refuse_the_person_before_it() -> None:
    """Bots answering at once: the person's move was saved and shown; the bot's after it is
    undone and the table pauses, and the person is not told their move failed."""
    table, _transport, clock, store = stored_table(5)
    await table.join(1, "Ana")
    await table.start(1)
    store.ok_left = 1  # the person's move is stored, the bot's answer is not
    user, action = move_of(table, random.Random(6))
    turn = table.state.turn
    await table.act(user, action)
    assert table.paused and table.state.turn == turn + 1 == store.turn()
    store.ok_left = None
    while table.paused:
        await clock.advance(0.5)
    assert table.state.awaits(1) and table.state.turn > turn + 1


async def test_the_end_of_a_hand_that_cannot_be_saved_is_not_played() -> None:
    """The move that finishes a hand makes its record: refused, there is no record, no new
    deal, and nothing of the showdown was shown."""
    table, transport, _clock, store = await started(6)
    rng = random.Random(7)
    match = table.match
    assert match is not None
    while True:
        user, action = move_of(table, rng)
        probe = Table(from_json(to_json(table.state)), FakeTransport(), clock=ManualClock())
        await probe.act(user, action)
        assert probe.match is not None
        if probe.match.hand_number > match.hand_number:
            break
        await table.act(user, action)
    number, shown = match.hand_number, len(transport.public_texts())
    store.down = True
    with pytest.raises(NotSaved):
        await table.act(user, action)
    assert table.match is not None and table.match.hand_number == number
    assert not table.match.hand.finished
    assert transport.public_texts()[shown:] == [PAUSED]


async def test_a_table_with_nothing_stored_yet_goes_back_to_empty() -> None:
    table, _transport, clock, store = stored_table()
    store.down = True
    with pytest.raises(NotSaved):
        await table.join(1, "Ana")
    assert table.paused and table.seats == [None] * 4 and table.lifecycle == "waiting"
    store.down = False
    while table.paused:
        await clock.advance(0.5)
    assert await table.join(1, "Ana") == 0
    assert store.state is not None and store.state["seats"][0]["name"] == "Ana"


async def test_a_start_that_cannot_be_saved_deals_nothing() -> None:
    table, transport, _clock, store = stored_table()
    await seat_humans(table, 2)
    page, sent = table.state.page, len(transport.sent)
    store.down = True
    with pytest.raises(NotSaved):
        await table.start(1)
    assert table.lifecycle == "waiting" and table.match is None
    assert table.state.page is page and table.state.page.hand_number is None, "the same lobby page"
    assert not transport.private_to(1), "no cards dealt to anyone"
    assert [s.text for s in transport.sent[sent:]] == [PAUSED]


async def test_a_sena_is_received_only_once_saved() -> None:
    table, transport, clock, store = await _table_with_a_sena()
    received: list[bool] = []

    def watch(sent: Sent) -> None:
        if sent.kind == "private" and sent.to != 1:
            received.append(bool(store.restored().state.senas.received))

    transport.hook = watch
    match = table.match
    assert match is not None
    [sena, *_] = senas_posibles(match.view(0).cards, table.state.rules)
    store.down = True
    with pytest.raises(NotSaved):
        await table.send_sena(1, sena)
    assert not received and not table.state.senas.received
    store.down = False
    while table.paused:
        await clock.advance(0.5)
    await table.send_sena(1, sena)
    assert received and all(received), "the partner got it once it was stored"


async def _table_with_a_sena() -> tuple[Table, FakeTransport, ManualClock, Store]:
    """Four people, seat 0's hand showing a seña (the first seed that deals one)."""
    for seed in range(20, 60):
        table, transport, clock, store = stored_table(seed, Rules(sena_cazada=0.0))
        await seat_humans(table, 4)
        await table.start(1)
        match = table.match
        assert match is not None
        if senas_posibles(match.view(0).cards, table.state.rules) and not match.hand.corrido:
            return table, transport, clock, store
    raise AssertionError("no seed dealt a seña")


async def test_records_that_wait_are_saved_again_by_the_table_until_stored() -> None:
    """The hook stored the state but not the match records (they stay in the outbox, saved
    with it): the table saves again by itself, with growing waits, until they are stored."""
    table, _transport, clock, store = stored_table(9, turn_seconds=None)  # no other save
    store.keep_records = 4
    await seat_humans(table, 1)
    await table.start(1)
    assert table.state.records.outbox, "the match's start record waits"
    attempts, waiting = store.attempts, store.keep_records
    assert waiting > 0
    await clock.advance(30)
    # Each save until then left the records waiting; the next one stored them.
    assert not table.state.records.outbox and store.attempts == attempts + waiting + 1
    await clock.advance(60)
    assert store.attempts == attempts + waiting + 1, "nothing more once stored"


async def test_nothing_is_ever_shown_that_is_not_stored() -> None:
    """A whole match with the database failing now and then: whenever anything is shown or
    sent, the table's moves are all stored, and at the end a restart gives the same table."""
    table, transport, clock, store = stored_table(10, Rules(juegos=1, sena_cazada=0.5))
    rng, faults = random.Random(11), random.Random(12)
    shown: list[int] = []

    def watch(sent: Sent) -> None:
        shown.append(table.state.turn)
        assert table.state.turn == store.turn(), sent

    await seat_humans(table, 2)
    await table.start(1)
    transport.hook = watch
    refused = 0
    while table.lifecycle == "playing":
        store.down = faults.random() < 0.2
        if table.paused or not any(table.state.awaits(u) for u in (1, 2)):
            await clock.advance(1.0)
            continue
        user, action = move_of(table, rng)
        try:
            await table.act(user, action)
        except NotSaved:
            refused += 1
    assert refused > 5 and len(shown) > 50
    assert comparable(store.restored()) == comparable(table)
