"""The real bot through Discord as it really answers (the wire double): whole matches on a fake
clock, checked against what reached the channel, the DMs and the interactions.

Targets of the Discord contract: no 429 ever; at most 5 messages and 5 edits in any 5 s of a
channel; the table message current for a whole match longer than an interaction token lives;
at most one call of the global budget per move in a match of one person and three bots; every
stored move shown once and in order; no card of anyone in public before its showdown.
"""

from __future__ import annotations

import re
from pathlib import Path

from discord_match import (
    SHOWDOWN,
    assert_pages_show_stored_moves,
    hand_event_lines,
    hand_pages,
    make_scene,
    open_and_start,
    play_to_the_end,
    public_texts,
    stored_hands,
)
from table_helpers import ANY_CARD

from musbot.bot import BOT_DELAY
from musbot.discordio.markup import plain
from musbot.i18n import DISCORD


async def test_one_person_and_three_bots_within_discords_budget(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ["Ana"])
    world, channel = scene.world, scene.channel
    async with world.connected(scene.bot):
        assert scene.bot.tables.bot_delay == BOT_DELAY
        await open_and_start(scene)
        moves = await play_to_the_end(scene)
        table = scene.table()
        assert table.match is not None
        total_moves = table.state.turn
        report = world.report()
        hands = table.match.hand_number
        names = table.names()

    # Discord's limits: never a 429, never more than 5 messages or 5 edits in 5 s anywhere.
    assert report.rate_limited == 0 and report.global_rate_limited == 0
    assert max(report.worst_creations.values()) <= 5
    assert max(report.worst_edits.values(), default=0) <= 5
    assert report.user_fetches == 0, "no GET /users/{id} before a DM"
    assert not report.refusals, report.refusals
    # The budget: at most one call of the global budget per move over the whole match.
    assert moves > 10 and total_moves > moves
    assert report.budget_calls <= total_moves, (report.budget_calls, total_moves)

    # Every hand's message shows its moves once, in order; the showdown is the first card.
    pages = hand_pages(world, channel)
    assert sorted(pages) == list(range(1, hands + 1))
    stored = await stored_hands(tmp_path / "musbot.db")
    assert len(stored) == hands
    assert_pages_show_stored_moves(pages, stored, names)
    # Nobody's cards in public before the showdown that shows them.
    texts = public_texts(world, channel)
    assert texts and all(not ANY_CARD.search(before_showdown(text)) for text in texts)


SHOWN_HANDS = re.compile(r"^(?:Pareja|Equipo) \d — .*$", re.MULTILINE)
"""A finished hand's summary line of the hands its showdown showed (``table/summary.py``)."""


def before_showdown(text: str) -> str:
    """What a public text says before any showdown: the log's lines up to «Se enseñan las
    cartas», without a finished hand's summary lines of the hands shown."""
    return SHOWN_HANDS.sub("", text.split(SHOWDOWN)[0])


async def test_ver_jugada_shows_a_finished_hands_whole_log_to_the_presser_alone(
        tmp_path: Path) -> None:
    """«Ver jugada» on the messages of the hands finished before the one in play (kept packed
    by the table, issue 43): every move of the hand as the engine words its stored transcript,
    answered privately; a hand the table keeps no more is said so in one sentence."""
    scene = make_scene(tmp_path, ["Ana"])
    world, channel = scene.world, scene.channel
    [ana] = scene.people
    async with world.connected(scene.bot):
        await open_and_start(scene)
        table = scene.table()
        for _ in range(4000):
            match = table.match
            assert match is not None
            if match.hand_number > 3 or table.lifecycle != "playing":
                break
            if table.state.awaits(ana.user):
                await scene.play_turn(ana)
            else:
                await scene.advance(0.5)
        assert table.match is not None and table.match.hand_number == 4
        await scene.advance(10)  # the finished hand's message edited to its final form
        names = table.names()
        pages = hand_pages(world, channel)
        stored = await stored_hands(tmp_path / "musbot.db")

        async def pressed_log(number: int) -> tuple[list[str], list[str]]:
            message = pages[number][-1]
            [log] = [c for c in message.custom_ids() if c.startswith("mus:h:log:")]
            pressed = await world.press(scene.bot, ana.user, message.id, log)
            await scene.settle()
            return pressed.ephemeral_texts(), pressed.public_texts()

        for number in (2, 3):  # the table's page before this one, and one of the board's
            answer, public = await pressed_log(number)
            shown = "\n".join(answer).split("\n")
            expected = [plain(line) for line in hand_event_lines(stored[number - 1][0], names)]
            rest = iter(shown)  # every move, in order, among the table's own notes
            assert all(line in rest for line in expected), (number, shown, expected)
            assert not public
        answer, public = await pressed_log(1)
        assert answer == [DISCORD("hand_gone")] and not public
