"""A tournament without spectators and a bot without Create Private Threads (issue 47, item 5:
match threads private to the four players, rule 3 of the Basque championship), on the wire
double, which refuses a thread as Discord does (403, code 50013 Missing Permissions). A public
thread would break the rule, so none is opened: the draw is refused up front, in one sentence
naming the permission and the channel, in the organiser's own language; taken away after the
draw, the matches that need a thread pause, the organiser is told once, and «Mesa nueva» opens
their private threads once the permission is back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord_cogs import private
from discord_txapelketa import Players, make_world, sign_up_pairs, the_cup, threads
from wire.errors import MISSING_PERMISSIONS
from wire.state import PRIVATE_THREAD

from musbot.tournament import MatchState, Stage

CREATE_PRIVATE = discord.Permissions(create_private_threads=True).value
THREADS_ROUTE = "POST /channels/{channel_id}/threads"


def said(server: Any, start: str) -> list[Any]:
    return [m for m in server.world.messages(server.channel) if m.content.startswith(start)]


def deny(server: Any, value: int) -> None:
    """The tournament's channel denies the bot ``value`` (0: the overwrite is gone)."""
    world = server.world
    world.set_overwrite(server.channel, world.bot_user.id, deny=value)


async def test_no_private_threads_no_draw_one_sentence_in_the_organisers_language(
        tmp_path: Path) -> None:
    server = make_world(tmp_path, people=4)
    world, admin = server.world, server.admin
    world.set_locale(admin.user, "fr")
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Itxia", juegos=1, puntos=5,
                     privado=True)
    await sign_up_pairs(server, "Itxia", server.people)
    deny(server, CREATE_PRIVATE)
    await server.settle()
    refused = await server.ask(admin, "musadmin txapelketa sortear")
    # The command as a French client names it; its underscores escaped, shown as typed.
    assert private(refused) == (
        "Je n'ai pas fait le tirage : il me manque la permission « Créer des fils privés » "
        "dans #txapelketa pour ouvrir les fils privés des parties, et un fil public laisserait "
        "entrer des spectateurs, que ce tournoi n'admet pas. Donnez-la-moi (Modifier le salon › "
        "Permissions) et relancez le tirage (/musadmin txapelketa tirer\\_au\\_sort).")
    assert the_cup(server).tournament.phase is Stage.SIGNUP, "nothing drawn"
    assert not [c for c in world.calls if c.route == THREADS_ROUTE], "no thread tried"
    deny(server, 0)
    await server.settle()
    drawn = await server.ask(admin, "musadmin txapelketa sortear")
    assert private(drawn) == "C'est fait."
    await server.advance(5)
    [place] = threads(server)
    assert world.channels[place].type == PRIVATE_THREAD
    await world.disconnect(server.bot)


async def test_taken_away_after_the_draw_the_matches_pause_and_the_organiser_is_told_once(
        tmp_path: Path) -> None:
    server = make_world(tmp_path)
    world, admin = server.world, server.admin
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Itxia", juegos=1, puntos=5,
                     sorteo="random", privado=True)
    await sign_up_pairs(server, "Itxia", server.people)
    await server.ask(admin, "musadmin txapelketa sortear")
    await server.advance(5)
    assert len(threads(server)) == 4
    # The bot is refused Create Private Threads in the channel, and Discord's cache of it is
    # stale (as after a role edit the gateway has not told yet): the thread is tried, and
    # Discord refuses it.
    world.channels[server.channel].overwrites[world.bot_user.id] = (0, CREATE_PRIVATE)
    players = Players(server)
    semis = ("W2-1", "W2-2")
    while not all(m.decided for m in the_cup(server).tournament.matches.values()
                  if m.round == 1):
        if not await players.step():
            await server.advance(5)
    await server.advance(5)
    t = the_cup(server).tournament
    refused = world.refusal(403, MISSING_PERMISSIONS)
    assert refused and all(c.route == THREADS_ROUTE for c in refused), "Discord's own refusal"
    assert len(threads(server)) == 4, "no public thread instead"
    assert all(t.matches[m].state is MatchState.READY and t.matches[m].paused_at is not None
               for m in semis)
    [told] = said(server, "⚠️ «Itxia»")
    assert told.pinged == {admin.user}, "the organiser, once for the two matches"
    assert "el permiso «Crear hilos privados» en #txapelketa" in told.content
    assert "dejaría entrar a espectadores" in told.content
    paused = [m for m in world.messages(server.channel) if m.content.startswith("⏸️ Partida")]
    assert sorted(m.content.split()[2] for m in paused) == sorted(semis)

    # --- given back: «Mesa nueva» opens each match's private thread ---------------------
    world.channels[server.channel].overwrites.pop(world.bot_user.id)
    deny(server, 0)
    await server.settle()
    taps = []
    for message in paused:
        button = next(c for c in message.custom_ids() if c.startswith("txap:place:"))
        taps.append(await world.press(server.bot, admin.user, message.id, button))
        await server.settle()  # deferred at once, within Discord's 3 s
        await server.advance(5)  # its thread made, its members added within the budget
    for inter in taps:
        await server.answered(inter)
        assert private(inter) == "Hecho."
    made = threads(server)
    assert len(made) == 6 and all(world.channels[p].type == PRIVATE_THREAD for p in made)
    final = await players.play_out()
    assert final.phase is Stage.FINISHED and final.champion is not None
    assert len(said(server, "⚠️ «Itxia»")) == 1, "told once"
    await world.disconnect(server.bot)
