"""A seat's decisions in one hand, each reviewed with only what the seat knew when it spoke.

:func:`decisions` replays a stored hand (docs/replay.md's transcript) on the engine and keeps, for
each word of the seat, the seat's own view just before it (:meth:`~musbot.engine.Hand.view`) and
the señas that had reached it. :func:`review` reads those alone: it cannot see another hand, so a
review asked in the middle of a hand tells nothing the seat could not see.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from musbot.engine import Action, ActionKind, Card, Hand, Lance, SeatView
from musbot.engine.senas import SenaSeen

from .chances import (
    REDRAWS,
    REVIEW_REDRAWS,
    WORLDS,
    Chances,
    IntArray,
    Knowledge,
    generator,
    weighed,
)
from .options import Option, weigh

if TYPE_CHECKING:
    from musbot.replay import Transcript

ADVICE_MIN = 0.25
"""Tantos a decision must have cost to be worth a line of advice; below, the hand was well
played (the option values are estimates, a few tenths of a tanto apart are noise)."""
LANCES = tuple(Lance)
FOURTH = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO)
"""The lances a mus or a discard is played for (Juego: juego, or punto if nobody holds it)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One word of the seat, with what it knew then."""

    view: SeatView
    """The seat's view just before it spoke."""
    action: Action
    senas: tuple[SenaSeen, ...] = ()
    discarded: frozenset[Card] = frozenset()
    """The cards it threw away earlier in the hand."""


@dataclass(frozen=True, slots=True)
class DecisionReview:
    phase: str
    """«mus», «descarte» or «lance»."""
    lance: Lance | None
    cards: tuple[Card, ...]
    played: Action
    bot: Action
    """What «dificil» would have said (at a mus or discard turn, «normal»'s rule, which it
    plays there): the review recommends :attr:`best`, and says why «dificil» differs."""
    chances: Chances
    options: tuple[Option, ...] = ()
    """Every word weighed, the player's among them: at a betting turn «dificil»'s candidates;
    at a mus turn mus and no hay mus; at a discard the player's and «dificil»'s."""

    @property
    def best(self) -> Option | None:
        """The word worth the most tantos among those a player should weigh — an órdago only
        if it was said or «dificil» would say it (see :attr:`Option.risky`) — as the figures
        are shown, to a tenth: of words shown alike, the one said, then «dificil»'s."""
        fair = [o for o in self.options if not o.risky or o.action in (self.played, self.bot)]
        if not fair:
            return None
        top = max(shown(o.tantos) for o in fair)
        tied = [o for o in fair if shown(o.tantos) == top]
        return next((o for a in (self.played, self.bot) for o in tied if o.action == a),
                    tied[0])

    @property
    def played_option(self) -> Option | None:
        return next((o for o in self.options if o.action == self.played), None)

    @property
    def cost(self) -> float:
        """Expected tantos lost against the best word weighed (0 when the word said was
        worth as much as shown)."""
        best, mine = self.best, self.played_option
        if not best or not mine or best is mine:
            return 0.0
        return max(0.0, best.tantos - mine.tantos)


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: tuple[DecisionReview, ...]
    players: int = 4
    finished: bool = False
    """Whether the review covers the whole hand (it may be asked while it is played)."""

    @property
    def worst(self) -> DecisionReview | None:
        """The decision that cost the most, if any cost enough for advice."""
        costly = [d for d in self.decisions if d.cost >= ADVICE_MIN]
        return max(costly, key=lambda d: d.cost) if costly else None


def shown(tantos: float) -> float:
    """A value as the review shows it, to a tenth of a tanto."""
    return float(f"{tantos:.1f}")


def decision_seed(decision: Decision, seat: int, salt: int | None = None) -> int:
    """The seed of a decision's sampling, from what the seat knew when it spoke (its cards,
    the public history, its discards and the señas it saw) and nothing else: the same decision
    gets the same figures whoever asks, in whatever language, during the hand or after it,
    alone or with the hand's other decisions. ``salt`` (``musbot repaso --semilla``) draws
    other worlds."""
    view = decision.view
    known = (seat, view.rules, view.cards, view.history, sorted(decision.discarded),
             decision.senas, 0 if salt is None else salt)
    return int.from_bytes(hashlib.blake2b(repr(known).encode(), digest_size=8).digest(), "big")


