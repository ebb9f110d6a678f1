"""The time limit of a match played on Discord asks the organiser (issue 47, item 2), on the
wire double with the fake clock: past its 5 minutes the organiser alone is asked, once, while
the four play on; a player's tap is refused; «by the score now» with the pairs level is one
sentence; «half an hour more» is told to the four with Discord's timestamps and shown on the
board; at the new limit the organiser is asked again, and the board as it stands then decides.
Every step is in the tournament's log and on the organiser's board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord_txapelketa import Players, choice, make_world, sign_up_pairs, tap, the_cup

from musbot.table import Table
from musbot.tournament import MatchState
from musbot.tournament.live import board

MOVE_EVERY = 50
"""Seconds between two moves: within the table's 60 s turn, so nobody's turn runs out."""


def said(server: Any, start: str) -> list[Any]:
    return [m for m in server.world.messages(server.channel) if m.content.startswith(start)]


def the_table(server: Any) -> Table:
    table = server.bot.tables.get(the_cup(server).places["W1-1"])
    assert table is not None, "the match's table, in its thread"
    return table



async def play_until(server: Any, players: Players, done: Any, limit: int = 200) -> int:
    """A move, then :data:`MOVE_EVERY` seconds, until ``done()``; the moves made."""
    for moves in range(limit):
        if done():
            return moves
        assert await players.play(the_table(server)), "someone has a move to make"
        await server.advance(MOVE_EVERY)
    raise AssertionError("never done")


async def test_a_match_out_of_time_asks_the_organiser_and_plays_on(tmp_path: Path) -> None:
    server = make_world(tmp_path, people=4)
    world, admin = server.world, server.admin
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Denbora", juegos=1,
                     ronda_minutos=5, espera_minutos=2, sorteo="random")
    await sign_up_pairs(server, "Denbora", server.people)
    await server.ask(admin, "musadmin txapelketa sortear")
    await server.advance(5)
    players = Players(server)
    while the_table(server).lifecycle == "waiting":
        assert await players.step()
    four = {p.user for p in server.people}

    # --- past its 5 minutes: the organiser alone is asked, and the four play on --------
    await play_until(server, players, lambda: said(server, "🔔"))
    [asked] = said(server, "🔔 Partida W1-1")
    assert asked.pinged == {admin.user} and "la mesa sigue jugando" in asked.content
    assert "(van 0–0)" in asked.content
    match = the_cup(server).tournament.matches["W1-1"]
    assert match.state is MatchState.PLAYING and "time_up" in match.flags
    assert sorted(c.split(":")[2] for c in asked.custom_ids()) == \
        ["board", "play", "w0", "w1", "ww"]
    before = players.moves
    await play_until(server, players, lambda: players.moves >= before + 3)
    assert the_table(server).lifecycle == "playing", "nobody is frozen"
    assert len(said(server, "🔔")) == 1, "asked once"
    assert "Gestionar servidor" in await tap(server, server.people[0], asked, choice("w0"))
    games, _, playing = board(the_table(server).notice, match)
    assert games == (0, 0) and playing == (0, 0), "no hand over yet: level"
    assert "va empatada (0–0" in await tap(server, admin, asked, choice("board"))
    assert not the_cup(server).tournament.matches["W1-1"].decided
    [shown] = said(server, "📋")
    assert "🔔 W1-1:" in shown.content and "decide la organización" in shown.content

    # --- half an hour more: told to the four, on the board, asked again at its end -------
    assert await tap(server, admin, asked, choice("play")) == "Hecho."
    [more] = said(server, "⏲️ Partida W1-1")
    until = the_cup(server).tournament.limit_of(the_cup(server).tournament.matches["W1-1"])
    assert until is not None and f"<t:{int(until.timestamp())}:R>" in more.content
    assert more.pinged == four
    assert "⏲️ W1-1:" in said(server, "📋")[0].content
    await play_until(server, players, lambda: len(said(server, "🔔")) == 2)
    again = said(server, "🔔 Partida W1-1")[-1]
    assert again.pinged == {admin.user}

    # --- the board as it stands decides, once a hand has put a pair ahead -----------------
    match = the_cup(server).tournament.matches["W1-1"]
    await play_until(server, players,
                     lambda: len(set(board(the_table(server).notice, match)[2])) == 2)
    _, _, playing = board(the_table(server).notice, match)
    ahead = 0 if playing[0] > playing[1] else 1
    assert await tap(server, admin, again, choice("board")) == "Hecho."
    decided = the_cup(server).tournament.matches["W1-1"]
    assert decided.state is MatchState.FINISHED and decided.winner == ahead
    assert {"overtime", "organiser"} <= set(decided.flags)
    assert said(server, "⏱️ Partida W1-1: se acabó el tiempo"), "the result, told"
    assert "⏱️ W1-1:" in said(server, "📋")[0].content
    assert "ya tiene resultado" in await tap(server, admin, asked, choice("w1")), "decided already"
    log = the_cup(server).tournament.log
    assert [e["what"] for e in log] == ["time_up", "more_time", "time_up", "board"]
    db = server.bot.db
    assert db is not None
    assert (await db.find_tournament(server.guild, "Denbora")).tournament == \
        the_cup(server).tournament
    assert world.report().refusals == {} and world.report().rate_limited == 0
    await world.disconnect(server.bot)
