"""``/mus …`` (and ``!mus …``): open, join, start, leave and close the table of a channel.

Thin by design: each command finds the channel's table and calls one of its coroutines; what
happened shows on the table's own message, so the command only acknowledges (privately for
slash commands, with a short reply that deletes itself for typed ones). Refusals and failures
go through the bot's one error path (``musbot.discordio.failures``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from musbot.discordio import ui
from musbot.discordio.locales import lang_of, person_lang, recall
from musbot.discordio.markup import seat_name
from musbot.engine import InvalidRules
from musbot.i18n import DISCORD
from musbot.settings import TableSettings
from musbot.storage import ServerSettings
from musbot.table import Table, TableError

if TYPE_CHECKING:
    from musbot.bot import MusBot

log = logging.getLogger(__name__)


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
        """Abre una mesa en este canal o hilo (si ya hay una, vuelve a mostrarla).

        Lo que no se indique sale de la configuración del servidor (/musadmin config)."""
        channel_id = ctx.channel.id
        current = self.bot.tables.get(channel_id)
        if current is not None:
            if await self.bot.awake_table(current):
                # Scrolled away or deleted: shown again at the bottom, edited from now on.
                self.bot.transport.repost(channel_id)
            await self._done(ctx, current.lang, "table_shown")
            return
        if not self.bot.storage_ready:
            # Its moves could not be saved: it would play unsaved, and a restart would bring
            # back the table saved here before over it.
            raise TableError("storage_down")
        self._check_channel(ctx)
        settings = await self._server_settings(ctx)
        given = {"puntos": puntos, "reyes": reyes, "juegos": juegos, "vacas": vacas,
                 "real": real, "mus_corrido": corrido, "senas": senas, "jugadores": jugadores}
        changes: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
        try:  # the engine's defaults follow what was chosen (§8: trios play to 50)
            rules = settings.rules.with_(**changes)
        except InvalidRules as problem:
            raise TableError("bad_rules", error=problem) from None
        table = self.bot.tables.open(channel_id, settings.with_(rules=rules),
                                     guild_id=ctx.guild.id if ctx.guild else None,
                                     opener_id=ctx.author.id)
        self.bot.transport.bind(channel_id, ctx.channel)
        table.show()
        await self._done(ctx, table.lang, "table_opened")

    def _check_channel(self, ctx: commands.Context[Any]) -> None:
        """A table is opened only where the bot may run it (see ``discordio/access.py``): the
        interaction says what the bot may do there, else the gateway's cache."""
        interaction = ctx.interaction
        permissions = interaction.app_permissions if interaction is not None else \
            ctx.channel.permissions_for(ctx.me)  # type: ignore[arg-type]
        lacking = self.bot.transport.access.refusal(ctx.channel, permissions,
                                                    lang_of(interaction))
        if lacking is not None:
            raise TableError("bot_cannot_play_here", missing=lacking)

    async def _server_settings(self, ctx: commands.Context[Any]) -> TableSettings:
        """The server's settings for a new table (``/musadmin config``); refused where tables are
        not opened in this channel, or when the server, or the author, has as many tables
        open as it allows. Without a database (tests, demos) the defaults apply, and the
        default limits."""
        db = self.bot.db
        server = ServerSettings()
        if db is not None and ctx.guild is not None:
            server = await db.server_settings(ctx.guild.id)
        if not server.allows(ctx.channel.id, getattr(ctx.channel, "parent_id", None)):
            channels = ", ".join(f"<#{c}>" for c in sorted(server.allowed_channels))
            raise TableError("channel_not_allowed", channels=channels)
        self._check_limits(ctx, server)
        return server.table

    def _check_limits(self, ctx: commands.Context[Any], settings: ServerSettings) -> None:
        """One person opening tables in every channel, or a server full of them: refused past
        the server's limits (``/musadmin config``); who manages the server has no limit of their
        own."""
        if ctx.guild is None:
            return
        here = [t for t in self.bot.tables
                if t.guild_id == ctx.guild.id and t.lifecycle != "closed"]
        if settings.max_tables and len(here) >= settings.max_tables:
            raise TableError("too_many_tables", limit=settings.max_tables)
        own = sum(1 for t in here if t.state.opener_id == ctx.author.id)
        interaction = ctx.interaction
        permissions = interaction.permissions if interaction is not None else \
            getattr(ctx.author, "guild_permissions", discord.Permissions.none())
        manager = bool(permissions.manage_guild)
        if settings.max_tables_per_person and own >= settings.max_tables_per_person \
                and not manager:
            raise TableError("too_many_own_tables", limit=settings.max_tables_per_person)

    @mus.command(name="unirse")
    @commands.guild_only()
    @app_commands.describe(pareja="1 o 2 (por defecto, el primer asiento libre)")
    async def unirse(self, ctx: commands.Context[Any],
                     pareja: Literal[1, 2] | None = None) -> None:
        """Te sienta en la mesa (a media partida, en el asiento de un bot)."""
        name = seat_name(ctx.author)
        pair = pareja - 1 if pareja is not None else None
        await recall(self.bot, ctx.author.id, again=True)  # their DMs in their language
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
        self._table(ctx)  # «no table here» first
        if not self.may_close(ctx, channel_id):
            raise TableError("only_opener")
        await self._step(ctx, lambda _table: self.bot.tables.close(channel_id))

    @mus.command(name="ayuda")
    async def ayuda(self, ctx: commands.Context[Any]) -> None:
        """Cómo se juega aquí."""
        await self._help(ctx)

    @mus.command(name="reglas")
    async def reglas(self, ctx: commands.Context[Any]) -> None:
        """Las variantes de la mesa de este canal."""
        table = self.bot.tables.get(ctx.channel.id)
        await ctx.send(ui.rules_summary(table, self._own(ctx, table)), ephemeral=True)

    # --- helpers ------------------------------------------------------------------------------

    def may_close(self, ctx: commands.Context[Any], channel_id: int) -> bool:
        table = self.bot.tables.get(channel_id)
        if table is not None and table.state.opener_id == ctx.author.id:
            return True
        # Guild-only command: the author is a Member.
        permissions = ctx.channel.permissions_for(ctx.author)  # type: ignore[arg-type]
        return bool(permissions.manage_channels)

    async def _help(self, ctx: commands.Context[Any]) -> None:
        table = self.bot.tables.get(ctx.channel.id)
        await ctx.send(DISCORD("help", self._own(ctx, table)), ephemeral=True)

    def _own(self, ctx: commands.Context[Any], table: Table | None) -> str:
        """The language of an answer to the author alone: theirs, else the table's."""
        return lang_of(ctx.interaction, table.lang if table is not None else None)

    def _table(self, ctx: commands.Context[Any]) -> Table:
        table = self.bot.tables.get(ctx.channel.id)
        if table is None:
            raise TableError("no_table")
        return table

    async def _step(self, ctx: commands.Context[Any],
                    step: Callable[[Table], Awaitable[Any]]) -> None:
        """One table coroutine for this channel, then acknowledged; refusals go up to the one
        error path. Deferred first: a restored table may have to wake up."""
        table = self._table(ctx)
        await ctx.defer(ephemeral=True)
        if not await self.bot.awake_table(table):
            raise TableError("table_restoring")
        await step(table)
        await self._done(ctx, table.lang)

    async def _done(self, ctx: commands.Context[Any], lang: str, key: str = "done") -> None:
        """Acknowledged privately, in the author's language (else ``lang``, the table's)."""
        if ctx.interaction is not None:
            await ctx.send(DISCORD(key, lang_of(ctx.interaction, lang)), ephemeral=True)
        else:  # a typed «!mus …»: a short reply that deletes itself, within the budget
            await self.bot.transport.say_briefly(
                ctx.channel.id, DISCORD(key, person_lang(self.bot, ctx.author.id, lang)),
                reference=ctx.message, author=ctx.author.id)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Mesa(bot))
