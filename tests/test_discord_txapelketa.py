"""A whole txapelketa on the wire double (``tests/wire``): the real :class:`MusBot` with a
real SQLite file, 16 people and an organiser. Sign-ups (as pairs, with the partner confirming,
and alone), the draw, every match of an 8-pair double elimination played by typed moves in its
own thread, one pair that never sits down (a walkover after the grace time, on the fake clock), the
bot restarted in the middle of a round, the champions announced, the bracket posted after each
match within Discord's limits; the channels' limits and the global budget respected throughout.

Matches are one game of 5 tantos (``juegos=1, puntos=5``), so the 14 or 15 matches take a few
hundred typed moves: the tournament's machinery is what is tested here, the game's elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from discord_cogs import private, public
from discord_txapelketa import (
    Players,
    assert_final_text,
    assert_pictures_fit,
    assert_within_budget,
    is_turn_call,
    make_bot,
    make_world,
    pinged,
    sign_up_pairs,
    signups,
    threads,
)

from musbot.storage import Database
from musbot.tournament import MatchState, Stage
from musbot.tournament.live import Cup


async def test_a_double_elimination_of_eight_pairs_runs_itself_on_discord(
        tmp_path: Path) -> None:
    server = make_world(tmp_path)
    world, admin = server.world, server.admin
    people = server.people
    await world.connect(server.bot)
    await server.settle()

    # --- the organiser creates it; only the organiser may -----------------------------
    refused = await server.ask(people[0], "musadmin txapelketa sortu", nombre="Nagusia")
    assert "Gestionar servidor" in private(refused)
    created = await server.ask(admin, "musadmin txapelketa sortu", nombre="Nagusia",
                               formato="double", juegos=1, puntos=5, espera_minutos=10,
                               sorteo="random")
    assert "Nuevo torneo «Nagusia»" in public(created)

    # --- sign-ups: 6 pairs that name each other, 4 alone, one who leaves ---------------
    await sign_up_pairs(server, "Nagusia", people[:12])
    for person in people[12:16]:
        alone = await server.ask(person, "txapelketa apuntarse")
        assert "Hecho" in private(alone)
        await server.advance(2)
        assert f"• {person.name}, sin pareja (se sortea)" in signups(server, "Nagusia").content
    leaving = await server.ask(admin, "txapelketa apuntarse")
    await server.ask(admin, "txapelketa retirarse")
    listed = await server.ask(people[5], "txapelketa lista")
    assert "Ane y Beñat" in private(listed) and "Maite" not in private(listed)
    assert "Hecho" in private(leaving)
    await server.advance(2)
    board = signups(server, "Nagusia").content
    assert "Maite" not in board and board.count("\n") == 6 + 4, "one message, edited: 6 pairs, 4"
    # Twenty changes of partner: the two people named are each notified once, and the
    # channel gets no message per sign-up.
    fickle, fer, gorka = people[12], people[13], people[14]
    before = len(world.messages(server.channel))
    for partner in [fer, gorka] * 10:
        await server.ask(fickle, "txapelketa apuntarse", pareja=partner.user)
    await server.advance(2)
    posted = world.messages(server.channel)[before:]
    assert [m.pinged for m in posted] == [{fer.user}, {gorka.user}], \
        [m.content[:50] for m in posted]
    await server.ask(fickle, "txapelketa apuntarse")  # alone again, as before
    # Each invitation notified the partner it named, and nobody else was ever notified.
    invited = pinged(world, server.channel)
    assert invited == {p.user for p in people[1:12:2]} | {fer.user, gorka.user}

    # --- the draw: 6 pairs and 2 drawn from the 4 alone ---------------------------------
    drawn = await server.ask(admin, "musadmin txapelketa sortear")
    assert "Hecho" in private(drawn)
    await server.advance(5)
    db = server.bot.db
    assert db is not None
    stored = await db.find_tournament(server.guild, "Nagusia")
    tournament = stored.tournament
    assert tournament.phase is Stage.RUNNING
    pairs = len(tournament.pairs)
    assert pairs == 8
    first_round = [m for m in tournament.matches.values() if m.state is MatchState.READY]
    assert len(first_round) == pairs // 2
    assert len(threads(server)) == len(first_round), "a thread per match ready, no more"

    # The late pair: the second pair of the first match never sits down there.
    late_match = sorted(first_round, key=lambda m: m.id)[0]
    late_pair = tournament.pairs[late_match.pairs[1] or 0]
    late = {u for u in late_pair.players if u is not None}
    players = Players(server, late)

    # --- play until the first round's other matches are over, then the walkover -------
    restarted = False

    async def restart_mid_round(cup: Cup) -> bool:
        """Once, in the middle of a round, a match half played: the bot restarts."""
        nonlocal restarted
        bot = server.bot
        decided = [m for m in cup.tournament.matches.values() if m.played]
        if restarted or len(decided) < pairs // 2 + 1 or not any(
                t.lifecycle == "playing" and t.match is not None and t.match.hand_number >= 1
                and t.state.turn > 3 for t in bot.tables):
            return False
        restarted = True
        before_threads = threads(server)
        await world.disconnect(bot)
        await server.clock.advance(10)  # a process takes seconds to start again
        server.bot = make_bot(bot.config, server.clock)
        await world.connect(server.bot)
        await server.settle()
        await server.advance(2)
        assert threads(server) == before_threads, "nothing reopened after the restart"
        return True

    await players.play_out(restart_mid_round)
    assert restarted

    # --- what the tournament came to --------------------------------------------------
    final = (await server.bot.db.find_tournament(server.guild, "Nagusia")).tournament  # type: ignore[union-attr]
    assert final.phase is Stage.FINISHED and final.champion is not None
    played = [m for m in final.matches.values() if m.played]
    assert len(played) in (2 * pairs - 2, 2 * pairs - 1)
    walkover = final.matches[late_match.id]
    assert walkover.state is MatchState.WALKOVER and walkover.winner == 0
    at_tables = [m for m in played if m.state is MatchState.FINISHED]
    assert len(threads(server)) == len(played), "one thread per match, never two"
    assert all(m.games[m.winner or 0] == 1 for m in at_tables)
    assert not any("bot_game" in m.flags for m in played), "people played every turn"

    texts = [m.content for m in world.messages(server.channel)]
    assert any("por incomparecencia" in t for t in texts)
    [announced] = [m for m in world.messages(server.channel) if "txapeldunak" in m.content]
    assert "txapeldunak de «Nagusia»" in announced.content
    assert announced.pinged == {u for u in final.champion.players if u is not None}
    # Nobody else was notified in the channel: the invited partners and the champions.
    assert pinged(world, server.channel) == invited | announced.pinged
    # In the threads, each match's call notified its four players and nobody else.
    for place in threads(server):
        called = [m for m in world.messages(place) if m.pinged and not is_turn_call(m)]
        assert len(called) >= 1 and all(len(m.pinged) == 4 for m in called)
        turns = [m for m in world.messages(place) if is_turn_call(m)]
        assert all(len(m.pinged) == 1 for m in turns), "a turn's call, to that person alone"

    # --- the bracket: after each match, within Discord's limits -----------------------
    assert_pictures_fit(server, at_least=len(played))  # the pages of each match, after it
    assert "Repesca" in assert_final_text(server, final)
    fame = await server.ask(people[3], "txapelketa campeones")
    assert "Nagusia" in public(fame)
    # The champions' pair has a rating of its own now, shown in their profile.
    first, second = final.champion.players
    champion = next(p for p in people if p.user == first)
    partner = next(p for p in people if p.user == second)
    profile = private(await server.ask(champion, "mus perfil"))
    assert f"Parejas estables (torneos): con {partner.name}, " in profile

    # --- Discord's budget, throughout -------------------------------------------------
    print(f"\n{assert_within_budget(world, players.moves)}")
    await world.disconnect(server.bot)
    assert isinstance(db, Database)
