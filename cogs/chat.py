"""Moves typed in the table channel, and the private commands typed by DM.

In a table channel a seated player's message that the grammar recognises (``mus``, ``paso``,
``envido 5``, ``3 más``, ``órdago`` …) is a move, acknowledged by the table's next edit;
everything else is chat and is left alone. A refused move is answered with a reply that deletes
itself. Someone not seated who types a move gets a hint, at most once a minute, so a crowd of
onlookers cannot flood the channel. Every answer goes through the channel's budget (the
transport's governor).

By DM: ``descarto 1 3``, ``seña dos reyes``, ``cartas``, ``vuelvo`` (and any move) go to the
table where the author has something to do (:meth:`TableManager.table_for`), and the answer names
the table when the author sits at more than one (``musbot.discordio.direct``). In a sharded bot,
a DM for a table that another process runs is relayed to it (``musbot.discordio.relay``), which
answers through the same steps there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from musbot.discordio.failures import refuse_typed
from musbot.discordio.locales import person_lang
from musbot.discordio.texts import error
from musbot.engine import MalformedCommand
from musbot.grammar import parse
from musbot.i18n import DISCORD
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
        if message.guild is not None:  # any message under a table pushes it up the channel
            self.bot.transport.seen(message.channel.id, message.id,
                                    None if message.author.bot else message.author.id)
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
        if not await self.bot.awake_table(table):
            if looks_like_move(message.content):
                await transport.say_briefly(message.channel.id,
                                            error("table_restoring", table.lang_for(user_id)),
                                            reference=message, author=user_id)
            return
        outcome = await table.typed(user_id, message.content, public=True)
        if outcome.error is not None:
            await refuse_typed(transport, table, user_id, outcome.error, reference=message)

    async def on_direct_message(self, message: discord.Message) -> None:
        user_id = message.author.id
        text = message.content.strip()
        transport = self.bot.transport
        transport.learn_dm(user_id, message.channel.id)
        table, ambiguous = self.bot.tables.table_for(user_id)
        if table is not None:
            await self.bot.dms.handle(user_id, text, table, ambiguous)
            return
        relay = self.bot.relay
        if relay is None or not await relay.forward_dm(user_id, message.channel.id, text):
            await transport.direct(user_id, DISCORD("no_table_dm", person_lang(self.bot, user_id)))

    async def _hint(self, message: discord.Message, table: Table) -> None:
        user_id = message.author.id
        now = self.clock.now()
        last = self._hinted.get(user_id)
        if last is not None and now - last < HINT_SECONDS:
            return
        self._hinted[user_id] = now
        await self.bot.transport.say_briefly(
            message.channel.id,
            DISCORD("not_seated_hint", table.lang_for(user_id),
                    mention=self.bot.transport.mention(user_id)),
            author=user_id, mention=True)

    async def _is_command(self, message: discord.Message) -> bool:
        """``!mus …`` is the command cog's business, not a move."""
        ctx = await self.bot.get_context(message)
        return ctx.valid


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Chat(bot, clock=bot.transport.clock))
