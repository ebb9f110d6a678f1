"""Privacy across seat changes (docs/rules.md §2: the cards are not public; issue 42): people
leave mid-hand, take over bots' seats, come back, and ask for reviews, over whole matches. Every
private text each person gets, and every review they may ask for, is held against what that
person was dealt or shown: the cards of the seat they held when it was sent, or cards the
showdown made public. Nobody holds two hands of one deal, and a review belongs to the person who
played its decisions, only as far as they played them."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

import pytest
from table_helpers import FakeTransport, Sent, cards_mentioned, make_table

from musbot.ai import HeuristicBot
from musbot.coach.reviewer import ReviewRefused
from musbot.engine import MusError, Rules
from musbot.engine.cards import Card
from musbot.table import Table, TableError

PEOPLE = (1, 2, 3, 4, 5, 6)


@dataclass
class Ledger:
    """What each person was entitled to see, as the table went."""

    table: Table
    seen: dict[int, set[Card]] = field(default_factory=lambda: defaultdict(set))
    """Person → the cards of every seat they held while something private reached them."""
    public: set[Card] = field(default_factory=set)
    """Cards the showdowns showed everyone."""
    dealt: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    """(match number, hand number) → person → the seat whose cards they were dealt or took."""
    held: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    """(match number, hand number) → person → the seat they held when the hand was dealt."""
    left_at: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    """(match number, hand number) → person → actions of the hand played when they left."""
    matches: int = 0
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    """What broke privacy (the hook runs inside the table's publishing, which logs and
    swallows what a transport raises: the test asserts this is empty instead)."""

    def key(self) -> tuple[int, int]:
        match = self.table.match
        assert match is not None
        return self.matches, match.hand_number

    def on_sent(self, sent: Sent) -> None:
        """The transport's hook: called as each message goes, the state the one it speaks of."""
        table = self.table
        match = table.match
        if sent.kind == "public":  # a showdown's cards are everyone's from then on
            self.public |= cards_mentioned(sent.text)
            return
        if sent.kind not in ("private", "view"):
            return
        user = sent.to
        seat = table.seat_of(user)
        mentioned = cards_mentioned(sent.text)
        if seat is None or match is None:
            if mentioned:
                self.problems.append(f"{user} got cards while seated nowhere: {sent.text!r}")
            return
        own = set(match.view(seat).cards)
        self.seen[user] |= own
        if not mentioned <= own | self.public:
            self.problems.append(f"{user} at seat {seat} was shown {mentioned - own} of "
                                 f"another seat: {sent.text!r}")
        self.checked += 1
        if own and mentioned & own:
            hand = self.dealt.setdefault(self.key(), {})
            if hand.setdefault(user, seat) != seat:
                self.problems.append(f"{user} holds two hands of one deal {self.key()}: "
                                     f"seats {hand[user]} and {seat}")


def dealt_now(table: Table, ledger: Ledger) -> None:
    """At each new deal: who holds which seat (they were dealt its cards)."""
    key = ledger.key()
    if key not in ledger.held:
        ledger.held[key] = {o.user_id: s for s, o in enumerate(table.seats)
                            if o is not None and o.user_id is not None}


async def check_review(table: Table, ledger: Ledger, user: int, number: int) -> None:
    """A review asked of any hand kept: only the person dealt it gets one, of that seat, up to
    where they left it."""
    key = (ledger.matches, number)
    try:
        ask = table.state.review_ask(user, number)
    except ReviewRefused as refused:
        if refused.key == "not_your_hand":
            assert user not in ledger.held.get(key, {}), f"{user} held hand {number}"
        return
    held = ledger.held.get(key, {})
    assert user in held, f"{user} reviewed hand {number}, which they were never dealt"
    assert ask.seat == held[user], "the review is of the seat they were dealt"
    left = ledger.left_at.get(key, {}).get(user)
    if left is not None:
        assert ask.upto <= left, "nothing the bot played after they left"


