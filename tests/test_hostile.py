"""Hostile members and broken servers (issue 22), on the wire: the scenarios of
``tests/hostile.py`` held to their targets, and the rest of what a careful server admin expects
of a bot they invited (limits on tables, idle tables closed, stale discard buttons refused)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg
import discord
import hostile
import pytest
from discord_match import make_scene, page_lines, play_to_the_end, to_discards
from hypothesis import given
from hypothesis import strategies as st

from musbot.discordio.guard import Refused, RequestGuard
from musbot.discordio.markup import SPECIAL, plain
from musbot.discordio.transport import ANSWER_SECONDS
from musbot.engine.cards import Card, parse_card
from musbot.storage import Database
from musbot.table import ManualClock

UPDATE_MESSAGE = 7
ANYWHERE = "*_~|`[<@"
LINE_START = "#>-"


def bare_markup(text: str) -> list[str]:
    """The characters that start Discord markup and are not escaped by a backslash: anywhere,
    or at a line's start (headers, quotes, lists)."""
    found: list[str] = []
    escaped = False
    start = True
    for ch in text:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in ANYWHERE or (start and ch in LINE_START):
            found.append(ch)
        if ch == "\n":
            start = True
        elif not ch.isspace():
            start = False
    return found


def test_plain_text_escapes_every_markup_character() -> None:
    for name in (hostile.MASKED_LINK, "<@123456789012345678>", "@everyone", "**x**", "a\\||b",
                 "# título", "> cita", "`code`", "~~x~~", "__x__", "-# small"):
        assert bare_markup(plain(name)) == [], name
        # Discord drops a backslash before punctuation: what is read is the name as typed.
        assert re.sub(r"\\([^0-9A-Za-z\s])", r"\1", plain(name)) == name
    assert bare_markup(hostile.MASKED_LINK) != []


@given(st.text(alphabet=st.sampled_from("ab 1\n\t\r\x0b\x1c\u2003🪙·#>-\\*_~|`[]<@()"),
               max_size=40))
def test_plain_leaves_a_line_alone_only_when_it_holds_no_markup(text: str) -> None:
    """A line with nothing to escape is returned as it is (the common case, searched rather
    than rewritten); any other is escaped whole, and reads as typed."""
    shown = plain(text)
    assert bare_markup(shown) == []
    assert re.sub(r"\\([^0-9A-Za-z\s])", r"\1", shown) == text
    if not SPECIAL.intersection(text) and not re.search(r"^\s*[#>-]", text, re.MULTILINE):
        assert shown is text
    else:
        assert shown != text


# --- 1-3: ghost pings, markdown, names that cannot be told apart --------------------------------


async def test_names_are_text_and_ping_only_whom_a_message_addresses(tmp_path: Path) -> None:
    """A nickname that is someone's mention, a masked link with spoiler bars, «Bot 6» beside the
    real Bot 6, a name of invisible characters and «@everyone», at one table: nobody outside it
    is ever notified, every name reads as typed, and no two seats read alike."""
    found = await hostile.names(tmp_path)
    victim = found["victim"]
    assert found["pings_not_meant"] == 0
    assert found["victim_pinged"] == found["everyone_pinged"] == 0
    assert found["pings"] >= 1, "the reminders still notify the person they address"
    # «No es tu turno: habla <@victim>.» is text, and the answer notifies nobody.
    assert found["out_of_turn_answer"] == f"No es tu turno: habla \\<\\@{victim}>."
    # /mus perfil publico:True: the title is the name as typed, bold is the bot's own.
    [profile] = found["profile"]
    assert profile.startswith(f"**\\<\\@{victim}>**")
    assert bare_markup(profile.replace("**", "", 2)) == []
    # The page: every line plain text, whatever the names hold.
    assert bare_markup(found["page"]) == []
    assert plain("[premio]") in found["page"], "the link's name, as text"
    # Told apart and visible: the person called «Bot 6» is marked, the invisible name is the
    # username, and the pairs' fields name them all as they are shown (escaped there).
    names = found["names"]
    assert names[2] == "Bot 6 (asiento 3)" and names[5] == "Bot 6"
    assert names[3] == "zuri"
    assert len({name.casefold() for name in names.values()}) == 6
    assert "Bot 6 (asiento 3)" in found["seats"] and "zuri" in found["seats"]


