"""The ``musbot`` command line: subcommands, options, one language per run, exit statuses."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from musbot.cli import build_parser, main, parse
from musbot.console import argparse_in, cli_language
from musbot.i18n import catalog

es, en = catalog("es"), catalog("en")


def test_bench_engine_json_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--runs", "1", "--hands", "30", "--comparisons", "2000",
                 "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {"hands_per_s", "comparisons_per_s"}
    assert figures["hands_per_s"] > 0 and figures["comparisons_per_s"] > 0


def test_play_auto_runs_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--seed", "4", "--puntos", "10", "--juegos", "1"]) == 0
    assert "Partida" in capsys.readouterr().out


def test_unknown_subcommand_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["juega"])
    assert exc.value.code == 2


# --- one language per run ---------------------------------------------------------------------

SUBCOMMANDS = [[], ["run"], ["replay"], ["play"], ["invite"], ["bench"], ["bench", "engine"],
               ["bench", "ai"], ["bench", "load"], ["bench", "discord"]]


@pytest.fixture(autouse=True)
def spanish_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The language follows LANG: every test here starts from the default, whatever the
    machine running them says."""
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.mark.parametrize(("argv", "lang", "expected"), [
    ([], "C.UTF-8", "es"), ([], "", "es"), ([], "es_ES.UTF-8", "es"), ([], "en_US.UTF-8", "en"),
    ([], "en", "en"), (["--idioma", "en", "play"], "C.UTF-8", "en"),
    (["play", "--idioma=es"], "en_GB.UTF-8", "es"), (["--idioma", "fr"], "en_GB", "fr"),
    ([], "fr_FR.UTF-8", "fr"), ([], "eu_ES.UTF-8", "eu"), (["--idioma", "de"], "en_GB", "en"),
    (["--idioma", "en", "--idioma", "es"], "C", "es"), (["--", "--idioma", "en"], "C", "es"),
])
def test_one_small_function_decides_the_language(argv: list[str], lang: str,
                                                  expected: str) -> None:
    assert cli_language(argv, {"LANG": lang}) == expected


def _parsers(lang: str) -> list[tuple[list[str], argparse.ArgumentParser]]:
    """Every parser of the command line, each with the words that reach it."""
    with argparse_in(lang):
        top = build_parser(lang)
    found = []
    for path in SUBCOMMANDS:
        parser = top
        for word in path:
            sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            parser = sub.choices[word]
        found.append((path, parser))
    return found


def _helps(lang: str) -> dict[str, str]:
    """Every help text and description of every subcommand and option, by where it is."""
    texts: dict[str, str] = {}
    for path, parser in _parsers(lang):
        where = " ".join(["musbot", *path])
        texts[f"{where} (description)"] = parser.description or ""
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    texts[f"{where} {choice.dest}"] = choice.help or ""
            elif action.help != argparse.SUPPRESS:
                texts[f"{where} {'/'.join(action.option_strings) or action.dest}"] = \
                    action.help or ""
    return texts


def test_every_subcommand_and_option_has_a_help_text() -> None:
    """`play --jugadores` and every `bench engine` option had none."""
    for lang in ("es", "en"):
        missing = [where for where, text in _helps(lang).items() if not text.strip()]
        assert missing == [], lang


def test_help_texts_are_all_in_the_language_of_the_run() -> None:
    """Each help text is a sentence of that language's catalog, none of the other's: no
    Spanish title over English options any more."""
    spanish, english = _helps("es"), _helps("en")
    assert spanish.keys() == english.keys()
    for where in spanish:
        assert spanish[where] != english[where], where
    for words, other in ((spanish, en), (english, es)):
        foreign = {str(v) for v in other.CLI.values()}
        assert not [w for w, text in words.items() if text in foreign]


