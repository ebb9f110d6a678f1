"""``musbot play``: the console table, interactive (scripted input) and ``--auto``."""

from __future__ import annotations

import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from table_helpers import ANY_CARD

from musbot import grammar as commands
from musbot import words
from musbot.engine import parse_card
from musbot.table import render
from musbot.terminal import (
    add_play_arguments,
    help_text,
    parse_play_args,
    rules_from_args,
    run_play,
)
from musbot.words import CARDS_WORDS, HELP_WORDS, QUIT_WORDS, SENA_WORDS, STATUS_WORDS

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
        if not line.startswith("🂠") and line != help_text("es"):  # its examples name cards
            assert not ANY_CARD.search(line), line


def test_interactive_ends_on_end_of_input() -> None:
    def no_more(_prompt: str) -> str:
        raise EOFError

    out: list[str] = []
    assert run_play(parse_play_args(["--seed", "2"]), input_fn=no_more, output=out.append) == 0


PROMPT = "<prompt>"


def session(script: list[str], argv: list[str]) -> list[str]:
    """Everything an interactive session prints, one entry per print, after typing ``script``;
    :data:`PROMPT` where it asked for a line."""
    lines = iter(script)
    out: list[str] = []

    def typed(_prompt: str) -> str:
        out.append(PROMPT)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    assert run_play(parse_play_args(argv), input_fn=typed, output=out.append) == 0
    return out


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


