"""Results played at a real table (issue 47, item 1) on the wire double: a tournament «at the
table» opens no thread; its players are called in the channel; one of a match's players reports
the result with ``/txapelketa resultado``, the other pair is
notified (and nobody else) and confirms with one tap, or disputes it, which notifies the
organiser alone; nothing advances until both agree; a restart in the middle keeps the buttons
working; the champions and the log agree with the database. Nobody else reports or answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord_cogs import private
from discord_txapelketa import make_bot, make_world, sign_up_pairs, tap, the_cup, threads

from musbot.tournament import MatchState, Stage

ASKED = "📝 Partida"


def board(server: Any) -> str:
    """The organiser's board: one message, whatever happened (a restart too)."""
    found = [m for m in server.world.messages(server.channel) if m.content.startswith("📋")]
    assert len(found) == 1, [m.content[:40] for m in found]
    return str(found[0].content)


def line(server: Any, match_id: str) -> str:
    [found] = [x for x in board(server).splitlines() if f" {match_id}:" in x]
    return found


def person_of(server: Any, user: int) -> Any:
    return next(p for p in [*server.people, server.admin] if p.user == user)


def players(server: Any, match_id: str) -> tuple[list[Any], list[Any]]:
    t = the_cup(server).tournament
    match = t.matches[match_id]
    first, second = ([person_of(server, u) for u in t.pairs[p].players] for p in match.pairs
                     if p is not None)
    return first, second


def asked(server: Any, match_id: str) -> Any:
    found = [m for m in server.world.messages(server.channel)
             if m.content.startswith(f"{ASKED} {match_id}:")]
    assert found, f"no report of {match_id} asked"
    return found[-1]



async def test_results_reported_from_the_table_confirmed_disputed_and_settled(
        tmp_path: Path) -> None:
    server = make_world(tmp_path, people=9)
    world, admin = server.world, server.admin
    stranger = server.people[8]
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Txokoa", juegos=3,
                     sorteo="random", donde="mesa")
    await sign_up_pairs(server, "Txokoa", server.people[:8])
    await server.ask(admin, "musadmin txapelketa sortear")
    await server.advance(5)
    assert threads(server) == [], "played at real tables: no thread"
    t = the_cup(server).tournament
    first_round = sorted(m.id for m in t.matches.values() if m.state is MatchState.READY)
    assert first_round == ["W1-1", "W1-2"]
    for match_id in first_round:
        [call] = [m for m in world.messages(server.channel)
                  if m.content.startswith(f"🎴 Partida {match_id} ")]
        ours, theirs = players(server, match_id)
        assert call.pinged == {p.user for p in ours + theirs}
        assert "/txapelketa resultado" in call.content

    # --- W1-1: reported by one pair, confirmed by the other -----------------------------
    (a1, a2), (b1, b2) = players(server, "W1-1")
    refused = await server.ask(stranger, "txapelketa resultado", juegos="3-0", partida="W1-1")
    assert "Solo los cuatro jugadores de la partida W1-1" in private(refused)
    world.set_locale(stranger.user, "fr")  # a private answer speaks its reader's language
    refused = await server.ask(stranger, "txapelketa resultado", juegos="3-0", partida="W1-1")
    assert "Seuls les quatre joueurs de la partie W1-1" in private(refused)
    told = await server.ask(a1, "txapelketa resultado", juegos="3-1")
    assert "la otra pareja" in private(told)
    await server.advance(2)
    question = asked(server, "W1-1")
    assert question.pinged == {b1.user, b2.user}, "the other pair alone is notified"
    assert "3–1" in question.content
    assert line(server, "W1-1").startswith("📝 W1-1:") and "3–1" in line(server, "W1-1")
    assert line(server, "W1-1").endswith("por confirmar")
    assert line(server, "W1-2").startswith("⏳ W1-2:")
    assert board(server).startswith("📋 «Txokoa»: 0 de 2 partidas")
    assert "Seuls les quatre" in await tap(server, stranger, question, "txap:ok:")
    assert "la otra pareja" in await tap(server, a2, question, "txap:ok:")
    assert not the_cup(server).tournament.matches["W1-1"].decided
    assert await tap(server, b2, question, "txap:ok:") == "Hecho."
    w11 = the_cup(server).tournament.matches["W1-1"]
    assert w11.state is MatchState.FINISHED and w11.games == [3, 1] and w11.winner == 0

    # --- W1-2: reported, a restart, then disputed; the organiser settles it --------------
    (c1, _), (d1, d2) = players(server, "W1-2")
    await server.ask(c1, "txapelketa resultado", juegos="3-2", partida="w1-2")
    await server.advance(2)
    question = asked(server, "W1-2")
    await world.disconnect(server.bot)
    await server.clock.advance(10)
    server.bot = make_bot(server.bot.config, server.clock)
    await world.connect(server.bot)
    await server.settle()
    await server.advance(2)
    before = len(world.messages(server.channel))
    assert "Se lo he dicho" in await tap(server, d1, question, "txap:no:")
    assert "en disputa" in await tap(server, d2, question, "txap:ok:")
    [dispute] = world.messages(server.channel)[before:]
    assert dispute.pinged == {admin.user}, "the organiser alone is notified"
    await server.advance(5)
    assert line(server, "W1-2").startswith("⚠️ W1-2:"), "the board after the restart"
    assert line(server, "W1-1").startswith("🤝 W1-1:")
    assert "/musadmin txapelketa resultado partida:W1-2" in dispute.content
    final = the_cup(server).tournament.matches.get("W2-1")
    assert final is None or final.state is MatchState.PENDING, "nothing advances"
    await server.ask(admin, "musadmin txapelketa resultado", partida="W1-2", juegos="2-3")
    await server.advance(5)

    # --- the final: the other pair's own report of the same result agrees ---------------
    (e1, _), (f1, _) = players(server, "W2-1")
    await server.ask(e1, "txapelketa resultado", juegos="1-3")
    await server.advance(2)
    agreed = await server.ask(f1, "txapelketa resultado", juegos="3-1")
    assert private(agreed) == "Hecho."
    await server.advance(30)
    db = server.bot.db
    assert db is not None
    stored = (await db.find_tournament(server.guild, "Txokoa")).tournament
    assert stored.phase is Stage.FINISHED and stored == the_cup(server).tournament
    assert stored.champion is not None and f1.user in stored.champion.players
    assert [(e["match"], e["what"]) for e in stored.log] == [
        ("W1-1", "reported"), ("W1-1", "confirmed"), ("W1-2", "reported"),
        ("W1-2", "disputed"), ("W1-2", "settled"), ("W2-1", "reported"),
        ("W2-1", "confirmed")]
    assert [e["user"] for e in stored.log][-2:] == [e1.user, f1.user]
    assert line(server, "W2-1").startswith("🤝 W2-1:") and "1 de 1" in board(server)
    report = world.report()
    assert max(report.worst_edits.values(), default=0) <= 5 and report.rate_limited == 0
    assert any("txapeldunak" in m.content for m in world.messages(server.channel))
    assert world.report().refusals == {}
    await world.disconnect(server.bot)
