"""«¿Cómo jugué?» (musbot.coach): exact answers where the answer is certain, the sampled chances
against an exhaustive count over the unseen cards, and bad inputs.

The review's privacy at a live table is in ``tests/test_coach_table.py``."""

from __future__ import annotations

import random
import re
from functools import cache
from math import comb

import numpy as np
import pytest
from helpers_rules import shuffled_hand

from musbot.ai import NormalBot
from musbot.ai.reading import DEFAULT_MODEL
from musbot.ai.worlds import Likelihood
from musbot.coach import Knowledge, review_transcript
from musbot.coach.chances import chances, generator
from musbot.coach.review import LANCES, Decision, decisions
from musbot.coach.text import text
from musbot.engine import DECK, Hand, Lance, Rules, SeatView, parse_card, tables
from musbot.engine.cards import RANKS
from musbot.engine.evaluation import rank_class
from musbot.engine.senas import Sena, SenaSeen, shows
from musbot.replay import ReplayError


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _played(seed: int, mano: int = 0, scores: tuple[int, int] = (0, 0),
            hands: list[list[int]] | None = None) -> Hand:
    """A hand played to its end by four «normal» bots (a reshuffle keeps the discards' order)."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    if hands is not None:
        taken = {c for h in hands for c in h}
        deck = [c for c in deck if c not in taken]
        dealt, rest = hands, deck
    else:
        dealt, rest = [deck[4 * i:4 * i + 4] for i in range(4)], deck[16:]
    h = Hand(Rules(), dealt, rest, mano=mano, scores=scores, reshuffler=lambda d: list(d))
    bot = NormalBot()
    while h.to_act is not None:
        seat = h.to_act
        h.apply(seat, bot.decide(h.view(seat), rng))
    return h


def _first(hand: Hand, seat: int, phase: str, lance: Lance | None = None) -> Decision:
    found, _ = decisions(hand.transcript(), seat)
    for d in found:
        if d.view.phase == phase and (lance is None or d.view.lance is lance):
            return d
    raise AssertionError(f"seat {seat} made no {phase} {lance} decision")


# --- exact answers --------------------------------------------------------------------------


def _scripted(hands: list[str], actions: list[tuple[int, str]], mano: int = 0) -> dict[str, object]:
    rest = [c for c in DECK if c not in {parse_card(x) for h in hands for x in h.split()}]
    from musbot.engine import codes

    return {"mano": mano, "hands": [h.split() for h in hands], "deck": codes(rest),
            "actions": [[s, a] for s, a in actions]}


def test_the_best_grande_for_the_mano_is_certain() -> None:
    """§3: four reyes (with 8 reyes, treses count) is the best Grande and a tie goes to the
    mano (§1): the mano holding them wins Grande whatever the others hold."""
    tr = _scripted(["12o 12c 3e 3b", "1o 4c 5e 6b", "7o 7c 10e 11b", "1c 2e 4o 5b"],
                   [(0, "no hay mus"), (0, "envido"), (1, "no quiero"), (3, "no quiero")])
    r = review_transcript(tr, 0, seed=1)
    mus, grande = r.decisions
    assert (mus.phase, grande.lance) == ("mus", Lance.GRANDE)
    assert mus.chances.pair[Lance.GRANDE] == grande.chances.pair[Lance.GRANDE] == 1.0
    assert "100 %" in text(r, "es") and "100%" in text(r, "en")


def test_four_ases_for_the_mano_win_chica() -> None:
    tr = _scripted(["1o 1c 2e 2b", "12o 4c 5e 6b", "7o 7c 10e 11b", "12c 3e 4o 5b"],
                   [(0, "no hay mus"), (0, "paso"), (1, "paso"), (2, "paso"), (3, "paso"),
                    (0, "envido")])
    chica = review_transcript(tr, 0, seed=1).decisions[2]
    assert chica.lance is Lance.CHICA and chica.chances.pair[Lance.CHICA] == 1.0


def test_declarations_are_certain_and_a_hand_without_pares_wins_no_pares() -> None:
    """After «no» at pares from both opponents their pares are 0 %; a pair where nobody has
    pares cannot win Pares (0 %), however its hand is."""
    hands = ["12o 12c 3e 5b", "1o 4c 5e 6b", "7o 10c 11e 1b", "2c 4e 6o 7b"]
    tr = _scripted(hands, [(0, "no hay mus"), (0, "paso"), (1, "paso"), (2, "paso"),
                           (3, "paso"), (0, "paso"), (1, "paso"), (2, "paso"), (3, "paso")])
    found, _ = decisions(tr, 0)
    assert [d.view.lance for d in found] == [None, Lance.GRANDE, Lance.CHICA]
    # Seat 0 holds pares alone: the pares lance has no betting, so look at its view after the
    # chica words (the declarations are public by then) through a hand played on.
    h = Hand(Rules(), [_cards(x) for x in hands],
             [c for c in DECK if c not in {c for x in hands for c in _cards(x)}], mano=0)
    for seat, word in tr["actions"]:  # type: ignore[union-attr]
        from musbot.grammar import parse

        h.apply(seat, parse(word, h.hands[seat]))
    view = h.view(0)
    assert view.declarations[Lance.PARES] == (True, False, False, False)
    known = Knowledge(view)
    c = chances(known, generator(1), LANCES, 2000)
    assert c.opp_pares == 0.0
    assert c.pair[Lance.PARES] == 1.0
    view1 = h.view(1)
    c1 = chances(Knowledge(view1), generator(1), LANCES, 2000)
    assert c1.opp_pares == 1.0 and c1.pair[Lance.PARES] == 0.0


def test_a_review_is_the_same_for_the_same_seed() -> None:
    tr = _played(5).transcript()
    a, b = review_transcript(tr, 1, seed=9), review_transcript(tr, 1, seed=9)
    assert text(a, "es") == text(b, "es")


# --- sampled against exhaustive ---------------------------------------------------------------


@cache
def _combs() -> np.ndarray:
    return np.array([[comb(n, k) for k in range(5)] for n in range(9)], dtype=np.float64)


@cache
def _classes(reyes: int) -> tuple[np.ndarray, np.ndarray]:
    """Each hand index's count of cards per rank class, and each card's class."""
    t = tables(reyes, False)
    counts = np.zeros((len(t.infos), 10), dtype=np.int64)
    for i, info in enumerate(t.infos):
        for k in info.classes:
            counts[i, k] += 1
    card_class = np.array([rank_class(RANKS[c % 10], reyes) for c in range(40)])
    return counts, card_class


@cache
def _pair_tables(reyes: int) -> tuple[np.ndarray, ...]:
    """``G[k][r][a, b]``: the ways to give hand ``b`` its class-``k`` cards once hand ``a`` took
    its own from ``r`` cards of that class."""
    counts, _ = _classes(reyes)
    c = _combs()
    out = []
    for k in range(10):
        per_r = []
        for r in range(9):
            left = r - counts[:, k][:, None]
            g = np.where(left >= 0, c[np.clip(left, 0, 8), counts[:, k][None, :]], 0.0)
            g = np.where(counts[:, k][None, :] <= np.clip(left, 0, 8), g, 0.0)
            per_r.append(g)
        out.append(np.stack(per_r))
    return tuple(out)


def exhaustive(view: SeatView, discarded: frozenset[int],
               senas: tuple[SenaSeen, ...] = ()) -> dict[str, float]:
    """Every deal of the unseen cards to the three other seats, counted by rank class: the
    seat's pair's chance at each lance and the opponents' pares/juego, given the declarations
    and the señas seen, each deal weighed by «dificil»'s likelihood of the words said and the
    cards thrown away (its arrays, checked against its world-by-world likelihood in
    ``tests/test_ai_learning.py``). The chance at a lance, for a fixed partner's hand, is a
    bilinear form in the two opponents' hands (each loses to the pair's best on its own), so a
    deal is never listed one by one."""
    rules = view.rules
    t = tables(rules.reyes, rules.real)
    counts, card_class = _classes(rules.reyes)
    g = _pair_tables(rules.reyes)
    c = _combs()
    unseen = Knowledge(view, discarded).unseen()
    u = np.bincount(card_class[unseen], minlength=10)
    me = view.seat
    partner, opp_a, opp_b = (me + 2) % 4, (me + 1) % 4, (me + 3) % 4
    pos = {s: (s - view.mano) % 4 for s in range(4)}
    hp = np.array(t.has_pares)
    hj = np.array(t.has_juego)
    strength = np.array(t.strength)
    mine = t.index(view.cards)

    weights = Likelihood(view, (DEFAULT_MODEL,) * 4, senas, discards=True).weights()
    shown = [frozenset(s for s in Sena if shows(s, info)) for info in t.infos]

    def allowed(seat: int) -> np.ndarray:
        ok = np.ones(len(t.infos), dtype=bool)
        for lance, has in ((Lance.PARES, hp), (Lance.JUEGO, hj)):
            decl = view.declarations.get(lance)
            if decl is not None:
                ok &= has == decl[seat]
        must = {seen.sena for seen in senas if seen.seat == seat}
        ok &= np.array([must <= s for s in shown])
        return ok * weights.seat[seat]

    pair = np.ones((len(t.infos), len(t.infos))) if weights.pair is None else \
        weights.pair if weights.opponents == (opp_a, opp_b) else weights.pair.T

    ma, mb, mp = allowed(opp_a), allowed(opp_b), allowed(partner)
    declared_j = Lance.JUEGO in view.declarations
    total = 0.0
    wins = dict.fromkeys(LANCES, 0.0)
    no_p = no_j = 0.0

    def loses(s: np.ndarray, best: int, best_seat: int, seat: int) -> np.ndarray:
        return (s < best) | ((s == best) & (pos[seat] > pos[best_seat]))

    for p in np.nonzero(mp > 0)[0]:
        wp = float(np.prod(c[u, counts[p]]))
        if not wp:
            continue
        r = u - counts[p]
        wa = np.prod(c[r, counts], axis=1) * ma
        w = np.ones((len(t.infos), len(t.infos)))
        for k in np.nonzero(r)[0]:
            w *= g[k][r[k]]
        w *= wa[:, None] * mb[None, :] * wp * mp[p] * pair
        total += w.sum()
        no_p += (~hp).astype(float) @ w @ (~hp).astype(float)
        no_j += (~hj).astype(float) @ w @ (~hj).astype(float)
        for lance in LANCES:
            s = strength[int(lance)]
            sm, sp = s[mine], s[p]
            best = max(sm, sp)
            best_seat = me if (sm > sp or (sm == sp and pos[me] < pos[partner])) else partner
            la, lb = loses(s, best, best_seat, opp_a), loses(s, best, best_seat, opp_b)
            if lance is Lance.PARES and best == 0:
                continue
            if lance is Lance.PUNTO:
                la, lb = la & ~hj, lb & ~hj
                if hj[mine] or hj[p]:
                    continue
            if lance is Lance.JUEGO and best == 0:
                if declared_j:
                    continue
                sq = strength[int(Lance.PUNTO)]
                bq = max(sq[mine], sq[p])
                bs = me if (sq[mine] > sq[p] or (sq[mine] == sq[p] and pos[me] < pos[partner])) \
                    else partner
                la = ~hj & loses(sq, bq, bs, opp_a)
                lb = ~hj & loses(sq, bq, bs, opp_b)
            wins[lance] += la.astype(float) @ w @ lb.astype(float)
    out = {lance.nombre: wins[lance] / total for lance in LANCES}
    out["opp_pares"] = 1 - no_p / total
    out["opp_juego"] = 1 - no_j / total
    return out


def test_sampled_chances_agree_with_an_exhaustive_count_on_50_hands() -> None:
    """The coach's draws of the unseen cards against every deal of them, counted by rank class:
    within 2 points on every figure it shows, at mus turns (all four lances) and at betting
    turns (the lance at stake), over 50 hands of four «normal» bots."""
    worst = 0.0
    compared = 0
    for n in range(50):
        hand = _played(1000 + n, mano=n % 4)
        seat = n % 4
        found, _ = decisions(hand.transcript(), seat)
        d = found[(n * 7) % len(found)]
        got = chances(Knowledge(d.view, d.discarded, d.senas), generator(n), LANCES)
        exact = exhaustive(d.view, d.discarded, d.senas)
        shown = [Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO] if d.view.lance is None \
            else [d.view.lance]
        pairs = [(got.pair[lance], exact[lance.nombre]) for lance in shown]
        pairs += [(got.opp_pares, exact["opp_pares"]), (got.opp_juego, exact["opp_juego"])]
        for sampled, counted in pairs:
            worst = max(worst, abs(sampled - counted))
            compared += 1
    assert compared >= 150
    assert worst <= 0.02, f"worst difference {worst:.4f} over {compared} figures"


# --- bad inputs -----------------------------------------------------------------------------


def test_a_transcript_the_replay_refuses_is_refused_with_its_sentence() -> None:
    tr = _played(3).transcript()
    tr["actions"] = [*tr["actions"][:2], [tr["actions"][1][0], "envido 1"]]
    with pytest.raises(ReplayError):
        review_transcript(tr, 0)
    with pytest.raises(ReplayError):
        decisions(_played(3).transcript(), 7)
    with pytest.raises(ReplayError):
        decisions({"hands": "nope", "actions": []}, 0)


def test_two_players_are_answered_in_words_not_reviewed() -> None:
    rules = Rules.for_players(2)
    deck = list(DECK)
    h = Hand(rules, [deck[:4], deck[4:8]], deck[8:], mano=0)
    bot = NormalBot()
    rng = random.Random(1)
    while h.to_act is not None:
        h.apply(h.to_act, bot.decide(h.view(h.to_act), rng))
    tr = h.transcript()
    r = review_transcript(tr, 0, seed=1)
    assert r.players == 2 and not r.decisions
    assert "cuatro" in text(r, "es")


def test_no_decisions_yet_is_said() -> None:
    tr = _played(4).transcript()
    mano = tr["mano"]
    other = (mano + 1) % 4
    r = review_transcript(tr, other, upto=0, seed=1)
    assert not r.decisions and not r.finished
    assert "aún no has decidido" in text(r, "es")


# --- mus and discards ---------------------------------------------------------------------------


def _two_rounds(seed: int) -> Hand:
    """A hand where everybody says mus twice, then plays as «normal»."""
    from musbot.engine import MUS

    rng = random.Random(seed)
    h = shuffled_hand(seed)
    bot = NormalBot()
    while h.to_act is not None:
        seat = h.to_act
        view = h.view(seat)
        h.apply(seat, MUS if view.phase == "mus" and h.mus_rounds < 2
                else bot.decide(view, rng))
    return h


def test_mus_and_discard_turns_get_the_tantos_of_each_option() -> None:
    """At a mus turn both words are valued, at a discard the player's and «dificil»'s, by
    rollouts of the hand from that turn (other seats' discards of the round replayed with their
    counts); a hand with several mus rounds included."""
    from musbot.engine import MUS, NO_HAY_MUS, ActionKind

    seen = {"mus": 0, "descarte": 0}
    rounds = 0
    hands = [_played(40 + n, mano=n % 4) for n in range(120)]
    long = [*[h for h in hands if h.mus_rounds][:5], _two_rounds(7), _two_rounds(8)]
    for n, hand in enumerate(long):
        tr = hand.transcript()
        rounds = max(rounds, hand.mus_rounds)
        seat = n % 4
        r = review_transcript(tr, seat, seed=n, most=16)
        for d in r.decisions:
            if d.lance is not None:
                continue
            seen[d.phase] += 1
            said = [o.action for o in d.options]
            assert d.played in said and d.bot in said
            if d.phase == "mus":
                assert set(said) == {MUS, NO_HAY_MUS}
            else:
                assert all(a.kind is ActionKind.DESCARTE for a in said)
                assert len(said) == (1 if d.played == d.bot else 2)
            assert all(abs(o.tantos) < 80 and 0 <= o.game <= 1 for o in d.options)
    assert seen["mus"] >= 5 and seen["descarte"] >= 4 and rounds >= 2, (seen, rounds)


def test_the_advice_names_a_mus_or_a_discard_that_cost_the_most() -> None:
    """Where a mus word or a discard cost the most, the advice says so, in every language."""
    from dataclasses import replace

    from musbot.coach.options import Option
    from musbot.coach.review import Review
    from musbot.coach.text import advice
    from musbot.engine import MUS, NO_HAY_MUS, descarte

    tr = _played(4).transcript()
    base = review_transcript(tr, tr["mano"], seed=1, upto=1).decisions[0]
    assert base.phase == "mus"
    mus = replace(base, played=MUS, bot=NO_HAY_MUS,
                  options=(Option(MUS, -1.5, 0.4), Option(NO_HAY_MUS, 0.5, 0.5)))
    assert mus.cost == pytest.approx(2.0)
    said = {"es": "en el mus", "en": "at the mus", "eu": "musean", "fr": "au mus"}
    for lang, words in said.items():
        line = advice(Review(0, (mus,), finished=True), lang)
        assert words in line and "2" in line, line
    thrown = descarte(*base.cards[:1])
    kept = descarte(*base.cards[1:])
    discard = replace(base, phase="descarte", played=thrown, bot=kept,
                      options=(Option(thrown, 0.1, 0.5), Option(kept, 1.4, 0.55)))
    line = advice(Review(0, (mus, discard), finished=True), "es")
    assert line.startswith("Consejo: en el mus")  # the mus cost more
    line = advice(Review(0, (discard,), finished=True), "es")
    assert "en el descarte" in line and "1,3" in line


# --- the same decision, the same figures (issue #48) ---------------------------------------------

_NUMBER = re.compile(r"[+−]\d+[.,]\d")


def _line_of(text_: str, index: int) -> str:
    """The review's line of a seat's decision (the heading, maybe «the hand goes on», then one
    line per decision)."""
    lines = [line for line in text_.splitlines()[1:] if "(" not in line[:1]]
    return lines[index]


def test_the_same_decision_gets_the_same_figures_and_advice_however_it_is_asked() -> None:
    """A mus and a discard (whose figures are the noisiest: the rest of the hand is played out)
    asked about ten times — after the hand and during it, alone and with the hand's later
    decisions, in each language, at a table or by the command line, as another match's hand —
    are valued the same each time (so within the issue's ±0.5 tanto: to the last digit), and the
    word recommended is the same: each decision's sampling is seeded by what the seat knew then,
    nothing else."""
    from musbot.coach.review import review
    from musbot.coach.reviewer import ReviewAsk

    hand = _two_rounds(7)
    tr = hand.transcript()
    seat = next(s for s in range(4) if any(d.view.phase == "descarte"
                                           for d in decisions(tr, s)[0]))
    found, _ = decisions(tr, seat)
    k = next(i for i, d in enumerate(found) if d.view.phase == "descarte")
    assert found[k - 1].view.phase == "mus"
    said = [i for i, (who, _) in enumerate(tr["actions"]) if who == seat]
    upto = said[k] + 1  # the actions of the hand up to the discard, included
    asks = [review_transcript(tr, seat).decisions,
            review_transcript(tr, seat, upto=upto).decisions,
            review_transcript(tr, seat, upto=len(tr["actions"]) - 1).decisions,
            (None,) * (k - 1) + review(found[k - 1:k + 1], seat).decisions,
            review(found[:k + 1], seat).decisions]
    for i in (k - 1, k):
        values = [{str(o.action): o.tantos for o in d[i].options} for d in asks]
        assert values[0] and all(v == values[0] for v in values), values  # to the last bit
        assert len({d[i].best.action for d in asks}) == 1
    assert len(values[0]) == 1  # the discard «normal» made, «dificil»'s too
    shown = []
    for n, lang in enumerate(("es", "en", "eu", "fr", "es")):
        ask = ReviewAsk(tr, seat, 3 + n, (), upto + n, lang, f"match-{n}")
        text_ = ask.answer()
        shown.append([_NUMBER.findall(_line_of(text_, i).replace(",", ".")) for i in (k - 1, k)])
    assert all(s == shown[0] for s in shown) and all(shown[0]), shown


def test_a_bet_is_valued_within_half_a_tanto_whatever_the_worlds_drawn() -> None:
    """The words at a betting turn are played out until each value's standard error is a
    quarter of a tanto (the review's «±» is two of them): ten reviews drawing ten other sets
    of worlds (``--semilla``) give each quiet word within half a tanto of the others', and
    name the same word as the best when one is clearly best."""
    from musbot.coach.options import PRECISION
    from musbot.coach.review import review

    hand = _played(11)
    tr = hand.transcript()
    seat = tr["mano"]
    found, _ = decisions(tr, seat)
    d = next(x for x in found if x.view.phase == "lance")
    runs = [review([d], seat, seed=salt).decisions[0] for salt in range(10)]
    for o in runs[0].options:
        if o.risky:
            continue
        figures = [next(x.tantos for x in r.options if x.action == o.action) for r in runs]
        assert max(figures) - min(figures) <= 1.0, (o.action, figures)
        assert all(next(x.error for x in r.options if x.action == o.action) <= PRECISION
                   for r in runs)
