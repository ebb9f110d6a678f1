"""Hostile members and broken servers, on the wire (issue 22): the real ``MusBot`` through
discord.py's own code, only Discord's HTTP side replaced by the double (``tests/wire``), on a
fake clock. Each scenario returns the figures it measured; ``tests/test_hostile.py`` holds them to
their targets, and this file run as a script prints them:

    .venv/bin/python tests/hostile.py [--json]

- pings: nicknames like ``<@victim>``, «@everyone» and a masked link seated at a table, one typing
  out of turn, the turn reminders, ``/mus perfil publico:True``: notifications to users not meant;
- flood: a seated player sends 200 messages in 2 s (100 «órdago», 50 «envido 1», 50 chat) and
  then keeps typing for a minute: the answers they got, and how late the next hand's message was;
- permissions: mid-match the bot loses Send Messages, then View Channel, for two minutes each:
  the invalid requests (401/403/429) Discord saw, what the players were told, and the table
  coming back;
- forgetting: a player's name in the SQLite files after ``/mus olvidarme``, with ``secure_delete``
  forced off on every connection first.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import discord
from discord_match import Person, Scene, hand_pages, make_scene, page_lines
from wire import FakeMessage
from wire.payloads import DEFAULT_EVERYONE

from musbot.storage import Database, SeatRecord

SEND = discord.Permissions(send_messages=True).value
VIEW = discord.Permissions(view_channel=True).value
FLOOD = ["órdago"] * 100 + ["envido 1"] * 50 + ["¡vaya mano llevo!"] * 50
"""The 200 messages of the flood, as the issue found them."""
MASKED_LINK = "[premio](https://evil.example)||"


def join(scene: Scene, name: str, *, nick: str | None = None, username: str | None = None
          ) -> Person:
    """Someone in the server (``nick``: their nickname there, what the bot sees as their name)."""
    world = scene.world
    user = world.add_user(name, username=username)
    if nick is not None:
        world.set_nick(scene.guild, user, nick)
    person = Person(user, name)
    scene.people.append(person)
    return person


async def until(scene: Scene, done: Callable[[], bool], limit: float = 600.0,
                 step: float = 0.5) -> float:
    """Advances the clock until ``done()``; returns the time it took."""
    start = scene.clock.now()
    while not done():
        if scene.clock.now() - start > limit:
            raise AssertionError("it never happened")
        await scene.advance(step)
    return scene.clock.now() - start


async def play_until(scene: Scene, done: Callable[[], bool], limit: float = 1800.0) -> None:
    """The people play their turns as they come (typed, at once) until ``done()``."""
    table = scene.table()
    start = scene.clock.now()
    while not done():
        if scene.clock.now() - start > limit:
            raise AssertionError("it never happened")
        person = next((p for p in scene.people if table.state.awaits(p.user)), None)
        if person is None:
            await scene.advance(0.5)
        else:
            await scene.play_turn(person)


def _bot_messages(scene: Scene) -> list[FakeMessage]:
    return [m for m in scene.world.messages(scene.channel) if m.author == scene.world.bot_user.id]


# --- 1-3: names: ghost pings, markdown, names that cannot be told apart ------------------------


async def names(tmp: Path) -> dict[str, Any]:
    """Six seats: a nickname that is someone else's mention, a masked link with spoiler bars,
    «Bot 6» beside the real Bot 6, a name of invisible characters, «@everyone»; two bots. One
    of them types out of turn, the clock reminds the others, and someone shows a profile in the
    channel."""
    scene = make_scene(tmp, ())
    world = scene.world
    victim = world.add_user("Víctima")
    mallory = join(scene, "Mallory", nick=f"<@{victim}>")
    linky = join(scene, "Linky", nick=MASKED_LINK)
    impostor = join(scene, "Impostor", nick="Bot 6")
    ghost = join(scene, "Ghost", nick="\u200f\u200b\u2800", username="zuri")
    crowd = join(scene, "Crowd", nick="@everyone")
    await world.connect(scene.bot)
    try:
        await scene.slash(mallory, "mus mesa", jugadores=6)
        for person in (mallory, linky, impostor, ghost, crowd):
            await scene.slash(person, "mus unirse")
        await scene.slash(mallory, "mus empezar")
        table = scene.table()
        await play_until(scene, lambda: table.state.awaits(mallory.user))
        refused = await scene.say(linky, "paso")  # out of turn: «habla <Mallory's name>»
        await scene.advance(5)  # after the table's own messages
        answer = next(m for m in _bot_messages(scene) if m.reference == refused)
        await scene.advance(50)  # Mallory's reminder
        await play_until(scene, lambda: table.match is not None and table.match.hand_number > 1)
        profile = await scene.slash(linky, "mus perfil", usuario=mallory.user, publico=True)
        seated = {p.user for p in scene.people}
        pings = world.pings()
        page = "\n".join(line for m in scene.table_messages() for line in page_lines(m))
        return {
            "pings": len(pings),
            "pings_not_meant": sum(1 for _, user in pings if user not in seated),
            "victim_pinged": sum(1 for _, user in pings if user == victim),
            "everyone_pinged": sum(1 for _, user in pings if user == 0),
            "out_of_turn_answer": answer.content,
            "profile": profile.public_texts(),
            "names": scene.table().names(),
            "page": page,
            "seats": "\n".join(f.get("value", "") for f in
                                scene.live_message().embeds[0].get("fields", [])),
            "victim": victim,
        }
    finally:
        await world.disconnect(scene.bot)


# --- 4: a seated player floods the channel -------------------------------------------------------


async def flood(tmp: Path) -> dict[str, Any]:
    """Ana and Mallory at a table with two bots. At Ana's turn Mallory sends the 200 messages in
    2 s, then goes on typing «órdago» every 0.3 s (a move when it is his turn) while the others
    play on, until a minute after the next hand is dealt. The next hand's message is timed from
    the last moment the old hand was seen in play (an upper bound of its delay)."""
    scene = make_scene(tmp, ("Ana", "Mallory"))
    ana, mallory = scene.people
    world = scene.world
    await world.connect(scene.bot)
    try:
        await scene.slash(ana, "mus mesa")
        await scene.slash(ana, "mus unirse")
        await scene.slash(mallory, "mus unirse")
        await scene.slash(ana, "mus empezar")
        table = scene.table()
        await play_until(scene, lambda: table.state.awaits(ana.user))
        assert table.match is not None
        hand = table.match.hand_number
        sent: list[int] = []
        for text in FLOOD:
            sent.append(await world.send(scene.bot, mallory.user, scene.channel, text))
            await scene.clock.advance(2.0 / len(FLOOD))
        burst = set(sent)
        start = scene.clock.now()
        seen_old = start
        dealt: float | None = None
        while dealt is None or scene.clock.now() < max(start, dealt) + 60.0:
            sent.append(await world.send(scene.bot, mallory.user, scene.channel, "órdago"))
            if table.state.awaits(ana.user):
                await scene.play_turn(ana)
            await scene.clock.advance(0.3)
            if dealt is None:
                if table.match is not None and table.match.hand_number > hand:
                    dealt = seen_old
                else:
                    seen_old = scene.clock.now()
            if scene.clock.now() - start > 1800:
                raise AssertionError("the next hand never came")
        assert dealt is not None
        await until(scene, lambda: hand + 1 in hand_pages(world, scene.channel), limit=900)
        message = hand_pages(world, scene.channel)[hand + 1][0]
        answers = [m for m in _bot_messages(scene) if m.reference in set(sent)]
        return {
            "messages": len(sent),
            "answers_to_the_burst": sum(1 for m in answers if m.reference in burst),
            "answers_per_minute": sum(1 for m in answers if m.reference not in burst
                                      and m.created_at < start + 60.0),
            "next_hand_delay": message.created_at - dealt,
            "rate_limited": world.report().rate_limited,
        }
    finally:
        await world.disconnect(scene.bot)


# --- 5: the bot loses its permissions mid-match ------------------------------------------------


async def permissions(tmp: Path) -> dict[str, Any]:
    """Ana and Bea with two bots. Mid-match the server takes Send Messages from everyone (the
    bot's only role) for two minutes; once the table is back, hides the channel from the bot
    (an overwrite) for two more; then takes Send Messages again in a way no gateway event tells
    the bot (as when it missed one): there the first refused call is what tells."""
    scene = make_scene(tmp, ("Ana", "Bea"))
    ana, bea = scene.people
    world = scene.world
    everyone = scene.guild  # the @everyone role's id is the server's
    await world.connect(scene.bot)
    try:
        await scene.slash(ana, "mus mesa")
        await scene.slash(ana, "mus unirse")
        await scene.slash(bea, "mus unirse")
        await scene.slash(ana, "mus empezar")
        table = scene.table()
        await play_until(scene, lambda: table.state.awaits(ana.user))
        figures: dict[str, Any] = {}
        for lost, take, give in (
                ("send", lambda: world.set_role_permissions(scene.guild, everyone,
                                                            DEFAULT_EVERYONE & ~SEND),
                 lambda: world.set_role_permissions(scene.guild, everyone, DEFAULT_EVERYONE)),
                ("view", lambda: world.set_overwrite(scene.channel, world.bot_user.id,
                                                     deny=VIEW),
                 lambda: world.set_overwrite(scene.channel, world.bot_user.id)),
                ("unseen", lambda: _silently(world, scene.guild, DEFAULT_EVERYONE & ~SEND),
                 lambda: world.set_role_permissions(scene.guild, everyone, DEFAULT_EVERYONE))):
            calls = len(world.calls)
            dms = {p.user: len(scene.dm_texts(p)) for p in scene.people}
            turn = table.state.turn
            take()
            await scene.advance(1)
            # Ana moves (typed): the table changes, the bot tries to show it, and is refused.
            await play_until(scene, lambda: table.hidden is not None, limit=120)
            paused_turn = table.state.turn
            await scene.advance(120)  # two minutes: bots, clock and people stopped
            refused = [c for c in world.calls[calls:] if c.status in (401, 403, 429)]
            told = {p.name: [t for t in scene.dm_texts(p)[dms[p.user]:] if "pausa" in t]
                    for p in scene.people}
            still = table.state.turn == paused_turn and table.hidden is not None
            messages = len(world.messages(scene.channel))
            give()
            await scene.advance(1)
            resumed = table.hidden is None
            shown_again = len(world.messages(scene.channel)) > messages
            says_it = any("tras una pausa" in line for line in page_lines(scene.live_message()))
            await play_until(scene, lambda at=paused_turn: table.state.turn > at, limit=300)
            figures[lost] = {
                "invalid_requests": len(refused),
                "codes": sorted({(c.status, c.code) for c in refused}),
                "turns_before_the_pause": paused_turn - turn,
                "still_while_paused": still,
                "told": {name: len(texts) for name, texts in told.items()},
                "resumed": resumed,
                "shown_again": shown_again,
                "page_says_it": says_it,
            }
        figures["invalid_requests"] = len(world.invalid_requests())
        return figures
    finally:
        await world.disconnect(scene.bot)


def _silently(world: Any, guild: int, permissions: int) -> None:
    """@everyone's permissions changed, and no event reaches the bot."""
    world.guilds[guild].everyone_permissions = permissions


# --- 7: a forgotten name in the SQLite files ---------------------------------------------------


class _Deaf(sqlite3.Connection):
    """A connection that does not hear ``PRAGMA secure_delete = ON``: musbot as if it never
    set it (the control that shows what the check would find then)."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if "secure_delete" in sql.lower() and "off" not in sql.lower():
            return super().execute("SELECT 1")
        return super().execute(sql, *args)


@contextmanager
def secure_delete_off(*, deaf: bool = False) -> Iterator[None]:
    """Every SQLite connection opened meanwhile starts with ``secure_delete`` off (SQLite's
    upstream default, whatever this machine's build says): what is left in the files then
    depends on what musbot sets itself. ``deaf``: and musbot's own setting is ignored."""
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        if deaf:
            kwargs["factory"] = _Deaf
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]
    try:
        yield
    finally:
        sqlite3.connect = real


NAME = "Zuriñe Etxeberria-Goikoetxea"


def file_bytes(path: Path, needle: bytes) -> int:
    """Occurrences of ``needle`` in the database file and its write-ahead log."""
    found = 0
    for name in (path, Path(f"{path}-wal")):
        if name.exists():
            found += name.read_bytes().count(needle)
    return found


async def forgetting(tmp: Path, forget: Callable[[Database, int], Awaitable[object]], *,
                     deaf: bool = False) -> dict[str, int]:
    """A player's name written the ways a bot writes it (a live table saved many times, its
    journal, the player's row, a league), then ``forget`` (what ``/mus olvidarme`` runs): the
    bytes of the name left in the files while the bot still runs, and after it stops."""
    path = tmp / "forget.db"
    user = 4242
    with secure_delete_off(deaf=deaf):
        db = await Database.open(str(path))
        try:
            for version in range(40):
                state = {"seats": [{"user_id": user, "name": NAME}], "n": version,
                         "lines": [f"{NAME}: paso."] * 20}
                await db.save_table(1, 2, state)
            await db.append_to_journal(1, [[0, f"{NAME} envido"]])
            league = await db.create_league(2, "Liga", user)
            await db.join_league(league.league_id, user, NAME)
            await db.start_match([SeatRecord.human(0, user, NAME), SeatRecord.robot(1, "ai:normal"),
                                  SeatRecord.human(2, 77, "Ane"), SeatRecord.robot(3, "ai:normal")],
                                 rules={}, channel_id=1, guild_id=2, league_id=league.league_id,
                                 key="k")
            before = file_bytes(path, NAME.encode())
            await db.save_table(1, 2, {"seats": [{"user_id": user, "name": "Jugador 1"}]})
            await forget(db, user)
            running = file_bytes(path, NAME.encode())
        finally:
            await db.close()
    return {"before": before, "running": running, "closed": file_bytes(path, NAME.encode())}


# --- the script ----------------------------------------------------------------------------------


async def _all() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        for name in ("names", "flood", "permissions", "forget"):
            (base / name).mkdir()
        pings = await names(base / "names")
        flooded = await flood(base / "flood")
        lost = await permissions(base / "permissions")
        forgot = await forgetting(base / "forget",
                                  lambda db, user: db.forget_player(user))
    return {
        "pings_not_meant": pings["pings_not_meant"],
        "pings_total": pings["pings"],
        "flood_messages": flooded["messages"],
        "answers_to_200_in_2s": flooded["answers_to_the_burst"],
        "answers_per_minute_to_one_flooding_person": flooded["answers_per_minute"],
        "next_hand_message_delay_s": round(flooded["next_hand_delay"], 2),
        "invalid_requests_after_losing_send_messages": lost["send"]["invalid_requests"],
        "invalid_requests_after_losing_view_channel": lost["view"]["invalid_requests"],
        "invalid_requests_after_a_loss_no_event_told": lost["unseen"]["invalid_requests"],
        "table_resumed_after_each": all(lost[k]["resumed"] for k in ("send", "view", "unseen")),
        "forgotten_name_bytes_while_running": forgot["running"],
        "forgotten_name_bytes_after_close": forgot["closed"],
        "name_bytes_before_forgetting": forgot["before"],
    }


def main(argv: list[str]) -> int:
    figures = asyncio.run(_all())
    for key, value in figures.items():
        print(f"{key:>46}  {value}")
    if "--json" in argv:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = ["DEFAULT_EVERYONE", "MASKED_LINK", "NAME", "file_bytes", "flood", "forgetting",
           "names", "permissions", "secure_delete_off"]
