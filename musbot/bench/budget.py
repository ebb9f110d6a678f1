"""``musbot bench discord``: the Discord calls whole matches cost, people and bots at the real
pace.

Each match is one table in its own channel of one bot process: ``--people`` people (1, 2 or 4)
and bots in the other seats, the bots thinking :data:`musbot.bot.BOT_DELAY` seconds as at a
Discord table. Everything runs through the real :class:`~musbot.table.Table` layer, the real
:class:`~musbot.discordio.DiscordTransport` and its :class:`~musbot.discordio.governor.Governor`
(Discord's limits as the bot sets them), on a :class:`~musbot.table.ManualClock`: nothing
really waits, so an hour of play takes seconds. The channels, DMs and interactions are the
in-memory stand-ins of :mod:`musbot.testing.memory`, which count every call by route and in
5-second windows per channel.

A person sees their turn when the table message shows the table as it is (and, to discard,
when the DM with their cards and pick buttons has come), then thinks ``--think`` seconds and
makes the move the «normal» bot would make from their seat's view: with the buttons they are
shown or typed (``--input``; see :mod:`musbot.bench.people`). The driver looks every
:data:`STEP` seconds of the clock. The tables are saved by a hook that only counts (the calls
to Discord do not depend on the storage): every action of every finished hand is a move.

What it prints, per move of the match (every seat's): the calls against the bot's global
budget, by route; the interactions' answers, outside it; the worst 5 s in one channel for new
messages and for edits (Discord takes 5 of each) and how many calls went over; DMs per hand;
how long after a person's turn began the table message showed it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from musbot.console import whole
from musbot.engine import Rules
from musbot.i18n import BENCH, CLI
from musbot.settings import TableSettings
from musbot.table.result import Saved

from .measure import percentile
from .text import figure, rows

if TYPE_CHECKING:  # discord.py and the table layer: imported when a run starts, not by the CLI
    from musbot.testing.memory import MemoryClient

    from .people import Hands, Input, Person, Tally

GUILD_ID = 1
CHANNEL_BASE = 10**15
USER_BASE = 2 * 10**15
STEP = 0.1
"""Clock seconds between two looks of the driver at the table: a person's turn is seen, and
their move made, within this of when it could be."""
GIVE_UP = 30.0
"""A turn the table message has not shown after this long is played anyway (typed), and
counted: a person would have had to guess it."""
LAST_EDITS = 15.0
"""Clock seconds after a match for its last edits to go out."""
MAX_THINK = 45.0
"""The reminder comes 15 s before the end of a 60-second turn: the people here answer in time."""


@dataclass
class Records:
    """The tables' save hook, counting instead of saving: finished hands and their actions."""

    hands: int = 0
    moves: int = 0

    async def save(self, table: Any, result: Any) -> Saved:
        records = table.state.records
        for record in records.outbox:
            if record["kind"] == "hand":
                self.hands += 1
                self.moves += len(record["transcript"]["actions"])
        records.outbox = []
        return Saved()


@dataclass
class Run:
    """One bot process: every match of the run, one after the other, on one clock."""

    clock: Any
    client: MemoryClient
    transport: Any
    manager: Any
    hands: Hands
    records: Records
    tally: Tally
    shown_after: list[float] = field(default_factory=list)
    unshown: int = 0
    person_moves: int = 0
    play_seconds: float = 0.0

    @classmethod
    def make(cls) -> Run:
        from musbot.bot import BOT_DELAY
        from musbot.discordio import DiscordTransport
        from musbot.discordio.drawing import draw_inline
        from musbot.table import ManualClock, TableManager
        from musbot.testing.memory import MemoryClient

        from .people import Hands, Tally

        clock = ManualClock()
        client = MemoryClient(clock.now)
        transport = DiscordTransport(client, clock=clock,  # type: ignore[arg-type]
                                     draw=draw_inline)  # the same figures every run
        records = Records()
        manager = TableManager(transport, clock=clock, bot_delay=BOT_DELAY, persist=records)
        tally = Tally()
        return cls(clock, client, transport, manager, Hands(client, transport, manager, tally),
                   records, tally)

    async def until(self, ready: Callable[[], bool], limit: float) -> bool:
        """Lets the clock run until ``ready()`` or ``limit`` seconds have passed."""
        waited = 0.0
        while not ready():
            if waited >= limit:
                return False
            await self.clock.advance(STEP)
            waited += STEP
        return True


