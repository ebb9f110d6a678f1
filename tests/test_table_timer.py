"""The turn timer, on a hand-driven clock: reminder, expiry, takeover after three, «vuelvo»."""

from __future__ import annotations

import random

import pytest
from table_helpers import make_table, play_humans, seat_humans, typed

from musbot.ai import HeuristicBot
from musbot.engine import Rules
from musbot.engine import events as ev
from musbot.settings import InvalidSettings
from musbot.table import Table, settle


def reminders(texts: list[str], user: int) -> list[str]:
    return [t for t in texts if t.startswith("⏰") and f"<@{user}>" in t]


def expiries(texts: list[str]) -> list[str]:
    return [t for t in texts if "Se acabó el tiempo" in t]


async def test_reminder_at_fifteen_seconds_left_then_expiry() -> None:
    table, transport, clock = make_table()
    await table.join(1, "Ana")
    await table.start(1)
    assert table.match is not None and table.match.to_act == 0
    await clock.advance(44)
    assert not reminders(transport.public_texts(), 1)
    await clock.advance(1)
    (reminder,) = reminders(transport.public_texts(), 1)
    assert "15 s" in reminder
    await clock.advance(14)
    assert not expiries(transport.public_texts())
    await clock.advance(1)
    (expired,) = expiries(transport.public_texts())
    assert "Ana" in expired
    said = [e for e in table.match.hand.events if isinstance(e, ev.MusSaid)]
    assert said and said[0].seat == 0, "the bot played Ana's turn"
    occupant = table.seats[0]
    assert occupant is not None and occupant.expiries == 1 and not occupant.away


async def test_acting_in_time_cancels_the_timer() -> None:
    table, transport, clock = make_table()
    await table.join(1, "Ana")
    await table.start(1)
    await clock.advance(30)
    assert await typed(table, 1, "mus")
    await clock.advance(40)
    assert not expiries(transport.public_texts())
    assert not reminders(transport.public_texts(), 1)


async def test_each_move_gives_the_next_player_the_full_time_with_one_alarm() -> None:
    """Issue 6: the timer restarts on every move without a new alarm per move (a busy bot
    would push and cancel one in the event loop's timer heap on every move of every table):
    the alarm set for the first turn goes off, finds the deadline moved and waits again."""
    table, transport, clock = make_table()
    users = await seat_humans(table)
    await table.start(users[0])
    rng = random.Random(3)
    bot = HeuristicBot()
    for _ in range(6):
        await clock.advance(10)
        match = table.match
        assert match is not None and match.to_act is not None
        seat = match.to_act
        await table.act(users[seat], bot.decide(match.view(seat), rng))
        assert len(clock._sleepers) == 1, "one alarm, never a pile of cancelled ones"
    match = table.match
    assert match is not None and match.to_act is not None
    waiting = users[match.to_act]
    await clock.advance(44)
    assert not reminders(transport.public_texts(), waiting)
    await clock.advance(1)
    assert reminders(transport.public_texts(), waiting), "45 s after the last move"
    await clock.advance(15)
    assert expiries(transport.public_texts())


async def test_configurable_turn_time() -> None:
    with pytest.raises(InvalidSettings):
        make_table(turn_seconds=10)
    with pytest.raises(InvalidSettings) as bad:
        make_table(turn_seconds=601)
    assert bad.value.code == "bad_timeout"
    table, transport, clock = make_table(turn_seconds=20)
    await table.join(1, "Ana")
    await table.start(1)
    await clock.advance(5)
    assert reminders(transport.public_texts(), 1)
    await clock.advance(15)
    assert expiries(transport.public_texts())


async def test_fifteen_seconds_has_no_early_reminder() -> None:
    table, transport, clock = make_table(turn_seconds=15)
    await table.join(1, "Ana")
    await table.start(1)
    await clock.advance(15)
    assert not reminders(transport.public_texts(), 1)
    assert expiries(transport.public_texts())


async def _wait_for_turn(table: Table, seat: int, other_user: int, rng: random.Random) -> None:
    """Plays the other person's turns until it is ``seat``'s turn."""
    bot = HeuristicBot()
    while table.lifecycle == "playing":
        assert table.match is not None
        if table.match.to_act == seat:
            return
        to_act = table.match.to_act
        assert to_act is not None
        await table.act(other_user, bot.decide(table.match.view(to_act), rng))


