"""Moves typed in the table channel, and the private commands typed by DM.

In a table channel a seated player's message that the grammar recognises (``mus``, ``paso``,
``envido 5``, ``3 más``, ``órdago`` …) is a move, acknowledged by the table's next edit;
everything else is chat and is left alone. A refused move is answered with a reply that deletes
itself. Someone not seated who types a move gets a hint, at most once a minute, so a crowd of
onlookers cannot flood the channel. Every answer goes through the channel's budget (the
transport's governor).

By DM: ``descarto 1 3``, ``seña dos reyes``, ``cartas``, ``vuelvo`` (and any move) go to the
table where the author has something to do (:meth:`TableManager.table_for`), and the answer names
the table when the author sits at more than one. In a sharded bot, a DM for a table that another
process runs is relayed to it (``musbot.discordio.relay``), which answers through
:meth:`Chat.handle_dm` there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from musbot.commands import asks_for_cards, parse, sena_named
from musbot.discordio import reply_via
from musbot.discordio.discard import discard_view
from musbot.discordio.texts import dt, error
from musbot.engine import MalformedCommand, MusError
from musbot.i18n import error_text
from musbot.table import Clock, RealClock, Table

if TYPE_CHECKING:
    from musbot.bot import MusBot

HINT_SECONDS = 60.0
"""At most one «you are not seated» hint per user per this many seconds."""


def looks_like_move(text: str) -> bool:
    """Whether the grammar takes the text for a move (or a broken attempt at one)."""
    try:
        return parse(text) is not None
    except MalformedCommand:
        return True


class Chat(commands.Cog):
    def __init__(self, bot: MusBot, *, clock: Clock | None = None) -> None:
        self.bot = bot
        self.clock: Clock = clock or RealClock()
        self._hinted: dict[int, float] = {}

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.content:
            return
        if message.guild is None:
            await self.on_direct_message(message)
        else:
            await self.on_table_message(message)

    async def on_table_message(self, message: discord.Message) -> None:
        table = self.bot.tables.get(message.channel.id)
        if table is None or await self._is_command(message):
            return
        user_id = message.author.id
        transport = self.bot.transport
        if table.seat_of(user_id) is None:
            if looks_like_move(message.content):
                await self._hint(message, table)
            return

        async def answer(text: str) -> None:
            await transport.say_briefly(message.channel.id, text, reference=message,
                                        author=user_id)

        if not await self.bot.awake_table(table):
            if looks_like_move(message.content):
                await answer(error("table_restoring", table.lang))
            return
        with reply_via(answer):
            await table.handle_text(user_id, message.content)

    async def on_direct_message(self, message: discord.Message) -> None:
        user_id = message.author.id
        text = message.content.strip()
        transport = self.bot.transport
        transport.learn_dm(user_id, message.channel.id)
        table, ambiguous = self.bot.tables.table_for(user_id)
        if table is not None:
            await self.handle_dm(user_id, text, table, ambiguous)
            return
        relay = self.bot.relay
        if relay is None or not await relay.forward_dm(user_id, message.channel.id, text):
            await transport.direct(user_id, dt("no_table_dm"))

    async def handle_dm(self, user_id: int, text: str, table: Table, ambiguous: bool) -> None:
        """A DM for ``table``: received here, or relayed from shard 0 by another process."""
        transport = self.bot.transport
        lang = table.lang
        where = " " + self._where(table) if ambiguous else ""

        async def answer(reply: str) -> None:
            await transport.direct(user_id, reply + where)

        if not await self.bot.awake_table(table):
            await answer(error("table_restoring", lang))
            return
        sena = sena_named(text)
        with reply_via(answer):
            if asks_for_cards(text):
                await self._send_cards(user_id, table, where)
            elif sena is not None:
                try:
                    sent = await table.send_sena(user_id, sena)
                except MusError as problem:
                    await answer(error_text(problem, lang, table.names()))
                else:
                    await answer(dt("sena_sent", lang, sena=sent.nombre))
            elif not await table.handle_text(user_id, text):
                await answer(dt("dm_unknown", lang))

    def _where(self, table: Table) -> str:
        channel = self.bot.get_channel(table.channel_id)
        guild = getattr(channel, "guild", None)
        name = getattr(channel, "name", None)
        if guild is None or name is None:
            return ""
        return dt("which_table", table.lang, channel=name, guild=guild.name)

    async def _send_cards(self, user_id: int, table: Table, where: str) -> None:
        """«cartas» by DM: the hand view, with discard controls during the discard phase."""
        try:
            text = table.private_text(user_id)
        except MusError as problem:
            await self.bot.transport.direct(user_id, error_text(problem, table.lang, table.names()))
            return
        controls = discard_view(table, user_id)
        await self.bot.transport.direct(user_id, text + where, view=controls)

    async def _hint(self, message: discord.Message, table: Table) -> None:
        user_id = message.author.id
        now = self.clock.now()
        last = self._hinted.get(user_id)
        if last is not None and now - last < HINT_SECONDS:
            return
        self._hinted[user_id] = now
        await self.bot.transport.say_briefly(
            message.channel.id,
            dt("not_seated_hint", table.lang, mention=self.bot.transport.mention(user_id)),
            author=user_id, mention=True)

    async def _is_command(self, message: discord.Message) -> bool:
        """``!mus …`` is the command cog's business, not a move."""
        ctx = await self.bot.get_context(message)
        return ctx.valid


    async def cog_load(self) -> None:
        if self.bot.relay is not None:
            self.bot.relay.on_dm = self.handle_dm

    async def cog_unload(self) -> None:
        if self.bot.relay is not None and self.bot.relay.on_dm == self.handle_dm:
            self.bot.relay.on_dm = None


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Chat(bot, clock=bot.transport.clock))
