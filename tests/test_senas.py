"""Señas (docs/rules.md §7): the catalog, which hands show which seña, and how players name them."""

from __future__ import annotations

import random

import pytest
from helpers_rules import cards as hand

from musbot.engine import MalformedCommand, Rules, tables
from musbot.engine.evaluation import AS, REY
from musbot.engine.senas import CATALOG, Sena, parse_sena, sena_from_text, senas_posibles
from musbot.i18n import error_text


def test_catalog_is_the_table_of_section_7() -> None:
    # §7 lists eleven señas, each with its gesture shown to the receiver.
    assert [s.nombre for s in Sena] == [
        "dos reyes", "tres reyes", "dos ases", "tres ases", "medias", "duples",
        "treinta y una", "treinta", "solomillo", "ciego", "la real",
    ]
    assert Sena.DOS_REYES.gesto == "se muerde el labio inferior"
    assert Sena.SOLOMILLO.gesto == "frunce los labios como para un beso"
    assert Sena.REAL.gesto == "se toca el lóbulo de la oreja"
    assert set(CATALOG) == set(Sena)


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


@pytest.mark.parametrize("reyes", [4, 8])
@pytest.mark.parametrize("real", [False, True])
def test_every_sena_is_true_of_the_hand(reyes: int, real: bool) -> None:
    # §7: false señas are forbidden, so every seña offered must hold for the hand.
    rules = Rules(reyes=reyes, real=real)  # type: ignore[arg-type]
    t = tables(reyes, real)
    rng = random.Random(reyes * 10 + real)
    for _ in range(2000):
        cards = rng.sample(range(40), 4)
        info = t.info(cards)
        shown = set(senas_posibles(cards, rules))
        reyes_n, ases_n = info.classes.count(REY), info.classes.count(AS)
        assert (Sena.DOS_REYES in shown) == (reyes_n >= 2)
        assert (Sena.TRES_ASES in shown) == (ases_n >= 3)
        assert (Sena.MEDIAS in shown) == (info.pares == 2)
        assert (Sena.DUPLES in shown) == (info.pares == 3)
        assert (Sena.TREINTA_Y_UNA in shown) == (info.total == 31)
        assert (Sena.TREINTA in shown) == (info.total == 30 and not info.juego)
        assert (Sena.CIEGO in shown) == (not info.pares and not info.juego)
        assert (Sena.REAL in shown) == (real and info.real)


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
