"""``musbot play``: the console table, interactive (scripted input) and ``--auto``."""

from __future__ import annotations

import argparse
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from table_helpers import ANY_CARD

from musbot.terminal import add_play_arguments, parse_play_args, rules_from_args, run_play

REPO = Path(__file__).resolve().parent.parent


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


# --- leaving: Ctrl-C, a closed output ---------------------------------------------------------

def _musbot(argv: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LANG": "C.UTF-8", "PYTHONPATH": str(REPO), **kwargs.pop("env", {})}
    return subprocess.Popen([sys.executable, "-m", "musbot", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def _read_until(stream: object, marker: bytes, seconds: float = 30.0) -> bytes:
    fd = stream.fileno()  # type: ignore[attr-defined]
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {marker!r} after {seconds} s: {seen[-300:]!r}"
        chunk = os.read(fd, 65536)
        assert chunk, f"output ended without {marker!r}: {seen[-300:]!r}"
        seen += chunk
    return seen


def test_ctrl_c_at_the_prompt_leaves_at_once() -> None:
    """The first Ctrl-C used to be swallowed (asyncio's own handler only cancelled the game task
    while input() kept waiting), and a later exit ended in a KeyboardInterrupt traceback."""
    game = _musbot(["play", "--seed", "12"], stdin=subprocess.PIPE)
    try:
        before = _read_until(game.stdout, b"\n> ")
        game.send_signal(signal.SIGINT)
        out, err = game.communicate(timeout=10)
    finally:
        game.kill()
    assert game.returncode == 130
    assert (before + out).decode().endswith("> Hasta la próxima.\n")
    assert err == b""


def test_ctrl_c_stops_a_match_of_bots_at_once() -> None:
    """Bots that never wait on anything used to play on to the end after Ctrl-C (a long match of
    «dificil» bots: many seconds)."""
    game = _musbot(["play", "--auto", "--seed", "7", "--nivel", "dificil", "--vacas", "3"],
                   env={"PYTHONUNBUFFERED": "1"})
    try:
        _read_until(game.stdout, b"Nueva mano")
        asked = time.monotonic()
        game.send_signal(signal.SIGINT)
        out, err = game.communicate(timeout=10)
    finally:
        game.kill()
    assert time.monotonic() - asked < 5
    assert game.returncode == 130
    assert out.decode().endswith("Hasta la próxima.\n")
    assert err == b""


def test_a_reader_that_goes_away_stops_the_match_quietly() -> None:
    """``musbot play --auto --seed 7 | head -3``: hundreds of BrokenPipeError tracebacks while
    the match played on; now it stops when the reader is gone, silently."""
    game = _musbot(["play", "--auto", "--seed", "7", "--nivel", "dificil", "--vacas", "3"])
    try:
        first = _read_until(game.stdout, b"\n")
        game.stdout.close()  # type: ignore[union-attr]
        closed = time.monotonic()
        err = game.stderr.read()  # type: ignore[union-attr]
        game.wait(timeout=10)
    finally:
        game.kill()
    assert first.startswith("¡Empieza la partida!".encode())
    assert time.monotonic() - closed < 5
    assert err == b""
    assert game.returncode == 141


def test_a_closed_output_while_typing_is_quiet_too() -> None:
    game = _musbot(["play", "--seed", "12"], stdin=subprocess.PIPE)
    try:
        _read_until(game.stdout, b"\n> ")
        game.stdout.close()  # type: ignore[union-attr]
        _, err = game.communicate(b"ayuda\nmesa\ncartas\n", timeout=10)
    finally:
        game.kill()
    assert err == b""
    assert game.returncode == 141
