"""Issue 25, on the wire double: a whole match with the server in Basque and one player's Discord
client in French. Every public message is Basque; that player's DMs and private answers are
French; the other player, who chose Basque, reads Basque; the admin's answers stay Spanish, as
her client is; no Spanish-only word where it should not be (the list of tests/test_i18n.py)."""

from __future__ import annotations

import re
from pathlib import Path

from discord_cogs import connected, make_server, private
from test_i18n import spanish_words
from wire import FakeMessage
from wire.state import walk_components

from musbot.discordio.ui import rules_summary
from musbot.i18n import translate

FRENCH_ONLY = frozenset({"vous", "votre", "vos", "les", "des", "avec", "pour", "cartes",
                         "équipe", "table", "manche", "signes", "c'est"})
"""Words no Basque or Spanish sentence of musbot's has."""
BASQUE_ONLY = frozenset({"zure", "zuk", "kartak", "bikotea", "mahaia", "mahaian", "eta", "da",
                         "dira", "keinuak", "txanda"})
"""Words no French or Spanish sentence of musbot's has."""


def words_of(text: str, wanted: frozenset[str]) -> set[str]:
    return {w for w in re.findall(r"[\w']+", text.lower()) if w in wanted}


def seen(message: FakeMessage) -> list[str]:
    """What a message ever showed: as it is now, and as each edit made it (a table message is
    edited move after move)."""
    shown = [message.text()]
    for change in message.edits:
        body = change.payload
        shown += [str(body.get("content") or "")]
        shown += [f"{e.get('title') or ''}\n{e.get('description') or ''}"
                  for e in body.get("embeds") or []]
        shown += [str(c["label"]) for c in walk_components(body.get("components") or [])
                  if c.get("label")]
    return [text for text in shown if text]


async def test_a_basque_server_and_a_french_client(tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world = server.world
    ana, beñat, maite = server.person("Ana"), server.person("Beñat"), server.admin
    world.set_locale(beñat.user, "fr")
    beñat.typing, beñat.discard_by = False, "buttons"  # buttons and «Ver mis cartas»
    ana.wants_mus = beñat.wants_mus = True  # every hand has discards: DMs and buttons
    async with connected(server):
        configured = private(await server.ask(maite, "musadmin config", idioma="eu"))
        chosen = private(await server.ask(ana, "mus idioma", idioma="eu"))
        await server.play_match(["Ana", "Beñat"])
        # Private answers and refusals besides the match's.
        rules = private(await server.ask(beñat, "mus reglas"))
        refused = private(await server.ask(beñat, "mus unirse"))
        unknown_fr = await server.dm_answer(beñat, "kaixo")
        unknown_eu = await server.dm_answer(ana, "kaixo")
        table = server.table()
        assert table.lang == "eu" and table.lifecycle == "finished"

    # The admin's client is Spanish: her answers are, though the server now speaks Basque.
    assert configured.startswith(translate("SERVER.config_saved", "es"))
    assert chosen == translate("SERVER.language_saved", "eu", language="euskara")

    # Everything the channel saw, every edit, and every button: Basque.
    public = [text for m in world.messages(server.channel) if m.author == world.bot_user.id
              for text in seen(m)]
    assert len(public) > 30
    assert translate("DISCORD.hand_title", "eu", number=1) in "\n".join(public)
    leftovers = {text: spanish_words(text) | words_of(text, FRENCH_ONLY) for text in public}
    assert not {t: w for t, w in leftovers.items() if w}, leftovers

    # Beñat's DMs and private answers: French, and nobody else's language.
    dms = [text for m in world.dms(beñat.user) for text in seen(m)]
    mine = [text for m in world.ephemerals(beñat.user) for text in seen(m)]
    assert dms and mine, (dms, mine)
    assert any(translate("TABLE.your_cards", "fr") in text for text in dms + mine)
    assert rules == rules_summary(table, "fr")
    assert refused.startswith(translate("ERRORS.already_seated", "fr", number=2)[:12])
    assert unknown_fr.startswith(translate("DISCORD.dm_unknown", "fr")[:20])
    leftovers = {text: spanish_words(text) | words_of(text, BASQUE_ONLY)
                 for text in dms + mine}
    assert not {t: w for t, w in leftovers.items() if w}, leftovers

    # Ana chose Basque: her DMs are Basque (her client is Spanish).
    ana_dms = [text for m in world.dms(ana.user) for text in seen(m)]
    assert any(translate("TABLE.your_cards", "eu") in text for text in ana_dms)
    assert unknown_eu.startswith(translate("DISCORD.dm_unknown", "eu")[:20])
    leftovers = {text: spanish_words(text) | words_of(text, FRENCH_ONLY) for text in ana_dms}
    assert not {t: w for t, w in leftovers.items() if w}, leftovers
