"""``musbot bench load``: a busy bot in one process, through the real layers.

N tables play at once through the real :class:`~musbot.table.Table` layer, the real storage
(saved after every action as in production) on a new, empty database (SQLite by default,
PostgreSQL with ``--db postgresql://…``: :mod:`musbot.bench.databases`) and the real
:class:`~musbot.discordio.DiscordTransport`, whose embeds, texts and buttons are built and then
counted by in-memory channels (:mod:`musbot.testing.memory`) instead of being sent. Every seat
is a simulated person who picks a random legal move at once (no think time), so every engine
action is one received action.

The load model, stated because it decides what the latency means:

- **open loop** (the latency figures): actions arrive as a Poisson process of ``--rate``
  actions/s in total, spread evenly over the tables; a table's next action is scheduled on that
  clock whether or not the previous one was quick, and latency runs from the *scheduled* time to
  the moment ``Table.act`` returns (state saved, every public and private message rendered), so
  time spent queueing behind other tables counts. A table cannot act before its previous action
  is done (a player needs the new state), so an overloaded bot falls behind and shows it. Each
  action is a step of the loop of its own, late or not, as each message from Discord is: a
  table behind its clock does not play its late actions one after another ahead of the rest.
- **closed loop** (the max throughput): every table acts again as soon as its previous action
  is done. Throughput is then the most the process sustains; its latency is just
  tables / throughput (Little's law), which is why it is not the latency figure.

The tables are opened, seated and started first (not measured); the run starts once their
table-message edits are done, their writes are checkpointed (the first checkpoint after them
also grows the database file, which stalled the loop's writes), and the garbage collector is
set as ``musbot run`` sets it (:func:`musbot.runtime.tune_gc`, and the young collections on a
clock, their survivors frozen; ``--gc default`` keeps CPython's). The bot audits every object
hourly (:func:`musbot.runtime.audit_elsewhere`), not within a run this short: the audit is run
once after the open loop, with every table live, and reported apart, outside the run's pauses:
how long it stopped the bot (``gc_audit_ms``: the fork, where the walk is made in a copy of the
process), how long the walk of every object took (``gc_audit_walk_ms``) and the cyclic garbage
it found (``gc_audit_found``). At the end the live tables
are restored from the database into a fresh manager, as at a restart (``restore_s``).

Latencies are wall-clock (``save_ms_p50``/``p99``/``max`` time the tables' save hook alone:
the state encoded and committed, the match records stored; the writes are made on the event
loop, so ``save_ms_max`` is also the longest a slow disk stopped every table at once); CPU
figures are this process's CPU time, so another busy process on the machine shows in the first,
not the second (on PostgreSQL, the server's processes serving the run's database are measured
apart, :class:`~musbot.bench.databases.ServerCpu`).
``kb_per_table`` is RSS growth over the open-loop run divided by the tables, the benchmark's own
bookkeeping included (two floats per action).

The pictures (a hand for each deal's and discard's DM, the table at each showdown) are drawn
by the bot's worker processes (``--picture-workers``, :mod:`musbot.pictures.worker`); the
figures are the open loop's: pictures drawn, messages sent without theirs (too many under
way, :data:`musbot.discordio.drawing.PICTURES_IN_FLIGHT`), and the cores the workers kept busy
(counted as this run's, not the others'). The set-up's deals (four hands a table at once) and
the closed loop's flood are left out: they say nothing of a bot serving its tables.

Several ``--db`` run one after the other, each in a process of its own, and end with a table
comparing them. The host's steal is stated with every run, and the p99 without it
(:class:`~musbot.bench.measure.StealMeter`): two runs' p99 compare only at similar steal.

The database failing is counted, never hidden (:mod:`musbot.bench.faults`): saves that failed,
moves refused, the longest pause, and the acknowledged moves the database does not give back
at the end, which make the run exit 1. ``--outage SECONDS`` makes the database fail for that
long in the middle of the open loop (``--stop-with``/``--start-with``: by stopping the real
server). ``--restore DB`` measures only a restore: the tables an existing database holds (a run
killed mid-way left them), brought back and announced, the database left as it was.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from musbot.ai import warm
from musbot.console import cli_language, decimal, whole
from musbot.engine import Rules
from musbot.i18n import CLI, compile_all

from .databases import BadTarget, Scratch, ServerCpu, kind_of
from .faults import Faults, Outage, lost, marks
from .load_report import compared, comparison, report, restore_report
from .load_tables import (
    _closed_loop,
    _open_loop,
    _open_tables,
    engine_replay_seconds,
    rest_figures,
)
from .measure import (
    GcPauses,
    OtherLoad,
    SaveTimes,
    StealMeter,
    current_rss,
    peak_rss,
)


def _manager(client: Any, persist: Any, metrics: Any = None, picture_workers: int | None = None
             ) -> tuple[Any, Any]:
    from musbot.discordio import DiscordTransport
    from musbot.discordio.governor import Limits
    from musbot.pictures.worker import WORKERS, Drawer
    from musbot.table import TableManager

    # Discord's per-channel limits apply; its global budget would stop a real bot long before
    # this load: the benchmark measures the process, and reports the calls it would need.
    drawer = Drawer(picture_workers or WORKERS)  # started and warmed up, as the bot does
    drawer.start()
    transport = DiscordTransport(client, limits=Limits(calls_per_second=10**9),  # type: ignore[arg-type]
                                 waited=metrics.waited if metrics is not None else None,
                                 draw=drawer)

    if metrics is not None:
        persist = metrics.persist(persist)
    return transport, TableManager(transport, bot_delay=0.0, persist=persist)


async def serve_metrics(at: str, metrics: Any, manager: Any, transport: Any, client: Any,
                        carried: Counter[str]) -> Any:
    """``--metrics ADDR``: the bot's registry (``musbot.metrics``) for this run, served while
    it runs; the in-memory client's calls stand for the REST requests, each answered (2xx).
    ``carried``: the calls counted before the client's counts were reset (a counter never goes
    down)."""
    from musbot.metrics import LiveReadings, MetricsServer, address

    stats = client.stats
    metrics.registry.register(LiveReadings(
        tables=lambda: len(manager), queued=transport.governor.queued,
        answers=lambda: {(route, "2xx"): n for route, n in (carried + stats.calls).items()}))
    server = MetricsServer(metrics, lambda: (True, "ok"))
    host, port = address(at)
    bound = await server.start(host, port)
    print(f"metrics: http://{bound[0]}:{bound[1]}/metrics", file=sys.stderr, flush=True)
    return server


def _drawing_cpu(transport: Any) -> float | None:
    """The pictures' workers' CPU seconds so far (None: not measurable here)."""
    read = getattr(transport.draw, "cpu_seconds", None)
    return read() if read is not None else None


async def run_load(tables: int, minutes: float, rate: float, closed_seconds: float | None,
                   seed: int, scratch: Scratch, *, tune: bool = True,
                   outage: Outage | None = None, metrics_at: str | None = None,
                   picture_workers: int | None = None) -> dict[str, Any]:
    """The whole benchmark on ``scratch``, an empty database made for it; returns every figure
    (see :func:`bench_load`). ``picture_workers``: the pictures' worker processes (None: the
    bot's, :data:`musbot.pictures.worker.WORKERS`)."""
    from musbot.runtime import TRIMS, audit_elsewhere, collect_periodically, tune_gc
    from musbot.storage import Database
    from musbot.table.pause import MAX_RETRY_SECONDS
    from musbot.table.persist import TablePersister
    from musbot.testing.memory import MemoryClient

    rules = Rules()
    db = await Database.open(scratch.target)
    server = ServerCpu(scratch.target) if scratch.kind == "postgresql" else None
    client = MemoryClient(lambda: asyncio.get_running_loop().time())
    persister = TablePersister(db)
    saves = SaveTimes(persister)  # the tables save through it
    metrics = exporter = None
    carried: Counter[str] = Counter()
    if metrics_at is not None:
        from musbot.metrics import Metrics

        metrics = Metrics()
    transport, manager = _manager(client, saves, metrics, picture_workers)
    if metrics_at is not None:
        exporter = await serve_metrics(metrics_at, metrics, manager, transport, client,
                                       carried)
    warm(rules)  # as the bot does at start-up: the process's, not a table's
    compile_all()  # as the bot's start does too
    gc.collect()
    rss_before = current_rss()
    setup = time.perf_counter()
    seated = await _open_tables(tables, seed, rules, manager, transport, client)
    setup = time.perf_counter() - setup
    # Steady state only: the set-up left a table-message edit pending at every table, and a
    # log of its writes whose first checkpoint would also grow the database file.
    await transport.flush()
    await db.checkpoint()
    thresholds = gc.get_threshold()
    collector = None
    if tune:  # what the bot does once started (musbot.runtime)
        tune_gc()
        collector = asyncio.get_running_loop().create_task(collect_periodically())
    cpu_start = time.process_time()
    trims, TRIMS.longest = TRIMS.count, 0.0
    pauses = GcPauses()
    gc.callbacks.append(pauses)
    saves.on = True
    journaled, whole = persister.journaled, persister.saved_whole
    if server is not None:
        await server.start()
    steal = StealMeter()
    others = OtherLoad()
    others.start()
    drawing = _drawing_cpu(transport)
    painted = (transport.painter.drawn, transport.painter.skipped)
    steal.start()
    carried.update(client.stats.calls)
    client.stats.reset()
    faults = Faults()
    faults.start((one.table for one in seated), outage, lambda: persister.failed)
    failed = persister.failed
    away = None
    if outage is not None:  # in the middle of the open loop
        at = asyncio.get_running_loop().time() + max(0.0, (minutes * 60.0 - outage.seconds) / 2)
        away = asyncio.get_running_loop().create_task(outage.run(at, db.backend))
    open_phase = await _open_loop(seated, rate, minutes * 60.0, seed, faults)
    if away is not None:
        await away
        await faults.resumed((one.table for one in seated), MAX_RETRY_SECONDS * 4)
    open_stats = client.stats.snapshot()
    trims, trim_longest = TRIMS.count - trims, TRIMS.longest
    steal.stop()
    others.stop()
    drawing = _drawing_cpu(transport) - drawing if drawing is not None else None
    painted = (transport.painter.drawn - painted[0], transport.painter.skipped - painted[1])
    if server is not None:
        await server.stop()
    journaled, whole = persister.journaled - journaled, persister.saved_whole - whole
    saves.on = False
    gc.callbacks.remove(pauses)  # the hourly audit is no pause of the run's
    audited = await audit_elsewhere()  # what the bot's audit costs now, and what it finds
    gc.callbacks.append(pauses)
    rss_live = current_rss()
    if closed_seconds is None:
        closed_seconds = min(30.0, max(1.0, minutes * 60.0 / 4))
    closed_phase = await _closed_loop(seated, closed_seconds, faults)
    await faults.stop()
    failed = persister.failed - failed
    play_cpu = time.process_time() - cpu_start
    if collector is not None:
        collector.cancel()
    gc.callbacks.remove(pauses)
    engine_cpu = engine_replay_seconds(seated, rules)
    received = sum(len(one.log) for one in seated)
    pictures = (*painted, getattr(transport.draw, "workers", 1))

    await _stop(manager, transport)
    if exporter is not None:
        await exporter.stop()
    gc.unfreeze()  # the restore below runs as at a bot's start, before tune_gc
    gc.set_threshold(*thresholds)
    await db.close()
    figures = await scratch.figures()
    live = len(manager)
    acknowledged = marks(manager)
    del seated, manager, transport, client
    gc.collect()

    restored_tables, restore_s, announce_s = await restore_tables(scratch.target)
    restored = len(restored_tables)
    missing = lost(acknowledged, restored_tables)

    opened = open_phase.summary()
    closed = closed_phase.summary()
    server_ms = server.ms_per_action(open_phase.actions) if server is not None else None
    own_cpu = open_phase.cpu + (server_ms or 0.0) * open_phase.actions / 1000 + (drawing or 0.0)
    others_cores = others.cores(own_cpu)
    return {
        "backend": scratch.kind,
        "db": scratch.where,
        "tables": tables,
        "rate": rate,
        "gc": "tuned" if tune else "default",
        "seconds": round(open_phase.seconds, 2),
        "actions": open_phase.actions,
        "unissued": open_phase.unissued,
        "actions_per_s": round(open_phase.actions / open_phase.seconds, 1),
        "latency_ms_p50": round(opened["p50"], 3),
        "latency_ms_p99": round(opened["p99"], 3),
        "latency_ms_max": round(opened["max"], 3),
        **steal.summary(open_phase),
        "others_cores": round(others_cores, 2) if others_cores is not None else None,
        "cores": os.cpu_count(),
        **saves.summary(),
        "journal_share": round(journaled / max(journaled + whole, 1), 3),
        "cpu_ms_per_action": round(open_phase.cpu / max(open_phase.actions, 1) * 1000, 3),
        "server_cpu_ms_per_action": round(server_ms, 3) if server_ms is not None else None,
        "loop_busy": round(open_phase.loop_cpu / open_phase.seconds, 3),
        "max_actions_per_s": round(closed_phase.actions / closed_phase.seconds, 1),
        "closed_seconds": round(closed_phase.seconds, 2),
        "closed_latency_ms_p50": round(closed["p50"], 3),
        "closed_cpu_ms_per_action": round(
            closed_phase.cpu / max(closed_phase.actions, 1) * 1000, 3),
        "engine_share": round(engine_cpu / play_cpu, 4) if play_cpu else 0.0,
        "engine_ms_per_action": round(engine_cpu / max(received, 1) * 1000, 4),
        "rss_mb": round(peak_rss() / 2**20, 1),
        "kb_per_table": round((rss_live - rss_before) / tables / 1024, 1),
        "heap_trims": trims,
        "heap_trim_ms_max": round(trim_longest * 1000, 2),
        "pictures_drawn": pictures[0],
        "pictures_skipped": pictures[1],
        "picture_workers": pictures[2],
        "picture_cores": round(drawing / open_phase.seconds, 2)
        if drawing is not None and open_phase.seconds > 0 else None,
        "db_bytes_per_hand": round(figures["db_bytes_per_hand"], 1),
        "hands": figures["hands"],
        "state_bytes": round(figures["state_bytes"], 1),
        "db_mb": round(figures["db_bytes"] / 2**20, 2),
        "size_measure": figures["size_measure"],
        "setup_s": round(setup, 3),
        "live_tables": live,
        "restored": restored,
        "restore_s": round(restore_s, 3),
        "announce_s": round(announce_s, 3),
        **pauses.summary(),
        "gc_audit_ms": round(audited.pause * 1000, 2),
        "gc_audit_walk_ms": round(audited.walk * 1000, 2),
        "gc_audit_forked": audited.forked,
        "gc_audit_found": audited.found,
        "rest": rest_figures(open_stats, open_phase.actions),
        "outage_s": outage.seconds if outage is not None else None,
        "outage_by": None if outage is None else "server" if outage.stop else "injected",
        "saves_failed": failed,
        "moves_refused": faults.refused,
        "moves_stale": faults.stale,
        "pause_max_s": round(faults.pause_max, 2),
        "resume_s": None if faults.resume is None else round(faults.resume, 2),
        "acknowledged_lost": missing,
    }


