"""How each player at a table bets, read from what the table showed: what «dificil» plays against.

A person at a Mus table learns the others from the showdowns: who bets only with the goods, who
bluffs, who folds to anything. A :class:`Reading` is that, for one player: every betting word the
player said in a hand that ended with the cards on the table, set against the *strength* of the
hand behind it — the pair's chance at the lance from the shipped odds tables (seat position and
declarations), as the player could judge it from their own cards. Words are counted per situation
(opening a lance, answering a bet, answering an órdago) and strength band, which gives a learnt
betting policy: how often this player passes, calls, raises or goes to órdago with what.

Órdagos are rare at every strength but the top, so a band's few hands tell little of how a
player throws them; the reading also pools, over the bands below the top, how many órdagos the
player threw against how many the prior expected of the words seen there (:meth:`Reading.rarity`):
a player seen passing and betting hand after hand without one throws one only with the goods,
one seen bluffing them throws them with anything.

Beside that table the reading keeps score of how well level «normal»'s rule foretold each word,
against how well the learnt table did before the word was counted (a prequential likelihood
ratio, :attr:`Reading.fit`): a player who plays like «normal» is best told by its exact rule,
which knows the score and the bets; anyone else by their own table. :class:`OpponentModel`, the
snapshot a decision reads, mixes the two by that score.

Only what the table made public is used (:meth:`~musbot.ai.memory.OpponentMemory.learn` takes
a spectator's view of the finished hand): the words, the declarations, and the hands shown at the
showdown. A hand that ended without one (a deje that won the game) teaches nothing about
anybody's cards.

:class:`~musbot.ai.memory.OpponentMemory` holds a table's readings by who sat there (a person's
id, a bot's seat), so what the bots learn of a person lasts across matches at the table; the
table layer stores a person's reading per server (``to_json``/``from_json``) and forgets it with
them.
"""

from __future__ import annotations

import itertools
import math
import operator
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from musbot.engine import ActionKind, Lance, SeatView, tables
from musbot.engine import events as ev

from . import normal
from .normal import bet_action, hand_worth, keep_values, sena_hints
from .odds import Odds, odds

__all__ = ["ANSWER", "DEFAULT_MODEL", "DISCARD_ODD", "NO_HINTS", "OPEN", "ORDAGO_ANSWER",
           "Judge", "OpponentModel", "Reading", "Word", "band", "discard_fit",
           "discarded", "hints", "situation", "spoken"]

_K = ActionKind
_BETS = (_K.ENVIDO, _K.MAS, _K.ORDAGO)
CATEGORY = {_K.PASO: 0, _K.NO_QUIERO: 0, _K.QUIERO: 1, _K.ENVIDO: 2, _K.MAS: 2, _K.ORDAGO: 3}
"""A betting word's category: pass or refuse, call, bet or raise, órdago."""
WORDS = 4
ORDAGO_WORD = 3

OPEN, ANSWER, ORDAGO_ANSWER = 0, 1, 2
"""Situations: no bet standing, a bet standing, an órdago standing."""
SITUATIONS = 3

BANDS = (0.3, 0.5, 0.65, 0.8, 0.9, 0.95, 0.98)
"""Upper edges of the strength bands (the last band runs to 1): finer where bets and órdagos
are decided — a player who goes to órdago only with the nuts must not seem to go with a hand
merely very good."""

