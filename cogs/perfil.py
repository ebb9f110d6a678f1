"""``/mus perfil [usuario] [liga] [publico]``: a player's record, and their rating over the season
as a PNG when a league is known (given, or the first of the server's leagues they belong to).

Private by default (``publico`` shares it with the channel). A refusal (an unknown league, the
database) is always private: the records are read before answering. Drawing the chart takes
about a second of CPU, more on a busy host, so the command defers before drawing it: Discord
drops an interaction not answered within 3 s.

Counts take the form their number asks for in each language («1 partida», «2 partidas»; French
«0 perdue»): the catalogue's plural entries, one per counted thing. A rating is followed by one
small line saying what it is (OpenSkill, from 1000, not league points; a match with a bot at the
table does not change it), and the chart (``storage/chart.py``) reads on Discord's dark theme
and on its light one.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from musbot.discordio.markup import NO_MENTIONS, plain
from musbot.i18n import SERVER, TXAPELKETA
from musbot.storage import (
    ChartUnavailable,
    League,
    Profile,
    StorageError,
    UnknownLeague,
)

from ._common import MusSubcommandCog, answer, own_lang, server_lang

if TYPE_CHECKING:
    from musbot.bot import MusBot

CHART_FILE = "nivel.png"
RATING_NOTE_MARK = "-# "
"""Discord's small grey line: what a rating is, under the figures."""


class Perfil(MusSubcommandCog):
    """Player profiles; the command lives in the ``/mus`` group of the table cog."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def perfil(interaction: discord.Interaction[Any],
                         usuario: discord.User | None = None, liga: str | None = None,
                         publico: bool = False) -> None:
            await self.perfil(interaction, usuario, liga, publico)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="perfil", description="Partidas, victorias, pareja favorita, órdagos y nivel",
            callback=perfil)
        app_commands.describe(usuario="de quién (tú si no se dice)",
                              liga="la liga del nivel y la gráfica",
                              publico="enseñarlo en el canal")(self.command)

    async def perfil(self, interaction: discord.Interaction[Any], usuario: discord.User | None,
                     liga: str | None, publico: bool) -> None:
        guild_id = interaction.guild_id
        lang = await server_lang(self.bot.db, guild_id) if publico else \
            await own_lang(self.bot.db, interaction)
        user = usuario or interaction.user
        try:
            league = await self._league(guild_id, user.id, liga)
            profile = await self.db.player_profile(
                user.id, league_id=league.league_id if league is not None else None)
        except UnknownLeague:
            await answer(interaction, SERVER("unknown_league", lang, name=liga,
                                             leagues=await self._league_names(guild_id, lang)))
            return
        text = profile_text(profile, user.display_name, league, lang)
        pairs = await self.db.pairs_of(guild_id, user.id) if guild_id is not None else []
        if pairs:
            anonymous = TXAPELKETA("anonymous", lang)
            text += "\n" + TXAPELKETA("profile_pairs", lang, pairs=", ".join(
                TXAPELKETA("profile_pair", lang, name=plain(name or anonymous),
                           rating=rating.rating, matches=rating.matches)
                for name, rating in pairs))
        if pairs or (league is not None and profile.rating is not None):
            text += "\n" + RATING_NOTE_MARK + SERVER("rating_note", lang)
        extra: dict[str, Any] = {}
        if league is not None and profile.rating is not None:
            await interaction.response.defer(ephemeral=not publico, thinking=True)
            chart = await self._chart(user.id, league, lang)
            if chart is not None:
                extra["file"] = discord.File(io.BytesIO(chart), filename=CHART_FILE)
        await answer(interaction, text, ephemeral=not publico, allowed_mentions=NO_MENTIONS,
                     **extra)

    async def _league(self, guild_id: int | None, user_id: int,
                      name: str | None) -> League | None:
        db = self.db
        if guild_id is None:
            return None
        if name:
            return await db.get_league(guild_id, name)
        for league in await db.leagues(guild_id):
            if user_id in await db.league_members(league.league_id):
                return league
        return None

    async def _league_names(self, guild_id: int | None, lang: str) -> str:
        try:
            leagues = await self.db.leagues(guild_id) if guild_id is not None else []
        except StorageError:
            leagues = []
        return ", ".join(lg.name for lg in leagues) or SERVER("no_leagues", lang)

    async def _chart(self, user_id: int, league: League, lang: str) -> bytes | None:
        """The PNG, or None when it cannot be drawn (no matplotlib): the text is enough."""
        try:
            return await self.db.rating_chart(user_id, league.league_id, lang=lang)
        except (ChartUnavailable, StorageError):
            return None


def profile_text(profile: Profile, display_name: str, league: League | None,
                 lang: str = "es") -> str:
    """The record as a message; the names in it (people's, the league's) shown as typed."""
    name = plain(profile.name or display_name)
    title = SERVER("profile_title", lang, name=name,
                   league=SERVER("profile_league", lang, name=plain(league.name)) if league else "")
    if not profile.matches:
        return title + "\n" + SERVER("profile_nothing", lang, name=name)
    rate = "" if profile.win_rate is None else SERVER("profile_rate", lang, rate=profile.win_rate)
    partner = profile.favourite_partner
    lines = [
        title,
        SERVER("profile_matches", lang, matches=profile.matches,
               won=SERVER("won_n", lang, n=profile.won),
               lost=SERVER("lost_n", lang, n=profile.lost), rate=rate),
        SERVER("profile_partner", lang, name=plain(partner.name) if partner.name else
               SERVER("unnamed", lang), matches=SERVER("matches_n", lang, n=partner.matches),
               won=SERVER("won_n", lang, n=partner.won)) if partner is not None
        else SERVER("profile_no_partner", lang),
        SERVER("profile_ordagos", lang, won=SERVER("ordagos_won_n", lang, n=profile.ordagos_won),
               lost=SERVER("ordagos_lost_n", lang, n=profile.ordagos_lost)),
    ]
    if league is not None:
        lines.append(SERVER("profile_rating", lang, rating=profile.rating)
                     if profile.rating is not None else SERVER("profile_unrated", lang))
    return "\n".join(lines)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Perfil(bot))
