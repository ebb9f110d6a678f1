"""The tournament runner started while its database is down (issue 47, item 6): the start fails
saying so and leaves nothing half read; the next start, once the database answers, carries
every tournament on where it was: the match's table in its place (never a second one), its
result heard, the champions decided; and a change refused by a database gone down
meanwhile is undone, then made once it is back. A real SQLite file; the benchmark's venue."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_txapelketa_runner import signed, start

from musbot.bench.txapelketa import play_tables
from musbot.engine import Rules
from musbot.storage import Database, StorageError
from musbot.table import ManualClock
from musbot.table.persist import TablePersister
from musbot.tournament import MatchState, Reporting, Stage


class Outage:
    """A database method that fails ``times`` times (the server down), then answers."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, db: Database, method: str,
                 times: int = 1) -> None:
        self.left = times
        real = getattr(db, method)

        async def down(*args: Any, **kwargs: Any) -> Any:
            if self.left > 0:
                self.left -= 1
                raise StorageError("the database is down")
            return await real(*args, **kwargs)

        monkeypatch.setattr(db, method, down)


async def test_the_runner_starts_once_the_database_answers_and_carries_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    path = tmp_path / "o.db"
    db, tables, runner, venue = await start(path, clock)
    await runner.start()
    cup = await signed(runner, 2, games_to_win=1, rules=Rules(puntos=5))
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    place = cup.places[match.id]
    assert len(venue.calls) == 1
    runner.stop()
    tables.suspend_all()
    await db.close()

    db, tables, runner, venue = await start(path, clock)
    await TablePersister(db).restore(tables)
    Outage(monkeypatch, db, "open_tournaments", times=2)
    for _ in range(2):
        with pytest.raises(StorageError):
            await runner.start()
        assert not runner.started and not runner.cups, "nothing half read"
    await runner.start()
    [cup] = runner.cups.values()
    assert cup.places == {match.id: place}
    assert [p for p, _ in venue.calls] in ([], [place]), "in its place, never a new one"
    assert [t.channel_id for t in tables] == [place], "one table"
    await play_tables(tables, set())
    await runner.idle()
    assert cup.tournament.matches[match.id].state is MatchState.FINISHED
    assert cup.tournament.phase is Stage.FINISHED
    assert (await db.load_tournament(cup.tournament_id)).tournament == cup.tournament
    await db.close()


async def test_a_report_refused_by_the_database_is_undone_and_made_once_it_is_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    db, _, runner, venue = await start(tmp_path / "r.db", clock)
    await runner.start()
    cup = await signed(runner, 2, reporting=Reporting.TABLE)
    await runner.draw(cup)
    [match] = cup.tournament.ready()
    first = cup.tournament.pairs[match.pairs[0] or 0].players[0]
    assert first is not None
    before = cup.tournament.to_dict()
    Outage(monkeypatch, db, "save_tournament")
    with pytest.raises(StorageError):
        await runner.change(cup, lambda t, now: t.report(match.id, first, (3, 1), now=now))
    assert cup.tournament.to_dict() == before
    asked = [(text, users) for text, users in venue.news_sent if text.startswith("📝")]
    assert asked == [], "undone: nobody was asked to confirm"
    await runner.change(cup, lambda t, now: t.report(match.id, first, (3, 1), now=now))
    assert cup.tournament.matches[match.id].report is not None
    asked = [(text, users) for text, users in venue.news_sent if text.startswith("📝")]
    second = cup.tournament.pairs[match.pairs[1] or 0].players
    assert [users for _, users in asked] == [list(second)], "the other pair asked once"
    assert (await db.load_tournament(cup.tournament_id)).tournament == cup.tournament
    await db.close()
