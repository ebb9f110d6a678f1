"""One DM per event (issue 44): a hand's DM says everything its deal brought (the cards, the
señas the partner's bot made with it), new cards after a discard are marked, and a seña sent
later is a DM of its own (docs/rules.md §2 the discard, §7 señas)."""

from __future__ import annotations

from table_helpers import make_table

from musbot.engine import MUS, Rules, descarte
from musbot.i18n import TABLE


async def test_a_seña_made_with_the_deal_is_in_the_hand_s_dm_and_not_again() -> None:
    for seed in range(1, 40):  # a deal at which the partner's bot makes a seña
        table, transport, _ = make_table(seed=seed, rules=Rules(senas=True))
        await table.join(1, "Ana")  # seat 0; her partner, seat 2, a bot
        await table.start(1)
        private = transport.private_to(1)
        if any(TABLE("senas_received") in text for text in private):
            break
    else:
        raise AssertionError("no deal with a partner's seña in 40 seeds")
    assert len(private) == 1, private  # the hand, with the seña in it: one DM


async def test_the_cards_a_discard_brought_are_marked() -> None:
    for seed in range(1, 60):  # a deal where the bots want mus too: a discard round
        table, _, _ = make_table(seed=seed, rules=Rules(senas=False))
        await table.join(1, "Ana")
        await table.start(1)
        match = table.match
        assert match is not None
        while match.view(0).phase == "mus" and match.to_act == 0:
            await table.act(1, MUS)
        if match.view(0).phase == "descarte":
            break
    else:
        raise AssertionError("no discard round in 60 seeds")
    view = match.view(0)
    thrown = view.cards[:2]
    before = table.private_text(1)
    assert "· nueva" not in before, "the deal's cards are all new: none marked"
    await table.act(1, descarte(*thrown))
    assert match.view(0).phase != "descarte", "the bots discard as they answer: all done"
    after = match.view(0)
    assert after.discards and after.discards[-1][0] == 2
    text = table.private_text(1)
    marked = [line for line in text.splitlines() if line.endswith("· nueva")]
    assert len(marked) == 2 and all(marked[i].startswith(f"{3 + i}. ") for i in range(2)), text
    assert not set(thrown) & set(after.cards), "the thrown cards are gone"
