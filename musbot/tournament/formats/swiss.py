"""Swiss: a set number of rounds, each paired from the standings once the last is played
(the pairing itself is :mod:`..swiss`); the standings decide."""

from __future__ import annotations

from datetime import datetime

from .. import swiss
from ..errors import TournamentError
from ..model import Bracket, EventKind, Fixture, MatchState, Source, TournamentEvent
from ..settings import Format
from ..standings import PairStanding, swiss_table
from .base import Drawn, FormatRules, Podium, top_two


def add_round(t: Drawn, number: int, pairing: list[tuple[int, int]], bye: int | None) -> None:
    made = [Fixture(f"S{number}-{i}", Bracket.SWISS, number,
                    (Source("pair", a), Source("pair", b)))
            for i, (a, b) in enumerate(pairing, 1)]
    if bye is not None:
        made.append(Fixture(f"S{number}-{len(pairing) + 1}", Bracket.SWISS, number,
                            (Source("pair", bye), Source("bye"))))
    t._add_all(made)


class Swiss(FormatRules):
    format = Format.SWISS
    max_pairs = 4096
    """The format for the biggest fields."""

    def check(self, t: Drawn, count: int) -> None:
        rounds = t.settings.swiss_rounds or swiss.default_rounds(count)
        if rounds > swiss.max_rounds(count):
            raise TournamentError("tournament_too_many_rounds", rounds=rounds,
                                  limit=swiss.max_rounds(count))

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        t.plan["rounds"] = t.settings.swiss_rounds or swiss.default_rounds(len(seeds))
        pairing, bye = swiss.first_round(seeds)
        add_round(t, 1, pairing, bye)
        t.plan["paired"] = 1

    def standings(self, t: Drawn, group: int | None) -> list[PairStanding]:
        out = [p.id for p in t.pairs if p.disqualified]
        return swiss_table([p.id for p in t.pairs], list(t.matches.values()), out)

    def after(self, t: Drawn, now: datetime, events: list[TournamentEvent]) -> None:
        # Rounds before the last one paired are all decided (a replay takes back the later
        # ones), so nothing undecided means the last round is over.
        current = t.plan.get("paired", 0)
        if current < t.plan["rounds"] and not t._undecided:
            self._pair(t, current + 1, now, events)

    @staticmethod
    def _pair(t: Drawn, number: int, now: datetime, events: list[TournamentEvent]) -> None:
        table = [s.pair for s in t.standings() if not t.pairs[s.pair].disqualified]
        met = {frozenset(p for p in m.pairs if p is not None)
               for m in t.matches.values() if m.played and None not in m.pairs}
        had_bye = {m.winner_pair for m in t.matches.values() if m.state is MatchState.BYE}
        if len(table) < 2:
            t.plan["rounds"] = number - 1
            return
        pairing, bye = swiss.pair_round(table, met, {p for p in had_bye if p is not None})
        add_round(t, number, pairing, bye)
        t.plan["paired"] = number
        events.append(TournamentEvent(EventKind.ROUND_PAIRED))
        for match in [m for m in t.matches.values() if m.round == number]:
            t._refresh(match, now, events)

    def podium(self, t: Drawn) -> Podium | None:
        if t._undecided or t.plan.get("paired", 0) < t.plan["rounds"]:
            return None
        return top_two(t.standings())

    def taken_back(self, t: Drawn, match: Fixture) -> list[Fixture]:
        return [m for m in t.matches.values() if m.round > match.round]

    def reopened(self, t: Drawn, match: Fixture) -> None:
        t.plan["paired"] = match.round
