"""Tournaments (txapelketak) on the wire double (``tests/wire``): the real :class:`MusBot` with a
real SQLite file, people who sign up in pairs and type their moves in the matches' threads, an
organiser; and the checks every format's run shares (the pictures within Discord's limits, the
channels' limits and the global budget). Used by ``test_discord_txapelketa*.py``."""

from __future__ import annotations

import random
import struct
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from discord_cogs import MANAGE_SERVER, Server, private, public
from discord_match import OPEN, Person, seeded
from wire import FakeDiscord, FakeMessage
from wire.routing import FileInfo

from musbot.ai import HeuristicBot
from musbot.bot import MusBot
from musbot.config import Config
from musbot.engine import ActionKind
from musbot.table import ManualClock, Table
from musbot.tournament import Stage, Tournament
from musbot.tournament.labels import Words
from musbot.tournament.live import Cup, TournamentRunner
from musbot.tournament.picture import PAGE_WIDTH
from musbot.tournament.text import MAX_MESSAGES

EPOCH = datetime(2025, 6, 1, 18, tzinfo=UTC)
NAMES = ("Ane", "Beñat", "Carmen", "Dani", "Edurne", "Fermín", "Garazi", "Haritz", "Itziar",
         "Jon", "Kattalin", "Luken", "Maialen", "Nagore", "Oier", "Peio")
MAX_PNG = 8 * 1024 * 1024
"""Discord's attachment limit for a server without boosts."""
PHONE_HEIGHT = 1400
"""The tallest page (``test_tournament_picture``'s bound): about twice as tall as wide, so a
page fitted to a phone's width needs little scrolling."""
MAX_CONTENT = 2000
"""Discord's limit on a message's text (``musbot.tournament.text`` keeps to it: checked here
on what reached Discord)."""


async def tap(server: Server, person: Person, message: FakeMessage, prefix: str) -> str:
    """``person`` presses ``message``'s button whose custom_id starts with ``prefix``: the
    private answer they got, two seconds later."""
    button = next(c for c in message.custom_ids() if c.startswith(prefix))
    inter = await server.world.press(server.bot, person.user, message.id, button)
    await server.answered(inter)
    await server.advance(2)
    return private(inter)


def choice(what: str) -> str:
    """The custom_id prefix of the organiser's answer ``what`` to a deadline or time limit
    (``w0``, ``w1``, ``both``, ``more``, ``play``, ``board``)."""
    return f"txap:dl:{what}:"


def make_bot(config: Config, clock: ManualClock) -> MusBot:
    """The bot, its deals and turn clock following the test; its tournaments stamped on the
    fake clock (a restarted bot goes on with the same time)."""
    return MusBot(config, clock=clock, table_defaults=seeded("txapelketa"),
                  wall=lambda: EPOCH + timedelta(seconds=clock.now()))


def make_world(tmp_path: Path, people: int = len(NAMES)) -> Server:
    """Server «Txoko», channel «txapelketa», the first ``people`` of :data:`NAMES` and the
    organiser Maite (Manage Server through a role)."""
    clock = ManualClock()
    world = FakeDiscord(clock)
    guild = world.add_guild("Txoko")
    channel = world.add_text_channel(guild, "txapelketa")
    everyone = [Person(world.add_user(name), name, rng=random.Random(name))
                for name in NAMES[:people]]
    admins = world.add_role(guild, "Admins", MANAGE_SERVER)
    admin = Person(world.add_user("Maite"), "Maite")
    world.give_role(guild, admin.user, admins)
    bot = make_bot(Config(token="x", db=str(tmp_path / "musbot.db")), clock)
    server = Server(world, clock, bot, guild, channel, everyone, admin=admin,
                    db_path=tmp_path / "musbot.db")
    OPEN.append(server)
    return server


async def sign_up_pairs(server: Server, name: str, people: Sequence[Person]) -> None:
    """``people`` two by two in the one tournament «``name``»: the first names the second,
    who confirms."""
    for first, second in zip(people[0::2], people[1::2], strict=True):
        invite = await server.ask(first, "txapelketa apuntarse", pareja=second.user)
        assert f"<@{second.user}>" in public(invite)
        confirm = await server.ask(second, "txapelketa apuntarse", pareja=first.user)
        assert "Hecho" in private(confirm), "no message of its own: the sign-ups' one"
        await server.advance(2)  # its edit, within the channel's
        assert f"• {first.name} y {second.name}" in signups(server, name).content


def signups(server: Server, name: str) -> FakeMessage:
    """The tournament's one sign-up message, as it reads now (edited as people sign up)."""
    found = [m for m in server.world.messages(server.channel, deleted=False)
             if m.content.startswith(f"«{name}» (")]
    assert len(found) == 1, [m.content[:60] for m in found]
    return found[0]


def pinged(world: FakeDiscord, channel: int) -> set[int]:
    """Everyone notified by a message in the channel (the bot's, its interactions' answers)."""
    return {user for m in world.messages(channel) for user in m.pinged}


def is_turn_call(message: FakeMessage) -> bool:
    """A table message posted anew to call the person whose turn it is (``boards.py``): the
    table's embed under a mention (which the next edit takes away)."""
    return bool(message.embeds) and len(message.pinged) == 1


def threads(server: Server) -> list[int]:
    """The threads the bot opened in the tournament's channel, oldest first."""
    return [c.id for c in server.world.channels.values()
            if c.parent_id == server.channel]


def table_message(server: Server, place: int) -> FakeMessage:
    pages = [m for m in server.world.messages(place, deleted=False) if m.embeds]
    assert pages, f"no table message in thread {place}"
    return pages[-1]


