"""One hand of Mus, from the deal to the tanteo (docs/rules.md §2–§5), as a pure state machine.

Only :meth:`Hand.apply` changes it. Everything public is appended to :attr:`Hand.events`; what one
seat may know is :meth:`Hand.view`. There is no I/O and no clock here: the deck and any reshuffle
come from the caller, so a hand is fully described by its deal and its actions (see
:meth:`Hand.transcript`), which is what replay and persistence rely on.

Longer than most modules, on purpose: the phases (mus, discards, the four lances, the tanteo)
share one hand's state and its invariants, and the compiled build keeps them in one class whose
attributes mypyc can lay out; the rules it needs that stand alone (evaluation, señas, scoring
order) live in their own modules.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from typing import Any, Final

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
    mas,
)
from .cards import DECK, Card, Shuffler, card_code, secure_shuffle
from .errors import IllegalAction, InvalidDeal, NotYourTurn
from .evaluation import LANCE_NAMES, LANCES, Lance, Tables, best_seat, tables
from .record import Record
from .rules import Rules
from .view import SeatView


class Phase(enum.Enum):
    MUS = "mus"
    DESCARTE = "descarte"
    LANCE = "lance"
    TERMINADA = "terminada"


class LanceResult(Record):
    """How a lance closed. ``outcome``: 'nadie' (nobody holds pares/juego), 'sin_apuesta' (only
    one team holds them), 'paso', 'querido', 'deje', 'ordago'."""

    __match_args__ = ("outcome", "team", "tantos")

    def __init__(self, outcome: str, team: int | None, tantos: int) -> None:
        self.outcome = outcome
        self.team = team
        self.tantos = tantos


# Members bound once as Final names: mypyc compiles them to C statics, where ``Phase.LANCE`` or
# ``ActionKind.PASO`` would be two dictionary lookups on every action.
_MUS: Final = ActionKind.MUS
_NO_HAY_MUS: Final = ActionKind.NO_HAY_MUS
_DESCARTE: Final = ActionKind.DESCARTE
_PASO: Final = ActionKind.PASO
_ENVIDO: Final = ActionKind.ENVIDO
_MAS: Final = ActionKind.MAS
_ORDAGO: Final = ActionKind.ORDAGO
_QUIERO: Final = ActionKind.QUIERO
_NO_QUIERO: Final = ActionKind.NO_QUIERO
_PH_MUS: Final = Phase.MUS
_PH_DESCARTE: Final = Phase.DESCARTE
_PH_LANCE: Final = Phase.LANCE
_PH_TERMINADA: Final = Phase.TERMINADA
_GRANDE: Final = Lance.GRANDE
_CHICA: Final = Lance.CHICA
_PARES: Final = Lance.PARES
_JUEGO: Final = Lance.JUEGO
_PUNTO: Final = Lance.PUNTO

_MUS_ACTIONS: Final = (MUS, NO_HAY_MUS)
_OPENING: Final = (PASO, ENVIDO, ORDAGO)
_ANSWERS: Final = (QUIERO, NO_QUIERO, mas(MIN_ENVITE), ORDAGO)
_ANSWERS_ORDAGO: Final = (QUIERO, NO_QUIERO)
_OPENING_ERRORS = {_MAS: "no_bet_to_raise", _QUIERO: "no_bet_to_answer",
                   _NO_QUIERO: "no_bet_to_answer"}
_LANCE_ORDER: Final = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO)
_SUBSETS: Final = tuple(c for k in range(1, 5) for c in itertools.combinations(range(4), k))


class Hand:
    """A hand in progress. Seats are 0..n-1 in playing order; a seat's team is
    :meth:`Rules.team`'s."""

    __slots__ = (
        "_all_eligible",
        "_bet",
        "_bettor",
        "_count",
        "_declarations",
        "_discard_rounds",
        "_eligible",
        "_eliminated",
        "_given_reshuffles",
        "_ordago",
        "_order",
        "_prev",
        "_qpos",
        "_queue",
        "_reshuffler",
        "_revealed",
        "_round_discards",
        "_speakers",
        "_start",
        "_winners",
        "actions",
        "corrido",
        "dealt",
        "deck",
        "events",
        "game_winner",
        "hands",
        "idx",
        "initial_deck",
        "initial_games",
        "initial_mano",
        "initial_scores",
        "lance",
        "ledger",
        "mano",
        "n",
        "phase",
        "pile",
        "pos",
        "reshuffles",
        "results",
        "rules",
        "scores",
        "tables",
        "target",
        "to_act",
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
        games: Sequence[int] = (0, 0),
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
        self.initial_games = (int(games[0]), int(games[1]))
        """Games won in the vaca before this hand: a won game says the new count (§6)."""
        self.hands = [list(h) for h in hands]
        self.dealt = tuple([tuple(h) for h in hands])
        key = self.tables.card_key
        index_of = self.tables.index_of
        self.idx = [index_of[key[a] + key[b] + key[c] + key[d]] for a, b, c, d in self.hands]
        self.deck = list(deck)
        self.initial_deck = tuple(deck)
        self.pos = 0
        self.pile: list[Card] = []
        self.reshuffles: list[list[Card]] = []
        # Recorded reshuffles come first (replay, restore); after them a given reshuffler, or for a
        # transcript without one the discards in discard order (docs/replay.md), else a secure
        # shuffle.
        self._given_reshuffles = [list(r) for r in reshuffles] if reshuffles is not None else []
        self._reshuffler: Shuffler | None = reshuffler
        if reshuffler is None and reshuffles is None:
            self._reshuffler = secure_shuffle
        self.results: list[LanceResult | None] = [None] * 5
        self.events: list[ev.Event] = []
        self.ledger: list[ev.Scored] = []
        self.actions: list[tuple[int, Action]] = []
        self.game_winner: int | None = None
        self._discard_rounds: list[tuple[int, ...]] = []
        self._declarations: dict[Lance, tuple[bool, ...]] = {}
        self._revealed = False
        self._winners: list[int | None] = []
        self._eligible: Sequence[bool] = (True,) * n
        self._speakers: tuple[int, ...] = ()
        self._eliminated: list[bool] = [False] * n
        self._queue: tuple[int, ...] = ()
        self._qpos = 0
        self._bet = 0
        self._prev = 0
        self._bettor = -1
        self._ordago = False
        self.lance: Lance | None = None
        self._all_eligible = (True,) * n
        self._set_mano(mano)
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
        games: Sequence[int] = (0, 0),
    ) -> Hand:
        """Deals four cards to each seat, one at a time from the mano (§2)."""
        n = rules.jugadores
        cards = list(deck) if deck is not None else shuffler(DECK)
        if deck is not None:
            _validate_cards(cards)
            if len(cards) < 4 * n:
                raise InvalidDeal("deck_exhausted")
        hands: list[list[Card]] = [[]] * n
        for k in range(n):
            hands[(mano + k) % n] = cards[k:4 * n:n]
        return cls(rules, hands, cards[4 * n:], mano=mano, scores=scores, corrido=corrido,
                   reshuffler=shuffler, validate=False, games=games)

    # --- what anyone may ask ------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase is _PH_TERMINADA

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
        return self.rules.team(seat)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Concrete legal actions. ``envido`` and ``más`` stand for any amount ≥ 2."""
        if seat != self.to_act:
            return ()
        phase = self.phase
        if phase is _PH_LANCE:
            if self._ordago:
                return _ANSWERS_ORDAGO
            return _ANSWERS if self._bet else _OPENING
        if phase is _PH_MUS:
            return _MUS_ACTIONS
        if phase is _PH_DESCARTE:
            hand = self.hands[seat]
            return tuple([Action(_DESCARTE, 0, tuple([hand[i] for i in combo]))
                          for combo in _SUBSETS if combo[-1] < len(hand)])
        return ()

    # --- the only way to change a hand --------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Applies one action of ``seat``; raises :class:`IllegalAction` and changes nothing if the
        rules do not allow it now."""
        if seat != self.to_act:
            self._wrong_seat(seat)
        phase = self.phase
        if phase is _PH_LANCE:
            self._bet_action(seat, action)
        elif phase is _PH_MUS:
            self._mus_action(seat, action)
        else:
            self._discard_action(seat, action)
        self.actions.append((seat, action))

    def is_legal(self, seat: int, action: Action) -> bool:
        legal = self.legal_actions(seat)
        if not legal:
            return False
        kind = action.kind
        kinds = {a.kind for a in legal}
        if kind is _ENVIDO or kind is _MAS:
            return action.amount >= MIN_ENVITE and (
                _MAS in kinds or (kind is _ENVIDO and _ENVIDO in kinds))
        if kind is _PASO:
            return _PASO in kinds or _NO_QUIERO in kinds
        if kind is _DESCARTE:
            hand = self.hands[seat]
            return (_DESCARTE in kinds and bool(action.cards)
                    and len(set(action.cards)) == len(action.cards)
                    and all(c in hand for c in action.cards))
        return kind in kinds

    def _wrong_seat(self, seat: int) -> None:
        if self.phase is _PH_TERMINADA:
            raise IllegalAction("hand_over")
        if not 0 <= seat < self.n:
            raise IllegalAction("no_such_seat", seat=seat)
        if self.phase is _PH_LANCE and not self._eligible[seat]:
            raise IllegalAction("pares_only" if self.lance is _PARES else "juego_only",
                                seat=seat)
        raise NotYourTurn(seat, self.to_act)

    # --- mus and discards (§2) ----------------------------------------------------------------

    def _start_mus_round(self, start: int) -> None:
        self.phase = _PH_MUS
        self._start = start
        self._count = 0
        self.to_act: int | None = start

    def _mus_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind is not _MUS and kind is not _NO_HAY_MUS:
            raise IllegalAction("mus_now")
        if kind is _MUS:
            self.events.append(ev.MusSaid(seat, True))
            self._count += 1
            if self._count == self.n:
                self.phase = _PH_DESCARTE
                self._count = 0
                self._round_discards: list[tuple[Card, ...]] = [()] * self.n
                self.to_act = self._start
            else:
                self.to_act = (self._start + self._count) % self.n
            return
        self.events.append(ev.MusSaid(seat, False))
        if self.corrido and seat != self.mano:
            self._set_mano(seat)
            self.events.append(ev.ManoChanged(seat))
        self._begin_lances()

    def _discard_action(self, seat: int, action: Action) -> None:
        if action.kind is not _DESCARTE:
            raise IllegalAction("discard_now")
        cards = action.cards
        hand = self.hands[seat]
        if not cards:
            raise IllegalAction("discard_none")
        if len(set(cards)) != len(cards):
            raise IllegalAction("discard_repeated")
        for c in cards:
            if c not in hand:
                raise IllegalAction("discard_not_held", card=card_code(c))
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
        # docs/rules.md §2: every mus round starts at the mano, in a corrido hand too (the seeds'
        # passing of the deck to the next dealer is not part of the specification).
        self._start_mus_round(self.mano)

    def _reshuffle(self, set_aside: Sequence[Card]) -> None:
        aside = [c for c in self.pile if c in set_aside]
        pool = [c for c in self.pile if c not in set_aside]
        k = len(self.reshuffles)
        if k < len(self._given_reshuffles):
            new = self._given_reshuffles[k]
            if sorted(new) != sorted(pool):
                raise InvalidDeal("reshuffle_mismatch", number=k + 1,
                                  expected=" ".join(card_code(c) for c in pool))
        elif self._reshuffler is None:
            new = list(pool)  # docs/replay.md: absent, the discards in the order they were made.
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
        self.phase = _PH_LANCE
        self._open_lance(0)

    def _set_mano(self, mano: int) -> None:
        self.mano = mano
        self._order = tuple((mano + k) % self.n for k in range(self.n))

    def _open_lance(self, position: int) -> None:
        """Opens the lance at ``position`` of Grande, Chica, Pares, Juego, skipping those without
        betting; after the last one, the tanteo."""
        n = self.n
        order = self._order
        while position < 4:
            lance = _LANCE_ORDER[position]
            eligible = self._all_eligible
            if position >= 2:
                has = self.tables.has_pares if position == 2 else self.tables.has_juego
                idx = self.idx
                holders = tuple([has[idx[s]] for s in range(n)])
                self._declarations[lance] = holders
                self.events.append(ev.Declared(lance, holders))
                teams = {s & 1 for s in range(n) if holders[s]}
                if lance is _JUEGO and not teams:
                    lance = _PUNTO
                elif len(teams) < 2:
                    team = teams.pop() if teams else None
                    self.results[lance] = LanceResult(
                        "sin_apuesta" if team is not None else "nadie", team, 0)
                    self.events.append(ev.LanceWithoutBetting(lance, team))
                    position += 1
                    continue
                else:
                    eligible = holders
            self._eligible = eligible
            self.lance = lance
            speakers = tuple([s for s in order if eligible[s]])
            self._speakers = speakers
            self._queue = speakers
            self._qpos = 0
            self._bet = 0
            self._prev = 0
            self._bettor = -1
            self._ordago = False
            self._eliminated = [False] * n
            self.to_act = speakers[0]
            self.events.append(ev.LanceStarted(lance, speakers))
            return
        self._tanteo()

    def _next_lance(self) -> None:
        lance = self.lance
        self._open_lance(4 if lance is _PUNTO else int(lance) + 1)  # type: ignore[arg-type]

    def _bet_action(self, seat: int, action: Action) -> None:
        kind = action.kind
        events = self.events
        if not self._bet and not self._ordago:
            if kind is _PASO:
                events.append(ev.Spoke(seat, action, 0))
                self._qpos += 1
                if self._qpos == len(self._queue):
                    self._close(LanceResult("paso", None, 0))
                else:
                    self.to_act = self._queue[self._qpos]
                return
            if kind is _ENVIDO:
                if action.amount < MIN_ENVITE:
                    raise IllegalAction("min_bet", amount=action.amount)
                self._bet = action.amount
                events.append(ev.Spoke(seat, action, self._bet))
            elif kind is _ORDAGO:
                self._ordago = True
                events.append(ev.Spoke(seat, action, -1))
            else:
                raise IllegalAction(_OPENING_ERRORS.get(kind, "betting_now"), lance=self.lance)
            self._prev = 1  # §4.5: a refused first bet pays 1.
            self._answer_after(seat)
            return
        if kind is _QUIERO:
            events.append(ev.Spoke(seat, action, -1 if self._ordago else self._bet))
            if self._ordago:
                self._ordago_accepted()
            else:
                self._close(LanceResult("querido", None, self._bet))
            return
        if kind is _NO_QUIERO or kind is _PASO:
            events.append(ev.Spoke(seat, NO_QUIERO, -1 if self._ordago else self._bet))
            self._eliminated[seat] = True
            self._qpos += 1
            if self._qpos < len(self._queue):
                self.to_act = self._queue[self._qpos]
                return
            self._close(LanceResult("deje", self._bettor & 1, self._prev))
            return
        # A raise (envido N / N más) or an órdago over the standing bet.
        if kind is _ENVIDO or kind is _MAS:
            if self._ordago:
                raise IllegalAction("ordago_no_raise")
            if action.amount < MIN_ENVITE:
                raise IllegalAction("min_bet", amount=action.amount)
            self._prev = self._bet
            self._bet += action.amount
            events.append(ev.Spoke(seat, mas(action.amount), self._bet))
        elif kind is _ORDAGO:
            if self._ordago:
                raise IllegalAction("ordago_no_raise")
            self._prev = self._bet
            self._ordago = True
            events.append(ev.Spoke(seat, action, -1))
        else:
            raise IllegalAction("betting_now", lance=self.lance)
        self._answer_after(seat)

    def _answer_after(self, seat: int) -> None:
        """§4.3–4: the other team's eligible, non-eliminated players, in order after ``seat``."""
        n = self.n
        self._bettor = seat
        team = self.rules.team(seat)
        eligible = self._eligible
        eliminated = self._eliminated
        self._queue = tuple([
            s for s in ((seat + k) % n for k in range(1, n))
            if s & 1 != team and eligible[s] and not eliminated[s]
        ])
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
        seats = self._winner_seats()
        winner = seats[lance]
        assert winner is not None
        team = winner & 1
        self.results[lance] = LanceResult("ordago", team, 0)
        self.events.append(ev.LanceEnded(lance, "ordago", None, 0))
        self._showdown(seats)
        step = ev.Scored(team, 0, lance, "ordago", (self.scores[0], self.scores[1]))
        self.ledger.append(step)
        self.events.append(step)
        self.game_winner = team
        self.events.append(ev.GameWon(team, True, self._games_after(team)))
        self._finish()

    # --- showdown and tanteo (§5) -------------------------------------------------------------

    def _winner_seats(self) -> list[int | None]:
        """For each lance, the seat with the best hand now (ties to the seat nearer the mano), or
        None where nobody holds pares/juego, or at punto when somebody has juego."""
        t = self.tables
        idx = self.idx
        has_pares = t.has_pares
        has_juego = t.has_juego
        any_pares = any_juego = False
        for i in idx:
            if has_pares[i]:
                any_pares = True
            if has_juego[i]:
                any_juego = True
        skip = (False, False, not any_pares, not any_juego, any_juego)
        order = self._order
        strength = t.strength
        return [None if skip[lance] else best_seat(strength[lance], idx, order)
                for lance in range(5)]

    def winners(self) -> dict[str, int | None]:
        """docs/replay.md's ``winners``: the best hand of each lance with the cards held now."""
        return dict(zip(LANCE_NAMES, self._winner_seats(), strict=True))

    def _showdown(self, seats: list[int | None] | None = None) -> None:
        self._revealed = True
        self._winners = seats = seats or self._winner_seats()
        self.events.append(ev.Showdown(tuple([tuple(h) for h in self.hands]),
                                       dict(zip(LANCE_NAMES, seats, strict=True))))

    def _base(self, team: int, lance: int) -> int:
        values = self.tables.pares_base if lance == 2 else self.tables.juego_base
        idx = self.idx
        return sum([values[idx[s]] for s in range(team, self.n, 2)])

    def _tanteo(self) -> None:
        """§5: after the last lance, every lance in order adds its bet, then its base values;
        the first step that reaches the target ends the game and nothing after it counts."""
        self.lance = None
        self._showdown()
        for lance, result in enumerate(self.results):
            if result is None:
                continue
            outcome = result.outcome
            if outcome == "nadie":
                continue
            if outcome == "deje" or outcome == "sin_apuesta":
                team = result.team
                assert team is not None
                if lance == 2 or lance == 3:
                    if self._score(team, self._base(team, lance), lance, "base"):
                        return self._finish()
                elif lance == 4 and outcome == "deje" and self._score(team, 1, lance, "punto"):
                    return self._finish()
                continue
            winner = self._winners[lance]
            assert winner is not None
            team = winner & 1
            if outcome == "querido" and self._score(team, result.tantos, lance, "apuesta"):
                return self._finish()
            if lance == 2 or lance == 3:
                tantos, kind = self._base(team, lance), "base"
            else:
                tantos, kind = 1, ("paso" if outcome == "paso" else "punto")
                if lance != 4 and outcome != "paso":
                    continue  # grande and chica add nothing after the bet
            if self._score(team, tantos, lance, kind):
                return self._finish()
        self._finish()

    def _score(self, team: int | None, tantos: int, lance: int, kind: str) -> bool:
        """Adds one ledger step; True if it ends the game (§5: the first to the target wins)."""
        assert team is not None
        scores = self.scores
        scores[team] += tantos
        step = ev.Scored(team, tantos, LANCES[lance], kind, (scores[0], scores[1]))
        self.ledger.append(step)
        self.events.append(step)
        if scores[team] >= self.target:
            self.game_winner = team
            self.events.append(ev.GameWon(team, False, self._games_after(team)))
            return True
        return False

    def _games_after(self, team: int) -> tuple[int, int]:
        games = self.initial_games
        return (games[0] + 1, games[1]) if team == 0 else (games[0], games[1] + 1)

    def _finish(self) -> None:
        self.phase = _PH_TERMINADA
        self.to_act = None
        self.events.append(ev.HandEnded((self.scores[0], self.scores[1]), self.game_winner))

    # --- what one seat may know ---------------------------------------------------------------

    @property
    def mus_rounds(self) -> int:
        """Discard rounds finished so far: ``len(view.discards)`` without building a view."""
        return len(self._discard_rounds)

    def view(self, seat: int, *, games: tuple[int, int] = (0, 0), vacas: tuple[int, int] = (0, 0),
             hand_number: int = 0, match_winner: int | None = None) -> SeatView:
        """Exactly what ``seat`` may know (OpenSpiel's observer): its own cards, public events,
        discard counts, declarations; every hand only after the showdown. ``seat`` -1 is anyone
        watching the table: no cards and no moves. The match's facts default to a hand played
        alone (no game, no vaca, no winner): here only, the view itself has no defaults."""
        public = seat < 0
        return SeatView(
            seat=-1 if public else seat,
            players=self.n,
            rules=self.rules,
            mano=self.mano,
            phase=self.phase.value,
            lance=self.lance if self.phase is _PH_LANCE else None,
            to_act=self.to_act,
            cards=() if public else tuple(self.hands[seat]),
            scores=(self.scores[0], self.scores[1]),
            target=self.target,
            discards=tuple(self._discard_rounds),
            declarations=dict(self._declarations),
            bet=self._bet,
            ordago=self._ordago,
            bettor=self.bettor,
            eliminated=tuple(s for s in range(self.n) if self._eliminated[s])
            if self.phase is _PH_LANCE else (),
            speakers=self._speakers if self.phase is _PH_LANCE else (),
            legal=() if public else self.legal_actions(seat),
            history=tuple(self.events),
            revealed=tuple(tuple(h) for h in self.hands) if self._revealed else None,
            corrido=self.corrido,
            games=games,
            vacas=vacas,
            hand_number=hand_number,
            match_winner=match_winner,
        )

    # --- records ------------------------------------------------------------------------------

    def transcript(self) -> dict[str, Any]:
        """The hand as a docs/replay.md transcript: replaying it gives this hand's result."""
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

    def ordagos(self) -> list[ev.Ordago]:
        """The órdagos settled so far: who called, at which lance, who accepted, who won."""
        return ev.ordagos(self.events)

    def result(self) -> dict[str, Any]:
        """The outcome in docs/replay.md's output format."""
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
