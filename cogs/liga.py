"""``/liga …``: leagues with seasons, standings, recent results, and league tables.

Thin: each command is one storage (or table) call, worded through i18n. Creating a league and
opening a season are for people with Manage Server: they are ``/musadmin liga crear`` and
``/musadmin liga temporada``, in the group members do not see (Discord's default permissions
apply to a whole top-level command), and checked in the command as well. The answers that only
concern the author (errors, «you joined») are ephemeral; the league's news and tables are public.
``/liga`` exists only in servers: Discord does not offer it in DMs.

A write may wait for another process's lock on the database file (up to its ``busy_timeout``,
5 s) and Discord drops an interaction not answered within 3 s, so each command that writes
defers first, privately: a refusal found by the write (the name is taken, the database is busy)
stays private, and the news of a change follows in a public message of its own. Reads are
answered directly (in WAL mode no lock blocks them). Public texts hold names people chose: they
are shown as typed (``markup.plain``), never mention anyone, and long ones are cut to what a
message holds.

The standings are an embed read on a phone as well as on a desktop: Discord shows a phone about
34 characters of an embed's line, so each player takes two short lines (rank and name; rating,
matches and wins) rather than one row of a wide table, :data:`PAGE_ROWS` players a page. The
figure is a rating (OpenSkill, ``storage/ratings.py``), not league points, and the footer says
so, and that a match with a bot at the table leaves it as it was.

A table counts for a league when it is marked with ``/liga mesa <nombre>`` before its match
starts (by someone seated there, or who manages the server); ``/liga mesa`` alone makes it a
friendly table again. Its players then become members, its results enter the season's table,
and, when every seat is a person, the ratings change (storage decides that).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from musbot.discordio.locales import lang_of
from musbot.discordio.markup import plain
from musbot.discordio.texts import MESSAGE_LIMIT
from musbot.engine import MusError
from musbot.i18n import DISCORD, SERVER
from musbot.storage import (
    AlreadyMember,
    Database,
    League,
    LeagueExists,
    MatchSummary,
    SeatResult,
    Standing,
    StorageError,
    UnknownLeague,
    UnknownSeason,
)
from musbot.words import normalise, visible_name

from ._common import (
    add_to_admin,
    answer,
    bot_database,
    manages_server,
    remove_from_admin,
    server_lang,
)

if TYPE_CHECKING:
    from musbot.bot import MusBot

ADMIN_SUB: Final = "liga"
"""``/musadmin liga``: creating a league and opening its next season."""

RESULTS = 10
NAME_MAX = 50
"""A new league's name at most: it fits in every sentence, in the standings' title and in an
autocomplete choice."""
LOOKUP_MAX = 100
"""A league name typed to find one: what an autocomplete choice can hold."""
NO_MENTIONS = discord.AllowedMentions.none()
PAGE_ROWS = 20
"""Players on one page of the standings: 40 short lines, a phone's screen and a half, and far
within an embed's description (each player takes at most about 110 characters)."""
LINE_WIDTH = 32
"""Columns a name's line takes at most (escapes and bold marks aside): a phone shows about 34
of an embed description's line before it wraps. The figures' line is not cut: it stays within
34 in every language up to 999 matches (``tests/test_cogs_liga.py``)."""
BOLD_WIDER = 3
"""Columns a bold line gives up: its letters are wider (a name of 32 bold columns wraps)."""
STANDINGS_COLOUR = discord.Colour.teal()

NewName = app_commands.Range[str, 1, NAME_MAX]
LeagueName = app_commands.Range[str, 1, LOOKUP_MAX]


