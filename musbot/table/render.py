"""Text for a table: public lines from events, private lines from one seat's view.

Privacy is structural here: public text is built only from events (which hold no private card until
:class:`~musbot.engine.events.Showdown`) and from the public facts of a view
(:mod:`~musbot.table.status`); private text only from the view of the seat that will read it.
A move's and a card's words are :mod:`musbot.wording`'s, below the table: the review
(:mod:`musbot.coach`) quotes them too.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from musbot.engine import Action, ActionKind, Lance, SeatView
from musbot.engine import events as ev
from musbot.engine.cards import Card, rank, suit
from musbot.engine.senas import Sena, senas_de_mano
from musbot.grammar import Shown
from musbot.i18n import (
    COMMON,
    LANCE_NAME,
    RANK_NAME,
    SCORE_KIND,
    SENA_GESTURE,
    SENA_NAME,
    SUIT_NAME,
    TABLE,
)
from musbot.wording import SUIT_EMOJI as SUIT_EMOJI
from musbot.wording import action_words as action_words
from musbot.wording import card_text as card_text
from musbot.wording import cards_text as cards_text
from musbot.wording import typed_word as typed_word

Names = Mapping[int, str]

PAIR_LABELS = ("1", "2")


def card_name(card: Card, lang: str = "es") -> str:
    return COMMON("CARD_NAME", lang, rank=RANK_NAME(rank(card), lang),
                  suit=SUIT_NAME(suit(card), lang))


def lance_name(lance: Lance, lang: str = "es") -> str:
    return LANCE_NAME(int(lance), lang)


def name_of(seat: int | None, names: Names, lang: str = "es") -> str:
    if seat is None:
        return COMMON("NOBODY", lang)
    return names.get(seat) or COMMON("SEAT", lang, seat=seat + 1)


def side(key: str, players: int) -> str:
    """The catalogue key that names a side: ``pair…`` at four, ``team…`` at two or six, where a
    side is one person or three (docs/rules.md §8) and Basque says *taldea*, not *bikotea*."""
    return key if players == 4 else key.replace("pair", "team", 1)


def pair_label(team: int, players: int, lang: str = "es") -> str:
    """«Pareja 1», «1. bikotea»; «Equipo 1», «1. taldea» at two or six."""
    return TABLE(side("pair_label", players), lang, label=PAIR_LABELS[team])


def pair_text(team: int, names: Names, players: int, lang: str = "es", *,
              form: str = "pair") -> str:
    """«la pareja 1 (Ana y Carlos)»: pairs by label and by who sits in them. ``form`` is the
    sentence's: ``pair`` (its object, or after a colon), ``pair_agent`` (the one who takes:
    Basque «1. bikoteak (…)»), ``pair_bare`` (without the article: «Place 1, équipe 1»)."""
    members = [name_of(s, names, lang) for s in range(team, players, 2)]
    joined = TABLE("and", lang).join([", ".join(members[:-1]), members[-1]] if len(members) > 2
                                     else members)
    return TABLE(side(form, players), lang, label=PAIR_LABELS[team], names=joined)


def count(noun: str, n: int, lang: str = "es") -> str:
    """«1 tanto», «2 tantos», French «0 point»: ``noun_n`` is a plural sentence of the catalog,
    in the form the language's own rule gives for ``n``."""
    return TABLE(f"{noun}_n", lang, n=n)


def tantos_text(tantos: int, target: int, lang: str = "es") -> str:
    """Tantos with amarrakos (5 tantos each; none said below the first), and «dentro» at
    target − 5 or more (§5)."""
    amarrakos, resto = divmod(tantos, 5)
    text = count("tantos", tantos, lang) if not amarrakos else \
        TABLE("tantos", lang, tantos=count("tantos", tantos, lang),
              amarrakos=count("amarrakos", amarrakos, lang), resto=resto)
    if tantos >= target - 5:
        text += TABLE("dentro", lang)
    return text


def score_text(scores: Sequence[int], target: int, players: int, lang: str = "es") -> str:
    return _score_text(scores[0], scores[1], target, players, lang)


@functools.lru_cache(maxsize=4096)
def _score_text(a: int, b: int, target: int, players: int, lang: str) -> str:
    """Cached: the table message shows the score at every edit (a thousand a second on a busy
    bot) and it changes only when a hand ends."""
    parts = [TABLE("score", lang, label=pair_label(team, players, lang),
                   tantos=tantos_text(tantos, target, lang)) for team, tantos in ((0, a), (1, b))]
    return TABLE("score_line", lang, a=parts[0], b=parts[1])


@functools.cache
def shown(lang: str = "es") -> Shown:
    """The moves in ``lang``'s words, for a help listing them and a «did you mean»."""
    return Shown(move=functools.partial(action_words, lang=lang),
                 discard=typed_word("discard", lang), all_cards=typed_word("all_cards", lang))


