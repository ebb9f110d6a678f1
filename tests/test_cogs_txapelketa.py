"""``/txapelketa …`` refusals and hostile names through the wire double: each bad input has its
answer, private to its author, and changes nothing; names are shown as typed, never as markup
or a mention."""

from __future__ import annotations

from pathlib import Path

from discord_cogs import Server, connected, make_server, private, public

from musbot.discordio.markup import plain


async def created(server: Server, name: str = "Kopa", **options: object) -> None:
    made = await server.ask(server.admin, "musadmin txapelketa sortu", nombre=name, **options)
    assert "Nuevo torneo" in public(made)


async def test_only_the_organiser_draws_sets_results_and_disqualifies(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        await created(server)
        ana = server.person("Ana")
        for command, options in (("musadmin txapelketa sortear", {}),
                                 ("musadmin txapelketa resultado",
                                  {"partida": "W1-1", "juegos": "3-1"}),
                                 ("musadmin txapelketa repetir", {"partida": "W1-1"}),
                                 ("musadmin txapelketa descalificar",
                                  {"pareja": 1, "motivo": "x"}),
                                 ("musadmin txapelketa cancelar", {"motivo": "x"})):
            refused = await server.ask(ana, command, **options)
            assert "Gestionar servidor" in private(refused), command
        again = await server.ask(server.admin, "musadmin txapelketa sortu", nombre="kopa")
        assert "Ya hay un torneo llamado" in public(again)


async def test_bad_inputs_have_their_answers(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    async with connected(server):
        ana, beñat = server.person("Ana"), server.person("Beñat")
        nothing = await server.ask(ana, "txapelketa apuntarse")
        assert "no hay uno solo en juego" in private(nothing)
        await created(server)
        unknown = await server.ask(ana, "txapelketa lista", nombre="Otra")
        assert "No hay ningún torneo «Otra»" in private(unknown)
        self_partner = await server.ask(ana, "txapelketa apuntarse", pareja=ana.user)
        assert "otra persona" in private(self_partner)
        too_few = await server.ask(server.admin, "musadmin txapelketa sortear")
        assert "al menos 2 parejas" in private(too_few)
        left = await server.ask(beñat, "txapelketa retirarse")
        assert "No estás inscrito" in private(left)
        await server.ask(ana, "txapelketa apuntarse", pareja=beñat.user)
        await server.ask(beñat, "txapelketa apuntarse", pareja=ana.user)
        repeated = await server.ask(beñat, "txapelketa apuntarse", pareja=ana.user)
        assert "Ya estabas apuntado" in private(repeated)
        score = await server.ask(server.admin, "musadmin txapelketa resultado", partida="W1-1",
                                 juegos="3-x")
        assert "no es un resultado" in private(score)
        not_drawn = await server.ask(server.admin, "musadmin txapelketa resultado", partida="W1-1",
                                     juegos="3-1")
        assert "No hay ninguna partida W1-1 en este torneo" in private(not_drawn)
        bracket = await server.ask(ana, "txapelketa cuadro")
        assert "aún no se ha sorteado" in private(bracket)
    assert server.world.report().refusals == {}


async def test_hostile_names_are_text_and_mention_nobody(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    name = "**Kopa** @everyone <@1>"
    async with connected(server):
        await created(server, name)
        ana, beñat = server.person("Ana"), server.person("Beñat")
        server.world.set_nick(server.guild, ana.user, "[premio](https://x.y) ||<@2>||")
        await server.ask(ana, "txapelketa apuntarse", nombre=name, pareja=beñat.user)
        listed = await server.ask(ana, "txapelketa lista", nombre=name)
        assert plain("[premio](https://x.y) ||<@2>||") in private(listed)
        assert plain(name) in private(listed)
    # The one notification: Beñat, invited by name.
    notified = {u for m in server.world.messages(server.channel) for u in m.pinged}
    assert notified == {beñat.user}
    assert not any(m.pinged_everyone for m in server.world.messages(server.channel))


async def test_private_answers_speak_the_persons_language_and_news_the_servers(
        tmp_path: Path) -> None:
    """A Spanish server; Beñat's client is French, Ana chose Basque: each reads what only they
    see in their own language, and everyone reads the channel's news in Spanish."""
    server = make_server(tmp_path)
    world = server.world
    bea, ane, koldo = server.person("Beñat"), server.person("Ana"), server.person("Carmen")
    world.set_locale(bea.user, "fr")
    async with connected(server):
        await server.ask(ane, "mus idioma", idioma="eu")
        which = await server.ask(bea, "txapelketa apuntarse")
        assert "Dites quel tournoi" in private(which)
        refused = await server.ask(bea, "musadmin txapelketa sortear")
        assert "Gérer le serveur" in private(refused)
        await created(server)
        alone = await server.ask(bea, "txapelketa apuntarse")
        told = [(m.ephemeral, m.text()) for m in alone.messages()]
        assert told == [(True, "C'est fait.")], "the channel's news: the sign-ups' message"
        [board] = [m for m in world.messages(server.channel) if m.content.startswith("«Kopa» (")]
        assert "• Beñat, sin pareja (se sortea)" in board.content, "in the server's Spanish"
        listed = await server.ask(bea, "txapelketa lista")
        assert "« Kopa » (" in private(listed)
        again = await server.ask(bea, "txapelketa apuntarse")
        assert "Kopa" in private(again) and "Ya estabas" not in private(again)
        spanish = await server.ask(koldo, "txapelketa lista")
        assert "«Kopa» (" in private(spanish), "no language of their own: the server's"
        basque = await server.ask(ane, "txapelketa retirarse")
        assert "No estás inscrito" not in private(basque), "her error, in Basque"
        unknown = await server.ask(ane, "txapelketa cuadro", nombre="Beste")
        assert "No hay ningún torneo" not in private(unknown)
        assert "Beste" in private(unknown)
    assert world.report().refusals == {}


async def test_the_organiser_chooses_who_goes_through_and_how_the_knockout_is_drawn(
        tmp_path: Path) -> None:
    """``pasan``, ``grupo`` and ``cruce`` at ``sortu``: said in the news of its creation, kept
    with the tournament; more going through than a group can give is one sentence."""
    server = make_server(tmp_path)
    async with connected(server):
        made = await server.ask(server.admin, "musadmin txapelketa sortu", nombre="Kopa",
                                formato="groups", grupo=5, pasan=3, cruce="seeded")
        assert "pasan 3 de cada grupo, por la clasificación general" in public(made)
        cup = next(iter(server.bot.tournaments.cups.values()))
        settings = cup.tournament.settings
        assert (settings.group_size, settings.advance, settings.knockout_draw.value) == \
            (5, 3, "seeded")
        crossed = await server.ask(server.admin, "musadmin txapelketa sortu", nombre="Bi",
                                   formato="groups")
        assert "se cruzan los grupos (1A–2B, 1B–2A" in public(crossed), "the default"
        too_many = await server.ask(server.admin, "musadmin txapelketa sortu", nombre="Hiru",
                                    formato="groups", grupo=4, pasan=4)
        assert "De cada grupo de 4 pasan de 1 a 4 menos una" in private(too_many)
        assert len(server.bot.tournaments.cups) == 2
    assert server.world.report().refusals == {}
