"""The cards as application emojis (issue 43): uploaded through the HTTP-level double under
Discord's rules, once, and not again when the bot restarts; today's text when Discord refuses;
and the double's own refusals, as Discord words them."""

from __future__ import annotations

import asyncio
import base64
import io
import itertools
import logging
import re
from typing import Any

import discord
import pytest
from PIL import Image
from wire import FakeDiscord
from wire.emojis import IMAGE_MAX, FakeEmoji

from musbot.bot import MusBot
from musbot.config import Config
from musbot.discordio.card_emojis import (
    NAME_PATTERN,
    CardEmojis,
    SyncResult,
    emoji_name,
    fallback_text,
)
from musbot.engine.cards import parse_card
from musbot.pictures.cards import emoji_cards, emoji_png
from musbot.table import ManualClock

LIST = "GET /applications/{application_id}/emojis"
CREATE = "POST /applications/{application_id}/emojis"
DELETE = "DELETE /applications/{application_id}/emojis/{emoji_id}"
DISCORD_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")


def calls(world: FakeDiscord, route: str) -> list[Any]:
    return [c for c in world.calls if c.route == route]


async def started(world: FakeDiscord, **options: Any) -> MusBot:
    bot = MusBot(Config(token="x"), clock=world.clock, persist=False, **options)
    bot.sync_card_emojis = True
    await world.connect(bot)
    return bot


async def until_synced(world: FakeDiscord, bot: MusBot, *, step: float = 1.0,
                       limit: int = 400) -> None:
    """Moves the fake clock until the background sync is over (its pictures are drawn in a
    real thread, so real time passes too)."""
    for _ in range(limit):
        task = bot.card_emojis.task
        if task is None or task.done():
            return
        await world.clock.advance(step)
        await asyncio.sleep(0.005)
    raise AssertionError("the card emojis' sync never ended")


# --- names and the mapping ----------------------------------------------------------------------

def test_every_name_is_one_discord_takes_and_says_its_card_and_its_art() -> None:
    names = [emoji_name(c) for c in emoji_cards()]
    assert len(set(names)) == 41
    for name in names:
        assert DISCORD_NAME.fullmatch(name) and NAME_PATTERN.fullmatch(name), name
    assert names[0].startswith("mus_1o_") and names[-1].startswith("mus_back_")


def test_the_mapping_shows_text_until_every_card_is_known_then_emojis_for_all() -> None:
    emojis = CardEmojis()
    rey = parse_card("12o")
    names = list(emojis.wanted)
    emojis.learn((name, 1000 + i) for i, name in enumerate(names[:-1]))
    assert not emojis.ready and emojis.markup(rey) is None
    assert emojis.text(rey) == "12🪙" == fallback_text(rey)
    assert emojis.cards_text([rey, None]) == "12🪙 🂠"
    emojis.learn([(names[-1], 2000), ("someone_elses", 3)])
    assert emojis.ready
    assert emojis.text(rey) == f"<:{emoji_name(rey)}:{1000 + names.index(emoji_name(rey))}>"
    assert emojis.markup(None) == f"<:{names[-1]}:2000>"


# --- on the double: once, and not again ----------------------------------------------------------

async def test_the_cards_are_uploaded_once_and_a_restart_uploads_nothing() -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    first = await started(world)
    await until_synced(world, first)
    assert first.card_emojis.ready and first.card_emojis.last == SyncResult(True, 41)
    created = calls(world, CREATE)
    assert len(created) == 41 and {c.status for c in created} == {201}
    assert len(world.app_emojis) == 41
    for emoji in world.app_emojis.values():
        assert DISCORD_NAME.fullmatch(emoji.name)
        assert len(emoji.image) <= IMAGE_MAX
        assert Image.open(io.BytesIO(emoji.image)).size == (128, 128)
    gaps = [b.at - a.at for a, b in itertools.pairwise(created)]
    assert min(gaps) >= 0.5, "paced, beside the bot's other calls"
    assert world.report().rate_limited == 0
    rey = parse_card("12o")
    [made] = [e for e in world.app_emojis.values() if e.name == emoji_name(rey)]
    assert first.card_emojis.text(rey) == f"<:{made.name}:{made.id}>"
    await world.disconnect(first)

    again = await started(world)
    await until_synced(world, again)
    assert len(calls(world, CREATE)) == 41, "the restart listed them and uploaded nothing"
    assert len(calls(world, LIST)) == 2
    assert again.card_emojis.ready and again.card_emojis.last == SyncResult(True)
    assert again.card_emojis.text(rey) == f"<:{made.name}:{made.id}>"
    await world.disconnect(again)


