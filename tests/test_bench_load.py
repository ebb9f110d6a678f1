"""``musbot bench load`` on a tiny bot: the figures are there and sane. No timed assertion: the
machine's speed is not what these tests check."""

from __future__ import annotations

import json

import pytest

from musbot.cli import main
from musbot.discordio.memory import MemoryClient

KEYS = {"tables", "actions_per_s", "latency_ms_p50", "latency_ms_p99", "latency_ms_max",
        "rss_mb", "db_bytes_per_hand", "restore_s"}


def test_bench_load_prints_one_json_line_with_the_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "load", "--tables", "3", "--minutes", "0.02", "--rate", "60",
                 "--closed-seconds", "0.5", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("musbot bench load — 3 tables")
    assert any("open loop" in line for line in out)  # the load model is stated
    result = json.loads(out[-1])
    assert set(result) >= KEYS
    assert result["tables"] == 3
    assert result["actions"] > 0 and result["actions_per_s"] > 0
    assert 0 <= result["latency_ms_p50"] <= result["latency_ms_p99"] <= result["latency_ms_max"]
    # The save is part of each action's latency, so it can never take longer than the slowest.
    assert 0 < result["save_ms_p50"] <= result["save_ms_p99"] <= result["save_ms_max"] \
        <= result["latency_ms_max"]
    # Moves within a hand go to the tables' journals; deals and finished hands save the state.
    assert 0 < result["journal_share"] < 1
    assert result["max_actions_per_s"] > 0
    assert 0 < result["engine_share"] < 1
    assert 0 < result["loop_busy"] <= 1.05  # thread CPU over wall time (clock granularity)
    assert result["rss_mb"] > 0
    # Every table is still live, and all of them come back from the database.
    assert result["live_tables"] == result["restored"] == 3
    assert result["restore_s"] >= 0
    assert result["db_bytes_per_hand"] >= 0
    if result["hands"]:
        assert result["db_bytes_per_hand"] > 0
    assert result["rendered"]["public"] > 0 and result["rendered"]["private"] > 0


async def test_memory_client_renders_and_forgets() -> None:
    import discord

    client = MemoryClient()
    channel = client.get_channel(7)
    assert client.get_channel(7) is channel
    message = await channel.send("hola", embed=discord.Embed(description="mesa"))
    await message.edit(embed=discord.Embed(description="otra"))
    await (await client.fetch_user(5)).send("tus cartas")
    stats = client.stats
    assert (stats.public, stats.private, stats.edits) == (1, 1, 1)
    assert stats.chars > len("holamesaotratus cartas")
