"""The pictures a match shows (issue 43), on the wire double with the real bot: each deal's DM
carries the hand as one PNG, and each finished hand that came to the showdown carries the table
seen from above, attached to its own message (valid, at most 150 KB, named in its embed), while a
hand settled without showing a card has none. When more pictures wait to be drawn than a busy
bot should queue, messages go without theirs, whole otherwise, and nothing points at a missing
file."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from discord_match import Scene, make_scene, open_and_start, play_to_the_end

from musbot.discordio import drawing

MAX_PNG = 150_000
PNG = b"\x89PNG\r\n\x1a\n"


async def played(tmp_path: Path) -> Scene:
    """Four people play a short match to its end (each seat discards and bets by the rules'
    random choice, as ``tools/look_match.py`` records it)."""
    scene = make_scene(tmp_path, ("Ana", "Beñat", "Carmen", "Dani"), seed=11)
    world = scene.world
    await world.connect(scene.bot)
    await scene.settle()
    await open_and_start(scene, puntos=30, juegos=1, vacas=1)
    await play_to_the_end(scene)
    return scene


def finished_hands(scene: Scene) -> dict[int, tuple[dict[str, object], list[dict[str, object]]]]:
    """Each finished hand's message, by number: its embed and its attachments."""
    hands = {}
    for message in scene.world.messages(scene.channel, deleted=False):
        if message.author != scene.world.bot_user.id or not message.embeds:
            continue
        title = str(message.embeds[0].get("title", ""))
        number = re.match(r"🃏 Mano (\d+)$", title)
        if number:
            hands[int(number.group(1))] = (message.embeds[0], message.attachments)
    return hands


async def test_each_deal_and_each_showdown_is_a_picture(tmp_path: Path) -> None:
    scene = await played(tmp_path)
    world = scene.world
    try:
        hands = finished_hands(scene)
        uploads = {f.filename: f for c in world.calls if c.channel_id == scene.channel
                   for f in c.files}
        dealt = [f for person in scene.people for c in world.calls
                 if c.channel_id == world.user(person.user).dm_channel for f in c.files]
    finally:
        await world.disconnect(scene.bot)
    assert len(hands) >= 2
    pictured = 0
    for number, (embed, attachments) in hands.items():
        image = (embed.get("image") or {}).get("url")  # type: ignore[union-attr]
        if image is None:
            assert attachments == [], "no picture, no file"
            continue
        pictured += 1
        name = f"mano-{number}.png"
        assert image == f"attachment://{name}"
        assert [a["filename"] for a in attachments] == [name]
        upload = uploads[name]
        assert upload.head.startswith(PNG) and upload.size <= MAX_PNG
        width, height = struct.unpack(">II", upload.head[16:24])
        assert 300 <= width <= 1200 and 200 <= height <= 1200, (width, height)
        assert upload.description, "the picture says what it shows"
    assert pictured >= 1, "some hand came to the showdown"
    assert len(dealt) >= 4 * len(hands), "every deal's DM carries the hand"
    assert all(f.filename == "mano.png" and f.head.startswith(PNG) and f.size < 60_000
               for f in dealt)


async def test_a_bot_drawing_too_many_pictures_sends_its_messages_without_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawing, "PICTURES_IN_FLIGHT", 0)  # every picture waits too long
    scene = await played(tmp_path)
    world = scene.world
    try:
        hands = finished_hands(scene)
        skipped = scene.bot.transport.painter.skipped  # type: ignore[attr-defined]
        files = [f for c in world.calls for f in c.files]
        dms = [m for person in scene.people for m in world.dms(person.user)]
    finally:
        await world.disconnect(scene.bot)
    assert files == [] and skipped >= 4 * len(hands)
    assert all("image" not in embed and attachments == [] for embed, attachments in
               hands.values()), "no embed points at a file that was not sent"
    assert all(embed.get("description") for embed, _ in hands.values())
    assert any("Tus cartas:" in m.content for m in dms), "the hand's DM says the cards"


async def test_a_showdown_given_up_while_its_drawing_waits_is_shown_without_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The hand's message may ask for its picture while the drawing started at the hand's end
    waits its turn: when the one finds too many under way and gives the picture up, the other
    finds none to draw, and the finished hand is shown all the same, without it."""
    scene = await played(tmp_path)
    boards = scene.bot.transport.boards  # type: ignore[attr-defined]
    board = boards.boards[scene.channel]
    shown = next(s for s in board.recent.values() if s.page.pictured)
    shown.page.picture = shown.page.picture or object()  # a showdown to draw again
    shown.pictured, shown.png = False, None
    try:
        with caplog.at_level("WARNING", logger="musbot"):
            boards._draw_first(board, shown)  # the hand's end asks for its picture...
            shown.page.picture = None  # ...which its message's own request gave up meanwhile
            await scene.settle()
    finally:
        await scene.world.disconnect(scene.bot)
    assert not shown.drawing
    failed = [r.getMessage() for r in caplog.records if "bookkeeping" in r.getMessage()]
    assert failed == []
