"""A review in words, in its reader's language: the ``COACH`` catalogues, the words said as the
table shows them (:func:`musbot.wording.action_words`), figures rounded to what a player
uses (whole percentages, tantos to a tenth)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from musbot.engine import Action, ActionKind, Card, Lance, codes
from musbot.i18n import COACH, LANCE_NAME
from musbot.wording import action_words

from .options import Option
from .review import DecisionReview, Review

_K = ActionKind
_QUIET = (_K.PASO, _K.NO_QUIERO)


def percent(p: float, lang: str) -> str:
    """Whole points; 100 % and 0 % only when certain, so a rounded figure never reads as a
    certainty."""
    n = round(100 * p)
    if p < 1.0:
        n = min(n, 99)
    if p > 0.0:
        n = max(n, 1)
    return COACH("percent", lang, n=n)


def tantos(x: float, lang: str, *, sign: bool = True) -> str:
    text = f"{x:+.1f}" if sign else f"{x:.1f}"
    text = text.replace("-", "−")
    return text.replace(".", COACH("decimal_point", lang))


def word(action: Action, lang: str) -> str:
    """A word as the table shows it said in ``lang`` and the grammar reads it back («iduki»,
    «4 tantos gehiago»; a discard with its cards, the seat's own), quoted."""
    return COACH("quoted", lang, word=action_words(action, lang))


def lance_name(lance: Lance, lang: str) -> str:
    return LANCE_NAME(int(lance), lang)


CardsShown = Callable[[Sequence[Card]], str]


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(codes(cards))


def lines(result: Review, lang: str = "es", *, hand_number: int | None = None,
          show: CardsShown = _codes) -> list[str]:
    """The review as lines: a heading, one line per decision, the advice. ``show`` writes the
    seat's own cards as the caller does (emoji at a table, codes in a terminal)."""
    head = COACH("heading", lang) if hand_number is None else \
        COACH("heading_hand", lang, number=hand_number)
    out = [head]
    if result.players != 4:
        out.append(COACH("four_only", lang))
        return out
    if not result.decisions:
        out.append(COACH("no_decisions", lang))
        return out
    if not result.finished:
        out.append(COACH("in_play", lang))
    for d in result.decisions:
        out.append(_decision(d, lang, show))
    out.append(advice(result, lang))
    return out


SHOWN_ERROR = 0.25
"""A value is shown with its uncertainty («+3,0 ± 1,0», two standard errors) when its
standard error is at least this: when it is not known to half a tanto."""


def option(o: Option, lang: str) -> str:
    """One word's value: its tantos, ± two standard errors when they reach half a tanto, and
    the chance to win the game when the word stakes it."""
    sure = o.error < SHOWN_ERROR
    key = ("option_game" if sure else "option_game_error") if o.risky else \
        ("option" if sure else "option_error")
    return COACH(key, lang, word=word(o.action, lang), tantos=tantos(o.tantos, lang),
                 error=tantos(2 * o.error, lang, sign=False), game=percent(o.game, lang))


def said_words(d: DecisionReview, lang: str) -> str:
    """What the player said against the word worth the most among those shown (the advice's),
    so the words never contradict the figures beside them."""
    best = d.best
    played = word(d.played, lang)
    if best is None:
        return COACH("you_said_only", lang, played=played)
    if best.action == d.played:
        return COACH("you_said_best", lang, played=played)
    return COACH("you_said", lang, played=played, best=word(best.action, lang))


def bot_words(d: DecisionReview, lang: str) -> str | None:
    """At a betting turn where «dificil» would have said another word than the one worth the
    most tantos, why: it plays for the game, not the tantos (its word gives the better chance
    to win the game, both figures shown), or it does not stake the game on an órdago without a
    clear margin. None when it would say the best word, or for no reason the figures show."""
    best = d.best
    if d.lance is None or best is None or d.bot == best.action:
        return None
    bot = next((o for o in d.options if o.action == d.bot), None)
    if bot is None:
        return None
    if bot.game > best.game:
        return COACH("bot_game", lang, bot=word(d.bot, lang), bot_game=percent(bot.game, lang),
                     best_game=percent(best.game, lang))
    if best.risky and not bot.risky:
        return COACH("bot_safe", lang, bot=word(d.bot, lang))
    return None


def _decision(d: DecisionReview, lang: str, show: CardsShown) -> str:
    c = d.chances
    said = said_words(d, lang)
    options = " · ".join(option(o, lang) for o in d.options)
    if d.lance is None:
        pair = ", ".join(COACH("lance_chance", lang, lance=lance_name(lance, lang),
                               chance=percent(p, lang)) for lance, p in c.pair.items()
                         if lance is not Lance.PUNTO)
        phase = COACH("phase_mus" if d.phase == "mus" else "phase_descarte", lang)
        line = COACH("line_mus", lang, phase=phase, cards=show(d.cards), said=said, pair=pair,
                     pares=percent(c.opp_pares, lang), juego=percent(c.opp_juego, lang))
    else:
        line = COACH("line_lance", lang, lance=lance_name(d.lance, lang), said=said,
                     chance=percent(c.pair.get(d.lance, 0.0), lang),
                     pares=percent(c.opp_pares, lang), juego=percent(c.opp_juego, lang))
    if options:
        line += " " + COACH("options", lang, options=options)
    why = bot_words(d, lang)
    if why is not None:
        line += " " + why
    return line


def advice(result: Review, lang: str) -> str:
    """One line where the player's word cost the most, in plain words."""
    worst = result.worst
    if worst is None:
        return COACH("advice_none", lang)
    best = worst.best
    assert best is not None
    if worst.lance is None:
        return COACH("advice_mus" if worst.phase == "mus" else "advice_descarte", lang,
                     best=word(best.action, lang), played=word(worst.played, lang),
                     cost=tantos(worst.cost, lang, sign=False))
    bolder = worst.played.kind in _QUIET and best.action.kind not in _QUIET
    calmer = best.action.kind in _QUIET and worst.played.kind not in _QUIET
    key = "advice_bolder" if bolder else "advice_calmer" if calmer else "advice_other"
    return COACH(key, lang, lance=lance_name(worst.lance, lang), best=word(best.action, lang),
                 played=word(worst.played, lang), cost=tantos(worst.cost, lang, sign=False),
                 chance=percent(worst.chances.pair.get(worst.lance, 0.0), lang))


def text(result: Review, lang: str = "es", *, hand_number: int | None = None,
         show: CardsShown = _codes) -> str:
    return "\n".join(lines(result, lang, hand_number=hand_number, show=show))


__all__ = ["SHOWN_ERROR", "advice", "bot_words", "lines", "option", "percent", "said_words",
           "tantos", "text", "word"]
