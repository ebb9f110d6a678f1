"""Moves typed in the table channel, and the private commands typed by DM.

In a table channel a seated player's message that the grammar recognises (``mus``, ``paso``,
``envido 5``, ``3 más``, ``órdago`` …) is a move; everything else is chat and is left alone. A
refused move is answered with a reply that deletes itself. Someone not seated who types a move
gets a hint, at most once a minute, so a crowd of onlookers cannot flood the channel.

By DM: ``descarto 1 3``, ``seña dos reyes``, ``cartas``, ``vuelvo`` (and any move) go to the
table where the author sits.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from musbot.commands import parse
from musbot.discordio import reply_via, ui
from musbot.discordio.texts import dt
from musbot.discordio.transport import REPLY_SECONDS
from musbot.engine import MalformedCommand, MusError
from musbot.table import Clock, RealClock, Table

if TYPE_CHECKING:
    from musbot.bot import MusBot

HINT_SECONDS = 60.0
"""At most one «you are not seated» hint per user per this many seconds."""
CARDS_WORDS = frozenset({"cartas", "mis cartas", "ver", "ver mis cartas", "mano", "cards"})
SENA_WORDS = ("sena", "senya", "keinu")


def looks_like_move(text: str) -> bool:
    """Whether the grammar takes the text for a move (or a broken attempt at one)."""
    try:
        return parse(text) is not None
    except MalformedCommand:
        return True


def normal(text: str) -> str:
    """Lowercase, no accents, single spaces: «Seña» and «sena» are the same word."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


class Chat(commands.Cog):
    def __init__(self, bot: MusBot, *, clock: Clock | None = None,
                 reply_seconds: float = REPLY_SECONDS) -> None:
        self.bot = bot
        self.clock: Clock = clock or RealClock()
        self.reply_seconds = reply_seconds
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
        if table.seat_of(user_id) is None:
            if looks_like_move(message.content):
                await self._hint(message, table)
            return

        async def answer(text: str) -> None:
            await message.reply(text, delete_after=self.reply_seconds, mention_author=False)

        with reply_via(answer):
            await table.handle_text(user_id, message.content)

    async def on_direct_message(self, message: discord.Message) -> None:
        user_id = message.author.id
        text = message.content.strip()

        async def answer(reply: str) -> None:
            await message.channel.send(reply)

        table = self.bot.tables.table_of(user_id)
        if table is None:
            await answer(dt("no_table_dm"))
            return
        word = normal(text)
        with reply_via(answer):
            if word in CARDS_WORDS:
                await self._send_cards(message, table)
            elif word.replace(":", " ").split(" ", 1)[0] in SENA_WORDS:
                parts = text.replace(":", " ").split(maxsplit=1)
                name = parts[1] if len(parts) > 1 else ""
                try:
                    sena = await table.send_sena(user_id, name)
                except MusError as problem:
                    await answer(problem.message(table.lang, table.names()))
                else:
                    await answer(dt("sena_sent", table.lang, sena=sena.nombre))
            elif not await table.handle_text(user_id, text):
                await answer(dt("dm_unknown", table.lang))

    async def _send_cards(self, message: discord.Message, table: Table) -> None:
        """«cartas» by DM: the hand view, with discard controls during the discard phase."""
        try:
            text = table.private_text(message.author.id)
        except MusError as problem:
            await message.channel.send(problem.message(table.lang, table.names()))
            return
        controls = ui.discard_view(table, message.author.id)
        extra: dict[str, Any] = {"view": controls} if controls is not None else {}
        await message.channel.send(text, **extra)

    async def _hint(self, message: discord.Message, table: Table) -> None:
        user_id = message.author.id
        now = self.clock.now()
        last = self._hinted.get(user_id)
        if last is not None and now - last < HINT_SECONDS:
            return
        self._hinted[user_id] = now
        await message.channel.send(
            dt("not_seated_hint", table.lang, mention=self.bot.transport.mention(user_id)),
            delete_after=self.reply_seconds)

    async def _is_command(self, message: discord.Message) -> bool:
        """``!mus …`` is the command cog's business, not a move."""
        ctx = await self.bot.get_context(message)
        return ctx.valid


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Chat(bot))
