"""The persistent buttons: their custom ids survive a restart and fit Discord, and what they
offer follows the table's public state. What they do when pressed is tested through the wire
double (``test_discord_table.py``)."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from table_helpers import make_table, seat_humans

from musbot.discordio import ui
from musbot.discordio.discard import DiscardConfirm, DiscardToggle
from musbot.engine import ActionKind


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
    toggle = await roundtrip(DiscardToggle(7, "3.1", mask, pos, label="1 · x"))
    assert isinstance(toggle, DiscardToggle)
    assert (toggle.channel_id, toggle.token, toggle.mask, toggle.pos) == (7, "3.1", mask, pos)
    confirm = await roundtrip(DiscardConfirm(7, "3.1", mask))
    assert isinstance(confirm, DiscardConfirm)
    assert (confirm.token, confirm.mask) == ("3.1", mask)


def test_custom_ids_fit_discord_and_unknown_verbs_do_not_match() -> None:
    big = 2**63
    for item in (ui.ActionButton(big, "noquiero"), ui.TableButton(big, "rematch"),
                 DiscardToggle(big, "999.99", 15, 3), DiscardConfirm(big, "999.99", 15)):
        assert len(item.custom_id) <= 100
    assert ui.ActionButton.__discord_ui_compiled_template__.fullmatch("mus:a:1:tirar") is None


async def test_action_verbs_follow_the_public_state() -> None:
    table, _, _ = make_table(turn_seconds=None)
    await seat_humans(table)
    assert ui.action_verbs(table) == []
    await table.start(1)
    assert ui.action_verbs(table) == ["mus", "nohaymus"]
    await table.act(1, _action("no hay mus"))
    assert ui.action_verbs(table) == ["paso", "envido", "envidon", "ordago"]
    await table.act(1, _action("envido"))
    assert ui.action_verbs(table) == ["quiero", "noquiero", "mas", "envidon", "ordago"]
    await table.act(2, _action("órdago"))
    assert ui.action_verbs(table) == ["quiero", "noquiero"]


def test_card_labels_only_in_discard_controls() -> None:
    # The public builders never label anything with a card.
    pattern = re.compile(r"\d+(🪙|🍷|🗡️|🪵)")
    for verb in ui.ACTION_VERBS:
        assert not pattern.search(str(ui.ActionButton(1, verb).item.label))
    for verb in ui.TABLE_VERBS:
        assert not pattern.search(str(ui.TableButton(1, verb).item.label))


def _action(text: str) -> Any:
    from musbot.commands import parse

    action = parse(text)
    assert action is not None
    assert action.kind in ActionKind
    return action
