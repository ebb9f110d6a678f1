"""Señas (docs/rules.md §7): the catalog, which hands show which seña, and how players name them."""

from __future__ import annotations

import pytest
from helpers_rules import cards as hand

from musbot.engine import IllegalAction, MalformedCommand, Rules
from musbot.engine.senas import Sena, check_sena, senas_posibles
from musbot.grammar import parse_sena, sena_from_text
from musbot.i18n import error_text
from musbot.table.render import sena_gesture


def test_catalog_is_the_table_of_section_7() -> None:
    # §7 lists eleven señas, each with its gesture shown to the receiver.
    assert [s.nombre for s in Sena] == [
        "dos reyes", "tres reyes", "dos ases", "tres ases", "medias", "duples",
        "treinta y una", "treinta", "solomillo", "ciego", "la real",
    ]
    assert sena_gesture(Sena.DOS_REYES) == "se muerde el labio inferior"
    assert sena_gesture(Sena.SOLOMILLO) == "frunce los labios como para un beso"
    assert sena_gesture(Sena.REAL) == "se toca el lóbulo de la oreja"
    assert sena_gesture(Sena.REAL, "en") == "touches the earlobe"


@pytest.mark.parametrize(("cards", "rules", "expected"), [
    # §7 with 8 reyes: a 3 is a rey and a 2 an as; rey-rey-rey-as is the solomillo (31, medias).
    ("12o 12c 3e 1b", Rules(), [Sena.DOS_REYES, Sena.TRES_REYES, Sena.MEDIAS,
                                Sena.TREINTA_Y_UNA, Sena.SOLOMILLO]),
    # With 4 reyes the 3 is a 3: one par of reyes, 24 of punto.
    ("12o 12c 3e 1b", Rules(reyes=4), [Sena.DOS_REYES]),
    # 1-2-1 are three ases with 8 reyes: dos ases, tres ases, medias; no juego, but pares.
    ("1o 2c 1e 4b", Rules(), [Sena.DOS_ASES, Sena.TRES_ASES, Sena.MEDIAS]),
    ("12o 12c 7e 7b", Rules(), [Sena.DOS_REYES, Sena.DUPLES]),
    # Four reyes are duples (§3) and show dos and tres reyes, but not the solomillo.
    ("12o 12c 12e 3b", Rules(), [Sena.DOS_REYES, Sena.TRES_REYES, Sena.DUPLES]),
    # «treinta»: a punto of 30; no pares and no juego is also «ciego».
    ("12o 11c 6e 4b", Rules(), [Sena.TREINTA, Sena.CIEGO]),
    ("4o 5c 6e 11b", Rules(), [Sena.CIEGO]),
    # La real only with the variant (§3, §7).
    ("7o 7c 7e 10b", Rules(), [Sena.MEDIAS, Sena.TREINTA_Y_UNA]),
    ("7o 7c 7e 10b", Rules(real=True), [Sena.MEDIAS, Sena.TREINTA_Y_UNA, Sena.REAL]),
])
def test_senas_posibles(cards: str, rules: Rules, expected: list[Sena]) -> None:
    assert senas_posibles(hand(cards), rules) == expected


def test_no_senas_without_four_cards() -> None:
    # Mid-discard a hand has fewer cards: it shows nothing until it is whole again.
    assert senas_posibles(hand("12o 12c 3e"), Rules()) == []