PRIOR: tuple[tuple[tuple[float, ...], ...], ...] = (
    # opening: pass, —, bet, órdago
    ((0.93, 0, 0.068, 0.002), (0.85, 0, 0.148, 0.002), (0.6, 0, 0.397, 0.003),
     (0.35, 0, 0.646, 0.004), (0.2, 0, 0.792, 0.008), (0.15, 0, 0.82, 0.03),
     (0.12, 0, 0.73, 0.15), (0.1, 0, 0.6, 0.3)),
    # answering a bet: no quiero, quiero, raise, órdago
    ((0.8, 0.163, 0.035, 0.002), (0.6, 0.323, 0.075, 0.002), (0.4, 0.476, 0.12, 0.004),
     (0.25, 0.544, 0.2, 0.006), (0.15, 0.52, 0.32, 0.01), (0.1, 0.46, 0.4, 0.04),
     (0.07, 0.38, 0.4, 0.15), (0.05, 0.3, 0.35, 0.3)),
    # answering an órdago: no quiero, quiero
    ((0.98, 0.02, 0, 0), (0.97, 0.03, 0, 0), (0.94, 0.06, 0, 0), (0.88, 0.12, 0, 0),
     (0.7, 0.3, 0, 0), (0.4, 0.6, 0, 0), (0.25, 0.75, 0, 0), (0.1, 0.9, 0, 0)),
)
"""What anybody does, before a word of theirs is seen: roughly how people play, órdagos with
the goods (the learnt table starts here and moves away word by word)."""
PRIOR_WEIGHT = 2.0
"""The prior is worth this many words in each band."""
NEIGHBOUR = 0.25
"""A word also counts this much in the bands either side: strength is an estimate, and a
player's habits do not jump at a band's edge (but for a thrown órdago: who goes to órdago with
the goods must not seem to go with a little less)."""
NORMAL_MISS = 0.1
"""How often a player who plays by «normal»'s rule says something else all the same (its
bluffs, and what the rule cannot know: the partner's señas, the race to the target): that share
of the player's words is taken from the player's own table, so even a word the rule did not
foretell tells how strong its speaker is."""
PRIOR_FIT = 1.0
"""Log-odds that a player nobody has seen plays like «normal» (its rule knows the score)…"""
FIT_CAP = 12.0
"""…and the most the evidence may say either way, so a player who changes is followed."""
COUNT_CAP = 300.0
"""Words kept per situation: beyond, old ones fade (all counts scaled down)."""
MUS_PRIOR = (0.4, 4.0)
"""Mus or cut against «normal»'s rule: odd ones and words assumed before any is seen."""
MUS_FLOOR = 0.2
"""The least an odd mus word is worth against an expected one."""
DISCARD_ODD = 0.25
"""How likely a discard «normal» would not have made is, against one it would (see
:func:`discard_fit`): people keep cards «normal» would throw, but less often than not."""


ROWS = len(BANDS) + 1
"""Strength bands: one per upper edge, and the last."""
_CELLS = SITUATIONS * ROWS * WORDS
_COUNT = "f"
"""The counts' type: single precision, half a double's memory (a table keeps a reading per
person seated for as long as it lives); what is saved is rounded to three decimals anyway."""


def _at(sit: int, b: int, word: int) -> int:
    return (sit * ROWS + b) * WORDS + word


RARITY_PRIOR = 0.1
"""Órdagos below the top band a player is credited with, and expected of them, before any word
of theirs is seen (:meth:`Reading.rarity`)…"""
RARITY_CAP = 10.0
"""…and the most that scales the prior's órdago share either way."""
_RARITY_ROWS = tuple((_at(sit, b, 0), PRIOR[sit][b][ORDAGO_WORD])
                     for sit in (OPEN, ANSWER) for b in range(len(BANDS)))
"""Where :meth:`Reading.rarity` looks: each band below the top of the situations with an órdago
to throw, and the prior's órdago share there."""
_RARITY_SHARE = dict(_RARITY_ROWS)


def band(p: float) -> int:
    for i, edge in enumerate(BANDS):
        if p < edge:
            return i
    return len(BANDS)


