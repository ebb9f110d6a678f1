"""Which musbot the tests run against.

By default the working tree (``pythonpath = ["."]`` in pyproject.toml), so an edit is tested
without reinstalling. ``.ci/run`` also runs the engine's tests against the installed, compiled
engine, with ``MUSBOT_EXPECT_COMPILED=1``: then a plain module there is an error, not a pass.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest


def pytest_sessionstart(session: pytest.Session) -> None:
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
