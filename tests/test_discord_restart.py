"""A restart as Discord lives it (the wire double): the bot goes down mid-hand while bots are
thinking, comes back on the same database, and each table resumes once the gateway has delivered
its channel, in the very messages that showed it; a table whose channel is gone is closed and
its people told by DM. What a clean stop stores, and what a message may show while a change is
being saved (nothing of it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from db_helpers import select_in
from discord_match import (
    Scene,
    assert_pages_show_stored_moves,
    hand_pages,
    make_scene,
    open_and_start,
    page_lines,
    play_to_the_end,
    seeded,
    stored_hands,
)

from musbot.ai import HeuristicBot
from musbot.bot import MusBot
from musbot.bot.storage import Sleepers
from musbot.i18n import TABLE
from musbot.storage import Database
from musbot.table.persist import TablePersister


async def restart(scene: Scene) -> MusBot:
    """The process stops (cleanly: Ctrl-C, a deploy) and a new one starts on the same file."""
    await scene.world.disconnect(scene.bot)
    bot = MusBot(scene.bot.config, clock=scene.clock, table_defaults=seeded("restart"))
    scene.bot = bot
    return bot


async def test_a_restart_while_bots_think_shows_every_move_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = make_scene(tmp_path, ["Ana"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    table = scene.table()
    # Play until a bot is thinking, in the middle of a hand that has already seen a few moves.
    while table.settled or table.state.page.events < 6:
        if table.state.awaits(scene.people[0].user):
            await scene.play_turn(scene.people[0])
        else:
            await scene.advance(0.3)
    hand = table.match.hand_number  # type: ignore[union-attr]
    before = {m.id for m in scene.table_messages()}
    saved_turn = table.state.turn
    woken: list[tuple[int, int]] = []
    wake = Sleepers.wake

    async def watching(self: Sleepers, restored: Any) -> bool:
        woken.append((restored.state.turn, len(self.client.guilds)))
        return await wake(self, restored)

    monkeypatch.setattr(Sleepers, "wake", watching)
    bot = await restart(scene)
    await scene.world.connect(bot)
    await scene.advance(2)
    # It waited for the gateway: nothing moved before the channel was known.
    assert woken and woken[0] == (saved_turn, 1)
    # The hand's message was edited where it was, with the notice: no second message for it.
    pages = hand_pages(scene.world, scene.channel)
    assert len(pages[hand]) == 1 and pages[hand][0].id in before
    assert any(line.startswith("♻️ Mesa restaurada") for line in page_lines(pages[hand][0]))
    await play_to_the_end(scene)
    final = scene.table()
    names = final.names()
    await scene.world.disconnect(scene.bot)
    # Every stored move shown once, in order, in its hand's message.
    stored = await stored_hands(tmp_path / "musbot.db")
    pages = hand_pages(scene.world, scene.channel)
    assert sorted(pages) == list(range(1, len(stored) + 1))
    assert_pages_show_stored_moves(pages, stored, names)
    report = scene.world.report()
    assert report.rate_limited == 0 and not report.refusals


@pytest.mark.parametrize("gone", ["channel", "server"])
async def test_a_table_whose_channel_is_gone_is_closed_and_its_people_told(
        tmp_path: Path, gone: str) -> None:
    scene = make_scene(tmp_path, ["Ana", "Bea"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    await scene.advance(3)
    old = scene.bot
    bot = await restart(scene)
    if gone == "channel":
        await scene.world.delete_channel(old, scene.channel)
    else:
        await scene.world.remove_guild(old, scene.guild)
    await scene.world.connect(bot)
    await scene.advance(2)
    assert bot.tables.get(scene.channel) is None and not bot.asleep
    closing = TABLE("closed_gone")
    for person in scene.people:
        assert any(closing in text for text in scene.dm_texts(person)), person.name
    await scene.world.disconnect(bot)
    rows = await select_in(str(tmp_path / "musbot.db"), "SELECT channel_id FROM live_tables")
    assert rows == [], "not restored for ever"
    matches = await select_in(str(tmp_path / "musbot.db"), "SELECT abandoned FROM matches")
    assert matches == [(1,)], "the match counts nowhere"


async def test_a_table_restored_where_the_bot_lost_its_channel_pauses_unasked(
        tmp_path: Path) -> None:
    """While the bot was down the server took Send Messages from it in the table's channel: the
    restored table pauses as soon as the server is delivered, before anything is asked of the
    channel, and its people are told; the permission back, it shows itself and plays on."""
    scene = make_scene(tmp_path, ["Ana", "Bea"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    await scene.advance(3)
    bot = await restart(scene)
    world = scene.world
    world.channels[scene.channel].overwrites[world.bot_user.id] = (
        0, discord.Permissions(send_messages=True).value)
    await world.connect(bot)
    await scene.advance(2)
    table = scene.table()
    assert table.hidden == "sin permiso en #mus: Enviar mensajes"
    assert world.invalid_requests() == []
    for person in scene.people:
        assert [t for t in scene.dm_texts(person) if t.startswith("⏸️")], person.name
    turn = table.state.turn
    await scene.advance(120)
    assert table.state.turn == turn, "nobody played, no clock ran"
    world.set_overwrite(scene.channel, world.bot_user.id)
    await scene.advance(2)
    assert table.hidden is None
    await play_to_the_end(scene)
    await world.disconnect(scene.bot)



async def test_a_clean_stop_stores_what_the_bots_learnt_of_the_people_seated(
        tmp_path: Path) -> None:
    """Mid-match, a seated person's reading is stored every few hands; the hands since the last
    store are stored as the bot stops, so the restarted table's bots read them as before."""
    scene = make_scene(tmp_path, ["Ana"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    ana = scene.people[0].user
    table = scene.table()
    memory = table.state.readings.memory
    while memory.reading(f"user:{ana}").words == 0:  # her first hand with a showdown
        if table.state.awaits(ana):
            await scene.play_turn(scene.people[0])
        else:
            await scene.advance(0.3)
    assert table.lifecycle == "playing"
    learnt = memory.reading(f"user:{ana}").to_json()
    db = scene.bot.db
    assert db is not None
    assert await db.player_readings(scene.guild, [ana]) == {}  # held while she plays on
    await restart(scene)
    again = await Database.open(str(tmp_path / "musbot.db"))
    try:
        assert (await again.player_readings(scene.guild, [ana]))[ana] == learnt
    finally:
        await again.close()


async def test_a_change_whose_save_is_under_way_is_not_in_what_a_message_would_show(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table message shows the snapshot the table published after its last save (issue 43):
    while a change is being saved (a PostgreSQL save yields to the loop), the snapshot is the
    one before it, without the change's lines; once published, it has them all."""
    scene = make_scene(tmp_path, ["Ana"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    table = scene.table()
    boards = scene.bot.transport.boards
    board = boards.boards[scene.channel]
    during: list[tuple[int, int]] = []
    save = TablePersister.save

    async def yielding(self: TablePersister, saving: Any, result: Any) -> Any:
        face = board.snapshot  # what an edit going now would show
        page = saving.state.page
        if face is not None and face.page is page:
            during.append((face.count, len(page.lines)))
        await asyncio.sleep(0)
        return await save(self, saving, result)

    monkeypatch.setattr(TablePersister, "save", yielding)
    while len(during) < 12 and table.lifecycle == "playing":
        if table.state.awaits(scene.people[0].user):
            await scene.play_turn(scene.people[0])
        else:
            await scene.advance(0.3)
    assert any(shown < lines for shown, lines in during)  # moves being saved, not shown…
    assert all(shown <= lines for shown, lines in during)
    face = board.snapshot  # …and once published, the snapshot has every line
    assert face is not None and face.count == len(table.state.page.lines)


async def test_a_post_of_the_live_page_during_a_save_shows_what_was_published(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The live page posted again (``/mus mesa``) while a move is being saved: the post shows
    the table as last published, never the move before it is saved; its publishing shows it."""
    scene = make_scene(tmp_path, ["Ana"])
    await scene.world.connect(scene.bot)
    await open_and_start(scene)
    table, ana = scene.table(), scene.people[0]
    while not table.state.awaits(ana.user):
        await scene.advance(0.3)
    await scene.advance(2)
    gate = asyncio.Event()
    save = TablePersister.save

    async def held(self: TablePersister, saving: Any, result: Any) -> Any:
        await gate.wait()  # a slow database
        return await save(self, saving, result)

    monkeypatch.setattr(TablePersister, "save", held)
    match = table.match
    seat = table.seat_of(ana.user)
    assert match is not None and seat is not None
    lines = len(table.state.page.lines)
    moving = asyncio.get_running_loop().create_task(
        table.act(ana.user, HeuristicBot().decide(match.view(seat), ana.rng)))
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(table.state.page.lines) > lines  # applied, not saved yet
    posts = len(scene.world.messages(scene.channel))
    scene.bot.transport.repost(scene.channel)
    await scene.world.settle()
    assert len(scene.world.messages(scene.channel)) == posts + 1  # posted at once…
    assert len(page_lines(scene.live_message())) <= lines + 1  # …as last published
    monkeypatch.setattr(TablePersister, "save", save)
    gate.set()
    await moving
    await scene.advance(20)  # the channel's next edit, once the bots have played
    shown = page_lines(scene.live_message())
    assert shown[lines] == table.state.page.lines[lines]  # …and the move once saved
