"""Whole matches of the real :class:`MusBot` through the wire double (``tests/wire``): people
who type, press buttons and DM as a Discord client lets them, on a fake clock; and the oracles
that read what reached «Discord» back against the engine."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from db_helpers import select
from wire import FakeDiscord, FakeMessage

from musbot.ai import HeuristicBot
from musbot.bot import MusBot
from musbot.config import Config
from musbot.engine import MUS, Action, ActionKind, Hand, Rules, Shuffler
from musbot.engine.cards import parse_card, seeded_shuffler
from musbot.grammar import parse
from musbot.i18n import TABLE
from musbot.storage import Database, StorageError
from musbot.storage.postgres import PostgresBackend
from musbot.storage.sqlite import SqliteBackend
from musbot.table import ManualClock, Table, render
from musbot.table.summary import hand_summary

HAND_TITLE = re.compile(r"^🃏 Mano (\d+)")
TROPHIES = ("🏆", "🐄", "🎉")
"""How a summary's line of a game, a vaca or a match won begins."""
SHOWDOWN = TABLE("showdown")


@dataclass
class Person:
    """Someone at the table, played by the heuristic bot's choices."""

    user: int
    name: str
    typing: bool = True
    """Moves typed in the channel; else pressed on the table message's buttons."""
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    discard_by: str = "dm"
    """``dm``: ``descarto …`` by DM; ``buttons``: «Ver mis cartas» and its pick buttons."""
    wants_mus: bool = False
    """Asks for mus in every hand's first round (so that every hand has discards)."""


