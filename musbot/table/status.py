"""The table at a glance: the variants, the seats, and what changes in a match (score, games,
mano, the lance and its bet, whose turn).

A match's part is read from a view as :class:`StatusFacts`, which has no field for a card or a
legal move, so nothing private can reach the status; it is worded only when it is shown
(:func:`facts_lines`): a table message is edited at most once a second, to show what the last
of that second's changes left, so most changes of a busy table are never worded at all.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import NamedTuple

from musbot.engine import Lance, SeatView
from musbot.engine.rules import Rules
from musbot.i18n import TABLE

from .render import Names, count, lance_name, name_of, pair_label, score_text

NameList = tuple[tuple[int, str], ...]
"""Seats' names as ``tuple(names.items())``: hashable, so worded lines can be cached."""


class StatusFacts(NamedTuple):
    """What the status lines of a match say: equal facts (and names), equal lines."""

    scores: tuple[int, int]
    target: int
    games: tuple[int, int]
    vacas: tuple[int, int]
    match_winner: int | None
    mano: int
    phase: str
    lance: Lance | None
    ordago: bool
    bettor: int | None
    bet: int
    to_act: int | None
    players: int


def status_facts(view: SeatView) -> StatusFacts:
    """The public facts of any seat's view (its cards are not read)."""
    return StatusFacts(view.scores, view.target, view.games, view.vacas, view.match_winner,
                       view.mano, view.phase, view.lance, view.ordago, view.bettor, view.bet,
                       view.to_act, view.players)


def facts_lines(facts: StatusFacts, names: NameList, lang: str = "es") -> tuple[str, ...]:
    """The status lines of ``facts``, with the seats' ``names``."""
    by_seat = dict(names)
    lines = [score_text(facts.scores, facts.target, facts.players, lang),
             TABLE("status_games", lang, a=facts.games[0], b=facts.games[1], c=facts.vacas[0],
                   d=facts.vacas[1])]
    if facts.match_winner is not None:
        lines.append(TABLE("status_finished", lang))
        return tuple(lines)
    lines.append(TABLE("status_mano", lang, name=name_of(facts.mano, by_seat, lang)))
    if facts.phase == "mus":
        lines.append(TABLE("status_mus", lang))
    elif facts.phase == "descarte":
        lines.append(TABLE("status_descarte", lang))
    elif facts.lance is not None:
        lines.append(TABLE("status_lance", lang, lance=lance_name(facts.lance, lang)))
        if facts.ordago:
            lines.append(TABLE("status_ordago", lang, name=name_of(facts.bettor, by_seat, lang)))
        elif facts.bet:
            lines.append(TABLE("status_bet", lang, bet=facts.bet,
                               name=name_of(facts.bettor, by_seat, lang)))
    if facts.to_act is not None:
        lines.append(TABLE("status_turn", lang, name=name_of(facts.to_act, by_seat, lang)))
    return tuple(lines)


def status_lines(view: SeatView, names: Names, lang: str = "es") -> list[str]:
    """What changes in a match, worded from ``view``'s public facts."""
    return list(facts_lines(status_facts(view), tuple(names.items()), lang))


def rules_text(rules: Rules, lang: str = "es") -> str:
    variants = [TABLE("variant_reyes", lang, reyes=rules.reyes)]
    if rules.real:
        variants.append(TABLE("variant_real", lang))
    if rules.mus_corrido:
        variants.append(TABLE("variant_corrido", lang))
    if not rules.senas:
        variants.append(TABLE("variant_sin_senas", lang))
    return "\n".join([
        TABLE("status_rules", lang, players=rules.jugadores,
              target=count("tantos", rules.puntos, lang),
              juegos=count("juegos", rules.juegos, lang), vacas=count("vacas", rules.vacas, lang)),
        TABLE("variants", lang, list=", ".join(variants)),
    ])


def _seat_label(names: Names, notes: Mapping[int, str], seat: int, lang: str) -> str:
    """«Ana (bot)»: who sits there, with the table's note on them; or «libre»."""
    who = names.get(seat)
    return f"{who} {notes.get(seat, '')}".strip() if who else TABLE("status_free", lang)


def seats_lines(names: Names, notes: Mapping[int, str], players: int,
                lang: str = "es") -> list[str]:
    """«Asiento 1: Ana (bot)» for every seat, grouped by pair."""
    lines = []
    for team in (0, 1):
        lines.append(TABLE("pair_heading", lang, label=pair_label(team, players, lang)))
        for seat in range(team, players, 2):
            label = _seat_label(names, notes, seat, lang)
            lines.append("  " + TABLE("status_seat", lang, seat=seat + 1, name=label))
    return lines


def status_text(view: SeatView | None, names: Names, notes: Mapping[int, str], rules: Rules,
                lang: str = "es") -> str:
    """The table at a glance: seats by pair, score, lance, standing bet, whose turn."""
    lines = [_status_head(rules, tuple(names.items()), tuple(notes.items()), lang)]
    if view is None:
        full = len(names) >= rules.jugadores
        lines.append(TABLE("status_ready" if full else "status_waiting", lang))
        return "\n".join(lines)
    lines += status_lines(view, names, lang)
    return "\n".join(lines)


def seats_text(names: NameList, notes: Mapping[int, str], players: int, lang: str = "es") -> str:
    """«Pareja 1: Ana, Bot 3 · Pareja 2: Bot 2 (bot), …»: the seats on one line."""
    return _seats_text(names, tuple(notes.items()), players, lang)


@functools.lru_cache(maxsize=4096)
def _seats_text(names: NameList, notes: NameList, players: int, lang: str) -> str:
    """Cached: the footer of every edit of a table message, the same until someone sits down,
    leaves or comes back."""
    by_seat, noted = dict(names), dict(notes)
    pairs = []
    for team in (0, 1):
        members = [_seat_label(by_seat, noted, seat, lang) for seat in range(team, players, 2)]
        pairs.append(TABLE("pair_members", lang, label=pair_label(team, players, lang),
                           members=", ".join(members)))
    return " · ".join(pairs)


@functools.lru_cache(maxsize=4096)
def _status_head(rules: Rules, names: NameList, notes: NameList, lang: str) -> str:
    """The variants and the seats: the same at every edit of a table message until someone sits
    down or leaves, and a busy bot edits a thousand table messages a second."""
    return "\n".join([rules_text(rules, lang),
                      *seats_lines(dict(names), dict(notes), rules.jugadores, lang)])


__all__ = ["StatusFacts", "facts_lines", "rules_text", "seats_lines", "seats_text",
           "status_facts", "status_lines", "status_text"]
