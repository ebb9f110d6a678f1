"""``/mus olvidarme``: erase what identifies the author, stored and live.

Storage forgets the player (name, ratings, memberships; past matches stay, anonymous, because the
other players' standings depend on them), and every live table replaces the name by a neutral one.
It asks for ``confirmar:True`` first: there is no undo. Every answer is private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from musbot.i18n import SERVER
from musbot.table.persist import forget_player

from ._common import MusSubcommandCog, answer, own_lang

if TYPE_CHECKING:
    from musbot.bot import MusBot


class Privacidad(MusSubcommandCog):
    """The user-data deletion hook; the command lives in the ``/mus`` group of the table cog."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def olvidarme(interaction: discord.Interaction[Any],
                            confirmar: bool = False) -> None:
            await self.forget(interaction, confirmar)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="olvidarme",
            description="Borra tu nombre, tus puntuaciones, tus ligas y tu idioma",
            callback=olvidarme)
        app_commands.describe(confirmar="True para borrar de verdad")(self.command)

    async def forget(self, interaction: discord.Interaction[Any], confirmar: bool) -> None:
        lang = await own_lang(self.bot.db, interaction)
        if not confirmar:
            await answer(interaction, SERVER("forget_confirm", lang))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        relay = self.bot.relay
        known = await forget_player(self.db, self.bot.tables, interaction.user.id,
                                    elsewhere=relay.forget_elsewhere if relay is not None
                                    else None)
        await answer(interaction, SERVER("forget_done" if known else "forget_unknown", lang))


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Privacidad(bot))