async def scenario(seed: int, hands: int = 12) -> Ledger:
    rng = random.Random(seed)
    table, transport, _ = make_table(seed=seed, rules=Rules(puntos=15, juegos=1, vacas=1))
    assert isinstance(transport, FakeTransport)
    ledger = Ledger(table)
    transport.hook = ledger.on_sent
    for user in PEOPLE[:4]:
        await table.join(user, f"P{user}")
    ledger.matches = 1
    await table.start(1)
    bot = HeuristicBot()
    played_hands = 0
    while played_hands < hands:
        match = table.match
        assert match is not None
        if table.lifecycle == "finished":
            humans = table.humans()
            ledger.matches += 1
            await table.rematch(humans[0])
            continue
        dealt_now(table, ledger)
        before = match.hand_number
        roll = rng.random()
        seated = table.humans()
        away = [p for p in PEOPLE if table.seat_of(p) is None]
        if roll < 0.08 and len(seated) > 1:  # someone gets up mid-hand
            user = rng.choice(seated)
            ledger.left_at.setdefault(ledger.key(), {})[user] = len(match.hand.actions)
            await table.leave(user)
        elif roll < 0.16 and away:  # someone sits down in a bot's seat, maybe again
            user = rng.choice(away)
            left_now = user in ledger.left_at.get(ledger.key(), {})
            try:
                seat = await table.join(user, f"P{user}")
            except TableError as refused:
                full = len(table.humans()) == len(table.seats)
                assert (left_now and refused.code == "left_this_deal") or \
                    (full and refused.code == "table_full"), refused
            else:
                assert not left_now, f"{user} sat again in the deal they left"
                ledger.dealt.setdefault(ledger.key(), {}).setdefault(user, seat)
        elif roll < 0.22:
            kept = [k.number for k in table.state.handbook.finished]
            if kept:
                await check_review(table, ledger, rng.choice(PEOPLE), rng.choice(kept))
        else:
            seat = match.to_act
            occupant = table.seats[seat] if seat is not None else None
            if seat is None or occupant is None or occupant.user_id is None:
                continue
            try:
                await table.act(occupant.user_id, bot.decide(match.view(seat), rng))
            except MusError:
                continue
        now = table.match
        if now is not None and (now.hand_number != before or now is not match):
            played_hands += 1
    for number in [k.number for k in table.state.handbook.finished]:
        for user in PEOPLE:
            await check_review(table, ledger, user, number)
    return ledger


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
async def test_every_private_text_and_review_is_of_what_its_reader_held(seed: int) -> None:
    ledger = await scenario(seed)
    assert ledger.problems == []
    assert ledger.checked > 20, "the walk checked private texts"
    assert ledger.left_at, "people left mid-hand"


async def test_a_newcomer_at_a_seat_reviews_nothing_of_the_hands_before() -> None:
    """Bea leaves seat 2 after hand 1; Carla sits there: hand 1 is Bea's to review, never
    Carla's, even though Carla holds seat 2 now."""
    table, _, _ = make_table(seed=3, rules=Rules(puntos=40))
    for user in (1, 2, 3, 4):
        await table.join(user, f"P{user}")
    await table.start(1)
    bot, rng = HeuristicBot(), random.Random(3)
    while table.match is not None and table.match.hand_number == 1:
        match = table.match
        seat = match.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        await table.act(occupant.user_id, bot.decide(match.view(seat), rng))
    await table.leave(2)
    assert await table.join(5, "Carla") == 1
    with pytest.raises(ReviewRefused) as refused:
        table.state.review_ask(5, 1)
    assert refused.value.key == "not_your_hand"
    assert table.state.review_ask(2, 1).seat == 1, "Bea's own review, though she left"


async def test_who_left_a_hand_sits_again_only_at_the_next_deal() -> None:
    table, transport, _ = make_table(seed=4, rules=Rules(puntos=40))
    for user in (1, 2, 3, 4):
        await table.join(user, f"P{user}")
    await table.start(1)
    match = table.match
    assert match is not None
    await table.leave(1)
    with pytest.raises(TableError, match="left_this_deal"):
        await table.join(1, "Ana", 1)  # seat 4 now, her seat 1's cards seen this deal
    bot, rng = HeuristicBot(), random.Random(4)
    while table.match is not None and table.match.hand_number == 1:
        seat = table.match.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None and occupant.user_id is not None
        await table.act(occupant.user_id, bot.decide(table.match.view(seat), rng))
    assert table.lifecycle == "playing"
    assert await table.join(1, "Ana") == 0, "the next deal: she may sit again"
    assert transport.private_to(1), "and is dealt that hand's cards"
