"""«¿Cómo jugué?» on Discord, through the real discord.py objects and the wire double: the button
under the table once a hand is over, and ``/mus repaso [mano]``, both answered privately."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from discord_match import Scene, hand_pages, make_scene
from table_helpers import cards_mentioned

from musbot.engine import parse_card


async def _connected(tmp_path: Path, people: tuple[str, ...]) -> Scene:
    scene = make_scene(tmp_path, people)
    await scene.world.connect(scene.bot)
    return scene


async def _answered(scene: Scene, inter: Any) -> list[str]:
    """The interaction's private answers once the review's worker thread is done (real time:
    the review is computed off the event loop)."""
    for _ in range(400):
        texts = inter.ephemeral_texts()
        if texts:
            return list(texts)
        await asyncio.sleep(0.025)
        await scene.settle()
    raise AssertionError("the review was never answered")


def _review(message: Any) -> list[str]:
    """A finished hand's «¿Cómo jugué?» button (``mus:h:repaso:<page>``), if it has one."""
    return [c for c in message.custom_ids() if c.startswith("mus:h:repaso:")]


async def test_the_review_button_and_command_answer_privately(tmp_path: Path) -> None:
    scene = await _connected(tmp_path, ("Ana", "Carlos"))
    ana, carlos = scene.people
    await scene.slash(ana, "mus mesa", senas=False)
    await scene.slash(ana, "mus unirse")
    await scene.slash(ana, "mus empezar")
    table = scene.table()
    assert not _review(scene.live_message()), "no hand is over yet: no «¿Cómo jugué?»"
    for _ in range(600):
        match = table.match
        assert match is not None
        if match.hand_number > 1 and _review(hand_pages(scene.world, scene.channel)[1][0]):
            break
        if table.state.awaits(ana.user):
            await scene.play_turn(ana)
        else:
            await scene.advance(0.5)
    seat = table.seat_of(ana.user)
    assert seat is not None
    first = table.state.handbook.finished[0]
    finished = hand_pages(scene.world, scene.channel)[1][0]  # the button is on the hand's own
    pressed = await scene.world.press(scene.bot, ana.user, finished.id, _review(finished)[0])
    await scene.settle()
    [text] = await _answered(scene, pressed)
    assert text.startswith("¿Cómo jugué en la mano 1?")
    # Nobody else's dealt cards are named in it (Ana's own are).
    mine = {parse_card(c) for c in first.transcript["hands"][seat]}
    theirs = {parse_card(c) for s, h in enumerate(first.transcript["hands"]) if s != seat
              for c in h}
    named = cards_mentioned(text)
    assert named & mine and not named & theirs
    # The command, for a hand it keeps and one it does not.
    asked = await scene.slash(ana, "mus repaso", mano=1)
    assert (await _answered(scene, asked))[0] == text
    gone = await scene.slash(ana, "mus repaso", mano=99)
    assert (await _answered(scene, gone))[0].startswith("No tengo la mano 99")
    # A private answer: in the reader's language (her client's, now French), not the table's.
    scene.world.set_locale(ana.user, "fr")
    again = await scene.world.press(scene.bot, ana.user, finished.id, _review(finished)[0])
    await scene.settle()
    [french] = await _answered(scene, again)
    assert french.startswith("Comment ai-je joué au coup 1 ?") and "dijiste" not in french
    gone = await scene.slash(ana, "mus repaso", mano=99)
    assert (await _answered(scene, gone))[0].startswith("Je n'ai pas le coup 99")
    # Someone not seated is answered privately too, and no review is computed for them.
    other = await scene.world.press(scene.bot, carlos.user, finished.id, _review(finished)[0])
    await scene.settle()
    [refusal] = await _answered(scene, other)
    assert "¿Cómo jugué" not in refusal
    # Nothing of it reached the channel.
    for message in scene.world.messages(scene.channel):
        assert message.ephemeral or not any("Cada decisión" in t for t in message.texts())


def test_a_long_review_is_sent_in_whole_lines_within_the_limit() -> None:
    from musbot.discordio.ui import _parts

    text = "\n".join(f"línea {n} " + "x" * 90 for n in range(60))
    parts = _parts(text)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text


async def test_a_review_in_flight_when_the_bot_stops_is_answered(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 42: SIGTERM while a review was being computed left its «thinking…» forever. The
    bot's stop answers it first, in its reader's language: ask again in a minute."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import musbot.coach.reviewer as repaso

    scene = await _connected(tmp_path, ("Ana",))
    [ana] = scene.people
    await scene.slash(ana, "mus mesa", senas=False)
    await scene.slash(ana, "mus unirse")
    await scene.slash(ana, "mus empezar")
    release = threading.Event()

    def endless(ask: Any) -> tuple[str, float]:
        release.wait(10)
        return "late", 0.0

    monkeypatch.setattr(repaso, "answered", endless)
    monkeypatch.setattr(repaso.REVIEWER, "_executor", ThreadPoolExecutor(1))
    asked = await scene.slash(ana, "mus repaso")
    for _ in range(100):  # the review is on the worker
        if repaso.REVIEWER._waiting:
            break
        await asyncio.sleep(0.01)
    assert repaso.REVIEWER._waiting, "in flight"
    await scene.bot.close()
    release.set()
    [text] = asked.ephemeral_texts()
    assert "reiniciando" in text and "pídelo otra vez" in text
