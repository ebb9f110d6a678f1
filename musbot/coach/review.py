"""A seat's decisions in one hand, each reviewed with only what the seat knew when it spoke.

:func:`decisions` replays a stored hand (docs/replay.md's transcript) on the engine and keeps, for
each word of the seat, the seat's own view just before it (:meth:`~musbot.engine.Hand.view`) and
the señas that had reached it. :func:`review` reads those alone: it cannot see another hand, so a
review asked in the middle of a hand tells nothing the seat could not see.
"""

from __future__ import annotations

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
from .options import ROLLOUT_BUDGET, ROLLOUT_MIN, ROLLOUT_WORLDS, Option, candidates, weigh

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
    """What «dificil» would have said."""
    chances: Chances
    options: tuple[Option, ...] = ()
    """Every word weighed, the player's among them: at a betting turn «dificil»'s candidates;
    at a mus turn mus and no hay mus; at a discard the player's and «dificil»'s."""

    @property
    def best(self) -> Option | None:
        """The word worth the most tantos among those a player should weigh: an órdago only if
        it was said or «dificil» would say it (see :attr:`Option.risky`)."""
        fair = [o for o in self.options if not o.risky or o.action in (self.played, self.bot)]
        return max(fair, key=lambda o: o.tantos) if fair else None

    @property
    def played_option(self) -> Option | None:
        return next((o for o in self.options if o.action == self.played), None)

    @property
    def cost(self) -> float:
        """Expected tantos lost against the best word weighed."""
        best, mine = self.best, self.played_option
        return max(0.0, best.tantos - mine.tantos) if best and mine else 0.0


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


def review(decisions: Sequence[Decision], seat: int, *, seed: int | None = None,
           worlds: int = WORLDS, rollout_worlds: int = ROLLOUT_WORLDS,
           finished: bool = False) -> Review:
    """Each decision weighed from its own view: pure, and the same for the same seed."""
    rng = random.Random(seed)
    np_rng = generator(seed)
    words = sum(len(candidates(d.view, d.action)) if d.view.phase == "lance" else 2
                for d in decisions if d.view.players == 4)
    per_decision = max(ROLLOUT_MIN, min(rollout_worlds, ROLLOUT_BUDGET // max(words, 1)))
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
        # each decision weighing it by the words said before it.
        key = known.key()
        drawn = weighed(known, np_rng, drawn_for.get(key), worlds, memo,
                        min(REDRAWS, redraws_left))
        redraws_left -= drawn.redrawn
        drawn_for[key] = drawn.idx
        lance = view.lance if view.phase == "lance" else None
        odds = drawn.chances(FOURTH if lance is None else [lance])
        valued, choice = weigh(view, d.action, d.senas, rng, per_decision, d.discarded)
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
                      worlds: int = WORLDS, rollout_worlds: int = ROLLOUT_WORLDS) -> Review:
    """:func:`review` of the seat's decisions in a stored hand."""
    t = _transcript(transcript)
    found, finished = decisions(t, seat, senas, upto)
    result = review(found, seat, seed=seed, worlds=worlds, rollout_worlds=rollout_worlds,
                    finished=finished)
    return Review(seat, result.decisions, len(t.hands), finished)


__all__ = ["ADVICE_MIN", "Decision", "DecisionReview", "Review", "decisions", "review",
           "review_transcript"]
