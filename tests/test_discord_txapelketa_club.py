"""A club's txapelketa on the wire double (issue 47, «done when»): 12 pairs in groups of 4, then
the knockout of the best two of each group, «either» Discord or a real table. One match is
played on Discord by typed moves; one pair misses its match's deadline and the organiser gives
the walkover; one reported result is disputed and settled by the organiser; every other match
is reported from the table and agreed (by a tap, or by the other pair reporting the same); the
bot restarts in the middle. The champions, every standing, every rating and the organiser's
board agree with the database; only the people a message is for are notified."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from discord_match import Person
from discord_txapelketa import (
    NAMES,
    Players,
    assert_within_budget,
    make_bot,
    make_world,
    sign_up_pairs,
    table_message,
    tap,
    the_cup,
    threads,
)
from wire.state import PRIVATE_THREAD, PUBLIC_THREAD

from musbot.tournament import Bracket, MatchState, Stage, rated_results

MORE = ("Unai", "Xabier", "Yera", "Zuriñe", "Amaia", "Bittor", "Eneko", "Irati")


def person(server: Any, user: int | None) -> Any:
    return next(p for p in [*server.people, server.admin] if p.user == user)


def sides(server: Any, match_id: str) -> tuple[list[Any], list[Any]]:
    t = the_cup(server).tournament
    first, second = ([person(server, u) for u in t.pairs[p].players]
                     for p in t.matches[match_id].pairs if p is not None)
    return first, second



def latest(server: Any, start: str) -> Any:
    found = [m for m in server.world.messages(server.channel) if m.content.startswith(start)]
    assert found, start
    return found[-1]


async def play_at_discord(server: Any, players: Players, match_id: str) -> None:
    """The match's four sit at its table in its thread and play it out by typed moves."""
    place = the_cup(server).places[match_id]
    while not the_cup(server).tournament.matches[match_id].decided:
        table = server.bot.tables.get(place)
        assert table is not None, "its table, in its thread"
        if table.lifecycle == "waiting":
            user = next(u for u in table.state.entry.entrants if table.seat_of(u) is None)
            message = table_message(server, place)
            button = next(c for c in message.custom_ids() if c.endswith((":join1", ":join2")))
            await server.world.press(server.bot, user, message.id, button)
            await server.settle()
        elif not await players.play(table):
            await server.advance(2)


