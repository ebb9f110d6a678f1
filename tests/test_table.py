"""One live table end to end, through a fake transport: seating, the match, chat, señas, races."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from table_helpers import ANY_CARD, make_table, play_humans, seat_humans, typed

from musbot.ai import Player
from musbot.engine import MUS, NO_HAY_MUS, IllegalAction, NotYourTurn, Rules, SeatView
from musbot.engine import events as ev
from musbot.engine.senas import Sena, senas_posibles
from musbot.settings import TableSettings
from musbot.table import Seat, TableError, TableManager
from musbot.table.render import sena_gesture
from musbot.table.seats import distinct_names
from musbot.words import visible_name

# --- seating ------------------------------------------------------------------------------------


async def test_join_seats_by_pair_and_refuses_doubles() -> None:
    table, transport, _ = make_table()
    assert await table.join(1, "Ana", pair=0) == 0
    assert await table.join(2, "Bea", pair=0) == 2
    with pytest.raises(TableError) as full:
        await table.join(3, "Carlos", pair=0)
    assert full.value.code == "pair_full"
    assert await table.join(3, "Carlos") == 1
    with pytest.raises(TableError) as again:
        await table.join(1, "Ana")
    assert again.value.code == "already_seated"
    with pytest.raises(TableError) as bad:
        await table.join(9, "Zoe", pair=5)
    assert bad.value.code == "bad_pair"
    assert "Ana se sienta en el asiento 1" in transport.public_lines()[0]
    assert table.names() == {0: "Ana", 1: "Carlos", 2: "Bea"}


async def test_add_bot_and_full_table() -> None:
    table, transport, _ = make_table()
    await seat_humans(table, 3)
    assert await table.add_bot() == 3
    assert table.seats[3] is not None and not table.seats[3].human
    with pytest.raises(TableError) as full:
        await table.add_bot()
    assert full.value.code == "table_full"
    with pytest.raises(TableError) as level:
        await table.add_bot(level="imposible")
    assert level.value.code == "unknown_level"
    assert any("Un bot (normal) se sienta en el asiento 4" in t for t in transport.public_texts())


async def test_start_needs_a_person_and_fills_with_bots() -> None:
    table, transport, _ = make_table(turn_seconds=None)
    with pytest.raises(TableError) as empty:
        await table.start()
    assert empty.value.code == "no_humans"
    await table.join(1, "Ana")
    with pytest.raises(TableError) as stranger:
        await table.start(99)
    assert stranger.value.code == "not_seated"
    await table.start(1)
    assert table.lifecycle == "playing"
    assert all(isinstance(s, Seat) for s in table.seats)
    assert [s.human for s in table.seats if s] == [True, False, False, False]
    assert "¡Empieza la partida!" in transport.public_lines()
    with pytest.raises(TableError) as twice:
        await table.start(1)
    assert twice.value.code == "already_started"
    status = table.status()
    assert "Pareja 1" in status and "Bot 2 (bot)" in status and "Habla Ana" in status


async def test_leave_before_and_during_the_match() -> None:
    table, transport, _ = make_table(turn_seconds=None)
    await seat_humans(table, 2)
    await table.leave(2)
    assert table.seats[1] is None
    with pytest.raises(TableError):
        await table.leave(2)
    await table.join(2, "P2")
    await table.start(1)
    await table.leave(2)
    occupant = table.seats[1]
    assert occupant is not None and not occupant.human and occupant.name == "P2"
    assert any("un bot juega por su asiento" in t for t in transport.public_texts())
    # The last person leaving closes the table.
    await table.leave(1)
    assert table.lifecycle == "closed"
    assert transport.public_lines()[-1] == "No queda nadie: se cierra la mesa."


async def test_join_mid_match_takes_a_bot_seat() -> None:
    table, transport, _ = make_table(turn_seconds=None)
    await table.join(1, "Ana")
    await table.start(1)
    seat = await table.join(2, "Bea", pair=1)
    assert seat == 1 and table.seats[1] is not None and table.seats[1].user_id == 2
    assert transport.private_to(2), "the newcomer gets the seat's cards privately"


async def test_close_and_closed_table() -> None:
    table, transport, _ = make_table()
    await table.join(1, "Ana")
    await table.start(1)
    await table.close()
    assert table.lifecycle == "closed"
    assert transport.public_lines()[-1] == "Se cierra la mesa."
    with pytest.raises(TableError) as closed:
        await table.join(2, "Bea")
    assert closed.value.code == "table_closed"
    assert not await typed(table, 1, "mus")


# --- the match ----------------------------------------------------------------------------------


async def test_full_match_with_bots_then_rematch() -> None:
    table, transport, _ = make_table(5, rules=Rules(juegos=1), turn_seconds=None)
    await table.join(1, "Ana")
    with pytest.raises(TableError) as early:
        await table.rematch(1)
    assert early.value.code == "not_finished"
    await table.start(1)
    steps = await play_humans(table, random.Random(5))
    assert steps > 0 and table.lifecycle == "finished"
    assert table.match is not None and table.match.winner is not None
    assert any("🎉 ¡Partida para" in t for t in transport.public_texts())
    assert not transport.replies_to(1), "every typed action was accepted"
    await table.rematch(1)
    assert table.lifecycle == "playing" and not table.match.finished
    assert "¡Revancha! Empieza otra partida." in transport.public_lines()


async def test_bots_alone_play_a_whole_match() -> None:
    table, transport, _ = make_table(2, rules=Rules(juegos=1), bots_alone=True)
    await table.start()
    assert table.lifecycle == "finished"
    assert any("Se enseñan las cartas" in t for t in transport.public_texts())


async def test_bots_learn_how_every_hand_ended_from_their_own_seat() -> None:
    """Issue 5: a bot with ``hand_over`` gets, after each hand, its own seat's view of it (the
    showdown's hands only if there was one), as a person at the table sees it."""
    table, _, _ = make_table(2, rules=Rules(juegos=1), bots_alone=True)
    for _ in range(4):
        await table.add_bot()
    heard: dict[int, list[SeatView]] = {seat: [] for seat in range(4)}

    class Listening:
        def __init__(self, seat: int, inner: Player) -> None:
            self.seat, self.inner, self.level = seat, inner, inner.level

        def decide(self, *args: Any) -> Any:
            return self.inner.decide(*args)

        def choose_senas(self, *args: Any) -> Any:
            return self.inner.choose_senas(*args)

        def hand_over(self, view: SeatView) -> None:
            heard[self.seat].append(view)

    for seat, occupant in enumerate(table.seats):
        assert occupant is not None and occupant.bot is not None
        occupant.bot = Listening(seat, occupant.bot)
    await table.start()
    assert table.lifecycle == "finished" and table.match is not None
    hands = table.match.hand_number
    for seat, views in heard.items():
        assert [v.hand_number for v in views] == list(range(1, hands + 1))
        for view in views:
            assert view.seat == seat and view.phase == "terminada"
            shown = any(isinstance(e, ev.Showdown) for e in view.history)
            assert (view.revealed is not None) == shown


