"""Slash commands localised (issue 25): discord.py's Translator over the catalogues' ``SLASH``
section. Every command's, group's and option's name and description has its entry (the
``msgid`` its Spanish string, what a translator reads), none is left over, and the payload
synced with Discord holds, for each locale Discord has of ours, names within Discord's rules
(lower case, 1–32 characters, no spaces; unique among their siblings) and descriptions within
100 characters; Discord has no Basque locale. A sentence that names a command names it as that
language's client shows it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from discord import Locale, app_commands

from musbot.bot import MusBot, extensions
from musbot.config import Config
from musbot.discordio.translator import NAME_PATTERN, TEXT_LIMIT, CatalogueTranslator
from musbot.i18n import LANGUAGE_CODES, catalog, language_of_locale, translate

OURS = {"es-ES": "es", "es-419": "es", "fr": "fr", "en-US": "en", "en-GB": "en"}
"""Discord's locales that are languages of musbot's, and which."""


@pytest.fixture
async def bot() -> AsyncIterator[MusBot]:
    bot = MusBot(Config(token="x", db=":memory:"), persist=False)
    for name in extensions():
        await bot.load_extension(name)
    yield bot
    await bot.close()


def strings(command: Any) -> Iterator[tuple[str, str]]:
    """(catalogue key, Spanish string) of everything of a command that Discord shows."""
    path = command.qualified_name
    yield f"SLASH.name.{command.name}", command.name
    yield f"SLASH.about.{path}", command.description
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from strings(child)
        return
    for param in command.parameters:
        yield f"SLASH.name.{param.name}", param.name
        yield f"SLASH.about.{path}.{param.name}", param.description
        for choice in param.choices:  # choices named by words (not numbers nor languages)
            if isinstance(choice.value, str) and choice.name != choice.value \
                    and choice.value not in LANGUAGE_CODES and choice.value != "discord":
                yield f"SLASH.choice.{choice.value}", choice.name


def test_discord_has_no_basque_locale_and_ours_are_mapped() -> None:
    assert not any(locale.value.startswith("eu") for locale in Locale)
    mapped = {locale.value: language_of_locale(locale.value) for locale in Locale}
    assert {tag: lang for tag, lang in mapped.items() if lang is not None} == OURS


async def test_every_command_string_has_its_entry_and_no_entry_is_left_over(
        bot: MusBot) -> None:
    wanted = dict(pair for command in bot.tree.get_commands() for pair in strings(command))
    spanish = catalog("es").entries
    missing = {key: text for key, text in wanted.items() if key not in spanish}
    assert not missing, missing
    stale = {key: (spanish[key], text) for key, text in wanted.items() if spanish[key] != text}
    assert not stale, "the msgid is the command's own Spanish string: " + repr(stale)
    unused = sorted(key for key in spanish if key.startswith("SLASH.") and key not in wanted)
    assert not unused, unused
    for lang in LANGUAGE_CODES:
        entries = catalog(lang).entries
        for key in wanted:
            text = str(entries[key])
            if key.startswith("SLASH.name."):
                assert NAME_PATTERN.fullmatch(text) and text == text.lower(), (lang, key, text)
            else:
                assert 1 <= len(text) <= TEXT_LIMIT, (lang, key, text)


def localisations(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield payload
    for option in payload.get("options") or []:
        yield from localisations(option)


async def test_the_synced_payload_is_localised_within_discord_s_rules(bot: MusBot) -> None:
    translator = CatalogueTranslator()
    payloads = [await command.get_translated_payload(bot.tree, translator)
                for command in bot.tree.get_commands()]
    by_name = {p["name"]: p for p in payloads}
    mesa = next(o for o in by_name["mus"]["options"] if o["name"] == "mesa")
    assert mesa["name_localizations"] == {"es-ES": "mesa", "es-419": "mesa", "fr": "table",
                                          "en-US": "table", "en-GB": "table"}
    assert mesa["description_localizations"]["fr"].startswith("Ouvre une table")
    idioma = next(o for o in by_name["mus"]["options"] if o["name"] == "idioma")
    assert idioma["name_localizations"]["fr"] == "langue"
    assert not any(o["name"] == "hizkuntza" for o in by_name["mus"]["options"])  # one name
    for payload in payloads:
        for item in localisations(payload):
            names = item.get("name_localizations") or {}
            assert set(names) <= set(OURS), names
            assert all(NAME_PATTERN.fullmatch(n) and n == n.lower() for n in names.values())
            assert all(len(d) <= TEXT_LIMIT for d in
                       (item.get("description_localizations") or {}).values())
            for locale in OURS:  # siblings never read alike in one client
                shown = [(o.get("name_localizations") or {}).get(locale, o["name"])
                         for o in item.get("options") or []]
                assert len(shown) == len(set(shown)), (item["name"], locale, shown)


async def test_other_locales_and_numbered_choices_are_not_translated() -> None:
    translator = CatalogueTranslator()
    choice = app_commands.Choice(name="4", value=4)
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.choice_name,
                                              choice)
    assert await translator.translate(app_commands.locale_str("4"), Locale.french,
                                      context) is None
    name = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(app_commands.locale_str("mesa"), Locale.french,
                                      name) is None
    command_name = app_commands.TranslationContextLocation.command_name
    assert await translator.translate(
        app_commands.locale_str("mesa"), Locale.german,
        app_commands.TranslationContext(command_name, None)) is None  # type: ignore[arg-type]
    assert await translator.translate(
        app_commands.locale_str("sin_entrada"), Locale.french,
        app_commands.TranslationContext(command_name, None)) is None  # type: ignore[arg-type]


def shown(path: str, lang: str) -> str:
    """A command path as a client in ``lang`` shows it."""
    entries = catalog(lang).entries
    return " ".join(str(entries.get(f"SLASH.name.{word}", word)) for word in path.split())


async def test_a_sentence_names_a_command_as_its_reader_s_client_shows_it(bot: MusBot) -> None:
    """«/mus mesa» in Spanish and Basque (Discord has no Basque client: it shows the Spanish
    names), «/mus table» in French and English: the command a sentence names is one its
    reader's client offers, and an option given as ``name:value`` is named as it shows it."""
    tops = bot.tree.get_commands()
    paths = {c.qualified_name for top in tops for c in
             ([top, *top.walk_commands()] if isinstance(top, app_commands.Group) else [top])}
    options = {p.name for top in tops for c in
               (top.walk_commands() if isinstance(top, app_commands.Group) else [top])
               if isinstance(c, app_commands.Command) for p in c.parameters}
    wrong: dict[tuple[str, str], list[str]] = {}
    for lang in ("fr", "en"):
        foreign = [p for p in paths if shown(p, lang) != p]
        renamed = [o for o in options if shown(o, lang) != o]
        for key, entry in catalog(lang).entries.items():
            if key.startswith("SLASH.") or key.split(".")[0] in ("CLI", "REPLAY"):
                continue
            for text in (entry.forms if hasattr(entry, "forms") else (str(entry),)):
                found = [f"/{p}" for p in foreign if re.search(rf"/{p}(?![\w_])", text)]
                found += [f"{o}:" for o in renamed if re.search(rf"(?<![\w_]){o}:", text)]
                if found:
                    wrong[(lang, key)] = found
    assert not wrong, wrong
    assert "/mus oublier confirmer:True" in translate("SERVER.forget_confirm", "fr")
    assert "/mus olvidarme confirmar:True" in translate("SERVER.forget_confirm", "eu")