async def test_a_bot_not_asked_to_sync_never_calls_the_emoji_routes() -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    bot = MusBot(Config(token="x"), clock=world.clock, persist=False)
    await world.connect(bot)
    assert not [c for c in world.calls if "/emojis" in c.route]
    assert bot.card_emojis.text(parse_card("1c")) == "1🍷"
    await world.disconnect(bot)


async def test_a_refused_upload_leaves_today_s_text(caplog: pytest.LogCaptureFixture) -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    world.fail(CREATE, 403, 50013, "Missing Permissions")
    with caplog.at_level(logging.WARNING, logger="musbot.discordio.card_emojis"):
        bot = await started(world)
        await until_synced(world, bot)
    assert not bot.card_emojis.ready and bot.card_emojis.task is not None
    assert bot.card_emojis.task.done(), "a 403 is not asked again"
    assert len(calls(world, CREATE)) == 1 and not world.app_emojis
    assert bot.card_emojis.text(parse_card("12o")) == "12🪙"
    assert "cards are shown as text" in caplog.text
    await world.disconnect(bot)


async def test_a_full_application_is_not_asked_and_keeps_the_text() -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    for i in range(1990):
        emoji = FakeEmoji(world.ids.next(), f"other_{i}", b"\x89PNG\r\n\x1a\n")
        world.app_emojis[emoji.id] = emoji
    bot = await started(world)
    await until_synced(world, bot)
    assert not bot.card_emojis.ready and not bot.card_emojis.last.retry  # type: ignore[union-attr]
    assert not calls(world, CREATE) and len(world.app_emojis) == 1990
    await world.disconnect(bot)


@pytest.mark.parametrize(("status", "times"), [(503, 1), (500, 2), (429, 5)])
async def test_a_passing_failure_is_tried_again_later_without_uploading_twice(
        status: int, times: int) -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    world.fail(CREATE, status, times=times)
    bot = await started(world)
    await until_synced(world, bot, step=10.0)
    assert bot.card_emojis.ready
    names = [e.name for e in world.app_emojis.values()]
    assert len(names) == len(set(names)) == 41
    assert len([c for c in calls(world, CREATE) if c.status == 201]) == 41
    await world.disconnect(bot)


async def test_the_old_art_is_deleted_once_the_new_set_is_whole_and_nothing_else() -> None:
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    png = emoji_png(None)
    for name in ("mus_12o_000000", "mus_back_abcdef", "party_parrot", "mus_logo"):
        emoji = FakeEmoji(world.ids.next(), name, png)
        world.app_emojis[emoji.id] = emoji
    bot = await started(world)
    await until_synced(world, bot)
    left = {e.name for e in world.app_emojis.values()}
    assert {"party_parrot", "mus_logo"} <= left
    assert not {"mus_12o_000000", "mus_back_abcdef"} & left
    assert len(left) == 43 and len(calls(world, DELETE)) == 2
    await world.disconnect(bot)


async def test_a_process_that_does_not_upload_waits_for_the_one_that_does() -> None:
    """Sharded: the shard-0 process uploads; another lists, learns nothing yet, and is told to
    try again; once the set is there it learns every id without uploading."""
    world = FakeDiscord(ManualClock())
    world.add_guild("Txoko")
    bot = MusBot(Config(token="x"), clock=world.clock, persist=False)
    await world.connect(bot)
    reader = CardEmojis()
    result = await reader.sync(bot, clock=world.clock, upload=False)
    assert not result.ready and result.retry and not calls(world, CREATE)
    uploader = CardEmojis()
    task = asyncio.ensure_future(uploader.sync(bot, clock=world.clock, gap=0))
    while not task.done():
        await world.clock.advance(1)
        await asyncio.sleep(0.005)
    assert task.result().ready
    assert (await reader.sync(bot, clock=world.clock, upload=False)).ready
    assert reader.text(parse_card("7e")) == uploader.text(parse_card("7e"))
    await world.disconnect(bot)


