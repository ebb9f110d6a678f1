"""The replacement for discord.py's ``HTTPClient.request`` and webhook adapter: records every
call, applies Discord's rate limits, and lives through a 429 as discord.py would (record it,
sleep ``retry_after`` on the fake clock, try again; five tries at most), because replacing
``request`` also replaced discord.py's own 429 handling."""

from __future__ import annotations

import asyncio
import json
import math
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route

from . import emojis  # noqa: F401  (its routes join the REST router)
from .errors import FakeResponse, UnsupportedRoute, WireError, to_exception
from .rest import rest
from .routing import FileInfo, Request, match
from .webhooks import webhooks

if TYPE_CHECKING:
    from .fake import FakeDiscord

CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
USER_FETCH = "GET /users/{user_id}"
EPSILON = 1e-9
UNSUPPORTED = 0
"""The status recorded for a call to an endpoint the double does not model (it raised)."""


@dataclass(frozen=True)
class Call:
    """One HTTP request as Discord saw it, and its answer."""

    at: float
    method: str
    route: str
    """discord.py's template with the method, e.g. ``POST /channels/{channel_id}/messages``."""
    path: str
    channel_id: int | None
    json: Any
    files: tuple[FileInfo, ...]
    status: int
    code: int | None
    budget: bool
    """Counts against the bot's global 50 requests per second (interactions do not)."""
    rate_limited: bool
    kind: str
    """``rest``, ``callback`` (interaction response) or ``webhook`` (interaction webhook)."""
    response: Any = None
    retry_after: float | None = None
    is_global: bool = False


@dataclass(frozen=True)
class Report:
    calls: int
    by_route: dict[str, int]
    budget_calls: int
    busiest_second: int
    """Most budget calls in any one-second window."""
    rate_limited: int
    global_rate_limited: int
    worst_creations: dict[int, int]
    """Channel id -> most messages created in any 5 s window."""
    worst_edits: dict[int, int]
    user_fetches: int
    refusals: dict[tuple[int, int | None], int]
    """(status, code) -> how many, for answers other than 2xx and 429."""
    unsupported: int
    """Calls to endpoints the double does not model (each raised ``UnsupportedRoute``)."""


def busiest(times: Sequence[float], window: float) -> int:
    """Most events in any half-open window ``[t, t + window)``."""
    ordered = sorted(times)
    best, start = 0, 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - window + EPSILON:
            start += 1
        best = max(best, end - start + 1)
    return best


