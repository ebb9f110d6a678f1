"""Every REST request of the bot as Discord's ban counts it, at discord.py's one door for them
(``HTTPClient.request``).

Discord bans an IP address for an hour, for every server the bot is in, after 10,000 invalid
requests (answered 401, 403 or 429) in 10 minutes. A channel whose permissions changed under the
bot must not become a stream of 403s, so:

- a channel that refused the bot is not asked again: after a 403 50001 (Missing Access: it can
  no longer see the channel) every call about that channel, after a 403 50013 (Missing
  Permissions) the same call, is refused here without a request (:class:`Refused`), until the
  bot's permissions there are seen to change (:meth:`RequestGuard.clear`); the owner of the
  channel's table is told once (``on_refused``), and pauses it. When the gateway shows the loss
  first, the channel is refused at once (:meth:`RequestGuard.refuse`), without a request;
- every invalid answer is counted, process-wide: past :attr:`RequestGuard.limit` in the window
  (a tenth of Discord's), requests wait until the count falls back, well before the ban.

discord.py retries a 429 inside ``request``; the governor keeps the bot clear of them, and
the rare one that gets out (too long a wait, a ban) is counted here too.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import Route

from musbot.table import Clock

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
"""A thread archived (and, for the bot, locked: Discord opens an unlocked one by itself at a
new message) refuses every call about it."""
THREAD_LOCKED = 160005
THREAD_CLOSED = frozenset({THREAD_ARCHIVED, THREAD_LOCKED})
NEW_MESSAGE = "POST /channels/{channel_id}/messages"
EVERY_CALL = "*"
INVALID_STATUSES = frozenset({401, 403, 429})
INVALID_WINDOW = 600.0
"""Discord's window for invalid requests: 10 minutes."""
INVALID_LIMIT = 1000
"""Invalid requests in the window after which the bot waits: a tenth of Discord's 10,000."""

Request = Callable[..., Awaitable[Any]]
RefusedHook = Callable[[int, int], None]
"""Told (channel id, Discord's code) when a channel first refuses the bot: 50001, it cannot see
it; 50013, it cannot post there; 50083 or 160005, it is a thread closed (archived, locked)."""


@dataclass(frozen=True, slots=True)
class _NotSent:
    """What discord.py's exceptions read of a response, for a request that was never made."""

    status: int = 403
    reason: str = "Forbidden (refused before, not sent again)"


class Refused(discord.Forbidden):
    """A call not made: the channel refused it before, and nothing says it would not now."""

    def __init__(self, channel_id: int, code: int) -> None:
        super().__init__(_NotSent(), {"code": code, "message": "refused before: not sent"})  # type: ignore[arg-type]
        self.channel_id = channel_id


class RequestGuard:
    """The bot's REST requests, counted and held back as the module says."""

    def __init__(self, clock: Clock, *, limit: int = INVALID_LIMIT,
                 window: float = INVALID_WINDOW, on_refused: RefusedHook | None = None) -> None:
        self.clock = clock
        self.limit = limit
        self.window = window
        self.on_refused = on_refused
        self.refused: dict[int, dict[str, int]] = {}
        """Channel id -> the calls it refused (a route, or :data:`EVERY_CALL`) -> the code."""
        self._invalid: deque[float] = deque()
        self.invalid = 0
        """Invalid answers since start-up."""
        self.not_sent = 0
        """Calls refused here, without a request."""
        self.held = 0
        """Requests that waited for the count of invalid ones to fall back."""
        self.answers: Counter[tuple[str, str]] = Counter()
        """Requests made, by route (its template: ``POST /channels/{channel_id}/messages``, no
        id) and Discord's final answer (``2xx``, or the status of a refusal: ``403``, ``429``
        when discord.py gave up waiting…), read by ``musbot.metrics``."""

    def install(self, http: discord.http.HTTPClient) -> None:
        """Every request of this client goes through the guard from now on."""
        send: Request = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            return await self.request(send, route, **kwargs)

        http.request = request  # type: ignore[method-assign]

    def channels(self) -> list[int]:
        """The channels where the bot may not post, or see."""
        return [channel for channel, calls in self.refused.items()
                if EVERY_CALL in calls or NEW_MESSAGE in calls]

    def clear(self, channel_id: int) -> None:
        """The bot's permissions in the channel changed: it may be asked again."""
        self.refused.pop(channel_id, None)

    async def request(self, send: Request, route: Route, **kwargs: Any) -> Any:
        channel_id = route.channel_id
        key = f"{route.method} {route.path}"
        if channel_id is not None:
            refused = self.refused.get(int(channel_id))
            code = None if refused is None else refused.get(EVERY_CALL, refused.get(key))
            if code is not None:
                self.not_sent += 1
                raise Refused(int(channel_id), code)
        await self._below_limit()
        try:
            answer = await send(route, **kwargs)
        except discord.RateLimited:
            self.answers[(key, "429")] += 1
            self._count()
            raise
        except discord.HTTPException as error:
            self.answers[(key, str(error.status))] += 1
            if error.status in INVALID_STATUSES:
                self._count()
            if channel_id is not None and (error.status == 403 or error.code in THREAD_CLOSED):
                self._refused(int(channel_id), key, error.code)
            raise
        self.answers[(key, "2xx")] += 1
        return answer

    def refuse(self, channel_id: int, code: int, *, tell: bool = True) -> None:
        """The gateway says the bot lost the channel (50001: it cannot see it; 50013: it cannot
        post there; a thread closed) before any call was refused: the same as after the first
        refusal (``tell``: its owner is told, unless it is the one refusing it)."""
        self._refused(channel_id, NEW_MESSAGE, code, tell=tell)

    def _refused(self, channel_id: int, key: str, code: int, *, tell: bool = True) -> None:
        if code == MISSING_ACCESS or code in THREAD_CLOSED:
            call = EVERY_CALL
        elif code == MISSING_PERMISSIONS:
            call = key
        else:
            return  # 50007, a closed DM: the transport stops DMing that person itself
        calls = self.refused.setdefault(channel_id, {})
        lost_before = EVERY_CALL in calls or NEW_MESSAGE in calls
        calls[call] = code
        if tell and not lost_before and call in (EVERY_CALL, NEW_MESSAGE) \
                and self.on_refused is not None:
            self.on_refused(channel_id, code)

    def _count(self) -> None:
        self.invalid += 1
        self._invalid.append(self.clock.now())

    def recent(self) -> int:
        """Invalid answers within the window."""
        cutoff = self.clock.now() - self.window
        while self._invalid and self._invalid[0] <= cutoff:
            self._invalid.popleft()
        return len(self._invalid)

    async def _below_limit(self) -> None:
        if self.recent() < self.limit:
            return
        self.held += 1
        log.warning("%d invalid Discord requests in %.0f s: holding requests back",
                    len(self._invalid), self.window)
        while self.recent() >= self.limit:
            await self.clock.sleep(max(0.001, self._invalid[0] + self.window - self.clock.now()))
            await asyncio.sleep(0)