def the_runner(server: Server) -> TournamentRunner:
    """The (present) bot's tournament runner."""
    runner: TournamentRunner = server.bot.cogs["Txapelketa"].runner  # type: ignore[attr-defined]
    return runner


def the_cup(server: Server) -> Cup:
    """The one tournament the (present) bot's runner is running."""
    return next(iter(the_runner(server).cups.values()))


class Players:
    """The people at the tournament's tables: they sit down when called (but the ``late``)
    and type their moves in the match's thread (discards by DM)."""

    def __init__(self, server: Server, late: set[int] | None = None) -> None:
        self.server = server
        self.late = late or set()
        self.moves = 0

    def person(self, user: int) -> Person:
        return next(p for p in self.server.people if p.user == user)

    async def step(self) -> bool:
        """One thing someone does now; False when nobody has anything to do."""
        server = self.server
        for table in list(server.bot.tables):
            if not table.state.entry.entrants or table.channel_id in server.bot.asleep:
                continue
            if table.lifecycle == "waiting":
                for user in table.state.entry.entrants:
                    if user in self.late or table.seat_of(user) is not None:
                        continue
                    message = table_message(server, table.channel_id)
                    button = next(c for c in message.custom_ids()  # a reserved table seats
                                  if c.endswith((":join1", ":join2")))  # each with their pair
                    await server.world.press(server.bot, user, message.id, button)
                    await server.settle()
                    return True
            if table.lifecycle == "playing" and await self.play(table):
                return True
        return False

    async def play(self, table: Table) -> bool:
        seat = table.state.person_to_act()
        match = table.match
        if seat is None or match is None:
            return False
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        person = self.person(occupant.user_id)
        action = HeuristicBot().decide(match.view(seat), person.rng)
        world, bot = self.server.world, self.server.bot
        if action.kind is ActionKind.DESCARTE:
            await world.dm(bot, person.user, action.text())
        else:
            await world.send(bot, person.user, table.channel_id, action.text())
        self.moves += 1
        await self.server.settle()
        return True

    async def play_out(self, between: Callable[[Cup], Awaitable[bool]] | None = None
                       ) -> Tournament:
        """Moves, and the fake clock when nobody has one to make, until the tournament is
        over; then the last news and pictures out (drawn on a thread in real time, while the
        fake clock stands still), within the channel's budget.
        ``between`` runs before each step (True: it did something, look again)."""
        waited = 0.0
        while True:
            cup = the_cup(self.server)
            if cup.tournament.phase is not Stage.RUNNING:
                break
            if between is not None and await between(cup):
                continue
            if await self.step():
                waited = 0.0
                continue
            await self.server.advance(5)
            waited += 5
            assert waited < 3600, f"the tournament is stuck: {cup.tournament!r}"
        await the_runner(self.server).idle()
        await self.server.advance(30)
        return the_cup(self.server).tournament


def pictures(server: Server) -> list[FileInfo]:
    """The files the bot posted in the tournament's channel, oldest first."""
    return [f for c in server.world.calls if c.channel_id == server.channel for f in c.files]


def assert_pictures_fit(server: Server, at_least: int) -> None:
    """At least ``at_least`` pictures, each a PNG within Discord's attachment limit, of the
    page's width and a phone's height, that says what it shows (alt text)."""
    posted = pictures(server)
    assert len(posted) >= at_least, f"{len(posted)} pictures, {at_least} expected"
    for picture in posted:
        assert picture.size <= MAX_PNG and picture.head.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = struct.unpack(">II", picture.head[16:24])  # the IHDR chunk's
        assert width == PAGE_WIDTH and height <= PHONE_HEIGHT, (width, height)
        assert picture.description, "each page says what it shows (alt text)"


def assert_final_text(server: Server, final: Tournament) -> str:
    """The text version posted with the champions' news (for screen readers): within
    Discord's limits, the champions first, every pair named. Returns it, one text."""
    posted = server.world.messages(server.channel)
    [announced] = [i for i, m in enumerate(posted) if "txapeldunak de" in m.content]
    after = [m.content for m in posted[announced + 1:] if not m.attachments]
    assert 1 <= len(after) <= MAX_MESSAGES and all(len(t) <= MAX_CONTENT for t in after)
    text = "\n".join(after)
    words = Words(final, "es")
    assert text.startswith(f"{final.settings.name} ({words.format_name()})"), text[:200]
    assert final.champion is not None
    assert words.pair(final.champion) in text.splitlines()[1], "the champions head it"
    assert all(words.pair(pair) in text for pair in final.pairs), "every pair in it"
    return text


def assert_within_budget(world: FakeDiscord, moves: int) -> str:
    """No 429, the global budget and each channel's limits kept; the figures, for the log."""
    report = world.report()
    limited = [(c.route, c.channel_id, c.at) for c in world.calls if c.rate_limited]
    assert report.rate_limited == 0 and report.global_rate_limited == 0, limited[:10]
    assert report.busiest_second <= 50
    assert max(report.worst_creations.values()) <= 5
    assert max(report.worst_edits.values(), default=0) <= 5
    assert report.refusals == {} and report.unsupported == 0
    return (f"{moves} typed moves, {report.budget_calls} budget calls "
            f"({report.budget_calls / max(moves, 1):.2f} a move); worst 5 s window: "
            f"{max(report.worst_creations.values())} messages, "
            f"{max(report.worst_edits.values(), default=0)} edits in one channel; busiest "
            f"second {report.busiest_second} calls")
