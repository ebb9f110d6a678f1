"""What ``musbot bench load`` prints: one run's figures, and a table comparing the runs when it
was given several databases; in the run's language (the ``BENCH`` catalogue)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from musbot.i18n import BENCH
from musbot.runtime import AUDIT_SECONDS

from .databases import PER_HAND_TABLES
from .text import figure, rows, share

NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def report(r: dict[str, Any], lang: str = "es") -> str:
    n = r["tables"]
    rest = r["rest"]
    backend = r.get("backend", "sqlite")

    def fig(value: float, spec: str = ",") -> str:
        return figure(value, spec, lang)

    sustained = BENCH("load_sustained", lang, rate=fig(r["actions_per_s"], ",.1f"),
                      actions=fig(r["actions"]))
    if r["unissued"]:
        sustained = BENCH("load_sustained_overloaded", lang, rate=fig(r["actions_per_s"], ",.1f"),
                          actions=fig(r["actions"]), unissued=fig(r["unissued"]))
    audit = BENCH("load_gc_audit_forked" if r["gc_audit_forked"] else "load_gc_audit_here", lang,
                  every=fig(AUDIT_SECONDS / 60, ".0f"), walk=fig(r["gc_audit_walk_ms"], ".1f"),
                  pause=fig(r["gc_audit_ms"], ".1f"),
                  found=BENCH("load_no_answer", lang) if r["gc_audit_found"] is None
                  else fig(r["gc_audit_found"]))
    lines = [BENCH("load_head", lang, tables=n, backend=NAMES[backend])]
    lines += rows([
        ("load_model", BENCH("load_model", lang, rate=fig(r["rate"], ",.0f"),
                             per_table=fig(r["rate"] / n, ".2f"),
                             seconds=fig(r["seconds"], ".1f"))),
        ("load_actions", sustained),
        ("load_latency", BENCH("load_latency", lang, p50=fig(r["latency_ms_p50"], ".2f"),
                               p99=fig(r["latency_ms_p99"], ".2f"),
                               max=fig(r["latency_ms_max"], ".2f"),
                               save_p50=fig(r["save_ms_p50"], ".2f"),
                               save_p99=fig(r["save_ms_p99"], ".2f"),
                               save_max=fig(r["save_ms_max"], ".1f"),
                               journal=share(r["journal_share"], lang, 0))),
        ("load_host", _host_line(r, lang)),
        ("load_cpu", BENCH("load_cpu", lang, cpu=_cpu_line(r, lang),
                           busy=share(r["loop_busy"], lang, 0))),
        ("load_max", BENCH("load_max", lang, rate=fig(r["max_actions_per_s"], ",.1f"),
                           seconds=fig(r["closed_seconds"], ".1f"),
                           p50=fig(r["closed_latency_ms_p50"], ".1f"))),
        ("load_engine", BENCH("load_engine", lang, share=share(r["engine_share"], lang),
                              ms=fig(r["engine_ms_per_action"], ".4f"))),
        ("load_memory", BENCH("load_memory", lang, rss=fig(r["rss_mb"], ".1f"),
                              kb=fig(r["kb_per_table"], ".1f"), trims=fig(r["heap_trims"]),
                              trim=fig(r["heap_trim_ms_max"], ".1f"))),
        ("load_database", _database_line(r, lang)),
        ("load_restore", BENCH("load_restore", lang, restored=r["restored"],
                               live=r["live_tables"], seconds=fig(r["restore_s"], ".3f"),
                               check=_check(backend, lang), announced=fig(r["announce_s"], ".3f"),
                               setup=fig(r["setup_s"], ".2f"))),
        ("load_gc", BENCH("load_gc", lang, gc=r["gc"], collections=fig(r["gc_collections"]),
                          full=r["gc_full"], max=fig(r["gc_max_ms"], ".1f"),
                          by=" / ".join(fig(p, ".1f") for p in r["gc_max_ms_by_generation"]),
                          total=fig(r["gc_total_s"], ".2f"), audit=audit)),
        ("load_rest", BENCH("load_rest", lang, budget=fig(rest["budget_per_action"], ".3f"),
                            routes=", ".join(f"{route} {fig(n, '.3f')}"
                                             for route, n in rest["per_action"].items()))),
        ("", BENCH("load_rest_window", lang, routes=", ".join(
            f"{route} {n}" for route, n in rest["worst_window"].items()))),
        ("load_pictures", BENCH("load_pictures", lang, drawn=fig(r["pictures_drawn"]),
                                skipped=fig(r["pictures_skipped"]),
                                workers=r.get("picture_workers", 1),
                                cores=fig(r["picture_cores"], ".2f")
                                if r.get("picture_cores") is not None else "?")),
        ("load_faults", _faults_line(r, lang)),
    ], lang)
    return "\n".join(lines)


def _check(backend: str, lang: str) -> str:
    return BENCH("load_check_integrity" if backend == "sqlite" else "load_check_schema", lang)


def _faults_line(r: dict[str, Any], lang: str) -> str:
    """Saves that failed, moves refused for them, pauses, and the moves the database does not
    give back at the end (any is a failed run)."""
    outage = ""
    if r.get("outage_s") is not None:
        how = BENCH("load_outage_server" if r.get("outage_by") == "server" else
                    "load_outage_writes", lang)
        resumed = BENCH("load_outage_not_resumed", lang) if r.get("resume_s") is None else \
            BENCH("load_outage_resumed", lang, seconds=figure(r["resume_s"], ".2f", lang))
        outage = BENCH("load_outage", lang, seconds=figure(r["outage_s"], "g", lang), how=how,
                       resumed=resumed)
    lost = r["acknowledged_lost"]
    end = BENCH("load_none_lost", lang) if not lost else \
        BENCH("load_lost", lang, lost=figure(lost, ",", lang))
    return outage + BENCH("load_faults", lang, failed=figure(r["saves_failed"], ",", lang),
                          refused=figure(r["moves_refused"], ",", lang),
                          pause=figure(r["pause_max_s"], ".2f", lang), end=end)


def restore_report(r: dict[str, Any], lang: str = "es") -> str:
    """``--restore``: how the tables of an existing database came back."""
    return "\n".join([
        BENCH("load_restore_head", lang, backend=NAMES[r["backend"]], db=r["db"]),
        *rows([("load_restore", BENCH(
            "load_restore_only", lang, restored=figure(r["restored"], ",", lang),
            playing=figure(r["playing"], ",", lang), seconds=figure(r["restore_s"], ".3f", lang),
            check=_check(r["backend"], lang), announced=figure(r["announce_s"], ".3f", lang),
            kb=figure(r["kb_per_table"], ".1f", lang)))], lang),
    ])


def _cpu_line(r: dict[str, Any], lang: str) -> str:
    cpu = figure(r["cpu_ms_per_action"], ".3f", lang)
    if r.get("backend", "sqlite") == "sqlite":
        return BENCH("load_cpu_sqlite", lang, cpu=cpu)
    server = r.get("server_cpu_ms_per_action")
    if server is None:
        return BENCH("load_cpu_pg_unmeasured", lang, cpu=cpu)
    return BENCH("load_cpu_pg", lang, cpu=cpu, server=figure(server, ".3f", lang),
                 total=figure(r["cpu_ms_per_action"] + server, ".3f", lang))


def _database_line(r: dict[str, Any], lang: str) -> str:
    if r.get("backend", "sqlite") == "sqlite":
        how = BENCH("load_size_dbstat" if r.get("size_measure") == "dbstat" else
                    "load_size_file", lang)
        size = BENCH("load_file_mb", lang, mb=figure(r["db_mb"], ".1f", lang))
    else:
        how = BENCH("load_size_pg", lang)
        size = BENCH("load_database_mb", lang, mb=figure(r["db_mb"], ".1f", lang))
    return BENCH("load_database", lang, bytes=figure(r["db_bytes_per_hand"], ",.0f", lang),
                 hands=figure(r["hands"], ",", lang), tables=", ".join(PER_HAND_TABLES), how=how,
                 state=figure(r["state_bytes"], ",.0f", lang), size=size, db=r.get("db", ""))


def _host_line(r: dict[str, Any], lang: str) -> str:
    if r["steal_share"] is None:
        return BENCH("load_steal_unmeasured", lang)
    others = r.get("others_cores")
    line = ""
    if others is not None:
        line = BENCH("load_others", lang, others=figure(others, ".2f", lang),
                     cores=r.get("cores") or "?")
    line += BENCH("load_steal", lang, steal=share(r["steal_share"], lang),
                  worst=share(r["steal_share_worst"], lang, 0))
    if r["calm_latency_ms_p99"] is None:
        return line + BENCH("load_calm_few", lang)
    return line + BENCH("load_calm", lang, p99=figure(r["calm_latency_ms_p99"], ".2f", lang),
                        share=share(r["calm_share"], lang, 0))


def compared(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each run's figures the issue compares, and its p99 over the first run's."""
    first = runs[0]["latency_ms_p99"] or 1e-9
    return {"runs": list(runs),
            "p99_vs_first": [round(r["latency_ms_p99"] / first, 2) for r in runs]}


