"""``/musadmin``: what those who manage the server decide (issue 47). The group is hidden from
members by its default permission (Manage Server) and offered in servers only, as Discord
receives it; and since a server's admins may show it to anyone, each of its commands refuses a
member without Manage Server in one private sentence, changing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
from discord_cogs import connected, make_server

from musbot.i18n import translate

MANAGE_GUILD = str(discord.Permissions(manage_guild=True).value)
GUILD_ONLY = [0]
"""Discord's interaction context «guild» alone (no DMs, no private channels)."""
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


def leaves(payload: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Each command of a synced group, with its path (``musadmin txapelketa sortu``)."""
    here = f"{path} {payload['name']}".strip()
    subs = [o for o in payload.get("options") or [] if o.get("type") in (1, 2)]
    if not subs and "type" in payload and payload.get("type") in (1,) and path:
        return [(here, payload)]
    return [leaf for sub in subs for leaf in leaves(sub, here)]


def filled(command: dict[str, Any], someone: int) -> dict[str, Any]:
    """Every option of ``command`` given a value it accepts: a member could send it."""
    values: dict[str, Any] = {}
    for option in command.get("options") or []:
        kind = option["type"]
        if option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif kind == STRING:
            text = "3-1" if option["name"] == "juegos" else "Kopa"
            values[option["name"]] = text.ljust(option.get("min_length", 0), "a")
        elif kind in (INTEGER, NUMBER):
            values[option["name"]] = option.get("min_value", 1)
        elif kind == BOOLEAN:
            values[option["name"]] = True
        elif kind in (USER, MENTIONABLE):
            values[option["name"]] = someone
    return values


async def test_every_musadmin_command_is_for_managers_and_refuses_a_member(
        tmp_path: Path) -> None:
    server = make_server(tmp_path)
    world = server.world
    async with connected(server):
        [group] = [c for c in world.global_commands if c["name"] == "musadmin"]
        assert str(group["default_member_permissions"]) == MANAGE_GUILD
        assert group.get("contexts") == GUILD_ONLY or group.get("dm_permission") is False
        commands = leaves(group)
        assert {path for path, _ in commands} >= {
            f"musadmin txapelketa {name}" for name in
            ("sortu", "sortear", "resultado", "repetir", "descalificar", "cancelar")}
        ana, beñat = server.person("Ana"), server.person("Beñat")
        before = len(world.messages(server.channel))
        for path, command in commands:
            inter = await server.ask(ana, path, **filled(command, beñat.user))
            told = inter.messages()
            assert len(told) == 1 and told[0].ephemeral, (path, [m.text() for m in told])
            text = told[0].text()
            assert text == translate("TXAPELKETA.need_manage_guild", "es") or (
                "Gestionar servidor" in text and text.count(". ") == 0), (path, text)
        assert len(world.messages(server.channel)) == before, "nothing said in the channel"
        db = server.bot.db
        assert db is not None
        assert not await db.open_tournaments(None), "nothing made"
    assert world.report().refusals == {}


async def test_the_organiser_s_bad_values_each_have_one_sentence(tmp_path: Path) -> None:
    """A time zone that is none, a forged choice, a date that is none: one private sentence
    each, and nothing made."""
    server = make_server(tmp_path)
    world = server.world
    async with connected(server):
        zone = await server.ask(server.admin, "musadmin txapelketa sortu", nombre="Kopa",
                                zona="Mars/Olympus")
        assert "«Mars/Olympus» no es una zona horaria" in zone.messages()[-1].text()

        def forge(payload: dict[str, Any]) -> None:
            for option in payload["data"]["options"][0]["options"][0]["options"]:
                if option["name"] == "donde":
                    option["value"] = "luna"

        forged = await world.slash(server.bot, server.admin.user, server.channel,
                                   "musadmin txapelketa sortu", nombre="Kopa", donde="mesa",
                                   forge=forge)
        await server.answered(forged)
        assert "«luna» no vale" in forged.messages()[-1].text()
        db = server.bot.db
        assert db is not None and not await db.open_tournaments(None)
    assert world.report().refusals == {}