async def restore_tables(target: str) -> tuple[list[Any], float, float]:
    """The live tables of the database at ``target`` brought back into a fresh manager, as at a
    bot's start, then announced as once the gateway delivers each channel: the tables, and
    the seconds each step took. The database is left as it was but for the announcements."""
    from musbot.storage import Database
    from musbot.table.persist import TablePersister
    from musbot.testing.memory import MemoryClient

    restore = time.perf_counter()
    db = await Database.open(target)
    client = MemoryClient()
    persister = TablePersister(db)
    transport, manager = _manager(client, persister)
    try:
        await persister.restore(manager)
        restore_s = time.perf_counter() - restore
        announce = time.perf_counter()
        for table in manager:
            transport.bind(table.channel_id, client.channel(table.channel_id))
            transport.restore(table)
            await table.resume()
        announce_s = time.perf_counter() - announce
        tables = list(manager)
        await _stop(manager, transport)
    finally:
        await db.close()
    return tables, restore_s, announce_s


async def run_restore(spec: str) -> dict[str, Any]:
    """``--restore``: the tables an existing database holds, restored and announced, timed."""
    from musbot.storage import Database

    db = Database(spec)
    rss = current_rss()
    tables, restore_s, announce_s = await restore_tables(spec)
    return {"backend": db.dialect, "db": db.where, "restored": len(tables),
            "playing": sum(t.lifecycle == "playing" for t in tables),
            "restore_s": round(restore_s, 3), "announce_s": round(announce_s, 3),
            "kb_per_table": round((current_rss() - rss) / max(len(tables), 1) / 1024, 1)}