async def test_two_people_of_one_name_are_both_marked(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ())
    first = hostile.join(scene, "Ana")
    second = hostile.join(scene, "Otra", nick="ana")
    await scene.world.connect(scene.bot)
    await scene.slash(first, "mus mesa")
    await scene.slash(first, "mus unirse")
    await scene.slash(second, "mus unirse")
    assert scene.table().names() == {0: "Ana (asiento 1)", 1: "ana (asiento 2)"}
    await scene.advance(2)
    lines = page_lines(scene.live_message())
    assert lines[-1].startswith("ana (asiento 2) se sienta en el asiento 2")


# --- 4: a flood --------------------------------------------------------------------------------


async def test_a_flooding_player_gets_one_answer_and_holds_nothing_up(tmp_path: Path) -> None:
    """200 messages in 2 s, then one every 0.3 s: one answer for the burst, one per 5 s after,
    and the next hand's message goes out when the hand is dealt (the issue: 150 answers queued,
    the next hand 141–153 s late)."""
    found = await hostile.flood(tmp_path)
    assert found["messages"] > 400
    assert found["answers_to_the_burst"] == 1
    assert found["answers_per_minute"] <= 60 / ANSWER_SECONDS
    assert found["next_hand_delay"] <= 5.0
    assert found["rate_limited"] == 0


# --- 5: lost permissions -------------------------------------------------------------------------


async def test_lost_permissions_pause_the_table_without_a_request_storm(tmp_path: Path) -> None:
    """Send Messages taken from the bot's role mid-match, then View Channel hidden by an
    overwrite: the gateway's update pauses the table before any call is refused. Send Messages
    taken where no event tells the bot: the first refusal (403/50013) is the only invalid
    request. Each time the table stops (nobody plays, nobody's clock runs), each person is told
    once by DM, and when the permission comes back the table shows itself again and plays on."""
    found = await hostile.permissions(tmp_path)
    for lost, codes in (("send", []), ("view", []), ("unseen", [(403, 50013)])):
        figures = found[lost]
        assert figures["invalid_requests"] <= 3, figures
        assert figures["codes"] == codes, figures
        assert figures["still_while_paused"], figures
        assert figures["told"] == {"Ana": 1, "Bea": 1}, figures
        assert figures["resumed"] and figures["shown_again"] and figures["page_says_it"]
    assert found["invalid_requests"] == 1


async def test_a_paused_table_refuses_moves_privately_and_tells_why(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ("Ana",), typing=False)
    ana = scene.people[0]
    world = scene.world
    await world.connect(scene.bot)
    await scene.slash(ana, "mus mesa")
    await scene.slash(ana, "mus unirse")
    await scene.slash(ana, "mus empezar")
    table = scene.table()
    await hostile.until(scene, lambda: table.state.awaits(ana.user))
    message = await scene.shown_turn(ana)
    world.set_overwrite(scene.channel, world.bot_user.id, deny=hostile.SEND)  # CHANNEL_UPDATE
    await scene.advance(1)
    assert table.hidden == "sin permiso en #mus: Enviar mensajes"
    assert world.invalid_requests() == [], "the gateway told: nothing was asked"
    verb = next(c.rsplit(":", 1)[-1] for c in message.custom_ids()
                if c.rsplit(":", 1)[-1] in ("mus", "paso", "quiero"))
    pressed = await scene.press(ana, verb, message)
    [text] = pressed.ephemeral_texts()
    assert text.startswith("La mesa está en pausa (sin permiso en #mus: Enviar mensajes); ")
    [told] = [t for t in scene.dm_texts(ana) if t.startswith("⏸️")]
    assert "le falta Enviar mensajes" in told
    # The channel's overwrite goes: CHANNEL_UPDATE, the table resumes.
    world.set_overwrite(scene.channel, world.bot_user.id)
    await scene.advance(1)
    assert table.hidden is None


