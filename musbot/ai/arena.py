"""Bots against bots, one full game at a time, for ``musbot bench ai``.

A game is fully determined by ``(seed, index)``: the decks, the bots' rng and which pair sits
where all derive from it, so the figures are the same whatever the number of worker processes.
Games are played in duplicate: games ``2k`` and ``2k + 1`` deal the same decks, hand by hand,
from the same first mano, with the pairs' seats swapped, so each level holds in one the cards the
other held in the other and the luck of the deal largely cancels out (the decks stay the same
until the mus of one game draws more cards than the other's; a reshuffle then differs).
Bots get exactly what a table gives them — the seat's view and the señas that reached the seat
(delivered as :class:`musbot.table.Table` does, caught by an opponent at the rules' rate), after
each hand the seat's view of it, showdown included, for bots that learn (``hand_over``), and for
bots that read the table the models its :class:`~musbot.ai.memory.OpponentMemory` learnt from
the hands as a spectator saw them (a game is a match at a new table: it starts empty).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from musbot.engine import DECK, Hand, Match, Rules
from musbot.engine import events as ev
from musbot.engine.cards import Card
from musbot.engine.errors import IllegalAction
from musbot.engine.senas import SenaLog, check_sena, senas_open

from . import LEVELS
from .base import Player, SenaSeen, ask, hand_over
from .family import family_levels, member, member_key
from .memory import OpponentMemory
from .randombot import RandomBot
from .reading import spoken
from .styles import STYLES

MAX_ACTIONS = 50_000


def bench_levels() -> dict[str, Callable[[], Player]]:
    """The table's levels, «random» (a benchmark floor), the opponent styles of
    :mod:`musbot.ai.styles` and the families of :mod:`musbot.ai.family`: none of these last
    ones is offered at tables."""
    return {**LEVELS, "random": RandomBot, **STYLES, **family_levels()}


def seat_player(level: str, seed: int, index: int, seat: int, rules: Rules) -> Player:
    """The player of ``level`` at ``seat`` in game ``index``: a family seats the member the
    game's seed and duplicate draw (:func:`~musbot.ai.family.member_key`), any other level
    its one kind of player."""
    if level.startswith("family:"):
        return member(level.removeprefix("family:"),
                      member_key(seed, index, seat, rules.team))
    return bench_levels()[level]()


class DuplicateShuffler:
    """Deck ``n`` of a game depends only on the duplicate's key and ``n``, so both games of a
    duplicate deal the same hands; reshuffles (fewer than 40 cards) come from their own
    sequence."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.decks = 0
        self.reshuffles = random.Random(f"{key}:reshuffles")

    def __call__(self, cards: Sequence[Card]) -> list[Card]:
        if len(cards) != len(DECK):
            return self.reshuffles.sample(list(cards), len(cards))
        rng = random.Random(f"{self.key}:deck:{self.decks}")
        self.decks += 1
        return rng.sample(list(cards), len(cards))


@dataclass
class OrdagoTally:
    """One pair's órdagos in a game: thrown, accepted by the other pair (``forced``: when
    refusing would have handed the thrower the game), won by the thrower (``won_forced``: of
    the forced ones)."""

    called: int = 0
    accepted: int = 0
    won: int = 0
    forced: int = 0
    won_forced: int = 0

    def add(self, other: OrdagoTally) -> None:
        self.called += other.called
        self.accepted += other.accepted
        self.won += other.won
        self.forced += other.forced
        self.won_forced += other.won_forced


@dataclass
class GameResult:
    index: int
    a_won: bool
    diff: int
    """A's tantos minus B's at the end of the game (an accepted órdago ends it where it was)."""
    hands: int
    times_a: list[float] = field(default_factory=list)
    """CPU seconds of each decision of level A."""
    times_b: list[float] = field(default_factory=list)
    bets_a: int = 0
    """Bets and raises by level A's bots that keep count (``stats``), and how many were bluffs."""
    bluffs_a: int = 0
    ordagos_a: OrdagoTally = field(default_factory=OrdagoTally)
    """Level A's órdagos (accepted by B, won by A) and level B's (accepted by A, won by B)."""
    ordagos_b: OrdagoTally = field(default_factory=OrdagoTally)


