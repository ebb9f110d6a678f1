"""The table layer's :class:`~musbot.table.Transport` on Discord, one board per table channel.

- public text goes to the channel; the table message (one embed) is edited in place, at most one
  edit per ``edit_interval`` per table, however many events a bot-heavy hand produces (one
  task keeps the time for all of them, see :meth:`DiscordTransport._edit_boards`);
- private text goes by DM, headed with the server and channel; a DM refused with 50007 makes the
  transport remember the user prefers the ephemeral «Ver mis cartas» path (the table then tells
  the channel, without cards);
- replies to a command go where the command came from (see :func:`reply_via`), else to the
  channel, and delete themselves.

Nothing here logs a message's text: before the showdown it may be someone's cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from musbot.engine import Phase
from musbot.table import Clock, DmClosed, RealClock, Table, TableManager, render

from . import ui
from .texts import dt

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
"""Discord's «Cannot send messages to this user»."""
MESSAGE_LIMIT = 2000
EDIT_INTERVAL = 1.0
EDIT_LOOKOUT = 0.05
"""The longest the editor sleeps at a time, so that a table whose edit is due at once (its last
one was long ago) waits at most this long behind tables due later."""
REPLY_SECONDS = 8.0
EPHEMERAL_SECONDS = 14 * 60.0
"""An interaction token lives 15 minutes: the ephemeral view is refreshed only within that."""
NO_MASS_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
"""Names are people's display names: «@everyone» as a nickname must not ping a server."""

Replier = Callable[[str], Awaitable[Any]]
_REPLY_ROUTE: ContextVar[Replier | None] = ContextVar("musbot_reply_route", default=None)


@contextlib.contextmanager
def reply_via(replier: Replier) -> Iterator[None]:
    """Within this block (one task), :meth:`DiscordTransport.reply` answers through ``replier``:
    a reply to the message, in the DM, or an ephemeral follow-up, instead of the channel."""
    token = _REPLY_ROUTE.set(replier)
    try:
        yield
    finally:
        _REPLY_ROUTE.reset(token)


@dataclass
class Board:
    """What the transport keeps per table channel."""

    channel: discord.abc.Messageable
    message: discord.Message | None = None
    """The table message (embed); None until the table is announced."""
    turn_message: discord.Message | None = None
    """The latest message with turn buttons; older ones lose theirs, so nobody presses an
    «Órdago» from three bets ago."""
    stale: list[discord.Message] = field(default_factory=list)
    """Turn messages whose buttons are to be removed with the next coalesced edit."""
    dirty: bool = False
    """Changed since the last edit, and waiting in the editor's queue."""
    editing: asyncio.Task[None] | None = None
    """The edit on its way (it may wait for Discord's rate limit of this channel)."""
    last_edit: float = float("-inf")
    views: dict[tuple[str, ...], discord.ui.View] = field(default_factory=dict)
    """The table's button rows, built once each and sent again (see :meth:`DiscordTransport.view`):
    a handful per table (mus, opening, answer, órdago, the table message's)."""


@dataclass
class _Ephemeral:
    interaction: discord.Interaction[Any]
    since: float
    text: str | None = None
    task: asyncio.Task[None] | None = None


