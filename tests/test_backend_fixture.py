"""The storage tests' PostgreSQL runs (conftest.py): without a server they skip and say why,
except under CI=true, where a PostgreSQL test that skips fails the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_one_storage_test(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "MUSBOT_TEST_POSTGRES")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
         "tests/test_leagues.py::test_join_league"],
        cwd=ROOT, env={**environ, **env}, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("ci", ["", "true"])
def test_without_a_server_postgresql_runs_skip_and_say_why_but_fail_under_ci(ci: str) -> None:
    run = run_one_storage_test(**({"CI": ci} if ci else {}))
    if ci:
        assert run.returncode == 1, run.stdout
        assert "1 passed, 1 error" in run.stdout
        assert "a PostgreSQL test may not skip under CI=true" in run.stdout
    else:
        assert run.returncode == 0, run.stdout
        assert "1 passed, 1 skipped" in run.stdout
        assert "1 PostgreSQL tests skipped: set MUSBOT_TEST_POSTGRES" in run.stdout
