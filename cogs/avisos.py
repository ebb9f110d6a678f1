"""``/mus avisos [como]``: how a person not watching their table is told it is their turn: a
mention in the table's channel that notifies them alone (the default), or a DM. Someone who
typed or pressed at the table within the last minute is watching it, and is told by the
table message itself, which names who speaks (``musbot.discordio.boards``).

Without an argument it says how the person is told; with one it saves the choice (table
``person_calls``; ``/mus olvidarme`` deletes it). Private answers, in the person's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from musbot.i18n import DISCORD

from ._common import MusSubcommandCog, answer, bot_database, own_lang

if TYPE_CHECKING:
    from musbot.bot import MusBot

WAYS: Final = {"mention": "calls_mention", "dm": "calls_dm"}
"""Each way of being called, and the sentence that says it."""


class Avisos(MusSubcommandCog):
    """The person's way of being called to their turn."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def avisos(interaction: discord.Interaction[Any],
                         como: str | None = None) -> None:
            await self.choose(interaction, como)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="avisos", description="Cómo te aviso de tu turno si no estás mirando la mesa",
            callback=avisos)
        app_commands.describe(como="una mención en el canal, o un mensaje privado")(
            self.command)
        app_commands.choices(como=[app_commands.Choice(name="mención en el canal",
                                                       value="mention"),
                                   app_commands.Choice(name="mensaje privado", value="dm")])(
            self.command)

    async def choose(self, interaction: discord.Interaction[Any], way: str | None) -> None:
        lang = await own_lang(self.bot.db, interaction)
        db = bot_database(self.bot)
        user = interaction.user.id
        if way is None:
            chosen = await db.person_call(user) or "mention"
            await answer(interaction, DISCORD(WAYS[chosen], lang))
            return
        if way not in WAYS:
            await answer(interaction, DISCORD("calls_unknown", lang))
            return
        await db.set_person_call(user, way)
        self.bot.transport.call_by(user, way)
        await answer(interaction, DISCORD(WAYS[way], lang))


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Avisos(bot))