def play_game(level_a: str, level_b: str, seed: int, index: int,
              rules: Rules | None = None, memory: OpponentMemory | None = None) -> GameResult:
    """One game to the target: pair A against pair B. Odd games swap the pairs' seats over the
    decks of the even game before them (a duplicate), and the first mano turns round every two
    games. ``memory``: the table's, to read afterwards (seats are ``"seat:N"``); a new one
    otherwise."""
    rules = rules or Rules(juegos=1, vacas=1)
    team_a = index % 2
    first_mano = (index // 2) % rules.jugadores
    players = [seat_player(level_a if rules.team(s) == team_a else level_b, seed, index, s, rules)
               for s in range(rules.jugadores)]
    rng = random.Random(f"{seed}:{index}:bots")
    sena_rng = random.Random(f"{seed}:{index}:senas")
    match = Match(rules, first_mano=first_mano,
                  shuffler=DuplicateShuffler(f"{seed}:{index // 2}"))
    received: list[list[SenaSeen]] = [[] for _ in range(rules.jugadores)]
    result = GameResult(index, False, 0, 1)
    events: list[ev.Event] = list(match.hand.events)
    memory = memory if memory is not None else OpponentMemory()
    who = [f"seat:{s}" for s in range(rules.jugadores)]
    clock = time.thread_time
    for _ in range(MAX_ACTIONS):
        if any(isinstance(e, (ev.HandStarted, ev.CardsReplaced)) for e in events):
            received = _senas(match, players, rules, sena_rng)
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        start = clock()
        action = ask(players[seat], view, rng, tuple(received[seat]), memory.models(who))
        spent = clock() - start
        (result.times_a if rules.team(seat) == team_a else result.times_b).append(spent)
        if not match.hand.is_legal(seat, action):
            raise AssertionError(f"{players[seat].level} played illegal {action} "
                                 f"(legal {view.legal})")
        number = match.hand_number
        hand = match.hand
        events = match.apply(seat, action)
        if hand.finished:  # bots that learn see their seat's view of it (base.hand_over)
            for s, player in enumerate(players):
                hand_over(player, hand, s, number)
            memory.learn(hand.view(-1), who)
            _count_ordagos(hand, rules, team_a, result)
        if match.finished:
            scores = match.hand.scores
            result.a_won = match.winner == team_a
            result.diff = scores[team_a] - scores[1 - team_a]
            for seat in rules.team_seats(team_a):
                stats = getattr(players[seat], "stats", None)
                if stats:
                    result.bets_a += stats["bets"]
                    result.bluffs_a += stats["bluffs"]
            return result
        if match.hand_number != number:
            result.hands += 1
    raise AssertionError("a game of bots should end")


def _count_ordagos(hand: Hand, rules: Rules, team_a: int, result: GameResult) -> None:
    # The accepting words in order, each with whether a refusal would have ended the game.
    forced = [w.theirs + w.prev >= rules.puntos for w in spoken(hand.view(-1))[0]
              if w.ordago and w.said == 1]
    for ordago in hand.ordagos():
        team = rules.team(ordago.caller)
        tally = result.ordagos_a if team == team_a else result.ordagos_b
        tally.called += 1
        if ordago.accepter is not None:
            won = ordago.winner == team
            tally.accepted += 1
            tally.won += won
            if forced.pop(0):
                tally.forced += 1
                tally.won_forced += won


def _senas(match: Match, players: list[Player], rules: Rules,
           rng: random.Random) -> list[list[SenaSeen]]:
    """New cards: every bot may send señas, through the same engine rules as a table (§7)."""
    log = SenaLog()
    hand = match.hand
    if match.finished or not senas_open(rules, hand.corrido):
        return [[] for _ in range(rules.jugadores)]
    for seat in range(rules.jugadores):
        view = match.view(seat)
        for sena in players[seat].choose_senas(view, rng):
            try:
                check_sena(rules, corrido=hand.corrido, finished=hand.finished, cards=view.cards,
                           sena=sena, sent=log.sent_by(seat))
            except IllegalAction:
                continue
            log.send(rules, seat, sena, rng)
    return [log.seen_by(seat) for seat in range(rules.jugadores)]


def _run(args: tuple[str, str, int, int]) -> GameResult:
    return play_game(*args)


def _ignore_interrupts() -> None:
    """A worker's start: Ctrl-C is the parent's to answer (leaving the pool terminates the
    workers); a worker that took it printed a traceback of its own, one per worker."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_games(level_a: str, level_b: str, games: int, seed: int,
               workers: int = 1) -> Iterator[GameResult]:
    """Results in game order, from ``workers`` processes (same results for any count)."""
    jobs = [(level_a, level_b, seed, i) for i in range(games)]
    if workers <= 1:
        yield from map(_run, jobs)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_ignore_interrupts) as pool:  # terminated on Ctrl-C
        yield from pool.imap(_run, jobs, chunksize=1)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion: honest near 0 and 1, unlike p ± 2σ."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 100])."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]