def situation(bet: int, ordago: bool) -> int:
    return ORDAGO_ANSWER if ordago else ANSWER if bet else OPEN


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """What a decision needs of one player, frozen (a decision may run in another thread):
    the weight of «normal»'s rule, the learnt table ``[situation][band][category]``, and how
    likely a mus word «normal» would not have said is."""

    normal: float
    table: tuple[tuple[tuple[float, ...], ...], ...]
    mus_odd: float

    def chance(self, sit: int, strength: float, said: int, expected: int) -> float:
        """How likely the word ``said`` was, «normal» expecting ``expected``: the mixture of
        both models, «normal»'s rule missing :data:`NORMAL_MISS` of its words."""
        table = self.table[sit][band(strength)][said]
        if said != expected:
            return (1.0 - self.normal * (1.0 - NORMAL_MISS)) * table
        return self.normal * (1.0 - NORMAL_MISS) + (1.0 - self.normal * (1.0 - NORMAL_MISS)) * table


class Reading:
    """What the showdowns told of one player's betting (see the module's docstring)."""

    __slots__ = ("_cells", "_rarity", "counts", "fit", "mus_odd", "mus_seen", "words")

    def __init__(self, *, sparse: bool = False) -> None:
        self._cells: set[int] | None = set() if sparse else None
        """The cells counted in, when few are (``sparse``: one hand's words): all that
        :meth:`merge` adds of this reading. None: any cell may hold a count."""
        self._rarity: float | None = None
        """:meth:`rarity` as the counts are now (None: changed since): asked at every word
        learnt, each of which changes the counts of one situation only."""
        self.counts = array(_COUNT, [0.0]) * _CELLS
        """Words seen, each spread over its neighbours, at ``_at(situation, band, category)``:
        one flat array rather than nested lists, as a table keeps several readings per seat for
        as long as it lives and lists would be as many objects for the garbage collector."""
        self.fit = 0.0
        """Log-likelihood of the words seen under «normal»'s rule minus under the learnt table
        (each word scored before it was counted)."""
        self.mus_odd = 0.0
        self.mus_seen = 0.0
        self.words = 0
        """Betting words learnt from, in all."""

    def count(self, sit: int, b: int, word: int) -> float:
        return self.counts[_at(sit, b, word)]

    # --- learning -----------------------------------------------------------------------------

    def predict(self, sit: int, b: int, rarity: float | None = None) -> list[float]:
        """The learnt share of each word in this situation and band; ``rarity``: the
        :meth:`rarity` of this player's órdagos (computed if None)."""
        return [self.share(sit, b, w, rarity) for w in range(WORDS)]

    def share(self, sit: int, b: int, word: int, rarity: float | None = None) -> float:
        """:meth:`predict`'s share of one word (learning scores the word said alone)."""
        start = _at(sit, b, 0)
        counts = self.counts
        prior = PRIOR[sit][b]
        p = prior[word]
        if sit != ORDAGO_ANSWER and b < len(BANDS):
            scale = self.rarity() if rarity is None else rarity
            ordago = prior[ORDAGO_WORD] * scale
            p = ordago if word == ORDAGO_WORD else \
                p * ((1.0 - ordago) / (1.0 - prior[ORDAGO_WORD]))
        total = sum(counts[start:start + WORDS]) + PRIOR_WEIGHT
        return (counts[start + word] + PRIOR_WEIGHT * p) / total

    def rarity(self) -> float:
        """How often this player goes to órdago below the top band, against what
        :data:`PRIOR` expects of the words seen there, pooled over the bands: the few hands of
        one band teach little of it, but a player seen passing and betting a hundred times
        without an órdago goes to órdago only with the goods, and one seen bluffing órdagos
        throws them with anything. Scales the prior's órdago share in those bands."""
        if self._rarity is not None:
            return self._rarity
        seen = expected = 0.0
        counts = self.counts
        rows = _RARITY_ROWS if self._cells is None else sorted(
            (start, _RARITY_SHARE[start]) for start in {c - c % WORDS for c in self._cells}
            if start in _RARITY_SHARE)  # a row never counted in adds 0.0 to both sums
        for start, ordago_share in rows:
            seen += counts[start + ORDAGO_WORD]
            expected += sum(counts[start:start + WORDS]) * ordago_share
        self._rarity = min(RARITY_CAP, max(1.0 / RARITY_CAP,
                                           (seen + RARITY_PRIOR) / (expected + RARITY_PRIOR)))
        return self._rarity

    def observe(self, sit: int, strength: float, said: int, expected: int) -> None:
        """One word, said with a hand of this strength where «normal» would have said
        ``expected``."""
        b = band(strength)
        table = max(self.share(sit, b, said), 1e-6)
        rule = NORMAL_MISS * table + (1.0 - NORMAL_MISS if said == expected else 0.0)
        self.fit = max(-FIT_CAP, min(FIT_CAP, self.fit + math.log(rule / table)))
        counts = self.counts
        if sit in (OPEN, ANSWER):
            self._rarity = None
        cells = self._cells
        counts[_at(sit, b, said)] += 1.0
        if cells is not None:
            cells.add(_at(sit, b, said))
        if said != ORDAGO_WORD:  # an órdago says exactly how strong its thrower is
            for near in (b - 1, b + 1):
                if 0 <= near < ROWS:
                    counts[_at(sit, near, said)] += NEIGHBOUR
                    if cells is not None:
                        cells.add(_at(sit, near, said))
        self._fade(sit)
        self.words += 1

    def _fade(self, sit: int) -> None:
        """Past :data:`COUNT_CAP` words in the situation, scales it whole (the reading then
        reads every cell). Its callers, which changed the counts, forget :meth:`rarity`."""
        counts = self.counts
        start, end = _at(sit, 0, 0), _at(sit + 1, 0, 0)
        total = sum(counts[start:end])
        if total > COUNT_CAP:
            scale = COUNT_CAP / total
            for i in range(start, end):
                counts[i] *= scale
            self._cells = None

    def observe_mus(self, odd: bool) -> None:
        self.mus_odd += odd
        self.mus_seen += 1.0

    def merge(self, other: Reading) -> None:
        """Adds what ``other`` learnt (the stored reading and what this table learnt since)."""
        cells = other._cells
        if cells is None:
            self.counts = array(_COUNT, map(operator.add, self.counts, other.counts))
        else:  # a cell ``other`` never counted in adds 0.0: the same sums, a few of them
            counts, theirs = self.counts, other.counts
            for i in cells:
                counts[i] += theirs[i]
        if self._cells is not None:
            self._cells = None if cells is None else self._cells | cells
        self._rarity = None
        for sit in range(SITUATIONS):  # what a table learnt fades the old as observe does
            self._fade(sit)
        self.fit = max(-FIT_CAP, min(FIT_CAP, self.fit + other.fit))
        self.mus_odd += other.mus_odd
        self.mus_seen += other.mus_seen
        self.words += other.words

    # --- using it -----------------------------------------------------------------------------

    def model(self) -> OpponentModel:
        normal_weight = 1.0 / (1.0 + math.exp(-(self.fit + PRIOR_FIT)))
        rarity = self.rarity()
        table = tuple(tuple(tuple(self.predict(sit, b, rarity)) for b in range(ROWS))
                      for sit in range(SITUATIONS))
        odd, weight = MUS_PRIOR
        mus = (self.mus_odd + odd) / (self.mus_seen + weight)
        return OpponentModel(normal_weight, table, max(MUS_FLOOR, mus / max(1e-6, 1.0 - mus)))

    # --- storage ------------------------------------------------------------------------------

    VERSION = 1

    def to_json(self) -> dict[str, Any]:
        flat = [round(x * 1000.0) / 1000.0 for x in self.counts]  # round(x, 3) without decimals
        rows = [flat[i:i + WORDS] for i in range(0, _CELLS, WORDS)]
        return {"v": self.VERSION, "counts": [rows[i:i + ROWS] for i in range(0, len(rows), ROWS)],
                "fit": round(self.fit, 4), "mus": [round(self.mus_odd, 3),
                                                   round(self.mus_seen, 3)],
                "words": self.words}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reading:
        """The reading :meth:`to_json` wrote. Raises ``ValueError`` on anything else (another
        version, a damaged document): the caller starts afresh rather than guess."""
        reading = cls()
        try:
            if data["v"] != cls.VERSION:
                raise ValueError(f"unknown reading version {data['v']!r}")
            counts = [[[float(x) for x in row] for row in sit] for sit in data["counts"]]
            if len(counts) != SITUATIONS or any(
                    len(sit) != ROWS or any(len(row) != WORDS for row in sit)
                    for sit in counts):
                raise ValueError("reading counts of the wrong shape")
            if any(x < 0 or not math.isfinite(x) for sit in counts for row in sit for x in row):
                raise ValueError("reading counts must be finite and not negative")
            fit = float(data["fit"])
            mus_odd, mus_seen = (float(x) for x in data["mus"])
            words = int(data["words"])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"damaged reading: {exc!r}") from exc
        if not (math.isfinite(fit) and 0 <= mus_odd <= mus_seen and math.isfinite(mus_seen)
                and words >= 0):
            raise ValueError("damaged reading")
        reading.counts = array(_COUNT, (x for sit in counts for row in sit for x in row))
        reading.fit = max(-FIT_CAP, min(FIT_CAP, fit))
        reading.mus_odd, reading.mus_seen, reading.words = mus_odd, mus_seen, words
        return reading


