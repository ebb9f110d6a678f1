"""Which musbot the tests run against, and which storage backends.

By default the working tree (``pythonpath = ["."]`` in pyproject.toml), so an edit is tested
without reinstalling. ``.ci/run`` also runs the engine's tests against the installed, compiled
engine, with ``MUSBOT_EXPECT_COMPILED=1``: then a plain module there is an error, not a pass.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest


def compiled_beside_source(root: Path) -> list[Path]:
    """Compiled modules in the working tree's ``musbot/`` (an editable install of an older
    musbot, or a build run in place): Python imports them instead of the ``.py`` beside them."""
    return sorted(path for pattern in ("*.so", "*.pyd")
                  for path in (root / "musbot").rglob(pattern))


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = compiled_beside_source(Path(__file__).resolve().parent.parent)
    if stale:
        raise pytest.UsageError(
            "compiled modules sit beside the source, and Python would test them instead of the "
            "files you edit: " + ", ".join(str(p) for p in stale[:5])
            + " — delete them (find musbot -name '*.so' -delete); pip install -e . no longer "
            "makes them")
    if not os.environ.get("MUSBOT_EXPECT_COMPILED"):
        return
    from musbot.engine import hand

    if not str(hand.__file__).endswith(".so"):
        raise pytest.UsageError(f"expected the compiled engine, imported {hand.__file__}")


@pytest.fixture(autouse=True)
async def _close_discord_scenes() -> AsyncIterator[None]:
    """A wire-level test that fails leaves no bot connected to the next one."""
    yield
    import sys

    match = sys.modules.get("discord_match")
    if match is not None:
        await match.close_scenes()

# --- the storage backends ------------------------------------------------------------------------
#
# Storage tests take the ``target`` fixture (or ``new_target``, for more than one database) and
# run twice: on an SQLite file, and on a fresh PostgreSQL database created for the test on the
# server MUSBOT_TEST_POSTGRES names and dropped after it. Without that server the PostgreSQL runs
# skip, saying why; under CI=true a skipped PostgreSQL test fails the run instead.

PG_ENV = "MUSBOT_TEST_POSTGRES"


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _on_postgresql(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("backend") == "postgresql"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    report = outcome.get_result()
    if not _on_postgresql(item):
        return
    report.user_properties.append(("backend", "postgresql"))
    if report.skipped and _ci():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"a PostgreSQL test may not skip under CI=true: {reason}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Says once why the PostgreSQL runs skipped, without ``-rs``."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if ("backend", "postgresql") in r.user_properties]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} PostgreSQL tests skipped: set {PG_ENV}=postgresql://… (a server "
            "where the tests may create databases) to run them", yellow=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql" and not os.environ.get(PG_ENV):
        pytest.skip(f"PostgreSQL tests need {PG_ENV}=postgresql://… naming a server where the "
                    "tests may create databases")
    return str(request.param)


@pytest.fixture
async def new_target(backend: str, tmp_path: Path) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """Makes fresh, empty databases on the test's backend: an SQLite file's path, or the URL of
    a PostgreSQL database created for the test (dropped after it)."""
    from db_helpers import create_pg_database, drop_pg_database

    from musbot.storage import Database

    made: list[str] = []
    files = 0

    async def make() -> str:
        nonlocal files
        if backend == "sqlite":
            files += 1
            url = str(tmp_path / f"musbot{files}.db")
        else:
            url = await create_pg_database(os.environ[PG_ENV])
            made.append(url)
        assert Database(url).dialect == backend, url
        return url

    yield make
    for url in made:
        await drop_pg_database(os.environ[PG_ENV], url)


@pytest.fixture
async def target(new_target: Callable[[], Awaitable[str]]) -> str:
    """One fresh, empty database on the test's backend (see :func:`new_target`)."""
    return await new_target()
