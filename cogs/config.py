"""``/musadmin config``: the server's defaults for new tables (Manage Server).

Every variant of docs/rules.md, the turn timer, the language, the channels that may host tables,
how many tables may be open at once (in the server, and opened by one person), and after how
long a table where nothing happens closes.
Settings apply to tables opened afterwards: a table keeps the rules it started with (and shows
them in its status). Without options the command shows the current settings. What is refused
(impossible rules, a turn time out of range) is answered by the bot's one error path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from musbot.discordio.locales import lang_of
from musbot.engine import InvalidRules
from musbot.i18n import LANGUAGE_NAMES, SERVER
from musbot.settings import InvalidSettings
from musbot.storage.models import MAX_IDLE_MINUTES, MAX_TABLES, ServerSettings
from musbot.table.render import count

from ._common import (
    MusSubcommandCog,
    add_to_admin,
    answer,
    manages_server,
    own_lang,
    remove_from_admin,
)

if TYPE_CHECKING:
    from musbot.bot import MusBot



@dataclass(frozen=True, slots=True)
class OpenLimits:
    """The limits ``/musadmin config`` was given (None: unchanged): open tables in the server, per
    person, and the minutes after which an idle table closes."""

    server: int | None = None
    person: int | None = None
    idle: int | None = None

    def given(self) -> bool:
        return any(x is not None for x in (self.server, self.person, self.idle))


def settings_text(settings: ServerSettings, lang: str = "es") -> str:
    table = settings.table
    rules = table.rules
    yes_no = {True: SERVER("yes", lang), False: SERVER("no", lang)}
    channels = ", ".join(f"<#{c}>" for c in sorted(settings.allowed_channels)) or \
        SERVER("config_all_channels", lang)
    timer = SERVER("config_timer", lang, seconds=table.turn_seconds) \
        if table.turn_seconds is not None else SERVER("config_timer_off", lang)
    return "\n".join([
        SERVER("config_title", lang),
        SERVER("config_rules", lang, reyes=rules.reyes, puntos=rules.puntos,
               juegos=count("juegos", rules.juegos, lang), vacas=count("vacas", rules.vacas, lang),
               real=yes_no[rules.real], corrido=yes_no[rules.mus_corrido],
               senas=yes_no[rules.senas], cazada=round(rules.sena_cazada * 100)),
        timer,
        SERVER("config_language", lang, language=LANGUAGE_NAMES.get(table.language,
                                                                     table.language)),
        SERVER("config_channels", lang, channels=channels),
        SERVER("config_limits", lang,
               server=settings.max_tables or SERVER("config_no_limit", lang),
               person=settings.max_tables_per_person or SERVER("config_no_limit", lang),
               idle=SERVER("config_idle", lang, minutes=settings.idle_minutes)
               if settings.idle_minutes else SERVER("config_idle_never", lang)),
    ])


class ServerConfig(MusSubcommandCog):
    """Per-server settings; the command lives in the ``/musadmin`` group (Manage Server), which
    members do not see."""

    def __init__(self, bot: MusBot) -> None:
        super().__init__(bot)

        async def config(
            interaction: discord.Interaction[Any],
            reyes: Literal[4, 8] | None = None,
            puntos: app_commands.Range[int, 5, 100] | None = None,
            juegos: app_commands.Range[int, 1, 9] | None = None,
            vacas: app_commands.Range[int, 1, 5] | None = None,
            real: bool | None = None,
            corrido: bool | None = None,
            senas: bool | None = None,
            sena_cazada: app_commands.Range[int, 0, 100] | None = None,
            tiempo: app_commands.Range[int, 0, 600] | None = None,
            idioma: Literal["es", "eu", "fr", "en"] | None = None,
            permitir_canal: discord.TextChannel | None = None,
            quitar_canal: discord.TextChannel | None = None,
            todos_los_canales: bool | None = None,
            mesas_servidor: app_commands.Range[int, 0, MAX_TABLES] | None = None,
            mesas_persona: app_commands.Range[int, 0, MAX_TABLES] | None = None,
            inactividad: app_commands.Range[int, 0, MAX_IDLE_MINUTES] | None = None,
        ) -> None:
            rules = {"reyes": reyes, "puntos": puntos, "juegos": juegos, "vacas": vacas,
                     "real": real, "mus_corrido": corrido, "senas": senas,
                     "sena_cazada": None if sena_cazada is None else sena_cazada / 100}
            await self.configure(
                interaction, rules={k: v for k, v in rules.items() if v is not None},
                tiempo=tiempo, idioma=idioma,
                allow=permitir_canal.id if permitir_canal is not None else None,
                disallow=quitar_canal.id if quitar_canal is not None else None,
                all_channels=bool(todos_los_canales),
                limits=OpenLimits(mesas_servidor, mesas_persona, inactividad))

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="config", description="Reglas, tiempo, idioma y canales de las mesas nuevas "
                                       "(Gestionar servidor)", callback=config)
        app_commands.describe(
            reyes="4 u 8 reyes", puntos="tantos por juego", juegos="juegos por vaca",
            vacas="vacas por partida", real="la real (7-7-7-sota)", corrido="mus corrido",
            senas="se permiten señas", sena_cazada="probabilidad (%) de que un rival vea una seña",
            tiempo="segundos por turno (0: sin límite; si no, de 15 a 600)",
            idioma="idioma del bot en este servidor", permitir_canal="añade un canal para mesas",
            quitar_canal="quita un canal de la lista",
            todos_los_canales="mesas en cualquier canal (vacía la lista)",
            mesas_servidor="mesas abiertas a la vez en el servidor (0: sin límite)",
            mesas_persona="mesas abiertas por una misma persona (0: sin límite)",
            inactividad="minutos sin actividad tras los que se cierra una mesa (0: nunca)",
        )(self.command)

    async def cog_load(self) -> None:
        add_to_admin(self.bot, (self.command,))

    async def cog_unload(self) -> None:
        remove_from_admin(self.bot, (self.command.name,))

    async def configure(self, interaction: discord.Interaction[Any], *,
                        rules: dict[str, Any] | None = None, tiempo: int | None = None,
                        idioma: str | None = None, allow: int | None = None,
                        disallow: int | None = None, all_channels: bool = False,
                        limits: OpenLimits | None = None) -> None:
        """Shows the settings, or changes them and shows the result; always privately.
        Deferred first: saving may wait for another process's lock on the database (up to 5 s),
        longer than Discord waits for an answer."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id = interaction.guild_id
        lang = await own_lang(self.bot.db, interaction)  # every answer here is private
        if guild_id is None:
            await answer(interaction, SERVER("guild_only", lang))
            return
        if not manages_server(interaction):
            await answer(interaction, SERVER("need_manage_guild", lang))
            return
        db = self.db
        settings = await db.server_settings(guild_id)
        limits = limits or OpenLimits()
        changed = bool(rules) or any(x is not None for x in (tiempo, idioma, allow,
                                                              disallow)) or all_channels \
            or limits.given()
        if changed:
            settings = changed_settings(settings, rules or {}, tiempo, idioma, allow, disallow,
                                        all_channels, limits)
            await db.save_server_settings(guild_id, settings)
            lang = lang_of(interaction, settings.table.language)  # the new one, if not theirs
        text = settings_text(settings, lang)
        if changed:
            text = SERVER("config_saved", lang) + "\n" + text
        await answer(interaction, text)



