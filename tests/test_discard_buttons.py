"""A discard prompt's buttons are data until the DM goes (issue 24): a DM queued behind its
channel's limit holds a few values, not a view of five items that point at each other."""

from __future__ import annotations

import dataclasses

from table_helpers import make_table, seat_humans

from musbot.discordio.discard import DiscardButtons, discard_buttons, discard_view
from musbot.engine import MUS
from musbot.table.render import card_text


async def test_a_discard_prompt_is_kept_as_data_and_shows_the_holders_cards() -> None:
    table, _, _ = make_table()
    users = await seat_humans(table)
    await table.start(users[0])
    assert discard_buttons(table, users[0]) is None, "not in the discard yet"
    for seat in range(4):
        await table.act(users[seat], MUS)
    match = table.match
    assert match is not None and match.view(-1).phase == "descarte"
    buttons = discard_buttons(table, users[1])
    assert isinstance(buttons, DiscardButtons)
    held = match.view(1).cards
    assert buttons.labels == tuple(f"{i + 1} · {card_text(c)}" for i, c in enumerate(held))
    kept = [getattr(buttons, f.name) for f in dataclasses.fields(buttons)]
    assert all(isinstance(v, int | str | tuple) for v in kept), "plain values only"
    shown = buttons.view()
    again = discard_view(table, users[1])
    assert again is not None
    ids = [item.custom_id for item in shown.children]  # type: ignore[attr-defined]
    assert ids == [item.custom_id for item in again.children]  # type: ignore[attr-defined]
    assert len(ids) == 5 and all(f":{table.channel_id}:" in i for i in ids)
    assert discard_buttons(table, 999) is None, "not seated"
