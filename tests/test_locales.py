"""A person's saved language, read as an interaction begins (``musbot.discordio.locales``): a
slow database does not hold the interaction up, and its read is never cut off midway (a query
cancelled in the middle leaves a shared connection mid-protocol for the next one)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from musbot.discordio import locales
from musbot.storage import Database
from musbot.table import TableManager
from musbot.table.languages import Speakers


class Slow:
    """A real database whose reads of a person's language take ``seconds`` first."""

    def __init__(self, db: Database, seconds: float) -> None:
        self.db = db
        self.seconds = seconds
        self.finished = 0

    async def person_language(self, user_id: int) -> str | None:
        await asyncio.sleep(self.seconds)
        chosen = await self.db.person_language(user_id)
        self.finished += 1
        return chosen


async def test_a_slow_read_goes_on_without_holding_the_interaction_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locales, "READ_SECONDS", 0.05)
    async with Database(tmp_path / "musbot.db") as db:
        await db.set_person_language(7, "eu")
        slow = Slow(db, 0.3)
        speakers = Speakers()
        client = SimpleNamespace(tables=SimpleNamespace(speakers=speakers), db=slow)
        start = time.perf_counter()
        await locales.recall(client, 7)
        assert time.perf_counter() - start < 0.25  # went on without it
        assert not speakers.known(7)
        await asyncio.sleep(0.5)
        assert slow.finished == 1  # the read was not cut off...
        assert speakers.known(7) and speakers.chosen(7) == "eu"  # ...and its answer is kept
        assert await db.person_language(7) == "eu"  # the connection is fine


async def test_a_quick_read_is_known_at_once(tmp_path: Path) -> None:
    async with Database(tmp_path / "musbot.db") as db:
        await db.set_person_language(8, "fr")
        manager = TableManager(transport=None)  # type: ignore[arg-type]
        client = SimpleNamespace(tables=manager, db=db)
        await locales.recall(client, 8)
        assert manager.speakers.chosen(8) == "fr"
