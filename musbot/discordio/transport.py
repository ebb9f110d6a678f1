"""The table layer's :class:`~musbot.table.Transport` on Discord, designed for Discord's budget:
the face the table layer sees, over four parts built here, each given what it uses.

- The :class:`Governor` makes every call, within Discord's limits.
- The :class:`Messenger` speaks to one person: DMs, brief replies, «Ver mis cartas»
  (``messenger.py``).
- The :class:`Boards` keep each table channel's messages current (``boards.py``).
- :class:`Access` pauses a table whose channel refused the bot, and resumes it (``access.py``).

A button's move is answered through its interaction (``UPDATE_MESSAGE``, outside the global
budget), a typed one by the next edit. Refusals go to the person alone, worded by the one error
path (``failures.py``): ephemeral for buttons and slash commands, a brief reply that deletes
itself for typed words. The table message never depends on an interaction token: it is posted
with the channel. Everything the table says is plain text, shown escaped (``markup.plain``):
names are never markup nor mentions, and each message notifies at most the one person it
addresses.

Nothing here logs a message's text: before the showdown it may be someone's cards.
"""

from __future__ import annotations

from collections.abc import Collection, Coroutine
from typing import Any

import discord

from musbot.table import Clock, Page, RealClock, Table

from . import ui
from .access import Access
from .boards import Board, Boards
from .bookkeeping import Bookkeeping
from .drawing import Draw, Painter
from .governor import Governor, Limits, Waited
from .markup import mentioning, plain_with
from .messenger import ANSWER_SECONDS, REPLY_SECONDS, Messenger, chunks
from .texts import MESSAGE_LIMIT