# --- public: events -----------------------------------------------------------------------------


def event_lines(event: ev.Event, names: Names, *, players: int, target: int,
                lang: str = "es") -> list[str]:
    """One public event as zero or more lines."""
    if isinstance(event, ev.Spoke):  # most events are words: first, before the helpers
        return [_spoke(event, name_of(event.seat, names, lang), lang)]

    def n(seat: int | None) -> str:
        return name_of(seat, names, lang)

    def pair(team: int, form: str = "pair") -> str:
        return pair_text(team, names, players, lang, form=form)
    if isinstance(event, ev.HandStarted):
        key = "hand_started_corrido" if event.corrido else "hand_started"
        return [TABLE(key, lang, mano=n(event.mano))]
    if isinstance(event, ev.MusSaid):
        return [TABLE("mus" if event.mus else "no_hay_mus", lang, name=n(event.seat))]
    if isinstance(event, ev.ManoChanged):
        return [TABLE("mano_changed", lang, name=n(event.mano))]
    if isinstance(event, ev.Discarded):
        return [TABLE("discarded", lang, name=n(event.seat), count=event.cards)]
    if isinstance(event, ev.CardsReplaced):
        return [TABLE("replaced", lang)]
    if isinstance(event, ev.Reshuffled):
        return [TABLE("reshuffled", lang)]
    if isinstance(event, ev.LanceStarted):
        return [TABLE("lance_started", lang, lance=lance_name(event.lance, lang))]
    if isinstance(event, ev.Declared):
        items = [TABLE("declared_yes" if has else "declared_no", lang, name=n(seat))
                 for seat, has in enumerate(event.has)]
        return [TABLE("declared", lang, lance=lance_name(event.lance, lang), list=", ".join(items))]
    if isinstance(event, ev.LanceWithoutBetting):
        lance = lance_name(event.lance, lang)
        if event.team is None:
            return [TABLE("no_betting_none", lang, lance=lance)]
        return [TABLE("no_betting_team", lang, lance=lance, pair=pair(event.team, "pair_agent"))]
    if isinstance(event, ev.LanceEnded):
        return [_lance_ended(event, names, players, lang)]
    if isinstance(event, ev.Showdown):
        lines = [TABLE("showdown", lang)]
        lines += [TABLE("showdown_hand", lang, name=n(seat), cards=cards_text(hand))
                  for seat, hand in enumerate(event.hands)]
        best = [TABLE("showdown_winner", lang, lance=lance_name(lance, lang),
                      name=n(event.winners.get(lance.nombre)))
                for lance in Lance if event.winners.get(lance.nombre) is not None]
        if best:
            lines.append(TABLE("showdown_winners", lang, list=", ".join(best)))
        return lines
    if isinstance(event, ev.Scored):
        if event.kind == "ordago":
            return []
        kind = SCORE_KIND.get(event.kind, lang, event.kind)
        return [TABLE("scored", lang, lance=lance_name(event.lance, lang), tantos=event.tantos,
                      pair=pair(event.team, "pair_agent"), kind=kind,
                      score=score_text(event.scores, target, players, lang))]
    if isinstance(event, ev.GameWon):
        return [TABLE("game_won_ordago" if event.ordago else "game_won", lang,
                      pair=pair(event.team), a=event.games[0], b=event.games[1])]
    if isinstance(event, ev.HandEnded):
        return [TABLE("hand_ended", lang, score=score_text(event.scores, target, players, lang))]
    if isinstance(event, ev.VacaWon):
        return [TABLE("vaca_won", lang, pair=pair(event.team), a=event.vacas[0], b=event.vacas[1])]
    if isinstance(event, ev.MatchWon):
        return [TABLE("match_won", lang, pair=pair(event.team))]
    return []


def _spoke(event: ev.Spoke, name: str, lang: str) -> str:
    kind = event.action.kind
    if kind is ActionKind.ORDAGO:
        return TABLE("spoke_ordago", lang, name=name)
    if kind in (ActionKind.ENVIDO, ActionKind.MAS):
        return TABLE("spoke_total", lang, name=name, words=action_words(event.action, lang),
                     total=event.total)
    return TABLE("spoke", lang, name=name, words=action_words(event.action, lang))


def _lance_ended(event: ev.LanceEnded, names: Names, players: int, lang: str) -> str:
    lance = lance_name(event.lance, lang)
    if event.outcome == "deje" and event.team is not None:
        return TABLE("lance_deje", lang, lance=lance, tantos=event.tantos,
                     pair=pair_text(event.team, names, players, lang, form="pair_agent"))
    if event.outcome == "querido":
        return TABLE("lance_querido", lang, lance=lance, tantos=event.tantos)
    if event.outcome == "ordago":
        return TABLE("lance_ordago", lang, lance=lance)
    return TABLE("lance_paso", lang, lance=lance)