async def test_twelve_pairs_in_groups_then_a_knockout_at_the_table_and_on_discord(
        tmp_path: Path) -> None:
    server = make_world(tmp_path, people=len(NAMES))
    world, admin = server.world, server.admin
    server.people.extend(Person(world.add_user(name), name, rng=random.Random(name))
                         for name in MORE)
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Herria", formato="groups",
                     juegos=1, puntos=5, sorteo="random", donde="either")
    await sign_up_pairs(server, "Herria", server.people)
    await server.ask(admin, "musadmin txapelketa sortear")
    await server.advance(5)
    t = the_cup(server).tournament
    assert len(t.pairs) == 12 and t.plan["groups"] == 3
    ready = sorted(m.id for m in t.matches.values() if m.state is MatchState.READY)
    assert ready == ["GA1-1", "GA1-2", "GB1-1", "GB1-2", "GC1-1", "GC1-2"]
    players = Players(server)

    # --- GA1-1 is played on Discord -----------------------------------------------------
    await play_at_discord(server, players, "GA1-1")
    assert the_cup(server).tournament.matches["GA1-1"].state is MatchState.FINISHED

    # --- GB1-1: a deadline in an hour; nobody reports; the organiser's walkover ----------
    await server.ask(admin, "musadmin txapelketa plazo", fecha="2025-06-01 21:00",
                     partida="GB1-1")
    for _ in range(8):
        await server.advance(600)
    asked = latest(server, "⌛ Partida GB1-1")
    assert asked.pinged == {admin.user}
    assert await tap(server, admin, asked, "txap:dl:w0:") == "Hecho."
    assert the_cup(server).tournament.matches["GB1-1"].state is MatchState.WALKOVER

    # --- GC1-1: reported, disputed, settled by the organiser ---------------------------
    (c1, _), (d1, _) = sides(server, "GC1-1")
    await server.ask(c1, "txapelketa resultado", juegos="1-0", partida="GC1-1")
    await server.advance(2)
    question = latest(server, "📝 Partida GC1-1")
    assert "Se lo he dicho" in await tap(server, d1, question, "txap:no:")
    assert latest(server, "⚠️ Partida GC1-1").pinged == {admin.user}
    await server.ask(admin, "musadmin txapelketa resultado", partida="GC1-1", juegos="0-1")
    await server.advance(5)

    # --- every other match: reported from the table and agreed; a restart midway --------
    rng = random.Random(47)
    agreed = 0
    restarted = False
    while the_cup(server).tournament.phase is Stage.RUNNING:
        t = the_cup(server).tournament
        if not restarted and all(m.decided for m in t.matches.values() if m.round == 1):
            await world.disconnect(server.bot)
            await server.clock.advance(10)
            server.bot = make_bot(server.bot.config, server.clock)
            await world.connect(server.bot)
            await server.settle()
            await server.advance(5)
            restarted = True
            continue
        match = min((m for m in t.matches.values() if m.state is MatchState.READY),
                    key=lambda m: m.id)
        (first, _), (_, second) = sides(server, match.id)
        won = rng.randrange(2)
        score = ("1-0", "0-1")
        await server.ask(first, "txapelketa resultado", juegos=score[won], partida=match.id)
        await server.advance(2)
        if agreed % 2:
            await server.ask(second, "txapelketa resultado", juegos=score[1 - won],
                             partida=match.id)
        else:
            question = latest(server, f"📝 Partida {match.id}")
            assert await tap(server, second, question, "txap:ok:") == "Hecho."
        agreed += 1
        await server.advance(5)
    await server.advance(30)

    # --- what it came to, and the database ---------------------------------------------
    assert restarted
    final = the_cup(server).tournament
    db = server.bot.db
    assert db is not None
    stored = (await db.find_tournament(server.guild, "Herria")).tournament
    assert stored == final and stored.phase is Stage.FINISHED
    assert stored.champion is not None and stored.finalist is not None
    played = [m for m in stored.matches.values() if m.played]
    groups = [m for m in played if m.bracket is Bracket.GROUP]
    knockout = [m for m in played if m.bracket is Bracket.WINNERS]
    assert len(groups) == 18 and len(knockout) == 5, "3 groups of 6, 6 pairs to the knockout"
    how = Counter("reported" if "reported" in m.flags else m.state.value for m in played)
    assert how == {"reported": 20, "walkover": 1, "finished": 2}, how
    for group in range(3):
        table = stored.standings(group)
        assert [row.played for row in table] == [3, 3, 3, 3]
        assert sum(row.won for row in table) == 6 and sum(row.lost for row in table) == 6
    ratings = await db.pair_ratings(server.guild, stored.people())
    counted = Counter(key for r in rated_results(stored) for key in (r.winner, r.loser))
    assert {key: rating.matches for key, rating in ratings.items()} == dict(counted)
    assert sum(counted.values()) == 2 * 22, "every match played counts, not the walkover"
    assert [e["what"] for e in stored.log].count("confirmed") == 20
    for asked_ in [m for m in world.messages(server.channel) if m.content.startswith("📝")]:
        match = stored.matches[asked_.content.split()[2].rstrip(":")]
        four = {u for p in match.pairs if p is not None for u in stored.pairs[p].players}
        assert len(asked_.pinged) == 2 and asked_.pinged < four, "the other pair alone"
    [drawn] = [m for m in world.messages(server.channel) if m.content.startswith("🏁")]
    assert "se cruzan los grupos (1A–2B, 1B–2A" in drawn.content, "the rule, said"
    assert "segunda ronda los mejores: 2" in drawn.content and not drawn.pinged
    firsts = [p for p in stored.qualifiers() if p in {stored.standings(g)[0].pair
                                                      for g in range(3)}]
    byes = {m.winner_pair for m in stored.matches.values() if m.state is MatchState.BYE}
    assert byes == set(firsts[:2]), "three groups: the two best firsts wait a round"
    for match in (m for m in knockout if m.round == 1):
        assert len({stored.pairs[p].group for p in match.pairs if p is not None}) == 2
    [board] = [m for m in world.messages(server.channel) if m.content.startswith("📋")]
    assert "1 de 1" in board.content and "W3-1" in board.content, "the final, agreed"
    print(f"\n{assert_within_budget(world, players.moves)}")
    await world.disconnect(server.bot)


