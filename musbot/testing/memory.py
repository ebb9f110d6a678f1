"""In-memory stand-ins for the few discord.py objects :class:`DiscordTransport` and the button
callbacks talk to.

``musbot bench`` drives the real transport with these: every embed, text and view is built
exactly as for Discord, then counted instead of sent, by the REST route the call would take and
by channel in 5-second windows (Discord's per-channel limits), so the benchmark measures musbot
and the calls it would make, not the network. Nothing is kept of a message beyond its id, the
buttons of a channel's last few messages (what a person can press) and the counters: a long run
must not grow.

An interaction's answers (``UPDATE_MESSAGE``, ephemeral replies, modals, follow-ups) are counted
by their own routes, outside the bot's global budget, as Discord counts them, and outside the
channel's limits.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Literal

import discord
import orjson

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
OPEN_DM = "POST /users/@me/channels"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
FOLLOWUP = "POST /webhooks/{application_id}/{interaction_token}"
EDIT_ORIGINAL = "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original"
OUTSIDE_BUDGET = frozenset({CALLBACK, FOLLOWUP, EDIT_ORIGINAL})
"""Interaction answers: Discord does not count them against the bot's global budget."""
WINDOW = 5.0
TIE = 1e-6
"""Seconds within which two times are the same (float arithmetic on clock times)."""
CHANNEL_LIMIT = 5
"""Messages, and edits, Discord lets one channel take in :data:`WINDOW` seconds."""
KEPT_MESSAGES = 8
"""Messages per channel whose buttons are remembered."""

ChannelKind = Literal["table", "dm"]


@dataclass
class RenderStats:
    """What the transport produced: calls by route, characters and buttons, and the worst
    5-second window of each kind in any one channel."""

    calls: Counter[str] = field(default_factory=Counter)
    dm_posts: int = 0
    chars: int = 0
    buttons: int = 0
    worst: Counter[str] = field(default_factory=Counter)
    """The most calls of each route in one channel within any 5 s."""
    worst_by_kind: Counter[tuple[ChannelKind, str]] = field(default_factory=Counter)
    """The same, for table channels and DM channels apart."""
    over: Counter[tuple[ChannelKind, str]] = field(default_factory=Counter)
    """Calls that found :data:`CHANNEL_LIMIT` of their route in their channel's last 5 s:
    each one a window Discord would have answered with 429."""
    now: Callable[[], float] = lambda: 0.0
    _recent: dict[tuple[int, str], list[float]] = field(default_factory=dict)
    """Lists, not deques: a few entries each, and the stand-in's memory counts in the figures."""

    def count(self, route: str, channel_id: int | None, content: str | None = None,
              kwargs: dict[str, Any] | None = None, kind: ChannelKind = "table"
              ) -> tuple[str, ...]:
        """One call; ``channel_id`` None: a call on no channel (opening a DM channel, an
        interaction's answer). Returns the buttons of its view (by custom_id), serialized once
        as discord.py does."""
        self.calls[route] += 1
        if channel_id is not None:
            self._window(route, channel_id, kind)
        self.chars += len(content or "")
        kwargs = kwargs or {}
        embed: discord.Embed | None = kwargs.get("embed")
        if embed is not None:
            # What discord.py sends for it: to_dict(), encoded as JSON (with orjson, which it
            # uses when installed, as it is with musbot).
            self.chars += len(orjson.dumps(embed.to_dict()))
        ids = custom_ids(kwargs.get("view"))
        self.buttons += len(ids)
        return ids

    def _window(self, route: str, channel_id: int, kind: ChannelKind) -> None:
        now = self.now()
        recent = self._recent.setdefault((channel_id, route), [])
        # A call 5 s after another no longer shares its window (the governor reads it so
        # too); a tolerance, since 8.2 - 5 is 3.1999999999999993 and not 3.2.
        while recent and now - recent[0] >= WINDOW - TIE:
            del recent[0]
        if len(recent) >= CHANNEL_LIMIT:
            self.over[(kind, route)] += 1
        recent.append(now)
        if len(recent) > self.worst[route]:
            self.worst[route] = len(recent)
        if len(recent) > self.worst_by_kind[(kind, route)]:
            self.worst_by_kind[(kind, route)] = len(recent)

    def reset(self) -> None:
        """Counts from zero (a benchmark's measured phase), the recent calls' times kept so
        that the windows still see the calls just before."""
        for counter in (self.calls, self.worst, self.worst_by_kind, self.over):
            counter.clear()
        self.dm_posts = self.chars = self.buttons = 0

    def snapshot(self) -> RenderStats:
        """The counts as they are now (the recent calls' times not copied)."""
        return RenderStats(Counter(self.calls), self.dm_posts, self.chars, self.buttons,
                           Counter(self.worst), Counter(self.worst_by_kind), Counter(self.over),
                           self.now)

    @property
    def budget_calls(self) -> int:
        """The calls that count against the bot's global budget: all but interaction
        answers."""
        return sum(n for route, n in self.calls.items() if route not in OUTSIDE_BUDGET)


def custom_ids(view: discord.ui.View | None) -> tuple[str, ...]:
    """The buttons a view puts under a message, by custom_id."""
    if view is None:
        return ()
    return tuple(component["custom_id"] for row in view.to_components()
                 for component in row.get("components", ()) if "custom_id" in component)


_ids = itertools.count(10**17)


def new_id() -> int:
    """A message id no other message of the run has (Discord-sized)."""
    return next(_ids)


