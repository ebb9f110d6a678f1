"""Fakes for the table tests: a transport that records everything, and players scripted by tests."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from musbot.engine import Rules, seeded_shuffler
from musbot.engine.cards import Card, card_code
from musbot.i18n import TABLE, error_text
from musbot.settings import TableSettings
from musbot.table import DmClosed, ManualClock, Table, TableManager, TableState
from musbot.table.persist import TablePersister
from musbot.table.render import card_name, card_text

SHOWDOWN = TABLE("showdown")


@dataclass
class Sent:
    kind: str
    """'public', 'private', 'reply' or 'view'."""
    to: int
    text: str


@dataclass
class FakeTransport:
    """Records everything the table shows: each change's new page lines as one public text (as
    a terminal would print them), alerts, DMs, replies and views. ``dm_closed`` users raise
    DmClosed; ``slow`` yields inside every send, so racing commands interleave as much as
    they can."""

    sent: list[Sent] = field(default_factory=list)
    dm_closed: set[int] = field(default_factory=set)
    slow: bool = False
    hook: Callable[[Sent], None] | None = None
    """Called with every message as it is sent, while the table's state is the one it speaks of."""
    shown: tuple[int, int] = (0, 0)
    """(page number, lines of it recorded)."""
    changes: int = 0

    def _record(self, sent: Sent) -> None:
        if self.hook is not None:
            self.hook(sent)
        self.sent.append(sent)

    async def _pause(self) -> None:
        if self.slow:
            for _ in range(3):
                await asyncio.sleep(0)

    def changed(self, table: Table) -> None:
        self.changes += 1
        number, done = self.shown
        lines: list[str] = []
        previous = table.state.pages.previous
        if previous is not None and previous.number == number:
            lines += previous.lines[done:]
            number, done = previous.number + 1, 0
        page = table.state.page
        if page.number != number:
            done = 0
        lines += page.lines[done:]
        self.shown = (page.number, len(page.lines))
        # As a hand's message before its showdown: the showdown starts a text of its own.
        chunk: list[str] = []
        for line in lines:
            if line.startswith(SHOWDOWN) and chunk:
                self._record(Sent("public", table.channel_id, "\n".join(chunk)))
                chunk = []
            chunk.append(line)
        if chunk:
            self._record(Sent("public", table.channel_id, "\n".join(chunk)))

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        await self._pause()
        self._record(Sent("public", table.channel_id, text))

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        await self._pause()
        if user_id in self.dm_closed:
            raise DmClosed(user_id)
        self._record(Sent("private", user_id, text))

    def private_changed(self, table: Table, user_id: int) -> None:
        # Every text recorded as it is now: the privacy tests read them all.
        self._record(Sent("view", user_id, table.private_text(user_id)))

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        self._record(Sent("view", user_id, text))

    async def reply(self, table: Table, user_id: int, text: str) -> None:
        """What a surface does with a refusal (see :func:`typed`): to its author alone."""
        await self._pause()
        self._record(Sent("reply", user_id, text))

    def mention(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def public_texts(self) -> list[str]:
        return [s.text for s in self.sent if s.kind == "public"]

    def public_lines(self) -> list[str]:
        """Every public line, one by one (pages grow a few lines at a time)."""
        return [line for text in self.public_texts() for line in text.split("\n")]

    def private_to(self, user_id: int) -> list[str]:
        return [s.text for s in self.sent if s.kind == "private" and s.to == user_id]

    def replies_to(self, user_id: int) -> list[str]:
        return [s.text for s in self.sent if s.kind == "reply" and s.to == user_id]

    def clear(self) -> None:
        self.sent.clear()


def card_forms(card: Card) -> list[str]:
    """Every way a card may be written: code, emoji form, name."""
    return [card_code(card), card_text(card), card_name(card)]


def mentions_card(text: str, card: Card) -> bool:
    """Whether the text names this card in any form (``11🪙`` does not name ``1🪙``)."""
    return any(re.search(rf"(?<![\w]){re.escape(form)}(?![\w])", text, re.IGNORECASE)
               for form in card_forms(card))


_FORMS: dict[str, Card] = {form.lower(): card for card in range(40) for form in card_forms(card)}
_MENTION = re.compile(
    r"(?<![\w])(" + "|".join(re.escape(f) for f in sorted(_FORMS, key=len, reverse=True))
    + r")(?![\w])", re.IGNORECASE)


def cards_mentioned(text: str) -> set[Card]:
    """Every card the text names, in any form: one regex pass, fast enough for every message."""
    return {_FORMS[m.group(1).lower()] for m in _MENTION.finditer(text)}


ANY_CARD = re.compile(r"(?<![\w])(1|2|3|4|5|6|7|10|11|12)(🪙|🍷|🗡️|🪵|[oceb](?![\w]))")


SETTINGS = {"turn_seconds", "language", "bot_level"}
"""make_table's keywords that are the table's settings (the rest are its state's or runner's)."""
RUNNER = {"clock", "bot_delay", "persist"}


def make_table(seed: int = 1, rules: Rules | None = None, **kwargs: Any) -> tuple[
        Table, FakeTransport, ManualClock]:
    """A table in channel 100 with seeded cards and generator, its settings and options from
    ``kwargs`` (``lang`` for ``language``)."""
    transport = FakeTransport()
    clock = kwargs.pop("clock", None) or ManualClock()
    if "lang" in kwargs:
        kwargs["language"] = kwargs.pop("lang")
    settings = TableSettings(rules=rules or Rules(),
                             **{k: kwargs.pop(k) for k in list(kwargs) if k in SETTINGS})
    runner = {k: kwargs.pop(k) for k in list(kwargs) if k in RUNNER}
    options: dict[str, Any] = {"rng": random.Random(seed), "shuffler": seeded_shuffler(seed),
                               "first_mano": 0, "kept": "persist" in runner}
    options.update(kwargs)
    table = Table(TableState(100, settings, **options), transport, clock=clock, **runner)
    return table, transport, clock


async def typed(table: Table, user_id: int, text: str, *, public: bool = True) -> bool:
    """Words typed at the table as a surface hands them to it: True if they were a command for
    it (a refusal recorded as a reply to its author), False for chat."""
    outcome = await table.typed(user_id, text, public=public)
    if outcome.error is not None:
        transport = table.transport
        assert isinstance(transport, FakeTransport)
        text = error_text(outcome.error, table.lang, table.names())
        if "card" in outcome.error.params and user_id not in transport.dm_closed:
            await transport.private(table, user_id, text)
        else:
            await transport.reply(table, user_id, text)
    return outcome.command is not None or outcome.error is not None


async def seat_humans(table: Table, count: int | None = None) -> dict[int, int]:
    """Seats people with user ids 1, 2, … in seats 0, 1, …; returns seat → user id."""
    users = {}
    for seat in range(count if count is not None else table.state.players):
        user = seat + 1
        assert await table.join(user, f"P{user}") == seat
        users[seat] = user
    return users


async def play_humans(table: Table, rng: random.Random, *, via_text: bool = True,
                      max_steps: int = 100_000,
                      before: Callable[[int, int], object] | None = None) -> int:
    """Plays every person's turn with the facil bot's choice (typed as text when ``via_text``)
    until the match ends or a bot-only wait; returns the number of actions."""
    from musbot.ai import HeuristicBot

    bot = HeuristicBot()
    steps = 0
    while table.lifecycle == "playing" and steps < max_steps:
        match = table.match
        assert match is not None
        seat = match.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        if before is not None:
            result = before(seat, occupant.user_id)
            if asyncio.iscoroutine(result):
                await result
        action = bot.decide(match.view(seat), rng)
        if via_text:
            assert await typed(table, occupant.user_id, action.text())
        else:
            await table.act(occupant.user_id, action)
        steps += 1
    return steps


async def persistent(db: Any, transport: Any, *, resume: bool = True, **options: Any
                     ) -> tuple[TablePersister, TableManager]:
    """A manager whose tables save into ``db``, with the tables saved there restored (and,
    with ``resume``, playing on at once), as a bot's start-up does."""
    persister = TablePersister(db)
    manager = TableManager(transport, persist=persister, **options)
    for table in await persister.restore(manager):
        if resume:
            await table.resume()
    return persister, manager