async def play_match(run: Run, index: int, people: int, think: float, input_: Input,
                     seed: int, rules: Rules) -> None:
    """One match from «/mus mesa» to its end, in its own channel with its own people."""
    from musbot.ai import DEFAULT_LEVEL, make_player
    from musbot.engine.cards import seeded_shuffler

    from .people import Person

    channel_id = CHANNEL_BASE + index
    persons = []
    for i in range(people):
        user = USER_BASE + 10 * index + i
        persons.append(Person(user, f"Persona {i + 1}", make_player(DEFAULT_LEVEL),
                              random.Random(f"{seed}/{index}/{i}"), input_,
                              run.client.dm_channel_of(user)))
    table = run.manager.open(channel_id, TableSettings(rules=rules), guild_id=GUILD_ID,
                             opener_id=persons[0].user,
                             rng=random.Random(f"{seed}/{index}/bots"),
                             shuffler=seeded_shuffler(f"{seed}/{index}/deck"))
    run.transport.bind(channel_id, run.client.channel(channel_id))
    table.show()  # «/mus mesa»: its own answer is the interaction's, outside the budget
    await sit_and_start(run, table, persons, think)
    began = run.clock.now()
    await play_turns(run, table, persons, think)
    run.play_seconds += run.clock.now() - began
    await run.clock.advance(LAST_EDITS)
    table.suspend()


async def sit_and_start(run: Run, table: Any, persons: list[Person], think: float) -> None:
    """Each person presses «Sentarme» on the lobby message, the pairs alternating, and the
    first one «Empezar»; the empty seats get bots."""
    for i, person in enumerate([*persons, persons[0]]):
        verb = "start" if i == len(persons) else f"join{Rules.team(i) + 1}"
        custom_id = f"mus:t:{verb}"

        def shown(wanted: str = custom_id) -> bool:
            return custom_id_shown(run, table, wanted)

        await run.until(shown, GIVE_UP)
        await run.clock.advance(think)
        await run.hands.press_table(person, table, verb, prefix="t")
    for person in persons:
        person.seat = table.seat_of(person.user)


async def play_turns(run: Run, table: Any, persons: list[Person], think: float) -> None:
    """Until the match is over: the clock runs while bots play; a person's turn is noted when
    it begins and when the table shows it, and played ``think`` seconds after that."""
    by_seat = {person.seat: person for person in persons}
    turn = -1
    began = shown_at = 0.0
    while table.lifecycle == "playing":
        match = table.match
        person = by_seat.get(match.to_act) if match is not None else None
        if person is None or not table.state.awaits(person.user):
            await run.clock.advance(STEP)
            continue
        now = run.clock.now()
        if table.state.turn != turn:
            turn, began, shown_at = table.state.turn, now, -1.0
        if shown_at < 0:
            if run.hands.shown(person, table):
                shown_at = now
                run.shown_after.append(now - began)
            elif now - began >= GIVE_UP:
                shown_at = now
                run.unshown += 1
        if shown_at < 0 or now < shown_at + think:
            await run.clock.advance(min(STEP, max(shown_at + think - now, 0.0)) or STEP)
            continue
        await make_move(run, person, table)


async def make_move(run: Run, person: Person, table: Any) -> None:
    """The person's move, as their ``input`` says; a button that is not there (the page not
    shown in time) is typed instead."""
    from .people import NotShown

    match = table.match
    seat = person.seat
    assert match is not None and seat is not None
    action = person.player.decide(match.view(seat), person.rng)
    by_button = person.input == "buttons" or \
        (person.input == "mixed" and person.rng.random() < 0.5)
    before = table.state.turn
    try:
        await run.hands.move(person, table, action, by_button)
    except NotShown:
        run.unshown += 1
        await run.hands.move(person, table, action, False)
    if table.state.turn == before:
        raise RuntimeError(f"the table refused {action.text()!r}, a legal move, at "
                           f"{table.channel_id}")
    run.person_moves += 1