def test_ctrl_c_after_a_review_is_quiet_in_the_review_s_worker_too() -> None:
    """Issue 42: after «repaso» the review's worker process (spawned, idle) got the terminal's
    Ctrl-C too, as every process of the foreground group does, and printed a KeyboardInterrupt
    traceback of its own. It ignores Ctrl-C, the terminal closes it, and nothing is left."""
    game = _musbot(["play", "--seed", "12"], stdin=subprocess.PIPE, start_new_session=True)
    try:
        _read_until(game.stdout, b"\n> ")
        game.stdin.write(b"repaso\n")  # type: ignore[union-attr]
        game.stdin.flush()  # type: ignore[union-attr]
        review = _read_until(game.stdout, "¿Cómo jugué".encode()).partition("¿Cómo".encode())[2]
        if b"\n> " not in review:
            _read_until(game.stdout, b"\n> ")  # the prompt again: the worker waits for work
        time.sleep(0.3)
        os.killpg(game.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
        _, err = game.communicate(timeout=10)
    finally:
        game.kill()
    assert game.returncode == 130
    assert err == b"", err.decode()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # the worker goes with the terminal
        try:
            os.killpg(game.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.killpg(game.pid, signal.SIGKILL)
        pytest.fail("the review's worker outlived the terminal")


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


# --- what a player reads ----------------------------------------------------------------------

def test_the_turn_hint_is_printed_once() -> None:
    """«Te toca hablar» came twice after «cartas» and at the start of a hand (once in the
    hand's text, once as the prompt's hint). Seed 12: you are mano at the first hand."""
    out = session(["cartas", "mesa", "ayuda", "cartas", "no hay mus", "paso"], ["--seed", "12"])
    turns = "\n".join(out).split(PROMPT)
    assert len(turns) == 8  # six lines typed, then the end of input
    for turn in turns[:-1]:
        hints = [line for line in turn.splitlines() if line.startswith("Te toca hablar: ")]
        assert len(hints) == 1, turn


def test_a_move_out_of_place_suggests_only_legal_moves() -> None:
    """«mus» at Grande used to answer «paso, envido, órdago, quiero o no quiero» with no bet to
    answer; now the reply says where the game is and the hint lists the legal moves."""
    out = session(["no hay mus", "mus"], ["--seed", "12"])
    reply = out.index("⚠️ Ahora se apuesta a Grande.")
    assert out[reply + 1] == "Te toca hablar: paso, envido, órdago."
    assert not any("quiero" in line for line in out[reply:reply + 2])


def test_a_typo_gets_a_suggestion() -> None:
    out = session(["envdo", "no quero", "hola"], ["--seed", "12"])
    assert "No es una jugada. ¿Querías decir «envido»?" in out
    assert "No es una jugada. ¿Querías decir «no quiero»?" in out
    assert "No es una jugada. Escribe «ayuda» para ver las órdenes." in out
    english = session(["pasoo"], ["--seed", "12", "--idioma", "en"])
    assert "Not a move. Did you mean «paso»?" in english


def test_ayuda_lists_every_word_of_the_grammar_and_card_code_discards() -> None:
    """From the grammar's own tables: Basque and English words, card-code discards."""
    out = session(["ayuda"], ["--seed", "12"])
    text = help_text("es")
    assert out.count(text) == 2  # on sitting down, and when asked
    assert "descarto 1o 12c" in text and "descarto 1 3" in text
    tables = (*words.FIXED_PHRASES, *words.ENVIDO_VERBS, *words.RAISE_VERBS,
              *words.WEAK_RAISE_VERBS, *words.MORE_WORDS, *words.POSTFIX_ENVIDO_VERBS,
              *words.ALL_CARDS_WORDS, *(" ".join(v) for v in words.DISCARD_VERBS))
    written = text.replace("órdago", "ordago").replace("más", "mas")
    missing = [word for word in tables if word not in written]
    assert missing == []
    for table in (CARDS_WORDS, STATUS_WORDS, SENA_WORDS, HELP_WORDS, QUIT_WORDS):
        assert table[0] in text
    for example in ("envido cinco", "bost gehiago", "raise three"):
        assert commands.parse(example) is not None
    assert "Moves, on your turn" in help_text("en") and "Jugadas" not in help_text("en")


def test_every_help_example_parses() -> None:
    hand = [parse_card(c) for c in ("1o", "12c", "5e", "7b")]
    for canonical, others in commands.vocabulary():
        for phrase in (*canonical.split(", "), *others):
            assert commands.parse(phrase, hand) is not None, phrase


def test_eight_reyes_say_so_where_the_cards_are_listed() -> None:
    """docs/rules.md §1: with 8 reyes a 3 is a rey and a 2 an as; the player's cards said
    neither."""
    def threes_and_twos(argv: list[str]) -> list[tuple[str, str]]:
        out = "\n".join(session(["cartas"], ["--seed", "3", *argv]))
        return re.findall(r"(?m)^\d\. ([23])\D.*?( \(vale como (?:rey|as)\))?$", out)

    eight = threes_and_twos([])
    assert eight, "seed 3 deals seat 1 no 3 and no 2: pick another seed"
    for rank, note in eight:
        assert note == (" (vale como rey)" if rank == "3" else " (vale como as)")
    assert all(note == "" for _, note in threes_and_twos(["--reyes", "4"]))


def test_games_count_is_shown_when_a_game_is_won() -> None:
    code, out = run_auto(["--seed", "5", "--puntos", "10", "--juegos", "2", "--vacas", "2"])
    assert code == 0
    won = [line for text in out for line in text.splitlines() if line.startswith("🏆")]
    assert won and all(" Juegos " in line for line in won)
    counts = [line.rsplit(" Juegos ", 1)[1] for line in won]
    assert counts[0] in ("1–0.", "0–1.")
    assert any(c in ("2–0.", "2–1.", "0–2.", "1–2.") for c in counts)  # a vaca's last game


def test_singular_and_plural() -> None:
    """«1 tantos», «1 vaca(s)»: now «1 tanto», «1 vaca», «1 amarraco», «1 juego»."""
    text = "\n".join(run_auto(["--seed", "7", "--juegos", "1", "--vacas", "1"])[1])
    assert "Mesa de 4 · a 40 tantos · 1 juego por vaca · 1 vaca" in text
    assert "vaca(s)" not in text and not re.search(r"\b1 (tantos|amarracos)\b", text)
    assert re.search(r"\b1 tanto\b", text) and "(1 amarraco y" in text
    english = "\n".join(run_auto(["--seed", "7", "--juegos", "1", "--idioma", "en"])[1])
    assert "4-player table · to 40 tantos · 1 game a vaca · 1 vaca" in english
    assert not re.search(r"\b1 tantos", english) and re.search(r"\b1 tanto\b", english)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_seats_and_pairs_are_numbered_from_1(players: int, lang: str) -> None:
    """Issue 46: at two or six a side is one person or three: a team, not a pair."""
    out = "\n".join(session(["cartas", "mesa", "paso", "mesa"],
                            ["--seed", "4", "--jugadores", str(players), "--idioma", lang]))
    seat, pair, team = ("asiento", "pareja", "equipo") if lang == "es" else \
        ("seat", "pair", "team")
    side, other = (pair, team) if players == 4 else (team, pair)
    seats = {int(n) for n in re.findall(rf"(?i)\b{seat} (\d+)", out)}
    pairs = {int(n) for n in re.findall(rf"(?i)\b{side} (\d+)", out)}
    assert seats and min(seats) == 1 and max(seats) <= players
    assert pairs == {1, 2}
    assert not re.search(rf"(?i)\b{other} \d", out), "one person or three are no pair"
    assert f"Bot {players}" in out and "Bot 0" not in out


def test_play_help_says_where_you_sit(capsys: pytest.CaptureFixture[str]) -> None:
    from musbot.cli import main

    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "Te sientas en el asiento 1, en la pareja 1" in " ".join(out.split())
    assert "Ctrl-C sale al momento (estado 130)" in " ".join(out.split())


def test_render_counts() -> None:
    assert [render.count("tantos", n) for n in (0, 1, 2)] == ["0 tantos", "1 tanto", "2 tantos"]
    assert render.count("vacas", 1, "en") == "1 vaca" and render.count("juegos", 2, "en") == \
        "2 games"


# --- Basque and French all the way (issue 46) -------------------------------------------------

def played(script: list[str], argv: list[str]) -> list[str]:
    """The lines a session prints once the match has begun (after the help, which lists every
    language's words)."""
    lines = "\n".join(session(script, argv)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("🃏"))
    return lines[start:]


def test_a_basque_player_discards_with_bota_and_reviews_with_errepasoa() -> None:
    """«bota 1 2 3» was refused («Hori ez da jokaldi bat») though the table says «3 karta bota
    ditu»; the hint said «descarto 1 3». Seed 15: all four go to mus at the first hand."""
    out = played(["mus", "bota 1 2 3", "errepasoa"], ["--seed", "15", "--idioma", "eu"])
    assert "Zure txanda da: «bota» eta botatzen dituzun karten zenbakiak." in out
    assert "Jokalaria: 3 karta bota ditu." in out
    assert "Nola jokatu nuen 1. eskuan? Erabaki bakoitza, orduan zenekienarekin:" in out
    assert any("«bota 1o 6c 10e» esan zenuen" in line for line in out)
    assert not [line for line in out if "descarto" in line or "jokaldi bat" in line]


def test_a_french_player_discards_with_jette_and_reviews_with_revue() -> None:
    out = played(["mus", "jette 3 4", "revue"], ["--seed", "15", "--idioma", "fr"])
    assert "À vous de parler : « jette » et les numéros des cartes que vous jetez." in out
    assert "Joueur jette 2 cartes." in out
    assert any(line.startswith("Comment ai-je joué au coup 1 ?") for line in out)
    assert not [line for line in out if "descarto" in line or "pas un coup" in line]


@pytest.mark.parametrize(("lang", "typed", "said"), [
    ("eu", "ez dago mus", "Jokalaria: mintza."), ("eu", "mus ez", "Jokalaria: mintza."),
    ("fr", "passe", "Ce n'est pas un coup. Vouliez-vous dire « paso » ?"),
])
def test_the_basque_no_mus_and_the_french_pass(lang: str, typed: str, said: str) -> None:
    """Seed 12: you speak first at the mus; «passe» is no word of the French table, whose pass
    is *paso* (MEMO MUS): it is suggested, not the English «pass»."""
    assert said in played([typed], ["--seed", "12", "--idioma", lang])


@pytest.mark.parametrize(("lang", "side", "not_said"), [
    ("eu", "1. taldea", "bikote"), ("es", "Equipo 1", "areja"), ("fr", "Équipe 1 :", "Équipe 1:"),
])
def test_a_side_of_one_or_three_is_a_team(lang: str, side: str, not_said: str) -> None:
    """Issue 46: «bikotea» named one person or three; French put no space before its colon."""
    for players in ("2", "6"):
        text = "\n".join(run_auto(["--seed", "11", "--jugadores", players, "--puntos", "10",
                                   "--juegos", "1", "--idioma", lang])[1])
        assert side in text and not_said not in text, (lang, players)
