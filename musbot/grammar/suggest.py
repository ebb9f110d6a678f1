"""The grammar told to people: the words it reads, each move in the reader's language first
(for a help text), and the «did you mean» for a near miss, from the same tokens as the parser."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from musbot.engine.actions import (
    MIN_ENVITE,
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    descarte,
    envido,
    mas,
)
from musbot.engine.cards import Card, parse_card
from musbot.engine.errors import MusError
from musbot.words import (
    ALL_CARDS_WORDS,
    DISCARD_VERBS,
    ENVIDO_VERBS,
    FIXED_PHRASES,
    LANCE_WORDS,
    LEADING_FILLERS,
    LIST_CONNECTORS,
    MORE_WORDS,
    POSTFIX_ENVIDO_VERBS,
    RAISE_VERBS,
    TANTOS_WORDS,
    TRAILING_FILLERS,
    WEAK_RAISE_VERBS,
    normalise,
)

from .moves import _HAS_DIGIT, _NUMBER_TOKENS, MAX_CHARS, _tokens, parse

__all__ = ["CANONICAL", "SUGGEST_CUTOFF", "Shown", "suggest", "vocabulary"]

SUGGEST_CUTOFF: Final = 0.75
"""difflib's similarity from which a word is a near miss: «envdo» (0.91) is envido, «quero»
(0.91) quiero, but «mis» (0.67) is not mus."""
SUGGEST_MIN_CHARS: Final = 3
"""Shorter words are too close to too many others to guess from."""

_FIXED_MOVES: Final = (MUS, NO_HAY_MUS, PASO, QUIERO, NO_QUIERO, ORDAGO)

_WRITTEN: Final[dict[str, str]] = {
    normalise(word): word
    for action in (*_FIXED_MOVES, mas(MIN_ENVITE)) for word in action.text().split()
}
"""Table words as a person writes them: the tables hold ``ordago`` and ``mas``, the canonical
words say «órdago» and «más»."""

_WORDS: Final[frozenset[str]] = frozenset(
    word
    for phrase in (*FIXED_PHRASES, *ENVIDO_VERBS, *RAISE_VERBS, *WEAK_RAISE_VERBS, *MORE_WORDS,
                   *POSTFIX_ENVIDO_VERBS, *TANTOS_WORDS, *ALL_CARDS_WORDS,
                   *(" ".join(verb) for verb in DISCARD_VERBS))
    for word in phrase.split()
)
"""Every word a command is made of: the candidates for a near miss."""

_KNOWN: Final[frozenset[str]] = _WORDS | LIST_CONNECTORS | LEADING_FILLERS | TRAILING_FILLERS \
    | LANCE_WORDS | _NUMBER_TOKENS
"""Words left as they are when looking for a near miss."""


def _written(phrase: str) -> str:
    return " ".join(_WRITTEN.get(word, word) for word in phrase.split())


@dataclass(frozen=True, slots=True)
class Shown:
    """How a reader's language writes the moves: the words a help lists first, and those a
    suggestion is given in. The defaults are the canonical (Spanish) words;
    :func:`musbot.table.render.shown` gives a language's, from its catalogue (each one the
    grammar reads back: tests/test_i18n.py)."""

    move: Callable[[Action], str] = Action.text
    """A move as the table shows it said («iduki», «3 gehiago»; a discard with its cards)."""
    discard: str = "descarto"
    """The discard's verb («bota», «jette»)."""
    all_cards: str = "todas"
    """«descarto todas»: the whole hand («denak», «tout»)."""


CANONICAL: Final = Shown()


