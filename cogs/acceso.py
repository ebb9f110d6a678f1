"""Permission changes in a server, for the tables in it: a channel, a role or the bot's own
member updated, or any interaction in a channel (which carries the bot's permissions there), and
each table there is checked, paused if its channel is lost, resumed if it is back
(``musbot.discordio.access``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from musbot.bot import MusBot


class Acceso(commands.Cog):
    def __init__(self, bot: MusBot) -> None:
        self.bot = bot

    async def _recheck(self, guild: discord.Guild | None) -> None:
        if guild is not None:
            await self.bot.transport.access.recheck(guild.id, self.bot.tables)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        await self._recheck(after.guild)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._recheck(after.guild)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._recheck(after.guild)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.bot.user is not None and after.id == self.bot.user.id:
            await self._recheck(after.guild)

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        await self._recheck(after)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """After a restart (or an outage), the server's settings as they are now: a restored
        table whose channel was lost meanwhile pauses before it asks anything of it."""
        await self._recheck(guild)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.transport.access.seen(interaction)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Acceso(bot))
