"""What the bot says to one person, within Discord's budget: DMs (a hand, a discard prompt, a
turn's call, an answer), the brief replies in a channel that delete themselves, and the «Ver mis
cartas» answers kept current. Every call goes through the :class:`~.governor.Governor`, each
person's DMs in their own lane.

- Private text goes by DM through the person's DM channel, opened once and kept, without looking
  the user up; a DM refused with 50007 sends the person to «Ver mis cartas» (ephemeral,
  refreshed while its token lives).
- Answers to one person in the channel have a budget (:data:`ANSWER_SECONDS`): someone typing
  a hundred moves out of turn in two seconds gets one answer, and the table's own messages go
  first.
- Everything is plain text, shown escaped (``markup.plain``), and notifies at most the one
  person it addresses.

The messenger knows no board: where a table speaks (its channel) is given with each call that
needs it. Nothing here logs a message's text: before the showdown it may be someone's cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from musbot.i18n import DISCORD
from musbot.pictures.hand import hand_png
from musbot.table import Clock, DmClosed, Table
from musbot.table.render import cards_text

from .bookkeeping import Bookkeeping
from .callbacks import release
from .discard import DiscardButtons, discard_buttons, discard_view, emojis_of
from .drawing import Painter, PicturesBusy
from .governor import Governor
from .markup import NO_MENTIONS, mentioning, plain, plain_with
from .texts import MESSAGE_LIMIT

log = logging.getLogger(__name__)

DM_CLOSED_CODE = 50007
"""Discord's «Cannot send messages to this user»."""
REPLY_SECONDS = 8.0
"""How long a refusal typed in the channel stays before it deletes itself."""
EPHEMERAL_SECONDS = 14 * 60.0
"""An interaction token lives 15 minutes: the ephemeral view is refreshed only within that."""
ANSWERED_KEPT = 10_000
"""People answered lately, kept before the old ones are swept."""
ANSWER_SECONDS = 5.0
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