class Recorder:
    """Calls and rate-limit windows for one world (one bot token)."""

    def __init__(self, world: FakeDiscord, *, channel_limit: int = 5, channel_window: float
                 = 5.0, global_limit: int | None = 50) -> None:
        self.world = world
        self.calls: list[Call] = []
        self.channel_limit = channel_limit
        self.channel_window = channel_window
        self.global_limit = global_limit
        self._done: dict[str, dict[int, list[float]]] = {CREATE: {}, EDIT: {}}
        self._budget: list[float] = []

    # What replaces discord.py.

    def bind(self, http: discord.http.HTTPClient) -> Callable[..., Coroutine[Any, Any, Any]]:
        """The coroutine function set as ``http.request`` on one bot's ``HTTPClient``."""
        global_over = asyncio.Event()
        global_over.set()

        async def request(route: Route, *, files: Sequence[discord.File] | None = None,
                          form: Iterable[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            if form:
                body = _payload_json(form)
            req = _request(route, body, files, kwargs.get("params"), "rest")
            return await self._attempts(req, route, global_over, http.max_ratelimit_timeout)

        return request

    async def webhook(self, route: Route, *, payload: Any = None, multipart: Any = None,
                      files: Sequence[discord.File] | None = None, params: Any = None) -> Any:
        body = _payload_json(multipart) if multipart else payload
        kind = "callback" if route.path.startswith("/interactions/") else "webhook"
        return await self._attempts(_request(route, body, files, params, kind), route, None, None)

    async def _attempts(self, req: Request, route: Route, global_over: asyncio.Event | None,
                        max_timeout: float | None) -> Any:
        response = FakeResponse(0)
        data: Any = None
        for _ in range(5):
            if global_over is not None:
                await global_over.wait()
            await asyncio.sleep(0)  # the network: other tasks run while a request travels
            status, data = self._answer(req)
            response = FakeResponse(status, req.method, route.url, {"Via": "1.1 google"})
            if 200 <= status < 300:
                return data
            if status != 429:
                raise to_exception(response, data)
            retry_after = float(data["retry_after"])
            if max_timeout and retry_after > max_timeout:
                raise discord.RateLimited(retry_after)
            is_global = bool(data.get("global"))
            if is_global and global_over is not None:
                global_over.clear()
            await self.world.clock.sleep(retry_after)
            if is_global and global_over is not None:
                global_over.set()
        raise discord.HTTPException(response, data)

    # What Discord does.

    def _answer(self, req: Request) -> tuple[int, Any]:
        now = self.world.now()
        channel_id = self._channel_of(req)
        budget = req.kind == "rest"
        limited = self._limited(req, now, channel_id) if budget else None
        status: int
        data: Any
        if limited is not None:
            status, data = 429, limited
        else:
            if budget:
                self._budget.append(now)
            try:
                handler = (rest if req.kind == "rest" else webhooks).handler(req)
                faults = self.world.faults.get(req.route)
                if not faults:
                    status, data = handler(self.world, req)
                elif faults[0].status == 429:
                    faults.pop(0)
                    status, data = 429, _too_many(1.0, is_global=False)
                else:
                    raise faults.pop(0)
            except WireError as refused:
                status, data = refused.status, refused.body()
            except UnsupportedRoute:
                self.calls.append(Call(now, req.method, req.route, req.path, channel_id,
                                       req.json, tuple(req.files), UNSUPPORTED, None, budget,
                                       False, req.kind))
                raise
            data = _roundtrip(data)
            if 200 <= status < 300 and req.route in self._done and channel_id is not None:
                self._done[req.route].setdefault(channel_id, []).append(now)
        code = data.get("code") if isinstance(data, dict) and status >= 300 else None
        self.calls.append(Call(
            now, req.method, req.route, req.path, channel_id, req.json, tuple(req.files),
            status, code, budget, status == 429, req.kind, data,
            data.get("retry_after") if status == 429 else None,
            bool(status == 429 and data.get("global"))))
        return status, data

    def _channel_of(self, req: Request) -> int | None:
        if "channel_id" in req.params:
            return int(req.params["channel_id"])
        token = req.params.get("webhook_token")
        inter = self.world.by_token.get(token) if token else None
        return inter.channel_id if inter is not None else None

    def _limited(self, req: Request, now: float, channel_id: int | None) -> dict[str, Any] | None:
        """The 429 body if this request is over a limit, else None."""
        if self.global_limit is not None:
            recent = [t for t in self._budget if t > now - 1.0 + EPSILON]
            if len(recent) >= self.global_limit:
                return _too_many(recent[0] + 1.0 - now, is_global=True)
        if req.route in self._done and channel_id in self.world.channels:
            assert channel_id is not None
            done = self._done[req.route].get(channel_id, [])
            recent = [t for t in done if t > now - self.channel_window + EPSILON]
            if len(recent) >= self.channel_limit:
                return _too_many(recent[0] + self.channel_window - now, is_global=False)
        return None

    def report(self) -> Report:
        calls = self.calls
        return Report(
            calls=len(calls),
            by_route=dict(Counter(c.route for c in calls)),
            budget_calls=sum(c.budget for c in calls),
            busiest_second=busiest([c.at for c in calls if c.budget], 1.0),
            rate_limited=sum(c.rate_limited for c in calls),
            global_rate_limited=sum(c.is_global for c in calls),
            worst_creations={ch: busiest(t, self.channel_window)
                             for ch, t in self._done[CREATE].items()},
            worst_edits={ch: busiest(t, self.channel_window)
                         for ch, t in self._done[EDIT].items()},
            user_fetches=sum(c.route == USER_FETCH for c in calls),
            refusals=dict(Counter((c.status, c.code) for c in calls
                                  if c.status >= 300 and c.status != 429)),
            unsupported=sum(c.status == UNSUPPORTED for c in calls),
        )


def _too_many(retry_after: float, *, is_global: bool) -> dict[str, Any]:
    seconds = max(0.001, math.ceil(retry_after * 1000) / 1000)
    return {"message": "You are being rate limited.", "retry_after": seconds,
            "global": is_global}


def _request(route: Route, body: Any, files: Sequence[discord.File] | None,
             params: Mapping[str, Any] | None, kind: str) -> Request:
    path = route.url.removeprefix(Route.BASE)
    return Request(route.method, route.path, path, match(route.path, path), _roundtrip(body),
                   [_file_info(f) for f in files or []], dict(params or {}), kind)


def _payload_json(form: Iterable[Mapping[str, Any]]) -> Any:
    for part in form:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _file_info(file: discord.File) -> FileInfo:
    fp = file.fp
    position = fp.tell()
    data = fp.read()
    fp.seek(position)
    return FileInfo(file.filename or "file", len(data), file.description, bytes(data[:24]),
                    bytes(data))


def _roundtrip(value: Any) -> Any:
    """Through JSON, as over the wire: what cannot be encoded fails here as it would in
    discord.py, and neither side keeps a reference to the other's objects."""
    if value is None or value == "":
        return value
    return json.loads(discord.utils._to_json(value))
