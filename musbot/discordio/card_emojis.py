"""The cards as the application's own emojis (issue 43): uploaded once, shown by markup.

Discord lets an application own up to 2,000 emojis, usable by its bot in every server and DM
without the «Use External Emojis» permission. At start-up (:meth:`CardEmojis.start`, from the
bot's ``setup_hook``) the bot lists the application's emojis, learns the cards' that are there,
and uploads only the missing ones (41: the deck and a back, drawn by
:mod:`musbot.pictures.cards`), one at a time and :data:`UPLOAD_GAP` seconds apart. A restart
lists first, so nothing is uploaded twice; nor by two processes of a sharded bot: only the one
holding shard 0 uploads, the others list again until the set is whole, and a name another
process took in the meantime is listed and learnt rather than fought over.

**Names** are ``mus_<card>_<art>``: the card's code (``mus_12o_…``, ``mus_back_…``) and six hex
digits of its picture's hash (:func:`musbot.pictures.cards.art_digest`). New art is therefore a
new emoji under a new name, never an old picture under the right name; once the new set is
whole, the old art's emojis (names of that pattern with another hash) are deleted. Nothing else
of the application's is touched.

**Failures** leave the text of today (``12🪙``): :meth:`CardEmojis.markup` answers None and
:meth:`CardEmojis.text` the text until *every* card's emoji is known, so a message never mixes
pictures and text. A refusal that asking again will not change (a 400: bad image, the
application full; a 403) stops the uploads for this run, said once in the log; a 429, a 5xx or
a network failure is tried again later, :data:`RETRY_FIRST` seconds then twice as long each
time up to :data:`RETRY_MAX`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import aiohttp
import discord

from musbot.pictures.cards import Card, art_digest, emoji_cards, emoji_key, emoji_png
from musbot.table import Clock, RealClock
from musbot.table.render import card_text

log = logging.getLogger(__name__)

PREFIX = "mus_"
NAME_PATTERN = re.compile(r"mus_(?P<card>[0-9]{1,2}[oceb]|back)_(?P<art>[0-9a-f]{6})")
"""Every name this module gives (the current art's and any older art's)."""
MAX_APP_EMOJIS = 2000
UPLOAD_GAP = 0.5
"""Seconds between two uploads: 41 take 20 s, gently, beside the bot's other calls."""
RETRY_FIRST = 60.0
RETRY_MAX = 3600.0
BACK_TEXT = "🂠"
_BY_TEXT: dict[str, Card] = {card_text(card): card for card in range(40)}
CARD_TEXT = re.compile("(?<![0-9])(?:" + "|".join(
    re.escape(text) for text in sorted(_BY_TEXT, key=len, reverse=True)) + ")")
"""A card as the table's text writes it (``render.card_text``), not part of a longer number."""


def emoji_name(card: Card | None) -> str:
    """The emoji's name for a card (None: the back), e.g. ``mus_12o_3fa2c1``: 2-32 letters,
    digits and underscores, as Discord requires."""
    return f"{PREFIX}{emoji_key(card)}_{art_digest(card)}"


def fallback_text(card: Card | None) -> str:
    """Today's text for a card (``12🪙``), or for the back."""
    return BACK_TEXT if card is None else card_text(card)


