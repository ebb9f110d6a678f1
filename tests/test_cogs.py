"""The cogs, called as discord.py calls them: command callbacks with a mocked Context, the
message listener with mocked messages."""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
from discord.ext import commands
from discord_fakes import Env, FakeChannel, FakeUser, make_env

from cogs.chat import HINT_SECONDS, Chat, looks_like_move
from cogs.mesa import Mesa
from musbot.discordio import ui
from musbot.engine.senas import senas_posibles
from musbot.table import Table


def make_ctx(env: Env, user: FakeUser, *, slash: bool = True,
             channel: FakeChannel | None = None) -> MagicMock:
    ctx = MagicMock(spec=commands.Context)
    ctx.author = user
    ctx.channel = channel or env.channel
    ctx.guild = ctx.channel.guild
    ctx.interaction = MagicMock(spec=discord.Interaction) if slash else None

    async def send(content: str | None = None, **kwargs: Any) -> Any:
        return await ctx.channel.send(content, **kwargs)

    ctx.send = AsyncMock(side_effect=send)
    ctx.defer = AsyncMock()
    ctx.message = MagicMock(spec=discord.Message)
    ctx.message.add_reaction = AsyncMock()
    return ctx


def make_message(user: FakeUser, content: str, channel: FakeChannel) -> MagicMock:
    message = MagicMock(spec=discord.Message)
    message.author = user
    message.content = content
    message.channel = channel
    message.guild = channel.guild

    async def reply(text: str | None = None, **kwargs: Any) -> Any:
        return await channel.send(text, **kwargs)

    message.reply = AsyncMock(side_effect=reply)
    return message


def last_send(ctx: MagicMock) -> tuple[str, dict[str, Any]]:
    call = ctx.send.await_args
    return (call.args[0] if call.args else call.kwargs.get("content")), call.kwargs


async def open_with(env: Env, cog: Mesa, opener: FakeUser) -> Table:
    await Mesa.mesa.callback(cog, make_ctx(env, opener))  # type: ignore[arg-type]
    table = env.tables.get(env.channel.id)
    assert table is not None
    return table


async def seat_four(env: Env, cog: Mesa) -> Table:
    table = await open_with(env, cog, env.bot.user(1))
    for user_id in (1, 2, 3, 4):
        await Mesa.unirse.callback(cog, make_ctx(env, env.bot.user(user_id)))  # type: ignore[arg-type]
    return table


# --- cogs/mesa.py ---------------------------------------------------------------------------------


async def test_mesa_opens_a_table_with_its_message_and_buttons() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    table = await open_with(env, cog, env.bot.user(1))
    [sent] = env.channel.sent
    assert sent.embed is not None and sent.embed.description == table.status()
    assert [i.verb for i in sent.view.children] == ["join1", "join2", "bot", "start"]  # type: ignore[union-attr]
    board = env.transport.boards[env.channel.id]
    assert board.message is env.channel.messages[0] and table.opener_id == 1
    # Asked again, the same table's message is posted anew and edited from then on.
    ctx = make_ctx(env, env.bot.user(2))
    await Mesa.mesa.callback(cog, ctx)  # type: ignore[arg-type]
    assert env.tables.get(env.channel.id) is table and len(env.channel.sent) == 2
    assert board.message is env.channel.messages[1] and table.opener_id == 1


async def test_mesa_variants_reach_the_table() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    ctx = make_ctx(env, env.bot.user(1))
    await Mesa.mesa.callback(cog, ctx, puntos=30, reyes=4, senas=False)  # type: ignore[arg-type]
    table = env.tables.get(env.channel.id)
    assert table is not None
    assert (table.rules.puntos, table.rules.reyes, table.rules.senas) == (30, 4, False)
    reglas = make_ctx(env, env.bot.user(1))
    await Mesa.reglas.callback(cog, reglas)  # type: ignore[arg-type]
    text, kwargs = last_send(reglas)
    assert "4 reyes" in text and "sin señas" in text and kwargs["ephemeral"] is True


async def test_unirse_bot_empezar_and_their_refusals() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    table = await open_with(env, cog, env.bot.user(1))
    ctx = make_ctx(env, env.bot.user(1))
    await Mesa.unirse.callback(cog, ctx, pareja=2)  # type: ignore[arg-type]
    assert table.seat_of(1) == 1
    ctx.defer.assert_awaited_once_with(ephemeral=True)
    assert last_send(ctx) == ("Hecho.", {"ephemeral": True})
    again = make_ctx(env, env.bot.user(1))
    await Mesa.unirse.callback(cog, again)  # type: ignore[arg-type]
    assert last_send(again)[0].startswith("Ya estás sentado")  # wording: see report
    await Mesa.add_bot.callback(cog, make_ctx(env, env.bot.user(1)), pareja=1)  # type: ignore[arg-type]
    assert table.seats[0] is not None and not table.seats[0].human
    typed = make_ctx(env, env.bot.user(1), slash=False)
    await Mesa.empezar.callback(cog, typed)  # type: ignore[arg-type]
    assert table.state == "playing"
    typed.message.add_reaction.assert_awaited_once_with("✅")
    late = make_ctx(env, env.bot.user(1), slash=False)
    await Mesa.empezar.callback(cog, late)  # type: ignore[arg-type]
    text, kwargs = last_send(late)
    assert text == "La partida ya ha empezado." and kwargs["delete_after"] > 0


