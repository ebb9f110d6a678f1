"""The table layer's :class:`~musbot.table.Transport` on Discord, designed for Discord's budget.

- A table shows one live message per page (a hand, or the lobby): every move of the hand, its
  status and its buttons, edited in place (:class:`Board`), through the :class:`Governor`: at
  most once a second per channel, the bots' moves between two people's turns in one edit. A
  finished hand's message stays in the channel's history with its showdown and score; the next
  hand gets a new one. A page's messages are remembered with the table, so after a restart the
  same messages are edited: every move is shown exactly once.
- A button's move is answered through its interaction (``UPDATE_MESSAGE``, outside the global
  budget), a typed one by the next edit. Refusals go to the person alone: ephemeral for buttons
  and slash commands, a brief reply that deletes itself for typed words (:func:`reply_via`).
- The table message never depends on an interaction token: it is posted with the channel.
- Private text goes by DM through the person's DM channel, opened once and kept, without looking
  the user up; a DM refused with 50007 sends the person to «Ver mis cartas» (ephemeral,
  refreshed while its token lives).

Nothing here logs a message's text: before the showdown it may be someone's cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from musbot.engine import Phase
from musbot.table import Clock, DmClosed, Page, RealClock, Table, TableManager

from . import ui
from .governor import Governor, Limits
from .pages import Face, Rendered, render_page
from .texts import dt

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
"""Discord's «Cannot send messages to this user»."""
MESSAGE_LIMIT = 2000
REPLY_SECONDS = 8.0
"""How long a refusal typed in the channel stays before it deletes itself."""
RECENT_PAGES = 3
HOLD_SECONDS = 15.0
"""While bots play, the page waits for the next person's turn to show their moves in one edit;
in a longer stretch of bots (a person away, a whole hand of bots) it is edited at most this
often."""
EPHEMERAL_SECONDS = 14 * 60.0
"""An interaction token lives 15 minutes: the ephemeral view is refreshed only within that."""
NO_MASS_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
"""Names are people's display names: «@everyone» as a nickname must not ping a server."""

Replier = Callable[[str], Awaitable[Any]]
_REPLY_ROUTE: ContextVar[Replier | None] = ContextVar("musbot_reply_route", default=None)


@contextlib.contextmanager
def reply_via(replier: Replier) -> Iterator[None]:
    """Within this block (one task), :meth:`DiscordTransport.reply` answers through ``replier``:
    an ephemeral follow-up or a DM, instead of the channel."""
    token = _REPLY_ROUTE.set(replier)
    try:
        yield
    finally:
        _REPLY_ROUTE.reset(token)


@dataclass
class Shown:
    """One message showing a page from its line ``first``."""

    message_id: int
    first: int
    end: int = 0
    """The line after its last one."""
    frozen: bool = False
    """Its lines are final: the page goes on in a later message."""
    signature: tuple[Any, ...] | None = None
    """What it shows now; None after a restart (unknown: edit it anyway)."""

    def shows(self, rendered: Rendered) -> None:
        self.end = rendered.end
        self.frozen = rendered.frozen
        self.signature = rendered.signature


@dataclass
class PageView:
    """A page and the messages that show it."""

    page: Page
    messages: list[Shown] = field(default_factory=list)
    posting: bool = False
    """A message for it is queued or on its way."""

    @property
    def last(self) -> Shown | None:
        return self.messages[-1] if self.messages else None

    def next_first(self) -> int:
        """Where a new message for the page starts: after the frozen ones."""
        last = self.last
        return 0 if last is None else last.end

    def refs(self) -> list[tuple[int, int]]:
        return [(shown.message_id, shown.first) for shown in self.messages]


