"""The wire double (``tests/wire``) drives a plain ``commands.Bot`` and refuses what Discord
refuses. Every test asserts on the world's records (what reached «Discord»), not on what the
bot believes, so a bot that got away with something Discord would refuse fails here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import wire
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from wire import FakeDiscord

from musbot.table.clock import ManualClock

BUTTON = "mesa:paso"
NOTE = "mesa:nota"


class Note(discord.ui.Modal, title="Apunta"):
    """discord.py 2.6+: the input wrapped in a Label (component type 18)."""

    puntos: discord.ui.Label[Note] = discord.ui.Label(
        text="Puntos", component=discord.ui.TextInput(custom_id="puntos", max_length=2))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        value = self.puntos.component.value  # type: ignore[attr-defined]
        await interaction.response.send_message(f"Apuntados {value}", ephemeral=True)


class TableView(discord.ui.View):
    """Persistent (no timeout, fixed custom ids): registered in setup_hook, it answers presses
    on messages sent before a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Paso", custom_id=BUTTON)
    async def paso(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]
                   ) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.display_name} pasa")

    @discord.ui.button(label="Nota", custom_id=NOTE)
    async def nota(self, interaction: discord.Interaction, button: discord.ui.Button[TableView]
                   ) -> None:
        mesa = interaction.client.get_cog("Mesa")  # type: ignore[attr-defined]
        try:
            await interaction.response.send_modal(mesa.next_modal or Note())
        except discord.HTTPException as error:
            mesa.errors.append(error)


