"""A whole txapelketa on the wire double (``tests/wire``): the real :class:`MusBot` with a
real SQLite file, 16 people and an organiser. Sign-ups (as pairs, with the partner confirming,
and alone), the draw, every match of an 8-pair double elimination played by typed moves in its
own thread, one pair that never sits down (a walkover after the grace time, on the fake clock), the
bot restarted in the middle of a round, the champions announced, the bracket posted after each
match within Discord's limits; the channels' limits and the global budget respected throughout.

Matches are one game of 5 tantos (``juegos=1, puntos=5``), so the 14 or 15 matches take a few
hundred typed moves: the tournament's machinery is what is tested here, the game's elsewhere.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from discord_cogs import MANAGE_SERVER, Server, private, public
from discord_match import OPEN, Person, seeded
from wire import FakeDiscord, FakeMessage

from musbot.ai import HeuristicBot
from musbot.bot import MusBot
from musbot.config import Config
from musbot.engine import ActionKind
from musbot.storage import Database
from musbot.table import ManualClock, Table
from musbot.tournament import MatchState, Phase

EPOCH = datetime(2025, 6, 1, 18, tzinfo=UTC)
NAMES = ("Ane", "Beñat", "Carmen", "Dani", "Edurne", "Fermín", "Garazi", "Haritz", "Itziar",
         "Jon", "Kattalin", "Luken", "Maialen", "Nagore", "Oier", "Peio")
MAX_PNG = 8 * 1024 * 1024
"""Discord's attachment limit for a server without boosts."""


def make_bot(config: Config, clock: ManualClock) -> MusBot:
    """The bot, its deals and turn clock following the test; its tournaments stamped on the
    fake clock (a restarted bot goes on with the same time)."""
    return MusBot(config, clock=clock, table_defaults=seeded("txapelketa"),
                  wall=lambda: EPOCH + timedelta(seconds=clock.now()))


def make_world(tmp_path: Path) -> Server:
    clock = ManualClock()
    world = FakeDiscord(clock)
    guild = world.add_guild("Txoko")
    channel = world.add_text_channel(guild, "txapelketa")
    people = [Person(world.add_user(name), name, rng=random.Random(name)) for name in NAMES]
    admins = world.add_role(guild, "Admins", MANAGE_SERVER)
    admin = Person(world.add_user("Maite"), "Maite")
    world.give_role(guild, admin.user, admins)
    bot = make_bot(Config(token="x", db=str(tmp_path / "musbot.db")), clock)
    server = Server(world, clock, bot, guild, channel, people, admin=admin,
                    db_path=tmp_path / "musbot.db")
    OPEN.append(server)
    return server


def pinged(world: FakeDiscord, channel: int) -> set[int]:
    """Everyone notified by a message in the channel (the bot's, its interactions' answers)."""
    return {user for m in world.messages(channel) for user in m.pinged}


def threads(server: Server) -> list[int]:
    """The threads the bot opened in the tournament's channel, oldest first."""
    return [c.id for c in server.world.channels.values()
            if c.parent_id == server.channel]


def table_message(server: Server, place: int) -> FakeMessage:
    pages = [m for m in server.world.messages(place, deleted=False) if m.embeds]
    assert pages, f"no table message in thread {place}"
    return pages[-1]


class Players:
    """The 16 people at the tournament's tables: they sit down when called (but the late
    pair) and type their moves in the match's thread (discards by DM)."""

    def __init__(self, server: Server, late: set[int]) -> None:
        self.server = server
        self.late = late
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
                    button = next(c for c in message.custom_ids() if c.endswith(":join1"))
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