@dataclass
class Board:
    """What the transport keeps per table channel."""

    channel_id: int
    channel: discord.abc.Messageable
    lang: str = "es"
    face: Face | None = None
    """The table's public face at its last change."""
    live: PageView | None = None
    restored: bool = False
    """The table just came back after a restart: its page is shown again at once."""
    recent: dict[int, PageView] = field(default_factory=dict)
    """Finished pages by their last message, a few: a button pressed there is answered with
    the page's final form."""
    unsettled_since: float | None = None
    views: dict[tuple[str, ...], discord.ui.View] = field(default_factory=dict)
    """Button rows, built once each and sent again: every button is a DynamicItem, so
    discord.py keeps nothing of a sent view and one view can go under any number of messages."""


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
                 limits: Limits | None = None, reply_seconds: float = REPLY_SECONDS) -> None:
        self.client = client
        self.clock: Clock = clock or RealClock()
        self.governor = Governor(self.clock, limits)
        self.reply_seconds = reply_seconds
        self.tables: TableManager | None = None
        self.boards: dict[int, Board] = {}
        self.prefers_ephemeral: set[int] = set()
        """Users whose DMs are closed: never DM'd again this process, they use «Ver mis cartas»."""
        self._dm_channels: dict[int, int] = {}
        """Each user's DM channel id, opened once (or learnt from a DM they sent)."""
        self._ephemerals: dict[tuple[int, int], _Ephemeral] = {}
        self._prompted: dict[tuple[int, int], tuple[int, str]] = {}
        """Discard rounds already prompted by DM, per (channel, user): each asks once."""
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- boards -------------------------------------------------------------------------------

    def bind(self, channel_id: int, channel: discord.abc.Messageable) -> Board:
        """Where a table speaks."""
        board = self.boards.get(channel_id)
        if board is None:
            board = self.boards[channel_id] = Board(channel_id, channel)
        board.channel = channel
        return board

    def table(self, channel_id: int) -> Table | None:
        return self.tables.get(channel_id) if self.tables is not None else None

    def restore(self, table: Table) -> None:
        """A restored table, before it resumes: its page and the one before are shown in the
        messages that showed them before the restart (their ends may not have been shown)."""
        board = self.boards.get(table.channel_id)
        if board is None:
            return
        board.lang = table.lang
        board.restored = True
        previous = table.previous
        if previous is not None:
            self._finish(board, PageView(previous, _shown(previous)))
        board.live = PageView(table.page, _shown(table.page))

    def repost(self, channel_id: int) -> None:
        """«/mus mesa» where a table is open: its live message again at the channel's bottom
        (the old one is deleted, so no move is shown twice)."""
        board = self.boards.get(channel_id)
        if board is None or board.live is None or board.live.posting:
            return
        live = board.live
        last = live.last
        if last is not None and not last.frozen:
            live.messages.pop()
            self.governor.forget_edit(channel_id, last.message_id)
            self.governor.delete(channel_id, self.clock.now(), self._remover(board, last))
        self._post_page(board, live)

    def changed(self, table: Table) -> None:
        board = self.boards.get(table.channel_id)
        if board is None:
            channel = self.client.get_channel(table.channel_id)
            if channel is None or not hasattr(channel, "send"):
                return  # not reachable (yet): a restored table is shown once it resumes
            board = self.bind(table.channel_id, channel)  # type: ignore[arg-type]
        face = Face.capture(table)
        board.face = face
        board.lang = table.lang
        now = self.clock.now()
        if table.settled:
            board.unsettled_since = None
        elif board.unsettled_since is None:
            board.unsettled_since = now
        live = board.live
        if live is None or live.page is not face.page:
            if live is not None:
                self._finish(board, live)
            board.live = live = PageView(face.page)
        for finished in board.recent.values():
            if finished.page is table.previous and not finished.posting:
                self._edit_page(board, finished)  # worded again (a name forgotten)?
        if live.posting:
            return  # the post renders the latest face when it goes
        if not live.messages:
            self._post_page(board, live)
            return
        hold = None if board.unsettled_since is None or board.restored else \
            board.unsettled_since + HOLD_SECONDS
        board.restored = False
        self._edit_page(board, live, not_before=hold)
        if table.state == "closed":
            self._drop_when_done(board)

    def _finish(self, board: Board, view: PageView) -> None:
        """A page is over: its messages show all its lines, without buttons."""
        view.page.final = True
        if view.last is not None:
            board.recent[view.last.message_id] = view
            while len(board.recent) > RECENT_PAGES:
                del board.recent[next(iter(board.recent))]
        if view.posting:
            return  # its post renders it final
        if not view.messages:
            self._post_page(board, view)
        else:
            self._edit_page(board, view)

    def _final(self, board: Board, view: PageView) -> bool:
        return view is not board.live or view.page.final

    def _face_of(self, board: Board, view: PageView) -> Face | None:
        face = board.face
        if face is not None and face.page is view.page:
            return face
        if view.page.final:
            return Face.finished(view.page, board.lang)
        return None  # the live page before the table's first change: nothing saved to show

    def _render(self, board: Board, view: PageView, first: int) -> Rendered | None:
        face = self._face_of(board, view)
        if face is None:
            return None
        return render_page(face, first, final=self._final(board, view))

    def _post_page(self, board: Board, view: PageView) -> None:
        view.posting = True
        first = view.next_first()

        async def send() -> discord.Message | None:
            rendered = self._render(board, view, first)
            if rendered is None:
                return None
            buttons = self._view(board, rendered.view_verbs)
            extra: dict[str, Any] = {"view": buttons} if buttons is not None else {}
            message = await board.channel.send(embed=rendered.embed, **extra)
            shown = Shown(message.id, first)
            shown.shows(rendered)
            view.messages.append(shown)
            return message

        done = self.governor.post(board.channel_id, send)
        done.add_done_callback(lambda _: self._posted(board, view))

    def _posted(self, board: Board, view: PageView) -> None:
        view.posting = False
        table = self.table(board.channel_id)
        if table is not None and view.messages:
            self._spawn(table.remember_refs(view.page.number, view.refs()))
        last = view.last
        if last is None:
            return
        if last.frozen:
            self._post_page(board, view)
        else:
            self._edit_page(board, view)

    def _edit_page(self, board: Board, view: PageView, *, not_before: float | None = None
                   ) -> None:
        last = view.last
        if last is None:
            return
        face = self._face_of(board, view)
        if face is not None and last.signature == face.signature(last.first,
                                                                  self._final(board, view)):
            return  # shows that already

        async def apply() -> None:
            if last.frozen or view.last is not last:
                return
            rendered = self._render(board, view, last.first)
            if rendered is None or rendered.signature == last.signature:
                return
            message = board.channel.get_partial_message(last.message_id)  # type: ignore[attr-defined]
            try:
                await message.edit(embed=rendered.embed,
                                   view=self._view(board, rendered.view_verbs))
            except discord.NotFound:
                # Deleted by someone: the page goes on in a new message.
                view.messages.remove(last)
                self._post_page(board, view)
                return
            last.shows(rendered)
            if board.unsettled_since is not None:
                board.unsettled_since = self.clock.now()  # the next hold starts from here
            if rendered.frozen:
                self._post_page(board, view)

        self.governor.edit(board.channel_id, last.message_id, apply, not_before=not_before)

    def _remover(self, board: Board, shown: Shown) -> Callable[[], Awaitable[None]]:
        async def remove() -> None:
            message = board.channel.get_partial_message(shown.message_id)  # type: ignore[attr-defined]
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await message.delete()
        return remove

    def _drop_when_done(self, board: Board) -> None:
        async def drop() -> None:
            while self.governor.busy(board.channel_id):
                await self.clock.sleep(0.5)
            if self.table(board.channel_id) is None:
                self.boards.pop(board.channel_id, None)
        self._spawn(drop())

    def _view(self, board: Board, verbs: tuple[str, ...]) -> discord.ui.View | None:
        if not verbs or board.face is None:
            return None
        key = (board.face.lang, *verbs)
        view = board.views.get(key)
        if view is None:
            view = board.views[key] = ui.page_view(board.channel_id, verbs, board.face.lang)
        return view

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A button pressed on a table's message did its work: the page the presser sees is
        brought up to date by the interaction's own answer (``UPDATE_MESSAGE``, outside the
        global budget), so the channel's edit for it is saved: the live page as it is now, or
        a page the move just finished in its final form. Elsewhere only acknowledged."""
        if interaction.response.is_done():
            return
        board = self.boards.get(table.channel_id)
        message = interaction.message
        view = None
        if board is not None and message is not None:
            live = board.live
            if live is not None and live.last is not None and \
                    live.last.message_id == message.id and not live.posting:
                view = live
            else:
                view = board.recent.get(message.id)
        last = view.last if view is not None else None
        if board is None or view is None or last is None or last.frozen:
            await interaction.response.defer()
            return
        rendered = self._render(board, view, last.first)
        if rendered is None or rendered.frozen:
            await interaction.response.defer()
            return
        self.governor.forget_edit(board.channel_id, last.message_id)
        try:
            await interaction.response.edit_message(embed=rendered.embed,
                                                    view=self._view(board, rendered.view_verbs))
        except discord.HTTPException:
            self._edit_page(board, view)  # the answer did not make it: the channel's edit does
            raise
        last.shows(rendered)

    async def flush(self) -> None:
        """Waits until every pending call is made (shutdown, tests, the benchmark)."""
        await self.governor.flush()

    def cancel_edits(self) -> None:
        """Shutdown: pending calls are dropped (the restart shows every table again)."""
        self.governor.cancel()
        for task in list(self._tasks):
            task.cancel()

    # --- Transport ----------------------------------------------------------------------------

    async def alert(self, channel_id: int, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        board = self.boards.get(channel_id)
        if board is None:
            return
        table = self.table(channel_id)
        lang = table.lang if table is not None else "es"
        view = ui.single_view(channel_id, offer, lang) if offer is not None else None

        async def send() -> discord.Message:
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            return await board.channel.send(text[:MESSAGE_LIMIT],
                                            allowed_mentions=NO_MASS_MENTIONS, **extra)

        self.governor.post(channel_id, send)

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        if user_id in self.prefers_ephemeral:
            raise DmClosed(user_id)
        content = self._dm_header(self.table(channel_id)) + text
        for chunk in _chunks(content):
            self._dm(channel_id, user_id, chunk)

    def _dm(self, channel_id: int | None, user_id: int, content: str,
            view: discord.ui.View | None = None) -> None:
        async def send() -> discord.Message | None:
            if user_id in self.prefers_ephemeral:
                return None
            channel = await self._dm_channel(user_id)
            try:
                extra: dict[str, Any] = {"view": view} if view is not None else {}
                return await channel.send(content, **extra)
            except discord.Forbidden as refused:
                log.info("DM refused for user %s (code %s)", user_id, refused.code)
                if refused.code == DM_CLOSED_CODE:
                    self.prefers_ephemeral.add(user_id)
                    table = self.table(channel_id) if channel_id is not None else None
                    if table is not None:
                        self._spawn(table.private_refused(user_id))
                return None
            finally:
                ui.release(view)

        self.governor.post(("dm", user_id), send)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel, without a ``GET /users/{id}``: opened once
        (``POST /users/@me/channels``) and kept."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.client.get_partial_messageable(known, type=discord.ChannelType.private)
        self.governor.spend()
        channel = await self.client.create_dm(discord.Object(id=user_id))
        self._dm_channels[user_id] = channel.id
        return channel

    async def direct(self, user_id: int, text: str, *,
                     view: discord.ui.View | None = None) -> None:
        """A DM that is not about one table's hand (an answer to a DM): same lane, same
        budget as the rest of the person's DMs."""
        for chunk in _chunks(text):
            self._dm(None, user_id, chunk, view)
            view = None

    def learn_dm(self, user_id: int, channel_id: int) -> None:
        """A DM from the user tells their DM channel: no call needed to open it."""
        self._dm_channels[user_id] = channel_id

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        route = _REPLY_ROUTE.get()
        if route is not None:
            await route(text)
            return
        await self.say_briefly(channel_id, f"{self.mention(user_id)} {text}")

    async def say_briefly(self, channel_id: int, text: str, *,
                          reference: discord.Message | None = None) -> None:
        """A short message in the channel that deletes itself, within the channel's budget."""
        board = self.boards.get(channel_id)
        channel = board.channel if board is not None else self.client.get_channel(channel_id)
        if channel is None or not hasattr(channel, "send"):
            return
        messageable: Any = channel

        async def send() -> discord.Message:
            extra: dict[str, Any] = {}
            if reference is not None:
                extra["reference"] = reference.to_reference(fail_if_not_exists=False)
                extra["mention_author"] = False
            message = await messageable.send(text[:MESSAGE_LIMIT],
                                             allowed_mentions=NO_MASS_MENTIONS, **extra)

            async def remove() -> None:
                with contextlib.suppress(discord.NotFound, discord.Forbidden):
                    await message.delete()

            self.governor.delete(channel_id, self.clock.now() + self.reply_seconds, remove)
            return message

        self.governor.post(channel_id, send)

    def wants_view(self, channel_id: int, user_id: int) -> bool:
        """While a «Ver mis cartas» answer is shown (it is kept current), and when a discard
        round begins (the hand is DM'd with its pick buttons, once). Otherwise the button asks
        the table."""
        return (channel_id, user_id) in self._ephemerals or \
            self._unprompted(channel_id, user_id) is not None

    async def update_view(self, channel_id: int, user_id: int, text: str) -> None:
        key = (channel_id, user_id)
        self._maybe_prompt_discard(channel_id, user_id, text)
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
                if self.clock.now() - ephemeral.since > EPHEMERAL_SECONDS:
                    break
                sent = ephemeral.text
                table = self.table(channel_id)
                controls = ui.discard_view(table, user_id) if table is not None else None
                await ephemeral.interaction.edit_original_response(content=sent, view=controls)
        except asyncio.CancelledError:
            raise
        except Exception:  # expired token or dismissed message: stop refreshing it
            log.debug("ephemeral view refresh stopped for user %s", user_id, exc_info=True)
            self._ephemerals.pop((channel_id, user_id), None)

    def _maybe_prompt_discard(self, channel_id: int, user_id: int, text: str) -> None:
        """The discard phase began: DM the hand with pick-and-confirm buttons, once a round."""
        unprompted = self._unprompted(channel_id, user_id)
        if unprompted is None:
            return
        table, token = unprompted
        self._prompted[(channel_id, user_id)] = token
        controls = ui.discard_view(table, user_id)
        content = self._dm_header(table) + text + "\n" + dt("discard_prompt", table.lang)
        self._dm(channel_id, user_id, content[:MESSAGE_LIMIT], controls)

    def _unprompted(self, channel_id: int, user_id: int
                    ) -> tuple[Table, tuple[int, str]] | None:
        """The table and the round's token, if its hand is in a discard round whose pick buttons
        this seated user (who takes DMs) has not been sent yet. Decided from the hand's
        counters: it is asked for every seat on every move."""
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

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.get_running_loop().create_task(_quietly(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _quietly(work: Awaitable[Any]) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.warning("table bookkeeping after a Discord call failed", exc_info=True)


def _shown(page: Page) -> list[Shown]:
    """A restored page's messages: all but the last frozen (their lines were final)."""
    shown = [Shown(message_id, first) for message_id, first in page.refs]
    for before, after in itertools.pairwise(shown):
        before.end, before.frozen = after.first, True
    return shown


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
