"""The Discord transport: channel, table message, DMs and their fallback, and privacy over whole
matches driven through the buttons."""

from __future__ import annotations

import logging
import random
from typing import Any
from unittest.mock import AsyncMock

import discord
import pytest
from discord_fakes import (
    CHANNEL_ID,
    CHANNEL_NAME,
    GUILD_NAME,
    Env,
    FakeUser,
    Sent,
    ephemeral_texts,
    forbidden,
    make_env,
    make_interaction,
)
from table_helpers import ANY_CARD, cards_mentioned

from musbot.ai import HeuristicBot
from musbot.discordio import reply_via, ui
from musbot.discordio.transport import _chunks
from musbot.engine import Action, ActionKind, Rules, parse_card
from musbot.table import DmClosed, Table, Transport
from musbot.table.render import card_text, t

SHOWDOWN = t("showdown")
SUIT_WORDS = ("de oros", "de copas", "de espadas", "de bastos")


async def seated(env: Env, people: int = 4, *, closed: tuple[int, ...] = (),
                 rules: Rules | None = None) -> Table:
    table = await env.open(rules)
    for user_id in range(1, people + 1):
        env.bot.user(user_id, dm_closed=user_id in closed)
        await table.join(user_id, f"P{user_id}")
    return table


def public_sends(env: Env) -> list[Sent]:
    return list(env.channel.sent) + env.board_message().edits


def assert_card_free(sent: Sent) -> None:
    for text in sent.texts():
        if text.startswith(SHOWDOWN):
            continue  # §5: the hands are shown; that message starts with the showdown
        assert not ANY_CARD.search(text), text
        assert not any(word in text for word in SUIT_WORDS), text


# --- DMs and their fallback ---------------------------------------------------------------------


async def test_closed_dms_fall_back_to_ver_mis_cartas_without_cards() -> None:
    env = make_env()
    table = await seated(env, closed=(2,))
    await table.start(1)
    user = env.bot.users[2]
    assert user.send.await_count == 1  # tried once, refused with 50007
    assert 2 in env.transport.prefers_ephemeral
    notices = [s for s in env.channel.sent if s.content and "<@2>" in s.content]
    assert notices and "Ver mis cartas" in (notices[0].content or "")
    for notice in notices:
        assert_card_free(notice)
    assert any(isinstance(item, ui.TableButton) and item.verb == "cards"
               for item in notices[0].view.children)  # type: ignore[union-attr]
    # Remembered: the next hand does not even try the DM again.
    with pytest.raises(DmClosed):
        await env.transport.private(CHANNEL_ID, 2, "x")
    assert user.send.await_count == 1
    # Other people got their hand by DM, headed with the server and channel.
    [dm] = env.bot.users[1].dms()
    assert dm.startswith(f"🃏 **{GUILD_NAME}** · #{CHANNEL_NAME}\n")
    assert table.private_text(1) in dm


async def test_other_forbidden_codes_are_not_remembered() -> None:
    env = make_env()
    await seated(env, 1)
    user = env.bot.users[1]
    user.send.side_effect = forbidden(50001)
    with pytest.raises(DmClosed):
        await env.transport.private(CHANNEL_ID, 1, "hola")
    assert 1 not in env.transport.prefers_ephemeral


async def test_discard_phase_sends_the_pick_buttons_by_dm_once_per_round() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    for user_id in (1, 2, 3, 4):
        assert await table.handle_text(user_id, "mus")
    for user_id in (1, 2, 3, 4):
        prompts = [s for s in env.bot.users[user_id].dm.sent if s.view is not None]
        assert len(prompts) == 1
        assert "Descartes" in (prompts[0].content or "")
        assert sum(isinstance(i, ui.DiscardToggle) for i in prompts[0].view.children) == 4
        # Issue 6: once sent, the buttons no longer point back at the view, so a prompt is
        # freed by reference counting instead of waiting, as a cycle, for the collector.
        assert all(i.view is None for i in prompts[0].view.children)
        # Prompted: the rest of the round no longer builds this seat's text on every move.
        assert not env.transport.wants_view(CHANNEL_ID, user_id)
    assert await table.handle_text(1, "descarto 1")
    assert len([s for s in env.bot.users[1].dm.sent if s.view is not None]) == 1


async def test_ephemeral_view_is_refreshed_while_it_lives() -> None:
    env = make_env()
    table = await seated(env, closed=(1,))
    await table.start(1)
    interaction = make_interaction(env.bot, env.bot.users[1])
    await ui.show_cards(interaction, table)
    await table.act(1, Action(ActionKind.MUS))
    await env.clock.advance(0)
    edit = interaction.edit_original_response.await_args
    assert edit is not None and edit.kwargs["content"] == table.private_text(1)