@pytest.mark.parametrize("players", [2, 6])
async def test_other_player_counts(players: int) -> None:
    table, _, _ = make_table(3, rules=Rules.for_players(players, juegos=1), turn_seconds=None)
    users = await seat_humans(table, 2)
    await table.start(users[0])
    await play_humans(table, random.Random(3))
    assert table.lifecycle == "finished"


# --- chat ---------------------------------------------------------------------------------------


async def test_out_of_turn_gets_an_error_reply() -> None:
    table, transport, _ = make_table()
    await seat_humans(table)
    await table.start(1)
    transport.clear()
    assert await typed(table, 2, "mus")
    replies = transport.replies_to(2)
    assert replies == ["No es tu turno: habla P1."]
    assert not transport.public_texts()


async def test_not_seated_and_chat_are_ignored() -> None:
    table, transport, _ = make_table()
    await seat_humans(table)
    await table.start(1)
    transport.clear()
    assert not await typed(table, 99, "mus")
    assert not await typed(table, 1, "hola, ¿qué tal la familia?")
    assert transport.sent == []
    assert table.match is not None and table.match.to_act == 0


async def test_malformed_command_is_answered() -> None:
    table, transport, _ = make_table()
    await seat_humans(table)
    await table.start(1)
    await typed(table, 1, "no hay mus")
    transport.clear()
    assert await typed(table, 1, "envido 1")
    assert transport.replies_to(1) and not transport.public_texts()