class DiscordTransport:
    """A :class:`~musbot.table.Transport` over a discord.py client."""

    def __init__(self, client: discord.Client, *, clock: Clock | None = None,
                 limits: Limits | None = None, reply_seconds: float = REPLY_SECONDS,
                 waited: Waited | None = None, draw: Draw | None = None) -> None:
        """``waited``: told each governed call's wait (:class:`Governor`), for the metrics.
        ``draw``: where pictures are drawn (a thread by default; inline where a run must be the
        same every time, as ``musbot bench discord``, whose clock stands still while a thread
        draws)."""
        self.client = client
        self.clock: Clock = clock or RealClock()
        self.governor = Governor(self.clock, limits, waited=waited)
        self.bookkeeping = Bookkeeping(self.governor)
        self.painter = Painter(draw)
        self.messenger = Messenger(client, self.governor, self.clock, self.bookkeeping,
                                   self.painter, reply_seconds=reply_seconds)
        self.boards = Boards(client, self.governor, self.clock, self.bookkeeping,
                             self.messenger, self.painter)
        """Every table channel's board (``boards.py``)."""
        self.access = Access(client, self.governor, self.clock, self.boards, self.messenger,
                             self.bookkeeping)
        """The channels whose permissions a table lost (``access.py``)."""
        self.guard = self.access.guard
        """Installed on the client's HTTP side at start-up (``MusBot.setup_hook``)."""

    @property
    def draw(self) -> Draw:
        """How pictures are drawn; the running bot sets its worker after start."""
        return self.painter.draw

    @draw.setter
    def draw(self, draw: Draw) -> None:
        self.painter.draw = draw

    @property
    def drawing(self) -> int:
        """Pictures being drawn now, for DMs and for tables' messages."""
        return self.painter.drawing

    @property
    def calls(self) -> dict[int, str]:
        """How each person asked to be told their turn (``/mus avisos``), as far as known."""
        return self.boards.calls

    @property
    def prefers_ephemeral(self) -> Collection[int]:
        """Users whose DMs are closed: they use «Ver mis cartas»."""
        return self.messenger.prefers_ephemeral

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` (the table's bookkeeping after a call) without holding anyone up."""
        self.bookkeeping.spawn(work)

    # --- boards -------------------------------------------------------------------------------

    def bind(self, channel_id: int, channel: discord.abc.Messageable) -> Board:
        """Where a table speaks."""
        return self.boards.bind(channel_id, channel)

    def restore(self, table: Table) -> None:
        """A restored table, before it resumes: see :meth:`Boards.restore`."""
        self.boards.restore(table)

    def repost(self, channel_id: int) -> None:
        """«/mus mesa» where a table is open: see :meth:`Boards.repost`."""
        self.boards.repost(channel_id)

    def changed(self, table: Table) -> None:
        self.boards.changed(table)

    def page(self, channel_id: int, number: int) -> Page | None:
        """The channel's page ``number``, if it is still kept: see :meth:`Boards.page`."""
        return self.boards.page(channel_id, number)

    def changed_at(self, channel_id: int) -> float | None:
        """When the channel's table last changed or was shown again (None: not shown yet)."""
        return self.boards.changed_at(channel_id)

    def call_by(self, user_id: int, way: str) -> None:
        """How the person asked to be told their turn (``/mus avisos``)."""
        self.boards.call_by(user_id, way)

    def seen(self, channel_id: int, message_id: int, author_id: int | None = None) -> None:
        """A message in a channel (anyone's, the bot's own too): the table there stays in view,
        and its author, heard, is watching it."""
        if author_id is not None:
            self.boards.heard(channel_id, author_id)
        self.boards.seen(channel_id, message_id)

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A button pressed on a table's message: see :meth:`Boards.acknowledge`."""
        await self.boards.acknowledge(interaction, table)

    async def flush(self) -> None:
        """Waits until every pending call is made (shutdown, tests, the benchmark)."""
        await self.governor.flush()

    async def cancel_edits(self) -> None:
        """Shutdown: see :meth:`Bookkeeping.cancel`."""
        await self.bookkeeping.cancel()

    # --- Transport ----------------------------------------------------------------------------

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        channel_id = table.channel_id
        board = self.boards.get(channel_id)
        if board is None:
            return
        view = ui.single_view(offer, table.lang) if offer is not None else None

        content = plain_with(text, self.mention(user_id))[:MESSAGE_LIMIT]
        if offer is None and self.boards.remind(channel_id, user_id, content):
            return  # the live message calls them, and goes with their turn

        async def send() -> discord.Message:
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            return await board.channel.send(content, allowed_mentions=mentioning(user_id),
                                            **extra)

        self.governor.post(channel_id, send)

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        await self.messenger.private(table, user_id, text, cards=cards,
                                     where=self._channel_of(table.channel_id))

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        await self.messenger.discard_round(table, user_id, text,
                                           where=self._channel_of(table.channel_id))

    def private_changed(self, table: Table, user_id: int) -> None:
        self.messenger.private_changed(table, user_id)

    def mention(self, user_id: int) -> str:
        return self.messenger.mention(user_id)

    def _channel_of(self, channel_id: int) -> discord.abc.Messageable | None:
        board = self.boards.get(channel_id)
        return board.channel if board is not None else None

    # --- to one person ------------------------------------------------------------------------

    async def direct(self, user_id: int, text: str, *,
                     view: discord.ui.View | None = None) -> None:
        """A DM that is not about one table's hand: see :meth:`Messenger.direct`."""
        await self.messenger.direct(user_id, text, view=view)

    def edit_direct(self, user_id: int, message_id: int, view: discord.ui.View | None) -> None:
        """See :meth:`Messenger.edit_direct`."""
        self.messenger.edit_direct(user_id, message_id, view)

    def learn_dm(self, user_id: int, channel_id: int) -> None:
        """A DM from the user tells their DM channel: no call needed to open it."""
        self.messenger.learn_dm(user_id, channel_id)

    async def say_briefly(self, channel_id: int, text: str, *,
                          reference: discord.Message | None = None, author: int | None = None,
                          mention: bool = False) -> None:
        """A short answer in the channel that deletes itself: see
        :meth:`Messenger.say_briefly`; the channel is the table's, else the client's."""
        board = self.boards.get(channel_id)
        channel = board.channel if board is not None else self.client.get_channel(channel_id)
        await self.messenger.say_briefly(channel_id, channel, text, reference=reference,
                                         author=author, mention=mention)

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any], text: str) -> None:
        """A «Ver mis cartas» answer (showing ``text``) to keep current while its token lives."""
        self.messenger.remember_ephemeral(channel_id, user_id, interaction, text)


__all__ = ["ANSWER_SECONDS", "Board", "DiscordTransport", "chunks"]