@dataclass
class Scene:
    world: FakeDiscord
    clock: ManualClock
    bot: MusBot
    guild: int
    channel: int
    people: list[Person]
    others: list[MusBot] = field(default_factory=list, kw_only=True)
    """The bot's other processes (a sharded bot): their work is waited for too, and a DM goes
    to whichever holds shard 0, as Discord sends it."""

    def table(self) -> Table:
        table = self.bot.tables.get(self.channel)
        assert table is not None
        return table

    async def settle(self) -> None:
        """Until the bot is quiet: its tasks ran, and its database work (real I/O on a thread,
        which running the loop alone does not wait for) is done."""
        last: object = None
        quiet = 0
        while quiet < 3:
            await self.world.settle()
            await asyncio.sleep(0.001)
            await self._database_done()
            bots = [self.bot, *self.others]
            busy = any(t._lock.locked() for b in bots for t in b.tables) or \
                any(b.transport.drawing for b in bots) or \
                any(b.relay is not None and b.relay.busy for b in bots) or \
                any(_postgresql_busy(b) for b in bots)
            now = (len(self.world.calls), tuple(t.state.turn for t in self.bot.tables),
                   self.clock.sleepers, busy,
                   sum(len(i.attempts) for i in self.world.interactions.values()))
            quiet = quiet + 1 if now == last and not busy else 0
            last = now

    async def _database_done(self) -> None:
        """Waits for the SQLite reads queued on the database thread so far: the thread takes its
        work in order, so once a no-op queued now has run they have too (real work on a
        thread, which neither the fake clock nor the loop's turns wait for)."""
        for bot in (self.bot, *self.others):
            backend = bot.db.backend if bot.db is not None else None
            if isinstance(backend, SqliteBackend) and backend.is_open:
                with contextlib.suppress(StorageError):  # closed meanwhile: nothing to wait for
                    await backend._in_thread(lambda raw: None)
        await self.world.settle()

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.settle()

    async def slash(self, person: Person, command: str, **options: Any) -> Any:
        inter = await self.world.slash(self.bot, person.user, self.channel, command, **options)
        await self.settle()
        return inter

    def live_message(self) -> FakeMessage:
        """The channel's last table message (the one with the embed)."""
        pages = [m for m in self.world.messages(self.channel, deleted=False) if m.embeds]
        assert pages, "no table message in the channel"
        return pages[-1]

    def table_messages(self) -> list[FakeMessage]:
        """The channel's table messages (lobby and hands), in order, deleted ones left out."""
        return [m for m in self.world.messages(self.channel, deleted=False) if m.embeds]

    async def shown_turn(self, person: Person, limit: float = 45.0) -> FakeMessage:
        """Waits (as a person would) until the live table message offers ``person`` their
        moves: it is edited at most once a second, and while bots play, once they are done."""
        waited = 0.0
        while waited < limit:
            message = self.live_message()
            table = self.table()
            match = table.match
            discarding = match is not None and match.view(-1).phase == "descarte"
            if table.state.awaits(person.user) and (discarding or any(
                    v in ("mus", "paso", "quiero") for v in
                    (c.rsplit(":", 1)[-1] for c in message.custom_ids()))):
                return message
            await self.advance(0.5)
            waited += 0.5
        table = self.table()
        match = table.match
        raise AssertionError(
            f"the table message never offered {person.name} their turn: to act "
            f"{match.to_act if match else None}, seat {table.seat_of(person.user)}, state "
            f"{table.state}, shown {self.live_message().custom_ids()}; board "
            f"{self.bot.transport.boards.get(self.channel)}; lanes "
            f"{self.bot.transport.governor._lanes}")

    async def press(self, person: Person, verb: str, message: FakeMessage | None = None) -> Any:
        """Presses the button of ``verb`` (on the live table message by default), as a
        Discord client would: only a button that is there."""
        message = message or self.live_message()
        custom_id = next(c for c in message.custom_ids() if c.endswith(f":{verb}"))
        inter = await self.world.press(self.bot, person.user, message.id, custom_id)
        await self.settle()
        return inter

    async def say(self, person: Person, text: str) -> int:
        message = await self.world.send(self.bot, person.user, self.channel, text)
        await self.settle()
        return message

    def dm_receiver(self, person: Person) -> MusBot:
        """The bot Discord sends the person's DMs to (shard 0's, when sharded)."""
        if not self.others:
            return self.bot
        receiver = self.world.receiver(self.world.dm_channel(person.user))
        assert isinstance(receiver, MusBot)
        return receiver

    async def dm(self, person: Person, text: str) -> None:
        await self.world.dm(self.dm_receiver(person), person.user, text)
        await self.settle()

    async def dm_answer(self, person: Person, text: str) -> str:
        """What the bot answers the person's DM (its DMs wait for the DM channel's budget)."""
        before = len(self.dm_texts(person))
        await self.dm(person, text)
        for _ in range(20):
            if len(self.dm_texts(person)) > before:
                return self.dm_texts(person)[-1]
            await self.advance(0.5)
        raise AssertionError(f"no answer to {text!r}")

    def dm_texts(self, person: Person) -> list[str]:
        return [m.content for m in self.world.dms(person.user)]

    async def play_turn(self, person: Person) -> Action:
        """The person's move, as they would make it: typed or pressed, discards by DM."""
        table = self.table()
        match = table.match
        seat = table.seat_of(person.user)
        assert match is not None and seat is not None
        action = HeuristicBot().decide(match.view(seat), person.rng)
        if person.wants_mus and not match.view(seat).discards and \
                MUS in match.legal_actions(seat):
            action = MUS
        if action.kind is ActionKind.DESCARTE and person.discard_by == "buttons":
            await self.discard_with_buttons(person, [match.view(seat).cards.index(c)
                                                     for c in action.cards])
        elif action.kind is ActionKind.DESCARTE:
            await self.world.dm(self.dm_receiver(person), person.user, action.text())
        elif person.typing or (action.kind in (ActionKind.ENVIDO, ActionKind.MAS) and \
                action.amount != 2):
            await self.world.send(self.bot, person.user, self.channel, action.text())
        else:
            await self.press(person, _VERBS[action.kind], await self.shown_turn(person))
        await self.settle()
        return action


    async def discard_with_buttons(self, person: Person, positions: list[int]) -> None:
        """«Ver mis cartas» on the table message, then the picks and the confirm on the private
        answer, each press on the message as its last answer left it."""
        shown = await self.press(person, "cards", await self.shown_turn(person))
        [private] = [m for m in shown.messages() if m.ephemeral]
        for pos in positions:
            toggle = next(c for c in private.custom_ids()
                          if c.startswith("mus:dt:") and c.endswith(f":{pos}"))
            await self.world.press(self.bot, person.user, private.id, toggle)
            await self.settle()
        confirm = next(c for c in private.custom_ids() if c.startswith("mus:dc:"))
        await self.world.press(self.bot, person.user, private.id, confirm)


_VERBS = {ActionKind.MUS: "mus", ActionKind.NO_HAY_MUS: "nohaymus", ActionKind.PASO: "paso",
          ActionKind.ENVIDO: "envido", ActionKind.MAS: "mas", ActionKind.ORDAGO: "ordago",
          ActionKind.QUIERO: "quiero", ActionKind.NO_QUIERO: "noquiero"}


