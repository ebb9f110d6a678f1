"""Señas, the partner signals of docs/rules.md §7: which exist and which a hand shows.

Pure like the rest of the engine, and the one authority on them: when señas may be sent
(:func:`senas_open`), which a hand truthfully shows (:func:`senas_posibles`: §7 forbids false
señas), whether a given one may be sent now (:func:`check_sena`), and who sees it, the partners
and maybe one opponent by the cazada draw (:class:`SenaLog`). The table, the bench's arena and the
bots all go through these; the i18n catalogs word them, and the grammar (:mod:`musbot.words`,
:mod:`musbot.grammar`) reads the names players give them.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import Card
from .errors import IllegalAction
from .evaluation import AS, REY, HandInfo, tables
from .rules import Rules


class Sena(enum.Enum):
    """Every seña the table knows, in the order of docs/rules.md §7; the value is its Spanish
    name, as players say it. The gesture the receiver sees is words, worded by the i18n catalogs
    (``SENA_GESTURES``)."""

    DOS_REYES = "dos reyes"
    TRES_REYES = "tres reyes"
    DOS_ASES = "dos ases"
    TRES_ASES = "tres ases"
    MEDIAS = "medias"
    DUPLES = "duples"
    TREINTA_Y_UNA = "treinta y una"
    TREINTA = "treinta"
    SOLOMILLO = "solomillo"
    CIEGO = "ciego"
    REAL = "la real"

    @property
    def nombre(self) -> str:
        return self.value


def shows(sena: Sena, info: HandInfo) -> bool:
    """§7's 'the hand must have' column, for one evaluated hand."""
    reyes = info.classes.count(REY)
    ases = info.classes.count(AS)
    if sena is Sena.DOS_REYES:
        return reyes >= 2
    if sena is Sena.TRES_REYES:
        return reyes >= 3
    if sena is Sena.DOS_ASES:
        return ases >= 2
    if sena is Sena.TRES_ASES:
        return ases >= 3
    if sena is Sena.MEDIAS:
        return info.pares == 2
    if sena is Sena.DUPLES:
        return info.pares == 3
    if sena is Sena.TREINTA_Y_UNA:
        return info.total == 31
    if sena is Sena.TREINTA:
        return info.total == 30
    if sena is Sena.SOLOMILLO:
        return reyes == 3 and ases == 1
    if sena is Sena.CIEGO:
        return info.pares == 0 and not info.juego
    return info.real


def senas_posibles(cards: Sequence[Card], rules: Rules) -> list[Sena]:
    """The señas this hand may truthfully show, in catalog order. La real needs the variant; the
    ranks follow ``rules.reyes`` (with 8 reyes a 3 counts as a rey and a 2 as an as)."""
    return list(senas_de_mano(cards, rules.reyes, rules.real))


def senas_de_mano(cards: Sequence[Card], reyes: int, real: bool) -> tuple[Sena, ...]:
    """:func:`senas_posibles` from the two variants it reads, for callers that cache on them."""
    if len(cards) != 4:
        return ()
    return _posibles(reyes, real, tables(reyes, real).index(cards))


@functools.cache
def _posibles(reyes: int, real: bool, index: int) -> tuple[Sena, ...]:
    """Per evaluated hand (a few hundred per variant): every new hand's private text lists
    them, four hands a deal at every table."""
    info = tables(reyes, real).infos[index]
    return tuple(s for s in Sena if (s is not Sena.REAL or real) and shows(s, info))


def senas_open(rules: Rules, corrido: bool) -> bool:
    """§7: señas are a variant, and never allowed during a mus corrido hand."""
    return rules.senas and not corrido


def check_sena(rules: Rules, *, corrido: bool, finished: bool, cards: Sequence[Card],
               sena: Sena, sent: Sequence[Sena] | set[Sena] = ()) -> None:
    """Raises :class:`IllegalAction` unless the seat holding ``cards`` may send ``sena`` now:
    the variant, not a corrido hand, a hand in play with four cards (not half-way through a
    discard), a seña the cards show (§7), and not one already sent on these cards."""
    if not rules.senas:
        raise IllegalAction("senas_off")
    if corrido:
        raise IllegalAction("senas_corrido")
    if finished or len(cards) != 4:
        raise IllegalAction("sena_no_hand")
    if sena not in senas_posibles(cards, rules):
        raise IllegalAction("sena_not_shown", sena=sena.nombre)
    if sena in sent:
        raise IllegalAction("sena_repeated")


class SenaSeen(NamedTuple):
    """A seña that reached a seat: from a partner, or caught from an opponent (§7)."""

    seat: int
    """Who sent it."""
    sena: Sena
    partner: bool
    """False: an opponent caught it (seña cazada); the sender was not told."""


class SenaLog:
    """The señas sent on the current cards of a hand, and who saw each: new cards, a new log.
    Saved with a table (:meth:`to_json`), so that a restored table refuses the same repeats and
    its bots remember what they saw."""

    __slots__ = ("received", "sent")

    def __init__(self) -> None:
        self.sent: dict[int, set[Sena]] = {}
        self.received: dict[int, list[SenaSeen]] = {}

    def send(self, rules: Rules, sender: int, sena: Sena,
             rng: random.Random) -> list[tuple[int, bool]]:
        """Records an allowed seña (see :func:`check_sena`) and returns who sees it, as
        (seat, caught): the partners, then the opponent who caught it if the cazada draw says
        so. Both draws are always made, so a seeded table is reproducible whatever the chance."""
        self.sent.setdefault(sender, set()).add(sena)
        seen = [(partner, False) for partner in rules.partners(sender)]
        caught = rng.random() < rules.sena_cazada
        spotter = rng.choice(rules.opponents(sender))
        if caught:
            seen.append((spotter, True))
        for seat, by_chance in seen:
            self.received.setdefault(seat, []).append(SenaSeen(sender, sena, not by_chance))
        return seen

    def sent_by(self, seat: int) -> set[Sena]:
        return self.sent.get(seat, set())

    def seen_by(self, seat: int) -> list[SenaSeen]:
        return self.received.get(seat, [])

    def to_json(self) -> dict[str, Any]:
        return {
            "sent": [[seat, sorted(s.value for s in sent)] for seat, sent in self.sent.items()],
            "received": [[seat, [[got.seat, got.sena.value, not got.partner] for got in seen]]
                         for seat, seen in self.received.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SenaLog:
        log = cls()
        for seat, sent in data["sent"]:
            log.sent[int(seat)] = {Sena(v) for v in sent}
        for seat, seen in data["received"]:
            log.received[int(seat)] = [SenaSeen(int(s), Sena(v), not bool(caught))
                                       for s, v, caught in seen]
        return log