def vocabulary(shown: Shown = CANONICAL, amount: int = 5, raise_by: int = 3
               ) -> list[tuple[str, tuple[str, ...]]]:
    """Each move in the reader's words (``shown``), with every other way the grammar reads it
    (the other languages, synonyms), straight from the word tables: a word added to a table
    shows up in any help built from this. ``amount`` and ``raise_by`` are the amounts of the
    examples."""
    entries: list[tuple[str, tuple[str, ...]]] = []

    def entry(firsts: Sequence[str], forms: Iterable[str]) -> None:
        seen = {normalise(first) for first in firsts}
        others = []
        for form in forms:
            if normalise(form) not in seen:
                seen.add(normalise(form))
                others.append(form)
        entries.append((", ".join(firsts), tuple(others)))

    def fixed(action: Action) -> None:
        entry([shown.move(action)],
              [action.text(), *(_written(p) for p, a in FIXED_PHRASES.items() if a == action)])

    verb = envido().text()
    more = mas(raise_by).text()
    for action in _FIXED_MOVES[:3]:
        fixed(action)
    entry([shown.move(envido()), shown.move(envido(amount))],
          [verb, envido(amount).text(), *(f"{v} {amount}" for v in sorted(ENVIDO_VERBS)),
           *(f"{amount} {sorted(TANTOS_WORDS)[-1]} {v}" for v in sorted(POSTFIX_ENVIDO_VERBS))])
    entry([shown.move(mas(raise_by))],
          [more, *(f"{raise_by} {w}" for w in sorted(MORE_WORDS)
                 if _written(w) not in more.split()),
           *(f"{verb} {_written(w)}" for w in sorted(MORE_WORDS) if _written(w) in more.split()),
           *(f"{v} {raise_by}" for v in sorted(RAISE_VERBS | WEAK_RAISE_VERBS))])
    for action in _FIXED_MOVES[3:]:
        fixed(action)
    by_code = descarte(parse_card("1o"), parse_card("12c"))
    entry([f"{shown.discard} 1 3", shown.move(by_code)],
          [*(f"{' '.join(v)} 1 3" for v in DISCARD_VERBS), by_code.text()])
    entry([f"{shown.discard} {shown.all_cards}"],
          [f"{shown.discard} {w}" for w in sorted(ALL_CARDS_WORDS)])
    return entries


def suggest(text: str, hand: Sequence[Card] | None = None, shown: Shown = CANONICAL
            ) -> str | None:
    """What a player probably meant by a message :func:`parse` reads as chat: ``envdo`` →
    «envido», ``no quero`` → «no quiero», ``descatro 1 3`` → «descarto 1 3», said in the
    reader's words (``shown``: French ``passe`` → «paso», the word the French table shows,
    not the English «pass» it is nearest to). None when nothing is close, or when the guess
    would not parse as a move either: a suggestion can be typed as it is. Legality is not
    checked, as in :func:`parse`."""
    if len(text) > MAX_CHARS:
        return None
    tokens = _tokens(text)
    if not tokens:
        return None
    try:
        if parse(text, hand) is not None:
            return None
    except MusError:
        return None  # a near miss of its own, already answered with the reason
    typed = " ".join(tokens)
    # A whole phrase may split a word («noquiero») but never drop one («envdo 1» is not envido).
    phrases = [p for p in (*FIXED_PHRASES, *ENVIDO_VERBS) if len(p.split()) >= len(tokens)]
    guesses = [_nearest(typed, phrases) if phrases else typed,
               " ".join(_nearest(token, _WORDS) if _guessable(token) else token
                        for token in tokens)]
    moves = [guess for guess in guesses if guess != typed and _parses(guess, hand)]
    if not moves:
        return None
    return _said(_nearest(typed, moves, cutoff=0.0), hand, shown)


def _said(guess: str, hand: Sequence[Card] | None, shown: Shown) -> str:
    """A guess that parses, in the reader's words: the move as their table says it; a discard
    with the cards as typed (positions stay positions) after the reader's verb."""
    action = parse(guess, hand)
    assert action is not None
    if action.kind is not ActionKind.DESCARTE:
        return shown.move(action)
    tokens = guess.split()
    verb = next(v for v in DISCARD_VERBS if tuple(tokens[: len(v)]) == v)
    rest = (shown.all_cards if t in ALL_CARDS_WORDS else t for t in tokens[len(verb):])
    return " ".join((shown.discard, *rest))


def _parses(text: str, hand: Sequence[Card] | None) -> bool:
    try:
        return parse(text, hand) is not None
    except MusError:
        return False


def _guessable(token: str) -> bool:
    return token not in _KNOWN and len(token) >= SUGGEST_MIN_CHARS and \
        not _HAS_DIGIT.search(token)


def _nearest(typed: str, candidates: Iterable[str], cutoff: float = SUGGEST_CUTOFF) -> str:
    """The candidate most like ``typed``, ``typed`` itself when none reaches ``cutoff``; on a
    tie the one in canonical (Spanish) words, so «pase» is «paso» rather than «pass»."""
    score, _, best = max((difflib.SequenceMatcher(None, typed, c).ratio(),
                          all(w in _WRITTEN for w in c.split()), c) for c in candidates)
    return best if score >= cutoff else typed
