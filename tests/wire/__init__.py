"""A test double of Discord at discord.py's HTTP layer.

Real ``discord.Client``/``commands.Bot`` objects connect to :class:`FakeDiscord`: their
``HTTPClient.request`` and the webhook adapter are replaced by a recorder that answers as
Discord does and refuses what Discord refuses (lengths, empty messages, components, the 3 s
and 15 min interaction windows, closed DMs, per-channel and global rate limits); gateway
events are fed to the connection state's parsers. Tests assert on the world's records.

    world = FakeDiscord(clock)                      # clock: now() and async sleep()
    guild = world.add_guild("Txoko")
    channel = world.add_text_channel(guild, "mus")
    ana = world.add_user("Ana")
    admins = world.add_role(guild, "Admins", discord.Permissions(manage_guild=True).value)
    world.give_role(guild, ana, admins)             # her interactions carry Manage Server
    async with world.connected(bot):                # login, setup_hook, READY, on_ready
        await world.send(bot, ana, channel, "envido 5")
        inter = await world.slash(bot, ana, channel, "mus mesa", puntos=30)
        await clock.advance(16 * 60)                # the interaction token is dead now
        inter = await world.autocomplete(bot, ana, channel, "liga unirse", "nombre", "oto")
        assert [c["value"] for c in inter.choices] == ["Otoño"]
        new = world.add_guild("Nuevo", bot_in=False)  # set up first, then the bot added:
        world.add_text_channel(new, "general", system=True)
        await world.invite(bot, new)                # GUILD_CREATE as a join (on_guild_join)
        world.fail("POST /applications/{application_id}/emojis", 503)  # Discord's bad minute
    assert world.report().rate_limited == 0
    assert [e.name for e in world.app_emojis.values()] == [...]  # the application's emojis
    assert [m.content for m in world.messages(channel)] == [...]

Sharding: ``commands.AutoShardedBot(..., shard_count=2, shard_ids=[1])`` connects too, and
several such bots (processes) may be attached to one world; each gets a READY per shard it
holds with only that shard's servers, and every event goes where Discord sends it: a server's
to the shard ``(guild_id >> 22) % shard_count``, a DM's to shard 0.

    guild = world.add_guild("Txoko", shard=(1, 2))  # an id on shard 1 of 2
    await world.connect(zero)                       # shard_ids=[0]
    await world.connect(one)                        # shard_ids=[1]
    await world.dm(world.receiver(dm_channel), ana, "hola")  # zero; dm(one, ...) raises
    data = other_world.export_message(message_id)   # another process's world: a DM it posted
    world.import_message(data)                      # pressable here, with the same id

Two worlds standing for one Discord are built identically (same epoch, same calls), then
given different ``world.ids.process`` so the ids each issues afterwards never meet.

Not modelled: voice, member chunking, and endpoints no test has needed yet (a call to one
raises :class:`UnsupportedRoute`). discord.py's own real-time waits (``delete_after``, view
timeouts) still run on the event loop's clock, not the fake one.
"""

from .errors import FakeResponse, UnsupportedRoute, WireError
from .fake import FakeDiscord
from .gateway import FakeGatewaySocket, settle
from .recorder import Call, Report
from .routing import FileInfo
from .state import (
    Answer,
    Edit,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
)

__all__ = [
    "Answer",
    "Call",
    "Edit",
    "FakeChannel",
    "FakeDiscord",
    "FakeGatewaySocket",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeResponse",
    "FakeRole",
    "FakeUser",
    "FileInfo",
    "Report",
    "UnsupportedRoute",
    "WireError",
    "settle",
]
