"""``musbot replay FILE``: one hand from a REPLAY.md transcript, printed as JSON.

Runs the same engine and the same command grammar as the tables, so a disputed score can be
checked by anyone. A transcript that breaks a rule is refused (exit status 2), never guessed at.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from musbot.commands import parse
from musbot.engine import Hand, MusError, Rules
from musbot.engine.cards import Card, parse_card
from musbot.i18n import error_text

FORMAT_VERSION = 1


class ReplayError(Exception):
    """A transcript that cannot be replayed; ``action`` is the offending action's index or None."""

    def __init__(self, message: str, action: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.action = action

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.message, "action": self.action}


def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, list):
        raise ReplayError(f"{what} debe ser una lista de cartas.")
    out: list[Card] = []
    for code in value:
        try:
            out.append(parse_card(code))
        except (KeyError, AttributeError):
            raise ReplayError(error_text("bad_card", {"card": code}) + f" ({what})") from None
    return out


def build_hand(data: Any) -> Hand:
    """The hand as dealt by the transcript, before any action."""
    if not isinstance(data, dict):
        raise ReplayError("La transcripción debe ser un objeto JSON.")
    raw_rules = data.get("rules", {}) or {}
    if not isinstance(raw_rules, dict):
        raise ReplayError("«rules» debe ser un objeto.")
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list):
        raise ReplayError("Falta «hands»: las cartas de cada asiento.")
    hands = [_cards(h, f"mano del asiento {seat}") for seat, h in enumerate(hands_raw)]
    deck = _cards(data.get("deck", []), "deck")
    variants = {k: raw_rules[k] for k in ("reyes", "puntos", "real") if k in raw_rules}
    try:
        rules = Rules.for_players(len(hands), **variants) if len(hands) in (2, 4, 6) else None
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"Reglas no válidas: {exc}") from None
    if rules is None:
        raise ReplayError(error_text("wrong_players", {"count": len(hands)}))
    mano = data.get("mano", 0)
    scores = data.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2
            and all(isinstance(s, int) and s >= 0 for s in scores)):
        raise ReplayError("«scores» debe ser [tantos de la pareja 0, tantos de la pareja 1].")
    if not isinstance(mano, int):
        raise ReplayError("«mano» debe ser un número de asiento.")
    reshuffles_raw = data.get("reshuffles")
    reshuffles: list[list[Card]] = []
    if reshuffles_raw is not None:
        if not isinstance(reshuffles_raw, list):
            raise ReplayError("«reshuffles» debe ser una lista de mazos.")
        reshuffles = [_cards(d, f"reshuffles[{i}]") for i, d in enumerate(reshuffles_raw)]
    try:
        return Hand(rules, hands, deck, mano=mano, scores=scores,
                    corrido=bool(raw_rules.get("corrido", False)), reshuffles=reshuffles)
    except MusError as exc:
        raise ReplayError(str(exc)) from None


def replay(data: Any) -> dict[str, Any]:
    """Plays the transcript and returns REPLAY.md's output object."""
    hand = build_hand(data)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ReplayError("«actions» debe ser una lista de [asiento, texto].")
    for i, item in enumerate(actions):
        if not (isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2
                and isinstance(item[0], int) and isinstance(item[1], str)):
            raise ReplayError("Cada acción debe ser [asiento, texto].", i)
        seat, text = item
        if hand.finished:
            raise ReplayError(error_text("hand_over", {}), i)
        if not 0 <= seat < hand.n:
            raise ReplayError(error_text("no_such_seat", {"seat": seat}), i)
        try:
            action = parse(text, hand.hands[seat])
            if action is None:
                raise ReplayError(error_text("unknown_word", {"word": text}), i)
            hand.apply(seat, action)
        except MusError as exc:
            raise ReplayError(str(exc), i) from None
    return hand.result()


def run(path: str, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
    except OSError as exc:
        return _fail(ReplayError(f"No se puede leer {path}: {exc.strerror}."), out)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(ReplayError(f"El fichero no es JSON válido: {exc}."), out)
    try:
        result = replay(data)
    except ReplayError as exc:
        return _fail(exc, out)
    print(json.dumps(result, ensure_ascii=False, indent=2), file=out)
    return 0


def _fail(exc: ReplayError, out: IO[str]) -> int:
    print(json.dumps(exc.to_dict(), ensure_ascii=False), file=out)
    return 2
