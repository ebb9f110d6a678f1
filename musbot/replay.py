"""``musbot replay FILE``: one hand from a docs/replay.md transcript, printed as JSON.

It runs the same engine and command grammar as the tables, so that a disputed score can be checked
by anyone. A transcript passes two gates in turn: its shape (:func:`read_transcript`: keys, types,
ranges, card codes, nothing unknown), then the rules, through the engine (:func:`play`). Whatever
it fails, the answer is exit status 2 and one JSON object with a sentence in the run's language,
never a traceback nor a guess: a checker that crashes on junk, or reads past it, cannot be trusted
on a real dispute.

The shape is checked by hand, not by a JSON Schema library (a new runtime dependency): each refusal
must be a sentence of the i18n catalogs, in the run's language, where a library words its own
errors, in English, about schema keywords; and the checks that read two fields at once (scores
against the target the rules set, seats against the number of hands) a schema states awkwardly or
not at all. See docs/replay.md.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import IO, Any, Literal, NoReturn

from musbot.engine import DECK, Action, Hand, Lance, MusError, Rules
from musbot.engine.cards import Card, parse_card
from musbot.engine.rules import PLAYER_COUNTS
from musbot.grammar import HAND_SIZE, parse
from musbot.i18n import REPLAY, error_text, language_of_locale

FORMAT_VERSION = 1

Lang = Literal["es", "eu", "fr", "en"]
LANGS: tuple[Lang, ...] = ("es", "eu", "fr", "en")

KEYS: tuple[str, ...] = ("rules", "mano", "scores", "hands", "deck", "reshuffles", "actions")
"""Every key a transcript may have."""
REQUIRED: tuple[str, ...] = ("hands", "actions")
RULE_KEYS: tuple[str, ...] = ("reyes", "puntos", "real", "corrido")
"""What decides one hand: three variants of :class:`Rules`, and whether this hand is corrido."""
MATCH_RULES: frozenset[str] = frozenset(f.name for f in fields(Rules)) - set(RULE_KEYS)
"""The other variants: they decide the match (games, vacas, señas…), never one hand's outcome."""
REYES: tuple[int, ...] = (4, 8)
PUNTOS: tuple[int, int] = (1, 1000)
"""The targets :class:`Rules` accepts; a test holds the two to the same bounds."""
SHOWN_CHARS = 40
"""A value quoted back from the transcript is cut to this: junk can be long."""


