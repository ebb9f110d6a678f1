"""``/mus repaso [mano]``: «¿Cómo jugué?», the author's review of a hand of this channel's match,
answered privately (the same as the «¿Cómo jugué?» button under the table)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from musbot.discordio import ui
from musbot.i18n import COACH

from ._common import MusSubcommandCog, answer, own_lang

if TYPE_CHECKING:
    from musbot.bot import MusBot


class HandReview(MusSubcommandCog):
    """The review command; the button is the table message's (``musbot.discordio.ui``)."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def repaso(interaction: discord.Interaction[Any],
                         mano: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
            await self.review(interaction, mano)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="repaso", description="Repasa en privado cómo jugaste una mano de esta partida",
            callback=repaso)
        app_commands.describe(mano="El número de la mano (la última si no lo dices)")(
            self.command)

    async def review(self, interaction: discord.Interaction[Any], mano: int | None) -> None:
        table = self.bot.tables.get(interaction.channel_id) \
            if interaction.channel_id is not None else None
        if table is None:
            await answer(interaction, COACH("no_table", await own_lang(self.bot.db, interaction)))
            return
        await ui.show_review(interaction, table, mano)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(HandReview(bot))