@app_commands.guild_only()
class Liga(commands.GroupCog, group_name="liga", group_description="Ligas de mus"):
    """Leagues of one server."""

    def __init__(self, bot: MusBot) -> None:
        self.bot = bot
        super().__init__()

        async def crear(interaction: discord.Interaction[Any], nombre: NewName) -> None:
            await self.create(interaction, nombre)

        async def temporada(interaction: discord.Interaction[Any], nombre: LeagueName) -> None:
            await self.new_season(interaction, nombre)

        async def league_names(interaction: discord.Interaction[Any],
                               current: str) -> list[app_commands.Choice[str]]:
            return await self._league_names(interaction, current)

        self.admin: tuple[app_commands.Command[Any, ..., None], ...] = (
            app_commands.Command(name="crear", description="Crea una liga", callback=crear),
            app_commands.Command(name="temporada", description="Cierra la temporada de una "
                                 "liga y abre la siguiente", callback=temporada))
        for command in self.admin:
            app_commands.describe(nombre="nombre de la liga")(command)
        self.admin[1].autocomplete("nombre")(league_names)

    async def cog_load(self) -> None:
        add_to_admin(self.bot, self.admin, ADMIN_SUB, "Ligas: crear una, abrir su temporada "
                                                      "siguiente")

    async def cog_unload(self) -> None:
        remove_from_admin(self.bot, tuple(c.name for c in self.admin), ADMIN_SUB)

    @property
    def db(self) -> Database:
        """The bot's database; :class:`DatabaseClosed` (answered like any storage failure) when
        it could not be opened at start-up."""
        return bot_database(self.bot)

    # --- commands -----------------------------------------------------------------------------

    async def create(self, interaction: discord.Interaction[Any], nombre: str) -> None:
        """``/musadmin liga crear``."""
        lang = await self._start(interaction, admin=True)
        if lang is None:
            return
        assert interaction.guild_id is not None
        if not nombre.strip():
            await answer(interaction, SERVER("league_bad_name", lang_of(interaction, lang)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            league = await self.db.create_league(interaction.guild_id, nombre,
                                                     interaction.user.id)
        except LeagueExists:
            await answer(interaction, SERVER("league_exists", lang_of(interaction, lang),
                                             name=plain(nombre)))
            return
        except ValueError:
            await answer(interaction, SERVER("league_bad_name", lang_of(interaction, lang)))
            return
        await announce(interaction, SERVER("league_created", lang, name=plain(league.name)), lang)

    @app_commands.command(name="unirse", description="Te apunta a una liga")
    @app_commands.describe(nombre="nombre de la liga")
    async def unirse(self, interaction: discord.Interaction[Any], nombre: LeagueName) -> None:
        lang = await self._start(interaction)
        if lang is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        league = await self._league(interaction, nombre, lang)
        if league is None:
            return
        user = interaction.user
        try:
            await self.db.join_league(league.league_id, user.id, user.display_name)
        except AlreadyMember:
            await answer(interaction, SERVER("already_member", lang_of(interaction, lang),
                                             name=plain(league.name)))
            return
        await answer(interaction, SERVER("league_joined", lang_of(interaction, lang),
                                         name=plain(league.name)))

    async def new_season(self, interaction: discord.Interaction[Any], nombre: str) -> None:
        """``/musadmin liga temporada``: closes the current season and opens the next."""
        lang = await self._start(interaction, admin=True)
        if lang is None:
            return
        league = await self._league(interaction, nombre, lang)
        if league is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        season = await self.db.new_season(league.league_id)
        await announce(interaction, SERVER("season_new", lang, name=plain(league.name),
                                           old=league.season.number, new=season.number), lang)

    @app_commands.command(name="tabla", description="La clasificación de una temporada")
    @app_commands.describe(nombre="nombre de la liga",
                           temporada="número de temporada (la actual si no se dice)",
                           pagina="página de la tabla, de 20 en 20 (la primera si no se dice)")
    async def tabla(self, interaction: discord.Interaction[Any], nombre: LeagueName,
                    temporada: app_commands.Range[int, 1] | None = None,
                    pagina: app_commands.Range[int, 1] | None = None) -> None:
        lang = await self._start(interaction)
        if lang is None:
            return
        league = await self._league(interaction, nombre, lang)
        if league is None:
            return
        try:
            seasons = {s.number: s for s in await self.db.seasons(league.league_id)}
            season = seasons.get(temporada or league.season.number)
            if season is None:
                raise UnknownSeason(league.league_id, temporada or 0)
            rows = await self.db.standings(league.league_id, season.number)
        except UnknownSeason:
            await answer(interaction, SERVER("unknown_season", lang_of(interaction, lang),
                                             name=plain(league.name), season=temporada))
            return
        title = SERVER("standings_title", lang, name=plain(league.name), season=season.number,
                       closed="" if season.is_open else SERVER("standings_closed", lang))
        await interaction.response.send_message(
            embed=standings_embed(rows, title, lang, page=pagina or 1),
            allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="partidas", description="Los últimos resultados de una liga")
    @app_commands.describe(nombre="nombre de la liga")
    async def partidas(self, interaction: discord.Interaction[Any], nombre: LeagueName) -> None:
        lang = await self._start(interaction)
        if lang is None:
            return
        league = await self._league(interaction, nombre, lang)
        if league is None:
            return
        results = await self.db.recent_results(league.league_id, limit=RESULTS)
        title = SERVER("results_title", lang, name=plain(league.name))
        lines = [result_line(r, lang) for r in results] or [SERVER("results_empty", lang)]
        text = fitted(lines, lambda shown: "\n".join([title, *shown]), MESSAGE_LIMIT, lang)
        await answer(interaction, text, ephemeral=False, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="mesa", description="La mesa de este canal cuenta para una liga "
                                                   "(sin nombre: amistosa)")
    @app_commands.describe(nombre="nombre de la liga; vacío para una mesa amistosa")
    async def mesa(self, interaction: discord.Interaction[Any],
                   nombre: LeagueName | None = None) -> None:
        lang = await self._start(interaction)
        if lang is None:
            return
        table = self.bot.tables.get(interaction.channel_id or 0)
        if table is None:
            await answer(interaction, SERVER("no_table", lang_of(interaction, lang)))
            return
        if table.seat_of(interaction.user.id) is None and not manages_server(interaction):
            await answer(interaction, SERVER("table_not_yours", lang_of(interaction, lang)))
            return
        league = None
        if nombre:
            league = await self._league(interaction, nombre, lang)
            if league is None:
                return
        await interaction.response.defer(ephemeral=True, thinking=True)  # the table is saved
        try:
            await table.set_league(league.league_id if league is not None else None)
        except MusError:
            await answer(interaction, SERVER("table_started", lang_of(interaction, lang)))
            return
        text = SERVER("table_league", lang, name=plain(league.name)) if league is not None else \
            SERVER("table_friendly", lang)
        await announce(interaction, text, lang)

    @unirse.autocomplete("nombre")
    @tabla.autocomplete("nombre")
    @partidas.autocomplete("nombre")
    @mesa.autocomplete("nombre")
    async def _league_names(self, interaction: discord.Interaction[Any],
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        try:
            leagues = await self.db.leagues(interaction.guild_id)
        except StorageError:
            return []
        wanted = normalise(current)  # as names are told apart: «otono» finds «Liga Otoño»
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg in leagues
                if wanted in normalise(lg.name) and len(lg.name) <= LOOKUP_MAX][:25]

    # --- helpers ------------------------------------------------------------------------------

    async def _start(self, interaction: discord.Interaction[Any], *,
                     admin: bool = False) -> str | None:
        """The server's language, or None after refusing (not in a server, not an admin)."""
        lang = await server_lang(self.bot.db, interaction.guild_id)
        if interaction.guild_id is None:
            await answer(interaction, SERVER("guild_only", lang_of(interaction, lang)))
            return None
        if admin and not manages_server(interaction):
            await answer(interaction, SERVER("need_manage_guild", lang_of(interaction, lang)))
            return None
        return lang

    async def _league(self, interaction: discord.Interaction[Any], name: str,
                      lang: str) -> League | None:
        """The league by name, or None after telling the author which ones exist."""
        assert interaction.guild_id is not None
        try:
            return await self.db.get_league(interaction.guild_id, name)
        except UnknownLeague:
            try:
                known = [lg.name for lg in await self.db.leagues(interaction.guild_id)]
            except StorageError:
                known = []
            mine = lang_of(interaction, lang)
            leagues = ", ".join(known) or SERVER("no_leagues", mine)
            await answer(interaction, SERVER("unknown_league", mine, name=name, leagues=leagues))
        return None


async def announce(interaction: discord.Interaction[Any], text: str, lang: str) -> None:
    """A change's news for the channel, after a private deferral: the first answer after a
    deferral keeps the deferral's privacy, so it says the command is done, and the news is a
    public message of its own."""
    await interaction.followup.send(DISCORD("done", lang_of(interaction, lang)), ephemeral=True)
    await interaction.followup.send(text, allowed_mentions=NO_MENTIONS)


def fitted(lines: list[str], render: Callable[[list[str]], str], room: int,
           lang: str = "es") -> str:
    """``render(lines)`` if it fits in ``room`` characters; else the most lines that fit,
    followed by how many were left out."""
    text = render(lines)
    shown = len(lines)
    while len(text) > room and shown > 0:
        shown -= 1
        text = render(lines[:shown]) + "\n" + SERVER("more_rows", lang, count=len(lines) - shown)
    return text


def standings_embed(rows: Sequence[Standing], title: str, lang: str = "es", *,
                    page: int = 1) -> discord.Embed:
    """One page of the season's table (the last one if ``page`` is past it): for each player,
    their rank and name, then their rating, matches and wins (:func:`standing_lines`); the
    rated first, by rating, then under a heading of their own the members without one yet. The
    footer says what the figure is, and which page this is of how many."""
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    page = min(max(page, 1), pages)
    first = (page - 1) * PAGE_ROWS
    shown = rows[first:first + PAGE_ROWS]
    lines: list[str] = []
    for i, row in enumerate(shown):
        if row.rating is None and (i == 0 or shown[i - 1].rating is not None):
            lines.append(f"*{SERVER('standings_unrated', lang)}*")
        lines += standing_lines(None if row.rating is None else first + i + 1, row, lang)
    footer = SERVER("rating_note", lang)
    if pages > 1:
        footer += "\n" + SERVER("standings_page", lang, page=page, pages=pages)
    embed = discord.Embed(title=title, colour=STANDINGS_COLOUR,
                          description="\n".join(lines) or SERVER("standings_empty", lang))
    return embed.set_footer(text=footer)


def standing_lines(rank: int | None, row: Standing, lang: str = "es") -> list[str]:
    """A player's two lines: «**3. Name**» (no rank without a rating) and «1210 · 5 partidas,
    4 ganadas». The name is shown as typed, cut with «…» to what the line holds
    (:data:`LINE_WIDTH`)."""
    prefix = "" if rank is None else f"{rank}. "
    unnamed = SERVER("unnamed", lang)
    name = visible_name(row.name or unnamed, LINE_WIDTH - BOLD_WIDER - len(prefix), unnamed)
    record = SERVER("matches_n", lang, n=row.played)
    if row.played:
        record += ", " + SERVER("won_n", lang, n=row.won)
    figures = record if row.rating is None else f"{row.rating} · {record}"
    return [f"**{prefix}{plain(name)}**", figures]


def seat_label(seat: SeatResult, lang: str = "es") -> str:
    if seat.kind == "bot":
        return SERVER("bot_seat", lang)
    return plain(seat.name) if seat.name else SERVER("unnamed", lang)


def result_line(result: MatchSummary, lang: str = "es") -> str:
    won = result.winner_team
    winners = [seat_label(s, lang) for s in result.seats if s.team == won]
    losers = [seat_label(s, lang) for s in result.seats if s.team != won]
    return SERVER("result_line", lang, date=result.ended_at.strftime("%d/%m/%Y"),
                  winners=" y ".join(winners) if lang == "es" else " & ".join(winners),
                  losers=" y ".join(losers) if lang == "es" else " & ".join(losers),
                  games=f"{result.games[won]}–{result.games[1 - won]}",
                  tantos=f"{result.tantos[won]}–{result.tantos[1 - won]}",
                  rated=SERVER("result_rated", lang) if result.rated else "")


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Liga(bot))
