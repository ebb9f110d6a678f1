"""Privacy as a property: over many random matches, no card reaches anyone who may not see it, and
señas reach only the partner or the one opponent who caught them (docs/rules.md §7)."""

from __future__ import annotations

import random

import pytest
from table_helpers import ANY_CARD, Sent, cards_mentioned, make_table, play_humans, seat_humans

from musbot.engine import MusError, Rules
from musbot.engine.senas import senas_posibles
from musbot.i18n import TABLE
from musbot.table import Table

SHOWDOWN = TABLE("showdown")
SUIT_WORDS = ("de oros", "de copas", "de espadas", "de bastos")


def check_message(table: Table, sent: Sent) -> None:
    """Runs as each message is sent, against the table's state at that moment."""
    if sent.kind in ("public", "reply"):
        if sent.text.startswith(SHOWDOWN):
            return  # §5: hands are shown; this message starts with the showdown, by design
        assert not ANY_CARD.search(sent.text), sent.text
        assert not any(word in sent.text for word in SUIT_WORDS), sent.text
        return
    match = table.match
    assert match is not None
    seat = table.seat_of(sent.to)
    assert seat is not None
    view = match.view(seat)
    allowed = set(view.cards)
    if view.revealed is not None:
        allowed |= {c for hand in view.revealed for c in hand}
    assert cards_mentioned(sent.text) <= allowed, (seat, sent.text)


@pytest.mark.parametrize("rules", [
    Rules(juegos=1, sena_cazada=0.5),
    Rules(juegos=1, reyes=4, real=True, mus_corrido=True, sena_cazada=0.5),
    Rules.for_players(6, juegos=1, puntos=30, sena_cazada=0.5),
], ids=["default", "variants", "6p"])
async def test_no_card_leaks_and_senas_reach_only_partners(rules: Rules) -> None:
    for seed in range(6):
        assert await _private_match(rules, seed) > 0


async def _private_match(rules: Rules, seed: int) -> int:
    """One match of people played by bots' choices, with random señas; returns señas sent."""
    table, transport, _ = make_table(seed, rules=rules, turn_seconds=None)
    transport.hook = lambda sent: check_message(table, sent)
    await seat_humans(table)
    rng = random.Random(seed)
    signals = 0

    async def maybe_sena(seat: int, user: int) -> None:
        nonlocal signals
        if not table.state.senas_open() or rng.random() > 0.3:
            return
        assert table.match is not None
        shown = senas_posibles(table.match.view(seat).cards, rules)
        if not shown:
            return
        before = len(transport.sent)
        try:
            await table.send_sena(user, rng.choice(shown))
        except MusError as error:  # a repeated seña is refused, and nothing is sent
            assert error.code == "sena_repeated"
            assert len(transport.sent) == before
            return
        signals += 1
        receivers = {table.seat_of(s.to) for s in transport.sent[before:] if s.kind == "private"}
        partners = {s for s in range(seat % 2, table.state.players, 2) if s != seat}
        assert seat not in receivers
        assert partners <= receivers
        assert len(receivers - partners) <= 1
        assert all(s is not None and s % 2 != seat % 2 for s in receivers - partners)
        assert not [s for s in transport.sent[before:] if s.kind == "public"]

    await table.start(1)
    await play_humans(table, rng, before=maybe_sena)
    assert table.lifecycle == "finished"
    return signals

async def test_the_check_catches_a_leak() -> None:
    # The property above is only worth something if a leaked card would fail it.
    table, _, _ = make_table(1, turn_seconds=None)
    await seat_humans(table)
    await table.start(1)
    assert table.match is not None
    from musbot.table.render import card_text, hand_text

    card = table.match.view(0).cards[0]
    with pytest.raises(AssertionError):
        check_message(table, Sent("public", 100, f"P1 lleva el {card_text(card)}"))
    with pytest.raises(AssertionError):
        check_message(table, Sent("private", 2, hand_text(table.match.view(0), table.names())))
    check_message(table, Sent("private", 1, hand_text(table.match.view(0), table.names())))