async def _stop(manager: Any, transport: Any) -> None:
    """As the bot stops for a restart: timers and bots stopped, pending Discord calls dropped.
    Dropping a post runs its callbacks, which may start saving a table or another call: they
    get a moment, before the database closes, and are dropped in their turn."""
    manager.suspend_all()
    await transport.cancel_edits()
    await asyncio.sleep(0.05)
    await transport.cancel_edits()
    close = getattr(transport.draw, "close", None)
    if close is not None:
        close()  # its worker process


async def run_on(spec: str, tables: int, minutes: float, rate: float,
                 closed_seconds: float | None, seed: int, tune: bool,
                 outage: Outage | None = None, metrics_at: str | None = None,
                 picture_workers: int | None = None) -> dict[str, Any]:
    """:func:`run_load` on a new, empty database of the kind ``spec`` names, removed after."""
    scratch = Scratch(spec, kind_of(spec))
    await scratch.create()
    try:
        return await run_load(tables, minutes, rate, closed_seconds, seed, scratch, tune=tune,
                              outage=outage, metrics_at=metrics_at,
                              picture_workers=picture_workers)
    finally:
        await scratch.drop()


def run_in_process(spec: str, tables: int, minutes: float, rate: float,
                   closed_seconds: float | None, seed: int, tune: bool,
                   outage: Outage | None = None, metrics_at: str | None = None,
                   picture_workers: int | None = None) -> dict[str, Any]:
    """One run in a process of its own (several ``--db``): neither inherits the other's heap,
    collector state or peak RSS."""
    return asyncio.run(run_on(spec, tables, minutes, rate, closed_seconds, seed, tune, outage,
                              metrics_at, picture_workers))


