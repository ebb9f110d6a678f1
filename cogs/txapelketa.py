"""``/txapelketa …`` and ``/musadmin txapelketa …``: tournaments of pairs, from sign-up to
champions.

Thin: each command is one call to the bot's :class:`~musbot.tournament.live.TournamentRunner` (which
saves the change, opens the match tables in threads and tells the news) worded through i18n.
The players' commands are ``/txapelketa …``. Creating, drawing and everything that decides for
others (a result, a replay, a disqualification, cancelling) are the organiser's, in
``/musadmin txapelketa …`` (hidden from members by the group's default permission, Manage
Server, and checked in each command all the same: an admin may show the group to anyone).
Refusals are the tournament's own error codes,
answered privately by the one error path; news are public, names in them plain text, and a
message notifies only the people it calls (the partner asked to confirm, the champions).
Public messages speak the server's language; private answers the person's own
(``musbot.discordio.locales.lang_of``), as everywhere in the bot.

A tournament is found by its name (``nombre``), or, without one, as the server's only
tournament taking sign-ups or in play.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from musbot.discordio.failures import guarded
from musbot.discordio.locales import lang_of
from musbot.discordio.markup import NO_MENTIONS, mentioning, plain, seat_name
from musbot.discordio.texts import MESSAGE_LIMIT
from musbot.discordio.venue import (
    DeadlineChoice,
    DiscordVenue,
    NewPlace,
    ResultAnswer,
    bracket_messages,
    notifying,
    stamped,
)
from musbot.engine import Rules
from musbot.i18n import TXAPELKETA
from musbot.storage import StorageError, TournamentExists
from musbot.tournament import (
    AtDeadline,
    EventKind,
    Format,
    KnockoutDraw,
    Lateness,
    Reporting,
    Seeding,
    Settings,
    Stage,
    Tournament,
    TournamentEvent,
)
from musbot.tournament.clock import MORE_TIME
from musbot.tournament.labels import Words
from musbot.tournament.live import LEFT, WHEN, Cup, TournamentRunner, zone_of

from ._common import (
    admin_group,
    answer,
    bot_database,
    manages_server,
    remove_from_admin,
    server_lang,
)

if TYPE_CHECKING:
    from musbot.bot import MusBot

PHASE_KEYS = {Stage.SIGNUP: "phase_signup", Stage.RUNNING: "phase_running",
              Stage.FINISHED: "phase_finished", Stage.CANCELLED: "phase_cancelled"}
"""A tournament's phase in the catalogue (``TXAPELKETA.phase_…``)."""
NameOption = app_commands.Range[str, 1, 100]
REPORT_ABOUT = "Da el resultado de tu partida jugada en una mesa real"
"""``/txapelketa resultado`` (``résultat``, ``result`` in French and English clients; one name
per command: Discord has no Basque locale, and a second command named ``emaitza`` would list the
same command twice in every menu)."""
REPORT_OPTIONS = {"juegos": "tus juegos y los de la otra pareja, como 3-1",
                  "partida": "la partida (sin ella, la tuya de ahora)",
                  "nombre": "nombre del torneo"}
ADMIN_SUB = "txapelketa"
"""``/musadmin txapelketa …``: the organiser's commands."""

log = logging.getLogger(__name__)


class TournamentMissing(Exception):
    """No tournament by that name (or none, or several, without a name)."""