def changed_settings(settings: ServerSettings, rules: dict[str, Any], tiempo: int | None,
                     idioma: str | None, allow: int | None, disallow: int | None,
                     all_channels: bool, limits: OpenLimits) -> ServerSettings:
    """The new settings; refused (:class:`InvalidSettings`, nothing saved) when impossible.
    ``tiempo`` 0 is no turn clock."""
    table = settings.table
    try:
        changes: dict[str, Any] = {"rules": table.rules.with_(**rules)} if rules else {}
    except InvalidRules as problem:
        raise InvalidSettings("bad_rules", error=problem) from None
    if tiempo is not None:
        changes["turn_seconds"] = tiempo or None
    if idioma is not None:
        changes["language"] = idioma
    channels = set() if all_channels else set(settings.allowed_channels)
    if allow is not None:
        channels.add(allow)
    if disallow is not None:
        channels.discard(disallow)
    return ServerSettings(
        table=table.with_(**changes), allowed_channels=frozenset(channels),
        max_tables=settings.max_tables if limits.server is None else limits.server,
        max_tables_per_person=settings.max_tables_per_person if limits.person is None
        else limits.person,
        idle_minutes=settings.idle_minutes if limits.idle is None else limits.idle,
        extra=settings.extra)


async def setup(bot: MusBot) -> None:
    await bot.add_cog(ServerConfig(bot))
