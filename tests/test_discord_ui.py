"""The persistent buttons: their custom ids survive a restart and fit Discord, and what they
offer follows the table's public state. What they do when pressed is tested through the wire
double (``test_discord_table.py``)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from table_helpers import make_table, seat_humans

from musbot.discordio import ui
from musbot.discordio.discard import DiscardConfirm, DiscardToggle
from musbot.engine import ActionKind


async def roundtrip(item: discord.ui.DynamicItem[Any], interaction: Any = None
                    ) -> discord.ui.DynamicItem[Any]:
    match = item.template.fullmatch(item.custom_id)
    assert match is not None, item.custom_id
    again = await type(item).from_custom_id(interaction, item.item, match)
    return again


@pytest.mark.parametrize("verb", ui.ACTION_VERBS)
async def test_action_button_round_trip(verb: str) -> None:
    """A button names no channel: a press is for the table of the message's channel."""
    shown = ui.ActionButton(verb)
    assert shown.custom_id == f"mus:a:{verb}"
    again = await roundtrip(shown, SimpleNamespace(channel_id=123456789012345678))
    assert isinstance(again, ui.ActionButton)
    assert (again.channel_id, again.verb) == (123456789012345678, verb)


@pytest.mark.parametrize("verb", ui.TABLE_VERBS)
async def test_table_button_round_trip(verb: str) -> None:
    again = await roundtrip(ui.TableButton(verb), SimpleNamespace(channel_id=42))
    assert isinstance(again, ui.TableButton)
    assert (again.channel_id, again.verb) == (42, verb)


@pytest.mark.parametrize("custom_id,channel,verb", [
    ("mus:a:123456789012345678:envido", 123456789012345678, "envido"),
    ("mus:t:42:rematch", 42, "rematch")])
async def test_buttons_sent_before_with_their_channel_still_work(
        custom_id: str, channel: int, verb: str) -> None:
    """Messages sent before buttons dropped the channel keep working after the update: the
    channel they name wins."""
    kind = ui.ActionButton if ":a:" in custom_id else ui.TableButton
    match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    again = await kind.from_custom_id(SimpleNamespace(channel_id=999), None,  # type: ignore[arg-type]
                                      match)
    assert (again.channel_id, again.verb) == (channel, verb)


async def test_a_press_with_no_channel_is_for_no_table() -> None:
    from musbot.table import TableError

    with pytest.raises(TableError):
        await roundtrip(ui.ActionButton("paso"), SimpleNamespace(channel_id=None))


def test_one_row_of_buttons_serves_every_table() -> None:
    """Built once per row and language: no table keeps views of its own."""
    assert ui.page_view(("mus", "cards"), "es") is ui.page_view(("mus", "cards"), "es")
    assert ui.page_view(("mus", "cards"), "es") is not ui.page_view(("mus", "cards"), "eu")
    assert [item.custom_id for item in ui.page_view(("paso", "cards"), "es").children] == [
        "mus:a:paso", "mus:t:cards"]


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
    for item in (ui.ActionButton("noquiero", channel_id=big),
                 ui.TableButton("rematch", channel_id=big),
                 DiscardToggle(big, "999.99", 15, 3), DiscardConfirm(big, "999.99", 15)):
        assert len(item.custom_id) <= 100
    assert ui.ActionButton.__discord_ui_compiled_template__.fullmatch("mus:a:1:tirar") is None
    assert ui.ActionButton.__discord_ui_compiled_template__.fullmatch("mus:a:tirar") is None


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
        assert not pattern.search(str(ui.ActionButton(verb).item.label))
    for verb in ui.TABLE_VERBS:
        assert not pattern.search(str(ui.TableButton(verb).item.label))


def _action(text: str) -> Any:
    from musbot.grammar import parse

    action = parse(text)
    assert action is not None
    assert action.kind in ActionKind
    return action