async def test_a_double_elimination_of_eight_pairs_runs_itself_on_discord(
        tmp_path: Path) -> None:
    server = make_world(tmp_path)
    world, admin = server.world, server.admin
    people = server.people
    await world.connect(server.bot)
    await server.settle()

    # --- the organiser creates it; only the organiser may -----------------------------
    refused = await server.ask(people[0], "txapelketa sortu", nombre="Nagusia")
    assert "Gestionar servidor" in private(refused)
    created = await server.ask(admin, "txapelketa sortu", nombre="Nagusia", formato="double",
                               juegos=1, puntos=5, espera_minutos=10, sorteo="random")
    assert "Nuevo torneo «Nagusia»" in public(created)

    # --- sign-ups: 6 pairs that name each other, 4 alone, one who leaves ---------------
    for first, second in zip(people[0:12:2], people[1:12:2], strict=True):
        invite = await server.ask(first, "txapelketa apuntarse", pareja=second.user)
        assert f"<@{second.user}>" in public(invite)
        confirm = await server.ask(second, "txapelketa apuntarse", pareja=first.user)
        assert "juegan «Nagusia» en pareja" in public(confirm)
    for person in people[12:16]:
        alone = await server.ask(person, "txapelketa apuntarse")
        assert "la pareja se sortea" in public(alone)
    leaving = await server.ask(admin, "txapelketa apuntarse")
    await server.ask(admin, "txapelketa retirarse")
    listed = await server.ask(people[5], "txapelketa lista")
    assert "Ane y Beñat" in private(listed) and "Maite" not in private(listed)
    assert public(leaving)
    # Each invitation notified the partner it named, and nobody else was ever notified.
    invited = pinged(world, server.channel)
    assert invited == {p.user for p in people[1:12:2]}

    # --- the draw: 6 pairs and 2 drawn from the 4 alone ---------------------------------
    drawn = await server.ask(admin, "txapelketa sortear")
    assert "Hecho" in private(drawn)
    await server.advance(5)
    db = server.bot.db
    assert db is not None
    stored = await db.find_tournament(server.guild, "Nagusia")
    tournament = stored.tournament
    assert tournament.phase is Phase.RUNNING
    pairs = len(tournament.pairs)
    assert pairs == 8
    first_round = [m for m in tournament.matches.values() if m.state is MatchState.READY]
    assert len(first_round) == pairs // 2
    assert len(threads(server)) == len(first_round), "a thread per match ready, no more"

    # The late pair: the second pair of the first match never sits down there.
    late_match = sorted(first_round, key=lambda m: m.id)[0]
    late_pair = tournament.pairs[late_match.pairs[1] or 0]
    late = {u for u in late_pair.players if u is not None}
    players = Players(server, late)

    # --- play until the first round's other matches are over, then the walkover -------
    restarted = False
    waited = 0.0
    while True:
        bot = server.bot
        runner = bot.cogs["Txapelketa"].runner  # type: ignore[attr-defined]
        cup = next(iter(runner.cups.values()))
        if cup.tournament.phase is not Phase.RUNNING:
            break
        decided = [m for m in cup.tournament.matches.values() if m.played]
        if not restarted and len(decided) >= pairs // 2 + 1 and any(
                t.lifecycle == "playing" and t.match is not None and t.match.hand_number >= 1
                and t.state.turn > 3 for t in bot.tables):
            # --- a restart in the middle of a round, a match half played ---------------
            restarted = True
            before_threads = threads(server)
            await world.disconnect(bot)
            await server.clock.advance(10)  # a process takes seconds to start again
            server.bot = make_bot(bot.config, server.clock)
            await world.connect(server.bot)
            await server.settle()
            await server.advance(2)
            assert threads(server) == before_threads, "nothing reopened after the restart"
            continue
        if await players.step():
            waited = 0.0
            continue
        await server.advance(5)
        waited += 5
        assert waited < 3600, f"the tournament is stuck: {cup.tournament!r}"
    await server.advance(30)  # the last news and pictures, within the channel's budget
    assert restarted

    # --- what the tournament came to --------------------------------------------------
    final = (await server.bot.db.find_tournament(server.guild, "Nagusia")).tournament  # type: ignore[union-attr]
    assert final.phase is Phase.FINISHED and final.champion is not None
    played = [m for m in final.matches.values() if m.played]
    assert len(played) in (2 * pairs - 2, 2 * pairs - 1)
    walkover = final.matches[late_match.id]
    assert walkover.state is MatchState.WALKOVER and walkover.winner == 0
    at_tables = [m for m in played if m.state is MatchState.FINISHED]
    assert len(threads(server)) == len(played), "one thread per match, never two"
    assert all(m.games[m.winner or 0] == 1 for m in at_tables)
    assert not any("bot_game" in m.flags for m in played), "people played every turn"

    texts = [m.content for m in world.messages(server.channel)]
    assert any("por incomparecencia" in t for t in texts)
    [announced] = [m for m in world.messages(server.channel) if "txapeldunak" in m.content]
    assert "txapeldunak de «Nagusia»" in announced.content
    assert announced.pinged == {u for u in final.champion.players if u is not None}
    # Nobody else was notified in the channel: the invited partners and the champions.
    assert pinged(world, server.channel) == invited | announced.pinged
    # In the threads, each match's call notified its four players and nobody else.
    for place in threads(server):
        called = [m for m in world.messages(place) if m.pinged]
        assert len(called) >= 1 and all(len(m.pinged) == 4 for m in called)

    # --- the bracket: after each match, within Discord's limits -----------------------
    pictures = [f for c in world.calls if c.channel_id == server.channel for f in c.files]
    assert len(pictures) >= len(played), "the pages of each match, after it"
    for picture in pictures:
        assert picture.size <= MAX_PNG and picture.head.startswith(b"\x89PNG")
        assert picture.description, "each page says what it shows (alt text)"
    fame = await server.ask(people[3], "txapelketa campeones")
    assert "Nagusia" in public(fame)
    # The champions' pair has a rating of its own now, shown in their profile.
    first, second = final.champion.players
    champion = next(p for p in people if p.user == first)
    partner = next(p for p in people if p.user == second)
    profile = private(await server.ask(champion, "mus perfil"))
    assert f"Parejas estables (torneos): con {partner.name}, " in profile

    # --- Discord's budget, throughout -------------------------------------------------
    report = world.report()
    assert report.rate_limited == 0 and report.global_rate_limited == 0
    assert report.busiest_second <= 50
    assert max(report.worst_creations.values()) <= 5
    assert max(report.worst_edits.values(), default=0) <= 5
    assert report.refusals == {} and report.unsupported == 0
    print(f"\n{players.moves} typed moves, {report.budget_calls} budget calls "
          f"({report.budget_calls / players.moves:.2f} a move); worst 5 s window: "
          f"{max(report.worst_creations.values())} messages, "
          f"{max(report.worst_edits.values(), default=0)} edits in one channel; busiest "
          f"second {report.busiest_second} calls")
    await world.disconnect(server.bot)
    assert isinstance(db, Database)
