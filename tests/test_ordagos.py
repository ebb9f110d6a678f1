"""The engine's account of a hand's órdagos (docs/rules.md §4), read from its events: who called
it, at which lance, who accepted it or that it was refused, and who won it. Storage keeps what
this says (tests/test_storage.py, tests/test_persist.py)."""

from __future__ import annotations

from typing import Any

import pytest
from db_helpers import PAIR_0_DEAL, PAIR_1_DEAL, hand

from musbot.engine.evaluation import Lance
from musbot.engine.events import Ordago, ordagos
from musbot.replay import replay_hand

GRANDE, CHICA, PARES = Lance.GRANDE, Lance.CHICA, Lance.PARES

CASES: list[tuple[str, list[list[str]], list[list[Any]], list[Ordago]]] = [
    ("refused first bet", PAIR_1_DEAL,
     [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"], [3, "no quiero"]],
     [Ordago(0, GRANDE, None, 0)]),
    ("refused over a standing bet", PAIR_0_DEAL,
     [[0, "no hay mus"], [0, "envido"], [1, "órdago"], [2, "no quiero"], [0, "paso"]],
     [Ordago(1, GRANDE, None, 1)]),
    ("accepted, won by the caller's pair", PAIR_0_DEAL,
     [[0, "no hay mus"], [0, "órdago"], [1, "quiero"]],
     [Ordago(0, GRANDE, 1, 0)]),
    ("accepted by the partner of one who refused, won by the pair that did not call it",
     PAIR_1_DEAL,
     [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"], [3, "kanta"]],
     [Ordago(0, GRANDE, 3, 1)]),
    ("refused at Grande, then accepted at Chica", PAIR_1_DEAL,
     [[0, "no hay mus"], [0, "órdago"], [1, "tira"], [3, "no quiero"], [0, "hordago"],
      [1, "quiero"]],
     [Ordago(0, GRANDE, None, 0), Ordago(0, CHICA, 1, 1)]),
    ("over a raise at Pares, only those with pares speak", PAIR_1_DEAL,
     [[0, "no hay mus"], [0, "paso"], [1, "paso"], [2, "paso"], [3, "paso"],
      [0, "paso"], [1, "paso"], [2, "paso"], [3, "paso"],
      [1, "envido"], [2, "3 más"], [3, "órdago"], [2, "no quiero"]],
     [Ordago(3, PARES, None, 1)]),
    ("not answered yet: not settled", PAIR_1_DEAL,
     [[0, "no hay mus"], [0, "órdago"], [1, "no quiero"]], []),
]


@pytest.mark.parametrize(("deal", "actions", "expected"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_ordagos_of_hand_written_transcripts(deal: list[list[str]], actions: list[list[Any]],
                                             expected: list[Ordago]) -> None:
    transcript, _ = hand([0, 0], actions=actions, deal=deal)
    played = replay_hand(transcript)
    assert played.ordagos() == expected
    assert ordagos(played.events) == expected


def test_an_ordago_travels_as_json() -> None:
    for ordago in (Ordago(0, GRANDE, None, 0), Ordago(5, Lance.PUNTO, 2, 0)):
        assert Ordago.from_dict(ordago.to_dict()) == ordago
    assert Ordago(1, CHICA, 2, 0).to_dict() == {"caller": 1, "lance": "chica", "accepter": 2,
                                               "winner": 0}