DEFAULT_MODEL = Reading().model()
"""A player nobody has seen yet."""


# --- the words of a hand ------------------------------------------------------------------------


class Word(NamedTuple):
    """A betting word and what the table knew when it was said."""

    seat: int
    lance: Lance
    bet: int
    """The standing bet it answered (0: none)."""
    prev: int
    """What a refusal paid then."""
    ordago: bool
    opp_bets: int
    """Bets the speaker's opponents had made at this lance."""
    mine: int
    theirs: int
    """The score, the speaker's pair first."""
    last: bool
    """Nobody of the speaker's pair speaks after them at this lance."""
    said: int
    """Its :data:`CATEGORY`."""


def spoken(view: SeatView) -> tuple[list[Word], list[tuple[int, bool]], int]:
    """The hand's betting words in order, the last mus round's words (seat, mus) and how many
    discard rounds there were, from the public history alone."""
    words: list[Word] = []
    mus_round: list[tuple[int, bool]] = []
    scores = [0, 0]
    lance: Lance | None = None
    bet = prev = 0
    ordago = False
    bets = [0, 0]
    rounds = 0
    team = view.rules.team
    last_of_pair: dict[int, bool] = {}
    for event in view.history:  # the commonest events tested first: read at each showdown
        if isinstance(event, ev.Spoke):
            if lance is None:
                continue
            s = event.seat
            mine = team(s)
            word = event.action.kind
            words.append(Word(s, lance, bet, max(prev, 1), ordago, bets[1 - mine], scores[mine],
                              scores[1 - mine], last_of_pair.get(s, True), CATEGORY[word]))
            if word in _BETS:
                prev = bet if bet or ordago else 1
                if word is _K.ORDAGO:
                    ordago = True
                else:
                    bet = event.total
                bets[mine] += 1
        elif isinstance(event, ev.MusSaid):
            mus_round.append((event.seat, event.mus))
        elif isinstance(event, ev.LanceStarted):
            lance = event.lance
            speakers = event.speakers
            last_of_pair = {x: not any(team(y) == team(x) for y in speakers[i + 1:])
                            for i, x in enumerate(speakers)}
            bet = prev = 0
            ordago = False
            bets = [0, 0]
        elif isinstance(event, (ev.Scored, ev.HandStarted)):
            scores = list(event.scores)
        elif isinstance(event, ev.CardsReplaced):
            mus_round = []
            rounds += 1
    return words, mus_round, rounds