@pytest.mark.parametrize("path", SUBCOMMANDS, ids=lambda p: " ".join(p) or "musbot")
def test_help_output_is_one_language(path: list[str], monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """What a user reads with --help: argparse's own words follow the language too, whether it
    comes from --idioma or from LANG."""
    for argv, lang in (([*path, "--help"], "C.UTF-8"), ([*path, "--help"], "en_US.UTF-8"),
                       (["--idioma", "en", *path, "--help"], "C.UTF-8"),
                       ([*path, "--idioma", "es", "--help"], "en_US.UTF-8")):
        monkeypatch.setenv("LANG", lang)
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        english = "--idioma en" in " ".join(argv) or (lang.startswith("en") and "es" not in argv)
        mine, theirs = ("usage:", "uso:") if english else ("uso:", "usage:")
        assert out.startswith(mine) and theirs not in out
        assert ("options:" in out) == english and ("opciones:" in out) == (not english)
        assert ("show this help" in out) == english


def test_argparse_errors_are_in_the_language_of_the_run(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, expected in (
            (["juega"], "musbot: error: argumento ORDEN: 'juega' no vale (puede ser 'run', "),
            (["play", "--reyes", "5"], "argumento --reyes: 5 no vale (puede ser 4, 8)"),
            (["play", "--seed", "x"], "argumento --seed: 'x' no es un número"),
            (["play", "--nada"], "musbot: error: no se entiende: --nada"),
            ([], "musbot: error: falta: ORDEN")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("uso: ") and expected in err, err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    with pytest.raises(SystemExit):
        main(["play", "--reyes", "5"])
    err = capsys.readouterr().err
    assert err.startswith("usage: ") and "argument --reyes: invalid choice: 5" in err


def test_argparse_is_left_as_it_was() -> None:
    """The translation lasts one command line: argparse elsewhere in the process is untouched."""
    main(["--idioma", "es", "bench", "engine", "--runs", "1", "--hands", "1",
          "--comparisons", "1"])
    parser = argparse.ArgumentParser()
    assert "show this help message and exit" in parser.format_help()


# --- options ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "says"), [
    (["play", "--puntos", "0"], "argumento --puntos: debe ser un número entero de 1 a 1000, "
                                "no «0»"),
    (["play", "--puntos", "-5"], "argumento --puntos: debe ser un número entero de 1 a 1000"),
    (["play", "--puntos", "1001"], "argumento --puntos: debe ser un número entero de 1 a 1000"),
    (["play", "--juegos", "0"], "argumento --juegos: debe ser un número entero mayor que 0"),
    (["play", "--vacas", "0"], "argumento --vacas: debe ser un número entero mayor que 0"),
    (["play", "--vacas", "dos"], "argumento --vacas: debe ser un número entero mayor que 0"),
    (["play", "--jugadores", "3"], "argumento --jugadores: 3 no vale (puede ser 2, 4, 6)"),
])
def test_impossible_numbers_are_usage_errors(argv: list[str], says: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`--puntos 0` was a ValueError traceback from the engine; now argparse refuses it, exit 2,
    as it already did `--jugadores 3`."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_play_takes_the_edges_of_the_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--seed", "1", "--puntos", "1", "--juegos", "1",
                 "--vacas", "1"]) == 0
    assert "🎉 ¡Partida para" in capsys.readouterr().out


def test_niveles_must_name_one_level_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--auto", "--niveles", "facil,normal"]) == 2
    assert capsys.readouterr().err == "--niveles: hacen falta 4 niveles, uno por asiento\n"
    with pytest.raises(SystemExit):
        main(["--idioma", "en", "play", "--niveles", "facil,nada"])
    assert "argument --niveles: levels: dificil, facil, normal, separated by commas" in \
        capsys.readouterr().err


def test_version_says_whether_the_engine_is_compiled(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from musbot.engine import hand

    installed = version("musbot")
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    compiled = str(hand.__file__).endswith(".so")
    assert capsys.readouterr().out == (
        f"musbot {installed} · {'motor compilado (mypyc)' if compiled else 'motor en Python puro'}"
        "\n")
    monkeypatch.setattr(hand, "__file__", "/x/musbot/engine/hand.cpython-311-x86_64-linux-gnu.so")
    with pytest.raises(SystemExit):
        main(["--idioma", "en", "--version"])
    assert capsys.readouterr().out == f"musbot {installed} · compiled engine (mypyc)\n"
    monkeypatch.setattr(hand, "__file__", "/x/musbot/engine/hand.py")
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.endswith("· motor en Python puro\n")


def test_env_file_is_one_spelling_for_run_and_invite(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`run --env` and `invite --env-file` were two spellings; `--env-file` is the one shown,
    `--env` a hidden alias that still works for both."""
    env = tmp_path / "bot.env"
    env.write_text("DISCORD_CLIENT_ID=123456789012345678\n")
    for command in ("run", "invite"):
        for option in ("--env-file", "--env"):
            assert parse([command, option, str(env)]).env_file == str(env)
        with argparse_in("es"):
            help_text = build_parser("es")._subparsers._group_actions[0].choices[command] \
                .format_help()  # type: ignore[union-attr]
        assert "--env-file" in help_text and "--env " not in help_text


def test_a_missing_env_file_is_an_error_but_a_missing_default_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    for command in (["run"], ["invite"]):
        assert main([*command, "--env-file", "nada.env"]) == 2
        err = capsys.readouterr().err
        assert "no existe el fichero de entorno «nada.env» (--env-file)" in err, err
        assert main([*command, "--idioma", "en", "--env", "nada.env"]) == 2
        assert "there is no environment file «nada.env» (--env-file)" in capsys.readouterr().err
    # No .env here and none asked for: no complaint about files, only the missing settings.
    assert main(["run"]) == 2
    assert capsys.readouterr().err.startswith("Falta DISCORD_TOKEN")
    assert main(["invite"]) == 2
    assert capsys.readouterr().err.startswith("Falta el id de la aplicación")
    (tmp_path / ".env").write_text("DISCORD_CLIENT_ID=123456789012345678\n")
    assert main(["invite"]) == 0
    assert "client_id=123456789012345678" in capsys.readouterr().out


def test_guidance_and_errors_follow_the_language(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert main(["run"]) == 2
    assert capsys.readouterr().err.startswith("DISCORD_TOKEN is missing")
    assert main(["invite"]) == 2
    assert capsys.readouterr().err.startswith("The application id is missing")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nDEV_GUILD_ID=casa\n")
    assert main(["run"]) == 2
    assert capsys.readouterr().err == (
        "Invalid configuration: DEV_GUILD_ID must be a server id (a number), not «casa»\n")
    assert main(["bench", "ai", "--a", "genio", "--games", "1"]) == 2
    assert capsys.readouterr().err.startswith("there are no bots of level «genio»; levels:")