async def test_typed_discards_by_position() -> None:
    table, transport, _ = make_table()
    await seat_humans(table)
    await table.start(1)
    for user in (1, 2, 3, 4):
        assert await typed(table, user, "mus")
    assert table.match is not None
    before = table.match.view(0).cards
    assert await typed(table, 1, "descarto 1 2")
    assert table.match.view(0).cards == before[2:]
    assert transport.public_lines()[-1] == "P1 se descarta de 2."
    assert "Habla P2." in table.status()


async def test_dms_closed_tells_the_channel_without_cards() -> None:
    table, transport, _ = make_table()
    transport.dm_closed.add(1)
    await seat_humans(table, 1)
    await table.start(1)
    warnings = [t for t in transport.public_texts() if "<@1>" in t]
    assert len(warnings) == 1
    assert "Ver mis cartas" in warnings[0]
    assert not ANY_CARD.search(warnings[0])
    # The view is still there for the button.
    assert "Tus cartas" in table.private_text(1)


async def test_racing_commands_apply_once() -> None:
    table, transport, _ = make_table()
    transport.slow = True
    await seat_humans(table)
    await table.start(1)
    results = await asyncio.gather(typed(table, 1, "mus"), typed(table, 1, "no hay mus"))
    assert results == [True, True]
    assert table.match is not None
    said = [e for e in table.match.hand.events if isinstance(e, ev.MusSaid)]
    assert len(said) == 1 and said[0].seat == 0
    assert len(transport.replies_to(1)) == 1


@pytest.mark.parametrize("seat_0_first", [True, False])
async def test_racing_acts_of_two_players(seat_0_first: bool) -> None:
    """Two people's moves arrive together, each waiting for the table in turn: seat 1's «no hay
    mus» is applied after seat 0's «mus» when it came second, and refused (not its turn yet)
    when it came first; never both at once, never lost silently."""
    table, transport, _ = make_table()
    transport.slow = True
    await seat_humans(table)
    await table.start(1)
    acts = [table.act(1, MUS), table.act(2, NO_HAY_MUS)]
    outcomes = await asyncio.gather(*(acts if seat_0_first else acts[::-1]),
                                    return_exceptions=True)
    seat_0, seat_1 = outcomes if seat_0_first else outcomes[::-1]
    assert table.match is not None
    said = [e for e in table.match.hand.events if isinstance(e, ev.MusSaid)]
    assert seat_0 == [ev.MusSaid(seat=0, mus=True)]
    if seat_0_first:
        assert isinstance(seat_1, list) and seat_1[0] == ev.MusSaid(seat=1, mus=False)
        assert said == [ev.MusSaid(seat=0, mus=True), ev.MusSaid(seat=1, mus=False)]
    else:
        assert isinstance(seat_1, NotYourTurn) and seat_1.params == {"seat": 1, "to_act": 0}
        assert said == [ev.MusSaid(seat=0, mus=True)]


# --- señas --------------------------------------------------------------------------------------


