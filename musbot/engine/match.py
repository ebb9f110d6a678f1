"""A partida: hands, games (juegos), vacas (docs/rules.md §6), and the mano moving on after each
hand."""

from __future__ import annotations

import secrets
from typing import Any

from . import events as ev
from .actions import Action
from .cards import Card, Shuffler, secure_shuffle
from .errors import IllegalAction
from .hand import Hand
from .rules import Rules
from .view import SeatView


class Match:
    """Drives hand after hand until a team wins the partida. Like :class:`Hand`, it changes only
    through :meth:`apply`, which returns the public events that action caused (the next hand's
    deal included)."""

    __slots__ = (
        "_new_game",
        "_shuffler",
        "game_number",
        "games",
        "games_played",
        "hand",
        "hand_number",
        "mano",
        "n",
        "rules",
        "scores",
        "vacas",
        "winner",
    )

    def __init__(self, rules: Rules | None = None, *, first_mano: int | None = None,
                 shuffler: Shuffler = secure_shuffle, hand: Hand | None = None,
                 games: tuple[int, int] = (0, 0)) -> None:
        """``games``: games each pair starts the vaca with (a tournament's games given for
        lateness), counted like games won."""
        self.rules = rules or Rules()
        self.n = self.rules.jugadores
        self.mano = first_mano if first_mano is not None else secrets.randbelow(self.n)
        self.scores = [0, 0]
        self.games = [games[0], games[1]]
        self.vacas = [0, 0]
        self.games_played: list[tuple[int, int, int]] = []
        """Every game finished in this match, in order: (winner, tantos of pair 0, tantos of
        pair 1) as the game ended; what a match of several games is scored by once its games
        are reset for the next vaca (a tournament's match score, its tanto difference)."""
        self.winner: int | None = None
        self.hand_number = 0
        self.game_number = 1
        self._shuffler = shuffler
        self._new_game = True
        if hand is None:
            self.hand = self._deal()
        else:  # resuming a saved match (see restore)
            self.hand = hand
            self.hand_number = 1
            self._new_game = False

    def _deal(self, deck: list[Card] | None = None) -> Hand:
        self.hand_number += 1
        corrido = self.rules.mus_corrido and self._new_game
        self._new_game = False
        return Hand.deal(self.rules, deck, mano=self.mano, scores=self.scores, corrido=corrido,
                         shuffler=self._shuffler, games=self.games)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def to_act(self) -> int | None:
        return None if self.winner is not None else self.hand.to_act

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        return () if self.winner is not None else self.hand.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[ev.Event]:
        if self.winner is not None:
            raise IllegalAction("match_over")
        hand = self.hand
        start = len(hand.events)
        hand.apply(seat, action)
        new = hand.events[start:]
        if hand.finished:
            new.extend(self._after_hand(hand))
        return new

    def _after_hand(self, hand: Hand) -> list[ev.Event]:
        out: list[ev.Event] = []
        won = hand.game_winner
        if won is None:
            self.scores = list(hand.scores)
        else:
            self.games[won] += 1
            self.games_played.append((won, hand.scores[0], hand.scores[1]))
            self.scores = [0, 0]
            self.game_number += 1
            self._new_game = True
            if self.games[won] >= self.rules.juegos:
                self.vacas[won] += 1
                self.games = [0, 0]
                out.append(ev.VacaWon(won, (self.vacas[0], self.vacas[1])))
                if self.vacas[won] >= self.rules.vacas:
                    self.winner = won
                    out.append(ev.MatchWon(won))
                    return out
        self.mano = (hand.mano + 1) % self.n
        self.hand = self._deal()
        out.extend(self.hand.events)
        return out

    def view(self, seat: int) -> SeatView:
        return self.hand.view(
            seat,
            games=(self.games[0], self.games[1]),
            vacas=(self.vacas[0], self.vacas[1]),
            hand_number=self.hand_number,
            match_winner=self.winner,
        )

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume this match exactly, cards included: store it privately.

        The current hand is kept as its deal plus its actions and is replayed on restore, so a
        restored table has the same events, views and legal actions as before."""
        hand = self.hand
        return {
            "version": 1,
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "games": list(self.games),
            "vacas": list(self.vacas),
            "games_played": [list(g) for g in self.games_played],
            "winner": self.winner,
            "hand_number": self.hand_number,
            "game_number": self.game_number,
            "new_game": self._new_game,
            "hand": {
                "mano": hand.initial_mano,
                "scores": list(hand.initial_scores),
                "games": list(hand.initial_games),
                "corrido": hand.corrido,
                "hands": [list(h) for h in hand.dealt],
                "deck": list(hand.initial_deck),
                "reshuffles": [list(d) for d in hand.reshuffles],
                "actions": [[seat, *action.to_json()] for seat, action in hand.actions],
            },
        }

    @classmethod
    def restore(cls, data: dict[str, Any], shuffler: Shuffler = secure_shuffle) -> Match:
        """The match :meth:`snapshot` saved, at the same action."""
        if data.get("version") != 1:
            raise ValueError(f"unknown match snapshot version {data.get('version')!r}")
        rules = Rules.from_dict(data["rules"])
        h = data["hand"]
        hand = Hand(rules, h["hands"], h["deck"], mano=h["mano"], scores=h["scores"],
                    corrido=h["corrido"], reshuffler=shuffler, reshuffles=h["reshuffles"],
                    games=h.get("games", data["games"]))
        for seat, *action in h["actions"]:
            hand.apply(seat, Action.from_json(action))
        match = cls(rules, first_mano=h["mano"], shuffler=shuffler, hand=hand)
        match.scores = list(data["scores"])
        match.games = list(data["games"])
        match.vacas = list(data["vacas"])
        match.games_played = [(int(w), int(a), int(b))
                              for w, a, b in data.get("games_played", [])]
        match.winner = data["winner"]
        match.hand_number = data["hand_number"]
        match.game_number = data["game_number"]
        match._new_game = data["new_game"]
        return match

    def summary(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "games": list(self.games),
                "vacas": list(self.vacas), "winner": self.winner,
                "hand_number": self.hand_number}
