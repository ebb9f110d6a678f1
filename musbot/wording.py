"""A move and a card in words: the few sentences of the ``TABLE`` catalogue that both the table
(:mod:`musbot.table.render`) and the review (:mod:`musbot.coach.text`) show, below them both.

The table words its messages with these, and the review quotes a player's word exactly as the
table showed it; here, neither of them imports the other to say it.
"""

from __future__ import annotations

from collections.abc import Iterable

from musbot.engine import Action, ActionKind
from musbot.engine.actions import MIN_ENVITE
from musbot.engine.cards import Card, card_code, rank, suit
from musbot.i18n import TABLE, TYPED_WORD

SUIT_EMOJI: dict[str, str] = {"o": "🪙", "c": "🍷", "e": "🗡️", "b": "🪵"}


def card_text(card: Card) -> str:
    """``12🪙``: compact and unambiguous; the code ``12o`` stays the typed form."""
    return f"{rank(card)}{SUIT_EMOJI[suit(card)]}"


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards)


_SAID: dict[ActionKind, str] = {
    ActionKind.MUS: "said_mus", ActionKind.NO_HAY_MUS: "said_no_hay_mus",
    ActionKind.PASO: "said_paso", ActionKind.QUIERO: "said_quiero",
    ActionKind.NO_QUIERO: "said_no_quiero", ActionKind.ORDAGO: "said_ordago",
}


def typed_word(key: str, lang: str = "es") -> str:
    """A word a person types, as their language shows it (``WORDS``: «bota», «kartak»,
    «revue»…): one the grammar reads back as what it names (tests/test_i18n.py)."""
    return TYPED_WORD(key, lang)


def action_words(action: Action, lang: str = "es") -> str:
    """What a player says for this action, in the table's language, as the grammar reads it
    back (Basque «imido 5», «iduki», «bota 1o 12c»; the French rulebook says the same words,
    and «jette» for a discard)."""
    kind = action.kind
    if kind is ActionKind.DESCARTE:
        return " ".join([typed_word("discard", lang), *(card_code(c) for c in action.cards)])
    if kind is ActionKind.ENVIDO:
        if action.amount == MIN_ENVITE:
            return TABLE("said_envido", lang)
        return TABLE("said_envido_n", lang, amount=action.amount)
    if kind is ActionKind.MAS:
        return TABLE("said_mas", lang, amount=action.amount)
    key = _SAID.get(kind)
    return TABLE(key, lang) if key is not None else action.text()