@app_commands.guild_only()
class Txapelketa(commands.GroupCog, group_name="txapelketa",
                 group_description="Txapelketak: torneos de parejas"):
    """A server's tournaments."""

    def __init__(self, bot: MusBot) -> None:
        self.bot = bot
        self.organiser = self._organiser_commands()
        """``/musadmin txapelketa …``: what the organiser decides."""
        super().__init__()

    @property
    def runner(self) -> TournamentRunner:
        """The bot's runner (built by the bot with its other services, once its database is
        open; a closed one is refused like any storage failure)."""
        return self.bot.tournaments

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(NewPlace, ResultAnswer, DeadlineChoice)
        group = admin_group(self.bot, ADMIN_SUB, "Organiza los torneos de parejas")
        for command in self.organiser:
            group.add_command(command)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(NewPlace, ResultAnswer, DeadlineChoice)
        remove_from_admin(self.bot, tuple(c.name for c in self.organiser), ADMIN_SUB)

    async def new_place(self, interaction: discord.Interaction[Any], tournament_id: int,
                        match_id: str) -> None:
        """«Mesa nueva» under a paused match's news: the organiser's, as ``repetir``."""

        async def work() -> None:
            found = await self._button_cup(interaction, tournament_id, admin=True)
            if found is None:
                return
            cup, lang = found
            await self._organise(interaction, cup, lang,
                                 lambda t, now: t.replay(match_id, now=now))

        await guarded(interaction, interaction.channel_id, work)

    async def _button_cup(self, interaction: discord.Interaction[Any], tournament_id: int, *,
                          admin: bool = False) -> tuple[Cup, str] | None:
        """The tournament a persistent button names, with the server's language; None after
        refusing (not a server, not the organiser where ``admin``, or a tournament that is gone
        or another server's)."""
        lang = await self._start(interaction, admin=admin)
        if lang is None:
            return None
        runner = self.runner
        await runner.start()
        cup = runner.cups.get(tournament_id)
        if cup is None or cup.guild_id != interaction.guild_id:
            await answer(interaction, TXAPELKETA("which", lang_of(interaction, lang)))
            return None
        return cup, lang

    async def answer_report(self, interaction: discord.Interaction[Any], tournament_id: int,
                            match_id: str, number: int, agree: bool) -> None:
        """«Confirmar» / «No es así» under a reported result: the other pair's answer; the
        tournament refuses anyone else (one private sentence)."""

        async def work() -> None:
            found = await self._button_cup(interaction, tournament_id)
            if found is None:
                return
            cup, lang = found
            runner, own = self.runner, lang_of(interaction, lang)
            user = interaction.user.id
            await interaction.response.defer(ephemeral=True, thinking=True)
            if agree:
                await runner.change(cup, lambda t, now: t.confirm(match_id, user, number,
                                                                  now=now))
                await answer(interaction, TXAPELKETA("done", own))
            else:
                await runner.change(cup, lambda t, now: t.dispute(match_id, user, number,
                                                                  now=now))
                await answer(interaction, TXAPELKETA("organiser_told", own))

        await guarded(interaction, interaction.channel_id, work)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Carries on the tournaments once the gateway has delivered their channels."""
        await self._carry_on()

    @commands.Cog.listener()
    async def on_storage_open(self) -> None:
        """The database answered at last (it was down at start-up): the saved tables are
        restored by now, and the tournaments carry on if the gateway is up already."""
        await self._carry_on()

    async def _carry_on(self) -> None:
        """Starts the runner once both the gateway and the database are up (whichever comes
        last calls it); never on a database not open, or down since."""
        if self.bot.db is None or not self.bot.storage_ready or not self.bot.is_ready():
            return
        try:
            await self.runner.start()
        except StorageError as problem:  # down meanwhile: the next command starts it
            log.warning("tournaments not carried on yet: %s", problem)

    # --- the organiser: /musadmin txapelketa … ------------------------------------------

    def _organiser_commands(self) -> list[app_commands.Command[Any, ..., None]]:
        """The organiser's commands, as functions (discord.py reads their parameters), joined
        to ``/musadmin txapelketa`` when the cog loads. Each checks Manage Server itself: the
        group's default permission only hides it, and an admin may show it to anyone."""
        cog = self

        async def sortu(interaction: discord.Interaction[Any], nombre: NameOption,
                        formato: Literal["knockout", "double", "groups", "round_robin",
                                         "swiss"] = "knockout",
                        juegos: app_commands.Range[int, 1, 3] = 3,
                        puntos: app_commands.Range[int, 5, 100] = 40,
                        reyes: Literal[4, 8] = 4,
                        sorteo: Literal["rating", "random"] = "rating",
                        cierre_horas: app_commands.Range[int, 1, 720] | None = None,
                        ronda_minutos: app_commands.Range[int, 5, 10080] = 120,
                        espera_minutos: app_commands.Range[int, 1, 240] = 10,
                        retraso: Literal["match", "game"] = "match",
                        donde: str = Reporting.DISCORD.value,
                        zona: app_commands.Range[str, 1, 60] = "Europe/Madrid",
                        al_plazo: str = AtDeadline.ASK.value,
                        privado: bool = False,
                        grupo: app_commands.Range[int, 3, 8] = 4,
                        pasan: app_commands.Range[int, 1, 7] = 2,
                        cruce: str = KnockoutDraw.CROSSED.value) -> None:
            await cog.create(interaction, nombre, formato, juegos, puntos, reyes, sorteo,
                             cierre_horas, ronda_minutos, espera_minutos, retraso, donde,
                             zona, al_plazo, privado, grupo=grupo, pasan=pasan, cruce=cruce)

        async def sortear(interaction: discord.Interaction[Any],
                          nombre: NameOption | None = None) -> None:
            cup, lang = await cog._cup(interaction, nombre, admin=True)
            if cup is None:
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await cog.runner.draw(cup)
            await answer(interaction, TXAPELKETA("done", lang_of(interaction, lang)))

        async def resultado(interaction: discord.Interaction[Any],
                            partida: app_commands.Range[str, 1, 20],
                            juegos: app_commands.Range[str, 3, 9],
                            nombre: NameOption | None = None) -> None:
            cup, lang = await cog._cup(interaction, nombre, admin=True)
            if cup is None:
                return
            score = _score(juegos)
            if score is None:
                await answer(interaction, TXAPELKETA("bad_score", lang_of(interaction, lang),
                                                     text=juegos))
                return
            await cog._organise(interaction, cup, lang, lambda t, now: t.set_result(
                partida.strip().upper(), score, now=now))

        async def repetir(interaction: discord.Interaction[Any],
                          partida: app_commands.Range[str, 1, 20],
                          nombre: NameOption | None = None) -> None:
            await cog._organise_named(interaction, nombre,
                                      lambda t, now: t.replay(partida.strip().upper(), now=now))

        async def descalificar(interaction: discord.Interaction[Any],
                               pareja: app_commands.Range[int, 1, 4096],
                               motivo: app_commands.Range[str, 1, 200],
                               nombre: NameOption | None = None) -> None:
            await cog._organise_named(interaction, nombre,
                                      lambda t, now: t.disqualify(pareja - 1, motivo, now=now))

        async def cancelar(interaction: discord.Interaction[Any],
                           motivo: app_commands.Range[str, 1, 200],
                           nombre: NameOption | None = None) -> None:
            await cog._organise_named(interaction, nombre,
                                      lambda t, now: t.cancel(motivo, now=now))

        async def plazo(interaction: discord.Interaction[Any],
                        fecha: app_commands.Range[str, 8, 40],
                        partida: app_commands.Range[str, 1, 20] | None = None,
                        ronda: app_commands.Range[int, 1, 100] | None = None,
                        nombre: NameOption | None = None) -> None:
            await cog.set_deadline(interaction, fecha, partida, ronda, nombre)

        made = []
        for callback, about, options in (
                (sortu, "Crea un torneo de parejas (Gestionar servidor)", {
                    "nombre": "nombre del torneo", "formato": "sistema de juego",
                    "juegos": "juegos que ganan una partida (3: al mejor de 5)",
                    "puntos": "tantos por juego (40)", "reyes": "4 u 8 reyes",
                    "sorteo": "por la valoración de las parejas o al azar",
                    "cierre_horas": "horas hasta el cierre de inscripciones (sin él, sorteo "
                                    "a mano)",
                    "ronda_minutos": "tiempo para jugar cada partida",
                    "espera_minutos": "espera antes de perder por no presentarse",
                    "retraso": "qué pierde una pareja que no se presenta",
                    "donde": "dónde se juegan las partidas (en una mesa real, las parejas "
                             "dan el resultado)",
                    "zona": "zona horaria de los plazos (Europe/Madrid)",
                    "al_plazo": "al acabar el plazo o el tiempo de una partida sin resultado",
                    "privado": "hilos de partida solo para sus jugadores y la organización",
                    "grupo": "grupos: parejas por grupo (4)",
                    "pasan": "grupos: parejas de cada grupo que pasan al cuadro final (2)",
                    "cruce": "grupos: cómo se sortea el cuadro final"}),
                (sortear, "Cierra las inscripciones y sortea (Gestionar servidor)",
                 {"nombre": "nombre del torneo"}),
                (resultado, "Pone el resultado de una partida (Gestionar servidor)", {
                    "partida": "la partida, como en el cuadro (W1-2)",
                    "juegos": "juegos de cada pareja, como 3-1", "nombre": "nombre del torneo"}),
                (repetir, "Manda jugar otra vez una partida (Gestionar servidor)", {
                    "partida": "la partida, como en el cuadro (W1-2)",
                    "nombre": "nombre del torneo"}),
                (descalificar, "Descalifica una pareja (Gestionar servidor)", {
                    "pareja": "su número de cabeza de serie en el cuadro",
                    "motivo": "el motivo, que se muestra", "nombre": "nombre del torneo"}),
                (cancelar, "Cancela el torneo (Gestionar servidor)", {
                    "motivo": "el motivo, que se muestra", "nombre": "nombre del torneo"}),
                (plazo, "Pone el plazo de una partida o de una ronda (Gestionar servidor)", {
                    "fecha": "fecha y hora, como 2025-06-10 22:00 (hora del torneo)",
                    "partida": "la partida, como en el cuadro (W1-2)",
                    "ronda": "o la ronda entera (su número)", "nombre": "nombre del torneo"})):
            command: app_commands.Command[Any, ..., None] = app_commands.Command(
                name=callback.__name__, description=about, callback=callback)
            made.append(app_commands.describe(**options)(command))
        app_commands.choices(donde=[
            app_commands.Choice(name="Discord", value=Reporting.DISCORD.value),
            app_commands.Choice(name="mesa real", value=Reporting.TABLE.value),
            app_commands.Choice(name="las dos", value=Reporting.EITHER.value)],
            al_plazo=[
                app_commands.Choice(name="preguntarme", value=AtDeadline.ASK.value),
                app_commands.Choice(name="vale el resultado dado", value=AtDeadline.REPORT.value),
                app_commands.Choice(name="decide el bot (resultado dado, o el marcador)",
                                    value=AtDeadline.DECIDE.value)
            ],
            cruce=[
                app_commands.Choice(name="cruzado: 1.º A – 2.º B, 1.º B – 2.º A…",
                                    value=KnockoutDraw.CROSSED.value),
                app_commands.Choice(name="por la clasificación general",
                                    value=KnockoutDraw.SEEDED.value)])(made[0])
        return made

    async def set_deadline(self, interaction: discord.Interaction[Any], fecha: str,
                           partida: str | None, ronda: int | None, nombre: str | None) -> None:
        """``/musadmin txapelketa plazo``: a match's deadline, or a whole round's."""
        cup, lang = await self._cup(interaction, nombre, admin=True)
        if cup is None:
            return
        own = lang_of(interaction, lang)
        when = _date(fecha, zone_of(cup.tournament.settings.time_zone))
        if when is None:
            await answer(interaction, plain(TXAPELKETA("bad_date", own, text=fecha)))
            return
        if partida is None and ronda is None:
            await answer(interaction, TXAPELKETA("deadline_which", own))
            return
        target: str | int = partida.strip().upper() if partida else int(ronda or 0)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.runner.change(cup, lambda t, now: t.set_deadline(target, when, now=now))
        await answer(interaction,
                     stamped(TXAPELKETA("deadline_set", own, when=WHEN, left=LEFT), when))

    async def answer_deadline(self, interaction: discord.Interaction[Any], tournament_id: int,
                              match_id: str, what: str) -> None:
        """The organiser's tap at a match's deadline passed, or at the time limit of a match
        played on Discord: a walkover (``w0``: the first pair wins, ``w1``: the second), a
        double walkover (``ww``), a day more (``more``), half an hour more (``play``) or the
        table's board as it stands (``board``)."""

        async def work() -> None:
            found = await self._button_cup(interaction, tournament_id, admin=True)
            if found is None:
                return
            cup, lang = found
            runner, own = self.runner, lang_of(interaction, lang)
            await interaction.response.defer(ephemeral=True, thinking=True)
            if what == "board":
                await runner.decide_by_board(cup, match_id)
                await answer(interaction, TXAPELKETA("done", own))
                return

            def decide(t: Tournament, now: datetime) -> list[TournamentEvent]:
                if what == "play":
                    return t.more_time(match_id, now=now)
                if what == "more":
                    deadline = t.deadline_of(t.match(match_id))
                    return t.set_deadline(match_id, max(deadline or now, now) + MORE_TIME,
                                          now=now)
                absent = {"w0": {1}, "w1": {0}}.get(what, {0, 1})
                return t.walkover(match_id, absent, now=now)

            await runner.change(cup, decide)
            await answer(interaction, TXAPELKETA("done", own))

        await guarded(interaction, interaction.channel_id, work)

    async def create(self, interaction: discord.Interaction[Any], nombre: str, formato: str,
                     juegos: int, puntos: int, reyes: int, sorteo: str,
                     cierre_horas: int | None, ronda_minutos: int, espera_minutos: int,
                     retraso: str, donde: str = "discord", zona: str = "Europe/Madrid",
                     al_plazo: str = "ask", privado: bool = False, *, grupo: int = 4,
                     pasan: int = 2, cruce: str = KnockoutDraw.CROSSED.value) -> None:
        """``/musadmin txapelketa sortu``: a new tournament taking sign-ups in this channel."""
        lang = await self._start(interaction, admin=True)
        if lang is None:
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        runner = self.runner
        await runner.start()
        deadline = None if cierre_horas is None else \
            runner.wall() + timedelta(hours=cierre_horas)
        zone_of(zona.strip())  # a zone the system does not know: one sentence
        settings = Settings.create(
            nombre, deadline=deadline, format=Format(formato), games_to_win=juegos,
            rules=Rules(puntos=puntos, reyes=reyes), seeding=Seeding(sorteo),
            round_minutes=ronda_minutos, grace_minutes=espera_minutos,
            lateness=Lateness(retraso), time_zone=zona.strip(),
            # given as text: a forged value is the settings' own one-sentence refusal
            reporting=donde, at_deadline=al_plazo, private_threads=bool(privado),
            group_size=grupo, advance=pasan, knockout_draw=cruce)
        await interaction.response.defer(thinking=True)
        try:
            cup = await runner.create(interaction.guild_id, interaction.channel_id, settings,
                                      organiser=interaction.user.id, seed=secrets.randbits(32))
        except TournamentExists:
            await interaction.followup.send(plain(TXAPELKETA("exists", lang, name=settings.name)),
                                            allowed_mentions=NO_MENTIONS)
            return
        words = Words(cup.tournament, lang)
        created = TXAPELKETA("created", lang, name=cup.name, format=words.format_name(),
                             games=settings.games_to_win,
                             deadline=_when(settings.signup_deadline, lang),
                             grace=settings.grace_minutes)
        rule = words.draw_rule()  # groups: who meets whom in the knockout, said at once
        await interaction.followup.send(plain(f"{created} {rule}" if rule else created),
                                        allowed_mentions=NO_MENTIONS)

    # --- the players ------------------------------------------------------------------

    @app_commands.command(name="apuntarse", description="Te apunta, con pareja o solo (se "
                                                        "te sortea una)")
    @app_commands.describe(pareja="tu pareja (que se apunta nombrándote a ti)",
                           nombre="nombre del torneo")
    async def apuntarse(self, interaction: discord.Interaction[Any],
                        pareja: discord.Member | None = None,
                        nombre: NameOption | None = None) -> None:
        cup, lang = await self._cup(interaction, nombre)
        if cup is None:
            return
        user = interaction.user
        if pareja is not None and pareja.bot:
            await answer(interaction, TXAPELKETA("partner_bot", lang_of(interaction, lang)))
            return
        partner = None if pareja is None else pareja.id
        # Private first: the first answer after a deferral edits it, and an edit notifies
        # nobody, so the news that must reach the partner is a message of its own.
        await interaction.response.defer(ephemeral=True, thinking=True)
        events = await self.runner.change(cup, lambda t, now: t.sign_up(
            user.id, seat_name(user), partner=partner, now=now))
        if not events:
            await answer(interaction, TXAPELKETA("already_signed", lang_of(interaction, lang),
                                                 name=cup.name))
            return
        own = lang_of(interaction, lang)
        invited = any(e.kind is EventKind.INVITED for e in events)
        paired = any(e.kind is EventKind.PAIRED for e in events)
        if pareja is not None and not invited and not paired:  # told before: no second ping
            await answer(interaction, plain(TXAPELKETA("invited_quietly", own,
                                                       partner=seat_name(pareja))))
        else:
            await answer(interaction, TXAPELKETA("done", own))
        if invited and pareja is not None:  # the one public ping a sign-up may make
            text = TXAPELKETA("invited", lang, name=cup.name, first=seat_name(user))
            await interaction.followup.send(notifying(text, [pareja.id]),
                                            allowed_mentions=mentioning(pareja.id))
        await self._signups(cup, lang)

    async def _signups(self, cup: Cup, lang: str) -> None:
        """The sign-ups as they stand, on the tournament's one sign-up message (edited as people
        sign up, within the channel's edits: not a message per sign-up)."""
        venue = self.runner.venue
        if isinstance(venue, DiscordVenue):
            await venue.signups(cup, entry_list(cup, lang))

    @app_commands.command(name="resultado", description=REPORT_ABOUT)
    @app_commands.describe(**REPORT_OPTIONS)
    async def resultado(self, interaction: discord.Interaction[Any],
                        juegos: app_commands.Range[str, 3, 9],
                        partida: app_commands.Range[str, 1, 20] | None = None,
                        nombre: NameOption | None = None) -> None:
        await self.report(interaction, juegos, partida, nombre)

    async def report(self, interaction: discord.Interaction[Any], juegos: str,
                     partida: str | None, nombre: str | None) -> None:
        """``/txapelketa resultado``: a player reports the result of
        their match played at a real table; the other pair confirms it."""
        cup, lang = await self._cup(interaction, nombre)
        if cup is None:
            return
        own = lang_of(interaction, lang)
        score = _score(juegos)
        if score is None:
            await answer(interaction, TXAPELKETA("bad_score", own, text=juegos))
            return
        user = interaction.user.id
        match_id = partida.strip().upper() if partida else None
        if match_id is None:
            current = cup.tournament.current_match(user)
            if current is None:
                await answer(interaction, plain(TXAPELKETA("no_match_now", own, name=cup.name)))
                return
            match_id = current.id
        await interaction.response.defer(ephemeral=True, thinking=True)
        events = await self.runner.change(cup, lambda t, now: t.report(
            match_id, user, score, now=now))
        kinds = {e.kind for e in events}
        key = "organiser_told" if EventKind.RESULT_DISPUTED in kinds else \
            "reported" if EventKind.RESULT_REPORTED in kinds else "done"
        await answer(interaction, TXAPELKETA(key, own))

    @app_commands.command(name="retirarse", description="Te borra del torneo antes del sorteo")
    @app_commands.describe(nombre="nombre del torneo")
    async def retirarse(self, interaction: discord.Interaction[Any],
                        nombre: NameOption | None = None) -> None:
        cup, lang = await self._cup(interaction, nombre)
        if cup is None:
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user.id
        await self.runner.change(cup, lambda t, now: t.withdraw(user, now=now))
        await answer(interaction,
                     TXAPELKETA("withdrawn", lang_of(interaction, lang), name=cup.name))
        await self._signups(cup, lang)

    @app_commands.command(name="lista", description="Quién está apuntado, y las parejas")
    @app_commands.describe(nombre="nombre del torneo")
    async def lista(self, interaction: discord.Interaction[Any],
                    nombre: NameOption | None = None) -> None:
        cup, lang = await self._cup(interaction, nombre)
        if cup is None:
            return
        await answer(interaction, entry_list(cup, lang_of(interaction, lang)))

    @app_commands.command(name="cuadro", description="El cuadro del torneo, en imagen y texto")
    @app_commands.describe(nombre="nombre del torneo")
    async def cuadro(self, interaction: discord.Interaction[Any],
                     nombre: NameOption | None = None) -> None:
        cup, lang = await self._cup(interaction, nombre, finished=True)
        if cup is None:
            return
        messages = bracket_messages(cup, None)
        if not messages:
            await answer(interaction, TXAPELKETA("not_drawn", lang_of(interaction, lang),
                                                 name=cup.name))
            return
        await interaction.response.defer(thinking=True)
        for content, attached in messages:
            await interaction.followup.send(content or "\u200b", files=attached,
                                            allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="campeones", description="Los campeones (txapeldunak) de "
                                                        "cada torneo")
    async def campeones(self, interaction: discord.Interaction[Any]) -> None:
        lang = await self._start(interaction)
        if lang is None:
            return
        assert interaction.guild_id is not None
        fame = await bot_database(self.bot).hall_of_fame(interaction.guild_id)
        if not fame:
            await answer(interaction, TXAPELKETA("no_champions", lang), ephemeral=False)
            return
        anonymous = TXAPELKETA("anonymous", lang)
        lines = []
        for entry in fame:
            champions = " / ".join(n or anonymous for n in entry.champions)
            line = TXAPELKETA("fame_line", lang, name=entry.name, pair=champions,
                              date=entry.finished_at.date().isoformat())
            if entry.finalists is not None:
                line += " " + TXAPELKETA("fame_finalists", lang,
                                         pair=" / ".join(n or anonymous for n in entry.finalists))
            lines.append(plain(line))
        await answer(interaction, _fit(lines, lang), ephemeral=False,
                     allowed_mentions=NO_MENTIONS)

    # --- helpers ----------------------------------------------------------------------

    async def _start(self, interaction: discord.Interaction[Any], *,
                     admin: bool = False) -> str | None:
        """The server's language (its news are public), or None after a refusal (private: in
        the person's own, as every private answer here, ``lang_of``)."""
        lang = await server_lang(self.bot.db, interaction.guild_id)
        if interaction.guild_id is None:
            await answer(interaction, TXAPELKETA("guild_only", lang_of(interaction, lang)))
            return None
        if admin and not manages_server(interaction):
            await answer(interaction, TXAPELKETA("need_manage_guild", lang_of(interaction, lang)))
            return None
        return lang

    async def _organise(self, interaction: discord.Interaction[Any], cup: Cup, lang: str,
                        change: Callable[[Tournament, datetime], list[TournamentEvent]]) -> None:
        """An organiser's change to the tournament, saved by the runner, then «hecho»."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.runner.change(cup, change)
        await answer(interaction, TXAPELKETA("done", lang_of(interaction, lang)))

    async def _organise_named(self, interaction: discord.Interaction[Any], name: str | None,
                              change: Callable[[Tournament, datetime], list[TournamentEvent]]
                              ) -> None:
        """An organiser's command about tournament ``name`` (the server's one, without it):
        found and its author checked (:meth:`_cup`), then the change (:meth:`_organise`)."""
        cup, lang = await self._cup(interaction, name, admin=True)
        if cup is not None:
            await self._organise(interaction, cup, lang, change)

    async def _cup(self, interaction: discord.Interaction[Any], name: str | None, *,
                   admin: bool = False, finished: bool = False) -> tuple[Cup | None, str]:
        """The tournament the command is about, or None after saying why."""
        lang = await self._start(interaction, admin=admin)
        if lang is None:
            return None, "es"
        assert interaction.guild_id is not None
        runner = self.runner
        await runner.start()
        cup = runner.cup_of(interaction.guild_id, name)
        if cup is None and finished and name is not None:
            cup = await self._finished(interaction.guild_id, name)
        if cup is None:
            await answer(interaction, plain(TXAPELKETA(
                "unknown" if name else "which", lang_of(interaction, lang), name=name or "")))
        return cup, lang

    async def _finished(self, guild_id: int, name: str) -> Cup | None:
        """A finished or cancelled tournament, to see its bracket."""
        try:
            stored = await bot_database(self.bot).find_tournament(guild_id, name)
        except StorageError:
            return None
        return Cup(stored.tournament_id, guild_id, stored.channel_id, stored.tournament,
                   await server_lang(self.bot.db, guild_id))


def entry_list(cup: Cup, lang: str) -> str:
    """Who signed up (pairs, then those alone or waiting for a partner), or, after the draw,
    the pairs by seed."""
    t = cup.tournament
    words = Words(t, lang)
    lines = [plain(TXAPELKETA("list_title", lang, name=cup.name, format=words.format_name(),
                              phase=TXAPELKETA(PHASE_KEYS[t.phase], lang)))]
    if t.phase is Stage.SIGNUP:
        names = {e.user_id: e.name for e in t.entries.values()}
        for first, second in t.signed_pairs():
            lines.append(plain(TXAPELKETA("list_pair", lang, first=names[first],
                                          second=names[second])))
        for user in t.solos():
            entry = t.entries[user]
            waiting = entry.partner is not None
            lines.append(plain(TXAPELKETA("list_waiting" if waiting else "list_alone", lang,
                                          person=entry.name)))
        if len(lines) == 1:
            lines.append(TXAPELKETA("list_empty", lang))
    else:
        for pair in t.pairs:
            line = TXAPELKETA("list_seed", lang, seed=pair.seed, pair=words.pair(pair))
            if pair.disqualified:
                line += " — " + TXAPELKETA("list_out", lang, reason=pair.disqualified)
            lines.append(plain(line))
    return _fit(lines, lang)


def _fit(lines: list[str], lang: str) -> str:
    """The lines that fit in one message, then how many were left out."""
    text = "\n".join(lines)
    shown = len(lines)
    while len(text) > MESSAGE_LIMIT and shown > 1:
        shown -= 1
        text = "\n".join(lines[:shown]) + "\n" + TXAPELKETA("more", lang, count=len(lines) - shown)
    return text


def _score(text: str) -> tuple[int, int] | None:
    """«3-1», «3–1», «3 1»: two numbers of games."""
    parts = text.replace("–", "-").replace(" ", "-").split("-")
    numbers = [p for p in parts if p]
    if len(numbers) != 2 or not all(p.isdigit() and len(p) == 1 for p in numbers):
        return None
    return int(numbers[0]), int(numbers[1])


def _date(text: str, zone: tzinfo) -> datetime | None:
    """«2025-06-10 22:00» (or «…T22:00», or «2025-06-10», the end of that day) in ``zone``;
    None if it is no such date."""
    cleaned = " ".join(text.replace("T", " ").split())
    for pattern, day_end in (("%Y-%m-%d %H:%M", False), ("%Y-%m-%d", True)):
        try:
            when = datetime.strptime(cleaned, pattern)
        except ValueError:
            continue
        if day_end:
            when = when.replace(hour=23, minute=59)
        return when.replace(tzinfo=zone)
    return None


def _when(stamp: str | None, lang: str) -> str:
    if stamp is None:
        return TXAPELKETA("no_deadline", lang)
    return stamp.replace("T", " ").removesuffix("+00:00") + " UTC"


async def setup(bot: MusBot) -> None:
    await bot.add_cog(Txapelketa(bot))
