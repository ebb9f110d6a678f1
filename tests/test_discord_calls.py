"""A table that calls you (issue 44), on the wire double: four people type their words in the
channel, some quick, some away for a while. The live table message stays in view (never more
than five messages up), each person's turn is told within two seconds of the bot's clock, once
(by the table message naming them to a person watching; by a mention that notifies them alone,
or a DM if they chose it, to anyone else), and no call outlives its turn; the channel keeps to
Discord's limits throughout."""

from __future__ import annotations

import random
from pathlib import Path

from discord_match import Person, Scene, make_scene

from musbot.discordio.boards import REPOST_BELOW, WATCHING_SECONDS
from musbot.engine import ORDAGO

PEOPLE = ("Ana", "Beñat", "Carmen", "Dani")


def below_live(scene: Scene) -> int:
    """Messages in the channel under its live table message."""
    messages = scene.world.messages(scene.channel, deleted=False)
    live = scene.live_message()
    return sum(1 for m in messages if m.id > live.id)


def needless_reposts(scene: Scene) -> list[str]:
    """The table messages posted again at the bottom with fewer than :data:`REPOST_BELOW`
    messages under the one they replace, and no call to carry: a message that jumps for
    nothing (a new hand's message starts counting afresh)."""
    needless, live, under = [], None, 0
    for message in scene.world.messages(scene.channel):
        title = message.embeds[0].get("title", "") if message.embeds else ""
        if message.author == scene.world.bot_user.id and title.startswith("🃏 Mano"):
            hand = title.split("·")[0]
            if live is not None and live.deleted and live.embeds[0]["title"].split("·")[0] \
                    == hand and under < REPOST_BELOW and not message.pinged:
                needless.append(f"{title} after {under}")
            live, under = message, 0
        elif live is not None:
            under += 1
    return needless


async def play(scene: Scene, rng: random.Random, moves: int, heard: dict[int, float]
               ) -> dict[str, object]:
    """The people play ``moves`` moves, each thinking 1-4 s, or now and then 70 s (away: not
    watching); ``heard``: when each was last seen doing something at the table. Returns what
    was seen."""
    table = scene.table()
    world = scene.world
    told_late: list[tuple[str, float]] = []
    calls: list[tuple[int, int]] = []  # (turn, person) a mention went to
    worst_below = 0
    done = 0
    while done < moves and table.lifecycle == "playing":
        match = table.match
        assert match is not None
        seat = match.to_act
        person = next((p for p in scene.people if table.seat_of(p.user) == seat), None)
        if person is None or not table.state.awaits(person.user):
            await scene.advance(0.5)
            continue
        turn, began = table.state.turn, scene.clock.now()
        watching = began - heard.get(person.user, -1e9) < WATCHING_SECONDS
        await scene.advance(2.0)  # within two seconds, they know
        called = [m for m in world.messages(scene.channel) if m.pinged == {person.user}
                  and m.created_at >= began - 0.01]
        if called:
            calls.append((turn, person.user))
        elif not watching:
            told_late.append((person.name, began))
        else:
            title = scene.live_message().embeds[0]["title"]
            assert title.endswith(f"habla {person.name}"), title  # the table names them
        await scene.advance(70.0 if rng.random() < 0.2 else rng.choice([0.0, 1.0, 2.0]))
        if not table.state.awaits(person.user) or table.state.turn != turn:
            continue  # their clock ran out meanwhile
        await scene.play_turn(person)
        heard[person.user] = scene.clock.now()
        done += 1
        worst_below = max(worst_below, below_live(scene))
        content = scene.live_message().content
        assert f"<@{person.user}>" not in content, "a call goes with its turn"
    return {"told_late": told_late, "calls": calls, "worst_below": worst_below, "moves": done}


