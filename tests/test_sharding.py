"""Sharded processes (issue 18): the shard options, which tables a process restores, and the
relay that brings a DM (Discord sends every DM to shard 0) to the process that owns the table."""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from db_helpers import select
from discord_cogs import Server
from discord_match import Person, play_to_the_end
from discord_shards import SERVERS, Cluster, build, open_table
from wire import FakeMessage

from musbot.bot import MusBot, ShardedMusBot, make_bot, run_command
from musbot.config import Config, ConfigError, load_config
from musbot.discordio.governor import Limits
from musbot.engine import ActionKind
from musbot.i18n import DISCORD
from musbot.storage import Database


def test_shards_from_env_file_and_flags(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=t\nMUSBOT_SHARDS=4\nMUSBOT_SHARD_IDS=2, 3\n"
                   "MUSBOT_DB=postgresql://bot@db/musbot\n")
    config = load_config(env, environ={})
    assert (config.shard_count, config.shard_ids, config.own_shards) == (4, (2, 3), (2, 3))
    assert config.sharded
    whole = load_config(None, environ={"MUSBOT_SHARDS": "2"})
    assert (whole.shard_ids, whole.own_shards) == (None, (0, 1))
    plain = load_config(None, environ={})
    assert not plain.sharded and plain.own_shards == (0,)
    one_process = load_config(None, environ={"MUSBOT_SHARDS": "2", "MUSBOT_SHARD_IDS": "1,0"})
    assert one_process.own_shards == (1, 0), "every shard in one process: SQLite will do"


def test_some_shards_only_need_postgresql() -> None:
    """Other processes run the other shards: one SQLite file cannot be shared by them, nor can
    it carry the DMs that Discord sends to shard 0 alone."""
    with pytest.raises(ConfigError) as caught:
        load_config(None, environ={"MUSBOT_SHARDS": "2", "MUSBOT_SHARD_IDS": "1",
                                   "MUSBOT_DB": "data/musbot.db"})
    assert caught.value.code == "shards_need_postgresql"
    assert "PostgreSQL" in caught.value.message("es") and "SQLite" in caught.value.message("en")


