"""The command grammar: what a player types at the table, turned into an engine :class:`Action`
or into one of the table's other requests («vuelvo», «cartas», «seña dos reyes»).

The words are :mod:`musbot.words`'s; this module is the parser that reads them. Every chat
message, DM, terminal line and replay action goes through it, so two promises matter more than
coverage:

- ordinary chat is never mistaken for a bet: a message is a command only if *all* of it is one
  (after a few harmless fillers such as "pues", "venga", "tío"), otherwise the answer is ``None``;
- a message that clearly tries to be a command but is wrong (``envido 1``, ``descarto 9``) raises
  :class:`MalformedCommand`, so the player hears why instead of being silently ignored.

The verbs are those of docs/rules.md §2 (mus phase) and §4 (betting); the señas those of §7.
Spanish is the table language; Basque, French and English are accepted too, and each reader
is shown their own first (:class:`Shown`). Matching is case-, accent- and
punctuation-insensitive (:func:`musbot.words.normalise`).

Two modules: :mod:`~musbot.grammar.moves`, the token parser for every form a move takes and the
whole-message requests; :mod:`~musbot.grammar.suggest`, the words told to people and the «did
you mean» that share its tokens. The word tables are in :mod:`musbot.words`.
"""

from .moves import (
    HAND_SIZE,
    MAX_AMOUNT_DIGITS,
    MAX_CHARS,
    Command,
    Move,
    Request,
    SendSena,
    asks_for_cards,
    asks_for_help,
    asks_for_status,
    asks_to_quit,
    is_come_back,
    parse,
    parse_sena,
    read,
    sena_from_text,
    sena_named,
)
from .suggest import CANONICAL, Shown, suggest, vocabulary

__all__ = ["CANONICAL", "HAND_SIZE", "MAX_AMOUNT_DIGITS", "MAX_CHARS", "Command", "Move",
           "Request", "SendSena", "Shown", "asks_for_cards", "asks_for_help", "asks_for_status",
           "asks_to_quit", "is_come_back", "parse", "parse_sena", "read", "sena_from_text",
           "sena_named", "suggest", "vocabulary"]
