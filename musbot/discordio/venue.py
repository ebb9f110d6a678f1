"""A tournament's :class:`~musbot.tournament.live.Venue` on Discord: a public thread of the
tournament's channel for each match's table, its news and its bracket in that channel.

Every call goes through the transport's :class:`~musbot.discordio.governor.Governor`, in the
lane of the channel it writes to (a thread's creation in its parent's), so a round of sixteen
matches ending together, each with its thread, result and bracket page, stays within the
channel's five messages per five seconds and the bot's global budget. Everything said is plain
text (:func:`~musbot.discordio.markup.plain`): a pair's names are never markup, and a message
notifies only the people it calls (:func:`~musbot.discordio.markup.mentioning`).

The bracket is posted as its PNG pages (ten at most per message, each with its title as the
image's description, which screen readers read) and, when the whole bracket is shown (the
draw, the end, on demand), its text version (:func:`musbot.tournament.text.bracket_text`).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Final

import discord

from musbot.i18n import TXAPELKETA
from musbot.tournament.labels import Words
from musbot.tournament.live import LEFT, WHEN, Cup, Lacking, entrants_of
from musbot.tournament.picture import Picture, render
from musbot.tournament.text import bracket_text

from .markup import NO_MENTIONS, mentioning, plain
from .texts import MESSAGE_LIMIT
from .transport import DiscordTransport

log = logging.getLogger(__name__)

FILES_PER_MESSAGE = 10
"""Discord's most attachments in one message."""
DESCRIPTION_LIMIT = 1024
"""An attachment's description (its alt text) at most."""
THREAD_ARCHIVE_MINUTES: Final = 1440
BOARD_SIGN: Final = "📋"
"""How the organiser's board begins (``TXAPELKETA.board_title``), in every language."""
NEW_THREAD: Final = "POST /channels/{channel_id}/threads"
"""A thread's creation, as the request guard keeps the calls Discord refused (403 50013)."""
BOARD_LOOKBACK: Final = 50
"""The channel's last messages looked through for a board posted before a restart."""


def files(pictures: Sequence[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.png), filename=f"txapelketa-{i}.png",
                         description=p.title[:DESCRIPTION_LIMIT])
            for i, p in enumerate(pictures, 1)]


def notifying(text: str, users: Sequence[int]) -> str:
    """``text`` escaped, then the mentions of ``users``, within a message's length."""
    mentions = " ".join(f"<@{u}>" for u in users)
    body = plain(text)
    room = MESSAGE_LIMIT - len(mentions) - 1
    if len(body) > room:
        body = body[: room - 1] + "…"
    return f"{body} {mentions}".strip()


