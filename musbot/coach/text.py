"""A review in words, in its reader's language: the ``COACH`` catalogues, the words said as the
table shows them (:func:`musbot.table.render.action_words`), figures rounded to what a player
uses (whole percentages, tantos to a tenth)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from musbot.engine import Action, ActionKind, Card, Lance, codes
from musbot.i18n import catalog
from musbot.table.render import action_words

from .review import DecisionReview, Review

_K = ActionKind
_QUIET = (_K.PASO, _K.NO_QUIERO)


def say(key: str, lang: str, /, **params: Any) -> str:
    """One sentence of the ``COACH`` catalogue (Spanish when the language lacks it)."""
    table = getattr(catalog(lang), "COACH", None) or catalog("es").COACH
    text = table.get(key) or catalog("es").COACH[key]
    return str(text).format(**params) if params else str(text)


def percent(p: float, lang: str) -> str:
    """Whole points; 100 % and 0 % only when certain, so a rounded figure never reads as a
    certainty."""
    n = round(100 * p)
    if p < 1.0:
        n = min(n, 99)
    if p > 0.0:
        n = max(n, 1)
    return say("percent", lang, n=n)


def tantos(x: float, lang: str, *, sign: bool = True) -> str:
    text = f"{x:+.1f}" if sign else f"{x:.1f}"
    text = text.replace("-", "−")
    return text.replace(".", say("decimal_point", lang))


def word(action: Action, lang: str) -> str:
    """A word as the table shows it said in ``lang`` and the grammar reads it back («iduki»,
    «4 tantos gehiago»; a discard with its cards, the seat's own), quoted."""
    return say("quoted", lang, word=action_words(action, lang))


def lance_name(lance: Lance, lang: str) -> str:
    return str(catalog(lang).LANCES[int(lance)])


CardsShown = Callable[[Sequence[Card]], str]


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(codes(cards))


def lines(result: Review, lang: str = "es", *, hand_number: int | None = None,
          show: CardsShown = _codes) -> list[str]:
    """The review as lines: a heading, one line per decision, the advice. ``show`` writes the
    seat's own cards as the caller does (emoji at a table, codes in a terminal)."""
    head = say("heading", lang) if hand_number is None else \
        say("heading_hand", lang, number=hand_number)
    out = [head]
    if result.players != 4:
        out.append(say("four_only", lang))
        return out
    if not result.decisions:
        out.append(say("no_decisions", lang))
        return out
    if not result.finished:
        out.append(say("in_play", lang))
    for d in result.decisions:
        out.append(_decision(d, lang, show))
    out.append(advice(result, lang))
    return out


def _decision(d: DecisionReview, lang: str, show: CardsShown) -> str:
    c = d.chances
    said = say("you_said", lang, played=word(d.played, lang), bot=word(d.bot, lang))
    options = " · ".join(
        say("option_game" if o.risky else "option", lang, word=word(o.action, lang),
            tantos=tantos(o.tantos, lang), game=percent(o.game, lang)) for o in d.options)
    if d.lance is None:
        pair = ", ".join(say("lance_chance", lang, lance=lance_name(lance, lang),
                             chance=percent(p, lang)) for lance, p in c.pair.items()
                         if lance is not Lance.PUNTO)
        phase = say("phase_mus" if d.phase == "mus" else "phase_descarte", lang)
        line = say("line_mus", lang, phase=phase, cards=show(d.cards), said=said, pair=pair,
                   pares=percent(c.opp_pares, lang), juego=percent(c.opp_juego, lang))
    else:
        line = say("line_lance", lang, lance=lance_name(d.lance, lang), said=said,
                   chance=percent(c.pair.get(d.lance, 0.0), lang),
                   pares=percent(c.opp_pares, lang), juego=percent(c.opp_juego, lang))
    if options:
        line += " " + say("options", lang, options=options)
    return line


def advice(result: Review, lang: str) -> str:
    """One line where the player's word cost the most, in plain words."""
    worst = result.worst
    if worst is None:
        return say("advice_none", lang)
    best = worst.best
    assert best is not None
    if worst.lance is None:
        return say("advice_mus" if worst.phase == "mus" else "advice_descarte", lang,
                   best=word(best.action, lang), played=word(worst.played, lang),
                   cost=tantos(worst.cost, lang, sign=False))
    bolder = worst.played.kind in _QUIET and best.action.kind not in _QUIET
    calmer = best.action.kind in _QUIET and worst.played.kind not in _QUIET
    key = "advice_bolder" if bolder else "advice_calmer" if calmer else "advice_other"
    return say(key, lang, lance=lance_name(worst.lance, lang), best=word(best.action, lang),
               played=word(worst.played, lang), cost=tantos(worst.cost, lang, sign=False),
               chance=percent(worst.chances.pair.get(worst.lance, 0.0), lang))


def text(result: Review, lang: str = "es", *, hand_number: int | None = None,
         show: CardsShown = _codes) -> str:
    return "\n".join(lines(result, lang, hand_number=hand_number, show=show))


__all__ = ["advice", "lines", "percent", "say", "tantos", "text", "word"]