def bench_load(args: argparse.Namespace) -> int:
    """Exit status: 0; 1 when the database cannot be made or opened (one sentence) or an
    acknowledged move is missing from it at the end; 2 for a database it would not use."""
    from musbot.storage import StorageError

    lang = args.idioma
    if args.restore is not None:
        return _restore_only(args)
    if (args.outage is not None and not 0 < args.outage < args.minutes * 60.0) or \
            (args.stop_with is None) != (args.start_with is None) or \
            (args.stop_with is not None and args.outage is None):
        return _refuse(args, "bench_outage_bad", str(args.outage))
    specs: list[str] = args.db or ["sqlite"]
    outage = Outage(args.outage, args.stop_with, args.start_with) \
        if args.outage is not None else None
    options = (args.tables, args.minutes, args.rate, args.closed_seconds, args.seed,
               args.gc == "tuned", outage, args.metrics, args.picture_workers)
    results: list[dict[str, Any]] = []
    try:
        if len(specs) == 1:
            results.append(asyncio.run(run_on(specs[0], *options)))
            print(report(results[0], lang))
        else:
            spawn = multiprocessing.get_context("spawn")
            for spec in specs:
                with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
                    results.append(pool.submit(run_in_process, spec, *options).result())
                print(report(results[-1], lang), end="\n\n", flush=True)
    except BadTarget as bad:
        return _refuse(args, bad.key, bad.value)
    except (OSError, StorageError) as problem:
        return _refuse(args, "bench_db_failed", str(problem))
    if len(results) == 1:
        if args.json:
            print(json.dumps(results[0]))
    else:
        summary = compared(results)
        print(comparison(summary, lang))
        if args.json:
            print(json.dumps(summary))
    missing = sum(r["acknowledged_lost"] for r in results)
    if missing:
        _refuse(args, "bench_lost", str(missing))
        return 1
    return 0