class _Racing:
    """A client whose upload of one name finds it taken: another process made it meanwhile."""

    def __init__(self, taken: str) -> None:
        self.taken = taken
        self.listed: list[tuple[str, int]] = []
        self.created = 0

    async def fetch_application_emojis(self) -> list[Any]:
        return [_Emoji(name, i) for name, i in self.listed]

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        if name == self.taken:
            self.listed.append((name, 99))
            raise discord.HTTPException(_Response(400), {
                "code": 50035, "message": "Invalid Form Body", "errors": {"name": {"_errors": [
                    {"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                     "message": "Emoji name already taken."}]}}})
        self.created += 1
        self.listed.append((name, 1000 + self.created))
        return _Emoji(name, 1000 + self.created)


class _Emoji:
    def __init__(self, name: str, emoji_id: int) -> None:
        self.name, self.id = name, emoji_id


class _Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Bad Request"


class _Offline:
    async def fetch_application_emojis(self) -> list[Any]:
        import aiohttp

        raise aiohttp.ClientConnectionError("no route")

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        raise AssertionError("not reached")


async def test_a_name_taken_meanwhile_is_learnt_and_a_network_failure_retried() -> None:
    taken = emoji_name(parse_card("5c"))
    client = _Racing(taken)
    emojis = CardEmojis()
    result = await emojis.sync(client, clock=ManualClock(), gap=0)
    assert result.ready and result.uploaded == 40 and client.created == 40
    assert emojis.markup(parse_card("5c")) == f"<:{taken}:99>"
    offline = await CardEmojis().sync(_Offline(), clock=ManualClock())
    assert not offline.ready and offline.retry and "ClientConnectionError" in offline.reason


# --- the double refuses as Discord does ----------------------------------------------------------

def _refusal(problem: discord.HTTPException) -> tuple[int, int, str]:
    errors = getattr(problem, "_errors", None) or {}
    codes = [e["code"] for field in errors.values() for e in field.get("_errors", [])]
    return problem.status, problem.code, ",".join(codes)


async def test_the_double_refuses_bad_names_images_and_the_2001st_emoji() -> None:
    world = FakeDiscord(ManualClock())
    client = discord.Client(intents=discord.Intents.none())
    await world.connect(client)
    png = emoji_png(parse_card("1o"))
    made = await client.create_application_emoji(name="ok_1", image=png)
    assert str(made).startswith("<:ok_1:") and made.is_application_owned()
    cases = [
        ("a", png, (400, 50035, "BASE_TYPE_BAD_LENGTH")),
        ("x" * 33, png, (400, 50035, "BASE_TYPE_BAD_LENGTH")),
        ("bad-name", png, (400, 50035, "STRING_TYPE_REGEX")),
        ("ñandú", png, (400, 50035, "STRING_TYPE_REGEX")),
        ("ok_1", png, (400, 50035, "APPLICATION_EMOJI_NAME_ALREADY_TAKEN")),
        ("huge", png + b"\0" * IMAGE_MAX, (400, 50035, "BINARY_TYPE_MAX_SIZE")),
    ]
    for name, image, expected in cases:
        with pytest.raises(discord.HTTPException) as refused:
            await client.create_application_emoji(name=name, image=image)
        assert _refusal(refused.value) == expected, name
    app = client.application_id
    for uri in ("data:image/png;base64,AAAA", "https://example.com/x.png",
                "data:text/plain;base64," + base64.b64encode(png).decode()):
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.create_application_emoji(app, "uri", uri)
        assert _refusal(refused.value) == (400, 50035, "IMAGE_INVALID")
    for i in range(1999):
        emoji = FakeEmoji(world.ids.next(), f"filler_{i}", png)
        world.app_emojis[emoji.id] = emoji
    with pytest.raises(discord.HTTPException) as full:
        await client.create_application_emoji(name="one_more", image=png)
    assert (full.value.status, full.value.code) == (400, 30008)
    await made.delete()
    with pytest.raises(discord.NotFound) as gone:
        await client.fetch_application_emoji(made.id)
    assert gone.value.code == 10014
    assert len(await client.fetch_application_emojis()) == 1999
    await world.disconnect(client)
