"""A table's memory of its players: their :class:`~musbot.ai.reading.Reading` by who sat there,
learnt from each finished hand as a spectator saw it, and what of them is due to be stored
(the table layer keeps a person's reading per server)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from musbot.engine import SeatView, tables

from .reading import DEFAULT_MODEL, Judge, OpponentModel, Reading, situation, spoken


class OpponentMemory:
    """A table's readings, by who sat there: ``"user:ID"`` for a person, anything else for a
    bot. People's readings know whether they were fetched from storage and what is new since
    they were last stored, so the table layer can keep them per server (see
    :meth:`wanted`, :meth:`fetched`, :meth:`due`, :meth:`stored`)."""

    def __init__(self, readings: Mapping[str, Reading] | None = None) -> None:
        self.readings: dict[str, Reading] = dict(readings or {})
        self._models: dict[str, OpponentModel] = {}
        self._fetched: set[int] = set()
        self._new: dict[int, int] = {}
        """Per person fetched or not, how many hands taught something of them since their
        reading was last stored."""

    @staticmethod
    def person(user_id: int) -> str:
        return f"user:{user_id}"

    @staticmethod
    def is_person(who: str) -> bool:
        """Whether ``who`` names a person (:meth:`person`) rather than a bot."""
        return _user_of(who) is not None

    def reading(self, who: str) -> Reading:
        found = self.readings.get(who)
        if found is None:
            found = self.readings[who] = Reading()
        return found

    def models(self, who: Sequence[str | None]) -> tuple[OpponentModel, ...]:
        """Per seat, the model of whoever sits there (a newcomer's: :data:`DEFAULT_MODEL`)."""
        out = []
        for key in who:
            model = self._models.get(key) if key is not None else None
            if model is None:
                reading = self.readings.get(key) if key is not None else None
                model = DEFAULT_MODEL if reading is None else reading.model()
                if key is not None and reading is not None:
                    self._models[key] = model
            out.append(model)
        return tuple(out)

    def learn(self, view: SeatView, who: Sequence[str | None]) -> None:
        """Learns from a finished hand as a spectator saw it (``view.seat`` is -1: nobody's
        cards but those the showdown showed); ``who`` names each seat's speaker (None: not
        learnt, e.g. a seat a bot played for a person this hand)."""
        if view.seat != -1:
            raise ValueError("learn from the public view of a hand (seat -1)")
        if view.players != 4 or view.revealed is None:
            return
        t = tables(view.rules.reyes, False)
        idx = [t.index(list(h)) for h in view.revealed]
        judge = Judge(view)
        words, mus_round, rounds = spoken(view)
        touched = {key: Reading(sparse=True) for key in who if key is not None}
        for w in words:
            key = who[w.seat]
            if key is None:
                continue
            strength = judge.strength(idx, w)
            touched[key].observe(situation(w.bet, w.ordago), strength, w.said,
                                 judge.expected(idx, w, strength))
        for seat, mus in mus_round:
            key = who[seat]
            if key is not None:
                touched[key].observe_mus(judge.wants_mus(idx, seat, rounds) != mus)
        for key, new in touched.items():
            if not new.words and not new.mus_seen:
                continue
            self._add(key, new)

    def _add(self, key: str, new: Reading) -> None:
        self._models.pop(key, None)
        self.reading(key).merge(new)
        user = _user_of(key)
        if user is not None:
            self._new[user] = self._new.get(user, 0) + 1

    def forget(self, user_id: int) -> None:
        """«Forget me»: nothing of this person is left here, nor due to be stored."""
        key = self.person(user_id)
        self.readings.pop(key, None)
        self._models.pop(key, None)
        self._fetched.discard(user_id)
        self._new.pop(user_id, None)

    # --- storage (the table layer's) ----------------------------------------------------------

    def wanted(self, people: Iterable[int]) -> list[int]:
        """Which of these people's stored readings have not been fetched yet."""
        return [u for u in people if u not in self._fetched]

    def fetched(self, user_id: int, stored: Reading | None) -> None:
        """The person's stored reading (None: nothing stored), added to what this table may
        have learnt of them meanwhile."""
        if user_id in self._fetched:
            return
        self._fetched.add(user_id)
        if stored is None:
            return
        key = self.person(user_id)
        self._models.pop(key, None)
        here = self.readings.get(key)
        if here is not None:
            stored.merge(here)
        self.readings[key] = stored

    def due(self, held: Collection[int] = (), every: int = 1) -> dict[int, Reading]:
        """Fetched people's readings with something new since they were last stored; those of
        the people ``held`` only once ``every`` hands taught something of them."""
        return {u: self.readings[self.person(u)] for u, hands in self._new.items()
                if (hands >= every or u not in held) and u in self._fetched
                and self.person(u) in self.readings}

    def stored(self, user_ids: Iterable[int]) -> None:
        for user_id in user_ids:
            self._new.pop(user_id, None)

    def to_json(self) -> dict[str, Any]:
        return {who: r.to_json() for who, r in self.readings.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OpponentMemory:
        """Raises ``ValueError`` on a damaged document."""
        return cls({str(who): Reading.from_json(r) for who, r in data.items()})

    def __iter__(self) -> Iterator[str]:
        return iter(self.readings)


def _user_of(key: str) -> int | None:
    kind, _, rest = key.partition(":")
    return int(rest) if kind == "user" and rest.isdigit() else None
