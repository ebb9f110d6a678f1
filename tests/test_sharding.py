"""Sharded processes (issue 18): the shard options, which tables a process restores, and the
relay that brings a DM (Discord sends every DM to shard 0) to the process that owns the table."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from musbot.bot import run_command
from musbot.config import ConfigError, load_config


def test_shards_from_env_file_and_flags(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=t\nMUSBOT_SHARDS=4\nMUSBOT_SHARD_IDS=2, 3\n")
    config = load_config(env, environ={})
    assert (config.shard_count, config.shard_ids, config.own_shards) == (4, (2, 3), (2, 3))
    assert config.sharded
    whole = load_config(None, environ={"MUSBOT_SHARDS": "2"})
    assert (whole.shard_ids, whole.own_shards) == (None, (0, 1))
    plain = load_config(None, environ={})
    assert not plain.sharded and plain.own_shards == (0,)


@pytest.mark.parametrize(("count", "ids", "code"), [
    ("0", "", "shards_count"),
    ("dos", "", "shards_count"),
    ("2", "0,2", "shards_ids"),
    ("2", "1,1", "shards_ids"),
    ("2", "uno", "shards_ids"),
    ("", "0", "shards_ids_alone"),
])
def test_bad_shard_options_are_clear_errors(count: str, ids: str, code: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(None, environ={"MUSBOT_SHARDS": count, "MUSBOT_SHARD_IDS": ids})
    assert caught.value.code == code


def test_run_with_bad_shard_flags_says_so_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nMUSBOT_SHARDS=2\n")
    args = argparse.Namespace(env_file=str(env), dev_guild=None, idioma="es", shards=None,
                              shard_ids="0,5")
    assert run_command(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("Configuración no válida: MUSBOT_SHARD_IDS (--shard-ids)")
    assert "«0,5»" in err and "Traceback" not in err
