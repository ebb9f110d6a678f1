"""``musbot play``: the console table, interactive (scripted input) and ``--auto``."""

from __future__ import annotations

import argparse

import pytest
from table_helpers import ANY_CARD

from musbot.terminal import add_play_arguments, parse_play_args, rules_from_args, run_play


@pytest.fixture(autouse=True)
def spanish_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """``musbot play`` speaks LANG's language: these tests start from the default."""
    monkeypatch.setenv("LANG", "C.UTF-8")


def run_auto(argv: list[str]) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_play(parse_play_args(["--auto", *argv]), output=out.append)
    return code, out


def test_auto_plays_a_whole_match_and_is_deterministic() -> None:
    code, out = run_auto(["--seed", "7", "--juegos", "1"])
    assert code == 0
    text = "\n".join(out)
    assert "🂠 Se enseñan las cartas:" in text
    assert "🎉 ¡Partida para" in text
    assert run_auto(["--seed", "7", "--juegos", "1"])[1] == out
    assert run_auto(["--seed", "8", "--juegos", "1"])[1] != out


@pytest.mark.parametrize("flags", [["--jugadores", "2"], ["--jugadores", "6"],
                                   ["--reyes", "4", "--real", "--corrido", "--puntos", "30"]])
def test_auto_with_variants(flags: list[str]) -> None:
    code, out = run_auto(["--seed", "3", "--juegos", "1", *flags])
    assert code == 0 and any("Partida para" in line for line in out)


def test_variant_flags() -> None:
    args = parse_play_args(["--reyes", "4", "--puntos", "30", "--real", "--corrido",
                            "--jugadores", "6", "--sin-senas"])
    rules = rules_from_args(args)
    assert (rules.reyes, rules.puntos, rules.real, rules.mus_corrido, rules.jugadores,
            rules.senas) == (4, 30, True, True, 6, False)
    assert rules_from_args(parse_play_args(["--jugadores", "6"])).puntos == 50
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    assert parser.parse_args(["--auto", "--seed", "1"]).auto


def test_interactive_session_shows_only_my_cards() -> None:
    script = iter(["hola", "cartas", "mesa", "seña solomillo", "ayuda", "mus", "paso",
                   "no quiero", "salir"])
    out: list[str] = []
    code = run_play(parse_play_args(["--seed", "11"]), input_fn=lambda _prompt: next(script),
                    output=out.append)
    assert code == 0
    private = [line for line in out if line.startswith("🔒")]
    public = [line for line in out if not line.startswith("🔒")]
    assert private and "Tus cartas:" in private[0]
    assert "No es una jugada" in "\n".join(out)
    assert "Hasta la próxima." in out[-1]
    for line in public:
        if not line.startswith("🂠"):
            assert not ANY_CARD.search(line), line


def test_interactive_ends_on_end_of_input() -> None:
    def no_more(_prompt: str) -> str:
        raise EOFError

    out: list[str] = []
    assert run_play(parse_play_args(["--seed", "2"]), input_fn=no_more, output=out.append) == 0