async def test_opening_a_table_where_the_bot_cannot_play_is_refused(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ("Ana",))
    ana = scene.people[0]
    world = scene.world
    world.set_overwrite(scene.channel, world.bot_user.id,
                        deny=discord.Permissions(embed_links=True).value)
    await world.connect(scene.bot)
    refused = await scene.slash(ana, "mus mesa")
    assert refused.ephemeral_texts() == [
        "musbot no puede llevar una mesa en este canal: le falta Insertar enlaces."]
    assert scene.bot.tables.get(scene.channel) is None
    assert world.invalid_requests() == []


async def test_the_guard_holds_requests_back_before_discord_would_ban() -> None:
    """Past its limit of invalid answers in the window, the guard makes the next request wait
    until the oldest ones leave the window; a channel that refused is not asked again."""
    clock = ManualClock()
    guard = RequestGuard(clock, limit=3, window=600.0)
    sent: list[float] = []

    class Answer:
        status, reason = 403, "Forbidden"

    async def send(route: Any, **_: Any) -> Any:
        sent.append(clock.now())
        if route.method == "POST":
            raise discord.Forbidden(Answer(), {"code": 50007, "message": "Cannot send"})  # type: ignore[arg-type]
        return {}

    from discord.http import Route
    dm = Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    for _ in range(3):
        with pytest.raises(discord.Forbidden):
            await guard.request(send, dm)
    assert guard.recent() == 3
    import asyncio
    waiting = asyncio.get_running_loop().create_task(
        guard.request(send, Route("GET", "/users/@me")))
    await clock.advance(599)
    assert not waiting.done() and len(sent) == 3, "held back"
    await clock.advance(2)
    await waiting
    assert sent[-1] >= 600 and guard.held == 1
    # A channel that answered 50001 is not asked again.
    guard._refused(9, "GET /channels/{channel_id}", 50001)
    with pytest.raises(Refused):
        await guard.request(send, Route("PATCH", "/channels/{channel_id}/messages/{message_id}",
                                        channel_id=9, message_id=1))
    assert len(sent) == 4


# --- 6: limits on tables, idle tables ----------------------------------------------------------


async def test_open_tables_are_limited_per_person_and_per_server(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ("Ana", "Bea"))
    ana, bea = scene.people
    world = scene.world
    channels = [scene.channel] + [world.add_text_channel(scene.guild, f"mus{i}")
                                  for i in range(4)]
    admins = world.add_role(scene.guild, "Admins", discord.Permissions(manage_guild=True).value)
    world.give_role(scene.guild, world.owner.id, admins)
    await world.connect(scene.bot)
    opened = []
    for channel in channels:  # one after the other, as a person types them
        opened.append(await world.slash(scene.bot, ana.user, channel, "mus mesa"))
        await scene.settle()
    assert [scene.bot.tables.get(c) is not None for c in channels] == \
        [True, True, True, False, False]
    assert opened[3].ephemeral_texts() == [
        "Ya tienes 3 mesas abiertas en este servidor, el máximo por persona (/musadmin config): "
        "cierra alguna antes de abrir otra."]
    said = await world.slash(scene.bot, world.owner.id, scene.channel, "musadmin config",
                             mesas_servidor=4, mesas_persona=1, inactividad=20)
    await scene.settle()
    assert "Mesas abiertas: 4 en el servidor y 1 por persona" in said.ephemeral_texts()[-1]
    await world.slash(scene.bot, bea.user, channels[3], "mus mesa")
    await scene.settle()
    assert scene.bot.tables.get(channels[3]) is not None
    full = await world.slash(scene.bot, world.owner.id, channels[4], "mus mesa")
    await scene.settle()
    assert full.ephemeral_texts() == [
        "Este servidor ya tiene 4 mesas abiertas, el máximo (/musadmin config): cierra alguna "
        "antes de abrir otra."]
    # Nobody joined or played: 20 minutes later every table closes, saying so.
    await scene.advance(19 * 60)
    assert len(scene.bot.tables) == 4
    await scene.advance(2 * 60 + 5)
    assert len(scene.bot.tables) == 0
    await scene.advance(5)
    last = [m for m in world.messages(channels[3]) if m.embeds][-1]
    assert page_lines(last)[-1] == \
        "💤 Nadie se ha sentado ni ha jugado en 20 min: se cierra la mesa."


