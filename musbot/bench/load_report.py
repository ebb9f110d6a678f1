"""What ``musbot bench load`` prints: one run's figures, and a table comparing the runs when it
was given several databases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from musbot.runtime import AUDIT_SECONDS

from .databases import PER_HAND_TABLES

NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def report(r: dict[str, Any]) -> str:
    n = r["tables"]
    rest = r["rest"]
    backend = r.get("backend", "sqlite")
    lines = [
        f"musbot bench load — {n} tables, real table layer + {NAMES[backend]} + Discord "
        "rendering, one process",
        f"  model: open loop, Poisson arrivals at {r['rate']:,.0f} actions/s in total "
        f"({r['rate'] / n:.2f}/s per table) for {r['seconds']:.1f} s; latency from each "
        "action's scheduled time (queueing counts) to saved + rendered",
        f"  actions/s:        {r['actions_per_s']:>10,.1f} sustained ({r['actions']:,} actions"
        + (f", {r['unissued']:,} never issued: overloaded" if r["unissued"] else "") + ")",
        f"  latency:          p50 {r['latency_ms_p50']:.2f} ms, p99 {r['latency_ms_p99']:.2f} ms,"
        f" max {r['latency_ms_max']:.2f} ms; of it, waiting for the save: p50 "
        f"{r['save_ms_p50']:.2f} ms, p99 {r['save_ms_p99']:.2f} ms, "
        f"max {r['save_ms_max']:.1f} ms "
        f"({r['journal_share']:.0%} of the saves a journal entry, the rest a whole state)",
        f"  host:             {_host_line(r)}",
        f"  CPU per action:   {_cpu_line(r)}; the event loop's thread was busy "
        f"{r['loop_busy']:.0%} of the time (what decides the queueing in the tail)",
        f"  max throughput:   {r['max_actions_per_s']:>10,.1f} actions/s (closed loop "
        f"{r['closed_seconds']:.1f} s: each table acts as soon as its last action is done; "
        f"latency p50 {r['closed_latency_ms_p50']:.1f} ms = tables/throughput, Little's law)",
        f"  engine share:     {r['engine_share']:.1%} of the process CPU "
        f"({r['engine_ms_per_action']:.4f} ms per action: the same actions replayed through "
        "the engine alone, apply + every seat's view)",
        f"  memory:           peak RSS {r['rss_mb']:.1f} MB; {r['kb_per_table']:.1f} KB per live "
        "table (RSS growth over the open-loop run / tables)",
        f"  database:         {_database_line(r)}",
        f"  restore:          {r['restored']}/{r['live_tables']} live tables in "
        f"{r['restore_s']:.3f} s (open + "
        + ("integrity check" if backend == "sqlite" else "schema check")
        + f" + load + replay), announced in "
        f"{r['announce_s']:.3f} s; set-up of the tables took {r['setup_s']:.2f} s",
        f"  garbage collector ({r['gc']}): {r['gc_collections']:,} collections "
        f"({r['gc_full']} full), "
        f"longest pause {r['gc_max_ms']:.1f} ms (by generation "
        f"{' / '.join(f'{p:.1f}' for p in r['gc_max_ms_by_generation'])} ms), "
        f"{r['gc_total_s']:.2f} s in all; the audit of every object (every "
        f"{AUDIT_SECONDS / 60:.0f} min with --gc tuned) walked "
        f"{r['gc_audit_walk_ms']:.1f} ms "
        + ("in a copy of the process, stopping the bot " if r["gc_audit_forked"] else
           "here, stopping the bot ")
        + f"{r['gc_audit_ms']:.1f} ms, and found "
        + (f"{r['gc_audit_found']:,}" if r["gc_audit_found"] is not None else "(no answer)")
        + " unreachable objects",
        f"  REST calls:       {rest['budget_per_action']:.3f} per action against the global "
        f"budget in the open loop; by route per action: "
        + ", ".join(f"{route} {n:.3f}" for route, n in rest["per_action"].items()),
        "                    worst 5 s in one channel: "
        + ", ".join(f"{route} {n}" for route, n in rest["worst_window"].items()),
        f"  storage faults:   {_faults_line(r)}",
    ]
    return "\n".join(lines)


def _faults_line(r: dict[str, Any]) -> str:
    """Saves that failed, moves refused for them, pauses, and the moves the database does not
    give back at the end (any is a failed run)."""
    outage = ""
    if r.get("outage_s") is not None:
        how = "the server stopped" if r.get("outage_by") == "server" else "writes failing"
        resumed = "not every table played again" if r.get("resume_s") is None else \
            f"every table played again {r['resume_s']:.2f} s after it ended"
        outage = f"an outage of {r['outage_s']:g} s mid-run ({how}): {resumed}; "
    lost = r["acknowledged_lost"]
    return (f"{outage}{r['saves_failed']:,} saves failed, {r['moves_refused']:,} moves refused, "
            f"longest pause {r['pause_max_s']:.2f} s; "
            + ("every acknowledged move is in the database" if not lost else
               f"{lost:,} ACKNOWLEDGED MOVES MISSING from the database"))


def restore_report(r: dict[str, Any]) -> str:
    """``--restore``: how the tables of an existing database came back."""
    return "\n".join([
        f"musbot bench load --restore — {NAMES[r['backend']]}, {r['db']}",
        f"  restore:          {r['restored']:,} live tables ({r['playing']:,} with a match in "
        f"play) in {r['restore_s']:.3f} s (open + "
        + ("integrity check" if r["backend"] == "sqlite" else "schema check")
        + f" + load + replay), announced in {r['announce_s']:.3f} s; "
        f"{r['kb_per_table']:.1f} KB per restored table",
    ])


def _cpu_line(r: dict[str, Any]) -> str:
    if r.get("backend", "sqlite") == "sqlite":
        return f"{r['cpu_ms_per_action']:.3f} ms (process CPU, SQLite's thread included)"
    line = f"{r['cpu_ms_per_action']:.3f} ms (process CPU, asyncpg's side included)"
    server = r.get("server_cpu_ms_per_action")
    if server is None:
        return line + ", and the PostgreSQL server's not measured (not on this machine)"
    return (line + f" + {server:.3f} ms in the PostgreSQL server's processes serving this "
            f"database (from /proc; its background writers not counted) = "
            f"{r['cpu_ms_per_action'] + server:.3f} ms")


def _database_line(r: dict[str, Any]) -> str:
    tables = ", ".join(PER_HAND_TABLES)
    if r.get("backend", "sqlite") == "sqlite":
        how = "from dbstat" if r.get("size_measure") == "dbstat" else "the whole file"
        size = f"file {r['db_mb']:.1f} MB"
    else:
        how = ("pg_total_relation_size: heap, indexes, TOAST, free-space and visibility maps, "
               "no VACUUM")
        size = f"database {r['db_mb']:.1f} MB (pg_database_size, its catalogs included)"
    return (f"{r['db_bytes_per_hand']:,.0f} bytes per finished hand ({r['hands']:,} hands; "
            f"{tables} with indexes, {how}); live state {r['state_bytes']:,.0f} bytes per "
            f"table; {size}; {r.get('db', '')}")


def _host_line(r: dict[str, Any]) -> str:
    if r["steal_share"] is None:
        return "steal not measured (no /proc/stat)"
    others = r.get("others_cores")
    line = ""
    if others is not None:
        line = (f"other processes kept {others:.2f} of the {r.get('cores') or '?'} cores busy "
                "during the open loop; ")
    line += (f"{r['steal_share']:.1%} of the machine's CPU time stolen by the hypervisor during "
             f"the open loop, {r['steal_share_worst']:.0%} in its worst half-second; ")
    if r["calm_latency_ms_p99"] is None:
        return line + "too few actions in half-seconds without steal for their own p99"
    return line + (f"p99 {r['calm_latency_ms_p99']:.2f} ms over the {r['calm_share']:.0%} of "
                   "the actions due and done in half-seconds without steal")


def compared(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each run's figures the issue compares, and its p99 over the first run's."""
    first = runs[0]["latency_ms_p99"] or 1e-9
    return {"runs": list(runs),
            "p99_vs_first": [round(r["latency_ms_p99"] / first, 2) for r in runs]}


