"""``musbot bench load`` on a tiny bot: the figures are there and sane. No timed assertion: the
machine's speed is not what these tests check."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import PG_ENV

from musbot.bench.measure import LoopPhase, OtherLoad, StealMeter, busy_ticks, cpu_ticks
from musbot.cli import main

KEYS = {"tables", "actions_per_s", "latency_ms_p50", "latency_ms_p99", "latency_ms_max",
        "rss_mb", "db_bytes_per_hand", "restore_s"}


TINY = ["bench", "load", "--tables", "3", "--minutes", "0.02", "--rate", "60",
        "--closed-seconds", "0.5", "--json"]


def test_bench_load_prints_one_json_line_with_the_figures(
        backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite by default; PostgreSQL on a database the run makes on the test server."""
    server = os.environ.get(PG_ENV, "")
    assert main([*TINY, "--idioma", "en",
                 *(["--db", server] if backend == "postgresql" else [])]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("musbot bench load — 3 tables")
    assert ("PostgreSQL" in out[0]) == (backend == "postgresql")
    assert any("open loop" in line for line in out)  # the load model is stated
    result = json.loads(out[-1])
    assert set(result) >= KEYS
    assert result["tables"] == 3
    assert result["actions"] > 0 and result["actions_per_s"] > 0
    assert 0 <= result["latency_ms_p50"] <= result["latency_ms_p99"] <= result["latency_ms_max"]
    # The save is part of each action's latency: the typical one is within the slowest action.
    # (Not every save: a table's bookkeeping after a Discord post, timed too, is no action's.)
    assert 0 < result["save_ms_p50"] <= result["save_ms_p99"] <= result["save_ms_max"]
    assert result["save_ms_p50"] <= result["latency_ms_max"]
    # Moves within a hand go to the tables' journals; deals and finished hands save the state.
    assert 0 < result["journal_share"] < 1
    assert result["max_actions_per_s"] > 0
    assert 0 < result["engine_share"] < 1
    assert 0 < result["loop_busy"] <= 1.05  # thread CPU over wall time (clock granularity)
    assert result["rss_mb"] > 0
    # Every table is still live, and all of them come back from the database.
    assert result["live_tables"] == result["restored"] == 3
    assert result["restore_s"] > 0  # open, integrity check, load and replay: never free
    assert result["hands"] > 0 and result["db_bytes_per_hand"] >= 100  # a transcript at least
    if result["hands"]:
        assert result["db_bytes_per_hand"] > 0
    assert result["backend"] == backend and result["db_mb"] > 0
    if backend == "postgresql":
        assert result["size_measure"] == "pg_total_relation_size"
        # The server runs on this machine in the tests: its share of the work is measured.
        assert result["server_cpu_ms_per_action"] is not None
        assert result["server_cpu_ms_per_action"] >= 0
        assert not _pg_database_exists(server, result["db"])  # dropped after the run
    else:
        assert result["server_cpu_ms_per_action"] is None
        assert not Path(result["db"]).exists()  # the temporary file is gone
    rest = result["rest"]
    assert rest["per_action"]["POST /channels/{channel_id}/messages"] > 0
    assert rest["dm_posts"] > 0 and rest["budget_per_action"] > 0
    # Discord's per-channel limits held at every table, whatever the load.
    assert 0 < max(rest["worst_window"].values()) <= 5
    # The host's steal is stated with every run (None where the OS does not report it).
    assert {"steal_share", "steal_share_worst", "calm_share", "calm_latency_ms_p99",
            "others_cores"} <= set(result)
    if result["steal_share"] is not None:
        assert 0 <= result["steal_share"] <= result["steal_share_worst"] <= 1
        assert any(line.startswith("  host:") for line in out)


def _pg_database_exists(server: str, url: str) -> bool:
    import asyncpg

    async def look() -> bool:
        conn = await asyncpg.connect(server)
        try:
            return bool(await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1",
                                            urlsplit(url).path.lstrip("/")))
        finally:
            await conn.close()

    return asyncio.run(look())


