"""``musbot bench discord``: whole matches through the real transport on a manual clock. The
figures are counts, the same for the same seed; what must hold whatever the transport does
(Discord's per-channel limits, every move counted once) is checked, not how low they are."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from musbot.bench.budget import run_matches
from musbot.bench.people import Hands, NotShown, Person, Tally
from musbot.cli import main
from musbot.engine import Rules
from musbot.testing.memory import POST, MemoryClient

SHORT = Rules(puntos=10, juegos=1)
"""A match of a few hands: the tests look at the counting, not at long matches."""


def test_bench_discord_prints_the_figures_and_one_json_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "discord", "--matches", "1", "--seed", "3", "--json",
                 "--idioma", "en"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("musbot bench discord — 1 match of 1 person and 3 bots")
    r = json.loads(out[-1])
    assert r["moves"] == r["person_moves"] + r["bot_moves"] > 0
    assert r["person_moves"] == r["pressed"] + r["typed"] > 0
    assert r["hands"] > 0 and r["refused"] == 0
    # Every call against the budget is one of the routes listed.
    assert sum(r["per_move"].values()) == pytest.approx(r["budget_per_move"], abs=1e-3)
    assert r["per_move"][POST] > r["dm_posts_per_move"] > 0
    # Discord's 5 per 5 s held in every channel: the governor's one promise.
    assert set(r["over_limit"].values()) == {0}
    assert 0 < max(r["worst_window"].values()) <= 5
    # One DM channel opened for the one person, kept for the whole match.
    assert r["dm_channels_opened"] == 1 and r["dms_per_hand"] >= 1
    assert 0 <= r["turn_shown_s_p50"] <= r["turn_shown_s_p99"] <= r["turn_shown_s_max"]
    assert any(re.match(r"  one channel: +worst 5 s:", line) for line in out)


async def test_the_same_seed_gives_the_same_figures() -> None:
    first = await run_matches(1, 1, 2.0, "mixed", seed=5, rules=SHORT)
    again = await run_matches(1, 1, 2.0, "mixed", seed=5, rules=SHORT)
    other = await run_matches(1, 1, 2.0, "mixed", seed=6, rules=SHORT)
    assert first == again
    assert other != first


@pytest.mark.parametrize("people", [2, 4])
async def test_more_people_fewer_bots(people: int) -> None:
    """At once when shown (no think time): a discard round's prompt is this round's, not an
    older one still in the DMs with its buttons (its discard was typed)."""
    r = await run_matches(3, people, 0.0, "mixed", seed=2, rules=SHORT)
    assert r["bots"] == 4 - people
    assert (r["bot_moves"] == 0) == (people == 4)
    assert r["dm_channels_opened"] == 3 * people  # each person of each match, once
    assert r["refused"] == r["unshown"] == 0
    assert set(r["over_limit"].values()) == {0}


async def test_typed_moves_press_no_buttons_and_pressed_ones_type_nothing() -> None:
    typed = await run_matches(1, 1, 1.0, "text", seed=4, rules=SHORT)
    assert typed["pressed"] == 0 and typed["typed"] == typed["person_moves"]
    assert typed["presses"] == 2  # sitting down and starting: buttons in any case
    pressed = await run_matches(1, 1, 1.0, "buttons", seed=4, rules=SHORT)
    assert pressed["typed"] == pressed["unshown"] == 0
    assert pressed["presses"] >= pressed["pressed"] + 2
    # A button's answer edits its message outside the global budget: fewer channel edits.
    assert pressed["interaction_answers_per_move"] > typed["interaction_answers_per_move"]


def test_think_must_be_within_the_turn(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "discord", "--think", "50"])
    assert exit_.value.code == 2
    assert "argumento --think: debe ser un número de segundos de 0 a 45, no «50»" in \
        capsys.readouterr().err


async def test_a_person_cannot_press_a_button_that_is_not_there() -> None:
    from musbot.ai import make_player

    client = MemoryClient()
    channel = client.channel(7)
    message = await channel.send("no buttons")
    hands = Hands(client, None, None, Tally())  # type: ignore[arg-type]
    person = Person(1, "Ana", make_player(), random.Random(1), "buttons",
                    client.dm_channel_of(1))
    with pytest.raises(NotShown):
        await hands.press(person, channel, message.id, "mus:a:7:mus")
    assert hands.tally.presses == 0


def test_a_run_does_not_leave_tasks_behind() -> None:
    async def run() -> int:
        await run_matches(1, 1, 1.0, "mixed", seed=1, rules=SHORT)
        return len([t for t in asyncio.all_tasks() if not t.done()])

    assert asyncio.run(run()) <= 1  # the run itself