async def test_a_table_in_play_is_not_idle(tmp_path: Path) -> None:
    """Idle counts from the table's last change: a match in play, bots' moves included,
    never is."""
    scene = make_scene(tmp_path, ("Ana",))
    ana = scene.people[0]
    world = scene.world
    await world.connect(scene.bot)
    await world.slash(scene.bot, world.owner.id, scene.channel, "musadmin config", inactividad=5)
    await scene.slash(ana, "mus mesa")
    await scene.slash(ana, "mus unirse")
    await scene.slash(ana, "mus empezar")
    table = scene.table()
    start = scene.clock.now()
    await hostile.play_until(scene, lambda: scene.clock.now() > start + 12 * 60
                             or table.lifecycle != "playing")
    assert scene.clock.now() > start + 6 * 60, "played for longer than the idle time"
    assert scene.bot.tables.get(scene.channel) is table and table.lifecycle != "closed"


async def test_the_idle_sweep_never_closes_a_table_whose_last_move_is_newer_than_its_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42: the sweep found a table idle, then waited for the server's settings (the
    database), and closed it although a player had sat down meanwhile. It looks again under
    the table's lock."""
    scene = make_scene(tmp_path, ("Ana",))
    ana = scene.people[0]
    world = scene.world
    await world.connect(scene.bot)
    await world.slash(scene.bot, world.owner.id, scene.channel, "musadmin config", inactividad=5)
    await scene.slash(ana, "mus mesa")
    table = scene.table()
    idle = scene.bot.idle
    idle.stop()  # this test sweeps by itself
    await scene.advance(6 * 60)
    settings = idle._idle_minutes

    async def meanwhile(guild_id: int | None) -> int:
        await table.join(ana.user, "Ana")  # a move while the sweep waits for the database
        return await settings(guild_id)

    monkeypatch.setattr(idle, "_idle_minutes", meanwhile)
    assert await idle.sweep() == 0
    assert scene.bot.tables.get(scene.channel) is table and table.lifecycle == "waiting"
    monkeypatch.setattr(idle, "_idle_minutes", settings)
    await scene.advance(6 * 60)
    assert await idle.sweep() == 1, "idle for its limit since that move: closed"


@pytest.mark.parametrize("forge", [
    pytest.param(lambda p: p.update(locale=5), id="a locale that is a number"),
    pytest.param(lambda p: p.update(locale=["es"]), id="a locale that is a list"),
    pytest.param(lambda p: _option(p).update(value="tres"), id="an integer option as text"),
    pytest.param(lambda p: _option(p).update(value=True), id="an integer option as a boolean"),
    pytest.param(lambda p: _option(p).update(value=10**9), id="an integer option out of range"),
    pytest.param(lambda p: _option(p).update(name="nada"), id="an option the command lacks"),
])
async def test_a_forged_interaction_gets_one_sentence_and_nothing_changes(
        tmp_path: Path, forge: Any) -> None:
    """Issue 42: a non-string locale or «mesas_persona: "tres"» left the interaction
    unanswered («Task exception was never retrieved», TypeErrors in the log). Discord checks
    what its clients send and discord.py trusts it; the bot checks at its door."""
    from discord_cogs import connected, make_server, only

    server = make_server(tmp_path)
    async with connected(server):
        inter = await server.world.slash(server.bot, server.admin.user, server.channel,
                                         "musadmin config", mesas_persona=3, forge=forge)
        await server.answered(inter)
        answer = only(inter)
        assert answer.ephemeral
        db = server.bot.db
        assert db is not None
        saved = (await db.server_settings(server.guild)).max_tables_per_person
        if not isinstance(inter.payload["locale"], str):  # read as no locale: it runs
            assert answer.text().startswith("Guardado") and saved == 3
            return
        assert len(answer.text().splitlines()) == 1 and "opciones" in answer.text()
        assert saved != "tres" and saved != 10**9, "nothing saved"


