"""What a player typed, read: the token parser for every form a move takes (numbers as words,
«N más», discards by position or card code, bets naming their lance) and the whole-message
requests («vuelvo», «cartas», «seña dos reyes»). See :mod:`musbot.grammar` for its promises."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final, Literal

from musbot.engine.actions import (
    MIN_ENVITE,
    Action,
    ActionKind,
    descarte,
    envido,
    mas,
)
from musbot.engine.cards import Card, card_code, parse_card
from musbot.engine.errors import MalformedCommand
from musbot.engine.senas import Sena
from musbot.words import (
    ALL_CARDS_WORDS,
    BOTH_LANCES_WORDS,
    CARDS_WORDS,
    COME_BACK_WORDS,
    DISCARD_VERBS,
    ENVIDO_VERBS,
    FIXED_PHRASES,
    HELP_WORDS,
    LANCE_ARTICLES,
    LANCE_PREPOSITIONS,
    LANCE_WORDS,
    LEADING_FILLERS,
    LIST_CONNECTORS,
    MORE_WORDS,
    NUMBER_WORDS,
    POSTFIX_ENVIDO_VERBS,
    QUIT_WORDS,
    RAISE_VERBS,
    SENA_NAMES,
    SENA_WORDS,
    STATUS_WORDS,
    TANTOS_WORDS,
    TRAILING_FILLERS,
    WEAK_RAISE_VERBS,
    normalise,
)

__all__ = ["HAND_SIZE", "MAX_AMOUNT_DIGITS", "MAX_CHARS", "Command", "Move", "Request",
           "SendSena", "asks_for_cards", "asks_for_help", "asks_for_status", "asks_to_quit",
           "is_come_back", "parse", "parse_sena", "read", "sena_from_text", "sena_named"]

_LANCE_BETS: Final[frozenset[ActionKind]] = frozenset(
    {ActionKind.ENVIDO, ActionKind.MAS, ActionKind.ORDAGO, ActionKind.PASO}
)
"""Actions that name a lance by mistake ("órdago a la grande"): a bet is always on the lance being
played (§3, §4), so naming one is refused rather than guessed (it could be the wrong lance)."""

_NUMBER_TOKENS: Final[frozenset[str]] = frozenset(
    tok for phrase in NUMBER_WORDS for tok in phrase.split()
)

HAND_SIZE: Final = 4
MAX_CHARS: Final = 200
"""Longer messages are chat: no command is anywhere near this long, and it bounds the work."""
MAX_AMOUNT_DIGITS: Final = 6
"""``envido 99999999999`` is a near miss, not a number to carry around."""

# ----------------------------------------------------------------------------------------------
# Tokens.
# ----------------------------------------------------------------------------------------------

_TOKEN: Final = re.compile(r"-[0-9]+|[^\W_]+|[^\w\s]+|_+")
"""Words (letters and digits) and runs of everything else (punctuation, emoji, markdown). A minus
sign stays on its number, so ``envido -3`` is a bad amount, not ``envido 3``."""
_INNER_HYPHEN: Final = re.compile(r"(?<=[^\W_])-(?=[^\W_])")
"""``veinti-dos``, ``twenty-one``, ``no-quiero``, ``1-3``: a hyphen between words is a space."""
_AMOUNT: Final = re.compile(rf"[0-9]{{1,{MAX_AMOUNT_DIGITS}}}")
_POSITION: Final = re.compile(r"-?[0-9]+")
_HAS_DIGIT: Final = re.compile(r"[0-9]")


def _is_punct(token: str) -> bool:
    return not token[-1].isalnum()


def _tokens(text: str) -> list[str]:
    """The message as tokens, with leading and trailing punctuation and fillers removed."""
    tokens = _TOKEN.findall(_INNER_HYPHEN.sub(" ", normalise(text)))
    start, end = 0, len(tokens)
    while start < end and (_is_punct(tokens[start]) or tokens[start] in LEADING_FILLERS):
        start += 1
    while end > start and (_is_punct(tokens[end - 1]) or tokens[end - 1] in TRAILING_FILLERS):
        end -= 1
    return tokens[start:end]


# ----------------------------------------------------------------------------------------------
# Amounts.
# ----------------------------------------------------------------------------------------------


def _amount(tokens: Sequence[str]) -> int | None:
    """``5``, ``cinco``, ``treinta y uno``, ``hogeita bat``, ``twenty one``; else None."""
    if len(tokens) == 1 and _AMOUNT.fullmatch(tokens[0]):
        return int(tokens[0])
    return NUMBER_WORDS.get(" ".join(tokens))


def _looks_numeric(tokens: Sequence[str]) -> bool:
    """A digit somewhere, or nothing but number words: an attempt at an amount."""
    return any(_HAS_DIGIT.search(t) for t in tokens) or all(t in _NUMBER_TOKENS for t in tokens)


def _strip_units(tokens: Sequence[str]) -> Sequence[str]:
    """``5 tantos`` → ``5``; a lone ``tantos`` stays, to be refused as an amount."""
    if len(tokens) >= 2 and tokens[-1] in TANTOS_WORDS:
        return tokens[:-1]
    return tokens


def _checked(amount: int) -> int:
    """§4: every bet and raise is at least 2 tantos."""
    if amount < MIN_ENVITE:
        raise MalformedCommand("amount_too_low", amount=amount)
    return amount


# ----------------------------------------------------------------------------------------------
# The forms of a command. Each takes the tokens and returns an action, None (chat) or raises.
# ----------------------------------------------------------------------------------------------


def _verb_bet(rest: Sequence[str], *, raising: bool, strict: bool) -> Action | None:
    """``envido [N [tantos]] [más]``, ``raise [N]``, ``subo [N]``.

    ``strict`` verbs (envido, imido, bet, revido, raise) are never chat, so any single word or
    number-like tail is a bad amount; a longer wordy tail ("envido es lo mejor") is talk about the
    game. For ``subo`` only a number-like tail is a near miss.
    """
    if rest and rest[-1] in MORE_WORDS:
        raising, rest = True, rest[:-1]
    rest = _strip_units(rest)
    if not rest:
        return mas() if raising else envido()
    amount = _amount(rest)
    if amount is None:
        if _looks_numeric(rest) or (strict and len(rest) == 1):
            raise MalformedCommand("bad_amount", word=" ".join(rest))
        return None
    amount = _checked(amount)
    return mas(amount) if raising else envido(amount)


def _postfix_bet(core: Sequence[str]) -> Action | None:
    """``3 más``, ``tres más``, ``hiru tantos gehiago``, ``lau tantos imido``.

    Only the number says it is a bet, so a word that is not a number ("mucho más") is chat, and so
    is a number word below 2 ("una más": one more game). A lone digit below 2 (``1 más``) or a
    digit-bearing token (``1o más``) is a near miss.
    """
    body = _strip_units(core[:-1])
    if not body:
        return None
    amount = _amount(body)
    if amount is None or amount < MIN_ENVITE:
        if len(body) == 1 and _HAS_DIGIT.search(body[0]):
            if amount is None:
                raise MalformedCommand("bad_amount", word=body[0])
            _checked(amount)
        return None
    return envido(amount) if core[-1] in POSTFIX_ENVIDO_VERBS else mas(amount)


def _discard(args: Sequence[str], hand: Sequence[Card] | None) -> Action | None:
    """``descarto 1 3`` (positions as shown, 1–4) or ``descarto 1o 12c`` (card codes), mixed
    freely, separated by spaces, commas or "y"; ``descarto todas`` for the whole hand.

    "Descarto" is also everyday Spanish ("descarto que ganemos"), so a tail with no digit and no
    "todas" is chat.
    """
    items = [t for t in args if not _is_punct(t) and t not in LIST_CONNECTORS]
    if not items:
        raise MalformedCommand("discard_empty")
    if not any(_HAS_DIGIT.search(t) or t in ALL_CARDS_WORDS for t in items):
        return None
    count = len(hand) if hand is not None else HAND_SIZE
    cards: list[Card] = []
    by_position = False
    for token in items:
        if token in ALL_CARDS_WORDS:
            by_position = True
            cards.extend(hand or ())
        elif _POSITION.fullmatch(token):
            if not 1 <= int(token) <= count:
                raise MalformedCommand("bad_position", count=count, word=token)
            by_position = True
            if hand is not None:
                cards.append(hand[int(token) - 1])
        else:
            try:
                cards.append(parse_card(token))
            except KeyError:
                raise MalformedCommand("bad_card", card=token) from None
    if by_position and hand is None:
        raise MalformedCommand("positions_need_hand")
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise MalformedCommand("card_twice", card=card_code(card))
        seen.add(card)
    return descarte(*cards)


def _lance_named(core: Sequence[str], hand: Sequence[Card] | None) -> Action | None:
    """``órdago a la grande``, ``envido a chica``: a bet that names a lance is refused (see
    :data:`_LANCE_BETS`); anything else ending in a lance word is chat ("quiero a la chica")."""
    i = len(core) - 1
    if i >= 1 and core[i - 1] in LANCE_ARTICLES:
        i -= 1
    if i < 2 or core[i - 1] not in LANCE_PREPOSITIONS:
        return None
    action = _core(core[: i - 1], hand)
    if action is not None and action.kind in _LANCE_BETS:
        raise MalformedCommand("lance_named", word=action.text())
    return None


def _core(core: Sequence[str], hand: Sequence[Card] | None) -> Action | None:
    """Dispatch on the first and last words; the order matters (fixed phrases win)."""
    if not core:
        return None
    fixed = FIXED_PHRASES.get(" ".join(core))
    if fixed is not None:
        return fixed
    first, last = core[0], core[-1]
    for verb in DISCARD_VERBS:
        if tuple(core[: len(verb)]) == verb:
            return _discard(core[len(verb):], hand)
    if any(_is_punct(t) for t in core):
        return None  # punctuation inside is only for discard lists: "no, quiero" is chat
    if last in LANCE_WORDS:
        return _lance_named(core, hand)
    if first in BOTH_LANCES_WORDS:
        action = _core(core[1:], hand)
        if action is not None and action.kind in (ActionKind.ENVIDO, ActionKind.ORDAGO):
            raise MalformedCommand("lance_named", word=action.text())
        return None
    verb_form = _VERB_FORMS.get(first)
    if verb_form is not None:
        return verb_form(core[1:])
    if len(core) >= 2 and (last in MORE_WORDS or last in POSTFIX_ENVIDO_VERBS):
        return _postfix_bet(core)
    return None


_VERB_FORMS: Final[dict[str, Callable[[Sequence[str]], Action | None]]] = {
    **dict.fromkeys(ENVIDO_VERBS, partial(_verb_bet, raising=False, strict=True)),
    **dict.fromkeys(RAISE_VERBS, partial(_verb_bet, raising=True, strict=True)),
    **dict.fromkeys(WEAK_RAISE_VERBS, partial(_verb_bet, raising=True, strict=False)),
}
"""First words that take an amount after them."""


# ----------------------------------------------------------------------------------------------
# Public API.
# ----------------------------------------------------------------------------------------------


def parse(text: str, hand: Sequence[Card] | None = None) -> Action | None:
    """What a player typed, as an engine action; None for ordinary chat.

    ``hand`` is the player's hand in the order shown to him, needed only to turn discard positions
    (``descarto 1 3``) into cards. Raises :class:`MalformedCommand` for a near miss, a message that
    is clearly a command but cannot be one (``envido 1``, ``descarto 9``, ``descarto 13o``).
    Legality (turn, phase, cards held) is the engine's business, not the grammar's.
    """
    if len(text) > MAX_CHARS:
        return None
    return _core(_tokens(text), hand)


# ----------------------------------------------------------------------------------------------
# The table's other requests: a whole message of a few words (:mod:`musbot.words`).
# ----------------------------------------------------------------------------------------------

_AROUND: Final = " .,;:!¡?¿"
"""Punctuation that does not change a whole-message word: «¡Vuelvo!» is «vuelvo»."""


def _phrase(text: str) -> str:
    """A whole message as its words: :func:`~musbot.words.normalise`, and the punctuation around
    them dropped, unless it is all there is (the terminal's «?»)."""
    folded = normalise(text)
    return folded.strip(_AROUND) or folded


def _phrases(words: Iterable[str]) -> frozenset[str]:
    return frozenset(_phrase(word) for word in words)


_COME_BACK: Final = _phrases(COME_BACK_WORDS)
_CARDS: Final = _phrases(CARDS_WORDS)
_SENA: Final = _phrases(SENA_WORDS)
_HELP: Final = _phrases(HELP_WORDS)
_STATUS: Final = _phrases(STATUS_WORDS)
_QUIT: Final = _phrases(QUIT_WORDS)


def _says(text: str, words: frozenset[str]) -> bool:
    return len(text) <= MAX_CHARS and _phrase(text) in words


def is_come_back(text: str) -> bool:
    """«vuelvo», at any table: the seat back from the bot that played it."""
    return _says(text, _COME_BACK)


def asks_for_cards(text: str) -> bool:
    """«cartas», by DM or in the terminal: one's hand again."""
    return _says(text, _CARDS)


def asks_for_help(text: str) -> bool:
    """«ayuda», in the terminal."""
    return _says(text, _HELP)


def asks_for_status(text: str) -> bool:
    """«mesa», in the terminal."""
    return _says(text, _STATUS)


def asks_to_quit(text: str) -> bool:
    """«salir», in the terminal."""
    return _says(text, _QUIT)


def sena_named(text: str) -> str | None:
    """The seña a «seña NOMBRE» message names (maybe empty: then the engine says which exist),
    or None when the message is not a seña at all."""
    if len(text) > MAX_CHARS:
        return None
    words = _phrase(text.replace(":", " ")).split(" ", 1)
    if words[0] not in _SENA:
        return None
    return words[1] if len(words) > 1 else ""


_SENA_NAMES: Final[dict[str, Sena]] = {_phrase(name): sena for name, sena in SENA_NAMES.items()}


def sena_from_text(text: str) -> Sena | None:
    """The seña a player named, or None. Accepts §7's names, digits («31», «2 reyes»), no
    accents, hyphens or underscores for spaces, and an optional leading «seña»."""
    words = _phrase(text.replace("_", " ").replace("-", " "))
    first, _, rest = words.partition(" ")
    if rest and first in _SENA:
        words = rest
    return _SENA_NAMES.get(words)


def parse_sena(text: str) -> Sena:
    """Like :func:`sena_from_text`, but an unknown name is a :class:`MalformedCommand`."""
    sena = sena_from_text(text)
    if sena is None:
        raise MalformedCommand("unknown_sena", word=text.strip())
    return sena


# ----------------------------------------------------------------------------------------------
# Everything a person types, read once: the one entry point of every surface.
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A move of the game (§2–§4): the engine's action."""

    action: Action


@dataclass(frozen=True, slots=True)
class SendSena:
    """«seña dos reyes» (§7): only where the partner alone reads it."""

    sena: Sena


@dataclass(frozen=True, slots=True)
class Request:
    """One of the table's other requests: ``come_back`` («vuelvo»), ``cards`` («cartas»),
    ``help`` («ayuda»), ``status`` («mesa»), ``quit`` («salir»)."""

    kind: Literal["come_back", "cards", "help", "status", "quit"]


Command = Move | SendSena | Request

_REQUESTS: Final[tuple[tuple[Callable[[str], bool], Request], ...]] = (
    (is_come_back, Request("come_back")), (asks_for_cards, Request("cards")),
    (asks_for_help, Request("help")), (asks_for_status, Request("status")),
    (asks_to_quit, Request("quit")),
)


def read(text: str, hand: Sequence[Card] | None = None, *, public: bool = False
         ) -> Command | None:
    """What a person typed, by DM or in the terminal (or, ``public``, in the table's channel,
    where only moves and «vuelvo» are commands: a seña there would show it to everyone); None
    for ordinary chat. Raises :class:`MalformedCommand` for a near miss (as :func:`parse`, and
    an unknown seña). ``hand``: the cards as shown to the person, for discards by position."""
    for asks, request in _REQUESTS[:1] if public else _REQUESTS:
        if asks(text):
            return request
    name = None if public else sena_named(text)
    if name is not None:
        return SendSena(parse_sena(name))
    action = parse(text, hand)
    return None if action is None else Move(action)