# --- the channel ----------------------------------------------------------------------------------


async def test_table_message_edits_are_coalesced() -> None:
    env = make_env()
    table = await seated(env, 1)
    message = env.board_message()
    await env.clock.advance(0)
    first = len(message.edits)
    for _ in range(10):
        await env.transport.public(env.channel.id, "hola")
    await env.clock.advance(0.5)
    assert len(message.edits) <= first + 1
    await env.clock.advance(1.0)
    assert len(message.edits) <= first + 2
    assert message.edits[-1].embed is not None
    assert message.edits[-1].embed.description == table.status()


async def test_older_turn_messages_lose_their_buttons() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    first = next(m for m in env.channel.messages if _turn_view(m.sent))
    await table.act(1, Action(ActionKind.MUS))
    second = [m for m in env.channel.messages if _turn_view(m.sent)][-1]
    assert second is not first
    await env.clock.advance(2)
    assert [e.kwargs for e in first.edits] == [{"view": None}]
    assert second.edits == []
    await env.tables.close(env.channel.id)  # the match is over: no buttons left anywhere
    await env.clock.advance(2)
    assert [e.kwargs for e in second.edits] == [{"view": None}]


def _turn_view(sent: Sent) -> bool:
    return sent.view is not None and any(isinstance(i, ui.ActionButton)
                                         for i in sent.view.children)


async def test_closing_turns_the_table_message_into_a_closed_one() -> None:
    env = make_env()
    await seated(env, 1)
    message = env.board_message()
    await env.tables.close(env.channel.id)
    await env.clock.advance(2)
    last = message.edits[-1]
    assert last.view is None and last.embed is not None
    assert last.embed.description == "Mesa cerrada."
    assert env.channel.id not in env.transport.boards


async def test_reply_goes_to_the_route_or_deletes_itself() -> None:
    env = make_env()
    await seated(env, 1)
    await env.transport.reply(env.channel.id, 1, "No es tu turno.")
    last = env.channel.sent[-1]
    assert last.content == "<@1> No es tu turno."
    assert last.kwargs["delete_after"] == env.transport.reply_seconds
    got: list[str] = []

    async def route(text: str) -> None:
        got.append(text)

    with reply_via(route):
        await env.transport.reply(env.channel.id, 1, "otra")
    assert got == ["otra"]


async def test_public_messages_never_ping_everyone() -> None:
    env = make_env()
    await seated(env, 1)
    await env.transport.public(env.channel.id, "@everyone se sienta")
    mentions = env.channel.sent[-1].kwargs["allowed_mentions"]
    assert mentions.everyone is False and mentions.roles is False


def test_it_is_a_table_transport() -> None:
    assert isinstance(make_env().transport, Transport)