async def report_everything(server: Any, rng: random.Random) -> int:
    """Every match ready reported by one of its players and agreed by a tap of the other
    pair, until the tournament is over; the matches reported."""
    reported = 0
    while the_cup(server).tournament.phase is Stage.RUNNING:
        t = the_cup(server).tournament
        match = min((m for m in t.matches.values() if m.state is MatchState.READY),
                    key=lambda m: (m.round, m.id))
        (first, _), (second, _) = sides(server, match.id)
        await server.ask(first, "txapelketa resultado", juegos=rng.choice(("1-0", "0-1")))
        await server.advance(2)
        assert await tap(server, second, latest(server, f"📝 Partida {match.id}"),
                         "txap:ok:") == "Hecho."
        reported += 1
        await server.advance(3)
    await server.advance(30)
    return reported


async def test_a_round_robin_of_five_and_a_swiss_of_ten_reported_from_the_table(
        tmp_path: Path) -> None:
    for fmt, name, pairs, matches in (("round_robin", "Liga", 5, 10),
                                      ("swiss", "Suitza", 10, 20)):
        server = make_world(tmp_path / fmt, people=len(NAMES))
        world = server.world
        server.people.extend(Person(world.add_user(name), name, rng=random.Random(name))
                             for name in MORE)
        (tmp_path / fmt).mkdir()
        await world.connect(server.bot)
        await server.settle()
        await server.ask(server.admin, "musadmin txapelketa sortu", nombre=name, juegos=1,
                         formato=fmt, sorteo="random", donde="mesa")
        await sign_up_pairs(server, name, server.people[:2 * pairs])
        await server.ask(server.admin, "musadmin txapelketa sortear")
        await server.advance(5)
        assert await report_everything(server, random.Random(fmt)) == matches
        db = server.bot.db
        assert db is not None
        stored = (await db.find_tournament(server.guild, name)).tournament
        assert stored == the_cup(server).tournament and stored.phase is Stage.FINISHED
        played = [m for m in stored.matches.values() if m.played]
        assert len(played) == matches and all("reported" in m.flags for m in played)
        meetings = Counter(frozenset(m.pairs) for m in played)
        assert set(meetings.values()) == {1}, "no two pairs meet twice"
        table = stored.standings()
        assert stored.champion is not None and stored.champion.id == table[0].pair
        if fmt == "swiss":
            assert {m.round for m in played} == {1, 2, 3, 4}, "⌈log2 10⌉ = 4 rounds"
            assert all(row.played == 4 for row in table)
        else:
            assert all(row.played == 4 for row in table), "everyone against everyone"
        assert world.report().rate_limited == 0
        await world.disconnect(server.bot)


async def test_a_tournament_without_spectators_plays_in_private_threads(tmp_path: Path) -> None:
    """``privado:True``: each match's thread is private, nobody may invite anyone in, and its
    members are the match's four players, the organiser and the bot; its call notifies the
    four. Without it, threads stay public."""
    for hidden, kind in ((True, PRIVATE_THREAD), (False, PUBLIC_THREAD)):
        server = make_world(tmp_path / str(hidden), people=8)
        (tmp_path / str(hidden)).mkdir()
        world, admin = server.world, server.admin
        await world.connect(server.bot)
        await server.settle()
        await server.ask(admin, "musadmin txapelketa sortu", nombre="Itxia", juegos=1,
                         puntos=5, sorteo="random", privado=hidden)
        await sign_up_pairs(server, "Itxia", server.people)
        await server.ask(admin, "musadmin txapelketa sortear")
        await server.advance(5)
        cup = the_cup(server)
        assert cup.tournament.settings.private_threads is hidden
        places = threads(server)
        assert sorted(places) == sorted(cup.places.values()) and len(places) == 2
        for match_id, place in cup.places.items():
            thread = world.channels[place]
            assert thread.type == kind
            four = {u for p in cup.tournament.matches[match_id].pairs if p is not None
                    for u in cup.tournament.pairs[p].players}
            if hidden:
                assert thread.members == four | {admin.user, world.bot_user.id}
            [call] = [m for m in world.messages(place) if m.pinged]
            assert call.pinged == four
        made = [c.json for c in world.calls if c.route == "POST /channels/{channel_id}/threads"]
        if hidden:
            assert [body.get("invitable") for body in made] == [False, False], \
                "nobody invites anyone in"
        assert world.report().refusals == {} and world.report().rate_limited == 0
        await world.disconnect(server.bot)