async def _table_with_sena(cazada: float, **kwargs: object):  # type: ignore[no-untyped-def]
    """A four-person table whose seat 0 holds a hand that shows some seña."""
    for seed in range(100):
        table, transport, _ = make_table(seed, rules=Rules(sena_cazada=cazada), **kwargs)
        await seat_humans(table)
        await table.start(1)
        assert table.match is not None
        shown = senas_posibles(table.match.view(0).cards, table.state.rules)
        if shown:
            transport.clear()
            return table, transport, shown
    raise AssertionError("no seed gave a seña")


async def test_sena_reaches_only_the_partner() -> None:
    table, transport, shown = await _table_with_sena(0.0)
    sena = await table.send_sena(1, shown[0])
    assert sena is shown[0]
    privates = [s for s in transport.sent if s.kind == "private"]
    assert [s.to for s in privates] == [3]
    gesture = sena_gesture(sena)
    assert sena.nombre in privates[0].text and gesture in privates[0].text
    assert not transport.public_texts()
    assert gesture in table.private_text(3)
    assert gesture not in table.private_text(2)
    with pytest.raises(IllegalAction) as repeated:
        await table.send_sena(1, sena)
    assert repeated.value.code == "sena_repeated"


async def test_sena_caught_by_one_opponent() -> None:
    table, transport, shown = await _table_with_sena(1.0)
    await table.send_sena(1, shown[0])
    receivers = sorted(s.to for s in transport.sent if s.kind == "private")
    assert len(receivers) == 2 and 3 in receivers
    spotter = next(r for r in receivers if r != 3)
    assert spotter in (2, 4)
    caught = transport.private_to(spotter)[0]
    assert "Has cazado una seña de P1" in caught
    assert not transport.private_to(1), "the sender is not told"


async def test_false_senas_are_refused() -> None:
    table, _, shown = await _table_with_sena(0.0)
    false = next(s for s in Sena if s not in shown and s is not Sena.REAL)
    with pytest.raises(IllegalAction) as refused:
        await table.send_sena(1, false)
    assert refused.value.code == "sena_not_shown"
    with pytest.raises(TableError) as outsider:
        await table.send_sena(99, shown[0])
    assert outsider.value.code == "not_seated"


async def test_no_senas_when_off_or_corrido() -> None:
    table, _, _ = make_table(rules=Rules(senas=False))
    await seat_humans(table)
    await table.start(1)
    with pytest.raises(IllegalAction) as off:
        await table.send_sena(1, Sena.CIEGO)
    assert off.value.code == "senas_off"
    table, _, _ = make_table(rules=Rules(mus_corrido=True))
    await seat_humans(table)
    await table.start(1)
    with pytest.raises(IllegalAction) as corrido:
        await table.send_sena(1, Sena.CIEGO)
    assert corrido.value.code == "senas_corrido"
    assert "Ahora no se pueden hacer señas." in table.private_text(1)


async def test_bot_partner_sends_and_receives_senas() -> None:
    # Bots signal their partners; a person's seña reaches the bot partner's memory.
    for seed in range(50):
        table, transport, _ = make_table(seed, turn_seconds=None)
        await table.join(1, "Ana")
        await table.start(1)
        if any("👀" in t for t in transport.private_to(1)):
            break
    else:
        raise AssertionError("no bot partner ever signalled")
    received = transport.private_to(1)
    assert any("Bot 3" in t for t in received if "👀" in t)


# --- the registry -------------------------------------------------------------------------------


async def test_manager_one_table_per_channel() -> None:
    from table_helpers import FakeTransport

    transport = FakeTransport()
    manager = TableManager(transport)
    a = manager.open(1, TableSettings(turn_seconds=None))
    b = manager.open(2, TableSettings(rules=Rules(puntos=30)))
    assert manager.get(1) is a and manager.get(2) is b and len(manager) == 2
    with pytest.raises(TableError) as exists:
        manager.open(1)
    assert exists.value.code == "table_exists"
    await a.join(7, "Ana")
    assert manager.table_for(7) == (a, False) and manager.table_for(8) == (None, False)
    await a.start(7)
    assert await typed(a, 7, "mus")
    assert manager.get(3) is None
    await manager.close(2)
    assert manager.get(2) is None
    with pytest.raises(TableError):
        await manager.close(2)
    # A table that closes itself (last person leaves) leaves the registry too.
    await a.leave(7)
    assert manager.get(1) is None and len(manager) == 0