# --- public: status -----------------------------------------------------------------------------


# --- private ------------------------------------------------------------------------------------


def sena_name(sena: Sena, lang: str = "es") -> str:
    """A seña's name as its reader says it («dos reyes», «bi errege», «deux rois»): one the
    grammar reads back typed (``musbot.words.SENA_NAMES``)."""
    return SENA_NAME(sena.nombre, lang)


def sena_gesture(sena: Sena, lang: str = "es") -> str:
    """The gesture of docs/rules.md §7 that the receiver of ``sena`` sees."""
    return SENA_GESTURE(sena.nombre, lang)


def sena_text(sender: str, sena: Sena, *, caught: bool, lang: str = "es") -> str:
    """What the receiver of a seña reads: the gesture and, since this is a game aid, its name."""
    key = "sena_caught" if caught else "sena_partner"
    return TABLE(key, lang, name=sender, gesture=sena_gesture(sena, lang),
                 sena=sena_name(sena, lang))


def legal_words(legal: Sequence[Action], lang: str = "es") -> str:
    """The legal moves as a player would type them; discards collapse to one hint."""
    if legal and legal[0].kind is ActionKind.DESCARTE:
        return TABLE("discard_hint", lang)
    return ", ".join(dict.fromkeys(action_words(a, lang) for a in legal))


@functools.lru_cache(maxsize=1024)
def _cards_lines(cards: tuple[Card, ...], reyes: int, real: bool, senas_allowed: bool,
                 lang: str, new: int = 0) -> tuple[str, ...]:
    """The cards and señas part of :func:`hand_text`, the same all hand long for a seat: cached
    (a seat's text is rendered again whenever its moves change). Every deal misses it, new cards
    at every seat, so its parts are cached on their own. Sized for the seats of 256 tables:
    past that a seat's hand is rarely asked again before it is pushed out."""
    lines = [TABLE("your_cards", lang)]
    lines += [_card_line(i, c, reyes, lang, i > len(cards) - new)
              for i, c in enumerate(cards, start=1)]
    if senas_allowed:
        lines.append(_senas_line(senas_de_mano(cards, reyes, real), lang))
    else:
        lines.append(TABLE("senas_not_now", lang))
    return tuple(lines)


@functools.cache
def _card_line(position: int, card: Card, reyes: int, lang: str, new: bool = False) -> str:
    """With 8 reyes a 3 is a rey and a 2 an as (§1): said beside the card, where it is read.
    ``new``: dealt in the last discard, and marked so."""
    text = f"{card_text(card)} {card_name(card, lang)}"
    if reyes == 8 and rank(card) in _COUNTS_AS:
        text = TABLE(_COUNTS_AS[rank(card)], lang, card=text)
    return TABLE("card_line_new" if new else "card_line", lang, n=position, card=text)


_COUNTS_AS = {3: "card_as_rey", 2: "card_as_as"}


@functools.cache
def _senas_line(posibles: tuple[Sena, ...], lang: str) -> str:
    if not posibles:
        return TABLE("senas_none", lang)
    return TABLE("senas_allowed", lang, list=", ".join(sena_name(s, lang) for s in posibles))


def hand_text(view: SeatView, names: Names, *, received: Sequence[tuple[str, Sena, bool]] = (),
              senas_allowed: bool = True, lang: str = "es") -> str:
    """The private «Ver mis cartas»: own cards numbered 1–4 (positions for «descarto 1 3»), the
    señas this hand may show, señas received this hand, and the moves when it is this seat's
    turn. Only for the seat the view belongs to."""
    lines = [TABLE("you_are", lang, seat=view.seat + 1,
                   pair=pair_text(view.team, names, view.players, lang, form="pair_bare"),
                   mano=name_of(view.mano, names, lang))]
    new = view.discards[-1][view.seat] if view.discards else 0  # the last ones dealt (§2)
    lines += _cards_lines(view.cards, view.rules.reyes, view.rules.real, senas_allowed, lang,
                          new)
    if received:
        lines.append(TABLE("senas_received", lang))
        lines += ["  " + sena_text(sender, sena, caught=caught, lang=lang)
                  for sender, sena, caught in received]
    if view.revealed is not None:
        lines.append(TABLE("revealed", lang))
        lines += ["  " + TABLE("showdown_hand", lang, name=name_of(s, names, lang),
                               cards=cards_text(h)) for s, h in enumerate(view.revealed)]
    if view.my_turn and view.legal:
        lines.append(TABLE("your_turn", lang, words=legal_words(view.legal, lang)))
    return "\n".join(lines)
