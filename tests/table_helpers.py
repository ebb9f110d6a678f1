"""Fakes for the table tests: a transport that records everything, and players scripted by tests."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from musbot.engine import Rules, seeded_shuffler
from musbot.engine.cards import Card, card_code
from musbot.table import DmClosed, ManualClock, Table
from musbot.table.render import card_name, card_text, t

SHOWDOWN = t("showdown")


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
        previous = table.previous
        if previous is not None and previous.number == number:
            lines += previous.lines[done:]
            number, done = previous.number + 1, 0
        page = table.page
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

    async def alert(self, channel_id: int, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        await self._pause()
        self._record(Sent("public", channel_id, text))

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        await self._pause()
        if user_id in self.dm_closed:
            raise DmClosed(user_id)
        self._record(Sent("private", user_id, text))

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        await self._pause()
        self._record(Sent("reply", user_id, text))

    def wants_view(self, channel_id: int, user_id: int) -> bool:
        return True  # every text recorded: the privacy tests read them all

    async def update_view(self, channel_id: int, user_id: int, text: str) -> None:
        self._record(Sent("view", user_id, text))

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


def make_table(seed: int = 1, rules: Rules | None = None, **kwargs: object) -> tuple[
        Table, FakeTransport, ManualClock]:
    transport = FakeTransport()
    clock = ManualClock()
    options: dict[str, object] = {"clock": clock, "rng": random.Random(seed),
                                  "shuffler": seeded_shuffler(seed), "first_mano": 0}
    options.update(kwargs)
    table = Table(100, transport, rules=rules, **options)  # type: ignore[arg-type]
    return table, transport, clock


async def seat_humans(table: Table, count: int | None = None) -> dict[int, int]:
    """Seats people with user ids 1, 2, … in seats 0, 1, …; returns seat → user id."""
    users = {}
    for seat in range(count if count is not None else table.players):
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
    while table.state == "playing" and steps < max_steps:
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
            assert await table.handle_text(occupant.user_id, action.text())
        else:
            await table.act(occupant.user_id, action)
        steps += 1
    return steps