async def test_commands_without_a_table_say_so() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    for command in (Mesa.unirse, Mesa.empezar, Mesa.salir, Mesa.cerrar):
        ctx = make_ctx(env, env.bot.user(1))
        await command.callback(cog, ctx)  # type: ignore[arg-type]
        assert last_send(ctx) == ("No hay ninguna mesa en este canal.", {"ephemeral": True})


async def test_cerrar_refused_to_others_without_manage_channels() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    await open_with(env, cog, env.bot.user(1))
    ctx = make_ctx(env, env.bot.user(2))
    await Mesa.cerrar.callback(cog, ctx)  # type: ignore[arg-type]
    assert last_send(ctx)[0] == \
        "Solo quien abrió la mesa o quien gestiona el canal puede cerrarla."
    assert env.tables.get(env.channel.id) is not None
    env.channel.manage_channels = True  # a moderator may
    await Mesa.cerrar.callback(cog, make_ctx(env, env.bot.user(2)))  # type: ignore[arg-type]
    assert env.tables.get(env.channel.id) is None


async def test_cerrar_by_the_opener() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    await open_with(env, cog, env.bot.user(1))
    await Mesa.cerrar.callback(cog, make_ctx(env, env.bot.user(1)))  # type: ignore[arg-type]
    assert env.tables.get(env.channel.id) is None
    assert "Se cierra la mesa." in env.channel.contents()


async def test_salir_mid_match_hands_the_seat_to_a_bot() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    table = await seat_four(env, cog)
    await table.start(1)
    await Mesa.salir.callback(cog, make_ctx(env, env.bot.user(3)))  # type: ignore[arg-type]
    assert table.seat_of(3) is None and table.seats[2] is not None
    assert table.seats[2].bot is not None


async def test_ayuda_is_ephemeral() -> None:
    env = make_env()
    cog = Mesa(env.bot)  # type: ignore[arg-type]
    ctx = make_ctx(env, env.bot.user(1))
    await Mesa.ayuda.callback(cog, ctx)  # type: ignore[arg-type]
    text, kwargs = last_send(ctx)
    assert "/mus mesa" in text and kwargs["ephemeral"] is True


async def test_setup_adds_the_cogs() -> None:
    import cogs.chat
    import cogs.mesa

    bot = MagicMock()
    bot.add_cog = AsyncMock()
    await cogs.mesa.setup(bot)
    await cogs.chat.setup(bot)
    # By name: load_extension in test_bot may have imported fresh copies of these modules.
    assert [type(c.args[0]).__name__ for c in bot.add_cog.await_args_list] == ["Mesa", "Chat"]


# --- cogs/chat.py ---------------------------------------------------------------------------------


async def chat_table(env: Env) -> tuple[Chat, Table]:
    table = await seat_four(env, Mesa(env.bot))  # type: ignore[arg-type]
    await table.start(1)
    return Chat(env.bot, clock=env.clock), table  # type: ignore[arg-type]


async def test_a_seated_players_move_is_applied_and_chat_is_left_alone() -> None:
    env = make_env()
    chat, table = await chat_table(env)
    assert table.match is not None and table.match.to_act == 0
    before = len(env.channel.sent)
    await chat.on_message(make_message(env.bot.user(1), "¡hola a todos!", env.channel))
    assert len(env.channel.sent) == before and table.match.to_act == 0
    await chat.on_message(make_message(env.bot.user(1), "Mus", env.channel))
    assert table.match.to_act == 1


async def test_out_of_turn_move_gets_a_reply_that_deletes_itself() -> None:
    env = make_env()
    chat, table = await chat_table(env)
    message = make_message(env.bot.user(3), "no hay mus", env.channel)
    await chat.on_message(message)
    call = message.reply.await_args
    assert call is not None and "turno" in call.args[0]
    assert call.kwargs["delete_after"] == chat.reply_seconds
    assert table.match is not None and table.match.to_act == 0


async def test_non_seated_hint_at_most_once_a_minute() -> None:
    env = make_env()
    chat, _ = await chat_table(env)
    stranger = env.bot.user(99)
    hint = "<@99>, no estás sentado en esta mesa: «/mus unirse» para jugar."

    async def say(text: str) -> int:
        await chat.on_message(make_message(stranger, text, env.channel))
        return env.channel.contents().count(hint)

    assert await say("envido") == 1
    assert await say("órdago") == 1
    assert await say("qué partida más buena") == 1
    await env.clock.advance(HINT_SECONDS - 1)
    assert await say("quiero") == 1
    await env.clock.advance(2)
    assert await say("3 más") == 2
    assert env.channel.sent[-1].kwargs["delete_after"] > 0


