"""Properties of the engine over random legal play (docs/rules.md §2–§6, docs/replay.md).

Hypothesis draws the seed, the variants and the player count; a seeded random legal player drives
whole matches. Each property is checked on every action or every hand.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musbot.engine import Match, Rules
from musbot.engine import events as ev
from musbot.engine.actions import ActionKind
from musbot.engine.cards import seeded_shuffler
from musbot.engine.hand import Hand
from musbot.engine.randomplay import random_action
from musbot.replay import replay

variants = st.fixed_dictionaries({
    "jugadores": st.sampled_from([4, 4, 2, 6]),
    "reyes": st.sampled_from([8, 4]),
    "real": st.booleans(),
    "mus_corrido": st.booleans(),
    "puntos": st.sampled_from([40, 30, 10, 5]),
    "juegos": st.integers(1, 3),
})

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def play_match(seed: int, rules: Rules, max_actions: int = 3000, on_action=None,
               on_hand=None) -> Match:
    """Plays random legal actions; ``on_hand(hand)`` sees each finished hand."""
    rng = random.Random(seed)
    match = Match(rules, first_mano=seed % rules.jugadores, shuffler=seeded_shuffler(seed))
    for _ in range(max_actions):
        if match.finished:
            break
        hand = match.hand
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions(seat)
        assert legal, "the seat to act always has a legal action"
        for other in range(rules.jugadores):
            if other != seat:
                assert match.legal_actions(other) == ()
        action = random_action(legal, rng)
        if action.kind is ActionKind.DESCARTE and rng.random() < 0.5:
            action = rng.choice(legal)
        match.apply(seat, action)
        if on_action is not None:
            on_action(match, hand)
        if hand.finished and on_hand is not None:
            on_hand(hand)
    return match


@SETTINGS
@given(seed=st.integers(0, 10**9), v=variants)
def test_random_legal_play_never_raises_and_matches_end(seed: int, v: dict) -> None:
    """§2–§6: any sequence of legal actions is accepted, and every match ends, within the hands
    the rules allow: a hand scores at least the Grande's tanto or ends a game (§5), so a game
    lasts at most 2·puntos − 1 hands, a vaca 2·juegos − 1 games, a match 2·vacas − 1 vacas."""
    rules = Rules(**v)
    max_hands = (2 * rules.vacas - 1) * (2 * rules.juegos - 1) * (2 * rules.puntos - 1)
    match = play_match(seed, rules, max_actions=20000)  # 15 times the longest match seen
    assert match.finished, f"no winner after {match.hand_number} hands"
    assert match.hand_number <= max_hands
    assert match.winner is not None and match.vacas[match.winner] == rules.vacas


@SETTINGS
@given(seed=st.integers(0, 10**9), v=variants)
def test_scores_only_grow_and_the_game_ends_at_the_first_step_reaching_the_target(
        seed: int, v: dict) -> None:
    """§5: points are added one step at a time in lance order, never taken away; the game ends at
    the first step that reaches the target and nothing after it is added (docs/replay.md
    ``scores``)."""
    rules = Rules(**v)
    target = rules.puntos

    def check(hand: Hand) -> None:
        scores = list(hand.initial_scores)
        assert max(scores) < target
        ended = False
        for event in hand.events:
            if isinstance(event, ev.Scored):
                assert not ended, "nothing is scored after the game is won"
                assert event.tantos >= 0
                assert event.tantos > 0 or event.kind == "ordago"
                scores[event.team] += event.tantos
                assert list(event.scores) == scores
                if max(scores) >= target:
                    # this step ended the game: only the pair that scored it can have crossed
                    assert scores[event.team] >= target
                    assert scores[1 - event.team] < target
            if isinstance(event, ev.GameWon):
                ended = True
                if not event.ordago:
                    assert hand.scores[event.team] >= target
        assert list(hand.scores) == scores
        if hand.game_winner is None:
            assert max(scores) < target
        else:
            assert ended
            last = hand.ledger[-1]
            assert last.team == hand.game_winner
            if last.kind != "ordago":
                # passing the target by that step's amount and no more
                assert hand.scores[last.team] - last.tantos < target <= hand.scores[last.team]

    play_match(seed, rules, on_hand=check)


@SETTINGS
@given(seed=st.integers(0, 10**9), v=variants)
def test_no_view_holds_another_seats_cards_before_the_showdown(seed: int, v: dict) -> None:
    """Privacy (§7, DEVELOPERS): a seat's view has its own cards only, until every hand is shown."""
    rules = Rules(**v)

    def check(match: Match, hand: Hand) -> None:
        if hand is not match.hand:
            return  # the next hand was dealt; it is checked on its own actions
        shown = any(isinstance(e, ev.Showdown) for e in hand.events)
        for seat in range(rules.jugadores):
            view = match.view(seat)
            assert set(view.cards) == set(hand.hands[seat])
            if not shown:
                assert view.revealed is None
                assert not any(isinstance(e, ev.Showdown) for e in view.history)
                others = {c for s, h in enumerate(hand.hands) if s != seat for c in h}
                assert not others & set(view.cards)
            else:
                assert view.revealed == tuple(tuple(h) for h in hand.hands)
        watcher = match.view(-1)  # anyone watching the table: the status message's source
        assert watcher.seat == -1 and watcher.cards == () and watcher.legal == ()
        assert watcher.revealed == (match.view(0).revealed if shown else None)

    play_match(seed, rules, max_actions=600, on_action=check)


@SETTINGS
@given(seed=st.integers(0, 10**9), v=variants)
def test_replaying_a_recorded_hand_gives_the_same_result(seed: int, v: dict) -> None:
    """docs/replay.md: the transcript of any finished hand replays to the same ledger and score,
    through the same text grammar the tables use."""
    rules = Rules(**v)

    def check(hand: Hand) -> None:
        transcript = json.loads(json.dumps(hand.transcript()))
        assert replay(transcript) == hand.result()

    play_match(seed, rules, max_actions=1500, on_hand=check)


@SETTINGS
@given(seed=st.integers(0, 10**9), v=variants, cut=st.integers(1, 400))
def test_a_restored_match_continues_exactly(seed: int, v: dict, cut: int) -> None:
    """A saved match (cards, bets, scores) restores to the same views and legal actions."""
    rules = Rules(**v)
    rng = random.Random(seed)
    match = Match(rules, first_mano=0, shuffler=seeded_shuffler(seed))
    for _ in range(cut):
        if match.finished:
            break
        seat = match.to_act
        match.apply(seat, random_action(match.legal_actions(seat), rng))  # type: ignore[arg-type]
    snapshot = json.loads(json.dumps(match.snapshot()))
    restored = Match.restore(snapshot, shuffler=seeded_shuffler(seed))
    assert restored.snapshot() == match.snapshot()
    for seat in range(rules.jugadores):
        assert restored.view(seat) == match.view(seat)
