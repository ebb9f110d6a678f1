"""Deadlines that act (issue 47, item 2) on the wire double: the organiser sets round 1's
deadline in the tournament's time zone; it is shown as Discord timestamps (each reader's own
time, and how long is left); the four players of each match not decided are reminded a day and
an hour before, and nobody else; at the deadline the organiser alone is asked, with buttons
nobody else may use; «a day more» starts again, a restart keeps the buttons; the organiser's
walkover decides, and the next round opens. The fake clock moves the days."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from discord_cogs import private
from discord_txapelketa import choice, make_bot, make_world, sign_up_pairs, tap, the_cup

from musbot.tournament import MatchState

DEADLINE = int(datetime(2025, 6, 3, 18, tzinfo=UTC).timestamp())
"""«2025-06-03 20:00» in Europe/Madrid (summer time): 48 hours after the test's epoch."""
DAY = 24 * 3600


async def hours_pass(server: Any, hours: float) -> None:
    """The fake clock moves on a quarter of an hour at a time, the bot settling each time."""
    for _ in range(int(hours * 4)):
        await server.advance(900)


def said(server: Any, start: str) -> list[Any]:
    return [m for m in server.world.messages(server.channel) if m.content.startswith(start)]


def people_of(server: Any, match_id: str) -> set[int]:
    t = the_cup(server).tournament
    return {u for p in t.matches[match_id].pairs if p is not None
            for u in t.pairs[p].players if u is not None}



async def test_a_round_deadline_reminds_asks_the_organiser_and_waits_for_their_word(
        tmp_path: Path) -> None:
    server = make_world(tmp_path, people=8)
    world, admin = server.world, server.admin
    await world.connect(server.bot)
    await server.settle()
    await server.ask(admin, "musadmin txapelketa sortu", nombre="Udaberri", juegos=3,
                     sorteo="random", donde="mesa")
    await sign_up_pairs(server, "Udaberri", server.people)
    await server.ask(admin, "musadmin txapelketa sortear")
    await server.advance(5)

    bad = await server.ask(admin, "musadmin txapelketa plazo", fecha="pasado mañana", ronda=1)
    assert "no es una fecha" in private(bad)
    which = await server.ask(admin, "musadmin txapelketa plazo", fecha="2025-06-03 20:00")
    assert "qué partida o de qué ronda" in private(which)
    set_ = await server.ask(admin, "musadmin txapelketa plazo", fecha="2025-06-03 20:00",
                            ronda=1)
    assert private(set_) == f"Plazo puesto: <t:{DEADLINE}:f> (<t:{DEADLINE}:R>)."
    await server.advance(2)
    [shown] = said(server, "⏰ Ronda 1")
    assert f"<t:{DEADLINE}:f>" in shown.content and not shown.pinged

    # --- a day before: each match's four players, and nobody else -----------------------
    await hours_pass(server, 23)
    assert not said(server, "⏰ Partida")
    await hours_pass(server, 2)
    for match_id in ("W1-1", "W1-2"):
        [day] = said(server, f"⏰ Partida {match_id}:")
        assert "Queda un día" in day.content and f"<t:{DEADLINE}:R>" in day.content
        assert day.pinged == people_of(server, match_id)

    # W1-1 is played and agreed; W1-2 is not.
    t = the_cup(server).tournament
    (a, _), (b, _) = (t.pairs[p].players for p in t.matches["W1-1"].pairs if p is not None)
    await server.ask(next(p for p in server.people if p.user == a), "txapelketa resultado",
                     juegos="3-0")
    await server.ask(next(p for p in server.people if p.user == b), "txapelketa resultado",
                     juegos="0-3")
    assert the_cup(server).tournament.matches["W1-1"].decided

    await hours_pass(server, 22.5)  # 47.5 h: an hour before
    hour = [m for m in said(server, "⏰ Partida") if "Queda una hora" in m.content]
    assert [m.content.split(":")[0] for m in hour] == ["⏰ Partida W1-2"]
    assert not said(server, "⌛")
    await hours_pass(server, 1)  # 48.5 h: past it
    [asked] = said(server, "⌛ Partida W1-2")
    assert asked.pinged == {admin.user}, "the organiser alone is asked"
    assert not the_cup(server).tournament.matches["W1-2"].decided, "never decided alone"
    [shown] = [m for m in world.messages(server.channel) if m.content.startswith("📋")]
    assert "⌛ W1-2:" in shown.content and "fuera de plazo" in shown.content
    assert "🤝 W1-1:" in shown.content
    player = next(p for p in server.people if p.user in people_of(server, "W1-2"))
    assert "Gestionar servidor" in await tap(server, player, asked, choice("w0"))
    assert await tap(server, admin, asked, choice("more")) == "Hecho."
    [more] = said(server, "⏰ Partida W1-2: plazo")
    new = the_cup(server).tournament.deadline_of(the_cup(server).tournament.matches["W1-2"])
    assert new is not None and f"<t:{int(new.timestamp())}:f>" in more.content
    assert DAY <= new.timestamp() - DEADLINE <= DAY + 3600, "a day from the tap"

    # --- a restart; the new deadline passes; the organiser's walkover ------------------
    await world.disconnect(server.bot)
    await server.clock.advance(10)
    server.bot = make_bot(server.bot.config, server.clock)
    await world.connect(server.bot)
    await server.settle()
    await hours_pass(server, 24.5)
    again = said(server, "⌛ Partida W1-2")
    assert len(again) == 2 and again[-1].pinged == {admin.user}
    assert "Gestionar servidor" in await tap(server, player, asked, choice("w1"))
    assert await tap(server, admin, again[-1], choice("w1")) == "Hecho."
    w12 = the_cup(server).tournament.matches["W1-2"]
    assert w12.state is MatchState.WALKOVER and w12.winner == 1
    assert "ya tiene resultado" in await tap(server, admin, asked, choice("w0")), "decided already"
    assert the_cup(server).tournament.matches["W2-1"].state is MatchState.READY
    assert said(server, "🎴 Partida W2-1"), "the final is called"
    reminders = [m for m in said(server, "⏰ Partida W1-2:") if "Queda" in m.content]
    assert len(reminders) == 4, "a day and an hour before each of its two deadlines"
    db = server.bot.db
    assert db is not None
    assert (await db.find_tournament(server.guild, "Udaberri")).tournament == \
        the_cup(server).tournament
    assert world.report().refusals == {}
    await world.disconnect(server.bot)
