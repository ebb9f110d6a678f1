"""``/liga …`` and ``/mus perfil`` through the wire double: the real bot, a real database file,
and what each person saw: who may do what, what is private, what each refusal says."""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path
from typing import Any

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
from wire import FakeInteraction

from cogs.liga import LINE_WIDTH, PAGE_ROWS, standings_embed
from musbot.discordio.markup import plain
from musbot.engine import Rules
from musbot.i18n import LANGUAGE_CODES, translate
from musbot.storage import Database, SeatRecord, Standing
from musbot.words import columns

PHONE_LINE = 34
"""Characters of an embed description's line a phone (390 px) shows before it wraps."""
RATING_NOTE = translate("SERVER.rating_note", "es")

# --- /musadmin liga crear, /liga unirse ---------------------------------------------------------


async def test_crear_needs_manage_server(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, maite = server.person("Ana"), server.admin
        refused = await server.ask(ana, "musadmin liga crear", nombre="Otoño")
        assert "Gestionar servidor" in private(refused)
        assert await server.complete(ana, "liga unirse", "nombre", "") == []
        created = await server.ask(maite, "musadmin liga crear", nombre="Otoño")
        assert "Liga «Otoño» creada" in public(created)
        ack, news = created.messages()  # done, privately; the news, for the channel
        assert (ack.ephemeral, ack.content, news.ephemeral) == (True, "Hecho.", False)
        again = await server.ask(maite, "musadmin liga crear", nombre="otono")
        assert "Ya existe" in private(again)
        blank = await server.ask(maite, "musadmin liga crear", nombre="  ")
        assert "nombre" in private(blank)
        assert await server.complete(ana, "liga unirse", "nombre", "") == ["Otoño"]
        with pytest.raises(ValueError, match="length"):  # the client keeps names short
            await server.ask(maite, "musadmin liga crear", nombre="L" * 51)
    assert server.world.report().refusals == {}


async def test_names_in_public_answers_mention_nobody(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    beñat = server.person("Beñat")
    name = f"Fans de <@{beñat.user}>"
    async with connected(server):
        created = await server.ask(server.admin, "musadmin liga crear", nombre=name)
        await server.ask(beñat, "liga unirse", nombre=name)
        standings = await server.ask(beñat, "liga tabla", nombre=name)
    for inter in (created, standings):
        (message,) = [m for m in inter.messages() if not m.ephemeral]
        assert plain(name) in message.text(), "the name as typed, never a mention"
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
        assert "ninguna (créala con /musadmin liga crear)" in text
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
        assert "Ligas: Otoño." in private(await server.ask(ana, "liga unirse", nombre="Nada"))
        joined = await server.ask(ana, "liga unirse", nombre="OTOÑO")
        assert "Te has unido a la liga «Otoño»" in private(joined)
        twice = await server.ask(ana, "liga unirse", nombre="Otoño")
        assert "Ya eres de la liga" in private(twice)
        standings = table_of(await server.ask(ana, "liga tabla", nombre="Otoño"))
    # a member, listed before playing, without a rating yet
    assert standings["rows"] == [("*Sin nivel todavía*",), ("**Ana**", "0 partidas")]


# --- /musadmin liga temporada, tabla, partidas ----------------------------------------------------


async def test_new_season_keeps_history(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, maite = server.person("Ana"), server.admin
        await server.ask(maite, "musadmin liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        refused = await server.ask(ana, "musadmin liga temporada", nombre="Otoño")
        assert "Gestionar servidor" in private(refused)
        first = table_of(await server.ask(ana, "liga tabla", nombre="Otoño"))
        assert first["title"] == "Otoño · temporada 1"
        news = public(await server.ask(maite, "musadmin liga temporada", nombre="Otoño"))
        assert "cerrada la temporada 1" in news and "empieza la temporada 2" in news
        current = table_of(await server.ask(ana, "liga tabla", nombre="Otoño"))
        assert current["title"] == "Otoño · temporada 2"
        assert ("**Carmen**", "0 partidas") in current["rows"]  # members stay listed, unrated
        old = table_of(await server.ask(ana, "liga tabla", nombre="Otoño", temporada=1))
        missing = await server.ask(ana, "liga tabla", nombre="Otoño", temporada=9)
        assert "no tiene temporada 9" in private(missing)
    assert old["title"] == "Otoño · temporada 1 (cerrada)"
    assert old == first | {"title": old["title"]}, "the closed season's table as it was"
    names = [re.fullmatch(r"\*\*(\d)\. (\w+)\*\*", row[0]) for row in old["rows"]]
    assert [m.group(1) for m in names if m] == ["1", "2", "3", "4"], old["rows"]
    assert {m.group(2) for m in names if m} == {"Ana", "Beñat", "Carmen", "Dani"}
    won = [row[1] for row in old["rows"] if row[1].endswith("1 ganada")]
    lost = [row[1] for row in old["rows"] if row[1].endswith("0 ganadas")]
    assert len(won) == len(lost) == 2 and all(" · 1 partida, " in row for row in won + lost)
    assert all(int(row.split(" · ")[0]) > int(other.split(" · ")[0])
               for row in won for other in lost), "the winners' rating above the losers'"


async def test_partidas_lists_recent_results(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
        empty = await server.ask(ana, "liga partidas", nombre="Otoño")
        assert "Todavía no hay partidas" in public(empty)
        await server.play_match(league="Otoño")
        text = public(await server.ask(ana, "liga partidas", nombre="Otoño"))
    [line] = text.splitlines()[1:]
    assert " ganan a " in line and "puntúa" in line
    assert "Ana y Carmen" in line and "Beñat y Dani" in line


async def test_long_standings_and_results_fit_in_a_message(tmp_path: Path) -> None:
    """Forty members, and ten matches of trios with long names: the standings come in pages of
    twenty (``pagina``; past the last, the last), the results show what fits in one message and
    say how much more there is."""
    server = make_server(tmp_path)
    async with connected(server):
        ana = server.person("Ana")
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
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
        pages = [await server.ask(ana, "liga tabla", nombre="Otoño", **page)
                 for page in ({}, {"pagina": 2}, {"pagina": 9})]
        results = await server.ask(ana, "liga partidas", nombre="Otoño")
    assert not any(inter.refusals for inter in [*pages, results])
    first, second, past = (table_of(inter) for inter in pages)
    assert first["footer"].endswith("\nPágina 1 de 2") and len(first["rows"]) == PAGE_ROWS + 1
    assert second["footer"].endswith("\nPágina 2 de 2") and second == table_of(pages[2]) == past
    assert first["rows"][0] == ("*Sin nivel todavía*",) == second["rows"][0]  # matches with bots
    shown = [row[0] for table in (first, second) for row in table["rows"][1:]]
    assert len(set(shown)) == 40 and all(row.startswith("**Socio número ") for row in shown)
    assert all(phone_width(line) <= PHONE_LINE for table in (first, second)
               for row in table["rows"] for line in row)
    recent = public(results).splitlines()
    assert len("\n".join(recent)) <= 2000 and " ganan a " in recent[1]
    assert 1 < len(recent) - 2 < 10 and recent[-1] == f"… y {10 - (len(recent) - 2)} más."


async def test_standings_read_on_a_phone(tmp_path: Path) -> None:
    """Six players: four after a league match, a member who has not played, and one whose long
    name holds markup. An embed of short lines (no code block), names as typed and cut with «…»,
    the counts in their plural forms, and a footer that says the figure is a rating."""
    server = make_server(tmp_path)
    long_name = "Maialen *Etxeberria* <@1> Goikoetxea Urrutia"
    async with connected(server):
        maite = server.admin
        await server.ask(maite, "musadmin liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        await server.ask(maite, "liga unirse", nombre="Otoño")
        db = await Database.open(server.db_path)
        try:
            league = await db.get_league(server.guild, "Otoño")
            await db.join_league(league.league_id, 10**17, long_name)
        finally:
            await db.close()
        inter = await server.ask(server.person("Ana"), "liga tabla", nombre="Otoño")
    table = table_of(inter)
    lines = [line for row in table["rows"] for line in row]
    assert all(phone_width(line) <= PHONE_LINE for line in lines), lines
    assert len(table["rows"]) == 7 and table["rows"][4] == ("*Sin nivel todavía*",)
    assert [row[0][:5] for row in table["rows"][:4]] == ["**1. ", "**2. ", "**3. ", "**4. "]
    assert {row[1] for row in table["rows"][:4]} == {"1097 · 1 partida, 1 ganada",
                                                      "940 · 1 partida, 0 ganadas"}
    cut = [row[0] for row in table["rows"][5:] if "Maialen" in row[0]]
    assert cut == [f"**{plain(long_name[:LINE_WIDTH - 4])}…**"], cut  # 29 columns, bold
    assert ("**Maite**", "0 partidas") in table["rows"]
    assert server.world.pings() == []


@pytest.mark.parametrize("lang", LANGUAGE_CODES)
def test_standings_fit_a_phone_in_every_language(lang: str) -> None:
    """The widest rows there can be (a 1500 rating, 999 matches, 22 players on a page, names
    of wide letters, of markup, none): every line within a phone's width, the embed within
    Discord's limits, the note in the footer."""
    names = ["山田太郎" * 9, "*_~|`[]<@" * 6, None, "Ane", "x" * 200]
    rows = [Standing(i, names[i % len(names)], 999, 998, 1, 0, 0, 1500 if i < 15 else None)
            for i in range(22)]
    pages = [standings_embed(rows, "Otoño · temporada 12", lang, page=page).to_dict()
             for page in (1, 2)]
    for embed in pages:
        description = embed["description"]
        assert "```" not in description and len(description) <= 4096
        assert all(phone_width(line) <= PHONE_LINE for line in description.splitlines())
        assert embed["footer"]["text"].startswith(translate("SERVER.rating_note", lang))
        assert sum(len(text) for text in (embed["title"], description,
                                          embed["footer"]["text"])) <= 6000
    assert pages[0]["description"].count("\n") + 1 == 2 * PAGE_ROWS + 1  # the unrated heading
    assert pages[1]["description"].splitlines()[0].startswith("*")  # said again on page 2
    empty = standings_embed([], "Otoño · temporada 1", lang).to_dict()
    assert empty["description"] == translate("SERVER.standings_empty", lang)


def table_of(inter: FakeInteraction) -> dict[str, Any]:
    """The standings the channel saw: one embed and no text, its title, its footer (the note
    first) and its rows, each a heading (one line) or a player's two lines."""
    (message,) = [m for m in inter.messages() if not m.ephemeral]
    assert not message.content and len(message.embeds) == 1, message.texts()
    embed = message.embeds[0]
    assert "```" not in message.text(), "no code block"
    assert embed["footer"]["text"].startswith(RATING_NOTE)
    rows: list[tuple[str, ...]] = []
    lines = iter(embed["description"].splitlines())
    for line in lines:
        rows.append((line, next(lines)) if line.startswith("**") else (line,))
    return {"title": embed["title"], "footer": embed["footer"]["text"], "rows": rows}


def phone_width(line: str) -> int:
    """The columns a line of an embed takes as Discord shows it: no bold or italic marks, no
    escaping backslashes; a wide letter takes two."""
    shown = re.sub(r"\\(.)", r"\1", line.replace("**", "").strip("*"))
    return sum(columns(char) for char in shown)


# --- /liga mesa ---------------------------------------------------------------------------------


async def test_mesa_marks_the_table_before_the_match(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, beñat, maite = server.person("Ana"), server.person("Beñat"), server.admin
        await server.ask(maite, "musadmin liga crear", nombre="Otoño")
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
            await server.ask(server.admin, "musadmin liga crear", nombre=name)
        assert await server.complete(ana, "liga unirse", "nombre", "pri") == ["Primavera"]
        assert await server.complete(ana, "liga tabla", "nombre", "O") == ["Otoño"]
        assert await server.complete(ana, "liga tabla", "nombre", "otoÑO") == ["Otoño"]
        assert await server.complete(ana, "liga tabla", "nombre", "otono") == ["Otoño"]
        assert await server.complete(ana, "liga mesa", "nombre", "") == ["Otoño", "Primavera"]
        for i in range(30):
            await server.ask(server.admin, "musadmin liga crear", nombre=f"Liga {i}")
        assert len(await server.complete(ana, "liga partidas", "nombre", "liga")) == 25


# --- /mus perfil --------------------------------------------------------------------------------


async def test_profile_with_rating_chart(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
        await server.play_match(league="Otoño")
        inter = await server.ask(server.person("Ana"), "mus perfil")
    assert inter.response_type == DEFERRED
    message = only(inter)
    assert message.ephemeral, "private unless shared"
    lines = message.content.splitlines()
    assert lines[0] == "**Ana** · liga «Otoño»"
    assert lines[1] == "Partidas: 1 (1 ganada, 0 perdidas) · 100% de victorias"
    assert lines[2] == "Pareja favorita: Carmen (1 partida, 1 ganada)"
    assert re.fullmatch(r"Órdagos: \d+ ganados?, \d+ perdidos?", lines[3]), lines[3]
    assert lines[4] == "Nivel: 1097"
    assert lines[5] == "Parejas estables (torneos): con Carmen, 1138 (1 partida)"
    assert lines[6] == "-# " + RATING_NOTE, "what the figure is, in small print"
    (chart,) = message.attachments
    assert chart["filename"] == "nivel.png" and 1000 < chart["size"] <= 150_000
    (upload,) = [f for c in server.world.calls for f in c.files if f.filename == "nivel.png"]
    assert upload.head.startswith(b"\x89PNG\r\n\x1a\n")
    reads_on_both_themes(upload.data)


DARK, LIGHT = (0x31, 0x33, 0x38), (0xFF, 0xFF, 0xFF)
"""Discord's message backgrounds, dark and light themes."""


def reads_on_both_themes(png: bytes) -> None:
    """The chart laid on each theme's background as Discord shows it: a transparent picture
    (no white box on the dark theme), whose line (its most colourful pixels) and words (every
    pixel drawn solid) stand out from both backgrounds by a contrast ratio of 3 at least
    (WCAG's for graphics and large text)."""
    image = pytest.importorskip("PIL.Image")
    np = pytest.importorskip("numpy")
    picture = image.open(io.BytesIO(png)).convert("RGBA")
    pixels = np.asarray(picture, dtype=float)
    assert (pixels[[0, 0, -1, -1], [0, -1, 0, -1], 3] == 0).all(), "a transparent background"
    solid = pixels[pixels[..., 3] >= 230][:, :3]
    line = solid[solid.max(axis=1) - solid.min(axis=1) > 100]
    assert len(solid) > 2000 and len(line) > 500, "a line thick enough to see on a phone"
    for background in (DARK, LIGHT):
        alpha = pixels[..., 3:] / 255
        seen = pixels[..., :3] * alpha + np.array(background, dtype=float) * (1 - alpha)
        if background == DARK:
            bright = (seen.min(axis=2) > 230).mean()
            assert bright < 0.01, "no white box on the dark theme"
        assert contrast(line.mean(axis=0), background) >= 3.0, (line.mean(axis=0), background)
        ratios = np.sort(contrast(solid, background))
        assert ratios[len(ratios) // 20] >= 3.0, (background, ratios[len(ratios) // 20])


def contrast(colours: Any, background: tuple[int, int, int]) -> Any:
    """WCAG's contrast ratio (1 to 21) of sRGB colours (an array, the last axis RGB 0–255)
    against a background."""
    import numpy as np

    def luminance(rgb: Any) -> Any:
        c = np.asarray(rgb, dtype=float) / 255
        linear = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return linear @ np.array([0.2126, 0.7152, 0.0722])

    one, other = luminance(colours), luminance(background)
    return (np.maximum(one, other) + 0.05) / (np.minimum(one, other) + 0.05)


# --- the commands as Discord offers them -------------------------------------------------------


async def test_feature_commands_join_the_mus_group_and_leave_with_their_cog(
        tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world = server.world

    def offered(name: str) -> set[str]:
        (command,) = [c for c in world.global_commands if c["name"] == name]
        return {o["name"] for o in command.get("options") or []}

    async with connected(server):
        assert {"mesa", "perfil", "olvidarme"} <= offered("mus")
        assert offered("liga") == {"unirse", "tabla", "partidas", "mesa"}
        assert {"config", "liga"} <= offered("musadmin")
        await server.bot.unload_extension("cogs.perfil")
        await server.bot.unload_extension("cogs.config")
        await server.bot.tree.sync()
        assert "perfil" not in offered("mus") and "config" not in offered("musadmin")
        assert "liga" in offered("musadmin")
        await server.bot.load_extension("cogs.config")
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
            inter = await server.ask(server.admin, "musadmin liga crear", nombre="Otoño")
    assert private(inter).startswith("Algo ha fallado por nuestra parte")
    (record,) = [r for r in caplog.records if r.name == "musbot.discordio.failures"]
    assert record.getMessage() == f"unexpected failure at table {server.channel}"
    assert "RuntimeError: a bug in the storage layer" in caplog.text  # with its traceback


__all__ = ["Server"]