class Mesa(commands.Cog):
    """The tiny cog under test: slash commands, a button, an ``on_message`` listener."""

    mus = app_commands.Group(name="mus", description="Mus")

    def __init__(self, bot: commands.Bot, clock: ManualClock) -> None:
        self.bot = bot
        self.clock = clock
        self.ready = 0
        self.seen: list[discord.Message] = []
        self.interactions: list[discord.Interaction] = []
        self.options: list[tuple[int, discord.Member | discord.User | None]] = []
        self.errors: list[Exception] = []
        self.ack_everything = False
        self.next_modal: discord.ui.Modal | None = None
        self.joined: list[discord.Guild] = []
        self.channels: list[discord.TextChannel] = []
        self.permissions: list[discord.Permissions] = []
        self.too_many_choices = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.ready += 1

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.joined.append(guild)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        if message.author.bot:
            return
        if message.content.startswith("envido"):
            await message.channel.send("quiero")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The «acknowledge everything» listener: with a view's own callback also answering,
        one of the two answers is refused."""
        if self.ack_everything and interaction.type is discord.InteractionType.component:
            try:
                await interaction.response.defer()
            except discord.HTTPException as error:
                self.errors.append(error)

    @mus.command(name="mesa", description="Abre una mesa")
    async def mesa(self, interaction: discord.Interaction, puntos: int,
                   rival: discord.User | None = None,
                   canal: discord.TextChannel | None = None) -> None:
        self.interactions.append(interaction)
        self.options.append((puntos, rival))
        if canal is not None:
            self.channels.append(canal)
        await interaction.response.send_message(f"Mesa a {puntos}", view=TableView())

    @mus.command(name="lento", description="Contesta tarde")
    async def lento(self, interaction: discord.Interaction, segundos: float) -> None:
        await self.clock.sleep(segundos)
        try:
            await interaction.response.send_message("ya voy")
        except discord.HTTPException as error:
            self.errors.append(error)

    @mus.command(name="palo", description="Elige un palo")
    async def palo(self, interaction: discord.Interaction, puntos: int, palo: str) -> None:
        self.permissions.append(interaction.permissions)
        await interaction.response.send_message(f"{palo} a {puntos}", ephemeral=True)

    @palo.autocomplete("palo")
    async def palos(self, interaction: discord.Interaction, current: str
                    ) -> list[app_commands.Choice[str]]:
        names = [f"palo {i}" for i in range(30)] if self.too_many_choices else \
            ["oros", "copas", "espadas", "bastos"]
        return [app_commands.Choice(name=n, value=n) for n in names if current in n]

    @mus.command(name="piensa", description="Difiere y sigue")
    async def piensa(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("pensado")
        await interaction.followup.send("y otra", ephemeral=True)


def make_bot(clock: ManualClock, *, message_content: bool = True) -> commands.Bot:
    intents = discord.Intents.none()
    intents.guilds = intents.guild_messages = intents.dm_messages = True
    intents.message_content = message_content
    bot = commands.Bot(command_prefix="!", intents=intents, help_command=None)

    async def setup_hook() -> None:
        await bot.add_cog(Mesa(bot, clock))
        bot.add_view(TableView())
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def cog(bot: commands.Bot) -> Mesa:
    found = bot.get_cog("Mesa")
    assert isinstance(found, Mesa)
    return found


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def world(clock: ManualClock) -> FakeDiscord:
    return FakeDiscord(clock)


@pytest.fixture
def ids(world: FakeDiscord) -> dict[str, int]:
    guild = world.add_guild("Txoko")
    return {"guild": guild, "channel": world.add_text_channel(guild, "mus"),
            "ana": world.add_user("Ana"), "beñat": world.add_user("Beñat", dms_open=False)}


@pytest.fixture
async def bot(world: FakeDiscord, clock: ManualClock, ids: dict[str, int]
              ) -> AsyncIterator[commands.Bot]:
    bot = make_bot(clock)
    await world.connect(bot)
    yield bot
    await world.disconnect(bot)


def text_channel(bot: commands.Bot, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# The package itself.


def test_the_package_imports_nothing_of_musbot() -> None:
    for source in Path(wire.__file__).parent.glob("*.py"):
        text = source.read_text()
        assert "import musbot" not in text and "from musbot" not in text, source.name


# Connecting: login, setup_hook, READY and GUILD_CREATE, on_ready.


async def test_connect_logs_in_syncs_and_is_ready_with_the_guilds(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    assert bot.is_ready() and cog(bot).ready == 1
    assert bot.user is not None and bot.user.id == world.bot_user.id
    assert bot.application_id == world.application_id
    assert bot.application is not None and bot.application.flags.gateway_message_content
    guild = bot.get_guild(ids["guild"])
    assert guild is not None and guild.me is not None
    assert text_channel(bot, ids["channel"]).permissions_for(guild.me).send_messages
    routes = [c.route for c in world.calls]
    assert routes[:3] == ["GET /users/@me", "GET /oauth2/applications/@me",
                          "PUT /applications/{application_id}/commands"]
    (mus,) = world.global_commands
    assert mus["name"] == "mus" and int(mus["id"]) > 10**17
    assert [o["name"] for o in mus["options"]] == ["mesa", "lento", "palo", "piensa"]
    assert [event for _, event in world.gateway(bot).events] == ["READY", "GUILD_CREATE"]


async def test_ids_are_realistic_snowflakes(world: FakeDiscord, ids: dict[str, int]) -> None:
    for value in ids.values():
        assert 18 <= len(str(value)) <= 19
    assert discord.utils.snowflake_time(ids["channel"]).year >= 2025


async def test_a_refused_privileged_intent_fails_the_connection(clock: ManualClock) -> None:
    world = FakeDiscord(clock, message_content=False)
    bot = make_bot(clock, message_content=True)
    with pytest.raises(discord.PrivilegedIntentsRequired):
        await world.connect(bot)
    assert "request" not in vars(bot.http)  # detached after the failure


# Messages: limits.


async def test_content_over_2000_characters_is_refused(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("a" * 2001)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in refused.value.text
    assert world.messages(ids["channel"]) == []
    await channel.send("a" * 2000)
    assert [len(m.content) for m in world.messages(ids["channel"])] == [2000]


@pytest.mark.parametrize("content", ["", "   \n"])
async def test_an_empty_message_is_refused(world: FakeDiscord, bot: commands.Bot,
                                           ids: dict[str, int], content: str) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await text_channel(bot, ids["channel"]).send(content)
    assert (refused.value.status, refused.value.code) == (400, 50006)
    assert world.messages(ids["channel"]) == []
    assert world.refusal(400, 50006)[0].route == "POST /channels/{channel_id}/messages"


async def test_embed_limits(world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    crowded = discord.Embed(title="Tanteo")
    for i in range(26):
        crowded.add_field(name=f"Mano {i}", value="0")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embed=crowded)
    assert refused.value.code == 50035 and "In embeds.0.fields" in refused.value.text
    heavy = [discord.Embed(description="x" * 4000), discord.Embed(description="y" * 2001)]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embeds=heavy)
    assert "Embed size exceeds maximum size of 6000" in refused.value.text
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embed=discord.Embed(title="t" * 257))
    assert "In embeds.0.title" in refused.value.text
    crowded.remove_field(25)
    sent = await channel.send(embed=crowded)
    assert len(world.message(sent.id).embeds[0]["fields"]) == 25


async def test_component_limits(world: FakeDiscord, bot: commands.Bot,
                                ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    view = discord.ui.View()
    for i in range(5):
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"b{i}", row=0))
    with pytest.raises(ValueError):  # discord.py itself refuses a sixth in the row
        view.add_item(discord.ui.Button(label="5", custom_id="b5", row=0))
    six = [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)]
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=ids["channel"])
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"components": [{"type": 1, "components": six}]})
    assert refused.value.code == 50035 and "In components.0.components" in refused.value.text
    # What discord.py lets through and Discord does not: a custom_id over 100 characters, two
    # buttons with one custom_id, a label over 80.
    for label, custom_id, field in (("x", "c" * 101, "custom_id"), ("x", "b0", "custom_id"),
                                    ("l" * 81, "b1", "label")):
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="ok", custom_id="b0"))
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id))
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("botones", view=view)
        assert refused.value.code == 50035
        assert f"In components.0.components.1.{field}" in refused.value.text
    assert world.messages(ids["channel"]) == []


# Rate limits, lived through as discord.py lives through them.


async def test_a_sixth_post_within_5_s_gets_one_429_then_goes_through(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock,
        ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    for i in range(5):
        await channel.send(f"m{i}")
    await clock.advance(1.0)
    sixth = asyncio.create_task(channel.send("m5"))
    await world.settle()
    assert not sixth.done()  # sleeping out retry_after on the fake clock
    (limited,) = [c for c in world.calls if c.rate_limited]
    assert (limited.status, limited.retry_after, limited.is_global) == (429, 4.0, False)
    assert limited.channel_id == ids["channel"] and limited.at == 1.0
    await clock.advance(4.0)
    message = await sixth
    assert world.message(message.id).created_at == 5.0
    report = world.report()
    assert report.rate_limited == 1 and report.worst_creations[ids["channel"]] == 5
    assert [m.content for m in world.messages(ids["channel"])] == [f"m{i}" for i in range(6)]


async def test_edits_have_their_own_window(world: FakeDiscord, bot: commands.Bot,
                                           clock: ManualClock, ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    sent = [await channel.send(f"m{i}") for i in range(5)]
    for i, message in enumerate(sent):
        await message.edit(content=f"e{i}")
    assert world.report().rate_limited == 0  # five posts and five edits: two windows
    sixth = asyncio.create_task(sent[0].edit(content="again"))
    await world.settle()
    assert world.report().rate_limited == 1 and not sixth.done()
    await clock.advance(5.0)
    await sixth
    edits = world.message(sent[0].id).edits
    assert [(e.at, e.payload["content"], e.via) for e in edits] == [(0.0, "e0", "rest"),
                                                                    (5.0, "again", "rest")]
    report = world.report()
    assert report.worst_edits[ids["channel"]] == 5 and report.worst_creations[ids["channel"]] == 5


async def test_the_global_budget_counts_rest_calls_not_interactions(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock,
        ids: dict[str, int]) -> None:
    start = world.report().budget_calls
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    callback = world.calls[-1]
    assert callback.kind == "callback" and not callback.budget
    assert world.report().budget_calls == start
    await clock.advance(1.0)
    fetches = asyncio.gather(*(bot.fetch_user(ids["ana"]) for _ in range(51)))
    await world.settle()
    report = world.report()
    assert report.global_rate_limited == 1 and report.busiest_second == 51
    await clock.advance(1.0)
    assert len(await fetches) == 51
    assert world.report().user_fetches == 52  # 51 and the retried one


# Interactions: one answer, within 3 s; the token for 15 minutes.


async def test_a_slash_command_reaches_its_callback_with_its_options(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    inter = await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30,
                              rival=ids["beñat"])
    (puntos, rival), = cog(bot).options
    assert puntos == 30 and rival is not None and rival.id == ids["beñat"]
    assert inter.response_type == 4 and inter.public_texts() == ["Mesa a 30", "Paso", "Nota"]
    (message,) = world.messages(ids["channel"])
    assert message.interaction_id == inter.id and message.custom_ids() == [BUTTON, NOTE]
    other = world.add_text_channel(ids["guild"], "otra")
    await world.settle()
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30, canal=other)
    (canal,) = cog(bot).channels
    assert isinstance(canal, discord.TextChannel) and canal.name == "otra"
    with pytest.raises(ValueError, match="required"):
        await world.slash(bot, ids["ana"], ids["channel"], "mus mesa")
    with pytest.raises(ValueError, match="no option"):
        await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30, manos=2)
    with pytest.raises(ValueError, match="never synced"):
        await world.slash(bot, ids["ana"], ids["channel"], "truco")


async def test_an_interaction_answered_twice_is_refused_with_40060(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (table,) = world.messages(ids["channel"])
    cog(bot).ack_everything = True
    inter = await world.press(bot, ids["ana"], table.id, BUTTON)
    assert [a.status for a in inter.attempts] == [200, 400]
    assert inter.refusals[0].code == 40060
    assert len(world.refusal(400, 40060)) == 1


@pytest.mark.parametrize(("delay", "answered"), [(2.5, True), (3.5, False)])
async def test_the_initial_response_must_come_within_3_s(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock, ids: dict[str, int],
        delay: float, answered: bool) -> None:
    inter = await world.slash(bot, ids["ana"], ids["channel"], "mus lento", segundos=delay)
    assert inter.attempts == []
    await clock.advance(delay)
    await world.settle()
    if answered:
        assert inter.response_type == 4 and cog(bot).errors == []
    else:
        assert inter.response_type is None
        assert [(a.status, a.code) for a in inter.attempts] == [(404, 10062)]
        (error,) = cog(bot).errors
        assert isinstance(error, discord.NotFound) and error.code == 10062
        assert world.messages(ids["channel"]) == []


async def test_the_interaction_token_lasts_15_minutes(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock,
        ids: dict[str, int]) -> None:
    inter = await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (stored,) = cog(bot).interactions
    await clock.advance(14 * 60)
    await stored.edit_original_response(content="Mesa a 30 (sigue)")
    assert inter.original is not None and inter.original.content == "Mesa a 30 (sigue)"
    assert inter.original.edits[-1].via == "webhook"
    await clock.advance(60.5)
    with pytest.raises(discord.HTTPException) as refused:
        await stored.edit_original_response(content="¿Sigue?")
    assert (refused.value.status, refused.value.code) == (401, 50027)
    assert inter.original.content == "Mesa a 30 (sigue)"


async def test_a_button_press_edits_its_message(world: FakeDiscord, bot: commands.Bot,
                                                 ids: dict[str, int]) -> None:
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (table,) = world.messages(ids["channel"])
    inter = await world.press(bot, ids["ana"], table.id, BUTTON)
    assert inter.response_type == 7 and inter.original is table
    assert table.content == "Ana pasa" and table.edits[-1].via == "interaction"
    with pytest.raises(ValueError, match="no component"):
        await world.press(bot, ids["ana"], table.id, "mesa:envido")


async def test_a_modal_wrapped_in_labels_is_shown_and_submitted(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (table,) = world.messages(ids["channel"])
    opened = await world.press(bot, ids["ana"], table.id, NOTE)
    assert opened.response_type == 9 and opened.modal is not None
    assert opened.modal["components"][0]["type"] == 18
    with pytest.raises(ValueError, match="length"):
        await world.submit_modal(bot, ids["ana"], opened, {"puntos": "123"})
    submitted = await world.submit_modal(bot, ids["ana"], opened, {"puntos": "5"})
    assert submitted.ephemeral_texts() == ["Apuntados 5"]
    assert [m.content for m in world.ephemerals(ids["ana"])] == ["Apuntados 5"]
    assert [m.content for m in world.messages(ids["channel"])] == ["Mesa a 30"]


async def test_modal_limits(world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (table,) = world.messages(ids["channel"])
    long_title = discord.ui.Modal(title="t" * 46)
    long_title.add_item(discord.ui.Label(text="ok", component=discord.ui.TextInput()))
    long_label = discord.ui.Modal(title="ok")
    long_label.add_item(discord.ui.Label(text="l" * 46, component=discord.ui.TextInput()))
    legacy = discord.ui.Modal(title="ok")  # the old way: the label on the input, in a row
    legacy.add_item(discord.ui.TextInput(label="l" * 46))
    for modal, field in ((long_title, "data.title"), (long_label, "data.components.0.label"),
                         (legacy, "data.components.0.components.0.label")):
        cog(bot).next_modal = modal
        inter = await world.press(bot, ids["ana"], table.id, NOTE)
        assert inter.response_type is None and inter.refusals[0].code == 50035
        error = cog(bot).errors.pop()
        assert isinstance(error, discord.HTTPException) and f"In {field}:" in error.text


async def test_a_deferred_response_is_filled_by_the_first_followup(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    inter = await world.slash(bot, ids["ana"], ids["channel"], "mus piensa")
    assert inter.response_type == 5
    original, second = inter.messages()
    # The first followup completes the «thinking» message, ephemeral as the defer chose
    # (the followup asked for nothing); the second is a message of its own.
    assert original.id == inter.original_id and original.ephemeral and not original.loading
    assert (original.content, second.content, second.ephemeral) == ("pensado", "y otra", True)
    assert inter.ephemeral_texts() == ["pensado", "y otra"]
    assert world.messages(ids["channel"]) == []
    assert [c.kind for c in world.calls[-3:]] == ["callback", "webhook", "webhook"]


# DMs.


async def test_dms_reach_open_users_and_closed_ones_refuse_with_50007(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    ana = await bot.fetch_user(ids["ana"])
    sent = await ana.send("Te toca")
    assert [m.content for m in world.dms(ids["ana"])] == ["Te toca"]
    assert sent.channel.id == world.dm_channel(ids["ana"])
    benat = await bot.fetch_user(ids["beñat"])
    with pytest.raises(discord.Forbidden) as refused:
        await benat.send("Te toca")
    assert (refused.value.status, refused.value.code) == (403, 50007)
    assert world.dms(ids["beñat"]) == []
    opened = [c for c in world.calls if c.route == "POST /users/@me/channels"]
    assert [c.status for c in opened] == [200, 200]  # opening the DM works; sending does not
    world.set_dms(ids["beñat"], open=True)
    await benat.send("Ahora sí")
    assert [m.content for m in world.dms(ids["beñat"])] == ["Ahora sí"]
    assert world.report().user_fetches == 2


async def test_a_dm_reaches_on_message_without_a_guild(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    await world.dm(bot, ids["ana"], "descarto 1 3")
    (message,) = [m for m in cog(bot).seen if not m.author.bot]
    assert message.guild is None and isinstance(message.channel, discord.DMChannel)
    assert message.channel.id == world.dm_channel(ids["ana"])
    assert (message.author.id, message.content) == (ids["ana"], "descarto 1 3")


# Gateway messages.


async def test_a_guild_message_reaches_on_message_and_the_answer_reaches_discord(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    message_id = await world.send(bot, ids["ana"], ids["channel"], "envido 5")
    received = cog(bot).seen[0]
    assert received.id == message_id and received.content == "envido 5"
    assert received.author.id == ids["ana"] and isinstance(received.author, discord.Member)
    assert received.channel.id == ids["channel"]
    assert received.guild is not None and received.guild.id == ids["guild"]
    # The bot answered: the answer is in the channel, and (as Discord does) the gateway sent
    # the bot its own message back.
    assert [(m.author, m.content) for m in world.messages(ids["channel"])] == [
        (ids["ana"], "envido 5"), (world.bot_user.id, "quiero")]
    echoed = cog(bot).seen[1]
    assert echoed.author == bot.user and echoed.content == "quiero"


async def test_without_the_message_content_intent_guild_messages_come_empty(
        world: FakeDiscord, clock: ManualClock, ids: dict[str, int]) -> None:
    bot = make_bot(clock, message_content=False)
    async with world.connected(bot):
        await world.send(bot, ids["ana"], ids["channel"], "envido 5")
        await world.send(bot, ids["ana"], ids["channel"], f"<@{world.bot_user.id}> envido 2")
        await world.dm(bot, ids["ana"], "envido 3")
        people = [m.content for m in cog(bot).seen if not m.author.bot]
        assert people == ["", f"<@{world.bot_user.id}> envido 2", "envido 3"]
    assert world.messages(ids["channel"])[0].content == "envido 5"  # Discord has the text


# discord.py objects come back right.


async def test_send_edit_reply_react_delete_return_discord_objects(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    sent = await channel.send("Mano", embed=discord.Embed(title="Tanteo", description="0-0"))
    assert isinstance(sent, discord.Message) and sent.author == bot.user
    record = world.message(sent.id)
    assert record.channel_id == ids["channel"] and record.embeds[0]["title"] == "Tanteo"
    edited = await sent.edit(content="Mano 2", embed=None)
    assert edited.content == "Mano 2" and edited.edited_at is not None
    assert (record.content, record.embeds) == ("Mano 2", [])
    assert (record.edits[0].payload["content"], record.edits[0].payload["embeds"]) == (
        "Mano 2", [])
    reply = await sent.reply("Órdago")
    assert world.message(reply.id).reference == sent.id and reply.reference is not None
    await sent.add_reaction("👍")
    assert record.reactions == [("👍", world.bot_user.id)]
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "Mano 2" and fetched.reactions[0].me
    await sent.delete()
    assert record.deleted and record.deleted_at == 0.0
    with pytest.raises(discord.NotFound) as unknown:
        await sent.edit(content="otra")
    assert unknown.value.code == 10008
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x", reference=sent)
    assert refused.value.code == 50035
    assert [m.content for m in world.messages(ids["channel"], deleted=False)] == ["Órdago"]


async def test_files_are_recorded_and_attached(world: FakeDiscord, bot: commands.Bot,
                                               ids: dict[str, int], tmp_path: Path) -> None:
    card = tmp_path / "mano.txt"
    card.write_bytes(b"as de oros")
    sent = await text_channel(bot, ids["channel"]).send(file=discord.File(card))
    (attachment,) = sent.attachments
    assert (attachment.filename, attachment.size) == ("mano.txt", 10)
    assert world.calls[-1].files[0].filename == "mano.txt"


async def test_threads(world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    channel = text_channel(bot, ids["channel"])
    thread = await channel.create_thread(name="Partida 1", type=discord.ChannelType.public_thread)
    await thread.send("Empieza")
    assert [m.content for m in world.messages(thread.id)] == ["Empieza"]
    await world.settle()
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the cache
    await world.send(bot, ids["ana"], thread.id, "envido")
    assert world.messages(thread.id)[-1].content == "quiero"


async def test_permissions_are_enforced(world: FakeDiscord, clock: ManualClock,
                                        ids: dict[str, int]) -> None:
    muted = world.add_text_channel(ids["guild"], "anuncios", bot_can_send=False)
    bot = make_bot(clock)
    async with world.connected(bot):
        channel = text_channel(bot, muted)
        assert channel.guild.me is not None
        assert not channel.permissions_for(channel.guild.me).send_messages
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("hola")
        assert refused.value.code == 50013


async def test_permissions_change_under_the_bot_as_on_discord(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    """Send Messages taken by the channel: a new message is 403/50013, its own messages may
    still be edited; View Channel taken: every call about the channel is 403/50001. Each change
    reaches the bot's cache (CHANNEL_UPDATE, GUILD_ROLE_UPDATE, its own GUILD_MEMBER_UPDATE),
    and the messages a bot posts notify only whom ``allowed_mentions`` lets through."""
    channel = text_channel(bot, ids["channel"])
    me = channel.guild.me
    sent = await channel.send(f"<@{ids['ana']}> @everyone",
                              allowed_mentions=discord.AllowedMentions.none())
    assert world.message(sent.id).pinged == frozenset()
    assert not world.message(sent.id).pinged_everyone
    pinged = await channel.send(f"<@{ids['ana']}> \\<@{ids['ana']}>")
    assert world.pings(channel=ids["channel"]) == [(pinged.id, ids["ana"])]
    send = discord.Permissions(send_messages=True).value
    view = discord.Permissions(view_channel=True).value
    world.set_overwrite(ids["channel"], world.bot_user.id, deny=send)
    await world.settle()
    assert not channel.permissions_for(me).send_messages
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hola")
    assert refused.value.code == 50013
    await sent.edit(content="editado")
    world.set_overwrite(ids["channel"], world.bot_user.id, deny=view)
    await world.settle()
    assert not channel.permissions_for(me).view_channel
    for call in (lambda: channel.send("hola"), lambda: sent.edit(content="otra vez"),
                 lambda: sent.add_reaction("✅"), lambda: channel.fetch_message(sent.id)):
        with pytest.raises(discord.Forbidden) as hidden:
            await call()
        assert hidden.value.code == 50001
    world.set_overwrite(ids["channel"], world.bot_user.id)
    world.set_role_permissions(ids["guild"], ids["guild"], 0)  # @everyone may do nothing
    await world.settle()
    assert not channel.permissions_for(me).view_channel
    role = world.add_role(ids["guild"], "Bot", discord.Permissions.text().value | view)
    world.give_role(ids["guild"], world.bot_user.id, role)
    await world.settle()
    assert channel.permissions_for(me).send_messages
    await channel.send("de vuelta")
    assert [c.code for c in world.invalid_requests(ids["channel"])] == [50013] + [50001] * 4


# Changes to the world.


async def test_a_deleted_channel_and_a_removed_guild(world: FakeDiscord, bot: commands.Bot,
                                                     ids: dict[str, int]) -> None:
    other = world.add_text_channel(ids["guild"], "otra")
    await world.settle()
    gone = text_channel(bot, ids["channel"])
    await world.delete_channel(bot, ids["channel"])
    assert bot.get_channel(ids["channel"]) is None
    with pytest.raises(discord.NotFound) as unknown:
        await gone.send("¿hola?")
    assert unknown.value.code == 10003
    kept = text_channel(bot, other)  # CHANNEL_CREATE reached the cache
    await world.remove_guild(bot, ids["guild"])
    assert bot.get_guild(ids["guild"]) is None
    with pytest.raises(discord.Forbidden) as refused:
        await kept.send("¿hola?")
    assert refused.value.code == 50001


async def test_a_restart_keeps_the_world_and_old_buttons_work(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock,
        ids: dict[str, int]) -> None:
    await world.slash(bot, ids["ana"], ids["channel"], "mus mesa", puntos=30)
    (table,) = world.messages(ids["channel"])
    await world.disconnect(bot)
    assert bot.is_closed() and "request" not in vars(bot.http)
    with pytest.raises(RuntimeError, match="not connected"):
        await world.press(bot, ids["ana"], table.id, BUTTON)
    again = make_bot(clock)
    await world.connect(again)
    try:
        inter = await world.press(again, ids["ana"], table.id, BUTTON)
        assert inter.response_type == 7 and table.content == "Ana pasa"
        assert [event for _, event in world.gateway(again).events][:2] == ["READY",
                                                                           "GUILD_CREATE"]
    finally:
        await world.disconnect(again)


async def test_detaching_restores_discord_py(world: FakeDiscord, clock: ManualClock,
                                             ids: dict[str, int]) -> None:
    from discord.webhook.async_ import async_context

    bot = make_bot(clock)
    default = async_context.get()
    await world.connect(bot)
    assert "request" in vars(bot.http) and "request" in vars(default)
    await world.disconnect(bot)
    assert "request" not in vars(bot.http) and "request" not in vars(default)
    assert bot.ws is None


async def test_an_endpoint_the_double_does_not_model_fails_loudly(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    guild = bot.get_guild(ids["guild"])
    assert guild is not None
    with pytest.raises(wire.UnsupportedRoute, match=r"GET /guilds/\{guild_id\}/channels"):
        await guild.fetch_channels()
    assert world.calls[-1].route == "GET /guilds/{guild_id}/channels"
    assert world.report().unsupported == 1


async def test_calls_are_recorded_with_route_path_channel_and_body(
        world: FakeDiscord, bot: commands.Bot, clock: ManualClock,
        ids: dict[str, int]) -> None:
    await clock.advance(2.0)
    await text_channel(bot, ids["channel"]).send("hola")
    call = world.calls[-1]
    assert (call.at, call.method, call.route) == (2.0, "POST",
                                                  "POST /channels/{channel_id}/messages")
    assert call.path == f"/channels/{ids['channel']}/messages"
    assert call.channel_id == ids["channel"] and call.json["content"] == "hola"
    assert (call.status, call.budget, call.rate_limited, call.kind) == (200, True, False,
                                                                        "rest")
    report = world.report()
    assert report.by_route["POST /channels/{channel_id}/messages"] == 1
    assert report.refusals == {}


async def test_slash_commands_in_dms_and_selects(world: FakeDiscord, bot: commands.Bot,
                                                 ids: dict[str, int]) -> None:
    dm = world.dm_channel(ids["ana"])
    inter = await world.slash(bot, ids["ana"], dm, "mus mesa", puntos=40)
    assert inter.guild_id is None and inter.payload["context"] == 1
    (message,) = world.messages(dm)
    assert message.content == "Mesa a 40"
    view = discord.ui.View()
    view.add_item(discord.ui.Select(custom_id="palo", options=[
        discord.SelectOption(label=p) for p in ("oros", "copas")]))
    sent = await text_channel(bot, ids["channel"]).send("Elige", view=view)
    picked = await world.press(bot, ids["ana"], sent.id, "palo", values=["copas"])
    assert picked.payload["data"] == {"custom_id": "palo", "component_type": 3,
                                      "values": ["copas"]}
    assert picked.response_type is None  # nothing in the bot answers it
    with pytest.raises(ValueError, match="offers"):
        await world.press(bot, ids["ana"], sent.id, "palo", values=["bastos"])


async def test_a_bot_closed_without_disconnect_does_not_answer_for_the_next_world(
        clock: ManualClock) -> None:
    from discord.webhook.async_ import async_context

    first = FakeDiscord(clock)
    first.add_guild("Uno")
    bot = make_bot(clock)
    await first.connect(bot)
    await bot.close()  # forgot world.disconnect
    second = FakeDiscord(clock)
    guild = second.add_guild("Dos")
    channel, ana = second.add_text_channel(guild, "mus"), second.add_user("Ana")
    other = make_bot(clock)
    async with second.connected(other):
        inter = await second.slash(other, ana, channel, "mus mesa", puntos=30)
        (stored,) = cog(other).interactions
        await stored.edit_original_response(content="editada")  # through the default adapter
        assert inter.original is not None and inter.original.content == "editada"
    assert "request" not in vars(bot.http) and "request" not in vars(async_context.get())


async def test_fetch_guild_and_channel(world: FakeDiscord, bot: commands.Bot,
                                       ids: dict[str, int]) -> None:
    guild = await bot.fetch_guild(ids["guild"])
    assert guild.name == "Txoko"
    channel = await bot.fetch_channel(ids["channel"])
    assert isinstance(channel, discord.TextChannel) and channel.name == "mus"
    with pytest.raises(discord.NotFound):
        await bot.fetch_channel(12345678901234567)


# Servers the bot joins, roles, autocomplete.


async def test_a_server_joined_after_ready_arrives_whole_as_a_join(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    guild = world.add_guild("Nuevo", locale="en-US", bot_in=False)
    general = world.add_text_channel(guild, "general", position=1)
    notices = world.add_text_channel(guild, "avisos", position=0, system=True,
                                     bot_can_send=False)
    await world.settle()
    assert bot.get_guild(guild) is None and bot.get_channel(general) is None  # not in it yet
    await world.invite(bot, guild)
    (joined,) = cog(bot).joined
    assert joined.id == guild and str(joined.preferred_locale) == "en-US"
    assert joined.system_channel is not None and joined.system_channel.id == notices
    assert joined.me is not None
    assert not joined.system_channel.permissions_for(joined.me).send_messages
    assert [c.id for c in joined.text_channels] == [notices, general]
    with pytest.raises(ValueError, match="already"):
        await world.invite(bot, guild)
    world.add_guild("Vacío")  # added while connected: a join too
    await world.settle()
    assert [g.name for g in cog(bot).joined] == ["Nuevo", "Vacío"]
    await world.remove_guild(bot, guild)
    await world.invite(bot, guild)
    assert [g.name for g in cog(bot).joined] == ["Nuevo", "Vacío", "Nuevo"]


async def test_member_permissions_come_from_roles_and_ownership(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    admins = world.add_role(ids["guild"], "Admins",
                            discord.Permissions(manage_guild=True).value)
    await world.slash(bot, ids["ana"], ids["channel"], "mus palo", puntos=1, palo="oros")
    world.give_role(ids["guild"], ids["ana"], admins)
    await world.slash(bot, ids["ana"], ids["channel"], "mus palo", puntos=1, palo="oros")
    await world.slash(bot, world.owner.id, ids["channel"], "mus palo", puntos=1, palo="oros")
    before, after, owner = cog(bot).permissions
    assert before.send_messages and not before.manage_guild
    assert after.manage_guild and after.send_messages and not after.administrator
    assert owner.administrator and owner.manage_guild
    guild = bot.get_guild(ids["guild"])
    assert guild is not None and guild.get_role(admins) is not None  # GUILD_ROLE_CREATE
    with pytest.raises(ValueError, match="no role"):
        world.give_role(ids["guild"], ids["ana"], 404)


async def test_autocomplete_offers_the_bots_choices_within_discords_limits(
        world: FakeDiscord, bot: commands.Bot, ids: dict[str, int]) -> None:
    inter = await world.autocomplete(bot, ids["ana"], ids["channel"], "mus palo", "palo",
                                     "as")
    assert inter.type == 4 and inter.response_type == 8
    assert [c["value"] for c in inter.choices] == ["copas", "espadas", "bastos"]
    assert inter.payload["data"]["options"][0]["options"] == [
        {"type": 3, "name": "palo", "value": "as", "focused": True}]
    assert inter.messages() == [] and world.messages(ids["channel"]) == []
    with pytest.raises(ValueError, match="no autocomplete"):
        await world.autocomplete(bot, ids["ana"], ids["channel"], "mus palo", "puntos", "3")
    cog(bot).too_many_choices = True
    refused = await world.autocomplete(bot, ids["ana"], ids["channel"], "mus palo", "palo")
    assert refused.response_type is None and refused.refusals[0].code == 50035