def custom_id_shown(run: Run, table: Any, custom_id: str) -> bool:
    message_id = run.hands.live_message(table)
    channel = run.client.channel(table.channel_id)
    return message_id is not None and custom_id in channel.buttons.get(message_id, ())


async def run_matches(matches: int, people: int, think: float, input_: Input, seed: int,
                      rules: Rules | None = None) -> dict[str, Any]:
    """Every figure of ``matches`` matches (see the module's docstring)."""
    run = Run.make()
    rules = rules or Rules()
    for index in range(matches):
        await play_match(run, index, people, think, input_, seed, rules)
    await run.transport.flush()
    return figures(run, matches, people, think, input_, seed, rules)


def figures(run: Run, matches: int, people: int, think: float, input_: Input, seed: int,
            rules: Rules) -> dict[str, Any]:
    from musbot.bot import BOT_DELAY
    from musbot.testing.memory import EDIT, OPEN_DM, OUTSIDE_BUDGET, POST

    stats = run.client.stats
    moves = max(run.records.moves, 1)
    hands = max(run.records.hands, 1)
    shown = sorted(run.shown_after)
    answers = sum(n for route, n in stats.calls.items() if route in OUTSIDE_BUDGET)
    return {
        "matches": matches, "people": people, "bots": rules.jugadores - people,
        "think_s": think, "bot_delay_s": BOT_DELAY, "input": input_, "seed": seed,
        "moves": run.records.moves, "person_moves": run.person_moves,
        "bot_moves": run.records.moves - run.person_moves, "hands": run.records.hands,
        "minutes_per_match": round(run.play_seconds / 60 / max(matches, 1), 1),
        "pressed": run.tally.pressed, "typed": run.tally.typed, "presses": run.tally.presses,
        "refused": run.tally.refused, "unshown": run.unshown,
        "budget_calls": stats.budget_calls,
        "budget_per_move": round(stats.budget_calls / moves, 4),
        "per_move": {route: round(n / moves, 4) for route, n in sorted(stats.calls.items())
                     if route not in OUTSIDE_BUDGET},
        "dm_posts_per_move": round(stats.dm_posts / moves, 4),
        "interaction_answers_per_move": round(answers / moves, 4),
        "worst_window": {"table_messages": stats.worst_by_kind[("table", POST)],
                         "table_edits": stats.worst_by_kind[("table", EDIT)],
                         "dm_messages": stats.worst_by_kind[("dm", POST)]},
        "over_limit": {"table_messages": stats.over[("table", POST)],
                       "table_edits": stats.over[("table", EDIT)],
                       "dm_messages": stats.over[("dm", POST)]},
        "dms_per_hand": round(stats.dm_posts / hands, 3),
        "dms_per_person_hand": round(stats.dm_posts / hands / people, 3),
        "dm_channels_opened": stats.calls[OPEN_DM],
        "turn_shown_s_p50": round(percentile(shown, 50), 2),
        "turn_shown_s_p99": round(percentile(shown, 99), 2),
        "turn_shown_s_max": round(shown[-1] if shown else 0.0, 2),
    }


