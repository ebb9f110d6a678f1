"""Hostile members against a tournament's match on the wire double (issue 42): a match is decided
only by its own reserved table with its four players, or by the organiser. Anyone's casual table
in a match's thread is refused; a replay opens the reserved table again and calls its players; a
match table closed by a moderator, its thread deleted or locked, pauses the match (nothing
decides it, its time stands still), tells the organiser and its players once, and offers the
organiser a new table."""

from __future__ import annotations

from pathlib import Path

import discord
from discord_cogs import private
from discord_txapelketa import (
    Players,
    make_world,
    sign_up_pairs,
    table_message,
    the_cup,
    threads,
)

from musbot.tournament import MatchState

MANAGE_CHANNELS = discord.Permissions(manage_channels=True).value
RESERVED = "Este hilo es el de una partida del torneo"


async def one_match(tmp_path: Path, **options: object):  # type: ignore[no-untyped-def]
    """Four people in two pairs and a fifth, Edurne, a stranger to the match; one knockout
    match ready in its thread."""
    server = make_world(tmp_path, people=5)
    await server.world.connect(server.bot)
    await server.settle()
    await server.ask(server.admin, "musadmin txapelketa sortu", nombre="Kopa", juegos=1, puntos=40,
                     sorteo="random", **options)
    await sign_up_pairs(server, "Kopa", server.people[:4])
    await server.ask(server.admin, "musadmin txapelketa sortear")
    await server.advance(5)
    [place] = threads(server)
    return server, place


async def seat_everyone(server, place: int) -> None:  # type: ignore[no-untyped-def]
    players = Players(server)
    while (table := server.bot.tables.get(place)) is not None and table.lifecycle == "waiting":
        assert await players.step()
    await server.advance(2)


def paused_news(server) -> list:  # type: ignore[no-untyped-def]
    return [m for m in server.world.messages(server.channel) if m.content.startswith("⏸️")]


async def press_new_place(server, person, news) -> None:  # type: ignore[no-untyped-def]
    button = next(c for c in news.custom_ids() if c.startswith("txap:place:"))
    inter = await server.world.press(server.bot, person.user, news.id, button)
    await server.answered(inter)
    return inter


async def test_a_casual_table_in_a_match_thread_is_refused_and_a_replay_calls_the_players(
        tmp_path: Path) -> None:
    server, place = await one_match(tmp_path)
    stranger = server.people[4]
    refused = await server.ask(stranger, "mus mesa", channel=place)
    assert "otra vez al final" in private(refused), "its own table is shown, nothing opened"
    await server.ask(server.admin, "musadmin txapelketa resultado", partida="W1-1", juegos="1-0",
                     nombre="Kopa")
    await server.advance(5)
    assert server.bot.tables.get(place) is None
    refused = await server.ask(stranger, "mus mesa", channel=place)
    assert RESERVED in private(refused)
    assert server.bot.tables.get(place) is None, "no casual table where a match is played"
    calls = [m for m in server.world.messages(place) if m.pinged]
    await server.ask(server.admin, "musadmin txapelketa repetir", partida="W1-1", nombre="Kopa")
    await server.advance(5)
    table = server.bot.tables.get(place)
    assert table is not None and table.state.entry.entrants, "its reserved table, again"
    called = [m for m in server.world.messages(place) if m.pinged]
    assert len(called) == len(calls) + 1 and len(called[-1].pinged) == 4, "players called"
    assert stranger.user not in called[-1].pinged
    await seat_everyone(server, place)
    assert server.bot.tables.get(place).lifecycle == "playing"  # type: ignore[union-attr]


async def test_a_moderator_closing_a_match_table_pauses_the_match_for_the_organiser(
        tmp_path: Path) -> None:
    server, place = await one_match(tmp_path, ronda_minutos=60)
    world = server.world
    moderators = world.add_role(server.guild, "Mods", MANAGE_CHANNELS)
    moderator = server.people[4]
    world.give_role(server.guild, moderator.user, moderators)
    await seat_everyone(server, place)
    match = the_cup(server).tournament.matches["W1-1"]
    assert match.state is MatchState.PLAYING
    await server.ask(moderator, "mus cerrar", channel=place)
    await server.advance(5)
    [news] = paused_news(server)
    players = set(the_cup(server).tournament.people()) - {moderator.user}
    assert news.pinged == players | {server.admin.user}, "its players and the organiser, once"
    await server.advance(3 * 3600)  # three times the round's time
    assert len(paused_news(server)) == 1
    assert not any("se sigue jugando" in m.content or "tiempo" in m.content.lower()
                   for m in world.messages(server.channel) if m.id > news.id)
    match = the_cup(server).tournament.matches["W1-1"]
    assert not match.decided and match.paused_at is not None
    refused = await server.ask(moderator, "mus mesa", channel=place)
    assert RESERVED in private(refused), "a casual table cannot decide it either"
    player = next(p for p in server.people if p.user in players)
    answer = await press_new_place(server, player, news)
    assert "Gestionar servidor" in private(answer), "the organiser's to decide"
    await press_new_place(server, server.admin, news)
    await server.advance(5)
    table = server.bot.tables.get(place)
    assert table is not None and table.lifecycle == "waiting", "a new table, its players called"
    assert the_cup(server).tournament.matches["W1-1"].paused_at is None
    await seat_everyone(server, place)
    assert table.lifecycle == "playing"


async def test_a_deleted_match_thread_pauses_the_match_and_a_new_one_is_opened(
        tmp_path: Path) -> None:
    server, place = await one_match(tmp_path)
    await seat_everyone(server, place)
    await server.world.delete_channel(server.bot, place)
    await server.advance(5)
    [news] = paused_news(server)
    assert len(news.pinged) == 5
    await press_new_place(server, server.admin, news)
    await server.advance(5)
    [_, new_place] = threads(server)
    table = server.bot.tables.get(new_place)
    assert table is not None and table.state.entry.entrants
    assert any(len(m.pinged) == 4 for m in server.world.messages(new_place))
    await seat_everyone(server, new_place)
    assert table.lifecycle == "playing"


async def test_a_locked_match_thread_pauses_the_table_and_the_match_until_it_opens(
        tmp_path: Path) -> None:
    server, place = await one_match(tmp_path)
    world = server.world
    await seat_everyone(server, place)
    table = server.bot.tables.get(place)
    assert table is not None
    turn = table.state.turn
    dms = {p.user: len(world.messages(world.dm_channel(p.user))) for p in server.people[:4]}
    # Locked and archived with no word from the gateway yet: the first refused call says so.
    thread = world.channels[place]
    thread.locked = thread.archived = True
    await server.advance(120)  # the turn clock runs out: its bot plays, its edit is refused
    assert table.hidden is not None, "paused at the first refusal"
    turn = table.state.turn
    await server.advance(600)
    assert table.state.turn == turn, "nothing more is played while nobody can see it"
    told = {p.user: len(world.messages(world.dm_channel(p.user))) - dms[p.user]
            for p in server.people[:4]}
    assert all(count >= 1 for count in told.values()), told
    [news] = paused_news(server)
    assert len(news.pinged) == 5, "its players and the organiser told, once"
    assert not the_cup(server).tournament.matches["W1-1"].decided
    refusals = world.report().refusals
    assert sum(refusals.values()) <= 2, refusals
    await world.close_thread(server.bot, place, locked=False, archived=False)
    await server.advance(5)
    assert table.hidden is None, "unlocked: it plays on"
    assert the_cup(server).tournament.matches["W1-1"].paused_at is None
    assert any(m.content.startswith("▶️") for m in world.messages(server.channel))
    assert table_message(server, place).embeds
