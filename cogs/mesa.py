"""``/mus …`` (and ``!mus …``): open, join, start, leave and close the table of a channel.

Thin by design: each command finds the channel's table and calls one of its coroutines; what
happened is said publicly by the table itself, so the command only acknowledges (ephemerally for
slash commands, with a ✅ reaction for typed ones) or words the table's refusal to its author.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import say
from musbot.discordio import ui
from musbot.discordio.texts import dt, error
from musbot.engine import MusError, Rules
from musbot.storage import StorageError
from musbot.table import Table

if TYPE_CHECKING:
    from musbot.bot import MusBot

log = logging.getLogger(__name__)

ERROR_SECONDS = 10.0
"""Typed commands' refusals delete themselves: the channel is the game's table."""


class Mesa(commands.Cog):
    """The table's life cycle in a channel or thread."""

    def __init__(self, bot: MusBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="mus", invoke_without_command=True)
    async def mus(self, ctx: commands.Context[Any]) -> None:
        """Mus: mesas, parejas y reglas."""
        await self._help(ctx)

    @mus.command(name="mesa")
    @commands.guild_only()
    @app_commands.describe(puntos="tantos por juego (40)", reyes="4 u 8 reyes",
                           juegos="juegos por vaca", vacas="vacas por partida",
                           real="la real (7-7-7-sota)", corrido="mus corrido",
                           senas="se permiten señas", jugadores="2, 4 o 6")
    async def mesa(self, ctx: commands.Context[Any],
                   puntos: commands.Range[int, 5, 100] = None,  # type: ignore[assignment]
                   reyes: Literal[4, 8] | None = None,
                   juegos: commands.Range[int, 1, 9] = None,  # type: ignore[assignment]
                   vacas: commands.Range[int, 1, 5] = None,  # type: ignore[assignment]
                   real: bool | None = None, corrido: bool | None = None,
                   senas: bool | None = None, jugadores: Literal[2, 4, 6] | None = None) -> None:
        """Abre una mesa en este canal o hilo (si ya hay una, vuelve a mostrarla). Lo que no se
        indique sale de la configuración del servidor (/mus config)."""
        channel_id = ctx.channel.id
        current = self.bot.tables.get(channel_id)
        if current is not None:
            # The table message scrolled away or was deleted: post it again, edited from now on.
            await self._post_table(ctx, current)
            return
        options, refusal = await self._server_options(ctx)
        if refusal is not None:
            await self._refuse(ctx, refusal)
            return
        base: Rules = options.pop("rules", None) or Rules()
        given = {"puntos": puntos, "reyes": reyes, "juegos": juegos, "vacas": vacas,
                 "real": real, "mus_corrido": corrido, "senas": senas}
        changes: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        if jugadores is not None and jugadores != base.jugadores:
            changes["jugadores"] = jugadores
            if jugadores == 6 and puntos is None:
                changes["puntos"] = Rules.for_players(6).puntos
        try:
            rules = base.with_(**changes)
        except ValueError as problem:
            await self._refuse(ctx, str(problem))
            return
        try:
            table = self.bot.tables.open(channel_id, rules, guild_id=ctx.guild.id if ctx.guild
                                         else None, opener_id=ctx.author.id, **options)
        except MusError as problem:
            await self._refuse(ctx, problem.message())
            return
        self.bot.transport.bind(channel_id, ctx.channel)
        await self._post_table(ctx, table)

    async def _server_options(self, ctx: commands.Context[Any]
                              ) -> tuple[dict[str, Any], str | None]:
        """The server's defaults for a new table (rules, language, turn timer) from
        ``/mus config``, and a refusal when tables are not opened in this channel. Without a
        database (tests, a broken file) the engine's defaults apply."""
        from cogs.config import channel_allowed, table_options

        db = getattr(self.bot, "db", None)
        if db is None or ctx.guild is None:
            return {}, None
        try:
            settings = await db.server_settings(ctx.guild.id)
        except StorageError:
            log.warning("server settings unavailable for %s", ctx.guild.id, exc_info=True)
            return {}, None
        if not channel_allowed(settings, ctx.channel):
            channels = ", ".join(f"<#{c}>" for c in sorted(settings.allowed_channels))
            return {}, say("channel_not_allowed", settings.language, channels=channels)
        return table_options(settings), None

    @mus.command(name="unirse")
    @commands.guild_only()
    @app_commands.describe(pareja="1 o 2 (por defecto, el primer asiento libre)")
    async def unirse(self, ctx: commands.Context[Any],
                     pareja: Literal[1, 2] | None = None) -> None:
        """Te sienta en la mesa (a media partida, en el asiento de un bot)."""
        name = ctx.author.display_name
        pair = pareja - 1 if pareja is not None else None
        await self._step(ctx, lambda table: table.join(ctx.author.id, name, pair))

    @mus.command(name="bot")
    @commands.guild_only()
    @app_commands.describe(pareja="1 o 2")
    async def add_bot(self, ctx: commands.Context[Any],
                   pareja: Literal[1, 2] | None = None) -> None:
        """Sienta un bot antes de empezar (los asientos vacíos se llenan de bots al empezar)."""
        pair = pareja - 1 if pareja is not None else None
        await self._step(ctx, lambda table: table.add_bot(pair))

    @mus.command(name="empezar")
    @commands.guild_only()
    async def empezar(self, ctx: commands.Context[Any]) -> None:
        """Llena de bots los asientos vacíos y reparte."""
        await self._step(ctx, lambda table: table.start(ctx.author.id))

    @mus.command(name="salir")
    @commands.guild_only()
    async def salir(self, ctx: commands.Context[Any]) -> None:
        """Te levantas; a media partida un bot juega tu asiento."""
        await self._step(ctx, lambda table: table.leave(ctx.author.id))

    @mus.command(name="cerrar")
    @commands.guild_only()
    async def cerrar(self, ctx: commands.Context[Any]) -> None:
        """Cierra la mesa: quien la abrió o quien gestiona el canal."""
        channel_id = ctx.channel.id
        table = self.bot.tables.get(channel_id)
        if table is None:
            await self._refuse(ctx, error("no_table"))
            return
        if not self.may_close(ctx, channel_id):
            await self._refuse(ctx, dt("only_opener", table.lang))
            return
        await self._step(ctx, lambda _table: self.bot.tables.close(channel_id))

    @mus.command(name="ayuda")
    async def ayuda(self, ctx: commands.Context[Any]) -> None:
        """Cómo se juega aquí."""
        await self._help(ctx)

    @mus.command(name="reglas")
    async def reglas(self, ctx: commands.Context[Any]) -> None:
        """Las variantes de la mesa de este canal."""
        table = self.bot.tables.get(ctx.channel.id)
        await ctx.send(ui.rules_summary(table), ephemeral=True)

    # --- helpers ------------------------------------------------------------------------------

    async def _post_table(self, ctx: commands.Context[Any], table: Table) -> None:
        view = ui.board_view(table)
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        message = await ctx.send(embed=ui.table_embed(table, table.lang), **extra)
        self.bot.transport.bind(table.channel_id, ctx.channel, message=message)

    def may_close(self, ctx: commands.Context[Any], channel_id: int) -> bool:
        table = self.bot.tables.get(channel_id)
        if table is not None and table.opener_id == ctx.author.id:
            return True
        # Guild-only command: the author is a Member.
        permissions = ctx.channel.permissions_for(ctx.author)  # type: ignore[arg-type]
        return bool(permissions.manage_channels)

    async def _help(self, ctx: commands.Context[Any]) -> None:
        table = self.bot.tables.get(ctx.channel.id)
        await ctx.send(dt("help", table.lang if table is not None else "es"), ephemeral=True)

    async def _step(self, ctx: commands.Context[Any],
                    step: Callable[[Table], Awaitable[Any]]) -> None:
        """One table coroutine for this channel: deferred (bots may play before it returns),
        then acknowledged, or refused with the table's own words."""
        table = self.bot.tables.get(ctx.channel.id)
        if table is None:
            await self._refuse(ctx, error("no_table"))
            return
        await ctx.defer(ephemeral=True)
        try:
            await step(table)
        except MusError as problem:
            await self._refuse(ctx, problem.message(table.lang, table.names()))
            return
        await self._done(ctx, table.lang)

    async def _done(self, ctx: commands.Context[Any], lang: str) -> None:
        if ctx.interaction is not None:
            await ctx.send(dt("done", lang), ephemeral=True)
        else:
            with contextlib.suppress(discord.HTTPException):
                await ctx.message.add_reaction("✅")

    async def _refuse(self, ctx: commands.Context[Any], text: str) -> None:
        if ctx.interaction is not None:
            await ctx.send(text, ephemeral=True)
        else:
            await ctx.send(text, delete_after=ERROR_SECONDS)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Mesa(bot))
