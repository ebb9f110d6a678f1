"""Longer stretches of play as Discord answers them (the wire double): a match longer than an
interaction token lives, played on the buttons, with the table message current at every turn;
four quick people within the channel's limits; a person away and back; «Ver mis cartas» kept
current while its token lives; a person seated at two tables; names and logs that say nothing
they should not."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from discord_match import (
    Person,
    Scene,
    make_scene,
    open_and_start,
    page_lines,
    play_to_the_end,
    public_texts,
)
from table_helpers import ANY_CARD

from musbot.i18n import TABLE

EPHEMERAL = 64
UPDATE_MESSAGE = 7
TOKEN_EXPIRED = (401, 50027)


async def test_a_match_longer_than_a_token_lives_played_on_the_buttons(tmp_path: Path) -> None:
    """Fifteen seconds per decision: play goes on well past the 15 minutes a token lives (a real
    match lasts 20–45; a short deal's match is followed by the rematch), while the table
    message must show every turn as it comes."""
    scene = make_scene(tmp_path, ["Ana"], typing=False)
    ana = scene.people[0]
    checked = 0
    async with scene.world.connected(scene.bot):
        await open_and_start(scene)
        table = scene.table()
        while table.lifecycle == "playing" or scene.clock.now() < 16 * 60:
            if table.lifecycle == "finished":
                await scene.advance(5)
                await scene.press(ana, "rematch")
                continue
            if not table.state.awaits(ana.user):
                await scene.advance(0.5)
                continue
            live = await scene.shown_turn(ana)
            # Current at every turn: the part of the hand in play, and whose turn it is.
            page = table.state.page
            assert page_lines(live) == page.lines[page.section:]
            assert live.embeds[0]["title"].endswith(f" · habla {ana.name}")
            checked += 1
            await scene.advance(15)
            if table.state.awaits(ana.user):
                await scene.play_turn(ana)
        await scene.advance(10)
        report = scene.world.report()
        elapsed = scene.clock.now()
        moves = table.state.turn
    assert elapsed > 16 * 60 and checked > 50
    assert not scene.world.refusal(*TOKEN_EXPIRED), "nothing depends on a dead token"
    answers = [i for i in scene.world.interactions.values() if i.custom_id is not None]
    assert answers and all(i.response_type is not None for i in answers)
    assert all(i.responses[0].at - i.created_at <= 3.0 for i in answers)
    assert report.rate_limited == 0 and report.budget_calls <= moves


async def test_four_quick_people_stay_within_the_channels_limits(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ["Ana", "Bea", "Carlos", "Dani"])
    async with scene.world.connected(scene.bot):
        await open_and_start(scene)
        moves = await play_to_the_end(scene, step=0.2, limit=600.0)
        report = scene.world.report()
    assert moves > 20
    assert report.rate_limited == 0
    assert max(report.worst_creations.values()) <= 5
    assert max(report.worst_edits.values()) <= 5


async def test_a_person_away_gets_volver_and_comes_back(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ["Ana"])
    ana = scene.people[0]
    async with scene.world.connected(scene.bot):
        await open_and_start(scene)
        table = scene.table()
        for _ in range(3):  # three turns missed in a row
            while not table.state.awaits(ana.user):
                await scene.advance(0.5)
            await scene.advance(61)
        seat = table.seats[table.seat_of(ana.user)]  # type: ignore[index]
        assert seat is not None and seat.away
        away = TABLE("away", name="Ana")
        previous = table.state.pages.previous
        lines = [*table.state.page.lines, *(previous.lines if previous else [])]
        assert any(away in line for line in lines)
        await scene.advance(16)
        back = await scene.press(ana, "back")
        assert back.response_type == UPDATE_MESSAGE
        assert not seat.away
        reminders = [m for m in scene.world.messages(scene.channel)
                     if f"<@{ana.user}>" in m.content and "te quedan" in m.content]
        assert reminders, "each missed turn was reminded, by name"


async def test_ver_mis_cartas_is_kept_current_while_its_token_lives(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ["Ana", "Bea"])
    ana = scene.people[0]
    async with scene.world.connected(scene.bot):
        await open_and_start(scene)
        await scene.advance(2)
        shown = await scene.press(ana, "cards")
        [answer] = shown.responses
        assert answer.data["flags"] & EPHEMERAL
        original = shown.messages()[0]
        table = scene.table()
        await play_a_while(scene, 120)
        assert original.edits, "refreshed as the hand went on"
        assert original.content == table.private_text(ana.user) or table.lifecycle != "playing"
        edits = len(original.edits)
        await play_a_while(scene, 15 * 60)
        late = [e for e in original.edits[edits:] if e.at - shown.created_at > 14 * 60]
        assert late == [], "no edit tried with a dying token"
        assert not scene.world.refusal(*TOKEN_EXPIRED)


async def play_a_while(scene: Scene, seconds: float) -> None:
    table = scene.table()
    waited = 0.0
    while waited < seconds and table.lifecycle == "playing":
        person = next((p for p in scene.people if table.state.awaits(p.user)), None)
        if person is not None:
            await scene.play_turn(person)
        await scene.advance(1)
        waited += 1


async def test_a_dm_goes_to_the_table_that_waits_for_the_person(tmp_path: Path) -> None:
    """Ana still sits at a finished table in #mus when she sits down in #mus-2: her DMs go
    where she has something to do, and say which table when she sits at more than one."""
    scene = make_scene(tmp_path, ["Ana"])
    ana = scene.people[0]
    second = scene.world.add_text_channel(scene.guild, "mus-2")
    async with scene.world.connected(scene.bot):
        await scene.slash(ana, "mus mesa", puntos=5, juegos=1)
        await scene.slash(ana, "mus unirse")
        await scene.slash(ana, "mus empezar")
        await play_to_the_end(scene, limit=3600)
        first = scene.table()
        assert first.lifecycle == "finished"
        other = Scene(scene.world, scene.clock, scene.bot, scene.guild, second, [ana])
        await other.slash(ana, "mus mesa")
        await other.slash(ana, "mus unirse")
        await other.slash(ana, "mus empezar")
        table = other.table()
        for _ in range(2000):
            match = table.match
            assert match is not None
            if table.state.awaits(ana.user) and match.view(-1).phase == "descarte":
                break
            if table.state.awaits(ana.user):
                word = "mus" if match.view(-1).phase == "mus" else None
                if word:
                    await other.say(ana, word)
                else:
                    await other.play_turn(ana)
            else:
                await other.advance(0.5)
        else:
            pytest.skip("no discard round came")
        held = match.view(table.seat_of(ana.user)).cards  # type: ignore[arg-type]
        from musbot.engine.cards import card_code

        await scene.dm(ana, f"descarto {card_code(held[0])}")
        assert any(line.startswith("Ana se descarta de 1") for line in table.state.page.lines)
        await scene.advance(5)
        await scene.dm(ana, "cartas")
        await scene.advance(5)
        answer = scene.world.dms(ana.user)[-1].content
        assert "#mus-2" in answer and "Txoko" in answer, "it says which table"


async def test_names_ping_nobody_and_logs_hold_no_card(tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    scene = make_scene(tmp_path, ["@everyone"])
    scene.people[0] = Person(scene.people[0].user, "@everyone")
    with caplog.at_level(logging.DEBUG):
        async with scene.world.connected(scene.bot):
            await open_and_start(scene)
            await play_a_while(scene, 300)
    for call in scene.world.calls:
        mentions = (call.json or {}).get("allowed_mentions") if isinstance(call.json, dict) \
            else None
        if call.channel_id == scene.channel and mentions is not None:
            assert "everyone" not in mentions.get("parse", []), call.route
            assert "roles" not in mentions.get("parse", []), call.route
    assert public_texts(scene.world, scene.channel)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert not ANY_CARD.search(logged), "no card in any log line"