class MemoryMessage:
    """A message: ``edit`` and ``delete`` are counted and forgotten."""

    __slots__ = ("channel", "id")

    def __init__(self, channel: MemoryChannel, message_id: int) -> None:
        self.channel = channel
        self.id = message_id

    async def edit(self, **kwargs: Any) -> MemoryMessage:
        channel = self.channel
        ids = channel.stats.count(EDIT, channel.id, kwargs.get("content"), kwargs, channel.kind)
        if "view" in kwargs:
            channel.shows(self.id, ids)
        return self

    async def delete(self) -> None:
        self.channel.stats.count(DELETE, self.channel.id, kind=self.channel.kind)
        self.channel.buttons.pop(self.id, None)

    def to_reference(self, **kwargs: Any) -> discord.MessageReference:
        return discord.MessageReference(message_id=self.id, channel_id=self.channel.id)


class MemoryChannel:
    """A guild text channel (the table's) or a user's DM channel."""

    __slots__ = ("_public", "buttons", "guild", "id", "name", "stats")

    def __init__(self, channel_id: int, stats: RenderStats, *, guild: str | None = "Bench",
                 name: str = "mus", public: bool = True) -> None:
        self.id = channel_id
        self.name = name
        self.guild = SimpleNamespace(name=guild, id=1) if guild is not None else None
        self.stats = stats
        self._public = public
        self.buttons: dict[int, tuple[str, ...]] = {}
        """The buttons under the channel's last few messages that have any, by message id."""

    @property
    def kind(self) -> ChannelKind:
        return "table" if self._public else "dm"

    async def send(self, content: str | None = None, **kwargs: Any) -> MemoryMessage:
        ids = self.stats.count(POST, self.id, content, kwargs, self.kind)
        if not self._public:
            self.stats.dm_posts += 1
        message = MemoryMessage(self, new_id())
        self.shows(message.id, ids)
        return message

    def get_partial_message(self, message_id: int) -> MemoryMessage:
        return MemoryMessage(self, message_id)

    def shows(self, message_id: int, ids: tuple[str, ...]) -> None:
        """The message now has these buttons (by custom_id: :func:`custom_ids`)."""
        self.buttons.pop(message_id, None)
        if ids:
            self.buttons[message_id] = ids
            while len(self.buttons) > KEPT_MESSAGES:
                del self.buttons[next(iter(self.buttons))]


class MemoryClient:
    """What :class:`DiscordTransport` uses of a ``discord.Client``: channels by id, made on
    first use, and DM channels opened on demand (counted)."""

    def __init__(self, now: Callable[[], float] | None = None) -> None:
        self.stats = RenderStats()
        if now is not None:
            self.stats.now = now
        self.channels: dict[int, MemoryChannel] = {}

    def channel(self, channel_id: int) -> MemoryChannel:
        found = self.channels.get(channel_id)
        if found is None:
            found = self.channels[channel_id] = MemoryChannel(channel_id, self.stats)
        return found

    def get_channel(self, channel_id: int) -> MemoryChannel:
        """Every channel is reachable (a restored table speaks in its channel at once)."""
        return self.channel(channel_id)

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> MemoryChannel:
        found = self.channels.get(channel_id)
        if found is None:
            found = self.channels[channel_id] = MemoryChannel(
                channel_id, self.stats, guild=None, public=False)
        return found

    def dm_channel_of(self, user_id: int) -> MemoryChannel:
        """The user's DM channel (the one :meth:`create_dm` opens), without a call."""
        return self.get_partial_messageable(10**18 + user_id)

    async def create_dm(self, user: Any) -> MemoryChannel:
        self.stats.count(OPEN_DM, None)
        return self.dm_channel_of(int(user.id))


class MemoryResponse:
    """``interaction.response``: one answer per interaction, counted on :data:`CALLBACK`."""

    def __init__(self, interaction: MemoryInteraction) -> None:
        self._interaction = interaction
        self._done = False

    def is_done(self) -> bool:
        return self._done

    def _answer(self, content: str | None = None, **kwargs: Any) -> tuple[str, ...]:
        if self._done:
            raise discord.InteractionResponded(self._interaction)  # type: ignore[arg-type]
        self._done = True
        return self._interaction.stats.count(CALLBACK, None, content, kwargs)

    async def defer(self, **kwargs: Any) -> None:
        self._answer()

    async def edit_message(self, **kwargs: Any) -> None:
        """``UPDATE_MESSAGE``: the message the button is under, changed by the answer."""
        content = kwargs.pop("content", None)
        ids = self._answer(content, **kwargs)
        message = self._interaction.message
        if message is not None and "view" in kwargs:
            message.channel.shows(message.id, ids)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._interaction.answers.append(content or "")
        self._answer(content, **kwargs)

    async def send_modal(self, modal: discord.ui.Modal) -> None:
        self._answer()


class MemoryFollowup:
    def __init__(self, interaction: MemoryInteraction) -> None:
        self._interaction = interaction

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self._interaction.answers.append(content or "")
        self._interaction.stats.count(FOLLOWUP, None, content, kwargs)


class MemoryInteraction:
    """A button pressed (or a modal submitted) by ``user`` on ``message``: what the button
    callbacks in :mod:`musbot.discordio.ui` use of a ``discord.Interaction``. ``client`` is
    what they take for the bot (its ``tables`` and ``transport``). ``answers`` keeps the
    texts answered to the presser alone (refusals)."""

    def __init__(self, client: Any, stats: RenderStats, user: Any,
                 message: MemoryMessage | None, channel_id: int | None) -> None:
        self.client = client
        self.stats = stats
        self.user = user
        self.message = message
        self.channel_id = channel_id
        self.guild_id = 1 if message is not None and message.channel.kind == "table" else None
        self.locale = discord.Locale.spain_spanish
        self.answers: list[str] = []
        self.response = MemoryResponse(self)
        self.followup = MemoryFollowup(self)

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.stats.count(EDIT_ORIGINAL, None, kwargs.get("content"), kwargs)