S = Sena
SHOWN: list[tuple[str, int, bool, list[Sena]]] = [
    # (hand, reyes, la real on, the señas §7 lets it send), worked out by hand from §1, §3, §7.
    # Three reyes and an as (31, medias): the solomillo; with 8 reyes the 3s are reyes and the 2
    # an as, with 4 they are a par of 3s and 18 of punto, which shows nothing.
    ("12o 12c 12e 1b", 4, False, [S.DOS_REYES, S.TRES_REYES, S.MEDIAS, S.TREINTA_Y_UNA,
                                  S.SOLOMILLO]),
    ("12o 3c 3e 2b", 8, False, [S.DOS_REYES, S.TRES_REYES, S.MEDIAS, S.TREINTA_Y_UNA,
                                S.SOLOMILLO]),
    ("12o 3c 3e 2b", 4, False, []),
    # 12 12 3 2: with 4 reyes a par of reyes and 25 of punto.
    ("12o 12c 3e 2b", 4, False, [S.DOS_REYES]),
    # Four reyes are duples (§3), and not a solomillo.
    ("12o 12c 3e 3b", 8, False, [S.DOS_REYES, S.TRES_REYES, S.DUPLES]),
    # Reyes and caballos: duples, juego of 40; with 4 reyes a par of caballos and 33.
    ("12o 3c 11e 11b", 8, False, [S.DOS_REYES, S.DUPLES]),
    ("12o 3c 11e 11b", 4, False, []),
    # Four ases with 8 reyes (a 2 is an as): duples; with 4 reyes three ases, medias.
    ("1o 1c 2e 1b", 8, False, [S.DOS_ASES, S.TRES_ASES, S.DUPLES]),
    ("1o 1c 2e 1b", 4, False, [S.DOS_ASES, S.TRES_ASES, S.MEDIAS]),
    # Ases and sietes: duples with 8 reyes; a par of 7s with 4, which no seña names.
    ("1o 2c 7e 7b", 8, False, [S.DOS_ASES, S.DUPLES]),
    ("1o 2c 7e 7b", 4, False, []),
    ("2o 2c 1e 7b", 8, False, [S.DOS_ASES, S.TRES_ASES, S.MEDIAS]),
    ("2o 2c 1e 7b", 4, False, []),
    # 30 of punto, no pares: treinta and ciego; with 4 reyes the 3 is 3: 23, ciego alone.
    ("3o 11c 6e 4b", 8, False, [S.TREINTA, S.CIEGO]),
    ("3o 11c 6e 4b", 4, False, [S.CIEGO]),
    # 32 with 8 reyes: juego, so not ciego, and no pares; with 4 reyes 25 and ciego.
    ("3o 10c 7e 5b", 8, False, []),
    ("3o 10c 7e 5b", 4, True, [S.CIEGO]),
    # 31 without pares: treinta y una alone.
    ("12o 11c 10e 1b", 8, True, [S.TREINTA_Y_UNA]),
    # La real (7 7 7 sota) only with the variant; 7 7 7 caballo and 7 7 7 3 are not la real.
    ("7o 7c 7e 10b", 8, True, [S.MEDIAS, S.TREINTA_Y_UNA, S.REAL]),
    ("7o 7c 7e 10b", 4, True, [S.MEDIAS, S.TREINTA_Y_UNA, S.REAL]),
    ("7o 7c 7e 10b", 8, False, [S.MEDIAS, S.TREINTA_Y_UNA]),
    ("7o 7c 7e 11b", 8, True, [S.MEDIAS, S.TREINTA_Y_UNA]),
    ("7o 7c 7e 3b", 8, True, [S.MEDIAS, S.TREINTA_Y_UNA]),
    ("7o 7c 7e 3b", 4, True, [S.MEDIAS]),
]


def test_the_hand_picked_hands_cover_every_sena_and_variant() -> None:
    assert {s for *_, shown in SHOWN for s in shown} == set(Sena)
    assert {(reyes, real) for _, reyes, real, _ in SHOWN} == {(4, False), (4, True), (8, False),
                                                              (8, True)}


@pytest.mark.parametrize(("cards", "reyes", "real", "expected"), SHOWN)
def test_a_hand_shows_exactly_its_senas(cards: str, reyes: int, real: bool,
                                        expected: list[Sena]) -> None:
    """§7: the señas a hand allows, and every other one refused: false señas are forbidden."""
    rules = Rules(reyes=reyes, real=real)  # type: ignore[arg-type]
    held = hand(cards)
    assert senas_posibles(held, rules) == expected
    for sena in Sena:
        if sena in expected:
            check_sena(rules, corrido=False, finished=False, cards=held, sena=sena)
        else:
            with pytest.raises(IllegalAction) as refused:
                check_sena(rules, corrido=False, finished=False, cards=held, sena=sena)
            assert refused.value.params == {"sena": sena.nombre}


@pytest.mark.parametrize(("text", "sena"), [
    ("dos reyes", Sena.DOS_REYES), ("2 reyes", Sena.DOS_REYES), ("DOS  REYES", Sena.DOS_REYES),
    ("tres ases", Sena.TRES_ASES), ("3 ases", Sena.TRES_ASES), ("duples", Sena.DUPLES),
    ("dúples", Sena.DUPLES), ("31", Sena.TREINTA_Y_UNA), ("treinta y una", Sena.TREINTA_Y_UNA),
    ("30", Sena.TREINTA), ("treinta", Sena.TREINTA), ("solomillo", Sena.SOLOMILLO),
    ("ciego", Sena.CIEGO), ("la real", Sena.REAL), ("real", Sena.REAL),
    ("seña medias", Sena.MEDIAS), ("Señas: medias", None), ("tres_reyes", Sena.TRES_REYES),
])
def test_sena_names(text: str, sena: Sena | None) -> None:
    assert sena_from_text(text) is sena


def test_unknown_sena_is_malformed() -> None:
    with pytest.raises(MalformedCommand) as info:
        parse_sena("cuatro sotas")
    assert info.value.code == "unknown_sena"
    assert error_text(info.value, "es") == "No conozco la seña «cuatro sotas»."
