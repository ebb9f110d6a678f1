"""Groups then knockout, round robin and Swiss on the wire double (``tests/wire``), each a small
tournament run from the draw to its champions: every match played by typed moves in its own
thread, the standings (the group tables) posted as pictures within Discord's limits and as text,
the champions announced, the channels' limits and the global budget respected throughout.

Matches are one game of 5 tantos, as in the double elimination's run
(``test_discord_txapelketa.py``): what is tested here is each format's course on Discord."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord_cogs import private, public
from discord_txapelketa import (
    Players,
    assert_final_text,
    assert_pictures_fit,
    assert_within_budget,
    is_turn_call,
    make_world,
    pictures,
    pinged,
    sign_up_pairs,
    threads,
)

from musbot.tournament import Bracket, MatchState, Stage, Tournament


@dataclass(frozen=True)
class Case:
    format: str
    pairs: int
    at_tables: int
    """Matches played at a table, byes aside."""
    sections: tuple[str, ...]
    """The headings of the text version's tables."""
    pages: tuple[str, ...]
    """What the pictures show (their alt text's section)."""


CASES = [
    # Two groups of three (3 matches each), the best two of each to semi-finals and a final.
    Case("groups", 6, 3 + 3 + 2 + 1, ("Grupo A", "Grupo B"), ("Grupos", "Eliminatoria")),
    # Everyone against everyone: 4·3/2 matches.
    Case("round_robin", 4, 6, ("Clasificación",), ("Clasificación",)),
    # ⌈log2 5⌉ = 3 rounds of 2 matches and a bye.
    Case("swiss", 5, 3 * 2, ("Clasificación",), ("Clasificación",)),
]


def check_course(case: Case, final: Tournament) -> None:
    """What the format promises of the matches played (RULES-independent: the tournament's)."""
    played = [m for m in final.matches.values() if m.played]
    meetings = Counter(frozenset(m.pairs) for m in played)
    if case.format == "round_robin":
        assert len(meetings) == case.pairs * (case.pairs - 1) // 2
        assert set(meetings.values()) == {1}, "each two pairs meet once"
        assert final.champion is not None
        assert final.champion.id == final.standings()[0].pair
    elif case.format == "swiss":
        assert set(meetings.values()) == {1}, "no two pairs meet twice"
        byes = Counter(m.pairs[m.winner or 0] for m in final.matches.values()
                       if m.state is MatchState.BYE)
        assert sum(byes.values()) == 3 and set(byes.values()) == {1}, "no pair two byes"
        assert {m.round for m in played} == {1, 2, 3}
        assert final.champion is not None
        assert final.champion.id == final.standings()[0].pair
    else:
        groups = [m for m in played if m.bracket is Bracket.GROUP]
        knockout = [m for m in played if m.bracket is Bracket.WINNERS]
        assert len(groups) == 6 and len(knockout) == 3
        assert all(final.pairs[m.pairs[0] or 0].group == final.pairs[m.pairs[1] or 0].group
                   for m in groups)
        through = {s.pair for group in (0, 1) for s in final.standings(group)[:2]}
        semis = {p for m in knockout if m.round == 1 for p in m.pairs}
        assert semis == through, "the best two of each group go through"
        [last] = [m for m in knockout if m.round == 2]
        assert final.champion is not None and final.champion.id == last.winner_pair


@pytest.mark.parametrize("case", CASES, ids=[c.format for c in CASES])
async def test_a_small_tournament_runs_itself_on_discord(tmp_path: Path, case: Case) -> None:
    server = make_world(tmp_path, people=2 * case.pairs)
    world, admin, people = server.world, server.admin, server.people
    await world.connect(server.bot)
    await server.settle()

    created = await server.ask(admin, "musadmin txapelketa sortu", nombre="Txikia",
                               formato=case.format, juegos=1, puntos=5, sorteo="random")
    assert "Nuevo torneo «Txikia»" in public(created)
    assert "partidas a 1 juego," in public(created), "one juego, in the singular"
    await sign_up_pairs(server, "Txikia", people)
    invited = pinged(world, server.channel)
    drawn = await server.ask(admin, "musadmin txapelketa sortear")
    assert "Hecho" in private(drawn)
    await server.advance(5)

    players = Players(server)
    final = await players.play_out()

    # --- the course, as saved ----------------------------------------------------------
    db = server.bot.db
    assert db is not None
    saved = (await db.find_tournament(server.guild, "Txikia")).tournament
    assert saved.phase is Stage.FINISHED and saved.champion is not None
    assert saved.to_dict() == final.to_dict()
    played = [m for m in saved.matches.values() if m.played]
    assert len(played) == case.at_tables
    assert all(m.state is MatchState.FINISHED and m.games[m.winner or 0] == 1 for m in played)
    assert len(threads(server)) == len(played), "one thread per match, never two"
    assert not any("bot_game" in m.flags for m in played), "people played every turn"
    check_course(case, saved)

    # --- the champions announced, notifying them and nobody else -----------------------
    [announced] = [m for m in world.messages(server.channel) if "txapeldunak" in m.content]
    assert "txapeldunak de «Txikia»" in announced.content
    champions = {u for u in saved.champion.players if u is not None}
    assert announced.pinged == champions
    assert pinged(world, server.channel) == invited | champions
    for place in threads(server):
        called = [m for m in world.messages(place) if m.pinged and not is_turn_call(m)]
        assert len(called) >= 1 and all(len(m.pinged) == 4 for m in called)
        assert all(", a 1 juego." in m.content for m in called)

    # --- the standings: pictures at the draw and after each match (the last match's are
    # the final ones), the text at the draw and the end ----------------------------------
    assert_pictures_fit(server, at_least=1 + len(played))
    shown = {(f.description or "").removeprefix("Txikia — ").partition(" · ")[0]
             for f in pictures(server)}
    assert shown == set(case.pages), shown
    at_draw = [m.content for m in world.messages(server.channel) if not m.attachments
               and all(section in m.content for section in case.sections)]
    assert at_draw and "por jugar" in at_draw[0], "the tables and the first matches at the draw"
    if case.format == "swiss":  # the bye is a point, in the singular
        assert ": 1 punto, Buchholz 0" in at_draw[0] and "1 puntos" not in at_draw[0]
    at_end = assert_final_text(server, saved)
    assert all(section in at_end for section in case.sections)

    print(f"\n{case.format}: {len(played)} matches; "
          f"{assert_within_budget(world, players.moves)}")
    await world.disconnect(server.bot)
