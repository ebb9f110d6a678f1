"""Running musbot as a service (issue 27): the systemd unit passes ``systemd-analyze``, the
database is found the same way from any working directory and refused in one sentence when it
cannot be used, logs are one line (or one JSON object) per event, ``/metrics`` is served over
real HTTP while ``bench load`` runs, and SIGTERM mid-match saves and closes, the next start
restoring the table with nothing lost."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from discord_match import (
    assert_pages_show_stored_moves,
    hand_pages,
    make_scene,
    open_and_start,
    play_to_the_end,
    seeded,
    stored_hands,
)

from musbot.bot import MusBot, stop_on_signals
from musbot.config import check_database, load_config
from musbot.logs import setup_logging
from musbot.table.saved import to_json

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "deploy" / "musbot.service"
MUSBOT = Path(sys.executable).parent / "musbot"
ANALYZE = shutil.which("systemd-analyze")


# --- the unit ------------------------------------------------------------------------------

def unit_here(tmp_path: Path, text: str | None = None) -> Path:
    """The unit with ExecStart pointing at this checkout's musbot (``verify`` checks that the
    program exists; /opt/musbot is where the README installs it, not this machine)."""
    text = UNIT.read_text() if text is None else text
    assert "ExecStart=/opt/musbot/.venv/bin/musbot run\n" in text
    unit = tmp_path / "musbot.service"
    unit.write_text(text.replace("/opt/musbot/.venv/bin/musbot", str(MUSBOT)))
    return unit


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run([ANALYZE, "verify", "--man=no", str(unit)], capture_output=True,
                          text=True, timeout=60)


needs_systemd = pytest.mark.skipif(
    ANALYZE is None and not os.environ.get("CI"), reason="systemd-analyze is not installed")


@needs_systemd
def test_the_unit_passes_systemd_analyze_verify_without_a_word(tmp_path: Path) -> None:
    done = verify(unit_here(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@needs_systemd
def test_a_mistake_in_the_unit_is_caught_by_the_same_check(tmp_path: Path) -> None:
    """A directive systemd cannot read is only a warning to ``verify`` (exit 0): the test reads
    its output too, so this one fails it."""
    text = UNIT.read_text()
    for wrong in (text.replace("Restart=on-failure", "Restart=sometimes"),
                  text.replace("ProtectSystem=strict", "ProtectSystem=very")):
        done = verify(unit_here(tmp_path, wrong))
        assert done.returncode != 0 or done.stderr, wrong
    missing = unit_here(tmp_path).read_text().replace(str(MUSBOT), "/nonexistent/musbot")
    (tmp_path / "musbot.service").write_text(missing)
    assert verify(tmp_path / "musbot.service").returncode != 0


@needs_systemd
def test_the_unit_is_hardened(tmp_path: Path) -> None:
    """``systemd-analyze security`` rates what the service could do if taken over: 1.4 («OK»)
    on its 0–10 scale when written; the test holds it at 2.0 or better."""
    assert ANALYZE is not None
    done = subprocess.run([ANALYZE, "security", "--offline=yes", "--threshold=20",
                           str(unit_here(tmp_path))], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout[-2000:]
    found = re.search(r"Overall exposure level for musbot.service: ([\d.]+)", done.stdout)
    assert found is not None and float(found[1]) <= 2.0
    text = UNIT.read_text()
    for line in ("User=musbot", "Restart=on-failure", "EnvironmentFile=/etc/musbot/musbot.env",
                 "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
                 "StateDirectory=musbot", "Environment=MUSBOT_DATA_DIR=/var/lib/musbot",
                 "RestartPreventExitStatus=2"):
        assert f"\n{line}\n" in text, line


# --- where the data lives -------------------------------------------------------------------

def run_musbot(*words: str, cwd: Path, env: dict[str, str],
               unprivileged: bool = False) -> subprocess.CompletedProcess[str]:
    """``musbot`` as a service would start it; ``unprivileged``: without root's power to write
    any file (as the service's own user), so a read-only file is read-only to it."""
    command = [str(MUSBOT), *words, "--idioma", "en"]
    if unprivileged and os.geteuid() == 0:
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("MUSBOT_", "DISCORD_"))}
    return subprocess.run(command, cwd=cwd, env={**base, **env}, capture_output=True,
                          text=True, timeout=60)