async def test_a_table_that_calls_you(tmp_path: Path) -> None:
    scene = make_scene(tmp_path, PEOPLE, seed="calls")
    world = scene.world
    async with world.connected(scene.bot):
        first = scene.people[0]
        await world.slash(scene.bot, world.owner.id, scene.channel, "musadmin config", tiempo=180)
        await scene.settle()  # a turn's clock longer than the pauses: nobody's bot plays
        await scene.slash(first, "mus mesa", puntos=40, juegos=1, vacas=1)
        await scene.advance(1)
        heard: dict[int, float] = {}
        for i, person in enumerate(scene.people):
            await scene.press(person, "join1" if i % 2 == 0 else "join2")
            heard[person.user] = scene.clock.now()
            await scene.advance(1)
        await scene.press(first, "start")
        heard[first.user] = scene.clock.now()
        seen = await play(scene, random.Random(3), 60, heard)
        report = world.report()
        assert needless_reposts(scene) == []
    assert seen["told_late"] == [], seen["told_late"]
    calls = seen["calls"]
    assert calls, "someone away was called"
    assert len(calls) == len(set(calls)), "at most one call a turn"
    assert seen["worst_below"] <= min(REPOST_BELOW, 5), "the table stays in view"
    assert report.rate_limited == 0
    assert max(report.worst_creations.values()) <= 5
    assert max(report.worst_edits.values(), default=0) <= 5
    print(f"\n{seen['moves']} typed moves, {report.budget_calls} budget calls "
          f"({report.budget_calls / max(int(seen['moves']), 1):.2f} a move), "
          f"{len(calls)} calls, worst {seen['worst_below']} messages under the table")


async def test_the_ordago_button_asks_again_and_a_typed_ordago_does_not(
        tmp_path: Path) -> None:
    scene = make_scene(tmp_path, ("Ana",), typing=False)
    ana: Person = scene.people[0]
    async with scene.world.connected(scene.bot):
        await scene.slash(ana, "mus mesa")
        await scene.slash(ana, "mus unirse")
        await scene.slash(ana, "mus empezar")
        table = scene.table()
        while True:
            live = await scene.shown_turn(ana)
            if any(c.endswith(":ordago") for c in live.custom_ids()):
                break
            await scene.play_turn(ana)
        turn = table.state.turn
        asked = await scene.press(ana, "ordago", live)
        [question] = [m for m in asked.messages() if m.ephemeral]
        assert "¿Órdago?" in question.text() and table.state.turn == turn, "nothing yet"
        no = next(c for c in question.custom_ids() if c.startswith("mus:oc:no:"))
        await scene.world.press(scene.bot, ana.user, question.id, no)
        await scene.settle()
        assert table.state.turn == turn and question.custom_ids() == [], "«No»: no órdago"
        # Asked again, and answered by typing another move: that «Sí» is no longer good.
        asked = await scene.press(ana, "ordago", await scene.shown_turn(ana))
        [stale] = [m for m in asked.messages() if m.ephemeral]
        await scene.play_turn(ana)
        yes = next(c for c in stale.custom_ids() if c.startswith("mus:oc:yes:"))
        late = await scene.world.press(scene.bot, ana.user, stale.id, yes)
        await scene.settle()
        assert "ya no vale" in stale.text() and late.response_type is not None
        # Asked, and confirmed: the órdago is said.
        while True:
            live = await scene.shown_turn(ana)
            if any(c.endswith(":ordago") for c in live.custom_ids()):
                break
            await scene.play_turn(ana)
        before = len(table.match.hand.actions) if table.match is not None else 0
        asked = await scene.press(ana, "ordago", live)
        [question] = [m for m in asked.messages() if m.ephemeral]
        yes = next(c for c in question.custom_ids() if c.startswith("mus:oc:yes:"))
        await scene.world.press(scene.bot, ana.user, question.id, yes)
        await scene.settle()
        assert question.text() == "¡Órdago!" and question.custom_ids() == []
        match = table.match
        assert match is not None
        said = [action for seat, action in match.hand.actions[before:]]
        assert ORDAGO in said or match.hand_number > 1 or match.finished
