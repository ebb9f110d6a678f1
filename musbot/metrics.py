"""What a running bot exposes to Prometheus (``MUSBOT_METRICS=127.0.0.1:9108``, off by default):
``/metrics`` in Prometheus's text format, made by the Prometheus client library, and
``/healthz``.

Two kinds of figures. What happens on the hot path is counted as it happens, by instruments of
:class:`Metrics`: moves and finished hands (as the tables save them: a move counts once it is
stored, as it is only then made), saves and failed saves, the database's save latency, each
governed Discord call's wait in its channel's queue, every 429 Discord answered (retries that
discord.py made inside a call included). What the bot keeps anyway is read only when scraped
(:class:`LiveReadings`): live tables, the governor's queue depth, the REST calls by route and final
status that the request guard counts, the gateway's latency. Labels are routes, kinds and
statuses: never a player's name or id, a channel or a server.

The same registry is served by ``musbot bench load --metrics ADDR`` while it runs, so the figures
can be tried without a token.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from musbot.config import address
from musbot.engine import events as ev
from musbot.table import Persist, Result, Table, Unsaved
from musbot.table.result import Saved

if TYPE_CHECKING:
    import aiohttp
    from aiohttp import web

log = logging.getLogger(__name__)

SAVE_BUCKETS = (0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                2.5, 5.0)
"""Seconds: an SQLite save is a fraction of a millisecond, a PostgreSQL one a few; an outage's
failed saves take up to the connect timeout."""
WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds a call waits in its channel's lane: none, the 1 s between edits, a 5 s window."""


class Metrics:
    """The instruments of one process, in a registry of its own (a test may make several)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.moves = Counter("musbot_moves", "Moves made at the tables (stored, then shown)",
                             registry=r)
        self.hands = Counter("musbot_hands_finished", "Hands played to their end", registry=r)
        self.saves = Counter("musbot_storage_saves", "Table changes stored", registry=r)
        self.save_failures = Counter(
            "musbot_storage_save_failures",
            "Table changes the database did not take (each undone, its table paused)",
            registry=r)
        self.save_seconds = Histogram(
            "musbot_db_write_seconds", "Time to store a table's change (its moves or its whole "
            "state, and the match records it produced)", buckets=SAVE_BUCKETS, registry=r)
        self.queue_wait = Histogram(
            "musbot_discord_queue_wait_seconds", "Time a Discord call waited for its turn in "
            "its channel's lane, by kind (post: a new message; edit: a table message brought up "
            "to date)", ["kind"], buckets=WAIT_BUCKETS, registry=r)
        self.rate_limited = Counter(
            "musbot_discord_rate_limited", "429 answers from Discord, each retry's included, "
            "by scope (user: the bot's own limits; shared: a resource's; global)", ["scope"],
            registry=r)
        self.restored = Gauge("musbot_restored_tables",
                              "Tables restored from the database at the start", registry=r)
        self.started = Gauge("musbot_start_time_seconds", "When the process started (Unix time)",
                             registry=r)
        self.started.set(time.time())

    def waited(self, kind: str, seconds: float) -> None:
        """The governor's hook (:class:`~musbot.discordio.governor.Governor`)."""
        self.queue_wait.labels(kind).observe(max(0.0, seconds))

    def persist(self, inner: Persist) -> Persist:
        """``inner`` with its saves counted and timed."""
        return MeasuredPersist(inner, self)

    def trace(self) -> aiohttp.TraceConfig:
        """For discord.py's ``http_trace``: sees every HTTP answer, so the 429s that discord.py
        waits out and retries inside one call are counted too."""
        import aiohttp

        trace = aiohttp.TraceConfig()

        async def on_end(_session: Any, _context: Any, params: Any) -> None:
            if params.response.status == 429:
                scope = params.response.headers.get("X-RateLimit-Scope", "user")
                self.rate_limited.labels(scope if scope in ("user", "shared", "global")
                                         else "other").inc()

        trace.on_request_end.append(on_end)
        return trace

    def text(self) -> bytes:
        return generate_latest(self.registry)


class MeasuredPersist:
    """A table's :class:`~musbot.table.Persist`, counted: the change's moves and finished hands
    once it is stored (a change that is not is undone, and counts as a failure)."""

    def __init__(self, inner: Persist, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    async def save(self, table: Table, result: Result) -> Saved:
        m = self.metrics
        start = time.perf_counter()
        try:
            saved = await self.inner.save(table, result)
        except Unsaved:
            m.save_failures.inc()
            raise
        finally:
            m.save_seconds.observe(time.perf_counter() - start)
        m.saves.inc()
        if result.moves:
            m.moves.inc(len(result.moves))
        hands = sum(1 for event in result.events if isinstance(event, ev.HandEnded))
        if hands:
            m.hands.inc(hands)
        return saved


@dataclass(eq=False)  # the registry keeps its collectors in a dict
class LiveReadings(Collector):
    """What the process keeps anyway, read at each scrape."""

    tables: Callable[[], int]
    queued: Callable[[], int]
    answers: Callable[[], Mapping[tuple[str, str], int]]
    """(route, status) -> requests: the request guard's count (or the benchmark's)."""
    not_sent: Callable[[], int] = lambda: 0
    gateway: Callable[[], float | None] = lambda: None

    def collect(self) -> Iterable[Metric]:
        yield GaugeMetricFamily("musbot_live_tables", "Tables open in this process",
                                value=self.tables())
        yield GaugeMetricFamily("musbot_discord_queue_depth", "Discord calls waiting for their "
                                "turn in every channel's lane", value=self.queued())
        calls = CounterMetricFamily("musbot_discord_requests", "REST requests to Discord by "
                                    "route and final status (2xx, or the refusal's status)",
                                    labels=["route", "status"])
        for (route, status), count in sorted(self.answers().items()):
            calls.add_metric([route, status], count)
        yield calls
        yield CounterMetricFamily("musbot_discord_requests_not_sent", "Calls not sent: the "
                                  "channel refused them before (lost permissions)",
                                  value=self.not_sent())
        latency = self.gateway()
        if latency is not None and latency == latency and latency != float("inf"):
            yield GaugeMetricFamily("musbot_gateway_latency_seconds", "Heartbeat round trip to "
                                    "Discord's gateway", value=latency)


Health = Callable[[], tuple[bool, str]]
"""Whether the process is well (and why not, in a word or two)."""


class MetricsServer:
    """``/metrics`` and ``/healthz`` over HTTP, on the event loop (aiohttp, which discord.py
    brings): a loop too busy to answer is unhealthy, as it should be."""

    def __init__(self, metrics: Metrics, health: Health) -> None:
        self.metrics = metrics
        self.health = health
        self._runner: web.AppRunner | None = None
        self.address: tuple[str, int] | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listens; the address really bound (port 0: one the system chose)."""
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        server = site._server  # aiohttp has no public accessor for the bound sockets
        sockets = getattr(server, "sockets", None) or ()
        bound = sockets[0].getsockname() if sockets else (host, port)
        self.address = (str(bound[0]), int(bound[1]))
        return self.address

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _metrics(self, _request: web.Request) -> web.Response:
        from aiohttp import web

        return web.Response(body=self.metrics.text(),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, _request: web.Request) -> web.Response:
        from aiohttp import web

        well, why = self.health()
        return web.Response(status=200 if well else 503, text=f"{why}\n")


__all__ = ["LiveReadings", "Metrics", "MetricsServer", "address"]