async def test_commands_and_bots_are_not_moves() -> None:
    env = make_env()
    chat, table = await chat_table(env)
    env.bot.command_context.valid = True
    await chat.on_message(make_message(env.bot.user(1), "mus", env.channel))
    env.bot.command_context.valid = False
    await chat.on_message(make_message(FakeUser(1, bot=True), "mus", env.channel))
    assert table.match is not None and table.match.to_act == 0


def test_looks_like_move() -> None:
    assert looks_like_move("envido 5") and looks_like_move("envido 1")  # broken counts
    assert not looks_like_move("buenas tardes")


async def test_dm_cartas_sena_descarto_vuelvo() -> None:
    env = make_env()
    chat, table = await chat_table(env)
    assert table.match is not None
    dm = env.bot.user(1).dm
    await chat.on_message(make_message(env.bot.user(1), "cartas", dm))
    assert dm.sent[-1].content == table.private_text(1)
    assert dm.sent[-1].view is None  # no discard controls outside the discard phase
    # A seña the hand shows goes to the partner; one it does not show is refused.
    for user_id in (1, 2, 3, 4):
        shown = senas_posibles(table.match.view(user_id - 1).cards, table.rules)
        if shown:
            break
    assert shown
    user = env.bot.user(user_id)
    await chat.on_message(make_message(user, f"Seña {shown[0].nombre}", user.dm))
    assert user.dm.sent[-1].content == f"Seña enviada: {shown[0].nombre}."
    await chat.on_message(make_message(user, f"seña {shown[0].nombre}", user.dm))
    assert user.dm.sent[-1].content == "Ya has hecho esa seña con estas cartas."
    await chat.on_message(make_message(env.bot.user(1), "vuelvo", dm))
    assert dm.sent[-1].content == "No estabas ausente: sigues jugando."
    await chat.on_message(make_message(env.bot.user(1), "qué tal", dm))
    assert "descarto 1 3" in (dm.sent[-1].content or "")
    for user_id in (1, 2, 3, 4):
        await chat.on_message(make_message(env.bot.user(user_id), "mus", env.channel))
    await chat.on_message(make_message(env.bot.user(1), "cartas", dm))
    assert isinstance(dm.sent[-1].view.children[0], ui.DiscardToggle)  # type: ignore[union-attr]
    await chat.on_message(make_message(env.bot.user(1), "descarto 1 4", dm))
    assert table.match.to_act == 1
    await chat.on_message(make_message(env.bot.user(1), "descarto 1", dm))
    assert "turno" in (dm.sent[-1].content or "")  # the refusal comes back by DM
    assert not env.channel.sent[-1].content or "turno" not in env.channel.sent[-1].content


async def test_dm_without_a_table() -> None:
    env = make_env()
    chat = Chat(env.bot, clock=env.clock)  # type: ignore[arg-type]
    user = env.bot.user(5)
    await chat.on_message(make_message(user, "cartas", user.dm))
    assert user.dm.sent[-1].content == "No estás sentado en ninguna mesa."


async def test_mesa_uses_the_server_settings_and_allowed_channels(tmp_path: Any) -> None:
    from musbot.engine import Rules
    from musbot.storage import Database, ServerSettings

    env = make_env()
    db = await Database.open(tmp_path / "musbot.db")
    env.bot.db = db  # type: ignore[attr-defined]
    try:
        guild_id = env.channel.guild.id  # type: ignore[union-attr]
        await db.save_server_settings(guild_id, ServerSettings(
            rules=Rules(puntos=30, senas=False), turn_timer=0, language="en",
            allowed_channels=frozenset({777})))
        cog = Mesa(env.bot)  # type: ignore[arg-type]
        ctx = make_ctx(env, env.bot.user(1))
        await Mesa.mesa.callback(cog, ctx)  # type: ignore[arg-type]
        assert env.tables.get(env.channel.id) is None
        assert "<#777>" in last_send(ctx)[0]
        await db.save_server_settings(guild_id, ServerSettings(
            rules=Rules(puntos=30, senas=False), turn_timer=0, language="en"))
        await Mesa.mesa.callback(cog, make_ctx(env, env.bot.user(1)), reyes=4)  # type: ignore[arg-type]
        table = env.tables.get(env.channel.id)
        assert table is not None
        assert (table.rules.puntos, table.rules.senas, table.rules.reyes) == (30, False, 4)
        assert table.lang == "en" and table.turn_seconds is None
        assert table.guild_id == guild_id
    finally:
        await db.close()
