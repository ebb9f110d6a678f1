"""The Mus rules engine: pure, typed, no I/O. Driven only by ``apply(seat, action)``.

>>> from musbot.engine import Match, Rules
>>> m = Match(Rules(), first_mano=0)
>>> m.to_act
0
"""

from .actions import (
    ENVIDO,
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
from .cards import (
    CARD_CODES,
    DECK,
    Card,
    Shuffler,
    card_code,
    codes,
    parse_card,
    secure_shuffle,
    seeded_shuffler,
)
from .errors import (
    IllegalAction,
    InvalidDeal,
    InvalidRules,
    MalformedCommand,
    MusError,
    NotYourTurn,
)
from .evaluation import Lance, Tables, tables
from .hand import Hand, LanceResult, Phase
from .match import Match
from .rules import Rules
from .view import SeatView

__all__ = [
    "CARD_CODES", "DECK", "ENVIDO", "MIN_ENVITE", "MUS", "NO_HAY_MUS", "NO_QUIERO", "ORDAGO",
    "PASO", "QUIERO", "Action", "ActionKind", "Card", "Hand", "IllegalAction", "InvalidDeal",
    "InvalidRules", "Lance", "LanceResult", "MalformedCommand", "Match", "MusError",
    "NotYourTurn", "Phase", "Rules", "SeatView", "Shuffler", "Tables", "card_code", "codes",
    "descarte", "envido", "mas", "parse_card", "secure_shuffle", "seeded_shuffler", "tables",
]