def discarded(view: SeatView) -> dict[int, int]:
    """Per seat, how many cards it threw away last (this round's discard if it has made it,
    else the last round's): the count that tells of the cards it holds now. Earlier rounds'
    counts tell of hands since thrown away."""
    out: dict[int, int] = {}
    for event in view.history:
        if isinstance(event, ev.Discarded):
            out[event.seat] = event.cards
    return out


@cache
def discard_fit(reyes: int, pos: int, count: int) -> tuple[float, ...]:
    """Per hand index, how likely a player at ``pos`` (0: mano) who threw ``count`` cards away
    holds it, next to a hand that fits the count best: 1 when the hand holds ``4 - count``
    cards that «normal»'s discard would keep together (their value after the draw beats that of
    every part of them, :func:`~musbot.ai.normal.keep_values`), else :data:`DISCARD_ODD`. A
    player who threw one card away kept three worth keeping: a trio, a pair and a king…; one
    who threw four kept nothing, and any hand fits."""
    t = tables(reyes, False)
    values = keep_values(reyes, pos)
    keep = 4 - count

    def made(kept: tuple[int, ...]) -> bool:
        v = values.get(kept, 0.0)
        return all(values.get(tuple(sorted(part, reverse=True)), 0.0) <= v
                   for k in range(len(kept)) for part in itertools.combinations(kept, k))

    out = []
    for info in t.infos:
        classes = sorted(info.classes, reverse=True)
        fits = keep <= 0 or any(made(tuple(sorted(c, reverse=True)))
                                for c in set(itertools.combinations(classes, keep)))
        out.append(1.0 if fits else DISCARD_ODD)
    return tuple(out)


