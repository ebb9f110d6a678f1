"""The persistent buttons and the envido modal, called as discord.py would call them."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord_fakes import Env, ephemeral_texts, make_env, make_interaction

from musbot.discordio import ui
from musbot.engine import ActionKind
from musbot.table import Table


async def seated(env: Env, people: int = 4) -> Table:
    table = await env.open()
    for user_id in range(1, people + 1):
        await table.join(user_id, f"P{user_id}")
        env.bot.user(user_id)
    return table


async def roundtrip(item: discord.ui.DynamicItem[Any]) -> discord.ui.DynamicItem[Any]:
    match = item.template.fullmatch(item.custom_id)
    assert match is not None, item.custom_id
    again = await type(item).from_custom_id(None, item.item, match)  # type: ignore[arg-type]
    assert again.custom_id == item.custom_id
    return again


@pytest.mark.parametrize("verb", ui.ACTION_VERBS)
async def test_action_button_round_trip(verb: str) -> None:
    again = await roundtrip(ui.ActionButton(123456789012345678, verb))
    assert isinstance(again, ui.ActionButton)
    assert (again.channel_id, again.verb) == (123456789012345678, verb)


@pytest.mark.parametrize("verb", ui.TABLE_VERBS)
async def test_table_button_round_trip(verb: str) -> None:
    again = await roundtrip(ui.TableButton(42, verb))
    assert isinstance(again, ui.TableButton)
    assert (again.channel_id, again.verb) == (42, verb)


@pytest.mark.parametrize("mask,pos", [(0, 0), (5, 2), (15, 3)])
async def test_discard_items_round_trip(mask: int, pos: int) -> None:
    toggle = await roundtrip(ui.DiscardToggle(7, "3.1", mask, pos, label="1 · x"))
    assert isinstance(toggle, ui.DiscardToggle)
    assert (toggle.channel_id, toggle.token, toggle.mask, toggle.pos) == (7, "3.1", mask, pos)
    confirm = await roundtrip(ui.DiscardConfirm(7, "3.1", mask))
    assert isinstance(confirm, ui.DiscardConfirm)
    assert (confirm.token, confirm.mask) == ("3.1", mask)


def test_custom_ids_fit_discord_and_unknown_verbs_do_not_match() -> None:
    big = 2**63
    for item in (ui.ActionButton(big, "noquiero"), ui.TableButton(big, "rematch"),
                 ui.DiscardToggle(big, "999.99", 15, 3), ui.DiscardConfirm(big, "999.99", 15)):
        assert len(item.custom_id) <= 100
    assert ui.ActionButton.__discord_ui_compiled_template__.fullmatch("mus:a:1:tirar") is None


async def test_ver_mis_cartas_is_ephemeral_and_private() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    button = ui.TableButton(env.channel.id, "cards")
    interaction = make_interaction(env.bot, env.bot.user(2))
    await button.callback(interaction)
    call = interaction.response.send_message.await_args
    assert call.kwargs["ephemeral"] is True
    assert call.args[0] == table.private_text(2)
    # Somebody who does not sit here is told so, ephemerally too.
    stranger = make_interaction(env.bot, env.bot.user(77))
    await button.callback(stranger)
    assert stranger.response.send_message.await_args.kwargs["ephemeral"] is True


async def test_turn_button_applies_the_move_of_the_player_to_act() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    assert table.match is not None and table.match.to_act == 0
    interaction = make_interaction(env.bot, env.bot.user(1))
    await ui.ActionButton(env.channel.id, "mus").callback(interaction)
    interaction.response.defer.assert_awaited_once()
    assert table.match.to_act == 1
    assert ephemeral_texts(interaction) == []


async def test_out_of_turn_button_is_refused_ephemerally() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    interaction = make_interaction(env.bot, env.bot.user(3))
    await ui.ActionButton(env.channel.id, "nohaymus").callback(interaction)
    assert table.match is not None and table.match.to_act == 0
    [text] = ephemeral_texts(interaction)
    assert "turno" in text
    stranger = make_interaction(env.bot, env.bot.user(99))
    await ui.ActionButton(env.channel.id, "mus").callback(stranger)
    assert ephemeral_texts(stranger) and not stranger.response.defer.await_count


async def test_buttons_of_a_closed_table_say_so() -> None:
    env = make_env()
    interaction = make_interaction(env.bot, env.bot.user(1))
    await ui.ActionButton(env.channel.id, "paso").callback(interaction)
    assert ephemeral_texts(interaction) == ["No hay ninguna mesa en este canal."]


async def test_envido_n_opens_a_modal_and_its_amount_is_bet() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    assert table.match is not None
    await table.act(1, _action("no hay mus"))
    interaction = make_interaction(env.bot, env.bot.user(1))
    await ui.ActionButton(env.channel.id, "envidon").callback(interaction)
    modal = interaction.response.send_modal.await_args.args[0]
    assert isinstance(modal, ui.EnvidoModal)
    bad = make_interaction(env.bot, env.bot.user(1))
    await modal.submit(bad, "muchos")
    assert ephemeral_texts(bad) and table.match.view(0).bet == 0
    low = make_interaction(env.bot, env.bot.user(1))
    await modal.submit(low, "1")
    assert ephemeral_texts(low) and table.match.view(0).bet == 0
    good = make_interaction(env.bot, env.bot.user(1))
    await modal.submit(good, " 5 ")
    assert table.match.view(0).bet == 5


async def test_discard_controls_toggle_then_confirm() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    for user_id in (1, 2, 3, 4):
        await table.act(user_id, _action("mus"))
    match = table.match
    assert match is not None and match.view(0).phase == "descarte"
    controls = ui.discard_view(table, 1)
    assert controls is not None
    toggles = [i for i in controls.children if isinstance(i, ui.DiscardToggle)]
    assert len(toggles) == 4
    confirm = next(i for i in controls.children if isinstance(i, ui.DiscardConfirm))
    assert confirm.item.disabled
    # Pick cards 1 and 3.
    press = make_interaction(env.bot, env.bot.user(1))
    await toggles[0].callback(press)
    after = press.response.edit_message.await_args.kwargs["view"]
    press2 = make_interaction(env.bot, env.bot.user(1))
    await next(i for i in after.children if getattr(i, "pos", None) == 2).callback(press2)
    view = press2.response.edit_message.await_args.kwargs["view"]
    confirm = next(i for i in view.children if isinstance(i, ui.DiscardConfirm))
    assert confirm.mask == 0b101 and not confirm.item.disabled
    cards = match.view(0).cards
    go = make_interaction(env.bot, env.bot.user(1))
    await confirm.callback(go)
    assert go.response.edit_message.await_args.kwargs["view"] is None
    assert ephemeral_texts(go) == []
    assert match.to_act == 1 and match.view(0).cards[:2] == (cards[1], cards[3])
    # The same buttons later speak of cards no longer held: refused, nothing discarded.
    for user_id in (2, 3, 4):
        assert await table.handle_text(user_id, "descarto 1")
    stale = make_interaction(env.bot, env.bot.user(1))
    await confirm.callback(stale)
    assert ephemeral_texts(stale) == [
        "Esas cartas ya no son las tuyas: pulsa «Ver mis cartas» otra vez."]


async def test_discard_confirm_out_of_turn_restores_the_controls() -> None:
    env = make_env()
    table = await seated(env)
    await table.start(1)
    for user_id in (1, 2, 3, 4):
        await table.act(user_id, _action("mus"))
    controls = ui.discard_view(table, 2, mask=1)
    assert controls is not None
    confirm = next(i for i in controls.children if isinstance(i, ui.DiscardConfirm))
    press = make_interaction(env.bot, env.bot.user(2))
    await confirm.callback(press)
    assert "turno" in ephemeral_texts(press)[0]
    assert press.edit_original_response.await_args.kwargs["view"] is not None


async def test_action_verbs_follow_the_public_state() -> None:
    env = make_env()
    table = await seated(env)
    assert ui.action_verbs(table) == []
    await table.start(1)
    assert ui.action_verbs(table) == ["mus", "nohaymus"]
    await table.act(1, _action("no hay mus"))
    assert ui.action_verbs(table) == ["paso", "envido", "envidon", "ordago"]
    await table.act(1, _action("envido"))
    assert ui.action_verbs(table) == ["quiero", "noquiero", "mas", "envidon", "ordago"]
    await table.act(2, _action("órdago"))
    assert ui.action_verbs(table) == ["quiero", "noquiero"]


async def test_table_buttons_seat_start_and_refuse() -> None:
    env = make_env()
    table = await env.open()
    assert [i.verb for i in ui.board_view(table).children] == [  # type: ignore[union-attr]
        "join1", "join2", "bot", "start"]
    join = make_interaction(env.bot, env.bot.user(1))
    await ui.TableButton(env.channel.id, "join2").callback(join)
    assert table.seat_of(1) == 1
    again = make_interaction(env.bot, env.bot.user(1))
    await ui.TableButton(env.channel.id, "join1").callback(again)
    assert "Ya estás sentado" in ephemeral_texts(again)[0]
    await ui.TableButton(env.channel.id, "bot").callback(make_interaction(env.bot,
                                                                          env.bot.user(1)))
    assert table.seats[0] is not None and not table.seats[0].human
    await ui.TableButton(env.channel.id, "start").callback(make_interaction(env.bot,
                                                                            env.bot.user(1)))
    assert table.state == "playing"
    assert "cards" in [i.verb for i in ui.board_view(table).children]  # type: ignore[union-attr]


def _action(text: str) -> Any:
    from musbot.commands import parse

    action = parse(text)
    assert action is not None
    assert action.kind in ActionKind
    return action


def test_card_labels_only_in_discard_controls() -> None:
    # The public builders never label anything with a card.
    pattern = re.compile(r"\d+(🪙|🍷|🗡️|🪵)")
    for verb in ui.ACTION_VERBS:
        assert not pattern.search(str(ui.ActionButton(1, verb).item.label))
    for verb in ui.TABLE_VERBS:
        assert not pattern.search(str(ui.TableButton(1, verb).item.label))