class Messenger:
    """One person at a time: DMs, brief replies and «Ver mis cartas», over a discord.py
    client, through ``governor``; ``bookkeeping`` runs what a refused DM tells the table, and
    ``painter`` draws the hands DMs show."""

    def __init__(self, client: discord.Client, governor: Governor, clock: Clock,
                 bookkeeping: Bookkeeping, painter: Painter, *,
                 reply_seconds: float = REPLY_SECONDS) -> None:
        self.client = client
        self.governor = governor
        self.clock = clock
        self.bookkeeping = bookkeeping
        self.painter = painter
        self.reply_seconds = reply_seconds
        self.prefers_ephemeral: set[int] = set()
        """Users whose DMs are closed: never DM'd again this process, they use «Ver mis cartas»."""
        self._called: dict[tuple[int, int], _Called] = {}
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

    def mention(self, user_id: int) -> str:
        return f"<@{user_id}>"

    # --- a table's private text ---------------------------------------------------------------

    async def private(self, table: Table, user_id: int, text: str, *, cards: bool = False,
                      where: Any = None) -> None:
        """``where``: the table's channel, named atop the DM when the last DM was of another
        table."""
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
        content = self._dm_header(table, user_id, where) + plain(text)
        picture = _hand_picture(table, user_id) if cards else None
        for chunk in chunks(content):
            self._dm(table, user_id, chunk, picture=picture)
            picture = None

    async def discard_round(self, table: Table, user_id: int, text: str, *,
                            where: Any = None) -> None:
        """Pick-and-confirm buttons for the hand, by DM (a person without DMs discards under
        «Ver mis cartas»); the hand's own DM, just above, shows the cards."""
        if user_id in self.prefers_ephemeral:
            return
        buttons = discard_buttons(table, user_id, emojis=emojis_of(self.client))
        # The hand is in the DM just above (dealt, or new after the last discard): the prompt
        # says what to do, its buttons name the cards; one DM per event, nothing twice.
        content = self._dm_header(table, user_id, where) + DISCORD("discard_prompt",
                                                                   table.lang_for(user_id))
        old = self._prompts.pop((table.channel_id, user_id), None)
        if old is not None:
            self._edit_prompt(user_id, old, None)  # an earlier round's: its buttons go
        match = table.match
        prompt = _Prompt(match.hand_number if match is not None else 0)
        self._prompts[(table.channel_id, user_id)] = prompt
        self._dm(table, user_id, content[:MESSAGE_LIMIT], buttons=buttons, prompt=prompt)

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
            drawn = await self._hand_file(picture)
            if drawn is not None:
                extra["attachments"] = [drawn]
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await channel.get_partial_message(message_id).edit(view=None, **extra)

        self.governor.edit(("dm", user_id), message_id, apply)

    async def _hand_file(self, picture: HandPicture | None) -> discord.File | None:
        """The hand drawn as a DM's file; None without one, or with too many pictures under
        way (the DM's text says the cards)."""
        if picture is None:
            return None
        try:
            png = await self.painter(picture.png)  # a bound method of plain values
        except PicturesBusy:
            return None
        return discord.File(io.BytesIO(png), filename="mano.png", description=picture.alt)

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
                drawn = await self._hand_file(picture)
                if drawn is not None:
                    extra["file"] = drawn
                message = await channel.send(content, allowed_mentions=NO_MENTIONS, **extra)
                if prompt is not None:
                    prompt.message_id = message.id
                return message
            except discord.Forbidden as refused:
                log.info("DM refused for user %s (code %s)", user_id, refused.code)
                if refused.code == DM_CLOSED_CODE:
                    self.prefers_ephemeral.add(user_id)
                    if table is not None:
                        self.bookkeeping.spawn(table.private_refused(user_id))
                return None
            finally:
                release(shown)

        self.governor.post(("dm", user_id), send)

    def _dm_header(self, table: Table | None, user_id: int, where: Any) -> str:
        """«Mesa de #mus en Txoko», in the reader's language, atop a DM about a table other
        than the last one's (the DMs before said it)."""
        if table is None or self._dm_table.get(user_id) == table.channel_id:
            return ""
        self._dm_table[user_id] = table.channel_id
        guild = getattr(where, "guild", None)
        name = getattr(where, "name", None)
        if guild is None or name is None:
            return ""
        return DISCORD("dm_header", table.lang_for(user_id), guild=plain(guild.name),
                       channel=plain(name)) + "\n"

    # --- a turn's call by DM ------------------------------------------------------------------

    def call_by_dm(self, channel_id: int, user_id: int, where: Any, lang: str) -> None:
        """«It is your turn» by DM, at the table in channel ``where``, in ``lang``."""
        text = DISCORD("turn_call_dm", lang, channel=plain(str(getattr(where, "name", "?"))),
                       guild=plain(str(getattr(getattr(where, "guild", None), "name", "?"))))
        called = self._called[(channel_id, user_id)] = _Called()

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

    def call_played(self, channel_id: int, user_id: int) -> None:
        """The turn called by DM is played: that DM is deleted."""
        called = self._called.pop((channel_id, user_id), None)
        if called is None:
            return
        called.over = True
        if called.message_id is not None:
            self._delete_dm(user_id, called.message_id)

    def _delete_dm(self, user_id: int, message_id: int) -> None:
        async def remove() -> None:
            dm: Any = await self._dm_channel(user_id)
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await dm.get_partial_message(message_id).delete()

        self.governor.delete(("dm", user_id), self.clock.now(), remove)

    # --- DMs that are not a table's hand ------------------------------------------------------

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
        for chunk in chunks(plain(text)):
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

    # --- brief replies in a channel -----------------------------------------------------------

    async def say_briefly(self, channel_id: int, channel: Any, text: str, *,
                          reference: discord.Message | None = None, author: int | None = None,
                          mention: bool = False) -> None:
        """A short answer in ``channel`` that deletes itself, within the channel's budget and
        after the table's own messages. ``text`` is plain text. ``author``: the person it
        answers, who gets one answer per :data:`ANSWER_SECONDS` at most (more is dropped);
        ``mention``: ``text`` addresses them with :meth:`mention`, which is kept and notifies
        them and nobody else."""
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

    # --- «Ver mis cartas» ---------------------------------------------------------------------

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any], text: str) -> None:
        """A «Ver mis cartas» answer (showing ``text``) to keep current while its token lives."""
        self._ephemerals[(channel_id, user_id)] = _Ephemeral(interaction, self.clock.now(),
                                                             text)

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
                       DISCORD("hand_picture_alt", lang, cards=cards_text(view.cards)))


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Discord's 2000-character cap, split at line ends."""
    if len(text) <= limit:
        return [text]
    found: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                found.append(current)
                current = ""
            found.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            found.append(current)
            current = line
        else:
            current = candidate
    if current:
        found.append(current)
    return found


__all__ = ["ANSWER_SECONDS", "MESSAGE_LIMIT", "REPLY_SECONDS", "HandPicture", "Messenger",
           "chunks"]