class Judge:
    """Strengths and «normal»'s words for given hands (indices into the odds tables) in one
    hand's public situation: what learning and «dificil»'s worlds both weigh words with."""

    def __init__(self, view: SeatView) -> None:
        self.o: Odds = odds(view.rules.reyes)
        self.hints = hints(view)
        self.mano = view.mano
        self.target = view.target
        self.decl = view.declarations

    def strength(self, idx: Sequence[int], w: Word) -> float:
        """The speaker's own chance at the lance, as the odds tables give it."""
        mask = None
        if w.lance is Lance.PARES or w.lance is Lance.JUEGO:
            d = self.decl.get(w.lance)
            if d is not None:
                s = w.seat
                mask = sum(1 << (r - 1) for r in range(1, 4) if d[(s + r) % 4])
        return self.o.lance(w.lance, idx[w.seat], (w.seat - self.mano) % 4, mask)

    def expected(self, idx: Sequence[int], w: Word, strength: float, *,
                 hinted: bool = True) -> int:
        """The category «normal» would have said (its partner's seña as a bot sends it, unless
        not ``hinted``)."""
        p = max(strength, self.hints[w.lance][idx[(w.seat + 2) % 4]]) if hinted else strength
        return self.expected_at(w, p)

    def expected_at(self, w: Word, p: float) -> int:
        """The category «normal» would have said with chance ``p`` at the lance."""
        a = bet_action(w.lance, p, w.bet, w.prev, w.ordago, w.opp_bets, w.mine, w.theirs,
                       self.target, None, last=w.last)
        return CATEGORY[a.kind]

    def wants_mus(self, idx: Sequence[int], seat: int, rounds: int) -> bool:
        cut = normal.CUT - 0.1 * rounds
        return hand_worth(self.o, idx[seat], (seat - self.mano) % 4) < cut


NO_HINTS: tuple[tuple[float, ...], ...] = tuple((0.0,) * 715 for _ in Lance)
"""No seña says anything (señas off, a corrido hand)."""


def hints(view: SeatView) -> tuple[tuple[float, ...], ...]:
    """``[lance][partner's hand index]``: what a partner's seña tells, as the players see it
    (the seña a bot would send with those cards); nothing when señas are off or in a corrido
    hand."""
    rules = view.rules
    if not rules.senas or view.corrido:
        return NO_HINTS
    return sena_hints(rules.reyes, rules.real)
