"""Shared helpers for the tests of docs/rules.md (tests/test_rules_*.py).

Hands are written as card codes (``"12o 12c 1e 5b"``) or as bare ranks (``"12 12 1 5"``): a bare
rank gets the first suit of that rank not used anywhere else in the deal, so a test only spells out
suits when they matter. Expected results in the tests are worked out by hand from docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from musbot.engine import Hand, Rules, parse_card, tables
from musbot.engine.actions import NO_HAY_MUS, PASO, Action
from musbot.engine.cards import Card
from musbot.engine.evaluation import HandInfo, Lance

SUITS = "oceb"


def _has_suit(token: str) -> bool:
    return token[-1].isalpha()


def shuffled_hand(seed: int, rules: Rules | None = None) -> Hand:
    """A hand dealt from a deck shuffled by ``seed`` (mano ``seed % 4``), reshuffling the
    discards in order: the same hand at every run."""
    import random

    from musbot.engine import DECK

    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return Hand(rules or Rules(), [deck[4 * i:4 * i + 4] for i in range(4)], deck[16:],
                mano=seed % 4, reshuffler=lambda d: list(d))


def deal(*specs: str) -> list[list[Card]]:
    """Cards for each spec, bare ranks completed with free suits (no card twice in the deal)."""
    used: set[Card] = set()
    for spec in specs:
        for tok in spec.split():
            if _has_suit(tok):
                card = parse_card(tok)
                assert card not in used, f"{tok} twice in the deal"
                used.add(card)
    out: list[list[Card]] = []
    for spec in specs:
        cards: list[Card] = []
        for tok in spec.split():
            if _has_suit(tok):
                cards.append(parse_card(tok))
                continue
            for s in SUITS:
                card = parse_card(tok + s)
                if card not in used:
                    used.add(card)
                    cards.append(card)
                    break
            else:
                raise AssertionError(f"no {tok} left in the deck")
        out.append(cards)
    return out


def cards(spec: str) -> list[Card]:
    """One hand, e.g. ``cards("12 12 1 1")`` (bare ranks get distinct suits)."""
    return deal(spec)[0]


def make_hand(
    specs: Sequence[str],
    deck: str = "",
    *,
    mano: int = 0,
    scores: Sequence[int] = (0, 0),
    rules: Rules | None = None,
    **kwargs: object,
) -> Hand:
    """A Hand dealt ``specs`` (one per seat) with ``deck`` (top first) as the undealt cards."""
    rules = rules or Rules(jugadores=len(specs))  # type: ignore[arg-type]
    dealt = deal(*specs, deck)
    hands, rest = dealt[:-1], dealt[-1]
    return Hand(rules, hands=hands, deck=rest, mano=mano, scores=scores, **kwargs)  # type: ignore[arg-type]


def play(hand: Hand, *steps: tuple[int, Action]) -> Hand:
    for seat, action in steps:
        hand.apply(seat, action)
    return hand


def cut(hand: Hand) -> Hand:
    """The mano says «no hay mus»: the lances begin."""
    hand.apply(hand.to_act, NO_HAY_MUS)  # type: ignore[arg-type]
    return hand


def pass_lance(hand: Hand) -> Hand:
    """Every eligible player passes in the current lance (it must have no standing bet)."""
    lance = hand.lance
    while not hand.finished and hand.lance is lance:
        hand.apply(hand.to_act, PASO)  # type: ignore[arg-type]
    return hand


def pass_all(hand: Hand) -> Hand:
    """Passes every remaining lance until the hand ends."""
    while not hand.finished:
        hand.apply(hand.to_act, PASO)  # type: ignore[arg-type]
    return hand


def ledger(hand: Hand) -> list[tuple[int, int, str, str]]:
    """docs/replay.md's ledger as tuples (pair, tantos, lance, kind)."""
    return [(s["pair"], s["tantos"], s["lance"], s["kind"]) for s in hand.result()["ledger"]]


def compare(lance: Lance, a: str | Iterable[Card], b: str | Iterable[Card], *, reyes: int = 8,
            real: bool = False) -> int:
    """Sign of the comparison of hand ``a`` with hand ``b`` for ``lance`` (ties not broken)."""
    t = tables(reyes, real)
    ca = cards(a) if isinstance(a, str) else list(a)
    cb = cards(b) if isinstance(b, str) else list(b)
    d = t.compare(lance, t.index(ca), t.index(cb))
    return (d > 0) - (d < 0)


def info(spec: str, *, reyes: int = 8, real: bool = False) -> HandInfo:
    return tables(reyes, real).info(cards(spec))


# Worked example deals shared by the rule tests (results worked out by hand from docs/rules.md).
# D1, mano 0: nobody has pares or juego; totals 28, 30, 23, 18. Grande: seat 0 (R C 7 A),
# pair 0. Chica: seat 3 (A 4 6 7), pair 1. Punto: seat 1 (30), pair 1.
D1 = ["12 11 7 1", "11 10 6 4", "10 7 5 1", "7 6 4 1"]

# D2, mano 0. Grande: seat 0 (R R C A), pair 0. Chica: seat 3 (A 4 5 6), pair 1.
# Pares holders 0 (par, 1), 1 (duples, 3), 2 (medias, 2): best seat 1; base pair 1 = 3,
# pair 0 = 1 + 2 = 3. Juego holders 0 (31), 1 (40), 2 (31); seat 3 has 16: best seat 0 (31,
# nearer the mano); base pair 0 = 3 + 3 = 6, pair 1 = 2.
D2 = ["12 12 11 1", "11 11 10 10", "7 7 7 10", "5 4 6 1"]


def d1(**kw: object) -> Hand:
    """D1 dealt, the mus cut: Grande begins."""
    return cut(make_hand(D1, **kw))  # type: ignore[arg-type]


def d2(**kw: object) -> Hand:
    """D2 dealt, the mus cut: Grande begins."""
    return cut(make_hand(D2, **kw))  # type: ignore[arg-type]


def showdown_view(seed: int) -> Any:
    """A spectator's view (seat -1) of a hand «normal» played at every seat to a showdown: the
    first such hand from ``seed`` on (what a table's readings learn from)."""
    import random

    from musbot.ai import NormalBot
    from musbot.engine import seeded_shuffler

    rng = random.Random(seed)
    players = [NormalBot()] * 4
    while True:
        h = Hand.deal(Rules(), mano=0, shuffler=seeded_shuffler(seed))
        while h.to_act is not None:
            seat = h.to_act
            h.apply(seat, players[seat].decide(h.view(seat), rng))
        view = h.view(-1)
        if view.revealed is not None:
            return view
        seed += 1