def test_long_texts_are_split_at_line_ends() -> None:
    text = "\n".join("x" * 150 for _ in range(30))
    chunks = _chunks(text)
    assert all(len(c) <= 2000 for c in chunks)
    assert "\n".join(chunks) == text
    assert _chunks("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


# --- privacy over whole matches -------------------------------------------------------------------


def _check_dm(table: Table, user: FakeUser) -> Any:
    """Checks each DM as it is sent, against the state it speaks of."""
    original = user.send.side_effect

    async def send(content: str | None = None, **kwargs: Any) -> Any:
        match = table.match
        seat = table.seat_of(user.id)
        assert match is not None and seat is not None
        view = match.view(seat)
        allowed = set(view.cards)
        if view.revealed is not None:
            allowed |= {c for hand in view.revealed for c in hand}
        assert cards_mentioned(content or "") <= allowed, (seat, content)
        return await original(content, **kwargs)

    user.send.side_effect = send


async def _press(env: Env, table: Table, user_id: int, action: Action) -> None:
    """The move as a person makes it on Discord: a button, the modal, or the discard controls."""
    user = env.bot.users[user_id]
    interaction = make_interaction(env.bot, user)
    channel = env.channel.id
    kind = action.kind
    if kind is ActionKind.DESCARTE:
        match = table.match
        assert match is not None
        cards = match.view(table.seat_of(user_id) or 0).cards
        mask = sum(1 << cards.index(c) for c in action.cards)
        controls = ui.discard_view(table, user_id, mask)
        assert controls is not None
        confirm = next(i for i in controls.children if isinstance(i, ui.DiscardConfirm))
        await confirm.callback(interaction)
    elif kind in (ActionKind.ENVIDO, ActionKind.MAS) and action.amount != 2:
        await ui.EnvidoModal(channel).submit(interaction, str(action.amount))
    else:
        verb = {ActionKind.MUS: "mus", ActionKind.NO_HAY_MUS: "nohaymus",
                ActionKind.PASO: "paso", ActionKind.ENVIDO: "envido", ActionKind.MAS: "mas",
                ActionKind.ORDAGO: "ordago", ActionKind.QUIERO: "quiero",
                ActionKind.NO_QUIERO: "noquiero"}[kind]
        await ui.ActionButton(channel, verb).callback(interaction)
    assert ephemeral_texts(interaction) == [], (action, ephemeral_texts(interaction))


async def _type(env: Env, user_id: int, action: Action) -> None:
    """The move typed in the channel, through the chat cog (discards typed by DM)."""
    from unittest.mock import MagicMock

    from cogs.chat import Chat

    user = env.bot.users[user_id]
    dm = action.kind is ActionKind.DESCARTE
    channel = user.dm if dm else env.channel
    message = MagicMock(spec=discord.Message)
    message.author, message.content = user, action.text()
    message.channel, message.guild = channel, channel.guild
    message.reply = AsyncMock()
    await Chat(env.bot, clock=env.clock).on_message(message)  # type: ignore[arg-type]
    assert not message.reply.await_count, message.reply.await_args


@pytest.mark.parametrize("seed,typed", [(0, False), (1, False), (2, True), (3, True)])
async def test_no_card_in_public_or_logs_over_a_whole_match(
        seed: int, typed: bool, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    env = make_env(seed)
    rules = Rules(juegos=1, sena_cazada=0.5)
    table = await seated(env, 2, closed=(2,), rules=rules)  # two people, two bots
    for user in env.bot.users.values():
        _check_dm(table, user)
    await table.start(1)
    rng = random.Random(seed)
    brain = HeuristicBot()
    steps = 0
    turn_buttons = 0
    while table.state == "playing" and steps < 5000:
        match = table.match
        assert match is not None and match.to_act is not None
        occupant = table.seats[match.to_act]
        assert occupant is not None and occupant.user_id is not None
        if rng.random() < 0.2:  # someone checks their hand now and then
            look = make_interaction(env.bot, env.bot.users[rng.choice([1, 2])])
            await ui.show_cards(look, table)
            assert look.response.send_message.await_args.kwargs["ephemeral"] is True
        action = brain.decide(match.view(match.to_act), rng)
        if typed and occupant.user_id != 2:  # user 2's DMs are closed: buttons only
            await _type(env, occupant.user_id, action)
        else:
            await _press(env, table, occupant.user_id, action)
        await env.clock.advance(1.0)  # lets the coalesced table-message edits happen
        steps += 1
    assert table.state == "finished"
    await env.clock.advance(2.0)
    for sent in public_sends(env):
        assert_card_free(sent)
        if sent.view is not None and any(isinstance(i, ui.ActionButton)
                                         for i in sent.view.children):
            turn_buttons += 1
    assert turn_buttons > 0
    assert any(s.view is not None and any(getattr(i, "verb", "") == "rematch"
                                          for i in s.view.children) for s in env.channel.sent)
    for record in caplog.records:
        text = record.getMessage() + (record.exc_text or "")
        assert not ANY_CARD.search(text), text


def test_the_privacy_check_catches_a_leak() -> None:
    # The checks above are only worth something if a leaked card would fail them.
    with pytest.raises(AssertionError):
        assert_card_free(Sent(f"P1 lleva el {card_text(parse_card('12o'))}"))
    labelled = discord.ui.View()
    labelled.add_item(ui.DiscardToggle(1, "0.0", 0, 0, label=f"1 · {card_text(parse_card('7e'))}"))
    with pytest.raises(AssertionError):
        assert_card_free(Sent(None, view=labelled))


async def test_away_player_gets_a_volver_button_that_brings_them_back() -> None:
    env = make_env(turn_seconds=15.0)
    table = await seated(env, 1, rules=Rules(puntos=10, juegos=1))
    await table.start(1)
    seat = table.seats[0]
    assert seat is not None
    for _ in range(200):
        if seat.away:
            break
        await env.clock.advance(16)
    assert seat.away
    away = [s for s in env.channel.sent if s.content and "vuelvo" in s.content]
    assert away and away[-1].view is not None
    [button] = away[-1].view.children
    assert isinstance(button, ui.TableButton) and button.verb == "back"
    await button.callback(make_interaction(env.bot, env.bot.users[1]))
    assert not seat.away
    await env.tables.close(env.channel.id)


async def test_board_offers_volver_while_someone_is_away() -> None:
    env = make_env()
    table = await seated(env, 1)
    await table.start(1)
    assert "back" not in ui.board_verbs(table)
    assert table.seats[0] is not None
    table.seats[0].away = True
    assert ui.board_verbs(table) == ["join", "cards", "back"]


async def open_boards(env: Env, count: int) -> tuple[list[Any], list[Any]]:
    """``count`` tables in channels of their own, announced: their channels and messages."""
    from discord_fakes import FakeChannel

    channels = [FakeChannel(CHANNEL_ID + i) for i in range(1, count + 1)]
    messages = []
    for channel in channels:
        env.tables.open(channel.id, None, opener_id=1)
        env.transport.bind(channel.id, channel)  # type: ignore[arg-type]
        messages.append(await env.transport.announce(channel.id))
    return channels, messages


async def test_one_task_edits_every_table_message_once_per_interval() -> None:
    """A thousand busy tables must not mean a task and a timer per edit: one editor goes
    through the boards as each becomes due, in order, and is gone when none waits."""
    from musbot.discordio.transport import EDIT_LOOKOUT

    env = make_env()
    transport = env.transport
    channels, messages = await open_boards(env, 5)
    for _ in range(3):  # three changes each, at once: one edit each, when the interval allows
        for channel in channels:
            transport.touch(channel.id)
    editor = transport._editor
    assert editor is not None and not editor.done()
    await env.clock.advance(0.5)
    assert [len(m.edits) for m in messages] == [0] * 5, "announced just now: not before 1 s"
    await env.clock.advance(0.5 + EDIT_LOOKOUT)
    assert [len(m.edits) for m in messages] == [1] * 5
    assert transport._editor is editor and editor.done(), "one task kept the time for all"
    transport.touch(channels[2].id)
    await env.clock.advance(1.0 + EDIT_LOOKOUT)
    assert [len(m.edits) for m in messages] == [1, 1, 2, 1, 1]


async def test_an_edit_waiting_for_discord_holds_up_no_other_table() -> None:
    """discord.py sleeps inside ``edit`` when a channel hits its rate limit: that table's next
    edit waits for it (never two at once, never out of order), the other tables do not."""
    import asyncio

    env = make_env()
    transport = env.transport
    channels, messages = await open_boards(env, 3)
    release = asyncio.Event()
    calls = 0

    async def rate_limited(**kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        await release.wait()

    messages[0].edit = rate_limited  # type: ignore[method-assign]
    for channel in channels:
        transport.touch(channel.id)
    await env.clock.advance(2)
    assert [len(m.edits) for m in messages[1:]] == [1, 1] and calls == 1
    transport.touch(channels[0].id)  # changed again while its edit still waits
    transport.touch(channels[1].id)
    await env.clock.advance(3)
    assert calls == 1 and len(messages[1].edits) == 2
    release.set()
    await env.clock.advance(2)
    assert calls == 2
    await transport.flush()


async def test_a_failing_edit_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    env = make_env()
    transport = env.transport
    channels, messages = await open_boards(env, 3)
    messages[0].edit = AsyncMock(side_effect=RuntimeError("boom"))  # type: ignore[method-assign]
    for channel in channels:
        transport.touch(channel.id)
    with caplog.at_level(logging.WARNING):
        await env.clock.advance(2)
    assert [len(m.edits) for m in messages[1:]] == [1, 1]
    assert "table message edit failed" in caplog.text
    transport.touch(channels[1].id)
    transport.cancel_edits()  # shutdown: what waits is dropped
    await env.clock.advance(2)
    assert len(messages[1].edits) == 1 and transport._due == []


async def test_a_deleted_table_message_is_no_longer_edited() -> None:
    env = make_env()
    await seated(env, 1)
    message = env.board_message()
    response = type("R", (), {"status": 404, "reason": "Not Found"})()
    message.edit = AsyncMock(side_effect=discord.NotFound(response, {"code": 10008}))  # type: ignore[method-assign]
    await env.transport.public(env.channel.id, "hola")
    await env.clock.advance(2)
    assert env.transport.boards[env.channel.id].message is None
    await env.transport.public(env.channel.id, "otra")
    await env.clock.advance(2)
    assert message.edit.await_count == 1
