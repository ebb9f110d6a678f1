"""One short welcome when the bot joins a server: in the system channel if the bot may write
there, else in the first text channel (by position) where it may; nowhere if none."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from musbot.i18n import SERVER, language_of_locale

if TYPE_CHECKING:
    from musbot.bot import MusBot

log = logging.getLogger(__name__)


def welcome_channel(guild: discord.Guild) -> discord.TextChannel | None:
    me = guild.me

    def writable(channel: discord.TextChannel | None) -> bool:
        if channel is None:
            return False
        permissions = channel.permissions_for(me)
        return bool(permissions.view_channel and permissions.send_messages)

    if writable(guild.system_channel):
        return guild.system_channel
    for channel in sorted(guild.text_channels, key=lambda c: c.position):
        if writable(channel):
            return channel
    return None


def welcome_lang(guild: discord.Guild) -> str:
    """A new server has no settings yet: its Discord locale's language if the bot has it (French,
    English), else Spanish."""
    return language_of_locale(str(guild.preferred_locale)) or "es"


class Bienvenida(commands.Cog):
    def __init__(self, bot: MusBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        channel = welcome_channel(guild)
        if channel is None:
            return
        try:
            await channel.send(SERVER("welcome", welcome_lang(guild)),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("welcome refused in server %s", guild.id)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Bienvenida(bot))