def review(decisions: Sequence[Decision], seat: int, *, seed: int | None = None,
           worlds: int = WORLDS, most: int | None = None, finished: bool = False) -> Review:
    """Each decision weighed from its own view, with its own sampling
    (:func:`decision_seed`): pure, and each decision's figures the same however it is asked
    (``seed`` draws other worlds, the same for the same seed). ``most``: worlds played out
    per decision at most (:data:`~musbot.coach.options.MOST` if None)."""
    out: list[DecisionReview] = []
    players = 4
    drawn_for: dict[tuple[Any, ...], IntArray] = {}
    memo: dict[Any, Any] = {}
    redraws_left = REVIEW_REDRAWS
    for d in decisions:
        view = d.view
        players = view.players
        if view.players != 4:
            continue  # «dificil» and the odds play four players only; said by the caller
        known = Knowledge(view, d.discarded, d.senas)
        # Words are no certainty (see .chances): decisions with the same certainties (the
        # lances before the declarations, a mus and its discard) share one draw of the worlds,
        # each decision weighing it by the words said before it. The draw is seeded by the
        # first of them, which comes before the others in any review that holds them.
        key = known.key()
        decision = decision_seed(d, seat, seed)
        drawn = weighed(known, generator(decision), drawn_for.get(key), worlds, memo,
                        min(REDRAWS, redraws_left))
        redraws_left -= drawn.redrawn
        drawn_for[key] = drawn.idx
        lance = view.lance if view.phase == "lance" else None
        odds = drawn.chances(FOURTH if lance is None else [lance])
        valued, choice = weigh(view, d.action, d.senas, random.Random(decision), d.discarded,
                               most=most)
        out.append(DecisionReview(view.phase, lance, view.cards, d.action, choice, odds,
                                  tuple(valued)))
    return Review(seat, tuple(out), players, finished)


# --- from a stored hand -----------------------------------------------------------------------


def decisions(transcript: Mapping[str, Any] | Transcript, seat: int,
              senas: Sequence[Sequence[SenaSeen]] | None = None,
              upto: int | None = None) -> tuple[list[Decision], bool]:
    """The seat's decisions in a docs/replay.md transcript (its first ``upto`` actions), and
    whether the hand was over by then. ``senas[i]``: what had reached the seat that spoke the
    ``i``-th action. The hand is played by the replay's own loop
    (:func:`musbot.replay.played`), so a transcript is refused exactly as ``musbot replay``
    refuses it (:class:`~musbot.replay.ReplayError`)."""
    from musbot.replay import ReplayError, played

    t = _transcript(transcript)
    if not 0 <= seat < len(t.hands):
        raise ReplayError("action_seat", None, last=len(t.hands) - 1, found=seat)
    out: list[Decision] = []
    thrown: set[Card] = set()

    def keep(i: int, who: int, action: Action, hand: Hand) -> None:
        if who != seat:
            return
        seen = tuple(senas[i]) if senas is not None and i < len(senas) else ()
        out.append(Decision(hand.view(seat), action, seen, frozenset(thrown)))
        if action.kind is ActionKind.DESCARTE:
            thrown.update(action.cards)

    return out, played(t, keep, upto).finished


def _transcript(transcript: Mapping[str, Any] | Transcript) -> Transcript:
    from musbot.replay import Transcript, read_transcript

    return transcript if isinstance(transcript, Transcript) else \
        read_transcript(dict(transcript))


def review_transcript(transcript: Mapping[str, Any] | Transcript, seat: int,
                      senas: Sequence[Sequence[SenaSeen]] | None = None, *,
                      upto: int | None = None, seed: int | None = None,
                      worlds: int = WORLDS, most: int | None = None) -> Review:
    """:func:`review` of the seat's decisions in a stored hand."""
    t = _transcript(transcript)
    found, finished = decisions(t, seat, senas, upto)
    result = review(found, seat, seed=seed, worlds=worlds, most=most, finished=finished)
    return Review(seat, result.decisions, len(t.hands), finished)


__all__ = ["ADVICE_MIN", "Decision", "DecisionReview", "Review", "decision_seed", "decisions",
           "review", "review_transcript"]
