"""``/liga …`` and ``/mus perfil`` through the wire double: the real bot, a real database file,
and what each person saw: who may do what, what is private, what each refusal says."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord_cogs import (
    DEFERRED,
    Server,
    connected,
    make_server,
    only,
    private,
    public,
)

from musbot.discordio.markup import plain
from musbot.engine import Rules
from musbot.storage import Database, SeatRecord

# --- /liga crear, unirse ------------------------------------------------------------------------


async def test_crear_needs_manage_server(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, maite = server.person("Ana"), server.admin
        refused = await server.ask(ana, "liga crear", nombre="Otoño")
        assert "Gestionar servidor" in private(refused)
        assert await server.complete(ana, "liga unirse", "nombre", "") == []
        created = await server.ask(maite, "liga crear", nombre="Otoño")
        assert "Liga «Otoño» creada" in public(created)
        ack, news = created.messages()  # done, privately; the news, for the channel
        assert (ack.ephemeral, ack.content, news.ephemeral) == (True, "Hecho.", False)
        again = await server.ask(maite, "liga crear", nombre="otono")
        assert "Ya existe" in private(again)
        blank = await server.ask(maite, "liga crear", nombre="  ")
        assert "nombre" in private(blank)
        assert await server.complete(ana, "liga unirse", "nombre", "") == ["Otoño"]
        with pytest.raises(ValueError, match="length"):  # the client keeps names short
            await server.ask(maite, "liga crear", nombre="L" * 51)
    assert server.world.report().refusals == {}


async def test_names_in_public_answers_mention_nobody(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    beñat = server.person("Beñat")
    name = f"Fans de <@{beñat.user}>"
    async with connected(server):
        created = await server.ask(server.admin, "liga crear", nombre=name)
        await server.ask(beñat, "liga unirse", nombre=name)
        standings = await server.ask(beñat, "liga tabla", nombre=name)
    for inter in (created, standings):
        (message,) = [m for m in inter.messages() if not m.ephemeral]
        assert plain(name) in message.content, "the name as typed, never a mention"
    assert server.world.pings() == []
    public_bodies = [c.json for c in server.world.calls
                     if c.kind == "webhook" or (c.kind == "callback" and
                                                 not int((c.json.get("data") or {})
                                                         .get("flags") or 0) & 64)]
    shown = [body for body in public_bodies if str(beñat.user) in str(body)]
    assert shown and all(_silent(body) for body in shown), shown


def _silent(body: dict[str, object]) -> bool:
    """Whether a request's message pings nobody (ephemeral ones never do)."""
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    assert isinstance(data, dict)
    if int(data.get("flags") or 0) & 64:
        return True
    mentions = data.get("allowed_mentions")
    return isinstance(mentions, dict) and not mentions.get("users") and \
        "users" not in (mentions.get("parse") or [])


