"""The table layer's :class:`~musbot.table.Transport` on Discord, designed for Discord's budget.

- A table shows one live message per page (a hand, or the lobby), kept current within the
  channel's limits (``boards.py``); every call goes through the :class:`Governor`.
- A button's move is answered through its interaction (``UPDATE_MESSAGE``, outside the global
  budget), a typed one by the next edit. Refusals go to the person alone, worded by the one error
  path (``failures.py``): ephemeral for buttons and slash commands, a brief reply that deletes
  itself for typed words.
- The table message never depends on an interaction token: it is posted with the channel.
- Everything the table says is plain text, shown escaped (``markup.plain``): names are never
  markup nor mentions, and each message notifies at most the one person it addresses.
- Answers to one person in the channel have a budget (:data:`ANSWER_SECONDS`): someone typing
  a hundred moves out of turn in two seconds gets one answer, and the table's own messages go
  first.
- Private text goes by DM through the person's DM channel, opened once and kept, without looking
  the user up; a DM refused with 50007 sends the person to «Ver mis cartas» (ephemeral,
  refreshed while its token lives).

Nothing here logs a message's text: before the showdown it may be someone's cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from musbot.pictures.hand import hand_png
from musbot.table import Clock, DmClosed, RealClock, Table
from musbot.table.render import cards_text

from . import ui
from .access import Access
from .boards import Board, Boards, PicturesBusy
from .callbacks import release
from .discard import DiscardButtons, discard_buttons, discard_view, emojis_of
from .governor import Governor, Limits, Waited
from .markup import NO_MENTIONS, mentioning, plain, plain_with
from .texts import dt

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
"""Discord's «Cannot send messages to this user»."""
MESSAGE_LIMIT = 2000
REPLY_SECONDS = 8.0
"""How long a refusal typed in the channel stays before it deletes itself."""
EPHEMERAL_SECONDS = 14 * 60.0
"""An interaction token lives 15 minutes: the ephemeral view is refreshed only within that."""
ANSWERED_KEPT = 10_000
"""People answered lately, kept before the old ones are swept."""
ANSWER_SECONDS = 5.0
PICTURES_IN_FLIGHT = 32
"""Pictures waiting to be drawn past which a message goes without its picture: the worker
draws a hand in about 3 ms and a showdown in about 15, so this is half a second of drawing; a
busier bot (a thousand tables) would otherwise queue them without end."""

"""At most one answer in the channel to one person per this long; the rest of what they type
meanwhile is not answered (the last answer is still shown: :data:`REPLY_SECONDS`)."""

@dataclass
class _Ephemeral:
    interaction: discord.Interaction[Any]
    since: float
    text: str | None = None
    """What it shows."""
    stale: bool = False
    """The table changed since it was rendered."""
    task: asyncio.Task[None] | None = None


Draw = Callable[..., Awaitable[bytes]]
"""Draws a picture, ``draw(function, *arguments)``, somewhere: a thread by default, the
running bot's worker process (``musbot.pictures.worker``), or inline."""


async def _in_thread(work: Callable[..., bytes], *args: Any) -> bytes:
    return await asyncio.to_thread(work, *args)


async def draw_inline(work: Callable[..., bytes], *args: Any) -> bytes:
    """Draws on the event loop itself: for runs that must be the same every time."""
    return work(*args)


@dataclass
class _Called:
    """A turn's call by DM: its message once sent; ``over``, the turn played."""

    message_id: int | None = None
    over: bool = False


@dataclass
class _Prompt:
    """A discard prompt by DM: the hand it is for, and its message once sent."""

    hand: int
    message_id: int | None = None