def test_a_given_path_is_a_new_file_removed_afterwards_with_its_folders(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "new" / "deeper" / "load.db"
    assert main([*TINY, "--db", str(target)]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["db"] == str(target) and result["hands"] >= 0
    assert list(tmp_path.iterdir()) == []  # the file, its log and the folders it needed
    assert main([*TINY, "--db", str(tmp_path)]) == 0  # a directory: a file made in it
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["live_tables"] == 3
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("given", "says"), [
    ("mysql://db", "«mysql://db» no es una base de datos"),
    ("{existing}", "ya existe: la prueba solo crea bases de datos nuevas"),
])
def test_a_database_the_benchmark_would_not_make_is_a_usage_error(
        given: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "musbot.db"
    existing.write_bytes(b"the bot's own data")
    with pytest.raises(SystemExit) as exit_:
        main([*TINY, "--db", given.format(existing=existing)])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err
    assert existing.read_bytes() == b"the bot's own data"


def test_a_database_that_cannot_be_made_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql:///postgres?host={tmp_path}&user=nobody"  # no server listens there
    assert main([*TINY, "--idioma", "en", "--db", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The benchmark's database cannot be made or opened: ")
    assert "Traceback" not in err


def test_several_databases_run_one_after_the_other_and_are_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each in a process of its own; PostgreSQL second when the tests have a server."""
    second = os.environ.get(PG_ENV) or str(tmp_path / "second.db")
    assert main([*TINY, "--idioma", "en", "--db", "sqlite", "--db", second]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert sum(line.startswith("musbot bench load — 3 tables") for line in out) == 2
    assert out[-2].startswith("  CPU: the bot's process")
    summary = json.loads(out[-1])
    first, other = summary["runs"]
    assert first["backend"] == "sqlite"
    assert other["backend"] == ("postgresql" if os.environ.get(PG_ENV) else "sqlite")
    assert summary["p99_vs_first"][0] == 1.0
    assert summary["p99_vs_first"][1] == round(
        other["latency_ms_p99"] / first["latency_ms_p99"], 2)
    assert list(tmp_path.iterdir()) == []


def test_cpu_ticks_reads_steal_from_the_first_line(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 5 50 800 10 1 4 30 7 0\ncpu0 50 2 25 400 5 0 2 15 3 0\n")
    assert cpu_ticks(str(stat)) == (30, 1000)  # guest time is inside user: not counted twice
    stat.write_text("intr 1 2 3\n")
    assert cpu_ticks(str(stat)) is None
    stat.write_text("cpu  1 2 3\n")  # a kernel too old to report steal
    assert cpu_ticks(str(stat)) is None
    assert cpu_ticks(str(tmp_path / "missing")) is None


def test_other_processes_load_is_the_machines_busy_time_less_our_own(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal: busy = user + nice + system + irq + softirq
    stat.write_text("cpu  100 5 50 800 10 1 4 30 7 0\n")
    assert busy_ticks(str(stat)) == (160, 1000)
    ticks = iter([(0, 0), (300, 400)])
    others = OtherLoad(read=lambda: next(ticks))
    others.start()
    others.stop()
    others.seconds = 2.0  # as if the open loop had lasted two seconds
    hz = os.sysconf("SC_CLK_TCK")
    # 300 ticks busy in all; this process's (and its server's) share taken out.
    assert others.cores(own_seconds=100 / hz) == pytest.approx(200 / hz / 2.0)
    assert others.cores(own_seconds=1e9) == 0.0
    assert OtherLoad(read=lambda: None).cores(1.0) is None


def _meter(samples: list[tuple[int, int]], edges: list[float]) -> StealMeter:
    meter = StealMeter(read=lambda: None, min_calm=3)
    meter.samples, meter.edges = samples, edges
    return meter


def test_steal_meter_reports_the_run_its_worst_window_and_the_calm_p99() -> None:
    # Three half-second windows: none stolen, 10 of 100 ticks, none again.
    meter = _meter([(0, 0), (0, 100), (10, 200), (10, 300)], [0.0, 0.5, 1.0, 1.5])
    assert meter.fractions() == [0.0, 0.1, 0.0]
    phase = LoopPhase()
    # (due, latency): calm, calm, done in the stolen window, due in it, calm again.
    for due, latency in [(0.1, 0.002), (0.2, 0.004), (0.45, 0.1), (0.7, 0.001),
                         (1.2, 0.003)]:
        phase.dues.append(due)
        phase.latencies.append(latency)
    summary = meter.summary(phase)
    assert summary["steal_share"] == round(10 / 300, 4)
    assert summary["steal_share_worst"] == 0.1
    assert summary["calm_share"] == 0.6  # 3 of the 5 actions
    assert summary["calm_latency_ms_p99"] == pytest.approx(4.0, abs=0.1)


def test_steal_meter_says_nothing_it_did_not_measure() -> None:
    phase = LoopPhase()
    phase.dues.append(0.1)
    phase.latencies.append(0.001)
    unmeasured = _meter([], []).summary(phase)
    assert set(unmeasured.values()) == {None}
    # Steal in every window: no calm p99 (nor from fewer actions than asked for).
    assert _meter([(0, 0), (0, 100)], [0.0, 0.5]).summary(phase)["calm_latency_ms_p99"] is None
    stolen = _meter([(0, 0), (5, 100), (9, 200)], [0.0, 0.5, 1.0]).summary(phase)
    assert stolen["calm_share"] == 0.0 and stolen["calm_latency_ms_p99"] is None
    assert stolen["steal_share_worst"] == 0.05


async def test_a_run_ending_just_after_a_sample_has_no_window_of_a_few_ticks() -> None:
    """The last sample came a moment before the end, and one tick of the two since was stolen:
    that is not a half-second half stolen. The last window runs on to the end instead, so the
    run's steal is never above its worst window's."""
    ticks = iter([(0, 0), (1, 100), (2, 102)])
    meter = StealMeter(window=0.2, read=lambda: next(ticks))
    meter.start()
    await asyncio.sleep(0.22)
    meter.stop()
    assert len(meter.samples) == len(meter.edges) == 2
    phase = LoopPhase()
    phase.dues.append(meter.edges[0])
    phase.latencies.append(0.001)
    summary = meter.summary(phase)
    assert summary["steal_share"] <= summary["steal_share_worst"] < 0.5


async def test_steal_meter_samples_on_the_loop_until_stopped() -> None:
    ticks = iter((i, 100 * i) for i in range(1000))
    meter = StealMeter(window=0.01, read=lambda: next(ticks))
    meter.start()
    await asyncio.sleep(0.055)
    meter.stop()
    taken = len(meter.samples)
    assert taken >= 3 and meter.edges == sorted(meter.edges)
    await asyncio.sleep(0.03)
    assert len(meter.samples) == taken  # stopped: no timer left behind
    assert meter.fractions() == [0.01] * (taken - 1)


def test_an_outage_mid_run_is_counted_and_loses_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every write fails for a second and a half in the middle of the open loop: moves are
    refused and tables pause, then play on by themselves; nothing acknowledged is lost."""
    run = ["bench", "load", "--tables", "3", "--minutes", "0.06", "--rate", "60",
           "--closed-seconds", "0.3", "--outage", "1.5", "--json", "--idioma", "en"]
    assert main(run) == 0
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    assert result["outage_s"] == 1.5 and result["outage_by"] == "injected"
    assert result["saves_failed"] > 0 and result["moves_refused"] > 0
    assert 1.0 < result["pause_max_s"] < 1.5 + 5.5, "paused through it, back within a retry"
    assert result["resume_s"] is not None and result["resume_s"] <= 5.5
    assert result["acknowledged_lost"] == 0
    assert any(re.match(r"  storage faults: +an outage of 1\.5 s", line) for line in out)


def test_an_acknowledged_move_missing_at_the_end_fails_the_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A database that drops writes while saying it made them: the run says how many
    acknowledged moves it lacks, and exits 1. It drops every one after the first few journal
    entries, whole states too: a whole state saved later (a hand's end, a message's reference
    remembered as the run stops) would make up for the entries dropped before it."""
    from musbot.storage import Database

    real, real_whole = Database.append_to_journal, Database.save_table
    calls = 0

    async def lossy(self: Database, channel_id: int, entries: Any) -> bool:
        nonlocal calls
        calls += 1
        if calls > 3:
            return True  # «written»
        return await real(self, channel_id, entries)

    async def lossy_whole(self: Database, channel_id: int, guild_id: int | None,
                          state: Any) -> int:
        if calls > 3:
            return 1  # «written»
        return await real_whole(self, channel_id, guild_id, state)

    monkeypatch.setattr(Database, "append_to_journal", lossy)
    monkeypatch.setattr(Database, "save_table", lossy_whole)
    assert main([*TINY, "--idioma", "en"]) == 1
    captured = capsys.readouterr()
    result = json.loads(captured.out.strip().splitlines()[-1])
    assert result["acknowledged_lost"] > 0
    assert captured.err.strip().endswith(
        f"{result['acknowledged_lost']} acknowledged moves are not in the database at the end "
        "of the run")


def test_restore_measures_the_tables_an_existing_database_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "left.db"
    asyncio.run(_tables_left_in(target, 3))
    assert main(["bench", "load", "--restore", str(target), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("musbot bench load --restore — SQLite")
    result = json.loads(out[-1])
    assert result["restored"] == result["playing"] == 3 and result["restore_s"] > 0
    assert target.exists(), "the database is kept"
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "load", "--restore", str(tmp_path / "missing.db")])
    assert exit_.value.code == 2
    assert "no existe: --restore mide" in capsys.readouterr().err


async def _tables_left_in(target: Path, count: int) -> None:
    """A database as a killed run leaves it: tables in play, saved after every move."""
    import random

    from table_helpers import FakeTransport, persistent, play_humans, seat_humans

    from musbot.storage import Database
    from musbot.table import ManualClock

    async with Database(target) as db:
        _, manager = await persistent(db, FakeTransport(), clock=ManualClock(),
                                      rng=random.Random(1))
        for channel in range(1, count + 1):
            table = manager.open(channel, guild_id=1)
            await seat_humans(table, 2)
            await table.start(1)
            await play_humans(table, random.Random(channel), max_steps=5)
        manager.suspend_all()


def test_a_database_that_cannot_be_made_in_a_file_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite cannot open a file under another file: one sentence, exit 1."""
    (tmp_path / "a-file").write_text("not a folder")
    assert main([*TINY, "--idioma", "en", "--db", str(tmp_path / "a-file" / "load.db")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("The benchmark's database cannot be made or opened: ")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_outage_longer_than_the_run_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TINY, "--outage", "600"]) == 2
    assert "--outage 600.0: el corte dura" in capsys.readouterr().err


def test_whole_matches_leave_no_cyclic_garbage_for_the_audit(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The bot freezes whatever outlives its young collection (``musbot.runtime``), so cyclic
    garbage older than that waits for the hourly audit: tables playing whole matches, rematches
    included, must make none (issue 24)."""
    run = ["bench", "load", "--tables", "3", "--minutes", "0.05", "--rate", "600",
           "--closed-seconds", "0.5", "--json"]
    assert main(run) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["hands"] >= 40  # a match or more a table: finished, then a rematch
    assert result["gc_audit_found"] == 0
    assert result["gc_audit_ms"] > 0 and result["gc_audit_walk_ms"] > 0
    if result["gc_audit_forked"]:  # the walk was made in a copy: the bot stopped for the fork
        assert result["gc_audit_ms"] < result["gc_audit_walk_ms"] * 5