def _option(payload: dict[str, Any]) -> dict[str, Any]:
    """The first option of ``/musadmin config …`` in an interaction's payload."""
    return payload["data"]["options"][0]["options"][0]


# --- 7: a forgotten player ---------------------------------------------------------------------


async def test_forgetting_leaves_no_byte_of_the_name_in_the_sqlite_files(tmp_path: Path) -> None:
    """``secure_delete`` forced off on every connection first (SQLite's upstream default): the
    name is in the database and its log before, and in neither after ``/mus olvidarme``, while
    the bot still runs and after it stops. The control, musbot deaf to its own setting, leaves
    copies: the check can fail."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    found = await hostile.forgetting(tmp_path / "a", lambda db, user: db.forget_player(user))
    assert found["before"] > 0 and found["running"] == 0 and found["closed"] == 0
    control = await hostile.forgetting(tmp_path / "b", lambda db, user: db.forget_player(user),
                                       deaf=True)
    assert control["closed"] > 0


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_forgetting_leaves_no_dead_tuple_of_the_name_on_postgresql(
        target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The relation files (and their TOAST) read raw through the server after a checkpoint:
    the name's old row versions are gone after forgetting (VACUUM FULL); without it they stay."""

    async def name_bytes(db: Database) -> int:
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("CHECKPOINT")
            files = await conn.fetch(
                "SELECT pg_relation_filepath(oid), pg_relation_size(oid) FROM pg_class"
                " WHERE relkind IN ('r', 't', 'i') AND pg_relation_filepath(oid) IS NOT NULL"
                " AND relnamespace IN (SELECT oid FROM pg_namespace WHERE nspname NOT IN"
                " ('pg_catalog', 'information_schema'))")
            found = 0
            for path, size in files:
                if size:
                    data = await conn.fetchval("SELECT pg_read_binary_file($1, 0, $2, true)",
                                               path, size)
                    found += (data or b"").count(hostile.NAME.encode())
            return found
        finally:
            await conn.close()

    async def write_and_forget(scrub: bool) -> tuple[int, int]:
        async with Database(target) as db:
            user = 4242 if scrub else 4343
            for version in range(10):
                await db.save_table(user, 2, {"seats": [{"user_id": user, "name": hostile.NAME}],
                                              "n": version})
            await db.join_league((await db.create_league(2, f"Liga {user}")).league_id, user,
                                 hostile.NAME)
            before = await name_bytes(db)
            await db.save_table(user, 2, {"seats": [{"user_id": user, "name": "Jugador 1"}]})
            if not scrub:
                monkeypatch.setattr(db.backend, "scrub", _nothing)
            await db.forget_player(user)
            return before, await name_bytes(db)

    control = await write_and_forget(scrub=False)
    assert control[0] > 0 and control[1] > 0, control
    monkeypatch.undo()
    before, after = await write_and_forget(scrub=True)  # the control's leftovers go too
    assert before > 0 and after == 0


async def _nothing(*_: Any) -> None:
    return None


JUNK = [["4o", "5c", "6e", "7b"], ["4c", "5e", "6b", "7o"], ["4e", "5b", "6o", "7c"],
        ["4b", "5o", "6c", "7e"]]
"""Four hands without pares, juego or punto: every bot asks for mus."""


def junk_deck(cards: Sequence[Card]) -> list[Card]:
    """Every deal the same: the :data:`JUNK` hands (one card to each seat in turn), so every
    hand 1 of every match has its first discard round."""
    first = [parse_card(hand[i]) for i in range(4) for hand in JUNK]
    return first + [card for card in cards if card not in first]


# --- 8: a stale discard prompt --------------------------------------------------------------------