def comparison(summary: dict[str, Any], lang: str = "es") -> str:
    runs = summary["runs"]
    columns = [BENCH(f"load_column_{key}", lang) for key in
               ("database", "cpu", "p50", "p99", "first", "steal", "others", "bytes", "restore")]
    widths = [max(12, len(columns[0]) + 1), *(max(w, len(c) + 1) for w, c in zip(
        (22, 9, 9, 9, 7, 8, 12, 11), columns[1:], strict=True))]
    lines = [BENCH("load_comparison_head", lang),
             "  " + columns[0].ljust(widths[0])
             + "".join(c.rjust(w) for c, w in zip(columns[1:], widths[1:], strict=True))]
    for r, ratio in zip(runs, summary["p99_vs_first"], strict=True):
        server = r.get("server_cpu_ms_per_action")
        cpu = figure(r["cpu_ms_per_action"], ".3f", lang) + \
            (f" + {figure(server, '.3f', lang)}" if server is not None else "")
        steal = "—" if r["steal_share"] is None else share(r["steal_share"], lang)
        others = "—" if r.get("others_cores") is None else \
            figure(r["others_cores"], ".2f", lang)
        cells = [cpu, figure(r["latency_ms_p50"], ".2f", lang),
                 figure(r["latency_ms_p99"], ".2f", lang), figure(ratio, ".2f", lang) + "×",
                 steal, others, figure(r["db_bytes_per_hand"], ",.0f", lang),
                 figure(r["restore_s"], ".3f", lang)]
        lines.append("  " + NAMES[r["backend"]].ljust(widths[0])
                     + "".join(c.rjust(w) for c, w in zip(cells, widths[1:], strict=True)))
    lines.append("  " + BENCH("load_comparison_note", lang))
    return "\n".join(lines)
