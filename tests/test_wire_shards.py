"""Gateway sharding in the wire double: ``AutoShardedBot`` processes, each holding some shards
of one application, attached to one world. Discord sends a server's events to the shard
``(guild_id >> 22) % shard_count`` and every DM event to shard 0; these tests assert on what
each bot actually received, so a double that delivered everywhere fails them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import TypeVar

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from wire import FakeDiscord

from musbot.table.clock import ManualClock

PASO = "mesa:paso"
EPOCH = 1_760_000_000.0


class Paso(discord.ui.View):
    """Persistent, registered by every process: whichever receives the press answers it."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Paso", custom_id=PASO)
    async def paso(self, interaction: discord.Interaction, button: discord.ui.Button[Paso]
                   ) -> None:
        client = interaction.client
        where = client.shard_ids if isinstance(client, discord.AutoShardedClient) else None
        await interaction.response.edit_message(content=f"pasa (shards {where})")


class Seen(commands.Cog):
    """What reached this bot."""

    def __init__(self) -> None:
        self.ready = 0
        self.shards_ready: list[int] = []
        self.messages: list[discord.Message] = []
        self.interactions: list[discord.Interaction] = []
        self.joined: list[int] = []

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.ready += 1

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self.shards_ready.append(shard_id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.joined.append(guild.id)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        self.messages.append(message)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction)

    @app_commands.command(name="hola", description="Saluda")
    async def hola(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("kaixo")


AnyBot = commands.Bot | commands.AutoShardedBot
B = TypeVar("B", commands.Bot, commands.AutoShardedBot)
Pair = tuple[commands.AutoShardedBot, commands.AutoShardedBot]


def make_bot(shard_ids: list[int] | None, *, count: int | None = 2) -> commands.AutoShardedBot:
    """A process holding ``shard_ids`` of ``count`` shards."""
    return setup(commands.AutoShardedBot(command_prefix="!", intents=intents(),
                                         help_command=None, shard_count=count,
                                         shard_ids=shard_ids))  # type: ignore[arg-type]


def plain_bot() -> commands.Bot:
    """An unsharded bot."""
    return setup(commands.Bot(command_prefix="!", intents=intents(), help_command=None))


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = wanted.guild_messages = wanted.dm_messages = True
    wanted.message_content = True
    return wanted


def setup(bot: B) -> B:
    async def setup_hook() -> None:
        await bot.add_cog(Seen())
        bot.add_view(Paso())
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def seen(bot: AnyBot) -> Seen:
    found = bot.get_cog("Seen")
    assert isinstance(found, Seen)
    return found


def contents(bot: AnyBot) -> list[str]:
    return [m.content for m in seen(bot).messages]


def build(world: FakeDiscord) -> dict[str, int]:
    """Two servers on shard 0, one on shard 1 (of 2), a channel in each, Ana with a DM
    channel: the same ids in every world built with the same clock and epoch."""
    ids = {"g0": world.add_guild("Txoko", shard=(0, 2)),
           "g1": world.add_guild("Sagardotegi", shard=(1, 2)),
           "g0b": world.add_guild("Bodega", shard=(0, 2))}
    for name in ("g0", "g1", "g0b"):
        ids["c" + name[1:]] = world.add_text_channel(ids[name], "mus")
    ids["ana"] = world.add_user("Ana")
    ids["dm"] = world.dm_channel(ids["ana"])
    return ids


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def world(clock: ManualClock) -> FakeDiscord:
    return FakeDiscord(clock, epoch=EPOCH)


@pytest.fixture
def ids(world: FakeDiscord) -> dict[str, int]:
    return build(world)


@pytest.fixture
async def shards(world: FakeDiscord, ids: dict[str, int]) -> AsyncIterator[Pair]:
    """Two processes: one holding shard 0, one shard 1."""
    zero, one = make_bot([0]), make_bot([1])
    await world.connect(zero)
    await world.connect(one)
    yield zero, one
    await world.close()


def guild_ids(bot: AnyBot) -> set[int]:
    return {g.id for g in bot.guilds}


# Connecting.


async def test_each_shard_gets_its_ready_and_only_its_servers(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    assert guild_ids(zero) == {ids["g0"], ids["g0b"]} and guild_ids(one) == {ids["g1"]}
    assert [e for _, e in world.gateway(zero).events] == ["READY", "GUILD_CREATE",
                                                          "GUILD_CREATE"]
    assert [e for _, e in world.gateway(one).events] == ["READY", "GUILD_CREATE"]
    assert (seen(zero).ready, seen(zero).shards_ready) == (1, [0])
    assert (seen(one).ready, seen(one).shards_ready) == (1, [1])
    assert zero.is_ready() and one.is_ready()
    assert {g.shard_id for g in one.guilds} == {1}
    assert seen(zero).joined == [] and seen(one).joined == []  # available, not joins
    assert zero.get_channel(ids["c1"]) is None and one.get_channel(ids["c1"]) is not None


async def test_discord_py_reads_the_shards_without_a_websocket(
        world: FakeDiscord, shards: Pair) -> None:
    zero, one = shards
    assert isinstance(zero, discord.AutoShardedClient)
    assert isinstance(one, discord.AutoShardedClient)
    assert list(one.shards) == [1] and one.get_shard(0) is None
    info = one.get_shard(1)
    assert info is not None and info.id == 1 and info.shard_count == 2
    assert not info.is_closed() and info.latency == one.latency == 0.05
    assert not one.is_ws_ratelimited()
    await one.change_presence(activity=discord.Game("mus"))
    assert [p["activity"]["name"] for p in world.gateway(one).shards[1].presences] == ["mus"]
    assert world.gateway(zero).shards[0].presences == []
    assert zero._connection.shard_ids == [0] and zero._connection.shard_count == 2


async def test_one_process_holding_both_shards_gets_a_ready_per_shard(
        world: FakeDiscord, ids: dict[str, int]) -> None:
    both = make_bot([0, 1])
    async with world.connected(both):
        assert [e for _, e in world.gateway(both).events].count("READY") == 2
        assert guild_ids(both) == {ids["g0"], ids["g0b"], ids["g1"]}
        assert seen(both).ready == 1 and sorted(seen(both).shards_ready) == [0, 1]
        await world.send(both, ids["ana"], ids["c1"], "envido")
        await world.dm(both, ids["ana"], "hola")
        assert contents(both) == ["envido", "hola"]


async def test_both_bots_close_cleanly(world: FakeDiscord, shards: Pair) -> None:
    zero, one = shards
    sockets = [world.gateway(zero).shards[0], world.gateway(one).shards[1]]
    await world.disconnect(zero)
    await world.disconnect(one)
    assert zero.is_closed() and one.is_closed() and world.attached_bots() == []
    assert not any(s.open for s in sockets)
    info = one.get_shard(1)
    assert info is not None and info.is_closed()
    assert "request" not in vars(zero.http) and "request" not in vars(one.http)


async def test_connections_the_world_refuses(world: FakeDiscord, ids: dict[str, int]) -> None:
    for unnamed in (make_bot(None, count=None), make_bot(None, count=2)):
        with pytest.raises(ValueError, match="shard_count and shard_ids"):
            await world.connect(unnamed)
        assert world.attached_bots() == [] and "request" not in vars(unnamed.http)
    zero = make_bot([0])
    async with world.connected(zero):
        with pytest.raises(ValueError, match=r"shard\(s\) \[0\] of 2 are held"):
            await world.connect(make_bot([0]))
        with pytest.raises(ValueError, match="use 2 shards, not 3"):
            await world.connect(make_bot([1], count=3))
        with pytest.raises(ValueError, match="distinct shard ids"):
            await world.connect(make_bot([2]))
        assert world.attached_bots() == [zero]


# Routing.


async def test_a_server_message_reaches_only_the_shard_holding_the_server(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    await world.send(one, ids["ana"], ids["c1"], "envido")
    assert contents(one) == ["envido"] and contents(zero) == []
    channel = one.get_channel(ids["c1"])
    assert isinstance(channel, discord.TextChannel)
    await channel.send("quiero")  # its MESSAGE_CREATE echo goes to shard 1 too
    await world.settle()
    assert contents(one) == ["envido", "quiero"] and contents(zero) == []
    await world.send(zero, ids["ana"], ids["c0"], "mus")
    assert contents(zero) == ["mus"] and contents(one) == ["envido", "quiero"]
    with pytest.raises(ValueError, match="to shard 1 of 2; this bot holds shard"):
        await world.send(zero, ids["ana"], ids["c1"], "paso")
    assert [m.content for m in world.messages(ids["c1"])] == ["envido", "quiero"]


async def test_changes_to_a_server_reach_only_its_shard(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    new = world.add_guild("Berria", shard=(1, 2))
    channel = world.add_text_channel(ids["g1"], "txapelketa")
    await world.settle()
    assert seen(one).joined == [new] and seen(zero).joined == []
    assert new in guild_ids(one) and new not in guild_ids(zero)
    assert one.get_channel(channel) is not None and zero.get_channel(channel) is None
    before = len(world.gateway(zero).events)
    await world.remove_guild(zero, ids["g1"])
    assert ids["g1"] not in guild_ids(one) and len(world.gateway(zero).events) == before


async def test_a_dm_reaches_only_shard_0(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    await world.dm(zero, ids["ana"], "hola")
    assert contents(zero) == ["hola"] and contents(one) == []
    assert seen(zero).messages[0].guild is None
    with pytest.raises(ValueError, match="events of DMs to shard 0 of 2"):
        await world.dm(one, ids["ana"], "¿y tú?")
    assert [m.content for m in world.messages(ids["dm"])] == ["hola"]
    ana = await one.fetch_user(ids["ana"])
    await ana.send("kaixo")  # shard 1 may DM, but its echo goes to shard 0
    await world.settle()
    assert contents(zero) == ["hola", "kaixo"] and contents(one) == []


async def test_a_press_in_a_dm_reaches_only_shard_0(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    ana = await one.fetch_user(ids["ana"])
    sent = await ana.send("¿Mus?", view=Paso())  # posted by the shard-1 process
    with pytest.raises(ValueError, match="shard 0 of 2"):
        await world.press(one, ids["ana"], sent.id, PASO)
    inter = await world.press(world.receiver(ids["dm"]), ids["ana"], sent.id, PASO)
    assert [i.id for i in seen(zero).interactions] == [inter.id]
    assert seen(one).interactions == []
    assert inter.response_type == 7 and world.message(sent.id).content == "pasa (shards [0])"


async def test_commands_and_presses_in_a_server_reach_only_its_shard(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    inter = await world.slash(one, ids["ana"], ids["c1"], "hola")
    assert inter.response_type == 4 and seen(one).interactions[0].id == inter.id
    with pytest.raises(ValueError, match=r"server \d+ to shard 1"):
        await world.slash(zero, ids["ana"], ids["c1"], "hola")
    channel = zero.get_channel(ids["c0"])
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("¿Mus?", view=Paso())
    with pytest.raises(ValueError, match="to shard 0 of 2"):
        await world.press(one, ids["ana"], sent.id, PASO)
    pressed = await world.press(zero, ids["ana"], sent.id, PASO)
    assert pressed.response_type == 7
    assert [i.id for i in seen(zero).interactions] == [pressed.id]
    assert [i.id for i in seen(one).interactions] == [inter.id]


async def test_the_receiver_of_a_channel(
        world: FakeDiscord, ids: dict[str, int], shards: Pair) -> None:
    zero, one = shards
    thread = world.add_thread(ids["c1"], "partida")
    assert [world.receiver(ids[c]) for c in ("c0", "c0b", "c1", "dm")] == [zero, zero, one,
                                                                          zero]
    assert world.receiver(thread) is one
    await world.disconnect(zero)
    with pytest.raises(LookupError, match="0 attached bots"):
        world.receiver(ids["dm"])
    assert world.receiver(ids["c1"]) is one


async def test_an_unsharded_bot_still_gets_everything(
        world: FakeDiscord, ids: dict[str, int]) -> None:
    bot = plain_bot()
    async with world.connected(bot):
        assert guild_ids(bot) == {ids["g0"], ids["g1"], ids["g0b"]}
        assert [e for _, e in world.gateway(bot).events] == ["READY"] + ["GUILD_CREATE"] * 3
        await world.send(bot, ids["ana"], ids["c1"], "envido")
        await world.send(bot, ids["ana"], ids["c0"], "mus")
        await world.dm(bot, ids["ana"], "hola")
        ana = await bot.fetch_user(ids["ana"])
        sent = await ana.send("¿Mus?", view=Paso())
        await world.settle()
        assert contents(bot) == ["envido", "mus", "hola", "¿Mus?"]
        inter = await world.press(bot, ids["ana"], sent.id, PASO)
        assert inter.response_type == 7 and world.receiver(ids["c1"]) is bot


# Ids on a chosen shard.


async def test_guild_ids_land_on_the_shard_asked_and_keep_increasing(world: FakeDiscord) -> None:
    plain = [world.add_guild(f"g{i}") for i in range(4)]
    assert len({(g >> 22) % 2 for g in plain}) == 1  # a frozen clock: one shard for all
    asked = [(1, 2), (0, 2), (1, 2), (2, 3), (0, 3), (1, 3), (3, 4), (0, 1)]
    placed = [world.add_guild(f"s{i}", shard=shard) for i, shard in enumerate(asked)]
    assert [(g >> 22) % count for g, (_, count) in zip(placed, asked, strict=True)] == \
        [shard for shard, _ in asked]
    later = [world.add_user("Beñat"), world.add_guild("after")]
    issued = plain + placed + later
    assert issued == sorted(issued) and len(set(issued)) == len(issued)
    assert all(18 <= len(str(g)) <= 19 for g in issued)
    assert (placed[0] >> 22) - (plain[-1] >> 22) <= 1  # pushed by at most count - 1 ms
    with pytest.raises(ValueError, match="no shard 2 among 2"):
        world.add_guild("nowhere", shard=(2, 2))


# Two worlds standing for one Discord (two processes).


async def test_a_dm_posted_in_one_world_is_pressed_in_the_other(clock: ManualClock) -> None:
    first, second = FakeDiscord(clock, epoch=EPOCH), FakeDiscord(clock, epoch=EPOCH)
    ids = build(first)
    assert build(second) == ids  # built identically: the same ids
    first.ids.process, second.ids.process = 2, 3  # from here on their ids never meet
    zero, one = make_bot([0]), make_bot([1])
    await first.connect(zero)
    await second.connect(one)
    try:
        await first.dm(zero, ids["ana"], "hola")  # the first world's own DM message
        ana = await one.fetch_user(ids["ana"])
        sent = await ana.send("¿Mus?", view=Paso())  # the second world's, same channel
        record = json.loads(json.dumps(second.export_message(sent.id)))
        with pytest.raises(ValueError, match="does not exist"):
            await first.press(zero, ids["ana"], sent.id, PASO)
        assert first.import_message(record) == sent.id
        copy = first.message(sent.id)
        assert (copy.channel_id, copy.author, copy.texts()) == (ids["dm"], first.bot_user.id,
                                                                ["¿Mus?", "Paso"])
        assert [m.content for m in first.dms(ids["ana"])] == ["¿Mus?"]
        inter = await first.press(first.receiver(ids["dm"]), ids["ana"], sent.id, PASO)
        assert inter.response_type == 7 and copy.content == "pasa (shards [0])"
        assert second.message(sent.id).content == "¿Mus?"  # only the first world changed
        assert [i.id for i in seen(zero).interactions] == [inter.id]
        assert seen(one).interactions == []
        await sent.edit(content="editado")  # in the second world; importing again updates
        assert first.import_message(second.export_message(sent.id)) == sent.id
        assert copy.content == "editado" and len(first.messages(ids["dm"])) == 2
        assert sent.id not in {first.ids.next() for _ in range(3)}
    finally:
        await first.close()
        await second.close()


async def test_an_import_that_would_mix_two_things_is_refused(clock: ManualClock) -> None:
    first, second = FakeDiscord(clock, epoch=EPOCH), FakeDiscord(clock, epoch=EPOCH)
    for world in (first, second):
        guild = world.add_guild("Txoko")
        mus, txapela = (world.add_text_channel(guild, n) for n in ("mus", "txapela"))
        ana = world.add_user("Ana")
    bot = first.bot_user.id
    # Ids not set apart: each world gives its next id to a message in another channel.
    mine = first.post(first.channels[mus], bot, {"content": "mine"})
    theirs = second.post(second.channels[txapela], bot, {"content": "theirs"})
    assert mine.id == theirs.id
    with pytest.raises(ValueError, match=f"id {mine.id} is another message here"):
        first.import_message(second.export_message(theirs.id))
    assert first.message(mine.id).content == "mine"
    # A channel made in one world only is not made in the other on import.
    first.ids.process, second.ids.process = 2, 3
    later = second.add_text_channel(guild, "berria")
    posted = second.post(second.channels[later], bot, {"content": "x"})
    with pytest.raises(ValueError, match="not in this world"):
        first.import_message(second.export_message(posted.id))
    # Nor a DM channel each world made apart: Discord has one per person.
    dm_first, dm_second = first.dm_channel(ana), second.dm_channel(ana)
    assert dm_first != dm_second
    dm = second.post(second.channels[dm_second], bot, {"content": "kaixo"})
    with pytest.raises(ValueError, match=f"DM channel here is {dm_first}, not {dm_second}"):
        first.import_message(second.export_message(dm.id))
    assert dm.id not in first.messages_by_id and dm_second not in first.channels


async def test_an_imported_id_is_never_issued_by_the_world_it_came_into(clock: ManualClock) -> None:
    first, second = FakeDiscord(clock, epoch=EPOCH), FakeDiscord(clock, epoch=EPOCH)
    channels = [w.add_text_channel(w.add_guild("Txoko"), "mus") for w in (first, second)]
    assert channels[0] == channels[1]
    bot = second.bot_user.id
    second.post(second.channels[channels[1]], bot, {"content": "uno"})
    ahead = second.post(second.channels[channels[1]], bot, {"content": "dos"})
    first.import_message(second.export_message(ahead.id))  # the id first would give next but one
    issued = [first.ids.next() for _ in range(3)]
    assert ahead.id not in issued and issued == sorted(issued)
    assert issued[0] == ahead.id - 1 and issued[1] == ahead.id + 1
