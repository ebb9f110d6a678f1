"""``/mus idioma``: each person's own language, for what
only they read: their hand and señas by DM, the answers and refusals meant for them alone. The
table's page and every public message stay in the server's language (``/musadmin config
idioma``).

Without an argument it says which language the person reads and why (their choice, their
Discord's, or the server's); with one it saves the choice (``idioma:discord`` forgets it, back
to the client's). Discord has no Basque locale, so Basque is always a choice, offered by name
(«Euskara») among the command's choices: one command, one name. Every answer is private, in the
language the person reads from then on. ``/mus olvidarme`` forgets the choice with the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from musbot.discordio.locales import lang_of, locale_of
from musbot.i18n import LANGUAGE_CODES, LANGUAGE_NAMES, SERVER, language_of_locale

from ._common import MusSubcommandCog, answer, server_lang

if TYPE_CHECKING:
    from musbot.bot import MusBot

CLIENT: Final = "discord"
"""The choice that forgets one's own and goes back to the Discord client's language."""
CHOICES: Final = [*(app_commands.Choice(name=LANGUAGE_NAMES[code], value=code)
                    for code in LANGUAGE_CODES),
                  app_commands.Choice(name="Discord", value=CLIENT)]


class Idioma(MusSubcommandCog):
    """The person's own language; the command lives in the ``/mus`` group."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def idioma(interaction: discord.Interaction[Any],
                         idioma: str | None = None) -> None:
            await self.choose(interaction, idioma)

        self.command = app_commands.Command(
            name="idioma", description="Tu idioma en lo que solo lees tú", callback=idioma)
        app_commands.describe(idioma="el idioma; discord: el de tu Discord")(self.command)
        app_commands.choices(idioma=CHOICES)(self.command)

    async def choose(self, interaction: discord.Interaction[Any], value: str | None) -> None:
        speakers = self.bot.tables.speakers
        user_id = interaction.user.id
        server = await server_lang(self.bot.db, interaction.guild_id)
        client = language_of_locale(locale_of(interaction))
        if value is None:
            await answer(interaction, _now(speakers.chosen(user_id), client, server))
            return
        wanted = value.strip().lower()
        if wanted not in (*LANGUAGE_CODES, CLIENT):
            mine = lang_of(interaction, server)
            await answer(interaction, SERVER(
                "language_unknown", mine, value=value[:40],
                languages=", ".join(f"{LANGUAGE_NAMES[c]} ({c})" for c in LANGUAGE_CODES)
                + f", {CLIENT}"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # saved first
        chosen = None if wanted == CLIENT else wanted
        await self.db.set_person_language(user_id, chosen)
        speakers.choose(user_id, chosen)
        lang = lang_of(interaction, server)
        if chosen is None:
            await answer(interaction, SERVER("language_cleared", lang,
                                             language=LANGUAGE_NAMES[lang]))
        else:
            await answer(interaction, SERVER("language_saved", lang,
                                             language=LANGUAGE_NAMES[lang]))


def _now(chosen: str | None, client: str | None, server: str) -> str:
    """Which language the person reads, and why, in that language."""
    if chosen is not None:
        return SERVER("language_now_chosen", chosen, language=LANGUAGE_NAMES[chosen])
    if client is not None:
        return SERVER("language_now_client", client, language=LANGUAGE_NAMES[client])
    return SERVER("language_now_none", server, language=LANGUAGE_NAMES[server])


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Idioma(bot))
