"""``/musadmin config``, ``/mus olvidarme``, the welcome in a server the bot joins, and what people
are told when the database file is locked, damaged or from a newer musbot (real files; nothing may
be lost), through the wire double with the real bot."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import discord
import pytest
from discord_cogs import (
    DEFERRED,
    closing_db,
    connected,
    make_server,
    private,
    public,
    waiting_for_a_lock,
)
from discord_match import Person

from musbot.discordio.failures import storage_text as storage_problem
from musbot.discordio.texts import error
from musbot.storage import SCHEMA_VERSION, CorruptDatabase, Database, DatabaseTooNew

# --- /musadmin config ---------------------------------------------------------------------------


async def test_config_needs_manage_server(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        refused = await server.ask(server.person("Ana"), "musadmin config", reyes=4)
        assert "Gestionar servidor" in private(refused)
        shown = private(await server.ask(server.admin, "musadmin config"))
    assert "Reglas: 8 reyes" in shown, "nothing changed"


def admin_paths(command: dict[str, object]) -> set[str]:
    """Every command path under a synced group, e.g. ``liga crear``."""
    paths: set[str] = set()
    for option in command.get("options") or []:  # type: ignore[union-attr]
        if option["type"] == 1:
            paths.add(option["name"])
        elif option["type"] == 2:
            paths |= {f"{option['name']} {p}" for p in admin_paths(option)}
    return paths


async def test_what_admins_decide_is_one_group_members_do_not_see(tmp_path: Path) -> None:
    """Issue 44: ``/musadmin`` is synced with Manage Server as its default permission and only
    in servers, so a member's menu does not list it nor a DM offer it; each command checks the
    permission again (an admin may open the group to everyone), and ``/mus`` and ``/liga`` keep
    only what players use."""
    server = make_server(tmp_path)
    world = server.world
    async with connected(server):
        ana = server.person("Ana")
        with pytest.raises(ValueError, match="not offered in DMs"):
            await server.ask(ana, "musadmin config", channel=world.dm_channel(ana.user))
        (admin,) = [c for c in world.global_commands if c["name"] == "musadmin"]
        refusals = [private(await server.ask(ana, f"musadmin {path}", nombre="Otoño"))
                    if path.startswith("liga") else
                    private(await server.ask(ana, f"musadmin {path}"))
                    for path in sorted(admin_paths(admin)) if not path.startswith("txapelketa")]
    assert int(admin["default_member_permissions"]) == discord.Permissions(
        manage_guild=True).value
    assert admin.get("contexts") in (None, [0]) and admin.get("dm_permission") is not True
    assert {"config", "liga crear", "liga temporada"} <= admin_paths(admin)
    by_name = {c["name"]: c for c in world.global_commands}
    assert not {"config", "hizkuntza"} & {o["name"] for o in by_name["mus"]["options"]}
    assert not {"crear", "temporada"} & {o["name"] for o in by_name["liga"]["options"]}
    assert all(text.count(".") == 1 and "Gestionar servidor" in text for text in refusals), \
        refusals


async def test_config_shows_and_changes_every_setting(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world, maite, ana = server.world, server.admin, server.person("Ana")
    tables = world.add_text_channel(server.guild, "mesas")
    thread = world.add_thread(tables, "Partida del jueves")
    world.set_locale(maite.user, "de")  # not one of ours: she reads the server's language
    async with connected(server):
        shown = private(await server.ask(maite, "musadmin config"))
        assert "8 reyes · a 40 tantos · 3 juegos por vaca" in shown
        assert "Canales para mesas: todos" in shown and "Idioma: español" in shown
        text = private(await server.ask(
            maite, "musadmin config", reyes=4, puntos=30, juegos=2, vacas=3, real=True,
            corrido=True, senas=False, sena_cazada=25, tiempo=90, idioma="en",
            permitir_canal=tables))
        assert text.startswith("Saved.") and "4 reyes · to 30 tantos" in text
        assert "2 games per vaca · 3 vacas · la real: yes · mus corrido: yes" in text
        assert "señas: no · seña caught: 25%" in text and "Language: English" in text
        assert f"Table channels: <#{tables}>" in text and "Turn timer: 90 s" in text
        assert private(await server.ask(maite, "musadmin config")) == text.split("\n", 1)[1]
        # New tables follow the settings: only in that channel (or its threads).
        refused = await server.ask(ana, "mus mesa")
        assert f"<#{tables}>" in private(refused) and world.messages(server.channel) == []
        await server.ask(ana, "mus mesa", channel=tables)
        await server.ask(ana, "mus mesa", channel=thread)
        shown_there = [m.text() for m in world.messages(tables) + world.messages(thread)]
        assert len(shown_there) == 2
        assert all("4 reyes" in t and "30 tantos" in t for t in shown_there), shown_there
        text = private(await server.ask(maite, "musadmin config", tiempo=0, quitar_canal=tables))
        assert "Turn timer: none" in text and "Table channels: all" in text
        opened = await server.ask(ana, "mus mesa")
    assert not opened.refusals and world.messages(server.channel)


async def test_bad_settings_are_refused_and_nothing_changes(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        before = private(await server.ask(server.admin, "musadmin config"))
        refused = await server.ask(server.admin, "musadmin config", tiempo=5, reyes=4)
        assert "0 (sin límite) o de 15 a 600" in private(refused)
        after = private(await server.ask(server.admin, "musadmin config"))
        with pytest.raises(ValueError, match="out of bounds"):  # the client refuses it
            await server.ask(server.admin, "musadmin config", tiempo=601)
    assert after == before


async def test_open_tables_keep_their_rules(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        await server.ask(server.admin, "musadmin config", reyes=4)
        await server.ask(server.person("Ana"), "mus mesa")
        await server.ask(server.admin, "musadmin config", reyes=8, puntos=30)
        rules = private(await server.ask(server.person("Ana"), "mus reglas"))
        await server.advance(10)
    assert "a 40 tantos" in rules and "4 reyes" in rules
    page = server.live_message().text()
    assert "4 reyes" in page and "a 40 tantos" in page


# --- /mus olvidarme -----------------------------------------------------------------------------


async def test_forget_me_asks_first_then_scrubs_everything(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ana = server.person("Ana")
    zoe = Person(server.world.add_user("Zoe"), "Zoe")
    async with connected(server):
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
        await server.ask(ana, "liga unirse", nombre="Otoño")
        await server.ask(server.person("Beñat"), "mus mesa")
        await server.advance(1)
        await server.press(ana, "join1")
        await server.advance(5)
        assert "Ana" in server.live_message().embeds[0]["footer"]["text"]
        ask = await server.ask(ana, "mus olvidarme")
        assert "confirmar:True" in private(ask)
        assert "Ana" in server.live_message().embeds[0]["footer"]["text"], "nothing done yet"
        done = await server.ask(ana, "mus olvidarme", confirmar=True)
        assert done.response_type == DEFERRED and "te ha olvidado" in private(done)
        await server.advance(5)
        footer = server.live_message().embeds[0]["footer"]["text"]
        assert "Ana" not in footer and "Jugador 1" in footer
        standings = public(await server.ask(server.admin, "liga tabla", nombre="Otoño"))
        assert "Ana" not in standings
        nobody = await server.ask(zoe, "mus olvidarme", confirmar=True)
    with closing_db(server.db_path) as raw:
        assert raw.execute("SELECT display_name, forgotten FROM players WHERE user_id = ?",
                           (ana.user,)).fetchall() == [(None, 1)]
    (state,) = server.saved_states()
    assert "Ana" not in state
    assert "no guarda nada tuyo" in private(nobody)


@pytest.mark.parametrize("name", ["Carmen", "Ana"])
async def test_forget_me_scrubs_a_finished_match_at_an_open_table(tmp_path: Path,
                                                                  name: str) -> None:
    """Someone played a league match, left the table once it was over (still open: a rematch
    may follow) and asks to be forgotten: the saved table no longer holds their id nor their
    name (the match's seats, the records waiting to be stored, the pages, the ratings line).
    Ana opened the table; Carmen only played at it."""
    server = make_server(tmp_path)
    person = server.person(name)
    async with connected(server):
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        await server.ask(person, "mus salir")
        (before,) = server.saved_states()
        assert name in before and str(person.user) in before  # what there is to scrub
        done = await server.ask(person, "mus olvidarme", confirmar=True)
        assert "te ha olvidado" in private(done)
        await server.advance(5)
    (state,) = server.saved_states()
    assert str(person.user) not in state and name not in state, _holding(state, person)
    assert "Dani" in state, "the others are still named"


async def test_forget_me_renames_the_table_messages_on_discord(tmp_path: Path) -> None:
    """The table's messages it still keeps current (the page of the match's last hand, and
    the hand before) are edited with the neutral name; older hands' messages are the channel's
    history and stay as they were shown."""
    server = make_server(tmp_path)
    carmen = server.person("Carmen")
    async with connected(server):
        await server.play_match()
        await server.ask(carmen, "mus salir")
        table = server.bot.tables.get(server.channel)
        assert table is not None
        shown = (table.state.page, table.state.pages.previous)
        kept = [number for page in shown if page is not None for number, _ in page.refs]
        assert kept and any("Carmen" in server.world.message(m).text() for m in kept)
        await server.ask(carmen, "mus olvidarme", confirmar=True)
        await server.advance(10)
    for message in kept:
        assert "Carmen" not in server.world.message(message).text()


def _holding(state: str, person: Person) -> list[str]:
    """Where in a saved state a person's id or name appears (a failure's message)."""
    return [key for key, value in json.loads(state).items()
            if str(person.user) in json.dumps(value) or person.name in json.dumps(value)]


# --- the welcome --------------------------------------------------------------------------------


async def test_welcome_prefers_the_system_channel(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world = server.world
    first = world.add_guild("Peña", bot_in=False)
    general = world.add_text_channel(first, "general", position=0)
    system = world.add_text_channel(first, "bienvenidas", position=5, system=True)
    second = world.add_guild("Club", locale="en-US", bot_in=False)
    muted = world.add_text_channel(second, "system", position=5, system=True,
                                   bot_can_send=False)
    later = world.add_text_channel(second, "later", position=2)
    closed = world.add_text_channel(second, "closed", position=0, bot_can_send=False)
    earliest = world.add_text_channel(second, "first", position=1)
    third = world.add_guild("Cerrado", bot_in=False)
    nowhere = world.add_text_channel(third, "general", bot_can_send=False)
    async with connected(server):
        for guild in (first, second, third):
            await world.invite(server.bot, guild)
        await server.settle()
    (welcome,) = world.messages(system)
    assert "/mus mesa" in welcome.content and world.messages(general) == []
    (english,) = world.messages(earliest)
    assert "Open a table" in english.content
    for silent in (muted, later, closed, nowhere):
        assert world.messages(silent) == []
    assert world.report().refusals == {}, "no message tried where the bot may not write"
    assert world.messages(server.channel) == [], "a server the bot was in already: no welcome"


# --- the database file: locked, damaged, too new ------------------------------------------------


async def test_locked_database_is_explained_and_nothing_is_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = make_server(tmp_path)
    waiting_for_a_lock(monkeypatch, server.clock)
    async with connected(server):
        maite = server.admin
        await server.ask(maite, "musadmin liga crear", nombre="Otoño")
        with closing_db(server.db_path) as other:
            other.execute("BEGIN IMMEDIATE")  # another process writing for a long time
            inter = await server.world.slash(server.bot, maite.user, server.channel,
                                             "musadmin liga crear", nombre="Primavera")
            await server.settle()
            settings = await server.world.slash(server.bot, maite.user, server.channel,
                                                "musadmin config", reyes=4)
            await server.settle()
            for waiting in (inter, settings):
                assert waiting.response_type == DEFERRED and not waiting.refusals
            await server.clock.advance(5.0)  # SQLite gives up waiting for the lock
            await server.answered(inter)
            await server.answered(settings)
            other.execute("ROLLBACK")
        for refused in (inter, settings):
            text = private(refused)
            assert "ocupada" in text and "No se ha perdido nada" in text
        assert "Reglas: 8 reyes" in private(await server.ask(maite, "musadmin config"))
        created = await server.ask(maite, "musadmin liga crear", nombre="Primavera")
        assert "creada" in public(created)
        leagues = await server.complete(maite, "liga tabla", "nombre", "")
    assert leagues == ["Otoño", "Primavera"]


async def test_damaged_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    server = make_server(tmp_path)
    async with connected(server):
        inter = await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
    assert "no se pudo abrir al arrancar" in private(inter)
    assert path.read_bytes() == before
    with pytest.raises(CorruptDatabase) as problem:
        await Database.open(path)
    assert "dañada" in storage_problem(problem.value)
    assert "damaged" in storage_problem(problem.value, "en")


async def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "musbot.db"
    db = await Database.open(path)
    await db.create_league(1, "Otoño")
    await db.close()
    with closing_db(path) as raw:
        raw.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (SCHEMA_VERSION + 1, "future", "2030-01-01"))
    before = path.read_bytes()
    server = make_server(tmp_path)
    async with connected(server):
        inter = await server.ask(server.admin, "musadmin config")
    assert "no se pudo abrir al arrancar" in private(inter)
    assert path.read_bytes() == before
    with pytest.raises(DatabaseTooNew) as problem:
        await Database.open(path)
    assert "versión más nueva" in storage_problem(problem.value)


async def test_commands_explain_a_database_that_could_not_be_opened(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "musbot.db").write_bytes(b"\0" * 4096)
    server = make_server(tmp_path)
    with caplog.at_level(logging.WARNING, logger="musbot.bot"):
        async with connected(server):
            maite = server.admin
            answers = [
                await server.ask(maite, "musadmin liga crear", nombre="Otoño"),
                await server.ask(maite, "liga unirse", nombre="Otoño"),
                await server.ask(maite, "liga tabla", nombre="Otoño"),
                await server.ask(maite, "liga partidas", nombre="Otoño"),
                await server.ask(maite, "musadmin liga temporada", nombre="Otoño"),
                await server.ask(maite, "musadmin config"),
                await server.ask(maite, "mus perfil", liga="Otoño"),
                await server.ask(maite, "mus olvidarme", confirmar=True),
            ]
            assert await server.complete(maite, "liga unirse", "nombre", "") == []
            # No table opens: its moves could not be saved.
            opened = await server.ask(server.person("Ana"), "mus mesa")
    for inter in answers:
        assert "no se pudo abrir al arrancar" in private(inter), inter.command
    assert private(opened) == error("storage_down")
    assert "database" in caplog.text and "unavailable" in caplog.text

