"""The in-memory stand-ins the benchmarks count Discord calls with: routes, the global budget,
windows per channel, the buttons a person can press."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from musbot.testing.memory import (
    CALLBACK,
    EDIT,
    KEPT_MESSAGES,
    OPEN_DM,
    POST,
    MemoryClient,
    MemoryInteraction,
)


async def test_memory_client_counts_routes_and_windows() -> None:
    now = [0.0]
    client = MemoryClient(lambda: now[0])
    channel = client.get_channel(7)
    assert client.get_channel(7) is channel
    message = await channel.send("hola", embed=discord.Embed(description="mesa"))
    await message.edit(embed=discord.Embed(description="otra"))
    await (await client.create_dm(discord.Object(id=5))).send("tus cartas")
    stats = client.stats
    assert stats.calls == {POST: 2, EDIT: 1, OPEN_DM: 1} and stats.dm_posts == 1
    assert stats.budget_calls == 4
    assert stats.chars > len("holamesaotratus cartas")
    for _ in range(3):
        await channel.send("x")
    assert stats.worst[POST] == 4  # one channel's 4 posts in the same 5 s (not the DM's)
    now[0] = 5.0
    await channel.send("y")
    assert stats.worst[POST] == 4  # the first ones left the window


async def test_interaction_answers_are_outside_the_budget_and_update_the_buttons() -> None:
    from musbot.discordio import ui

    client = MemoryClient()
    channel = client.channel(7)
    view = ui.page_view(("mus", "paso", "cards"))
    message = await channel.send(embed=discord.Embed(description="mesa"), view=view)
    assert channel.buttons[message.id] == ("mus:a:mus", "mus:a:paso", "mus:t:cards")
    interaction = MemoryInteraction(None, client.stats, SimpleNamespace(id=1), message, 7)
    await interaction.response.edit_message(view=None)
    assert message.id not in channel.buttons
    with pytest.raises(discord.InteractionResponded):
        await interaction.response.defer()
    await interaction.followup.send("solo para ti", ephemeral=True)
    assert interaction.answers == ["solo para ti"]
    assert client.stats.calls[CALLBACK] == 1 and client.stats.budget_calls == 1  # the post
    assert client.stats.buttons == 3  # buttons, not rows


async def test_calls_over_a_channels_limit_are_counted() -> None:
    now = [0.0]
    client = MemoryClient(lambda: now[0])
    channel = client.channel(7)
    message = await channel.send("x")
    for _ in range(7):
        await message.edit(content="y")
    stats = client.stats
    assert stats.worst_by_kind[("table", EDIT)] == 7
    assert stats.over[("table", EDIT)] == 2  # the 6th and the 7th within 5 s
    now[0] = 10.0
    await message.edit(content="z")
    assert stats.over[("table", EDIT)] == 2
    # Exactly 5 s after: the first edit's window is over, whatever the floats say.
    now[0] = 3.2
    other = await client.channel(8).send("w")
    for moment in (3.2, 4.2, 5.2, 6.2, 7.2, 8.2):
        now[0] = moment
        await other.edit(content="v")
    assert stats.over[("table", EDIT)] == 2 and 8.2 - 5 < 3.2
    dm = await client.create_dm(SimpleNamespace(id=3))
    for _ in range(6):
        await dm.send("cartas")
    assert stats.over[("dm", POST)] == 1 and stats.over[("table", POST)] == 0


async def test_a_channel_remembers_the_buttons_of_its_last_messages_only() -> None:
    from musbot.discordio import ui

    client = MemoryClient()
    channel = client.channel(7)
    sent = [await channel.send(view=ui.page_view(("mus",))) for _ in range(KEPT_MESSAGES + 3)]
    assert list(channel.buttons) == [m.id for m in sent[-KEPT_MESSAGES:]]
