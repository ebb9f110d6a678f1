"""A table on Discord as Discord really answers (the wire double): the table message posted with
the channel and kept current, the buttons and their answers, typed moves and refusals, DMs and
their fallback, and the one error path. Each test asserts on what reached «Discord»."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord_match import Scene, make_scene, page_lines

from musbot.i18n import TABLE

EPHEMERAL = 64
UPDATE_MESSAGE = 7
DEFERRED_UPDATE = 6
MODAL = 9


def verbs(message: object) -> list[str]:
    return [c.rsplit(":", 1)[-1] for c in message.custom_ids()]  # type: ignore[attr-defined]


async def lobby(tmp_path: Path, people: tuple[str, ...] = ("Ana",), **options: object) -> Scene:
    scene = make_scene(tmp_path, people, **options)  # type: ignore[arg-type]
    await scene.world.connect(scene.bot)
    await scene.slash(scene.people[0], "mus mesa")
    await scene.advance(1)
    return scene


# --- the table message ----------------------------------------------------------------------


async def test_the_table_message_goes_with_the_channel_and_the_command_is_answered_privately(
        tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ["Ana"])
    async with scene.world.connected(scene.bot):
        inter = await scene.slash(scene.people[0], "mus mesa")
        await scene.advance(1)
        [answer] = inter.responses
        assert answer.data["flags"] & EPHEMERAL and "Mesa abierta" in answer.data["content"]
        [message] = scene.table_messages()
        assert message.interaction_id is None and message.webhook_id is None, \
            "posted with the channel, not as the interaction's answer (whose token expires)"
        assert message.embeds[0]["title"] == "🃏 Mesa de mus"
        assert verbs(message) == ["join1", "join2", "bot", "start"]
        # «/mus mesa» again: the same table at the channel's bottom, the old message gone.
        again = await scene.slash(scene.people[0], "mus mesa")
        await scene.advance(1)
        assert again.responses[0].data["flags"] & EPHEMERAL
        assert message.deleted
        [moved] = scene.table_messages()
        assert moved.id != message.id and verbs(moved) == verbs(message)
    assert not scene.world.calls_via("webhook") if hasattr(scene.world, "calls_via") else True


async def test_buttons_seat_people_add_bots_and_start(tmp_path: Path) -> None:
    scene = await lobby(tmp_path, ("Ana", "Bea"))
    ana, bea = scene.people
    joined = await scene.press(ana, "join2")
    assert joined.response_type == UPDATE_MESSAGE, "the presser sees the table at once"
    assert scene.table().seat_of(ana.user) == 1
    page = page_lines(scene.live_message())
    assert any("Ana se sienta en el asiento 2" in line for line in page)
    twice = await scene.press(ana, "join1")
    assert "Ya estás sentado en el asiento 2" in twice.ephemeral_texts()[0]
    await scene.press(bea, "bot")
    assert scene.table().seats[0] is not None and not scene.table().seats[0].human
    lobby_message = scene.live_message()
    started = await scene.press(bea, "start")
    assert "No estás sentado" in started.ephemeral_texts()[0], "only the seated start"
    await scene.press(ana, "start")
    await scene.advance(2)
    assert scene.table().lifecycle == "playing"
    # The lobby's message is final (no buttons) and the first hand has its own.
    assert lobby_message.components == [] and not lobby_message.deleted
    live = scene.live_message()
    assert live.id != lobby_message.id and live.embeds[0]["title"].startswith("🃏 Mano 1 · ")
    await scene.world.disconnect(scene.bot)


async def test_a_button_move_is_answered_with_the_page_and_bots_answer_in_one_edit(
        tmp_path: Path) -> None:
    scene = await lobby(tmp_path, ("Ana",), typing=False)
    await open_and_start_seated(scene)
    table = scene.table()
    ana = scene.people[0]
    pressed = 0
    while pressed < 6 and table.lifecycle == "playing":
        live = await scene.shown_turn(ana)
        moves = [v for v in verbs(live) if v in ("mus", "nohaymus", "paso", "quiero")]
        if not moves:  # a discard: by DM
            await scene.play_turn(ana)
            continue
        before = len(live.edits)
        inter = await scene.press(ana, moves[0])
        assert inter.response_type == UPDATE_MESSAGE
        pressed += 1
        # The answer showed Ana's move; the bots' replies then come in one edit.
        current = await scene.shown_turn(ana)
        if current.id != live.id:
            continue  # a new hand: its own message
        rest_edits = [e for e in live.edits[before:] if e.via == "rest"]
        assert len(rest_edits) <= 1, rest_edits
        page = table.state.page
        assert page_lines(current) == page.lines[page.section:], "the part of the hand in play"
    await scene.world.disconnect(scene.bot)


# --- refusals -------------------------------------------------------------------------------


async def test_refusals_reach_the_person_alone_and_typed_ones_delete_themselves(
        tmp_path: Path) -> None:
    scene = await lobby(tmp_path, ("Ana", "Bea", "Carlos"))
    ana, bea, carlos = scene.people
    await scene.press(ana, "join1")
    await scene.press(bea, "join2")
    await scene.press(ana, "start")
    await scene.advance(2)
    table = scene.table()
    while not (table.state.awaits(ana.user) or table.state.awaits(bea.user)):
        await scene.advance(0.5)
    waiting = ana if table.state.awaits(ana.user) else bea
    other = bea if waiting is ana else ana
    # Typed out of turn: a brief reply to the message, gone after a few seconds.
    turn = table.state.turn
    said = await scene.say(other, "no hay mus")
    await scene.advance(5)  # the channel's messages may be waiting for its budget
    replies = [m for m in scene.world.messages(scene.channel) if m.reference == said]
    assert len(replies) == 1 and "No es tu turno" in replies[0].content
    assert not replies[0].deleted
    await scene.advance(9)
    assert replies[0].deleted
    # Pressed out of turn: ephemeral.
    live = await scene.shown_turn(waiting)
    move = next(v for v in verbs(live) if v in ("mus", "paso", "quiero"))
    pressed = await scene.press(other, move, live)
    assert "No es tu turno" in pressed.ephemeral_texts()[0]
    # Someone not seated typing a move: a hint, at most once a minute; chat is left alone.
    await scene.advance(5)
    calls = len(scene.world.calls)
    await scene.say(carlos, "hola a todos")
    await scene.say(waiting, "¿qué tal?")
    answers = [c for c in scene.world.calls[calls:] if c.method == "POST"
               and not (c.json or {}).get("embeds")]  # the table kept in view aside
    assert answers == [], "chat is not answered"
    await scene.say(carlos, "mus")
    await scene.say(carlos, "envido")
    await scene.advance(5)
    hints = [m for m in scene.world.messages(scene.channel) if "no estás sentado" in m.content]
    assert len(hints) == 1
    assert table.state.turn == turn, "none of it was a move"
    await scene.advance(61)
    await scene.say(carlos, "paso")
    await scene.advance(5)
    hints = [m for m in scene.world.messages(scene.channel) if "no estás sentado" in m.content]
    assert len(hints) == 2


async def test_an_unexpected_failure_is_answered_and_logged_with_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    scene = await lobby(tmp_path, ("Ana",))
    table = scene.table()

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(table, "join", broken)
    with caplog.at_level(logging.ERROR):
        inter = await scene.press(scene.people[0], "join1")
    assert inter.response_type is not None, "never «The application did not respond»"
    assert "Algo ha fallado" in inter.ephemeral_texts()[0]
    assert any(str(scene.channel) in r.getMessage() for r in caplog.records)
    command = await scene.slash(scene.people[0], "mus unirse")
    assert "Algo ha fallado" in command.ephemeral_texts()[0]
    await scene.world.disconnect(scene.bot)


# --- helpers --------------------------------------------------------------------------------


async def open_and_start_seated(scene: Scene) -> None:
    for i, person in enumerate(scene.people):
        await scene.press(person, "join1" if i % 2 == 0 else "join2")
    await scene.press(scene.people[0], "start")
    await scene.advance(1)


async def wait_for_turn(scene: Scene, person: object, limit: float = 120.0) -> None:
    table = scene.table()
    waited = 0.0
    while not table.state.awaits(person.user) and waited < limit:  # type: ignore[attr-defined]
        await scene.advance(0.5)
        waited += 0.5
    assert table.state.awaits(person.user), "the person's turn never came"  # type: ignore[attr-defined]


def _unused() -> None:  # keeps the imported sentence helper referenced for future checks
    TABLE("showdown")
