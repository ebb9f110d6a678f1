"""How the bots read a person's betting, stored per server (issue #28) on both backends: one
document per (server, player), never read at another server's tables, deleted by «forget me»."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from db_helpers import execute, select

from musbot.storage import Database, schema
from musbot.storage.schema import load_migrations


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target, busy_timeout=0.2) as database:
        yield database


A = {"v": 1, "words": 3, "note": "ñ"}
B = {"v": 1, "words": 9}


async def test_readings_are_kept_per_server(db: Database) -> None:
    assert await db.player_readings(1, []) == {}
    assert await db.player_readings(1, [7]) == {}
    await db.save_player_readings(1, {7: A, 8: B})
    await db.save_player_readings(2, {7: B})
    assert await db.player_readings(1, [7, 8, 9]) == {7: A, 8: B}
    assert await db.player_readings(2, [7, 8]) == {7: B}  # never another server's
    await db.save_player_readings(1, {7: B})  # written again: replaced
    assert await db.player_readings(1, [7]) == {7: B}
    await db.save_player_readings(1, {})  # nothing to write: no transaction
    big = 2**63 - 1  # Discord ids use every bit
    await db.save_player_readings(big, {big: A})
    assert await db.player_readings(big, [big]) == {big: A}


async def test_a_document_that_is_not_an_object_is_left_out(db: Database) -> None:
    await execute(db, "INSERT INTO player_readings (guild_id, user_id, reading, updated_at)"
                      " VALUES (1, 7, '[1, 2]', 'x')")
    assert await db.player_readings(1, [7]) == {}


async def test_forget_player_deletes_their_readings_on_every_server(db: Database) -> None:
    await db.save_player_readings(1, {7: A, 8: B})
    await db.save_player_readings(2, {7: A})
    # Only a reading was known of 7 (no match stored yet): forgetting still finds something.
    assert await db.forget_player(7) is True
    assert await db.player_readings(1, [7, 8]) == {8: B}
    assert await db.player_readings(2, [7]) == {}
    assert await select(db, "SELECT COUNT(*) FROM player_readings WHERE user_id = 7") == [(0,)]
    assert await db.forget_player(7) is False


def test_two_migrations_of_one_number_are_refused(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two branches that numbered a migration alike must not merge quietly: which one ran
    would depend on the order of the directory's entries."""
    folder = tmp_path / "migrations"
    (folder / "postgresql").mkdir(parents=True)
    (folder / "0001_one.sql").write_text("SELECT 1;")
    (folder / "0002_two.sql").write_text("SELECT 2;")
    (folder / "0002_other.sql").write_text("SELECT 3;")

    class Files:
        @staticmethod
        def files(_: str) -> Path:
            return tmp_path

    monkeypatch.setattr(schema, "resources", Files)
    with pytest.raises(RuntimeError, match="two migrations numbered 0002"):
        load_migrations()
    (folder / "0002_other.sql").unlink()
    assert [m.name for m in load_migrations()["sqlite"]] == ["one", "two"]