def test_a_relative_database_is_found_beside_the_env_file_from_any_directory(
        tmp_path: Path) -> None:
    home = tmp_path / "musbot"
    (home / "data").mkdir(parents=True)
    env = home / ".env"
    env.write_text("DISCORD_TOKEN=x\nMUSBOT_DB=data/musbot.db\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.chdir(elsewhere)
    try:
        config = load_config(env, environ={})
    finally:
        os.chdir(REPO)
    assert config.db == str(home / "data" / "musbot.db") and config.base == ".env"
    assert check_database(config) is False  # a new file, in the right place
    # MUSBOT_DATA_DIR wins, and without MUSBOT_DB the file is musbot.db in it.
    data = tmp_path / "var"
    data.mkdir()
    config = load_config(env, environ={"MUSBOT_DATA_DIR": str(data), "MUSBOT_DB": ""})
    assert config.db == str(data / "musbot.db") and config.base == "MUSBOT_DATA_DIR"
    config = load_config(env, environ={"MUSBOT_DATA_DIR": str(data)})
    assert config.db == str(data / "data" / "musbot.db")  # .env's MUSBOT_DB, from the data dir
    absolute = load_config(env, environ={"MUSBOT_DB": str(tmp_path / "x.db")})
    assert absolute.db == str(tmp_path / "x.db")
    url = load_config(env, environ={"MUSBOT_DB": "postgresql://u:p@h/db"})
    assert url.db == "postgresql://u:p@h/db" and check_database(url) is None


def test_a_missing_directory_is_one_sentence_and_exit_2_with_nothing_created(
        tmp_path: Path) -> None:
    home = tmp_path / "bot"
    home.mkdir()
    (home / ".env").write_text("DISCORD_TOKEN=x\nMUSBOT_DB=data/musbot.db\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run_musbot("run", "--env-file", str(home / ".env"), cwd=elsewhere, env={})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"Invalid configuration: the database's directory {home / 'data'} does not exist "
        f"(MUSBOT_DB gives {home / 'data' / 'musbot.db'}; relative paths are taken from the "
        f"directory of .env ({home})): create it, owned by the bot's user, or set "
        "MUSBOT_DATA_DIR. Nothing was created.\n")
    assert sorted(p.name for p in home.iterdir()) == [".env"]
    assert list(elsewhere.iterdir()) == []
    missing = tmp_path / "nowhere"
    done = run_musbot("run", cwd=elsewhere, env={"DISCORD_TOKEN": "x",
                                                  "MUSBOT_DATA_DIR": str(missing)})
    assert done.returncode == 2 and "MUSBOT_DATA_DIR" in done.stderr and not missing.exists()


def test_a_file_or_directory_the_user_cannot_write_is_refused_untouched(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    db = data / "musbot.db"
    db.write_bytes(b"")
    db.chmod(0o444)
    env = {"DISCORD_TOKEN": "x", "MUSBOT_DATA_DIR": str(data)}
    done = run_musbot("run", cwd=tmp_path, env=env, unprivileged=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"Invalid configuration: {db} cannot be written by this user: give it to the bot's "
        "user (chown) or correct MUSBOT_DB. Nothing was changed.\n")
    assert sorted(p.name for p in data.iterdir()) == ["musbot.db"]
    db.chmod(0o644)
    db.unlink()
    data.chmod(0o555)
    try:
        done = run_musbot("run", cwd=tmp_path, env=env, unprivileged=True)
    finally:
        data.chmod(0o755)
    assert done.returncode == 2
    assert done.stderr.startswith(f"Invalid configuration: the directory {data} cannot be "
                                  "written by this user")
    assert list(data.iterdir()) == []


def test_bad_log_and_metrics_settings_are_one_sentence(tmp_path: Path) -> None:
    for setting, value, sentence in (
            ("MUSBOT_LOG_LEVEL", "loud", "MUSBOT_LOG_LEVEL must be DEBUG, INFO, WARNING or "
                                         "ERROR, not «loud»."),
            ("MUSBOT_LOG_FORMAT", "xml", "MUSBOT_LOG_FORMAT must be text or json, not «xml»."),
            ("MUSBOT_METRICS", "9108", "MUSBOT_METRICS must be HOST:PORT (like "
                                       "127.0.0.1:9108), not «9108».")):
        done = run_musbot("run", cwd=tmp_path, env={"DISCORD_TOKEN": "x", setting: value})
        assert (done.returncode, done.stderr) == (2, f"Invalid configuration: {sentence}\n")


# --- logs -------------------------------------------------------------------------------------

def test_json_logs_are_one_object_a_line_and_request_bodies_never_logged() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        setup_logging("DEBUG", "json", stream)
        logging.getLogger("musbot.table").info("table %s opened", 7)
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("musbot.bot").exception("saving failed")
        # discord.py writes each request's body at DEBUG (a DM holds a hand's cards).
        logging.getLogger("discord.http").debug("POST /channels/1/messages with {'content': "
                                                "'Tus cartas: Rey de oros'}")
        logging.getLogger("discord.gateway").debug("a heartbeat")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    lines = stream.getvalue().splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["level"], r["logger"], r["message"]) for r in records] == [
        ("INFO", "musbot.table", "table 7 opened"),
        ("ERROR", "musbot.bot", "saving failed"),
        ("DEBUG", "discord.gateway", "a heartbeat")]
    assert "ValueError: boom" in records[1]["exc_info"] and len(lines) == 3
    assert "oros" not in stream.getvalue()
    assert logging.getLogger("discord.http").level == logging.INFO