class DiscordVenue:
    """Threads, news and brackets for a :class:`~musbot.tournament.live.TournamentRunner`."""

    def __init__(self, client: discord.Client, transport: DiscordTransport) -> None:
        self.client = client
        self.transport = transport
        self._live_messages: dict[tuple[str, int], discord.Message | None] = {}
        """(kind, tournament id) → its one message of that kind, the sign-ups or the board
        (None while it is being posted)."""
        self._live_text: dict[tuple[str, int], str] = {}

    async def _channel(self, channel_id: int | None) -> Any:
        if channel_id is None:
            return None
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel

    async def open_place(self, cup: Cup, match: Any, title: str) -> int | None:
        parent = await self._channel(cup.channel_id)
        if not isinstance(parent, discord.TextChannel):
            return None

        private = cup.tournament.settings.private_threads

        async def make() -> discord.Thread:
            if private:  # no spectators: nobody may invite anyone in
                return await parent.create_thread(
                    name=title, type=discord.ChannelType.private_thread, invitable=False,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            return await parent.create_thread(name=title, type=discord.ChannelType.public_thread,
                                              auto_archive_duration=THREAD_ARCHIVE_MINUTES)

        try:
            thread = await self.transport.governor.post(parent.id, make)
            if private:
                for user in self._members(cup, match):
                    await self.transport.governor.spend_in_turn()
                    await thread.add_user(discord.Object(id=user))
        except (discord.HTTPException, discord.ClientException):
            log.warning("tournament %s: no thread for match %s", cup.tournament_id,
                        getattr(match, "id", "?"), exc_info=True)
            return None
        self.transport.bind(thread.id, thread)
        return thread.id

    async def lacking(self, cup: Cup) -> Lacking | None:
        """What the bot lacks in the tournament's channel, as the gateway last told it, to make
        its match threads (private ones without spectators) and play in them."""
        parent = await self._channel(cup.channel_id)
        me = getattr(getattr(parent, "guild", None), "me", None)
        if not isinstance(parent, discord.TextChannel) or me is None:
            return None
        permissions = parent.permissions_for(me)
        create = "create_private_threads" if cup.tournament.settings.private_threads \
            else "create_public_threads"
        missing = [name for name in (create, "send_messages_in_threads")
                   if not getattr(permissions, name)]
        if create not in missing and NEW_THREAD in self.transport.guard.refused.get(parent.id, {}):
            missing.insert(0, create)  # Discord refused a thread since the cache last changed
        return Lacking(parent.name, tuple(missing)) if missing else None

    @staticmethod
    def _members(cup: Cup, match: Any) -> list[int]:
        """Who a private match thread shows to: its four players and the organiser (the bot is
        in it as its maker; those who manage threads see every thread)."""
        users = sorted(entrants_of(cup, match))
        if cup.organiser is not None and cup.organiser not in users:
            users.append(cup.organiser)
        return users

    async def reach_place(self, cup: Cup, channel_id: int) -> bool:
        """The place is there and a table can be played in it: a thread locked by a moderator
        cannot (only they may open it again); one archived by Discord for its quiet is opened
        again."""
        channel = await self._channel(channel_id)
        if channel is None:
            return False
        if isinstance(channel, discord.Thread) and (channel.locked or channel.archived):
            if channel.locked:
                return False
            try:
                channel = await channel.edit(archived=False)
            except (discord.HTTPException, discord.ClientException):
                return False
        self.transport.bind(channel_id, channel)
        return True

    async def call_players(self, cup: Cup, channel_id: int, text: str,
                           users: Sequence[int]) -> None:
        await self._post(channel_id, notifying(text, users), mentioning(*users))

    async def news(self, cup: Cup, text: str, users: Sequence[int] = ()) -> None:
        await self._post(cup.channel_id, notifying(text, users),
                         mentioning(*users) if users else NO_MENTIONS)

    async def signups(self, cup: Cup, text: str) -> None:
        """The sign-ups as they stand (``text``, escaped already) on one message of the
        tournament's channel: posted once, then edited, each edit showing the latest list
        (the governor merges edits that come faster than the channel takes them)."""
        await self._live(cup, "signups", text)

    async def board(self, cup: Cup, text: str) -> None:
        """The organiser's board, on one message kept up to date as :meth:`signups`."""
        await self._live(cup, "board", plain(text))

    async def _live(self, cup: Cup, kind: str, text: str) -> None:
        """One message of the tournament's of this ``kind``, showing ``text``: posted the first
        time, then edited (the governor merges edits, within the channel's)."""
        channel = await self._channel(cup.channel_id)
        if channel is None:
            return
        key = (kind, cup.tournament_id)
        self._live_text[key] = text[:MESSAGE_LIMIT]
        if key not in self._live_messages:
            self._live_messages[key] = None
            if kind == "board":  # after a restart, the board posted before is edited
                found = await self._board_before(channel, cup)
                if found is not None:
                    self._live_messages[key] = found
                    self._edit_live(key, channel)
                    return

            async def send() -> discord.Message:
                return await channel.send(self._live_text[key], allowed_mentions=NO_MENTIONS)

            posted = self.transport.governor.post(channel.id, send)
            posted.add_done_callback(lambda done: self._posted(key, channel, text, done))
        elif self._live_messages[key] is not None:
            self._edit_live(key, channel)

    async def _board_before(self, channel: Any, cup: Cup) -> discord.Message | None:
        """The board this tournament had in its channel's last messages (posted before a
        restart), if any."""
        me = self.client.user
        name = plain(cup.name)
        await self.transport.governor.spend_in_turn()  # one call, within the global budget
        try:
            async for message in channel.history(limit=BOARD_LOOKBACK):
                if me is not None and message.author.id == me.id \
                        and message.content.startswith(BOARD_SIGN) and name in message.content:
                    return message
        except (discord.HTTPException, discord.ClientException):
            log.warning("tournament %s: its board could not be looked for",
                        cup.tournament_id, exc_info=True)
        return None

    def _posted(self, key: tuple[str, int], channel: Any, shown: str,
                done: asyncio.Future[Any]) -> None:
        if done.cancelled() or done.exception() is not None:
            self._live_messages.pop(key, None)  # the next change posts it again
            return
        self._live_messages[key] = done.result()
        if self._live_text.get(key) != shown[:MESSAGE_LIMIT]:
            self._edit_live(key, channel)  # changed while it was being posted

    def _edit_live(self, key: tuple[str, int], channel: Any) -> None:
        async def edit() -> None:
            message = self._live_messages.get(key)
            if message is not None:
                await message.edit(content=self._live_text[key], allowed_mentions=NO_MENTIONS)

        self.transport.governor.edit(channel.id, key, edit)

    async def paused(self, cup: Cup, match: Any, text: str, users: Sequence[int]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(NewPlace(cup.tournament_id, match.id, TXAPELKETA("new_place", cup.lang)))
        await self._post(cup.channel_id, notifying(text, users), mentioning(*users), view=view)

    async def timed_news(self, cup: Cup, text: str, users: Sequence[int],
                         when: datetime) -> None:
        await self._post(cup.channel_id, stamped(notifying(text, users), when),
                         mentioning(*users) if users else NO_MENTIONS)

    async def ask_organiser(self, cup: Cup, match: Any, text: str,
                            users: Sequence[int], *, playing: bool = False) -> None:
        words = Words(cup.tournament, cup.lang)
        view = discord.ui.View(timeout=None)
        choices = [("w0", TXAPELKETA("wins_walkover", cup.lang, pair=words.side(match, 0))),
                   ("w1", TXAPELKETA("wins_walkover", cup.lang, pair=words.side(match, 1))),
                   ("ww", TXAPELKETA("double_walkover", cup.lang))]
        if playing:  # a match on Discord past its time limit: half an hour, or its board now
            choices += [("play", TXAPELKETA("more_play", cup.lang)),
                        ("board", TXAPELKETA("by_board", cup.lang))]
        else:
            choices.append(("more", TXAPELKETA("more_time", cup.lang)))
        for what, label in choices:
            view.add_item(DeadlineChoice(cup.tournament_id, match.id, what, label))
        await self._post(cup.channel_id, notifying(text, users),
                         mentioning(*users) if users else NO_MENTIONS, view=view)

    async def ask_agreement(self, cup: Cup, match: Any, text: str, users: Sequence[int],
                            number: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(ResultAnswer(cup.tournament_id, match.id, number, True,
                                   TXAPELKETA("agree", cup.lang)))
        view.add_item(ResultAnswer(cup.tournament_id, match.id, number, False,
                                   TXAPELKETA("disagree", cup.lang)))
        await self._post(cup.channel_id, notifying(text, users), mentioning(*users), view=view)

    async def _post(self, channel_id: int | None, content: str,
                    allowed: discord.AllowedMentions, **extra: Any) -> None:
        channel = await self._channel(channel_id)
        if channel is None:
            return

        async def send() -> discord.Message:
            return await channel.send(content, allowed_mentions=allowed, **extra)

        self.transport.governor.post(channel.id, send)

    async def bracket(self, cup: Cup, matches: Collection[str] | None) -> None:
        """The pages showing ``matches`` (all of them when None, with the text version)."""
        channel = await self._channel(cup.channel_id)
        if channel is None:
            return
        # Drawing takes a quarter of a second a page: off the event loop (the runner holds
        # the tournament's lock meanwhile, so its state does not change under the drawing).
        for content, attached in await asyncio.to_thread(bracket_messages, cup, matches):
            async def send(content: str = content,
                           attached: list[discord.File] = attached) -> discord.Message:
                return await channel.send(content, files=attached, allowed_mentions=NO_MENTIONS)

            self.transport.governor.post(channel.id, send)


class NewPlace(discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=r"txap:place:(?P<tournament>[0-9]{1,20}):(?P<match>[A-Z0-9-]{1,20})"):
    """«Mesa nueva»: the organiser sends a paused match to a new table (as
    ``/musadmin txapelketa repetir``). The tournament's cog answers it (``cogs/txapelketa.py``):
    whoever else presses it is told it is the organiser's."""

    def __init__(self, tournament_id: int, match_id: str, label: str = "…") -> None:
        super().__init__(discord.ui.Button(
            style=discord.ButtonStyle.primary, label=label[:80],
            custom_id=f"txap:place:{tournament_id}:{match_id}"))
        self.tournament_id = tournament_id
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> NewPlace:
        return cls(int(match["tournament"]), str(match["match"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Txapelketa")  # type: ignore[attr-defined]
        handle = getattr(cog, "new_place", None)
        if handle is not None:
            await handle(interaction, self.tournament_id, self.match_id)


def stamped(text: str, when: datetime) -> str:
    """``text`` (escaped already) with Discord's timestamps where it marks a deadline: the date
    and time in each reader's own zone, and how long from now."""
    seconds = int(when.timestamp())
    return text.replace(WHEN, f"<t:{seconds}:f>").replace(LEFT, f"<t:{seconds}:R>")


class DeadlineChoice(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"txap:dl:(?P<what>w0|w1|ww|more|play|board):"
                              r"(?P<tournament>[0-9]{1,20}):"
                              r"(?P<match>[A-Z0-9-]{1,20})"):
    """The organiser's answer to a match's deadline passed: a walkover for the first or the
    second pair, a double walkover, or a day more; to a match played on Discord past its time
    limit, half an hour more (``play``) or its board as it stands (``board``) instead of the
    day. The tournament's cog answers it; whoever else presses it is told it is the
    organiser's."""

    def __init__(self, tournament_id: int, match_id: str, what: str, label: str = "…") -> None:
        super().__init__(discord.ui.Button(
            style=discord.ButtonStyle.secondary, label=label[:80],
            custom_id=f"txap:dl:{what}:{tournament_id}:{match_id}"))
        self.tournament_id = tournament_id
        self.match_id = match_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> DeadlineChoice:
        return cls(int(match["tournament"]), str(match["match"]), str(match["what"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Txapelketa")  # type: ignore[attr-defined]
        handle = getattr(cog, "answer_deadline", None)
        if handle is not None:
            await handle(interaction, self.tournament_id, self.match_id, self.what)


class ResultAnswer(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"txap:(?P<what>ok|no):(?P<tournament>[0-9]{1,20}):"
                            r"(?P<match>[A-Z0-9-]{1,20}):(?P<number>[0-9]{1,3})"):
    """«Confirmar» / «No es así» under a reported result: the other pair's one tap (the
    tournament's cog answers it; anyone else is told the result is not theirs to answer). The
    report's number is in it, so a tap on a report since replaced is refused."""

    def __init__(self, tournament_id: int, match_id: str, number: int, agree: bool,
                 label: str = "…") -> None:
        what = "ok" if agree else "no"
        super().__init__(discord.ui.Button(
            style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
            label=label[:80], custom_id=f"txap:{what}:{tournament_id}:{match_id}:{number}"))
        self.tournament_id = tournament_id
        self.match_id = match_id
        self.number = number
        self.agree = agree

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> ResultAnswer:
        return cls(int(match["tournament"]), str(match["match"]), int(match["number"]),
                   match["what"] == "ok")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Txapelketa")  # type: ignore[attr-defined]
        handle = getattr(cog, "answer_report", None)
        if handle is not None:
            await handle(interaction, self.tournament_id, self.match_id, self.number,
                         self.agree)


def bracket_messages(cup: Cup, matches: Collection[str] | None
                     ) -> list[tuple[str, list[discord.File]]]:
    """The messages that show the bracket: its pages, ten a message, then (the whole bracket)
    its text, one message each."""
    pictures = render(cup.tournament, cup.lang, matches=matches)
    messages: list[tuple[str, list[discord.File]]] = []
    for start in range(0, len(pictures), FILES_PER_MESSAGE):
        messages.append(("", files(pictures[start:start + FILES_PER_MESSAGE])))
    if matches is None:
        messages += [(text, []) for text in bracket_text(cup.tournament, cup.lang, escape=plain)]
    return messages


__all__ = [
    "DeadlineChoice",
    "DiscordVenue",
    "NewPlace",
    "ResultAnswer",
    "bracket_messages",
    "files",
    "notifying",
    "stamped",
]