async def test_three_expiries_hand_the_seat_to_a_bot_until_vuelvo() -> None:
    table, transport, clock = make_table(4)
    users = await seat_humans(table, 2)
    await table.start(users[0])
    rng = random.Random(4)
    for n in range(3):
        await _wait_for_turn(table, 0, users[1], rng)
        assert table.lifecycle == "playing"
        await clock.advance(60)
        assert len(expiries(transport.public_texts())) == n + 1
    ana = table.seats[0]
    assert ana is not None and ana.away
    assert any("hasta que escriba «vuelvo»" in t for t in transport.public_texts())
    assert "(ausente: juega un bot)" in table.status()
    # While away, the bot plays the seat at once: it is never Ana's turn.
    for _ in range(30):
        if table.lifecycle != "playing":
            break
        assert table.match is not None and table.match.to_act != 0
        to_act = table.match.to_act
        assert to_act is not None
        await table.act(users[1], HeuristicBot().decide(table.match.view(to_act), rng))
    # «vuelvo» gives the seat back, and the timer runs for Ana again.
    assert await typed(table, users[0], "Vuelvo")
    assert not ana.away and ana.expiries == 0
    assert "P1 vuelve a la mesa." in transport.public_lines()
    assert table.lifecycle == "playing"  # this seed's match goes on: Ana has turns left to time
    await _wait_for_turn(table, 0, users[1], rng)
    assert table.lifecycle == "playing" and table.match.to_act == 0
    reminded = len(reminders(transport.public_texts(), users[0]))
    await clock.advance(45)
    assert len(reminders(transport.public_texts(), users[0])) == reminded + 1


async def test_vuelvo_when_not_away() -> None:
    table, transport, _ = make_table()
    await table.join(1, "Ana")
    await table.start(1)
    assert await typed(table, 1, "vuelvo")
    assert transport.replies_to(1) == ["No estabas ausente: sigues jugando."]


async def test_expiries_must_be_in_a_row() -> None:
    table, _, clock = make_table(6)
    users = await seat_humans(table, 2)
    await table.start(users[0])
    rng = random.Random(6)
    bot = HeuristicBot()
    for _ in range(2):
        await _wait_for_turn(table, 0, users[1], rng)
        await clock.advance(60)
    await _wait_for_turn(table, 0, users[1], rng)
    assert table.match is not None
    await table.act(users[0], bot.decide(table.match.view(0), rng))
    ana = table.seats[0]
    assert ana is not None and ana.expiries == 0
    await _wait_for_turn(table, 0, users[1], rng)
    await clock.advance(60)
    assert not ana.away


async def test_no_timer_for_bots_or_after_the_end() -> None:
    table, _, clock = make_table(7, rules=Rules(juegos=1))
    await table.join(1, "Ana")
    await table.start(1)
    await settle()
    assert clock.sleepers == 1
    await play_humans(table, random.Random(7))
    assert table.lifecycle == "finished"
    await clock.advance(1000)
    assert clock.sleepers == 0


@pytest.mark.parametrize("expiry_first", [True, False])
async def test_expiry_racing_an_action_applies_once(expiry_first: bool) -> None:
    """The last second and Ana's «mus» arrive while the table is busy (its lock held, as by
    another step): whichever came first is applied, and the other finds the turn gone. An
    expiry first: the bot speaks for Ana and her «mus» is refused. Her «mus» first: it is
    applied, and the expiry does nothing (no bot move, no expiry counted)."""
    import asyncio

    from musbot.engine import MUS, IllegalAction

    table, transport, clock = make_table()
    await table.join(1, "Ana")
    await table.start(1)
    await clock.advance(59)
    async with table._lock:  # both wait for the table, first come first served
        if expiry_first:
            await clock.advance(1)
        acting = asyncio.create_task(table.act(1, MUS))
        await settle()
        if not expiry_first:
            await clock.advance(1)
    (acted,) = await asyncio.gather(acting, return_exceptions=True)
    await settle()
    assert table.match is not None
    said = [e for e in table.match.hand.events if isinstance(e, ev.MusSaid) and e.seat == 0]
    ana = table.seats[0]
    assert ana is not None
    if expiry_first:
        assert isinstance(acted, IllegalAction)
        assert said == [ev.MusSaid(seat=0, mus=False)]  # the bot's word for Ana
        assert len(expiries(transport.public_texts())) == 1 and ana.expiries == 1
    else:
        assert acted == [ev.MusSaid(seat=0, mus=True)]
        assert said == [ev.MusSaid(seat=0, mus=True)]
        assert not expiries(transport.public_texts()) and ana.expiries == 0