async def test_a_discard_prompt_from_the_last_match_refuses_in_the_rematch(tmp_path: Path) -> None:
    """The first match's first discard prompt, pressed when the rematch is in the discard round
    of the same hand number and mus round: refused, nothing picked (the issue: the token was
    «hand.round», the same again, and the press discarded a card the prompt never showed)."""
    scene = make_scene(tmp_path, ("Ana",), deck=junk_deck)
    ana = scene.people[0]
    world = scene.world
    await world.connect(scene.bot)
    await scene.slash(ana, "mus mesa", puntos=5, juegos=1, vacas=1, senas=False)
    await scene.slash(ana, "mus unirse")
    await scene.slash(ana, "mus empezar")
    table = scene.table()
    await to_discards(scene)
    first = table.match
    assert first is not None
    round_ = (first.hand_number, first.hand.mus_rounds)
    [stale] = [m for m in world.dms(ana.user) if any(":dc:" in c for c in m.custom_ids())]
    toggle = next(c for c in stale.custom_ids() if c.startswith("mus:dt:") and c.endswith(":0"))
    await play_to_the_end(scene)
    assert stale.custom_ids() == [], "once the hand moved on, its prompt's buttons are gone"
    rematch = await scene.press(ana, "rematch")
    assert rematch.response_type == UPDATE_MESSAGE and table.match is not first
    match = table.match
    assert match is not None
    while True:
        await to_discards(scene)
        now = (match.hand_number, match.hand.mus_rounds)
        if now >= round_:
            break
        await hostile.until(scene, lambda: table.state.awaits(ana.user))
        await scene.play_turn(ana)  # her discard: on to the next round
        await hostile.until(scene, lambda at=now: match.view(-1).phase != "descarte"
                            or (match.hand_number, match.hand.mus_rounds) != at)
    assert (match.hand_number, match.hand.mus_rounds) == round_, "another seed"
    seat = table.seat_of(ana.user)
    assert seat is not None
    held = match.view(seat).cards
    stale.components = [{"type": 1, "components": [  # a client that kept the old buttons
        {"type": 2, "custom_id": toggle, "style": 2, "label": "1"}]}]
    pressed = await world.press(scene.bot, ana.user, stale.id, toggle)
    await scene.settle()
    assert pressed.ephemeral_texts() == [
        "Esas cartas ya no son las tuyas: pulsa «Ver mis cartas» otra vez."]
    assert pressed.response_type != UPDATE_MESSAGE, "the stale prompt's buttons stay as they were"
    assert match.view(seat).cards == held


async def test_a_role_given_to_the_bot_or_any_interaction_brings_the_table_back(
        tmp_path: Path) -> None:
    """The server's @everyone cannot post; the bot gets a role that can (GUILD_MEMBER_UPDATE of
    its own member): the table resumes. Then a change Discord sends no event the bot gets (the
    bot's overwrite removed while it was away): the next interaction there, which carries the
    bot's permissions, brings the table back."""
    scene = make_scene(tmp_path, ("Ana",), typing=False)
    ana = scene.people[0]
    world = scene.world
    await world.connect(scene.bot)
    await scene.slash(ana, "mus mesa")
    await scene.slash(ana, "mus unirse")
    table = scene.table()
    world.set_role_permissions(scene.guild, scene.guild,
                               hostile.DEFAULT_EVERYONE & ~hostile.SEND)
    await scene.advance(2)
    assert table.hidden is not None
    poster = world.add_role(scene.guild, "MusBot", hostile.SEND)
    world.give_role(scene.guild, world.bot_user.id, poster)
    await scene.advance(2)
    assert table.hidden is None, "its own member's update says it may post again"
    # Lost again, and given back without any event reaching the bot.
    world.take_role(scene.guild, world.bot_user.id, poster)
    await scene.advance(2)
    assert table.hidden is not None
    world.guilds[scene.guild].everyone_permissions = hostile.DEFAULT_EVERYONE
    await scene.slash(ana, "mus reglas")
    assert table.hidden is None, "the interaction's app_permissions said so"
    assert world.invalid_requests(scene.channel) == []