class EmojiClient(Protocol):
    """What the sync needs of a ``discord.Client``."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


@dataclass(frozen=True)
class SyncResult:
    """How one pass went: ``ready`` (every card's emoji known), what it uploaded and deleted,
    and, when not ready, whether to try again later (``retry``) and why."""

    ready: bool
    uploaded: int = 0
    deleted: int = 0
    retry: bool = False
    reason: str = ""


class Permanent(Exception):
    """A refusal that asking again will not change."""


class Transient(Exception):
    """A failure worth trying again later."""


def _classify(problem: BaseException) -> Exception:
    if isinstance(problem, discord.HTTPException):
        status = problem.status
        what = f"{status} {problem.code or ''} {problem.text or ''}".strip()
        if status == 429 or status >= 500:
            return Transient(what)
        return Permanent(what)
    if isinstance(problem, discord.MissingApplicationID):
        return Permanent("no application id")
    return Transient(f"{type(problem).__name__}: {problem}")


NETWORK = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.RateLimited)


class CardEmojis:
    """Card → its emoji's markup (``<:mus_12o_3fa2c1:1234…>``), once every card's emoji is known;
    the text of today until then. The mapping is pure and cheap; :meth:`sync` and :meth:`start`
    fill it from Discord."""

    def __init__(self) -> None:
        self._wanted: dict[str, Card | None] | None = None
        self._ids: dict[str, int] = {}
        self._markup: dict[Card | None, str] = {}
        self._task: asyncio.Task[None] | None = None
        self.last: SyncResult | None = None

    # The pure side.

    @property
    def wanted(self) -> dict[str, Card | None]:
        """Emoji name → card, for the current art (drawn when first asked: a third of a
        second, which a bot that never syncs never spends)."""
        if self._wanted is None:
            self._wanted = {emoji_name(c): c for c in emoji_cards()}
        return self._wanted

    @property
    def ready(self) -> bool:
        return bool(self._markup)

    def learn(self, emojis: Iterable[tuple[str, int]]) -> None:
        """Emojis seen on Discord, as (name, id): those of the current art are kept, and once
        all are known the markup is switched on, all cards at once."""
        for name, emoji_id in emojis:
            if name in self.wanted:
                self._ids[name] = int(emoji_id)
        if not self._markup and len(self._ids) == len(self.wanted):
            self._markup = {card: f"<:{name}:{self._ids[name]}>"
                            for name, card in self.wanted.items()}

    def markup(self, card: Card | None) -> str | None:
        """The card's emoji markup, or None while the set is incomplete (the caller writes its
        text)."""
        return self._markup.get(card)

    def text(self, card: Card | None) -> str:
        """The card as a message shows it: its emoji, or today's text."""
        return self._markup.get(card) or fallback_text(card)

    def cards_text(self, cards: Iterable[Card | None]) -> str:
        return " ".join(self.text(c) for c in cards)

    def in_text(self, text: str) -> str:
        """``text`` with every card the table writes (``12🪙``) as its emoji, once they are all
        known (else as it is): for what is already public, a showdown."""
        if not self.ready:
            return text
        return CARD_TEXT.sub(lambda found: self._markup.get(_BY_TEXT[found.group(0)])
                             or found.group(0), text)

    def missing(self) -> list[str]:
        return [name for name in self.wanted if name not in self._ids]

    # Discord.

    async def sync(self, client: EmojiClient, *, clock: Clock | None = None,
                   upload: bool = True, gap: float = UPLOAD_GAP) -> SyncResult:
        """One pass: list, learn, upload what is missing (``upload``: this process may), delete
        the old art once the set is whole. Never raises for Discord's or the network's
        failures: they are in the result."""
        clock = clock or RealClock()
        uploaded = deleted = 0
        # The 41 pictures (names hash them), drawn off the event loop: a third of a second.
        await asyncio.to_thread(_draw, self)
        try:
            listed = await self._list(client)
            stale = [e for e in listed if NAME_PATTERN.fullmatch(e.name)
                     and e.name not in self.wanted]
            missing = self.missing()
            if missing and not upload:
                raise Transient("waiting for the process that uploads")
            if missing and len(listed) + len(missing) > MAX_APP_EMOJIS:
                deleted += await self._delete(stale)  # room first, if the old art holds it
                stale = []
                if len(listed) - deleted + len(missing) > MAX_APP_EMOJIS:
                    raise Permanent(f"the application has {len(listed) - deleted} emojis; "
                                    f"{len(missing)} more would pass {MAX_APP_EMOJIS}")
            for i, name in enumerate(missing):
                if i and gap > 0:
                    await clock.sleep(gap)
                uploaded += await self._upload(client, name)
            if self.ready:
                deleted += await self._delete(stale)
        except (Permanent, Transient) as problem:
            retry = isinstance(problem, Transient)
            result = SyncResult(self.ready, uploaded, deleted, retry and not self.ready,
                                str(problem))
        else:
            result = SyncResult(self.ready, uploaded, deleted)
        self.last = result
        return result

    async def _list(self, client: EmojiClient) -> list[discord.Emoji]:
        try:
            listed = await client.fetch_application_emojis()
        except (discord.HTTPException, discord.MissingApplicationID, *NETWORK) as problem:
            raise _classify(problem) from problem
        self.learn((e.name, e.id) for e in listed)
        return listed

    async def _upload(self, client: EmojiClient, name: str) -> int:
        """Uploads one card's emoji; 1 if it did, 0 if another process had (learnt instead)."""
        try:
            made = await client.create_application_emoji(name=name,
                                                          image=emoji_png(self.wanted[name]))
        except discord.HTTPException as problem:
            if problem.status == 400:  # the name taken, by another process meanwhile? Take it
                await self._list(client)
                if name in self._ids:
                    return 0
            raise _classify(problem) from problem
        except (discord.MissingApplicationID, *NETWORK) as problem:
            raise _classify(problem) from problem
        self.learn([(made.name, made.id)])
        return 1

    async def _delete(self, stale: list[discord.Emoji]) -> int:
        """Deletes the old art's emojis; a failure only leaves one behind (for the next run)."""
        done = 0
        for emoji in stale:
            try:
                await emoji.delete()
            except (discord.HTTPException, *NETWORK) as problem:
                log.info("card emoji %s not deleted: %s", emoji.name, problem)
            else:
                done += 1
        return done

    def start(self, client: EmojiClient, *, clock: Clock | None = None, upload: bool = True,
              gap: float = UPLOAD_GAP) -> asyncio.Task[None]:
        """Syncs in the background, trying again after a passing failure, until the set is
        whole or a refusal says it will not be; :meth:`stop` ends it."""
        clock = clock or RealClock()

        async def run() -> None:
            delay = RETRY_FIRST
            while True:
                result = await self.sync(client, clock=clock, upload=upload, gap=gap)
                if result.ready:
                    if result.uploaded or result.deleted:
                        log.info("card emojis: %d uploaded, %d of older art deleted",
                                 result.uploaded, result.deleted)
                    return
                if not result.retry:
                    log.warning("card emojis unavailable (%s): cards are shown as text",
                                result.reason)
                    return
                log.info("card emojis not ready (%s); trying again in %.0f s", result.reason,
                         delay)
                await clock.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)

        self.stop()
        self._task = asyncio.get_running_loop().create_task(run(), name="card-emojis")
        return self._task

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The background sync (:meth:`start`), while there is one."""
        return self._task

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None


def _draw(emojis: CardEmojis) -> None:
    for card in emojis.wanted.values():
        emoji_png(card)