class DiscordTransport:
    """A :class:`~musbot.table.Transport` over a discord.py client."""

    def __init__(self, client: discord.Client, *, clock: Clock | None = None,
                 limits: Limits | None = None, reply_seconds: float = REPLY_SECONDS,
                 waited: Waited | None = None, draw: Draw | None = None) -> None:
        """``waited``: told each governed call's wait (:class:`Governor`), for the metrics."""
        self.client = client
        self.clock: Clock = clock or RealClock()
        self.governor = Governor(self.clock, limits, waited=waited)
        self.reply_seconds = reply_seconds
        self._drawing = 0
        self.pictures_drawn = 0
        self.pictures_skipped = 0
        """Messages sent without their picture because too many were waiting to be drawn."""
        self.draw: Draw = draw or _in_thread
        """How pictures are drawn: in a thread; inline where a run must be the same every
        time (``musbot bench discord``, whose clock stands still while a thread draws)."""
        self.calls: dict[int, str] = {}
        """How each person asked to be told their turn (``/mus avisos``), as far as known."""
        self._called: dict[tuple[int, int], _Called] = {}
        self.pages = Boards(client, self.governor, self.clock, self.spawn, calls=self.calls,
                            call_by_dm=self._call_by_dm, draw=self._drawn)
        self.access = Access(self)
        """The channels whose permissions a table lost (``access.py``)."""
        self.guard = self.access.guard
        """Installed on the client's HTTP side at start-up (``MusBot.setup_hook``)."""
        self.prefers_ephemeral: set[int] = set()
        """Users whose DMs are closed: never DM'd again this process, they use «Ver mis cartas»."""
        self._dm_channels: dict[int, int] = {}
        """Each user's DM channel id, opened once (or learnt from a DM they sent)."""
        self._ephemerals: dict[tuple[int, int], _Ephemeral] = {}
        self._prompts: dict[tuple[int, int], _Prompt] = {}
        """(table channel, user) → their discard prompt by DM while it stands: the hand dealt
        after the discard becomes that message (its buttons gone), rather than one more DM."""
        self._dm_table: dict[int, int] = {}
        """Each user's last DM's table: the header naming a table is only said when it
        changes."""
        self._answered: dict[tuple[int, int], float] = {}
        """When each person was last answered in each channel (:meth:`_may_answer`)."""
        self._tasks: dict[asyncio.Task[Any], Coroutine[Any, Any, Any]] = {}
        """Bookkeeping under way, with its work: a task cancelled before it starts leaves its
        work unstarted, to be closed."""

    # --- boards -------------------------------------------------------------------------------

    def bind(self, channel_id: int, channel: discord.abc.Messageable) -> Board:
        """Where a table speaks."""
        return self.pages.bind(channel_id, channel)

    @property
    def boards(self) -> dict[int, Board]:
        return self.pages.boards

    def restore(self, table: Table) -> None:
        """A restored table, before it resumes: see :meth:`Boards.restore`."""
        self.pages.restore(table)

    def repost(self, channel_id: int) -> None:
        """«/mus mesa» where a table is open: see :meth:`Boards.repost`."""
        self.pages.repost(channel_id)

    def changed(self, table: Table) -> None:
        self.pages.changed(table)

    def seen(self, channel_id: int, message_id: int, author_id: int | None = None) -> None:
        """A message in a channel (anyone's, the bot's own too): the table there stays in view,
        and its author, heard, is watching it."""
        if author_id is not None:
            self.pages.heard(channel_id, author_id)
        self.pages.seen(channel_id, message_id)

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A button pressed on a table's message: see :meth:`Boards.acknowledge`."""
        await self.pages.acknowledge(interaction, table)

    async def flush(self) -> None:
        """Waits until every pending call is made (shutdown, tests, the benchmark)."""
        await self.governor.flush()

    async def cancel_edits(self) -> None:
        """Shutdown: pending calls are dropped (the restart shows every table again), and the
        bookkeeping started after earlier calls is cancelled and waited for, so none is left
        unstarted when the loop closes."""
        self.governor.cancel()
        tasks = dict(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for work in tasks.values():
            work.close()

    # --- Transport ----------------------------------------------------------------------------

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        channel_id = table.channel_id
        board = self.boards.get(channel_id)
        if board is None:
            return
        view = ui.single_view(offer, table.lang) if offer is not None else None

        content = plain_with(text, self.mention(user_id))[:MESSAGE_LIMIT]
        if offer is None and self.pages.remind(channel_id, user_id, content):
            return  # the live message calls them, and goes with their turn

        async def send() -> discord.Message:
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            return await board.channel.send(content, allowed_mentions=mentioning(user_id),
                                            **extra)

        self.governor.post(channel_id, send)

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        if user_id in self.prefers_ephemeral:
            raise DmClosed(user_id)
        prompt = self._prompts.pop((table.channel_id, user_id), None) if cards else None
        match = table.match
        if prompt is not None and match is not None and prompt.hand == match.hand_number \
                and prompt.message_id is not None:  # the new cards, where it asked
            self._edit_prompt(user_id, prompt, plain(text), _hand_picture(table, user_id))
            return
        if prompt is not None:
            self._edit_prompt(user_id, prompt, None)  # stale: its buttons go
        content = self._dm_header(table, user_id) + plain(text)
        picture = _hand_picture(table, user_id) if cards else None
        for chunk in _chunks(content):
            self._dm(table, user_id, chunk, picture=picture)
            picture = None

    def _edit_prompt(self, user_id: int, prompt: _Prompt, text: str | None,
                     picture: HandPicture | None = None) -> None:
        """A discard prompt's DM without its buttons, showing ``text`` (None: as it was) and
        ``picture`` (the hand it dealt)."""
        message_id = prompt.message_id
        if message_id is None:
            return

        async def apply() -> None:
            channel: Any = await self._dm_channel(user_id)
            extra: dict[str, Any] = {} if text is None else {"content": text[:MESSAGE_LIMIT]}
            if picture is not None:
                with contextlib.suppress(PicturesBusy):
                    png = await self._draw(picture)
                    extra["attachments"] = [discord.File(io.BytesIO(png), filename="mano.png",
                                                         description=picture.alt)]
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await channel.get_partial_message(message_id).edit(view=None, **extra)

        self.governor.edit(("dm", user_id), message_id, apply)

    def _dm(self, table: Table | None, user_id: int, content: str,
            view: discord.ui.View | None = None, *,
            buttons: DiscardButtons | None = None, prompt: _Prompt | None = None,
            picture: HandPicture | None = None) -> None:
        """``buttons``: a discard prompt's, made into ``view`` as the DM goes (a queued DM keeps
        their data); ``prompt`` learns the message that shows them; ``picture``: the hand drawn,
        attached (drawn as the DM goes, off the event loop)."""
        async def send() -> discord.Message | None:
            if user_id in self.prefers_ephemeral:
                return None
            channel = await self._dm_channel(user_id)
            shown = buttons.view() if buttons is not None else view
            try:
                extra: dict[str, Any] = {"view": shown} if shown is not None else {}
                if picture is not None:
                    with contextlib.suppress(PicturesBusy):
                        png = await self._draw(picture)
                        extra["file"] = discord.File(io.BytesIO(png), filename="mano.png",
                                                     description=picture.alt)
                message = await channel.send(content, allowed_mentions=NO_MENTIONS, **extra)
                if prompt is not None:
                    prompt.message_id = message.id
                return message
            except discord.Forbidden as refused:
                log.info("DM refused for user %s (code %s)", user_id, refused.code)
                if refused.code == DM_CLOSED_CODE:
                    self.prefers_ephemeral.add(user_id)
                    if table is not None:
                        self.spawn(table.private_refused(user_id))
                return None
            finally:
                release(shown)

        self.governor.post(("dm", user_id), send)

    async def _drawn(self, work: Callable[..., bytes], *args: Any) -> bytes:
        """:attr:`draw` as it is set now (the running bot sets its worker after start).
        Past :data:`PICTURES_IN_FLIGHT` pictures waiting, :class:`PicturesBusy`: the message
        goes without its picture (its text says the same) rather than wait behind a queue that
        grows with every table."""
        if self.drawing > PICTURES_IN_FLIGHT:
            self.pictures_skipped += 1
            raise PicturesBusy
        png = await self.draw(work, *args)
        self.pictures_drawn += 1
        return png

    async def _draw(self, picture: HandPicture) -> bytes:
        """A hand's picture, drawn off the event loop (a few milliseconds)."""
        self._drawing += 1
        try:
            return await self._drawn(picture.png)  # a bound method of plain values
        finally:
            self._drawing -= 1

    @property
    def drawing(self) -> int:
        """Pictures being drawn now, for DMs and for tables' messages."""
        return self._drawing + self.pages.drawing

    def _call_by_dm(self, channel_id: int, user_id: int, on: bool) -> None:
        """«It is your turn» by DM (``on``), or that DM deleted (the turn played)."""
        key = (channel_id, user_id)
        if not on:
            called = self._called.pop(key, None)
            if called is None:
                return
            called.over = True
            if called.message_id is not None:
                self._delete_dm(user_id, called.message_id)
            return
        board = self.boards.get(channel_id)
        channel = board.channel if board is not None else None
        lang = self.pages.lang_of(channel_id, user_id)
        text = dt("turn_call_dm", lang, channel=plain(str(getattr(channel, "name", "?"))),
                  guild=plain(str(getattr(getattr(channel, "guild", None), "name", "?"))))
        called = self._called[key] = _Called()

        async def send() -> None:
            if user_id in self.prefers_ephemeral or called.over:
                return
            dm = await self._dm_channel(user_id)
            with contextlib.suppress(discord.Forbidden):
                message = await dm.send(text, allowed_mentions=NO_MENTIONS)
                called.message_id = message.id
                if called.over:  # played meanwhile
                    self._delete_dm(user_id, message.id)

        self.governor.post(("dm", user_id), send)

    def _delete_dm(self, user_id: int, message_id: int) -> None:
        async def remove() -> None:
            dm: Any = await self._dm_channel(user_id)
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await dm.get_partial_message(message_id).delete()

        self.governor.delete(("dm", user_id), self.clock.now(), remove)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel, without a ``GET /users/{id}``: opened once
        (``POST /users/@me/channels``) and kept."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.client.get_partial_messageable(known, type=discord.ChannelType.private)
        await self.governor.spend_in_turn()
        channel = await self.client.create_dm(discord.Object(id=user_id))
        self._dm_channels[user_id] = channel.id
        return channel

    async def direct(self, user_id: int, text: str, *,
                     view: discord.ui.View | None = None) -> None:
        """A DM that is not about one table's hand (an answer to a DM): same lane, same
        budget as the rest of the person's DMs. ``text`` is plain text."""
        for chunk in _chunks(plain(text)):
            self._dm(None, user_id, chunk, view)
            view = None

    def edit_direct(self, user_id: int, message_id: int, view: discord.ui.View | None) -> None:
        """New buttons on one of the user's DMs, edited through the REST API: for a press that
        another process acknowledged (a sharded bot's shard 0, ``relay.py``)."""
        async def apply() -> None:
            channel: Any = await self._dm_channel(user_id)
            try:
                await channel.get_partial_message(message_id).edit(view=view)
            finally:
                release(view)

        self.governor.edit(("dm", user_id), message_id, apply)

    def learn_dm(self, user_id: int, channel_id: int) -> None:
        """A DM from the user tells their DM channel: no call needed to open it."""
        self._dm_channels[user_id] = channel_id

    async def say_briefly(self, channel_id: int, text: str, *,
                          reference: discord.Message | None = None, author: int | None = None,
                          mention: bool = False) -> None:
        """A short answer in the channel that deletes itself, within the channel's budget and
        after the table's own messages. ``text`` is plain text. ``author``: the person it
        answers, who gets one answer per :data:`ANSWER_SECONDS` at most (more is dropped);
        ``mention``: ``text`` addresses them with :meth:`mention`, which is kept and notifies
        them and nobody else."""
        board = self.boards.get(channel_id)
        channel = board.channel if board is not None else self.client.get_channel(channel_id)
        if channel is None or not hasattr(channel, "send"):
            return
        if author is not None and not self._may_answer(channel_id, author):
            return
        messageable: Any = channel
        if mention and author is not None:
            content = plain_with(text, self.mention(author))
            allowed = mentioning(author)
        else:
            content, allowed = plain(text), NO_MENTIONS

        async def send() -> discord.Message:
            extra: dict[str, Any] = {}
            if reference is not None:
                extra["reference"] = reference.to_reference(fail_if_not_exists=False)
                extra["mention_author"] = False
            message = await messageable.send(content[:MESSAGE_LIMIT], allowed_mentions=allowed,
                                             **extra)

            async def remove() -> None:
                with contextlib.suppress(discord.NotFound, discord.Forbidden):
                    await message.delete()

            self.governor.delete(channel_id, self.clock.now() + self.reply_seconds, remove)
            return message

        self.governor.post(channel_id, send, reply=True)

    def _may_answer(self, channel_id: int, user_id: int) -> bool:
        """One answer per person per :data:`ANSWER_SECONDS` in a channel."""
        now = self.clock.now()
        key = (channel_id, user_id)
        last = self._answered.get(key)
        if last is not None and now - last < ANSWER_SECONDS:
            return False
        if len(self._answered) > ANSWERED_KEPT:
            self._answered = {k: t for k, t in self._answered.items()
                              if now - t < ANSWER_SECONDS}
        self._answered[key] = now
        return True

    def private_changed(self, table: Table, user_id: int) -> None:
        """A «Ver mis cartas» answer on display (its token alive) is refreshed; nothing is
        rendered otherwise."""
        key = (table.channel_id, user_id)
        ephemeral = self._ephemerals.get(key)
        if ephemeral is None:
            return
        if self.clock.now() - ephemeral.since > EPHEMERAL_SECONDS:
            del self._ephemerals[key]
            return
        ephemeral.stale = True
        if ephemeral.task is None or ephemeral.task.done():
            ephemeral.task = asyncio.get_running_loop().create_task(
                self._refresh_ephemeral(table, user_id, ephemeral))

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        """Pick-and-confirm buttons for the hand, by DM (a person without DMs discards under
        «Ver mis cartas»); the hand's own DM, just above, shows the cards."""
        if user_id in self.prefers_ephemeral:
            return
        buttons = discard_buttons(table, user_id, emojis=emojis_of(self.client))
        # The hand is in the DM just above (dealt, or new after the last discard): the prompt
        # says what to do, its buttons name the cards; one DM per event, nothing twice.
        content = self._dm_header(table, user_id) + dt("discard_prompt",
                                                       table.lang_for(user_id))
        old = self._prompts.pop((table.channel_id, user_id), None)
        if old is not None:
            self._edit_prompt(user_id, old, None)  # an earlier round's: its buttons go
        match = table.match
        prompt = _Prompt(match.hand_number if match is not None else 0)
        self._prompts[(table.channel_id, user_id)] = prompt
        self._dm(table, user_id, content[:MESSAGE_LIMIT], buttons=buttons, prompt=prompt)

    def mention(self, user_id: int) -> str:
        return f"<@{user_id}>"

    # --- the private paths --------------------------------------------------------------------

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any], text: str) -> None:
        """A «Ver mis cartas» answer (showing ``text``) to keep current while its token lives."""
        self._ephemerals[(channel_id, user_id)] = _Ephemeral(interaction, self.clock.now(),
                                                             text)

    async def _refresh_ephemeral(self, table: Table, user_id: int,
                                 ephemeral: _Ephemeral) -> None:
        try:
            while ephemeral.stale:
                if self.clock.now() - ephemeral.since > EPHEMERAL_SECONDS:
                    break
                ephemeral.stale = False
                text = plain(table.private_text(user_id))
                if text == ephemeral.text:
                    continue
                ephemeral.text = text
                controls = discard_view(table, user_id, emojis=emojis_of(self.client))
                await ephemeral.interaction.edit_original_response(content=text, view=controls)
        except asyncio.CancelledError:
            raise
        except Exception:  # expired token, dismissed message, the seat gone: stop refreshing
            log.debug("ephemeral view refresh stopped for user %s", user_id, exc_info=True)
            self._ephemerals.pop((table.channel_id, user_id), None)

    def _dm_header(self, table: Table | None, user_id: int) -> str:
        """«Mesa de #mus en Txoko», in the reader's language, atop a DM about a table other
        than the last one's (the DMs before said it)."""
        if table is None or self._dm_table.get(user_id) == table.channel_id:
            return ""
        self._dm_table[user_id] = table.channel_id
        board = self.boards.get(table.channel_id)
        channel = board.channel if board is not None else None
        guild = getattr(channel, "guild", None)
        name = getattr(channel, "name", None)
        if guild is None or name is None:
            return ""
        return dt("dm_header", table.lang_for(user_id), guild=plain(guild.name),
                  channel=plain(name)) + "\n"

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` (the table's bookkeeping after a call) without holding anyone up;
        its failure is logged."""
        if self.governor.stopped:  # shutting down: the table is saved as it is
            work.close()
            return
        task = asyncio.get_running_loop().create_task(_quietly(work))
        self._tasks[task] = work
        task.add_done_callback(self._forget_task)

    def _forget_task(self, task: asyncio.Task[Any]) -> None:
        self._tasks.pop(task, None)


async def _quietly(work: Awaitable[Any]) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.warning("table bookkeeping after a Discord call failed", exc_info=True)


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A person's hand to draw for their DM (``musbot.pictures.hand``): their cards in the
    order the table numbers them for a discard, the newest marked."""

    cards: tuple[int, ...]
    new: frozenset[int]
    reyes: int
    lang: str
    alt: str

    def png(self) -> bytes:
        return hand_png(self.cards, new=self.new, reyes=self.reyes, lang=self.lang)


def _hand_picture(table: Table, user_id: int) -> HandPicture | None:
    """The person's hand as it is now (their own seat's view only)."""
    seat = table.seat_of(user_id)
    match = table.match
    if seat is None or match is None or match.finished:
        return None
    view = match.view(seat)
    fresh = view.discards[-1][seat] if view.discards else 0
    new = frozenset(view.cards[len(view.cards) - fresh:]) if fresh else frozenset()
    lang = table.lang_for(user_id)
    return HandPicture(tuple(view.cards), new, view.rules.reyes, lang,
                       dt("hand_picture_alt", lang, cards=cards_text(view.cards)))


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
