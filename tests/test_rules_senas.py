"""docs/rules.md §7: which señas a hand may truthfully show (false señas are forbidden)."""

from __future__ import annotations

import pytest
from helpers_rules import cards

from musbot.engine import Rules
from musbot.engine.senas import Sena, senas_posibles
from musbot.table.render import sena_gesture

S = Sena


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("12 12 5 4", [S.DOS_REYES]),  # par of reyes, 29
        ("12 12 12 1", [S.DOS_REYES, S.TRES_REYES, S.MEDIAS, S.TREINTA_Y_UNA, S.SOLOMILLO]),
        ("1 1 1 5", [S.DOS_ASES, S.TRES_ASES, S.MEDIAS]),
        ("12 12 5 5", [S.DOS_REYES, S.DUPLES, S.TREINTA]),
        ("12 11 7 1", [S.CIEGO]),  # no pares, 28
        ("12 11 10 1", [S.TREINTA_Y_UNA]),  # 31 without pares is not ciego
        ("11 10 6 4", [S.TREINTA, S.CIEGO]),  # punto of 30, neither pares nor juego
        ("12 12 12 12", [S.DOS_REYES, S.TRES_REYES, S.DUPLES]),  # four reyes: duples, 40
    ],
)
def test_s7_senas_the_hand_shows(hand, expected):
    """§7: a seña only if the hand shows it (table of §7)."""
    assert senas_posibles(cards(hand), Rules()) == expected


def test_s7_reyes8_threes_and_twos_count():
    """§7 + §1 reyes=8: 3 is a rey and 2 is an as for the señas too; not with reyes=4."""
    assert S.DOS_REYES in senas_posibles(cards("3 12 5 4"), Rules())
    assert S.DOS_ASES in senas_posibles(cards("2 1 5 4"), Rules())
    assert S.DOS_REYES not in senas_posibles(cards("3 12 5 4"), Rules(reyes=4))
    assert S.DOS_ASES not in senas_posibles(cards("2 1 5 4"), Rules(reyes=4))
    assert S.SOLOMILLO in senas_posibles(cards("3 3 12 2"), Rules())


def test_s7_la_real_only_with_the_variant():
    """§7: la real only when the variant is on."""
    assert S.REAL not in senas_posibles(cards("7 7 7 10"), Rules())
    assert senas_posibles(cards("7 7 7 10"), Rules(real=True)) == [
        S.MEDIAS, S.TREINTA_Y_UNA, S.REAL,
    ]


def test_s7_gestures():
    """§7: the gesture shown to the receiver."""
    assert sena_gesture(S.DOS_REYES) == "se muerde el labio inferior"
    assert sena_gesture(S.TREINTA_Y_UNA) == "guiña un ojo"
    assert sena_gesture(S.CIEGO) == "cierra los ojos"
    assert sena_gesture(S.REAL) == "se toca el lóbulo de la oreja"
    assert len(S) == 11


def test_s7_senas_default_variants():
    """§7: [variant] señas = on, seña cazada = 0.10."""
    assert Rules().senas is True
    assert Rules().sena_cazada == pytest.approx(0.10)