OPEN: list[Scene] = []
"""Scenes whose bot may still be connected: a failing test's bot is closed by the fixture
:func:`close_scenes` rather than left running into the next test."""


async def close_scenes() -> None:
    while OPEN:
        scene = OPEN.pop()
        if scene.bot in scene.world.attached_bots():
            await scene.world.disconnect(scene.bot)


def seeded(seed: int | str, deck: Shuffler | None = None) -> dict[str, Any]:
    """Table options that make every deal and every bot's choice follow from ``seed`` (the
    deals from ``deck`` instead, if given)."""
    return {"shuffler": deck or seeded_shuffler(f"{seed}/deck"),
            "rng": random.Random(f"{seed}/table")}


def make_scene(tmp_path: Path, people: Sequence[str] = ("Ana",), *,
               persist: bool = True, typing: bool = True, seed: int | str = "scene",
               deck: Shuffler | None = None, **world_options: Any) -> Scene:
    """A server with a channel, these people, and the bot (not connected yet). ``seed`` makes
    the deals and the bots' choices: what happens depends on the test's moves alone, the same on
    every run."""
    clock = ManualClock()
    world = FakeDiscord(clock, **world_options)
    guild = world.add_guild("Txoko")
    channel = world.add_text_channel(guild, "mus")
    persons = [Person(world.add_user(name), name, typing=typing or i % 2 == 1)
               for i, name in enumerate(people)]
    bot = MusBot(Config(token="x", db=str(tmp_path / "musbot.db")), clock=clock,
                 persist=persist, table_defaults=seeded(seed, deck))
    scene = Scene(world, clock, bot, guild, channel, persons)
    OPEN.append(scene)
    return scene


async def open_and_start(scene: Scene, **options: Any) -> None:
    """«/mus mesa» (with ``options``: ``puntos=30``…), everyone sits with the buttons, the
    first person starts."""
    first = scene.people[0]
    inter = await scene.slash(first, "mus mesa", **options)
    assert inter.response_type is not None, (inter.attempts, scene.world.calls)
    await scene.advance(1)
    for i, person in enumerate(scene.people):
        await scene.press(person, "join1" if i % 2 == 0 else "join2")
        await scene.advance(1)
    await scene.press(first, "start")


async def play_to_the_end(scene: Scene, *, step: float = 1.0, limit: float = 4 * 3600.0
                          ) -> int:
    """Plays every person's turn as it comes (``step`` seconds of thought each) until the match
    is over; returns how many moves the people made."""
    table = scene.table()
    moves = 0
    waited = 0.0
    while table.lifecycle == "playing" and waited < limit:
        match = table.match
        assert match is not None
        seat = match.to_act
        person = next((p for p in scene.people if table.seat_of(p.user) == seat), None)
        if person is not None and table.state.awaits(person.user):
            await scene.advance(step)
            waited += step
            if table.state.awaits(person.user) and match.to_act == seat:
                await scene.play_turn(person)
                moves += 1
        else:
            await scene.advance(0.5)
            waited += 0.5
    assert table.lifecycle == "finished", "the match should end"
    await scene.advance(10)  # the last edits, within the channel's budget
    return moves


async def to_discards(scene: Scene) -> None:
    """The people say mus whenever they may (and play on otherwise) until a discard round
    begins: the bots decide for themselves whether to cut. The scene's deals and bots follow
    its seed, so whether (and when) a round comes is the same on every run; a match over
    without one fails at once, naming the seed's fault rather than waiting in vain."""
    table = scene.table()
    for _ in range(4000):
        match = table.match
        assert match is not None
        assert not match.finished, "the match ended without a discard round: another seed"
        if match.view(-1).phase == "descarte":
            return
        person = next((p for p in scene.people if table.state.awaits(p.user)), None)
        if person is None:
            await scene.advance(0.5)
        elif MUS in match.legal_actions(match.to_act):  # type: ignore[arg-type]
            await scene.say(person, "mus")
        else:
            await scene.play_turn(person)
    raise AssertionError("no discard round")


# --- oracles --------------------------------------------------------------------------------


def page_lines(message: FakeMessage) -> list[str]:
    """The lines a table message shows now, without its status block."""
    embed = message.embeds[0]
    text = str(embed.get("description") or "")
    return text.split("\n\n")[0].split("\n") if text else []