def _restore_only(args: argparse.Namespace) -> int:
    from musbot.storage import StorageError

    try:
        result = asyncio.run(run_restore(args.restore))
    except (OSError, StorageError) as problem:
        return _refuse(args, "bench_db_failed", str(problem))
    print(restore_report(result, args.idioma))
    if args.json:
        print(json.dumps(result))
    return 0


def _refuse(args: argparse.Namespace, key: str, value: str) -> int:

    lang = getattr(args, "idioma", None) or cli_language()
    print(CLI(key, lang, value=value), file=sys.stderr)
    return 2 if key != "bench_db_failed" else 1



MAX_MINUTES = 1440.0
"""The longest open loop ``--minutes`` takes: a day (``inf`` would never end)."""
MAX_RATE = 1_000_000.0
"""Actions offered per second at most, a thousand times what one process plays."""
MAX_CLOSED_SECONDS = 3600.0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str = "es", parents: Sequence[argparse.ArgumentParser] = ()) -> None:
    from musbot.pictures.worker import WORKERS

    load = kinds.add_parser("load", parents=list(parents), help=CLI("bench_load", lang),
                            description=CLI("bench_load", lang))
    load.add_argument("--tables", type=whole(lang), default=1000, metavar="N",
                      help=CLI("tables", lang))
    load.add_argument("--minutes", type=decimal(lang, 0, MAX_MINUTES, above=True), default=1.0,
                      metavar="N",
                      help=CLI("minutes", lang))
    load.add_argument("--rate", type=decimal(lang, 0, MAX_RATE, above=True), default=2000.0,
                      metavar="N",
                      help=CLI("rate", lang))
    load.add_argument("--closed-seconds", type=decimal(lang, 0, MAX_CLOSED_SECONDS, above=True),
                      default=None, metavar="N",
                      help=CLI("closed_seconds", lang))
    load.add_argument("--seed", type=int, default=1, metavar="N",
                      help=CLI("bench_seed", lang))
    load.add_argument("--gc", choices=("tuned", "default"), default="tuned",
                      help=CLI("gc", lang))
    load.add_argument("--db", action="append", type=_database(lang), metavar="DB",
                      help=CLI("bench_db", lang))
    load.add_argument("--outage", type=decimal(lang, 0, MAX_MINUTES * 60, above=True),
                      default=None, metavar="N",
                      help=CLI("bench_outage", lang))
    load.add_argument("--stop-with", default=None, metavar="CMD",
                      help=CLI("bench_stop_with", lang))
    load.add_argument("--start-with", default=None, metavar="CMD",
                      help=CLI("bench_start_with", lang))
    load.add_argument("--restore", type=_existing(lang), default=None, metavar="DB",
                      help=CLI("bench_restore", lang))
    load.add_argument("--metrics", type=_address(lang), default=None, metavar="HOST:PORT",
                      help=CLI("metrics_option", lang))
    load.add_argument("--picture-workers", type=whole(lang), default=WORKERS, metavar="N",
                      help=CLI("bench_picture_workers", lang, workers=WORKERS))
    load.add_argument("--json", action="store_true", help=CLI("json", lang))
    load.set_defaults(func=bench_load)