# --- metrics --------------------------------------------------------------------------------

def scrape(url: str) -> dict[str, float]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain; version=")
        text = answer.read().decode()
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def test_metrics_are_served_over_http_while_bench_load_runs(tmp_path: Path) -> None:
    """A real ``musbot bench load --metrics 127.0.0.1:0`` (the port the system gives): two
    scrapes a second apart show the counters rising and the save latency's buckets; no label
    names a player, a channel or a server."""
    process = subprocess.Popen(
        [str(MUSBOT), "bench", "load", "--tables", "20", "--minutes", "0.08", "--rate", "150",
         "--closed-seconds", "0.5", "--metrics", "127.0.0.1:0"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.match(r"metrics: (http://127\.0\.0\.1:\d+)/metrics$", line.strip())
        assert found is not None, line + process.stderr.read()
        base = found[1]
        first = scrape(f"{base}/metrics")
        while first.get("musbot_moves_total", 0) == 0:
            first = scrape(f"{base}/metrics")
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as answer:
            assert (answer.status, answer.read()) == (200, b"ok\n")
        time.sleep(1.0)
        second = scrape(f"{base}/metrics")
    finally:
        _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    for counter in ("musbot_moves_total", "musbot_storage_saves_total",
                    "musbot_db_write_seconds_count"):
        assert second[counter] > first[counter] > 0, counter
    assert second["musbot_live_tables"] == 20
    assert second["musbot_storage_save_failures_total"] == 0
    buckets = [(name, value) for name, value in second.items()
               if name.startswith("musbot_db_write_seconds_bucket")]
    assert len(buckets) >= 10 and buckets[-1][0].endswith('le="+Inf"}')
    assert [v for _, v in buckets] == sorted(v for _, v in buckets)  # cumulative
    assert any(name.startswith("musbot_discord_queue_wait_seconds_bucket") for name in second)
    posts = ('musbot_discord_requests_total{route="POST /channels/{channel_id}/messages",'
             'status="2xx"}')
    assert second[posts] > 0
    labels = " ".join(second)
    assert not re.search(r"\d{6,}", labels), "an id in a label"


# --- SIGTERM ----------------------------------------------------------------------------------

async def test_sigterm_mid_match_saves_and_closes_and_the_next_start_loses_nothing(
        tmp_path: Path) -> None:
    """``systemctl stop`` sends SIGTERM: on the HTTP-level Discord double, mid-hand, the bot
    closes (its database too, the log copied into the file) within a few seconds; a new bot on
    the same file restores the table where it was, and the match plays to its end with every
    stored move shown once."""
    scene = make_scene(tmp_path, ["Ana", "Bea"])
    await scene.world.connect(scene.bot)
    remove = stop_on_signals(scene.bot)
    try:
        await open_and_start(scene)
        table = scene.table()
        while table.state.page.events < 6:
            person = next((p for p in scene.people if table.state.awaits(p.user)), None)
            if person is not None:
                await scene.play_turn(person)
            else:
                await scene.advance(0.5)
        before = to_json(table.state)
        old = scene.bot
        loop = asyncio.get_running_loop()
        start = loop.time()
        os.kill(os.getpid(), signal.SIGTERM)
        while not old.is_closed() or old.db is not None:
            await asyncio.sleep(0.01)
            assert loop.time() - start < 5, "closed within a few seconds"
    finally:
        remove()
    scene.world.detach(old)
    wal = tmp_path / "musbot.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0, "closed cleanly: the log is in the file"
    bot = MusBot(old.config, clock=scene.clock, table_defaults=seeded("after"))
    scene.bot = bot
    await scene.world.connect(bot)
    restored = scene.table()  # restored at the start, before any clock moved a bot
    assert restored is not table
    after = to_json(restored.state)
    assert after["match"] == before["match"] and after["seats"] == before["seats"]
    assert before["match"]["hand"]["actions"], "mid-hand"
    await play_to_the_end(scene)
    names = scene.table().names()
    await scene.world.disconnect(bot)
    stored = await stored_hands(tmp_path / "musbot.db")
    pages = hand_pages(scene.world, scene.channel)
    assert_pages_show_stored_moves(pages, stored, names)


async def test_the_bot_counts_moves_and_discord_requests_on_the_wire(tmp_path: Path) -> None:
    """The real bot on the HTTP-level double, with the registry ``musbot run`` serves: moves,
    saves and the REST requests by route show, labelled with no id."""
    from musbot.bot.launcher import _health, _readings
    from musbot.config import Config
    from musbot.metrics import Metrics

    scene = make_scene(tmp_path, ["Ana", "Bea"])
    metrics = Metrics()
    bot = MusBot(Config(token="x", db=str(tmp_path / "musbot.db")), clock=scene.clock,
                 table_defaults=seeded("metrics"), metrics=metrics)
    scene.bot = bot
    current = [bot]
    metrics.registry.register(_readings(current))
    assert _health(current) == (False, "connecting")
    await scene.world.connect(bot)
    assert _health(current) == (True, "ok")
    await open_and_start(scene)
    table = scene.table()
    for _ in range(6):
        person = next((p for p in scene.people if table.state.awaits(p.user)), None)
        if person is not None:
            await scene.play_turn(person)
        await scene.advance(2)
    text = metrics.text().decode()
    values = {line.rpartition(" ")[0]: float(line.rpartition(" ")[2])
              for line in text.splitlines() if line and not line.startswith("#")}
    assert values["musbot_live_tables"] == 1 and values["musbot_restored_tables"] == 0
    assert values["musbot_moves_total"] >= 6 and values["musbot_storage_saves_total"] > 0
    assert values["musbot_db_write_seconds_count"] == values["musbot_storage_saves_total"]
    posted = [name for name in values if name.startswith("musbot_discord_requests_total")
              and 'status="2xx"' in name]
    assert any('route="POST /channels/{channel_id}/messages"' in n for n in posted), posted
    assert not re.search(r"\d{6,}", " ".join(values)), "an id in a label"
    await scene.world.disconnect(bot)
    assert _health(current) == (False, "stopped")


async def test_every_429_is_counted_by_scope_over_http() -> None:
    """discord.py waits out a 429 and asks again inside one call: the trace the bot gives its
    HTTP session sees each answer, over real HTTP here."""
    import aiohttp
    from aiohttp import web

    from musbot.metrics import Metrics

    metrics = Metrics()

    async def limited(request: web.Request) -> web.Response:
        return web.json_response({"retry_after": 0.01}, status=429,
                                 headers={"X-RateLimit-Scope": request.query["scope"]})

    app = web.Application()
    app.router.add_get("/", limited)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.trace()]) as session:
            for scope in ("user", "user", "shared", "global"):
                async with session.get(f"http://127.0.0.1:{port}/?scope={scope}") as answer:
                    assert answer.status == 429
    finally:
        await runner.cleanup()
    text = metrics.text().decode()
    assert 'musbot_discord_rate_limited_total{scope="user"} 2.0' in text
    assert 'musbot_discord_rate_limited_total{scope="shared"} 1.0' in text
    assert 'musbot_discord_rate_limited_total{scope="global"} 1.0' in text