def comparison(summary: dict[str, Any]) -> str:
    runs = summary["runs"]
    lines = ["musbot bench load — the same load on each database, each run in a process of its "
             "own",
             f"  {'database':<12}{'CPU ms/action':>22}{'p50 ms':>9}{'p99 ms':>9}"
             f"{'× first':>9}{'steal':>7}{'others':>8}{'bytes/hand':>12}{'restore s':>11}"]
    for r, ratio in zip(runs, summary["p99_vs_first"], strict=True):
        server = r.get("server_cpu_ms_per_action")
        cpu = f"{r['cpu_ms_per_action']:.3f}" + (f" + {server:.3f}" if server is not None
                                                  else "")
        steal = "—" if r["steal_share"] is None else f"{r['steal_share']:.1%}"
        others = "—" if r.get("others_cores") is None else f"{r['others_cores']:.2f}"
        lines.append(f"  {NAMES[r['backend']]:<12}{cpu:>22}{r['latency_ms_p50']:>9.2f}"
                     f"{r['latency_ms_p99']:>9.2f}{ratio:>8.2f}×{steal:>7}{others:>8}"
                     f"{r['db_bytes_per_hand']:>12,.0f}{r['restore_s']:>11.3f}")
    lines.append("  CPU: the bot's process + the PostgreSQL server's processes for the database; "
                 "× first: p99 over the first run's; others: cores other processes kept busy "
                 "(compare at similar steal and others)")
    return "\n".join(lines)