async def test_a_failing_transport_does_not_stop_the_game() -> None:
    # A Discord outage mid-action must not leave bots unplayed or the timer unarmed.
    table, transport, _ = make_table(turn_seconds=None)
    await seat_humans(table, 1)

    async def broken(channel_id: int, text: str) -> None:
        raise RuntimeError("HTTP 503")

    transport.public = broken  # type: ignore[method-assign]
    await table.start(1)
    assert await typed(table, 1, "mus")
    assert table.match is not None and table.match.to_act == 0  # bots answered, back to P1


async def test_errors_naming_a_card_are_private() -> None:
    # «No tienes el 12o» tells something about a hand: only its owner may read it.
    table, transport, _ = make_table(turn_seconds=None)
    await seat_humans(table)
    await table.start(1)
    for user in (1, 2, 3, 4):
        await typed(table, user, "mus")
    assert table.match is not None
    held = set(table.match.view(0).cards)
    from musbot.engine.cards import card_code

    missing = card_code(next(c for c in range(40) if c not in held))
    transport.clear()
    assert await typed(table, 1, f"descarto {missing}")
    assert not transport.replies_to(1) and not transport.public_texts()
    (private,) = transport.private_to(1)
    assert missing in private


async def test_english_table() -> None:
    table, transport, _ = make_table(turn_seconds=None, lang="en")
    await table.join(1, "Ann")
    await table.start(1)
    texts = transport.public_lines()
    assert "The match begins!" in texts
    assert any("New hand" in t for t in texts)
    assert "Your cards:" in table.private_text(1)


# --- names as a table shows them ----------------------------------------------------------------


def test_visible_names_lose_what_cannot_be_seen() -> None:
    assert visible_name("\u200f\u200b\u2800") == ""
    assert visible_name("\u202eAna\u200b  López\u0007") == "Ana López"
    family = "👨\u200d👩\u200d👧"
    assert visible_name(family) == family, "emoji sequences keep their joiner"
    assert visible_name("\u0301\u200d") == "", "marks and joiners alone show nothing"
    assert visible_name("Zuriñe") == "Zuriñe"


def test_distinct_names_mark_people_who_read_as_another_seat() -> None:
    unnamed, suffixed = "Asiento {seat}", "{name} (asiento {seat})"
    # A person called as a bot is marked; the bot keeps its name.
    assert distinct_names((("Bot 4", True), ("Ana", True), None, ("Bot 4", False)), unnamed,
                          suffixed) == ("Bot 4 (asiento 1)", "Ana", None, "Bot 4")
    # Two people alike as read (case, accents, invisible characters): both marked.
    assert distinct_names((("Ane", True), ("ANÉ\u200b", True)), unnamed, suffixed) == \
        ("Ane (asiento 1)", "ANÉ (asiento 2)")
    # Nothing visible: the seat stands for the name.
    assert distinct_names((("\u200f", True), ("Ana", True)), unnamed, suffixed) == \
        ("Asiento 1", "Ana")


async def test_the_pages_name_each_seat_apart_and_records_keep_what_was_given() -> None:
    table, _, _ = make_table()
    await table.join(1, "Bot 4")
    await table.join(2, "\u200b")
    await table.start(1)
    assert table.names() == {0: "Bot 4 (asiento 1)", 1: "Asiento 2", 2: "Bot 3", 3: "Bot 4"}
    assert "Bot 4 (asiento 1)" in table.status() and "Asiento 2" in table.status()
    assert table.state.records.info is not None
    assert [s["name"] for s in table.state.records.info["seats"]][:2] == ["Bot 4", "\u200b"], \
        "the records keep the names as given"
