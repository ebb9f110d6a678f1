"""The ``musbot`` command line: subcommands exist and the benchmark prints its JSON line."""

from __future__ import annotations

import json

import pytest

from musbot.cli import build_parser, main


def test_bench_engine_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--runs", "1", "--hands", "30", "--comparisons", "2000",
                 "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {"hands_per_s", "comparisons_per_s"}
    assert figures["hands_per_s"] > 0 and figures["comparisons_per_s"] > 0


def test_play_auto_runs_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--seed", "4", "--puntos", "10", "--juegos", "1"]) == 0
    assert "Partida" in capsys.readouterr().out


def test_unknown_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["juega"])
    assert exc.value.code == 2
