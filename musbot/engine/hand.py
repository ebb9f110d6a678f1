"""One hand of Mus, from the deal to the tanteo (RULES.md §2–§5), as a pure state machine.

Only :meth:`Hand.apply` changes it. Everything public is appended to :attr:`Hand.events`; what one
seat may know is :meth:`Hand.view`. There is no I/O and no clock here: the deck and any reshuffle
come from the caller, so a hand is fully described by its deal and its actions (see
:meth:`Hand.transcript`), which is what replay and persistence rely on.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from . import events as ev
from .actions import (
    ENVIDO,
    MIN_ENVITE,
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    descarte,
    mas,
)
from .cards import DECK, Card, Shuffler, card_code, secure_shuffle
from .errors import IllegalAction, InvalidDeal, NotYourTurn
from .evaluation import Lance, Tables, best_seat, tables
from .rules import Rules
from .view import SeatView


class Phase(enum.Enum):
    MUS = "mus"
    DESCARTE = "descarte"
    LANCE = "lance"
    TERMINADA = "terminada"


class LanceResult(NamedTuple):
    """How a lance closed. ``outcome``: 'nadie' (nobody holds pares/juego), 'sin_apuesta' (only
    one team holds them), 'paso', 'querido', 'deje', 'ordago'."""

    outcome: str
    team: int | None
    tantos: int


_K = ActionKind
_MUS_ACTIONS = (MUS, NO_HAY_MUS)
_OPENING = (PASO, ENVIDO, ORDAGO)
_ANSWERS = (QUIERO, NO_QUIERO, mas(MIN_ENVITE), ORDAGO)
_ANSWERS_ORDAGO = (QUIERO, NO_QUIERO)
_BETTING_KINDS = frozenset({_K.PASO, _K.ENVIDO, _K.MAS, _K.ORDAGO, _K.QUIERO, _K.NO_QUIERO})
_LANCE_ORDER = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO)


class Hand:
    """A hand in progress. Seats are 0..n-1 in playing order; team of a seat is ``seat % 2``."""

    __slots__ = (
        "rules", "n", "tables", "mano", "corrido", "target", "scores", "hands", "idx", "deck",
        "pos", "pile", "phase", "to_act", "lance", "results", "events", "ledger", "actions",
        "game_winner", "dealt", "initial_deck", "initial_scores", "initial_mano", "reshuffles",
        "_given_reshuffles", "_reshuffler", "_start", "_count", "_round_discards",
        "_discard_rounds", "_eligible", "_speakers", "_queue", "_qpos", "_bet", "_prev",
        "_bettor", "_ordago", "_eliminated", "_declarations", "_revealed",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Card]],
        deck: Sequence[Card] = (),
        *,
        mano: int = 0,
        scores: Sequence[int] = (0, 0),
        corrido: bool = False,
        reshuffler: Shuffler | None = None,
        reshuffles: Sequence[Sequence[Card]] | None = None,
        validate: bool = True,
    ) -> None:
        n = len(hands)
        if validate:
            _validate_deal(rules, hands, deck, mano)
        self.rules = rules
        self.n = n
        self.tables: Tables = tables(rules.reyes, rules.real)
        self.mano = mano
        self.initial_mano = mano
        self.corrido = corrido
        self.target = rules.puntos
        self.scores = [int(scores[0]), int(scores[1])]
        self.initial_scores = (self.scores[0], self.scores[1])
        self.hands = [list(h) for h in hands]
        self.dealt = tuple(tuple(h) for h in hands)
        index = self.tables.index
        self.idx = [index(h) for h in self.hands]
        self.deck = list(deck)
        self.initial_deck = tuple(deck)
        self.pos = 0
        self.pile: list[Card] = []
        self.reshuffles: list[list[Card]] = []
        self._given_reshuffles = [list(r) for r in reshuffles] if reshuffles is not None else None
        self._reshuffler = reshuffler or secure_shuffle
        self.results: list[LanceResult | None] = [None] * 5
        self.events: list[ev.Event] = []
        self.ledger: list[ev.Scored] = []
        self.actions: list[tuple[int, Action]] = []
        self.game_winner: int | None = None
        self._discard_rounds: list[tuple[int, ...]] = []
        self._declarations: dict[Lance, tuple[bool, ...]] = {}
        self._revealed = False
        self._eligible: list[bool] = [True] * n
        self._speakers: tuple[int, ...] = ()
        self._eliminated: list[bool] = [False] * n
        self._queue: list[int] = []
        self._qpos = 0
        self._bet = 0
        self._prev = 0
        self._bettor = -1
        self._ordago = False
        self.lance: Lance | None = None
        self.events.append(ev.HandStarted(mano, (self.scores[0], self.scores[1]), corrido))
        self._start_mus_round(mano)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        deck: Sequence[Card] | None = None,
        *,
        mano: int = 0,
        scores: Sequence[int] = (0, 0),
        corrido: bool = False,
        shuffler: Shuffler = secure_shuffle,
    ) -> Hand:
        """Deals four cards to each seat, one at a time from the mano (§2)."""
        n = rules.jugadores
        cards = list(deck) if deck is not None else shuffler(DECK)
        if deck is not None:
            _validate_cards(cards)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for k in range(4 * n):
            hands[(mano + k) % n].append(cards[k])
        return cls(rules, hands, cards[4 * n:], mano=mano, scores=scores, corrido=corrido,
                   reshuffler=shuffler, validate=False)

    # --- what anyone may ask ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is Phase.TERMINADA

    @property
    def postre(self) -> int:
        return (self.mano - 1) % self.n

    @property
    def standing_bet(self) -> int:
        """The standing total of the current lance, 0 if none (see :attr:`ordago_standing`)."""
        return self._bet

    @property
    def ordago_standing(self) -> bool:
        return self._ordago

    @property
    def bettor(self) -> int | None:
        return self._bettor if self._bet or self._ordago else None

    def team(self, seat: int) -> int:
        return seat % 2

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Concrete legal actions. ``envido`` and ``más`` stand for any amount ≥ 2."""
        if seat != self.to_act:
            return ()
        phase = self.phase
        if phase is Phase.LANCE:
            if self._ordago:
                return _ANSWERS_ORDAGO
            return _ANSWERS if self._bet else _OPENING
        if phase is Phase.MUS:
            return _MUS_ACTIONS
        if phase is Phase.DESCARTE:
            hand = self.hands[seat]
            return tuple(
                descarte(*combo)
                for k in range(1, len(hand) + 1)
                for combo in itertools.combinations(hand, k)
            )
        return ()

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self._check(seat, action)
        except IllegalAction:
            return False
        return True

    # --- the only way to change a hand --------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Applies one action of ``seat``; raises :class:`IllegalAction` and changes nothing if the
        rules do not allow it now."""
        self._check(seat, action)
        self.actions.append((seat, action))
        phase = self.phase
        if phase is Phase.LANCE:
            self._bet_action(seat, action)
        elif phase is Phase.MUS:
            self._mus_action(seat, action)
        else:
            self._discard_action(seat, action)

    def _check(self, seat: int, action: Action) -> None:
        phase = self.phase
        if phase is Phase.TERMINADA:
            raise IllegalAction("hand_over")
        if not 0 <= seat < self.n:
            raise IllegalAction("no_such_seat", seat=seat)
        if seat != self.to_act:
            if phase is Phase.LANCE and not self._eligible[seat]:
                raise IllegalAction(
                    "pares_only" if self.lance is Lance.PARES else "juego_only", seat=seat
                )
            raise NotYourTurn(seat, self.to_act)
        kind = action.kind
        if phase is Phase.LANCE:
            if kind not in _BETTING_KINDS:
                raise IllegalAction("betting_now", lance=self.lance)
            if kind is _K.ENVIDO or kind is _K.MAS:
                if action.amount < MIN_ENVITE:
                    raise IllegalAction("min_bet", amount=action.amount)
                if self._ordago:
                    raise IllegalAction("ordago_no_raise")
                if kind is _K.MAS and not self._bet:
                    raise IllegalAction("no_bet_to_raise")
            elif kind is _K.ORDAGO:
                if self._ordago:
                    raise IllegalAction("ordago_no_raise")
            elif kind is _K.QUIERO or kind is _K.NO_QUIERO:
                if not self._bet and not self._ordago:
                    raise IllegalAction("no_bet_to_answer")
        elif phase is Phase.MUS:
            if kind is not _K.MUS and kind is not _K.NO_HAY_MUS:
                raise IllegalAction("mus_now")
        else:
            if kind is not _K.DESCARTE:
                raise IllegalAction("discard_now")
            cards = action.cards
            if not cards:
                raise IllegalAction("discard_none")
            if len(set(cards)) != len(cards):
                raise IllegalAction("discard_repeated")
            hand = self.hands[seat]
            for c in cards:
                if c not in hand:
                    raise IllegalAction("discard_not_held", card=card_code(c))

    # --- mus and discards (§2) ----------------------------------------------------------------

    def _start_mus_round(self, start: int) -> None:
        self.phase = Phase.MUS
        self._start = start
        self._count = 0
        self.to_act: int | None = start

    def _mus_action(self, seat: int, action: Action) -> None:
        if action.kind is _K.MUS:
            self.events.append(ev.MusSaid(seat, True))
            self._count += 1
            if self._count == self.n:
                self.phase = Phase.DESCARTE
                self._count = 0
                self._round_discards: list[tuple[Card, ...]] = [()] * self.n
                self.to_act = self._start
            else:
                self.to_act = (self._start + self._count) % self.n
            return
        self.events.append(ev.MusSaid(seat, False))
        if self.corrido and seat != self.mano:
            self.mano = seat
            self.events.append(ev.ManoChanged(seat))
        self._begin_lances()

    def _discard_action(self, seat: int, action: Action) -> None:
        cards = action.cards
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.pile.extend(cards)
        self._round_discards[seat] = cards
        self.events.append(ev.Discarded(seat, len(cards)))
        self._count += 1
        if self._count < self.n:
            self.to_act = (self._start + self._count) % self.n
            return
        self._replace_discards()

    def _replace_discards(self) -> None:
        n = self.n
        counts = tuple(len(d) for d in self._round_discards)
        for i in range(n):
            seat = (self._start + i) % n
            hand = self.hands[seat]
            need = counts[seat]
            while need:
                if self.pos >= len(self.deck):
                    # §2: a lone player still waiting keeps his own discards out of the new deck.
                    self._reshuffle(self._round_discards[seat] if n - i == 1 else ())
                take = min(need, len(self.deck) - self.pos)
                hand.extend(self.deck[self.pos:self.pos + take])
                self.pos += take
                need -= take
            self.idx[seat] = self.tables.index(hand)
        self._discard_rounds.append(counts)
        self.events.append(ev.CardsReplaced(counts))
        # Mus corrido: when all want mus the next player deals, so the next round starts one
        # seat further on (seeds 003 and 004); otherwise every round starts at the mano.
        self._start_mus_round((self._start + 1) % n if self.corrido else self.mano)

    def _reshuffle(self, set_aside: Sequence[Card]) -> None:
        aside = [c for c in self.pile if c in set_aside]
        pool = [c for c in self.pile if c not in set_aside]
        k = len(self.reshuffles)
        if self._given_reshuffles is not None and k < len(self._given_reshuffles):
            new = self._given_reshuffles[k]
            if sorted(new) != sorted(pool):
                raise InvalidDeal("reshuffle_mismatch", number=k + 1,
                                  expected=" ".join(card_code(c) for c in pool))
        elif self._given_reshuffles is not None:
            new = list(pool)  # REPLAY.md: absent, the discards in the order they were made.
        else:
            new = self._reshuffler(pool)
        if not new:
            raise InvalidDeal("deck_exhausted")
        self.reshuffles.append(list(new))
        self.deck = list(new)
        self.pos = 0
        self.pile = aside
        self.events.append(ev.Reshuffled(len(new), len(aside)))

    # --- the lances (§3, §4) ------------------------------------------------------------------

    def _begin_lances(self) -> None:
        self.phase = Phase.LANCE
        self._open_lance(0)

    def _open_lance(self, position: int) -> None:
        """Opens the lance at ``position`` of Grande, Chica, Pares, Juego, skipping those without
        betting; after the last one, the tanteo."""
        n = self.n
        mano = self.mano
        order = [(mano + k) % n for k in range(n)]
        while position < 4:
            lance = _LANCE_ORDER[position]
            if lance is Lance.PARES or lance is Lance.JUEGO:
                has = self.tables.has_pares if lance is Lance.PARES else self.tables.has_juego
                holders = [has[self.idx[s]] for s in range(n)]
                self._declarations[lance] = tuple(holders)
                for s in order:
                    self.events.append(ev.Declared(lance, s, holders[s]))
                teams = {s % 2 for s in range(n) if holders[s]}
                if lance is Lance.JUEGO and not teams:
                    lance = Lance.PUNTO
                    self._eligible = [True] * n
                elif len(teams) < 2:
                    team = teams.pop() if teams else None
                    self.results[lance] = LanceResult(
                        "sin_apuesta" if team is not None else "nadie", team, 0)
                    self.events.append(ev.LanceWithoutBetting(lance, team))
                    position += 1
                    continue
                else:
                    self._eligible = holders
            else:
                self._eligible = [True] * n
            self.lance = lance
            self._speakers = tuple(s for s in order if self._eligible[s])
            self._queue = list(self._speakers)
            self._qpos = 0
            self._bet = 0
            self._prev = 0
            self._bettor = -1
            self._ordago = False
            self._eliminated = [False] * n
            self.to_act = self._queue[0]
            self.events.append(ev.LanceStarted(lance, self._speakers))
            return
        self._tanteo()

    def _next_lance(self) -> None:
        lance = self.lance
        self._open_lance(4 if lance is Lance.PUNTO else int(lance) + 1)  # type: ignore[arg-type]

    def _bet_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        events = self.events
        if not self._bet and not self._ordago:
            if kind is _K.PASO:
                events.append(ev.Spoke(seat, action, 0))
                self._qpos += 1
                if self._qpos == len(self._queue):
                    self._close(LanceResult("paso", None, 0))
                else:
                    self.to_act = self._queue[self._qpos]
                return
            self._prev = 1  # §4.5: a refused first bet pays 1.
            if kind is _K.ORDAGO:
                self._ordago = True
                events.append(ev.Spoke(seat, action, -1))
            else:
                self._bet = action.amount
                events.append(ev.Spoke(seat, action, self._bet))
            self._answer_after(seat)
            return
        if kind is _K.QUIERO:
            events.append(ev.Spoke(seat, action, -1 if self._ordago else self._bet))
            if self._ordago:
                self._ordago_accepted()
            else:
                self._close(LanceResult("querido", None, self._bet))
            return
        if kind is _K.NO_QUIERO or kind is _K.PASO:
            events.append(ev.Spoke(seat, NO_QUIERO, -1 if self._ordago else self._bet))
            self._eliminated[seat] = True
            self._qpos += 1
            if self._qpos < len(self._queue):
                self.to_act = self._queue[self._qpos]
                return
            team = self._bettor % 2
            self._close(LanceResult("deje", team, self._prev))
            return
        # A raise (envido N / N más) or an órdago over the standing bet.
        self._prev = self._bet
        if kind is _K.ORDAGO:
            self._ordago = True
            events.append(ev.Spoke(seat, action, -1))
        else:
            self._bet += action.amount
            events.append(ev.Spoke(seat, mas(action.amount), self._bet))
        self._answer_after(seat)

    def _answer_after(self, seat: int) -> None:
        """§4.3–4: the other team's eligible, non-eliminated players, in order after ``seat``."""
        n = self.n
        self._bettor = seat
        team = seat % 2
        eligible = self._eligible
        eliminated = self._eliminated
        self._queue = [
            s for s in ((seat + k) % n for k in range(1, n))
            if s % 2 != team and eligible[s] and not eliminated[s]
        ]
        self._qpos = 0
        self.to_act = self._queue[0]

    def _close(self, result: LanceResult) -> None:
        lance = self.lance
        assert lance is not None
        self.results[lance] = result
        self.events.append(ev.LanceEnded(lance, result.outcome, result.team, result.tantos))
        if result.outcome == "deje" and self._score(result.team, result.tantos, lance, "deje"):
            self._finish()
            return
        self._next_lance()

    def _ordago_accepted(self) -> None:
        lance = self.lance
        assert lance is not None
        winner = self._winner(lance)
        assert winner is not None
        team = winner % 2
        self.results[lance] = LanceResult("ordago", team, 0)
        self.events.append(ev.LanceEnded(lance, "ordago", None, 0))
        self._showdown()
        step = ev.Scored(team, 0, lance, "ordago", (self.scores[0], self.scores[1]))
        self.ledger.append(step)
        self.events.append(step)
        self.game_winner = team
        self.events.append(ev.GameWon(team, True))
        self._finish()

    # --- showdown and tanteo (§5) -------------------------------------------------------------

    def _winner(self, lance: Lance) -> int | None:
        """The seat with the best hand for ``lance`` now, or None if nobody holds pares/juego
        (or, for punto, if somebody has juego)."""
        t = self.tables
        idx = self.idx
        if lance is Lance.PARES and not any(t.has_pares[i] for i in idx):
            return None
        has_juego = any(t.has_juego[i] for i in idx)
        if (lance is Lance.JUEGO and not has_juego) or (lance is Lance.PUNTO and has_juego):
            return None
        return best_seat(t.strength[lance], idx, self.mano)

    def winners(self) -> dict[str, int | None]:
        return {lance.nombre: self._winner(lance) for lance in Lance}

    def _showdown(self) -> None:
        self._revealed = True
        self.events.append(ev.Showdown(tuple(tuple(h) for h in self.hands), self.winners()))

    def _base(self, team: int, lance: Lance) -> int:
        values = self.tables.pares_base if lance is Lance.PARES else self.tables.juego_base
        return sum(values[self.idx[s]] for s in range(team, self.n, 2))

    def _steps(self, lance: Lance, result: LanceResult) -> list[tuple[int, int, str]]:
        """The scoring steps of one lance at the tanteo, bet first then base values."""
        outcome = result.outcome
        if outcome == "nadie":
            return []
        if outcome in ("deje", "sin_apuesta"):
            team = result.team
            assert team is not None
            if lance is Lance.PARES or lance is Lance.JUEGO:
                return [(team, self._base(team, lance), "base")]
            if lance is Lance.PUNTO and outcome == "deje":
                return [(team, 1, "punto")]
            return []
        winner = self._winner(lance)
        assert winner is not None
        team = winner % 2
        steps: list[tuple[int, int, str]] = []
        if outcome == "querido":
            steps.append((team, result.tantos, "apuesta"))
        if lance is Lance.PARES or lance is Lance.JUEGO:
            steps.append((team, self._base(team, lance), "base"))
        elif outcome == "paso":
            steps.append((team, 1, "paso"))
        elif lance is Lance.PUNTO:
            steps.append((team, 1, "punto"))
        return steps

    def _tanteo(self) -> None:
        self.lance = None
        self._showdown()
        for lance in Lance:
            result = self.results[lance]
            if result is None:
                continue
            for team, tantos, kind in self._steps(lance, result):
                if tantos and self._score(team, tantos, lance, kind):
                    self._finish()
                    return
        self._finish()

    def _score(self, team: int | None, tantos: int, lance: Lance, kind: str) -> bool:
        """Adds one ledger step; True if it ends the game (§5: the first to the target wins)."""
        assert team is not None
        scores = self.scores
        scores[team] += tantos
        step = ev.Scored(team, tantos, lance, kind, (scores[0], scores[1]))
        self.ledger.append(step)
        self.events.append(step)
        if scores[team] >= self.target:
            self.game_winner = team
            self.events.append(ev.GameWon(team, False))
            return True
        return False

    def _finish(self) -> None:
        self.phase = Phase.TERMINADA
        self.to_act = None
        self.events.append(ev.HandEnded((self.scores[0], self.scores[1]), self.game_winner))

    # --- what one seat may know ---------------------------------------------------------------

    def view(self, seat: int, **match_info: Any) -> SeatView:
        """Exactly what ``seat`` may know (OpenSpiel's observer): its own cards, public events,
        discard counts, declarations; every hand only after the showdown."""
        return SeatView(
            seat=seat,
            players=self.n,
            rules=self.rules,
            mano=self.mano,
            phase=self.phase.value,
            lance=self.lance if self.phase is Phase.LANCE else None,
            to_act=self.to_act,
            cards=tuple(self.hands[seat]),
            scores=(self.scores[0], self.scores[1]),
            target=self.target,
            discards=tuple(self._discard_rounds),
            declarations=dict(self._declarations),
            bet=self._bet,
            ordago=self._ordago,
            bettor=self.bettor,
            eliminated=tuple(s for s in range(self.n) if self._eliminated[s])
            if self.phase is Phase.LANCE else (),
            speakers=self._speakers if self.phase is Phase.LANCE else (),
            legal=self.legal_actions(seat),
            history=tuple(self.events),
            revealed=tuple(tuple(h) for h in self.hands) if self._revealed else None,
            corrido=self.corrido,
            **match_info,
        )

    # --- records ------------------------------------------------------------------------------

    def transcript(self) -> dict[str, Any]:
        """The hand as a REPLAY.md transcript: replaying it gives this hand's result."""
        rules: dict[str, Any] = {"reyes": self.rules.reyes, "puntos": self.rules.puntos,
                                 "real": self.rules.real}
        if self.corrido:
            rules["corrido"] = True
        data: dict[str, Any] = {
            "rules": rules,
            "mano": self.initial_mano,
            "scores": list(self.initial_scores),
            "hands": [[card_code(c) for c in h] for h in self.dealt],
            "deck": [card_code(c) for c in self.initial_deck],
            "actions": [[seat, action.text()] for seat, action in self.actions],
        }
        if self.reshuffles:
            data["reshuffles"] = [[card_code(c) for c in d] for d in self.reshuffles]
        return data

    def result(self) -> dict[str, Any]:
        """The outcome in REPLAY.md's output format."""
        complete = all(len(h) == 4 for h in self.hands)
        out: dict[str, Any] = {
            "winners": self.winners() if complete else {lance.nombre: None for lance in Lance},
            "ledger": [
                {"pair": s.team, "tantos": s.tantos, "lance": s.lance.nombre, "kind": s.kind}
                for s in self.ledger
            ],
            "scores": list(self.scores),
            "game_winner": self.game_winner,
            "finished": self.finished,
        }
        if not self.finished:
            out["to_act"] = self.to_act
        return out


def _validate_cards(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 40:
            raise InvalidDeal("bad_card", card=repr(c))
        if c in seen:
            raise InvalidDeal("card_twice", card=card_code(c))
        seen.add(c)


def _validate_deal(rules: Rules, hands: Sequence[Sequence[Card]], deck: Sequence[Card],
                   mano: int) -> None:
    if len(hands) != rules.jugadores:
        raise InvalidDeal("wrong_players", count=len(hands), expected=rules.jugadores)
    for seat, h in enumerate(hands):
        if len(h) != 4:
            raise InvalidDeal("wrong_hand_size", seat=seat, count=len(h))
    if not 0 <= mano < len(hands):
        raise InvalidDeal("bad_mano", mano=mano)
    _validate_cards([c for h in hands for c in h] + list(deck))