@pytest.mark.parametrize(("count", "ids", "code"), [
    ("0", "", "shards_count"),
    ("dos", "", "shards_count"),
    ("2", "0,2", "shards_ids"),
    ("2", "1,1", "shards_ids"),
    ("2", "uno", "shards_ids"),
    ("", "0", "shards_ids_alone"),
])
def test_bad_shard_options_are_clear_errors(count: str, ids: str, code: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(None, environ={"MUSBOT_SHARDS": count, "MUSBOT_SHARD_IDS": ids})
    assert caught.value.code == code


def test_run_with_bad_shard_flags_says_so_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nMUSBOT_SHARDS=2\nMUSBOT_DB=postgresql:///musbot\n")
    args = argparse.Namespace(env_file=str(env), dev_guild=None, idioma="es", shards=None,
                              shard_ids="0,5")
    assert run_command(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("Configuración no válida: MUSBOT_SHARD_IDS (--shard-ids)")
    assert "«0,5»" in err and "Traceback" not in err


def test_each_process_spends_its_shards_part_of_the_tokens_budget() -> None:
    """Discord's 50 calls a second are the bot token's, whichever process makes them."""
    assert Limits().share(1, 2).calls_per_second == 25
    assert Limits().share(3, 4).calls_per_second == 37
    assert Limits().share(1, 64).calls_per_second == 1
    assert Limits().share(2, 2) == Limits()
    config = Config(token="t", db="postgresql:///x", shard_count=4, shard_ids=(1,))
    bot = make_bot(config, persist=False)
    assert isinstance(bot, ShardedMusBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids) == (4, [1])
    assert bot.transport.governor.limits.calls_per_second == 12
    plain = make_bot(Config(token="t"), persist=False)
    assert not isinstance(plain, ShardedMusBot)
    assert plain.transport.governor.limits == Limits()


# --- two shard processes on one world and one PostgreSQL database ------------------------------

DEFERRED_UPDATE = 6
"""Discord's «acknowledged, the message will be edited later» (DEFERRED_UPDATE_MESSAGE)."""

on_postgresql = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@pytest.fixture
async def cluster(target: str) -> AsyncIterator[Cluster]:
    built = build(target)
    yield built
    for shard in list(built.bots):
        await built.stop(shard)


async def both(cluster: Cluster) -> tuple[MusBot, MusBot]:
    return await cluster.connect(0), await cluster.connect(1)


async def shard_1_match(cluster: Cluster) -> tuple[MusBot, MusBot, Server]:
    """Both processes up, and a match under way in the shard-1 server (as that process sees
    it)."""
    zero, one = await both(cluster)
    server = cluster.server("Sagardotegi")
    await open_table(server)
    return zero, one, server


@on_postgresql
async def test_each_process_restores_and_plays_only_its_shards_tables(cluster: Cluster) -> None:
    zero, one = await both(cluster)
    assert [g.name for g in zero.guilds] == ["Txoko"]
    assert [g.name for g in one.guilds] == ["Sagardotegi"]
    for name in SERVERS:
        await open_table(cluster.server(name))
    txoko, sagardotegi = cluster.channels["Txoko"], cluster.channels["Sagardotegi"]
    assert [t.channel_id for t in zero.tables] == [txoko]
    assert [t.channel_id for t in one.tables] == [sagardotegi]
    await cluster.stop(1)
    again = await cluster.connect(1)
    assert [t.channel_id for t in again.tables] == [sagardotegi]
    assert [t.channel_id for t in zero.tables] == [txoko], "the other process is untouched"
    assert again.tables.get(sagardotegi).lifecycle == "playing"  # type: ignore[union-attr]


def answers(cluster: Cluster, person: Person) -> list[str]:
    """The DMs the bot sent the person, oldest first."""
    return [m.content for m in cluster.world.dms(person.user) if m.author != person.user]


@on_postgresql
async def test_a_dm_for_a_table_on_shard_1_is_answered_by_its_process(cluster: Cluster) -> None:
    """Discord sends every DM to shard 0; the table's own process applies it and answers."""
    zero, one, server = await shard_1_match(cluster)
    eneko = server.people[0]
    table = server.table()
    assert zero.tables.get(server.channel) is None
    await server.dm(eneko, "cartas")
    assert answers(cluster, eneko)[-1] == table.private_text(eneko.user)
    await server.dm(eneko, "hola")
    assert answers(cluster, eneko)[-1] == DISCORD("dm_unknown")
    assert zero.relay is not None and one.relay is not None
    assert (zero.relay.forwarded, zero.relay.unanswered) == (2, 0)

    # A whole match: every discard of shard 1's players is written to shard 0.
    for person in server.people:
        person.wants_mus = True
    moves = await play_to_the_end(server)
    assert moves > 0 and table.lifecycle == "finished"
    async with Database(cluster.db) as db:
        stored = [json.loads(t) for (t,) in await select(db, "SELECT transcript FROM hands")]
    discards = sum(1 for hand in stored for _, text in hand["actions"]
                   if text.startswith("descarto"))
    assert discards > 0, [h["actions"] for h in stored]
    assert (zero.relay.forwarded, zero.relay.unanswered) == (2 + discards, 0)

    nobody = cluster.admin
    await server.dm(nobody, "cartas")
    await server.advance(1)  # shard 0's part of the budget may be spent for this second
    assert answers(cluster, nobody) == ["No estás sentado en ninguna mesa."]


async def until_discard(server: Server, person: Person) -> None:
    """Plays the people's turns until ``person`` is to discard."""
    table = server.table()
    person.wants_mus = True
    for _ in range(400):
        match = table.match
        assert match is not None and table.lifecycle == "playing"
        if match.view(-1).phase == "descarte" and table.state.awaits(person.user):
            return
        seat = match.to_act
        someone = next((p for p in server.people if table.seat_of(p.user) == seat), None)
        if someone is not None and table.state.awaits(someone.user):
            someone.wants_mus = True
            await server.play_turn(someone)
        else:
            await server.advance(0.5)
    raise AssertionError(f"{person.name} was never to discard")


def discard_prompt(cluster: Cluster, person: Person) -> FakeMessage:
    prompts = [m for m in cluster.world.dms(person.user)
               if any(c.startswith("mus:dc:") for c in m.custom_ids())]
    assert prompts, f"no discard buttons reached {person.name}"
    return prompts[-1]


@on_postgresql
async def test_a_press_on_dm_buttons_reaches_the_tables_process(cluster: Cluster) -> None:
    """A DM's discard buttons: Discord sends the press to shard 0, which acknowledges it at once
    (deferred, the message unchanged); the table's process edits the buttons and discards."""
    zero, one, server = await shard_1_match(cluster)
    eneko = server.people[0]
    await until_discard(server, eneko)
    prompt = discard_prompt(cluster, eneko)
    toggle = next(c for c in prompt.custom_ids() if c.startswith("mus:dt:") and c.endswith(":2"))
    pressed = await cluster.world.press(zero, eneko.user, prompt.id, toggle)
    await server.settle()
    assert pressed.response_type == DEFERRED_UPDATE
    confirm = next(c for c in prompt.custom_ids() if c.startswith("mus:dc:"))
    assert confirm.endswith(":4"), "the owner edited the DM: card 3 is picked"
    with pytest.raises(ValueError, match="shard 0"):
        await cluster.world.press(one, eneko.user, prompt.id, confirm)
    await cluster.world.press(zero, eneko.user, prompt.id, confirm)
    await server.advance(1)  # the DM's edits keep a channel's pace too
    table = server.table()
    assert not table.state.awaits(eneko.user)
    assert table.match is not None
    seat, action = table.match.hand.actions[-1]
    assert (seat, action.kind, len(action.cards)) == (table.seat_of(eneko.user),
                                                       ActionKind.DESCARTE, 1)
    assert prompt.custom_ids() == [], "the buttons are gone once used"


@on_postgresql
async def test_while_the_tables_process_is_down_shard_0_says_so(cluster: Cluster) -> None:
    zero, _, server = await shard_1_match(cluster)
    eneko = server.people[0]
    await until_discard(server, eneko)
    prompt = discard_prompt(cluster, eneko)
    await cluster.stop(1)
    assert zero.relay is not None
    zero.relay.ack_seconds = 0.2
    await server.dm(eneko, "cartas")
    restoring = "Tu mesa se está restaurando tras un reinicio del bot: repite en unos segundos."
    assert answers(cluster, eneko)[-1] == restoring
    toggle = next(c for c in prompt.custom_ids() if c.startswith("mus:dt:"))
    pressed = await cluster.world.press(zero, eneko.user, prompt.id, toggle)
    await server.settle()
    assert pressed.response_type == DEFERRED_UPDATE
    assert pressed.ephemeral_texts() == [restoring], (pressed.attempts, pressed.messages())
    assert zero.relay.unanswered == 2
    await zero.relay._heard("not json")  # a stray notification: logged, nothing else
    await zero.relay._heard('{"id": "x", "kind": "dm", "user": 1, "dm": 2, "text": "paso"}')


async def saved_names(cluster: Cluster, channel: int) -> list[str | None]:
    async with Database(cluster.db) as db:
        saved = await db.load_table(channel)
    assert saved is not None
    return [None if seat is None else seat["name"] for seat in saved.state["seats"]]


@on_postgresql
async def test_forget_me_reaches_the_tables_of_every_process(cluster: Cluster) -> None:
    """«/mus olvidarme» in a shard-0 server scrubs the name from a shard-1 table too; a
    process that was down scrubs it when it restores its tables."""
    zero, _, sagardotegi = await shard_1_match(cluster)
    txoko = cluster.server("Txoko")
    eneko, fermin = sagardotegi.people[0], sagardotegi.people[1]
    done = await txoko.ask(eneko, "mus olvidarme", confirmar=True)
    assert "Eneko" not in " ".join(sagardotegi.table().names().values()), done.texts()
    assert "Eneko" not in await saved_names(cluster, sagardotegi.channel)
    assert sagardotegi.table().seat_of(eneko.user) == 0, "the seat is still theirs"

    await cluster.stop(1)
    assert zero.relay is not None
    zero.relay.ack_seconds = 0.2
    await txoko.ask(fermin, "mus olvidarme", confirmar=True)
    assert "Fermín" in await saved_names(cluster, sagardotegi.channel), "nobody to scrub it"
    again = await cluster.connect(1)
    table = again.tables.get(sagardotegi.channel)
    assert table is not None and "Fermín" not in " ".join(table.names().values())
    assert "Fermín" not in await saved_names(cluster, sagardotegi.channel)