def lang_from_env(environ: Mapping[str, str] = os.environ) -> Lang:
    """``LANG`` names the language (``fr_FR.UTF-8``: French); anything else (``C.UTF-8``, none)
    is Spanish, the project's first language."""
    return language_of_locale(environ.get("LANG")) or "es"  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class _Phrase:
    """A catalog phrase inside a sentence, worded with it in the run's language."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def worded(self, lang: Lang) -> str:
        return REPLAY(self.code, lang, **_worded(self.params, lang))


def _worded(params: Mapping[str, Any], lang: Lang) -> dict[str, Any]:
    return {k: v.worded(lang) if isinstance(v, _Phrase) else v for k, v in params.items()}


class ReplayError(Exception):
    """A refused transcript: a key of the REPLAY catalogs and its parameters, worded only when
    printed, so that a run speaks one language. ``action``: the offending action's index, or
    None."""

    def __init__(self, code: str, action: int | None = None, /, **params: Any) -> None:
        self.code = code
        self.action = action
        self.params = params
        super().__init__(self.message("es"))

    def message(self, lang: Lang) -> str:
        return REPLAY(self.code, lang, action=self.action, **_worded(self.params, lang))

    def to_dict(self, lang: Lang = "es") -> dict[str, Any]:
        return {"error": self.message(lang), "action": self.action}


class RuleBroken(ReplayError):
    """The engine's or the grammar's refusal, in their own words (the ERRORS catalogs)."""

    def __init__(self, error: MusError, action: int | None) -> None:
        self.error = error
        super().__init__(error.code, action)

    def message(self, lang: Lang) -> str:
        return error_text(self.error, lang)


# ----------------------------------------------------------------------------------------------
# Reading the document.
# ----------------------------------------------------------------------------------------------


def load(path: str) -> Any:
    """The JSON document in ``path`` (``-``: standard input), as strict JSON in UTF-8."""
    source = _Phrase("source_stdin") if path == "-" else _Phrase("source_file", {"path": path})
    try:
        raw = _read(path)
    except FileNotFoundError:
        raise ReplayError("read_missing", path=path) from None
    except IsADirectoryError:
        raise ReplayError("read_directory", path=path) from None
    except PermissionError:
        raise ReplayError("read_denied", path=path) from None
    except OSError:
        raise ReplayError("read_failed", path=path) from None
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise ReplayError("not_utf8", source=source, position=exc.start) from None

    def no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ReplayError("repeated_key", source=source, key=_cut(key))
            out[key] = value
        return out

    def no_constants(word: str) -> NoReturn:
        raise ReplayError("json_constant", source=source, word=word)

    try:
        return json.loads(text, object_pairs_hook=no_repeats, parse_constant=no_constants)
    except json.JSONDecodeError as exc:
        raise ReplayError("not_json", source=source, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise ReplayError("too_deep", source=source) from None
    except ValueError:  # an integer past Python's limit on digits
        raise ReplayError("number_too_long", source=source) from None


def _read(path: str) -> bytes | str:
    """Bytes, decoded by :func:`load` as UTF-8 whatever the locale; text only from a stand-in for
    standard input that has no bytes (a test's ``StringIO``)."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        return buffer.read() if buffer is not None else sys.stdin.read()
    with open(path, "rb") as fh:
        return fh.read()


# ----------------------------------------------------------------------------------------------
# The first gate: the document's shape.
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transcript:
    """A document that has the shape of a transcript, in the engine's terms."""

    rules: Rules
    corrido: bool
    mano: int
    scores: tuple[int, int]
    hands: list[list[Card]]
    deck: list[Card] | None
    """None when the transcript has no ``deck``."""
    reshuffles: list[list[Card]]
    actions: list[tuple[int, str]]

    @property
    def whole_deck(self) -> bool:
        """Hands and deck make the 40 cards: only then may the deck run out (docs/replay.md)."""
        return sum(map(len, self.hands)) + len(self.deck or ()) == len(DECK)


def read_transcript(data: Any) -> Transcript:
    """The first gate, in the order docs/replay.md lists: keys, types, ranges, card codes."""
    if not isinstance(data, dict):
        raise ReplayError("not_object", found=_found(data))
    for key in data:
        if key not in KEYS:
            raise ReplayError("unknown_key", key=_cut(key), hint=_hint(key, KEYS),
                              known=", ".join(KEYS))
    for key in REQUIRED:
        if key not in data:
            raise ReplayError(f"missing_{key}")
    variants = _rule_values(data.get("rules", {}))
    corrido = variants.pop("corrido", False)
    hands = _hands(data["hands"])
    rules = Rules.for_players(len(hands), **variants)
    return Transcript(
        rules=rules,
        corrido=corrido,
        mano=_mano(data.get("mano", 0), len(hands)),
        scores=_scores(data.get("scores", [0, 0]), rules.puntos),
        hands=hands,
        deck=_cards(data["deck"], "deck") if "deck" in data else None,
        reshuffles=_reshuffles(data.get("reshuffles", [])),
        actions=_actions(data["actions"], len(hands)),
    )


def _is_int(value: Any) -> bool:
    """A JSON integer: ``true`` is no seat and ``1.0`` no count (bool is an int to Python)."""
    return type(value) is int


def _rule_values(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ReplayError("rules_type", found=_found(value))
    known = ", ".join(RULE_KEYS)
    for key in value:
        if key not in RULE_KEYS:
            kind = "match_rule" if key in MATCH_RULES else "unknown_rule"
            raise ReplayError(kind, key=_cut(key), hint=_hint(key, RULE_KEYS), known=known)
    if "reyes" in value and not (_is_int(value["reyes"]) and value["reyes"] in REYES):
        raise ReplayError("reyes_value", found=_found(value["reyes"]))
    if "puntos" in value:
        puntos = value["puntos"]
        low, high = PUNTOS
        if not (_is_int(puntos) and low <= puntos <= high):
            raise ReplayError("puntos_value", low=low, high=high, found=_found(puntos))
    for key in ("real", "corrido"):
        if not isinstance(value.get(key, False), bool):
            raise ReplayError("flag_value", key=key, found=_found(value[key]))
    return dict(value)


def _hands(value: Any) -> list[list[Card]]:
    if not isinstance(value, list):
        raise ReplayError("hands_type", found=_found(value))
    for seat, hand in enumerate(value):
        if not isinstance(hand, list):
            raise ReplayError("hand_type", seat=seat, found=_found(hand))
    if len(value) not in PLAYER_COUNTS:
        raise ReplayError("hands_count", count=len(value))
    for seat, hand in enumerate(value):
        if len(hand) != HAND_SIZE:
            raise ReplayError("hand_size", seat=seat, count=len(hand))
    return [_cards(hand, f"hands[{seat}]") for seat, hand in enumerate(value)]


def _cards(value: Any, path: str) -> list[Card]:
    if not isinstance(value, list):
        raise ReplayError("cards_type", path=path, found=_found(value))
    return [_card(code, f"{path}[{i}]") for i, code in enumerate(value)]


def _card(code: Any, path: str) -> Card:
    if not isinstance(code, str):
        raise ReplayError("card_type", path=path, found=_found(code))
    try:
        return parse_card(code)
    except KeyError:
        raise ReplayError("card_code", path=path, card=_cut(code)) from None


def _mano(value: Any, players: int) -> int:
    if not (_is_int(value) and 0 <= value < players):
        raise ReplayError("mano_value", last=players - 1, found=_found(value))
    return int(value)


def _scores(value: Any, target: int) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2):
        raise ReplayError("scores_type", found=_found(value))
    for pair, score in enumerate(value):
        if not (_is_int(score) and score >= 0):
            raise ReplayError("score_value", pair=pair, found=_found(score))
        if score >= target:
            raise ReplayError("score_over_target", pair=pair, score=score, target=target,
                              last=target - 1)
    return value[0], value[1]


def _reshuffles(value: Any) -> list[list[Card]]:
    if not isinstance(value, list):
        raise ReplayError("reshuffles_type", found=_found(value))
    return [_cards(deck, f"reshuffles[{k}]") for k, deck in enumerate(value)]


def _actions(value: Any, players: int) -> list[tuple[int, str]]:
    if not isinstance(value, list):
        raise ReplayError("actions_type", found=_found(value))
    out: list[tuple[int, str]] = []
    for i, item in enumerate(value):
        if not (isinstance(item, list) and len(item) == 2):
            raise ReplayError("action_shape", i, found=_found(item))
        seat, text = item
        if not (_is_int(seat) and 0 <= seat < players):
            raise ReplayError("action_seat", i, last=players - 1, found=_found(seat))
        if not isinstance(text, str):
            raise ReplayError("action_text", i, found=_found(text))
        out.append((seat, text))
    return out


def _found(value: Any) -> Any:
    """A value of the transcript inside a sentence: lists and objects by name, the rest as JSON."""
    if isinstance(value, dict):
        return _Phrase("found_object")
    if isinstance(value, list):
        return _Phrase("found_list")
    return _cut(json.dumps(value, ensure_ascii=False))


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def _hint(key: str, known: tuple[str, ...]) -> Any:
    """`` (¿querías decir «actions»?)`` for a near miss, else nothing."""
    close = difflib.get_close_matches(key, known, n=1)
    return _Phrase("did_you_mean", {"key": close[0]}) if close else ""


# ----------------------------------------------------------------------------------------------
# The second gate: the rules, through the engine.
# ----------------------------------------------------------------------------------------------

_OUT_OF_CARDS = frozenset({"deck_exhausted", "reshuffle_mismatch"})
"""Engine refusals that, with an incomplete deck, mean only that the deck ran out."""


def deal(transcript: Transcript) -> Hand:
    """The hand as dealt; the engine refuses a card dealt twice."""
    t = transcript
    try:
        return Hand(t.rules, t.hands, t.deck or [], mano=t.mano, scores=t.scores,
                    corrido=t.corrido, reshuffles=t.reshuffles)
    except MusError as exc:
        raise RuleBroken(exc, None) from None


def play(transcript: Transcript) -> dict[str, Any]:
    """Applies every action through the grammar and the engine; docs/replay.md's output."""
    return played(transcript).result()


Before = Callable[[int, int, Action, Hand], None]
"""Told each action (its index, seat and the action read) before it is applied to the hand."""


def played(transcript: Transcript, before: Before | None = None,
           upto: int | None = None) -> Hand:
    """The hand after every action (its first ``upto``), applied through the grammar and the
    engine: :func:`play`'s output, and what it does not print (its events, its órdagos). The
    one reading of a transcript's actions: ``musbot repaso`` reviews a hand through it
    (``before``), so it refuses what ``musbot replay`` refuses, with the same sentence."""
    hand = deal(transcript)
    whole_deck = transcript.whole_deck
    actions = transcript.actions if upto is None else transcript.actions[:upto]
    for i, (seat, text) in enumerate(actions):
        if hand.finished:
            raise ReplayError("after_end", i, end=i - 1)
        try:
            action = parse(text, hand.hands[seat])
        except MusError as exc:
            raise RuleBroken(exc, i) from None
        if action is None:
            raise ReplayError("not_a_move", i, text=_cut(text))
        if before is not None:
            before(i, seat, action, hand)
        reshuffled = len(hand.reshuffles)
        try:
            hand.apply(seat, action)
        except MusError as exc:
            if not whole_deck and exc.code in _OUT_OF_CARDS:
                raise _ran_out(transcript, i) from None
            raise RuleBroken(exc, i) from None
        if len(hand.reshuffles) > reshuffled and not whole_deck:
            raise _ran_out(transcript, i)
    whole = len(actions) == len(transcript.actions)
    if whole and hand.finished and len(transcript.reshuffles) > len(hand.reshuffles):
        raise ReplayError("reshuffles_unused", given=len(transcript.reshuffles),
                          used=len(hand.reshuffles))
    return hand


def _ran_out(transcript: Transcript, action: int) -> ReplayError:
    """The deck ran out at ``action`` (the discard that closed a round) but it was not the whole
    deck: a reshuffle then would be a guess at cards the transcript does not give."""
    if transcript.deck is None:
        return ReplayError("deck_missing", action)
    dealt = sum(map(len, transcript.hands))
    return ReplayError("deck_short", action, total=dealt + len(transcript.deck), cards=len(DECK))


def replay(data: Any) -> dict[str, Any]:
    """Plays a parsed transcript and returns docs/replay.md's output object."""
    return play(read_transcript(data))


def replay_hand(data: Any) -> Hand:
    """The hand a parsed transcript describes, once played: for the records kept of a hand
    stored without them (its órdagos). Raises :class:`ReplayError` as :func:`replay` does."""
    return played(read_transcript(data))


# ----------------------------------------------------------------------------------------------
# The command.
# ----------------------------------------------------------------------------------------------


def run(path: str, out: IO[str] | None = None, lang: Lang | None = None) -> int:
    """``musbot replay``: 0 and the outcome, or 2 and the refusal, on ``out``."""
    out = out or sys.stdout
    lang = lang or lang_from_env()
    try:
        result = replay(load(path))
    except ReplayError as exc:
        print_json(exc.to_dict(lang), out)
        return 2
    print_json(result, out, indent=2)
    return 0


RESULT_KEYS: tuple[str, ...] = ("winners", "ledger", "scores", "game_winner", "finished", "to_act")
"""The output's keys, in the order it is printed (docs/replay.md, «Output»)."""
STEP_KEYS: tuple[str, ...] = ("pair", "tantos", "lance", "kind")
"""A ledger step's keys, in that order."""


def in_print_order(document: Mapping[str, Any]) -> dict[str, Any]:
    """A transcript (:data:`KEYS`) or an outcome (:data:`RESULT_KEYS`, the lances in their
    order, :data:`STEP_KEYS`) with its keys in the order docs/replay.md writes them: a stored
    one, whose keys the database sorted, then prints line for line as this command prints."""

    def ordered(mapping: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
        return {**{k: mapping[k] for k in keys if k in mapping},
                **{k: v for k, v in mapping.items() if k not in keys}}

    if "winners" not in document:
        out = ordered(document, KEYS)
        if isinstance(out.get("rules"), Mapping):
            out["rules"] = ordered(out["rules"], RULE_KEYS)
        return out
    out = ordered(document, RESULT_KEYS)
    if isinstance(out["winners"], Mapping):
        out["winners"] = ordered(out["winners"], tuple(lance.nombre for lance in Lance))
    if isinstance(out.get("ledger"), list):
        out["ledger"] = [ordered(step, STEP_KEYS) if isinstance(step, Mapping) else step
                         for step in out["ledger"]]
    return out


def print_json(obj: dict[str, Any], out: IO[str], indent: int | None = None) -> None:
    """A transcript, an outcome or a refusal as this command prints it (``musbot db hand``
    prints a stored one the same way, so the two compare line by line). Readable UTF-8 where
    the stream takes it; the same JSON with escapes where it does not (a lone surrogate quoted
    back from the transcript, a stream in a narrower encoding)."""
    text = json.dumps(obj, ensure_ascii=False, indent=indent)
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, ensure_ascii=True, indent=indent)
    print(text, file=out)
