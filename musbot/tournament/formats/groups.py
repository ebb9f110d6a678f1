"""Groups, then a knockout: leagues balanced by seed, and the best of each group through to a
knockout drawn once every group's match is played (:func:`qualifiers`), by the tournament's
rule (:attr:`Settings.knockout_draw`: crossed, :mod:`.crossing`, or by the overall table)."""

from __future__ import annotations

from datetime import datetime

from .. import brackets
from ..model import Bracket, EventKind, Fixture, Source, TournamentEvent, is_odd
from ..settings import Format, KnockoutDraw
from .base import Drawn, Podium, top_two
from .crossing import Qualifier, crossed_slots
from .knockout import Knockout
from .league import league


def group_label(index: int) -> str:
    """A, B, …, Z, AA, AB, …: the groups' names in every language."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def group_sizes(n: int, size: int) -> list[int]:
    """Groups near ``size`` (round(n / size) of them, at least one), differing by one at most,
    larger groups first."""
    count = max(1, (n + size // 2) // size)
    base, extra = divmod(n, count)
    return [base + 1 if i < extra else base for i in range(count)]


def qualifiers(t: Drawn) -> list[int]:
    """The pairs that go through, best first: by place in their group, then by their results
    (wins, game and tanto difference), then by seed."""
    return [q.pair for q in ranked_qualifiers(t)]


def ranked_qualifiers(t: Drawn) -> list[Qualifier]:
    """:func:`qualifiers`, each with its group and place."""
    ranked = []
    for group in range(t.plan.get("groups", 0)):
        table = [s for s in t.standings(group) if not t.pairs[s.pair].disqualified]
        for place, row in enumerate(table[: t.plan["advance"]]):
            ranked.append(((place, -row.won, -row.games_diff, -row.tantos_diff, row.pair),
                           Qualifier(row.pair, group, place)))
    return [q for _, q in sorted(ranked, key=lambda r: r[0])]


class Groups(Knockout):
    format = Format.GROUPS
    max_pairs = 512

    def draw(self, t: Drawn, seeds: list[int]) -> None:
        """Groups balanced by seed (snake order: 1, 2, …, g, then g, …, 2, 1, …)."""
        sizes = group_sizes(len(seeds), t.settings.group_size)
        count = len(sizes)
        members: list[list[int]] = [[] for _ in range(count)]
        for i, pair in enumerate(seeds):
            row, col = divmod(i, count)
            group = count - 1 - col if is_odd(row) else col
            members[group].append(pair)
        t.plan["groups"] = count
        t.plan["advance"] = max(1, min(t.settings.advance, min(sizes) - 1))
        for group, pairs in enumerate(members):
            for pair in pairs:
                t.pairs[pair].group = group
            t._add_all(league(pairs, Bracket.GROUP, f"G{group_label(group)}", group))

    def after(self, t: Drawn, now: datetime, events: list[TournamentEvent]) -> None:
        if not t._undecided and not any(
                m.bracket is Bracket.WINNERS for m in t.matches.values()):
            self._draw_knockout(t, now, events)

    def _draw_knockout(self, t: Drawn, now: datetime, events: list[TournamentEvent]) -> None:
        through = ranked_qualifiers(t)
        if len(through) < 2:
            return
        if t.settings.knockout_draw is KnockoutDraw.CROSSED:
            matches = brackets.knockout_of_slots(
                crossed_slots(through, t.plan["groups"], t.plan["advance"]))
        else:
            matches = brackets.knockout([q.pair for q in through])
            _separate_groups(t, matches)
        t._add_all(matches)
        events.append(TournamentEvent(EventKind.KNOCKOUT_DRAWN))
        for match in matches:
            t._refresh(match, now, events)

    def podium(self, t: Drawn) -> Podium | None:
        if any(m.bracket is Bracket.WINNERS for m in t.matches.values()):
            return super().podium(t)
        if t._undecided:
            return None
        if t.plan.get("groups") == 1:  # one group: its table decides
            return top_two(t.standings(0))
        through = qualifiers(t)  # disqualifications left one or none to go through
        return (through[0] if through else None), None

    def taken_back(self, t: Drawn, match: Fixture) -> list[Fixture]:
        if match.bracket is not Bracket.GROUP:
            return []
        return [m for m in t.matches.values() if m.bracket is Bracket.WINNERS]


def _separate_groups(t: Drawn, matches: list[Fixture]) -> None:
    """Two pairs of one group do not meet again in the knockout's first round while a swap of
    the lower-placed pairs of two first-round matches avoids it."""
    first = [m for m in matches if m.round == 1]

    def group(source: Source) -> int | None:
        return None if source.kind != "pair" else t.pairs[int(source.ref or 0)].group

    def clash(match: Fixture) -> bool:
        a, b = (group(s) for s in match.sources)
        return a is not None and a == b

    for match in first:
        if not clash(match):
            continue
        for other in sorted(first, key=lambda m: abs(first.index(m) - first.index(match))):
            if other is match or other.sources[1].kind != "pair":
                continue
            swapped = (Fixture(match.id, match.bracket, 1, (match.sources[0], other.sources[1])),
                       Fixture(other.id, other.bracket, 1, (other.sources[0], match.sources[1])))
            if not any(clash(m) for m in swapped):
                match.sources, other.sources = swapped[0].sources, swapped[1].sources
                break
