"""``/mus idioma`` (issue 25; one name since issue 44): each person's own language for what only
they read, on the wire double with a real SQLite file: chosen and saved, else their Discord
client's, else the server's; the table's page stays in the server's language; forgotten by ``/mus
olvidarme``; a value the bot does not know answered, nothing saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord_cogs import Server, closing_db, connected, make_server, private
from discord_match import Person

from musbot.i18n import translate
from musbot.table import Speakers


def chosen_rows(server: Server) -> list[tuple[int, str]]:
    with closing_db(server.db_path) as raw:
        return list(raw.execute("SELECT user_id, language FROM person_languages"))


def dm_texts(server: Server, person: Person) -> list[str]:
    channel = server.world.users[person.user].dm_channel
    return [m.text() for m in server.world.messages(channel)] if channel is not None else []


async def test_without_a_choice_the_client_s_language_else_the_server_s(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ana, beñat, carmen, _ = server.people
    server.world.set_locale(ana.user, "fr")
    server.world.set_locale(beñat.user, "en-GB")
    server.world.set_locale(carmen.user, "de")  # not one of ours
    async with connected(server):
        assert private(await server.ask(ana, "mus idioma")) == translate(
            "SERVER.language_now_client", "fr", language="français")
        assert private(await server.ask(beñat, "mus idioma")) == translate(
            "SERVER.language_now_client", "en", language="English")
        assert private(await server.ask(carmen, "mus idioma")) == translate(
            "SERVER.language_now_none", "es", language="español")
        # Another answer to her alone: in French too.
        assert private(await server.ask(ana, "mus olvidarme")) == translate(
            "SERVER.forget_confirm", "fr")
    assert chosen_rows(server) == []


async def test_a_choice_is_saved_and_answered_in_the_language_chosen(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ana, beñat = server.people[:2]
    async with connected(server):
        saved = await server.ask(ana, "mus idioma", idioma="eu")
        assert private(saved) == translate("SERVER.language_saved", "eu", language="euskara")
        assert private(await server.ask(ana, "mus idioma")) == translate(
            "SERVER.language_now_chosen", "eu", language="euskara")
        assert server.bot.tables.speakers.language(ana.user) == "eu"
        # Changed, then back to the client's: the row goes.
        await server.ask(beñat, "mus idioma", idioma="fr")
        assert chosen_rows(server) == [(ana.user, "eu"), (beñat.user, "fr")]
        back = await server.ask(beñat, "mus idioma", idioma="discord")
        assert private(back) == translate("SERVER.language_cleared", "es", language="español")
        assert chosen_rows(server) == [(ana.user, "eu")]
        # Chosen in another process (a sharded bot): read on her first interaction here.
        carmen = server.people[2]
        with closing_db(server.db_path) as raw:
            raw.execute("INSERT INTO person_languages VALUES (?, 'fr', '2026-01-01')",
                        (carmen.user,))
        assert private(await server.ask(carmen, "mus idioma")) == translate(
            "SERVER.language_now_chosen", "fr", language="français")


async def test_a_language_the_bot_does_not_know_is_answered_and_nothing_saved(
        tmp_path: Path) -> None:
    """Discord offers only the choices synced; a client that still shows an older musbot's
    («tlh») sends what the bot no longer knows."""
    server = make_server(tmp_path)
    ana = server.people[0]
    async with connected(server):
        for command in server.world.global_commands:
            if command["name"] == "mus":
                for sub in command["options"]:
                    if sub["name"] == "idioma":
                        sub["options"][0]["choices"].append({"name": "tlhIngan", "value": "tlh"})
        refused = await server.ask(ana, "mus idioma", idioma="tlh")
        text = private(refused)
        assert text.startswith(translate("SERVER.language_unknown", "es", value="tlh",
                                         languages="")[:30])
        assert "euskara (eu)" in text and "discord" in text
    assert chosen_rows(server) == []
    assert server.bot.tables.speakers.chosen(ana.user) is None


async def test_the_hand_by_dm_in_one_s_own_language_the_page_in_the_server_s(
        tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ana, beñat, carmen, dani = server.people
    server.world.set_locale(carmen.user, "fr")
    async with connected(server):
        await server.ask(beñat, "mus idioma", idioma="eu")
        await server.play_match()
        page = server.table_messages()[-1].text()
    assert translate("DISCORD.hand_title", "es", number=1) in \
        "\n".join(m.text() for m in server.table_messages())
    assert translate("TABLE.your_cards", "eu") not in page
    your_cards = {lang: translate("TABLE.your_cards", lang) for lang in ("es", "eu", "fr")}
    assert any(your_cards["es"] in t for t in dm_texts(server, ana))
    assert any(your_cards["eu"] in t for t in dm_texts(server, beñat))
    assert not any(your_cards["es"] in t for t in dm_texts(server, beñat))
    assert any(your_cards["fr"] in t for t in dm_texts(server, carmen))
    assert not any(your_cards["es"] in t for t in dm_texts(server, carmen))
    assert any(your_cards["es"] in t for t in dm_texts(server, dani))


async def test_forgetting_forgets_the_language_too(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    ana = server.people[0]
    async with connected(server):
        await server.ask(ana, "mus idioma", idioma="eu")
        done = await server.ask(ana, "mus olvidarme", confirmar=True)
        # Known by her language alone (she never played); told in it, the last time.
        assert private(done) == translate("SERVER.forget_done", "eu")
        assert chosen_rows(server) == []
        assert server.bot.tables.speakers.language(ana.user) is None
        assert private(await server.ask(ana, "mus idioma")) == translate(
            "SERVER.language_now_client", "es", language="español")


def test_speakers_keep_a_bounded_memory_of_clients(monkeypatch: Any) -> None:
    import musbot.table.languages as module

    monkeypatch.setattr(module, "CLIENTS_KEPT", 10)
    speakers = Speakers()
    for user in range(25):
        speakers.saw_locale(user, "fr")
    assert speakers.language(24) == "fr"
    assert speakers.language(0) is None
    assert sum(speakers.language(u) is not None for u in range(25)) <= 11
    speakers.choose(0, "eu")
    assert speakers.language(0) == "eu"
    assert speakers.saw_locale(0, "de") is None and speakers.language(0) == "eu"
    speakers.forget(0)
    assert speakers.language(0) is None and not speakers.known(0)