def report(r: dict[str, Any], lang: str = "es") -> str:
    from musbot.testing.memory import CHANNEL_LIMIT, WINDOW

    def fig(value: float, spec: str = ",") -> str:
        return figure(value, spec, lang)

    worst, over = r["worst_window"], r["over_limit"]
    who = BENCH("discord_people", lang, people=r["people"])
    if r["bots"]:
        who = BENCH("discord_people_bots", lang, people=who, bots=r["bots"])
    turn = BENCH("discord_turn", lang, p50=fig(r["turn_shown_s_p50"], ".1f"),
                 p99=fig(r["turn_shown_s_p99"], ".1f"), max=fig(r["turn_shown_s_max"], ".1f"),
                 step=fig(STEP, "g"))
    if r["unshown"]:
        turn += BENCH("discord_unshown", lang, count=r["unshown"])
    if r["refused"]:
        turn += BENCH("discord_refused", lang, count=r["refused"])
    routes = ", ".join(f"{route} {fig(n, '.3f')}" for route, n in r["per_move"].items())
    lines = [BENCH("discord_head", lang, matches=r["matches"], who=who,
                   delay=fig(r["bot_delay_s"], "g"), think=fig(r["think_s"], "g"),
                   input=r["input"], seed=r["seed"])]
    lines += rows([
        ("discord_moves", BENCH("discord_moves", lang, moves=fig(r["moves"]),
                                people=fig(r["person_moves"]), pressed=fig(r["pressed"]),
                                typed=fig(r["typed"]), bots=fig(r["bot_moves"]),
                                hands=fig(r["hands"]), minutes=fig(r["minutes_per_match"], "g"))),
        ("discord_budget", BENCH("discord_budget", lang,
                                 calls=fig(r["budget_per_move"], ".3f"),
                                 total=fig(r["budget_calls"]), routes=routes,
                                 dms=fig(r["dm_posts_per_move"], ".3f"))),
        ("discord_interactions", BENCH("discord_interactions", lang,
                                       answers=fig(r["interaction_answers_per_move"], ".3f"),
                                       presses=fig(r["presses"]))),
        ("discord_window", BENCH("discord_window", lang, window=fig(WINDOW, ".0f"),
                                 messages=worst["table_messages"], edits=worst["table_edits"],
                                 dms=worst["dm_messages"], limit=CHANNEL_LIMIT,
                                 over=f"{over['table_messages']} / {over['table_edits']} / "
                                      f"{over['dm_messages']}")),
        ("discord_dms", BENCH("discord_dms", lang, per_hand=fig(r["dms_per_hand"], ".2f"),
                              per_person=fig(r["dms_per_person_hand"], ".2f"),
                              opened=r["dm_channels_opened"])),
        ("discord_turn", turn),
    ], lang)
    return "\n".join(lines)


def bench_discord(args: argparse.Namespace) -> int:
    result = asyncio.run(run_matches(args.matches, args.people, args.think, args.input,
                                     args.seed))
    print(report(result, args.idioma))
    if args.json:
        print(json.dumps(result))
    return 0


def add_arguments(kinds: argparse._SubParsersAction,  # type: ignore[type-arg]
                  lang: str, parents: Sequence[argparse.ArgumentParser] = ()) -> None:

    discord = kinds.add_parser("discord", parents=list(parents),
                               help=CLI("bench_discord", lang),
                               description=CLI("bench_discord", lang))
    discord.add_argument("--matches", type=whole(lang, 1, 10_000), default=20, metavar="N",
                         help=CLI("matches", lang))
    discord.add_argument("--people", type=int, choices=(1, 2, 4), default=1,
                         help=CLI("people", lang))
    discord.add_argument("--think", type=_seconds(lang), default=3.0, metavar="S",
                         help=CLI("think", lang, most=f"{MAX_THINK:g}"))
    discord.add_argument("--input", choices=("buttons", "text", "mixed"), default="mixed",
                         help=CLI("input", lang))
    discord.add_argument("--seed", type=int, default=1, metavar="N",
                         help=CLI("bench_seed", lang))
    discord.add_argument("--json", action="store_true", help=CLI("json", lang))
    discord.set_defaults(func=bench_discord)


def _seconds(lang: str) -> Callable[[str], float]:

    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0.0 <= value <= MAX_THINK:
            raise argparse.ArgumentTypeError(CLI("think_range", lang,
                                                 most=f"{MAX_THINK:g}", value=text))
        return value

    return check


__all__ = ["add_arguments", "bench_discord", "run_matches"]