def hand_pages(world: FakeDiscord, channel: int) -> dict[int, list[FakeMessage]]:
    """The channel's hand messages, by hand number, in order."""
    pages: dict[int, list[FakeMessage]] = {}
    for message in world.messages(channel, deleted=False):
        title = str(message.embeds[0].get("title") or "") if message.embeds else ""
        found = HAND_TITLE.match(title)
        if found:
            pages.setdefault(int(found.group(1)), []).append(message)
    return pages


def hand_events(transcript: dict[str, Any]) -> tuple[Rules, list[Any]]:
    """A stored hand played again by the engine: its rules and its events."""
    rules = Rules(reyes=transcript["rules"]["reyes"], puntos=transcript["rules"]["puntos"],
                  real=transcript["rules"]["real"])
    hand = Hand(rules, [[parse_card(c) for c in h] for h in transcript["hands"]],
                [parse_card(c) for c in transcript["deck"]], mano=transcript["mano"],
                scores=transcript["scores"], corrido=bool(transcript["rules"].get("corrido")),
                reshuffles=[[parse_card(c) for c in d] for d in transcript.get("reshuffles", [])])
    for seat, text in transcript["actions"]:
        action = parse(text, hand.hands[seat])
        assert action is not None
        hand.apply(seat, action)
    return rules, list(hand.events)


def hand_event_lines(transcript: dict[str, Any], names: dict[int, str]) -> list[str]:
    """What the engine says happened in a stored hand, as the table words it, line by line:
    what «Ver jugada» shows, built from the transcript, not the table."""
    rules, events = hand_events(transcript)
    return [line for event in events
            for line in render.event_lines(event, names, players=rules.jugadores,
                                           target=rules.puntos)]


async def stored_hands(path: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every hand stored in the database file, match by match, as (transcript, result)."""
    db = await Database.open(str(path))
    try:
        hands: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for (match_id,) in await select(db, "SELECT match_id FROM matches ORDER BY match_id"):
            hands += await db.match_hands(match_id)
        return hands
    finally:
        await db.close()


def assert_pages_show_stored_moves(pages: dict[int, list[FakeMessage]],
                                   stored: Sequence[tuple[dict[str, Any], Any]],
                                   names: dict[int, str]) -> None:
    """Every stored hand shown once, in one message: its summary as the engine's events of
    the stored hand word it (the oracle is built from the transcript, not the table). A won
    game's, vaca's or match's line is the match's, not the stored hand's: left out."""
    for number, (transcript, _) in enumerate(stored, start=1):
        assert len(pages[number]) == 1, f"hand {number} in {len(pages[number])} messages"
        rules, events = hand_events(transcript)
        expected = [line for line in hand_summary(events, names, players=rules.jugadores,
                                                  target=rules.puntos, reyes=rules.reyes)
                    if line[:1] not in TROPHIES]
        shown = [line for line in page_lines(pages[number][0]) if line[:1] not in TROPHIES]
        assert shown == expected, (number, shown, expected)


def public_texts(world: FakeDiscord, channel: int) -> list[str]:
    """Everything the bot ever sent to be seen in the channel (messages, edits, interaction
    updates of its messages), as sent: the text of each request's content and embeds."""
    texts = []
    for call in world.calls:
        body = call.json
        if not isinstance(body, dict):
            continue
        if call.kind == "callback":
            body = body.get("data") or {}
            if int(body.get("flags") or 0) & 64:
                continue  # ephemeral: one person's
        elif call.channel_id != channel:
            continue
        parts = [str(body.get("content") or "")]
        parts += [f"{e.get('title') or ''}\n{e.get('description') or ''}"
                  for e in body.get("embeds") or []]
        texts.append("\n".join(parts))
    return texts


def _postgresql_busy(bot: Any) -> bool:
    """A query of the bot's is on its way to PostgreSQL (real I/O on a socket, which neither the
    fake clock nor a few turns of the loop wait for: a slow one left a command unanswered)."""
    backend = bot.db.backend if bot.db is not None else None
    pool = getattr(backend, "_pool", None) if isinstance(backend, PostgresBackend) else None
    # A holder is out of the pool's queue from its acquire to its release: a connection in use,
    # or one still being opened (the pool opens them on demand), which counts in neither
    # ``get_size()`` nor ``get_idle_size()``.
    return pool is not None and pool._queue.qsize() < len(pool._holders)