class DiscordTransport:
    """A :class:`~musbot.table.Transport` over a discord.py client. ``tables`` is set by the bot
    right after the :class:`TableManager` is made (each needs the other)."""

    def __init__(self, client: discord.Client, *, clock: Clock | None = None,
                 edit_interval: float = EDIT_INTERVAL, reply_seconds: float = REPLY_SECONDS
                 ) -> None:
        self.client = client
        self.clock: Clock = clock or RealClock()
        self.edit_interval = edit_interval
        self.reply_seconds = reply_seconds
        self.tables: TableManager | None = None
        self.boards: dict[int, Board] = {}
        self.prefers_ephemeral: set[int] = set()
        """Users whose DMs are closed: never DM'd again this process, they use «Ver mis cartas»."""
        self._ephemerals: dict[tuple[int, int], _Ephemeral] = {}
        self._prompted: dict[tuple[int, int], tuple[int, str]] = {}
        """Discard rounds already prompted by DM, per (channel, user): each asks once."""
        self._due: list[tuple[float, int, int]] = []
        """The boards waiting for an edit: (when it may be made, order of arrival, channel)."""
        self._arrivals = itertools.count()
        self._editor: asyncio.Task[None] | None = None

    # --- boards -------------------------------------------------------------------------------

    def bind(self, channel_id: int, channel: discord.abc.Messageable, *,
             message: discord.Message | None = None) -> Board:
        """Where a table speaks; ``message`` is its table message."""
        board = self.boards.get(channel_id)
        if board is None:
            board = self.boards[channel_id] = Board(channel)
        board.channel = channel
        if message is not None:
            board.message = message
        return board

    def table(self, channel_id: int) -> Table | None:
        return self.tables.get(channel_id) if self.tables is not None else None

    async def announce(self, channel_id: int) -> discord.Message:
        """Posts a table message (again): after a restart or when it scrolled out of sight."""
        board = self._board(channel_id)
        table = self.table(channel_id)
        lang = table.lang if table is not None else "es"
        extra: dict[str, Any] = {}
        view = self.view(board, table, "board")
        if view is not None:
            extra["view"] = view
        board.message = await board.channel.send(embed=ui.table_embed(table, lang), **extra)
        board.last_edit = self.clock.now()
        return board.message

    def touch(self, channel_id: int) -> None:
        """The table changed: edit its message soon, coalescing everything until then."""
        board = self.boards.get(channel_id)
        if board is None or (board.message is None and not board.stale):
            return
        if not board.dirty:
            board.dirty = True
            heapq.heappush(self._due, (board.last_edit + self.edit_interval,
                                       next(self._arrivals), channel_id))
        if self._editor is None or self._editor.done():
            self._editor = asyncio.get_running_loop().create_task(self._edit_boards())

    async def flush(self) -> None:
        """Waits until every pending table-message edit is made (shutdown, tests, the
        benchmark)."""
        while self._editor is not None and not self._editor.done():
            await asyncio.shield(self._editor)
        editing = [b.editing for b in self.boards.values() if b.editing is not None]
        await asyncio.gather(*editing, return_exceptions=True)

    def cancel_edits(self) -> None:
        """Shutdown: the pending edits are dropped (the next start announces every table)."""
        if self._editor is not None:
            self._editor.cancel()
        for board in self.boards.values():
            board.dirty = False
            if board.editing is not None:
                board.editing.cancel()
        self._due.clear()

    async def _edit_boards(self) -> None:
        """The one task that keeps the time for the table-message edits: it starts each when
        its interval has passed, in that order, until none is waiting. A busy bot changes a
        thousand tables a second, and a timer and a sleeping task per table cost more than the
        rest of an edit. Each edit runs as a task of its own: one that waits for Discord's rate
        limit of its channel must not hold up the other tables."""
        due = self._due
        loop = asyncio.get_running_loop()
        while due:
            when, _, channel_id = due[0]
            now = self.clock.now()
            if when > now:
                await self.clock.sleep(min(when - now, EDIT_LOOKOUT))
                continue
            heapq.heappop(due)
            board = self.boards.get(channel_id)
            if board is None or not board.dirty:
                continue
            if board.editing is not None and not board.editing.done():
                # The last one is still on its way: this one follows it, never overtakes it.
                heapq.heappush(due, (now + self.edit_interval, next(self._arrivals), channel_id))
                continue
            board.editing = loop.create_task(self._edit(channel_id, board))

    async def _edit(self, channel_id: int, board: Board) -> None:
        """One coalesced edit: stale turn messages lose their buttons, the table message shows
        the table now. A change made meanwhile queues the board again."""
        try:
            await self._edit_now(channel_id, board)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("table message edit failed in channel %s", channel_id, exc_info=True)

    async def _edit_now(self, channel_id: int, board: Board) -> None:
        board.dirty = False
        board.last_edit = self.clock.now()
        stale, board.stale = board.stale, []
        for message in stale:
            with contextlib.suppress(discord.HTTPException):
                await message.edit(view=None)
        if board.message is None:
            return
        table = self.table(channel_id)
        lang = table.lang if table is not None else "es"
        try:
            await board.message.edit(embed=ui.table_embed(table, lang),
                                     view=self.view(board, table, "board"))
        except discord.NotFound:
            # Deleted by someone: stop editing it; «/mus mesa» posts a new one.
            board.message = None
            return
        if table is None:
            # Closed for good: the last edit said so; nothing more will come.
            self.boards.pop(channel_id, None)

    def _board(self, channel_id: int) -> Board:
        board = self.boards.get(channel_id)
        if board is None:
            channel = self.client.get_channel(channel_id)
            if channel is None or not hasattr(channel, "send"):
                raise LookupError(f"no channel {channel_id} to speak in")
            board = self.bind(channel_id, channel)  # type: ignore[arg-type]
        return board

    # --- Transport ----------------------------------------------------------------------------

    def view(self, board: Board, table: Table | None, kind: str) -> discord.ui.View | None:
        """The buttons of ``kind`` for the table's state now: «board» (the table message's),
        «turn» (the moves), or one table verb alone. Every button is a DynamicItem, so discord.py
        keeps nothing of a sent view and the same one can go under any number of messages;
        building one costs more than a move, and a table needs only a few different ones."""
        if table is None:
            return None
        if kind == "board":
            verbs = tuple(ui.board_verbs(table))
            if not verbs:
                return None
        elif kind == "turn":
            verbs = tuple(ui.action_verbs(table))
        else:
            verbs = (kind,)
        key = (kind, table.lang, *verbs)
        view = board.views.get(key)
        if view is None:
            if kind == "board":
                view = ui.board_view(table)
            elif kind == "turn":
                view = ui.action_view(table)
            else:
                view = ui.single_view(table.channel_id, kind, table.lang)
            assert view is not None
            board.views[key] = view
        return view

    async def public(self, channel_id: int, text: str) -> None:
        board = self._board(channel_id)
        table = self.table(channel_id)
        view = self._public_view(board, table, text) if table is not None else None
        chunks = _chunks(text)
        sent: discord.Message | None = None
        for i, chunk in enumerate(chunks):
            extra: dict[str, Any] = {}
            if view is not None and i == len(chunks) - 1:
                extra["view"] = view
            sent = await board.channel.send(chunk, allowed_mentions=NO_MASS_MENTIONS, **extra)
        self._track_turn(board, table, sent if _has_turn_buttons(view) else None)
        self.touch(channel_id)

    def _track_turn(self, board: Board, table: Table | None,
                    turn_message: discord.Message | None) -> None:
        """A new turn message, or the end of the match, makes the previous one stale."""
        match = table.match if table is not None else None
        over = table is None or table.state != "playing" or match is None or match.finished
        if board.turn_message is not None and (turn_message is not None or over):
            board.stale.append(board.turn_message)
            board.turn_message = None
        if turn_message is not None:
            board.turn_message = turn_message

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        if user_id in self.prefers_ephemeral:
            raise DmClosed(user_id)
        table = self.table(channel_id)
        content = self._dm_header(table) + text
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            for chunk in _chunks(content):
                await user.send(chunk)
        except discord.Forbidden as refused:
            if refused.code == DM_CLOSED_CODE:
                self.prefers_ephemeral.add(user_id)
            log.info("DM refused for user %s (code %s)", user_id, refused.code)
            raise DmClosed(user_id) from None

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        route = _REPLY_ROUTE.get()
        if route is not None:
            await route(text)
            return
        board = self._board(channel_id)
        await board.channel.send(f"{self.mention(user_id)} {text}", delete_after=self.reply_seconds,
                                 allowed_mentions=NO_MASS_MENTIONS)

    def wants_view(self, channel_id: int, user_id: int) -> bool:
        """While a «Ver mis cartas» answer is shown (it is kept current), and when a discard
        round begins (the hand is DM'd with its pick buttons, once). Otherwise the button asks
        the table."""
        return (channel_id, user_id) in self._ephemerals or \
            self._unprompted(channel_id, user_id) is not None

    async def update_view(self, channel_id: int, user_id: int, text: str) -> None:
        key = (channel_id, user_id)
        await self._maybe_prompt_discard(channel_id, user_id, text)
        ephemeral = self._ephemerals.get(key)
        if ephemeral is None:
            return
        if self.clock.now() - ephemeral.since > EPHEMERAL_SECONDS:
            del self._ephemerals[key]
            return
        ephemeral.text = text
        if ephemeral.task is None or ephemeral.task.done():
            ephemeral.task = asyncio.get_running_loop().create_task(
                self._refresh_ephemeral(channel_id, user_id, ephemeral))

    def mention(self, user_id: int) -> str:
        return f"<@{user_id}>"

    # --- the private paths --------------------------------------------------------------------

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any]) -> None:
        """A «Ver mis cartas» answer to keep current while its token lives."""
        self._ephemerals[(channel_id, user_id)] = _Ephemeral(interaction, self.clock.now())

    async def _refresh_ephemeral(self, channel_id: int, user_id: int,
                                 ephemeral: _Ephemeral) -> None:
        sent: str | None = None
        try:
            while ephemeral.text is not None and ephemeral.text != sent:
                sent = ephemeral.text
                table = self.table(channel_id)
                controls = ui.discard_view(table, user_id) if table is not None else None
                await ephemeral.interaction.edit_original_response(content=sent, view=controls)
        except asyncio.CancelledError:
            raise
        except Exception:  # expired token or dismissed message: stop refreshing it
            self._ephemerals.pop((channel_id, user_id), None)
            log.debug("ephemeral view refresh stopped for user %s", user_id, exc_info=True)

    async def _maybe_prompt_discard(self, channel_id: int, user_id: int, text: str) -> None:
        """The discard phase began: DM the hand with pick-and-confirm buttons, once a round."""
        unprompted = self._unprompted(channel_id, user_id)
        if unprompted is None:
            return
        table, token = unprompted
        self._prompted[(channel_id, user_id)] = token
        controls = ui.discard_view(table, user_id)
        content = self._dm_header(table) + text + "\n" + dt("discard_prompt", table.lang)
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            extra: dict[str, Any] = {"view": controls} if controls is not None else {}
            await user.send(content[:MESSAGE_LIMIT], **extra)
        except discord.Forbidden as refused:
            if refused.code == DM_CLOSED_CODE:
                self.prefers_ephemeral.add(user_id)
        except Exception:
            log.warning("discard prompt failed for user %s", user_id, exc_info=True)
        finally:
            ui.release(controls)

    def _unprompted(self, channel_id: int, user_id: int
                    ) -> tuple[Table, tuple[int, str]] | None:
        """The table and the round's token, if its hand is in a discard round whose pick buttons
        this seated user (who takes DMs) has not been sent yet. Decided from the hand's
        counters: it is asked for every seat on every move, and a seat's view (or its hand's
        text) would be built for nothing but the same answer."""
        if user_id in self.prefers_ephemeral:
            return None
        table = self.table(channel_id)
        match = table.match if table is not None else None
        if match is None or match.finished or match.hand.phase is not Phase.DESCARTE \
                or table is None or table.seat_of(user_id) is None:
            return None
        token = (id(match), ui.discard_token(match.hand_number, match.hand.mus_rounds))
        if self._prompted.get((channel_id, user_id)) == token:
            return None
        return table, token

    def _dm_header(self, table: Table | None) -> str:
        if table is None:
            return ""
        board = self.boards.get(table.channel_id)
        channel = board.channel if board is not None else None
        guild = getattr(channel, "guild", None)
        name = getattr(channel, "name", None)
        if guild is None or name is None:
            return ""
        return dt("dm_header", table.lang, guild=guild.name, channel=name) + "\n"

    # --- which buttons go under a public message ----------------------------------------------

    def _public_view(self, board: Board, table: Table, text: str) -> discord.ui.View | None:
        """Turn buttons under the message that names who speaks (or reminds them); «Revancha»
        under the match's end; «Volver» under «a bot plays for you»; «Ver mis cartas» under the
        «cannot DM you» notice. Decided from the rendered public lines, never from cards."""
        match = table.match
        lang = table.lang
        if match is None:
            return None
        if match.finished:
            winner = match.winner
            if winner is not None:
                line = render.t("match_won", lang, pair=render.pair_text(
                    winner, table.names(), table.players, lang))
                if line in text:
                    return self.view(board, table, "rematch")
            return None
        seat = match.to_act
        occupant = table.seats[seat] if seat is not None else None
        if occupant is not None and occupant.user_id is not None and not occupant.away:
            turn = render.t("turn", lang, name=occupant.name)
            if turn in text or self.mention(occupant.user_id) in text:
                return self.view(board, table, "turn")
        for person in table.seats:
            if person is not None and person.away and \
                    render.t("away", lang, name=person.name) in text:
                return self.view(board, table, "back")
        if any(self.mention(user) in text for user in self.prefers_ephemeral):
            return self.view(board, table, "cards")
        return None


def _has_turn_buttons(view: discord.ui.View | None) -> bool:
    return view is not None and any(isinstance(i, ui.ActionButton) for i in view.children)


def _chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Discord's 2000-character cap, split at line ends."""
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current:
        chunks.append(current)
    return chunks