async def test_liga_is_not_offered_outside_a_server(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        with pytest.raises(ValueError, match="not offered in DMs"):
            await server.ask(ana, "liga tabla", channel=server.world.dm_channel(ana.user),
                             nombre="x")


async def test_unirse_unknown_league_and_double_join(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        text = private(await server.ask(ana, "liga unirse", nombre="Nada"))
        assert "No hay ninguna liga «Nada»" in text
        assert "ninguna (créala con /liga crear)" in text
        await server.ask(server.admin, "liga crear", nombre="Otoño")
        assert "Ligas: Otoño." in private(await server.ask(ana, "liga unirse", nombre="Nada"))
        joined = await server.ask(ana, "liga unirse", nombre="OTOÑO")
        assert "Te has unido a la liga «Otoño»" in private(joined)
        twice = await server.ask(ana, "liga unirse", nombre="Otoño")
        assert "Ya eres de la liga" in private(twice)
        standings = public(await server.ask(ana, "liga tabla", nombre="Otoño"))
    rows = [line for line in standings.splitlines() if line[:1].isdigit()]
    assert len(rows) == 1 and " Ana " in rows[0], standings  # a member, listed before playing


# --- /liga temporada nueva, tabla, partidas ----------------------------------------------------


async def test_new_season_keeps_history(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, maite = server.person("Ana"), server.admin
        await server.ask(maite, "liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        refused = await server.ask(ana, "liga temporada nueva", nombre="Otoño")
        assert "Gestionar servidor" in private(refused)
        assert "temporada 1" in public(await server.ask(ana, "liga tabla", nombre="Otoño"))
        news = public(await server.ask(maite, "liga temporada nueva", nombre="Otoño"))
        assert "cerrada la temporada 1" in news and "empieza la temporada 2" in news
        current = public(await server.ask(ana, "liga tabla", nombre="Otoño"))
        assert "temporada 2" in current and "Carmen" in current  # members stay listed
        old = public(await server.ask(ana, "liga tabla", nombre="Otoño", temporada=1))
        missing = await server.ask(ana, "liga tabla", nombre="Otoño", temporada=9)
        assert "no tiene temporada 9" in private(missing)
    assert "temporada 1 (cerrada)" in old
    lines = old.splitlines()
    assert any(line.startswith("#  Jugador") for line in lines)
    rows = [line for line in lines if line[:1].isdigit()]
    assert len(rows) == 4 and all(" 1 " in row for row in rows)
    assert {name for row in rows for name in ("Ana", "Beñat", "Carmen", "Dani") if name in row} \
        == {"Ana", "Beñat", "Carmen", "Dani"}


async def test_partidas_lists_recent_results(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        await server.ask(server.admin, "liga crear", nombre="Otoño")
        empty = await server.ask(ana, "liga partidas", nombre="Otoño")
        assert "Todavía no hay partidas" in public(empty)
        await server.play_match(league="Otoño")
        text = public(await server.ask(ana, "liga partidas", nombre="Otoño"))
    [line] = text.splitlines()[1:]
    assert " ganan a " in line and "puntúa" in line
    assert "Ana y Carmen" in line and "Beñat y Dani" in line


async def test_long_standings_and_results_fit_in_a_message(tmp_path: Path) -> None:
    """Forty members, and ten matches of trios with long names: each answer shows what fits in
    one message and says how much more there is."""
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        await server.ask(server.admin, "liga crear", nombre="Otoño")
        db = await Database.open(server.db_path)  # as if they had played over the months
        try:
            league = await db.get_league(server.guild, "Otoño")
            members = [(10**17 + i, f"Socio número {i:02d} de la peña") for i in range(40)]
            for user_id, name in members:
                await db.join_league(league.league_id, user_id, name)
            for match in range(10):
                seats = [SeatRecord.human(seat, *members[(match + seat) % 40]) for seat in range(6)]
                match_id = await db.start_match(seats, rules=Rules.for_players(6),
                                                league_id=league.league_id)
                await db.record_finished_match(match_id, match % 2, rated=False)
        finally:
            await db.close()
        standings = await server.ask(ana, "liga tabla", nombre="Otoño")
        results = await server.ask(ana, "liga partidas", nombre="Otoño")
    assert not standings.refusals and not results.refusals
    table = public(standings)
    rows = [line for line in table.splitlines() if line[:1].isdigit()]
    assert len(table) <= 2000 and 20 < len(rows) < 40
    assert table.endswith(f"y {40 - len(rows)} más.")
    recent = public(results).splitlines()
    assert len("\n".join(recent)) <= 2000 and " ganan a " in recent[1]
    assert 1 < len(recent) - 2 < 10 and recent[-1] == f"… y {10 - (len(recent) - 2)} más."


# --- /liga mesa ---------------------------------------------------------------------------------


async def test_mesa_marks_the_table_before_the_match(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, beñat, maite = server.person("Ana"), server.person("Beñat"), server.admin
        await server.ask(maite, "liga crear", nombre="Otoño")
        none = await server.ask(ana, "liga mesa", nombre="Otoño")
        assert "No hay ninguna mesa" in private(none)
        await server.ask(ana, "mus mesa", puntos=5, juegos=1)
        await server.advance(1)
        await server.press(ana, "join1")
        stranger = await server.ask(beñat, "liga mesa", nombre="Otoño")
        assert "sentado" in private(stranger)
        unknown = await server.ask(ana, "liga mesa", nombre="Nada")
        assert "No hay ninguna liga «Nada»" in private(unknown)
        marked = await server.ask(ana, "liga mesa", nombre="Otoño")
        assert "cuenta para la liga «Otoño»" in public(marked)
        friendly = await server.ask(maite, "liga mesa")  # not seated, but manages the server
        assert "amistosa" in public(friendly)
        await server.advance(1)
        await server.press(ana, "start")
        late = await server.ask(ana, "liga mesa", nombre="Otoño")
        assert "ya ha empezado" in private(late)
        from discord_match import play_to_the_end

        await play_to_the_end(server)
        results = public(await server.ask(ana, "liga partidas", nombre="Otoño"))
    assert "Todavía no hay partidas" in results, "a friendly table's match counts nowhere"


async def test_league_name_autocomplete(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        for name in ("Otoño", "Primavera"):
            await server.ask(server.admin, "liga crear", nombre=name)
        assert await server.complete(ana, "liga unirse", "nombre", "pri") == ["Primavera"]
        assert await server.complete(ana, "liga tabla", "nombre", "O") == ["Otoño"]
        assert await server.complete(ana, "liga tabla", "nombre", "otoÑO") == ["Otoño"]
        assert await server.complete(ana, "liga tabla", "nombre", "otono") == ["Otoño"]
        assert await server.complete(ana, "liga mesa", "nombre", "") == ["Otoño", "Primavera"]
        for i in range(30):
            await server.ask(server.admin, "liga crear", nombre=f"Liga {i}")
        assert len(await server.complete(ana, "liga partidas", "nombre", "liga")) == 25


# --- /mus perfil --------------------------------------------------------------------------------


async def test_profile_with_rating_chart(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        await server.ask(server.admin, "liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        inter = await server.ask(server.person("Ana"), "mus perfil")
    assert inter.response_type == DEFERRED
    message = only(inter)
    assert message.ephemeral, "private unless shared"
    lines = message.content.splitlines()
    assert lines[0] == "**Ana** · liga «Otoño»"
    assert lines[1].startswith("Partidas: 1 (")
    assert lines[2].startswith("Pareja favorita: Carmen (1 partidas")
    assert lines[3].startswith("Órdagos: ")
    assert lines[4].startswith("Puntuación: ")
    (chart,) = message.attachments
    assert chart["filename"] == "puntuacion.png" and chart["size"] > 1000
    (upload,) = [f for c in server.world.calls for f in c.files
                 if f.filename == "puntuacion.png"]
    assert upload.head.startswith(b"\x89PNG\r\n\x1a\n")


async def test_profile_defers_before_drawing_the_chart(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The chart takes about a second of CPU, seconds on a busy host: here four seconds of the
    fake clock. Discord drops an interaction not answered within 3 s."""
    server = make_server(tmp_path)
    drawn: list[float] = []
    draw = Database.rating_chart

    async def slow_chart(self: Database, *args: object, **kwargs: object) -> bytes:
        await server.clock.sleep(4.0)
        drawn.append(server.clock.now())
        return await draw(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Database, "rating_chart", slow_chart)
    async with connected(server):
        await server.ask(server.admin, "liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        start = server.clock.now()
        inter = await server.world.slash(server.bot, server.person("Ana").user, server.channel,
                                         "mus perfil", publico=True)
        await server.settle()
        assert [(a.type, a.at) for a in inter.responses] == [(DEFERRED, start)]
        assert drawn == [] and not inter.refusals
        await server.clock.advance(4.0)
        await server.answered(inter)
    assert drawn == [start + 4.0]
    message = only(inter)
    assert not message.ephemeral and not message.loading and message.content.startswith("**Ana**")
    assert [a["filename"] for a in message.attachments] == ["puntuacion.png"]
    assert message.edits[-1].at == start + 4.0


async def test_profile_of_someone_else_shared_and_of_nobody(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    zoe = server.world.add_user("Zoe")
    async with connected(server):
        ana = server.person("Ana")
        await server.play_match(["Ana", "Beñat"])  # two people, two bots, no league
        shared = await server.ask(ana, "mus perfil", usuario=server.person("Beñat").user,
                                  publico=True)
        nobody = await server.ask(ana, "mus perfil", usuario=zoe)
        unknown = await server.ask(ana, "mus perfil", liga="Nada")
        unknown_shared = await server.ask(ana, "mus perfil", liga="Nada", publico=True)
    message = only(shared)
    assert not message.ephemeral and message.content.startswith("**Beñat**")
    assert "Pareja favorita: todavía ninguna" in message.content and not message.attachments
    assert "Zoe todavía no ha terminado ninguna partida" in private(nobody)
    assert "No hay ninguna liga «Nada»" in private(unknown)
    assert "No hay ninguna liga «Nada»" in private(unknown_shared), "a refusal is never shared"


# --- the commands as Discord offers them -------------------------------------------------------


async def test_feature_commands_join_the_mus_group_and_leave_with_their_cog(
        tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world = server.world

    def offered(name: str) -> set[str]:
        (command,) = [c for c in world.global_commands if c["name"] == name]
        return {o["name"] for o in command.get("options") or []}

    async with connected(server):
        assert {"mesa", "config", "perfil", "olvidarme"} <= offered("mus")
        assert offered("liga") == {"crear", "unirse", "temporada", "tabla", "partidas", "mesa"}
        await server.bot.unload_extension("cogs.perfil")
        await server.bot.tree.sync()
        assert "perfil" not in offered("mus") and "config" in offered("mus")
        await server.bot.load_extension("cogs.perfil")
        await server.bot.tree.sync()
        assert "perfil" in offered("mus")
        inter = await server.ask(server.person("Ana"), "mus perfil")
    assert "todavía no ha terminado ninguna partida" in private(inter)


# --- failures -----------------------------------------------------------------------------------


async def test_an_unexpected_failure_is_a_sentence_and_a_log_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the storage layer")

    server = make_server(tmp_path)
    monkeypatch.setattr(Database, "create_league", broken)
    async with connected(server):
        with caplog.at_level(logging.ERROR):
            inter = await server.ask(server.admin, "liga crear", nombre="Otoño")
    assert private(inter).startswith("Algo ha fallado por nuestra parte")
    (record,) = [r for r in caplog.records if r.name == "musbot.discordio.failures"]
    assert record.getMessage() == f"unexpected failure at table {server.channel}"
    assert "RuntimeError: a bug in the storage layer" in caplog.text  # with its traceback


__all__ = ["Server"]