def _address(lang: str) -> Callable[[str], str]:
    """``--metrics``' check: ``HOST:PORT``."""
    from musbot.config import address

    def check(text: str) -> str:
        try:
            address(text)
        except ValueError:
            raise argparse.ArgumentTypeError(CLI("metrics_bad", lang, value=text)) from None
        return text

    return check


RESTORE_REFUSALS = {"directory": "bench_restore_directory", "special": "bench_restore_special",
                    "unreadable": "bench_restore_unreadable",
                    "not_sqlite": "bench_restore_not_sqlite"}
"""Why ``--restore`` cannot read an SQLite path, and each reason's sentence."""


def _existing(lang: str) -> Callable[[str], str]:
    """``--restore``'s check: a database that is there (an SQLite file this process can read,
    or a PostgreSQL URL)."""
    from musbot.storage.database import backend_for
    from musbot.storage.sqlite import SqliteBackend
    from musbot.storage.sqlite_file import NoDatabase, NotADatabase, sqlite_file

    def check(spec: str) -> str:
        try:
            backend = backend_for(spec)
        except ValueError:
            raise argparse.ArgumentTypeError(
                CLI("bench_db_unknown", lang, value=spec)) from None
        if isinstance(backend, SqliteBackend):
            try:
                sqlite_file(backend.path)
            except NoDatabase:
                raise argparse.ArgumentTypeError(
                    CLI("bench_db_missing", lang, value=spec)) from None
            except NotADatabase as exc:
                raise argparse.ArgumentTypeError(CLI(
                    RESTORE_REFUSALS[exc.reason], lang, value=spec, detail=exc.detail)) from None
        return spec

    return check


def _database(lang: str) -> Callable[[str], str]:
    """``--db``'s check, worded in the run's language: argparse's usage error, exit 2."""

    def check(spec: str) -> str:
        try:
            kind_of(spec)
        except BadTarget as bad:
            raise argparse.ArgumentTypeError(CLI(bad.key, lang, value=bad.value)) from None
        return spec

    return check


__all__ = ["add_arguments", "bench_load", "run_load", "run_on"]
