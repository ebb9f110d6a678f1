"""The ``musbot`` command line: subcommands, options, one language per run, exit statuses."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

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


# --- Basque and French all the way (issue 46) ---------------------------------------------------

def _every_path(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                ) -> list[tuple[str, ...]]:
    """Every subcommand's words, the top one included, from the parser itself."""
    found = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                found += _every_path(sub, (*path, word))
    return found


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_every_help_in_basque_or_french_has_no_spanish_word(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` of every subcommand (db hand, bench txapelketa… as they come), in the language
    asked: no Spanish-only word but the program's own names (musbot repaso, --asiento)."""
    from test_i18n import spanish_words, without_names

    with argparse_in(lang):
        paths = _every_path(build_parser(lang))
    assert ("db", "hand") in paths and ("bench", "txapelketa") in paths
    left = {}
    for path in paths:
        with pytest.raises(SystemExit):
            main(["--idioma", lang, *path, "--help"])
        out = without_names(capsys.readouterr().out)
        for word in {word for path in paths for word in path}:  # the subcommands' names
            out = re.sub(rf"(?m)^ +{word}\b", "", out)
        found = spanish_words(out)
        if found:
            left[" ".join(path)] = found
    assert not left, left


def _spanish_in(out: str) -> set[str]:
    from test_i18n import spanish_words, without_names

    return spanish_words(without_names(out))


@pytest.mark.parametrize(("lang", "head"), [
    ("eu", "musbot bench engine — 1 exekuzioren mediana"),
    ("fr", "musbot bench engine — médiane de 1 passes"),
])
def test_bench_answers_in_the_language_of_the_run(
        lang: str, head: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`musbot bench` always answered in English: each benchmark's figures are worded in the
    run's language, with its decimal point (the JSON line is the same in every language)."""
    assert main(["--idioma", lang, "bench", "engine", "--runs", "1", "--hands", "5",
                 "--comparisons", "200", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(head) and not _spanish_in(out)
    assert set(json.loads(out.splitlines()[-1])) == {"hands_per_s", "comparisons_per_s"}
    assert main(["--idioma", lang, "bench", "ai", "--a", "normal", "--b", "facil", "--games",
                 "1"]) == 0
    out = capsys.readouterr().out
    assert "(A)" in out and "," in out and not _spanish_in(out), out


def _load_figures(**changed: Any) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "backend": "sqlite", "db": "/tmp/load.db", "tables": 3, "rate": 60.0, "gc": "tuned",
        "seconds": 1.2, "actions": 64, "unissued": 3, "actions_per_s": 53.3,
        "latency_ms_p50": 0.8, "latency_ms_p99": 4.5, "latency_ms_max": 8.7, "steal_share": 0.01,
        "steal_share_worst": 0.2, "calm_share": 0.9, "calm_latency_ms_p99": 4.0,
        "others_cores": 1.5, "cores": 2, "save_ms_p50": 0.05, "save_ms_p99": 0.5,
        "save_ms_max": 6.6, "journal_share": 0.87, "cpu_ms_per_action": 0.374,
        "server_cpu_ms_per_action": None, "loop_busy": 0.02, "max_actions_per_s": 6815.6,
        "closed_seconds": 0.5, "closed_latency_ms_p50": 0.4, "engine_share": 0.096,
        "engine_ms_per_action": 0.0115, "rss_mb": 78.2, "kb_per_table": 85.3,
        "heap_trims": 6, "heap_trim_ms_max": 2.8,
        "pictures_drawn": 4000, "pictures_skipped": 12,
        "db_bytes_per_hand": 1518.0, "hands": 232, "state_bytes": 5122.0, "db_mb": 0.5,
        "size_measure": "dbstat", "setup_s": 0.01, "live_tables": 3, "restored": 3,
        "restore_s": 0.016, "announce_s": 0.008, "gc_collections": 148, "gc_full": 0,
        "gc_max_ms": 0.1, "gc_max_ms_by_generation": [0.1, 0.0, 0.0], "gc_total_s": 0.0,
        "gc_audit_ms": 2.4, "gc_audit_walk_ms": 82.6, "gc_audit_forked": True,
        "gc_audit_found": 0, "outage_s": 1.5, "outage_by": "server", "saves_failed": 12,
        "moves_refused": 4, "pause_max_s": 1.4, "resume_s": 0.7, "acknowledged_lost": 2,
        "playing": 3,
        "rest": {"per_action": {"POST /channels/{channel_id}/messages": 0.49},
                 "budget_per_action": 0.585,
                 "worst_window": {"POST /channels/{channel_id}/messages": 4}}}
    figures.update(changed)
    return figures


def _discord_figures() -> dict[str, Any]:
    return {"matches": 2, "people": 1, "bots": 3, "bot_delay_s": 1.2, "think_s": 3.0,
            "input": "mixed", "seed": 1, "moves": 1009, "person_moves": 254, "pressed": 130,
            "typed": 124, "bot_moves": 755, "hands": 78, "minutes_per_match": 14.1,
            "budget_per_move": 0.499, "budget_calls": 504,
            "per_move": {"POST /channels/{channel_id}/messages": 0.206},
            "dm_posts_per_move": 0.128, "interaction_answers_per_move": 0.151, "presses": 150,
            "worst_window": {"table_messages": 1, "table_edits": 3, "dm_messages": 2},
            "over_limit": {"table_messages": 0, "table_edits": 0, "dm_messages": 0},
            "dms_per_hand": 1.67, "dms_per_person_hand": 1.67, "dm_channels_opened": 1,
            "turn_shown_s_p50": 0.0, "turn_shown_s_p99": 0.1, "turn_shown_s_max": 0.4,
            "unshown": 1, "refused": 1}


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_every_bench_report_is_worded_in_the_language(lang: str) -> None:
    """Each line of `bench load` (every branch: an outage, moves lost, PostgreSQL measured or
    not, several databases compared, --restore) and of `bench discord`, from their figures."""
    from musbot.bench import budget, load_report

    runs = [_load_figures(), _load_figures(backend="postgresql", server_cpu_ms_per_action=0.2,
                                           size_measure="pg_total_relation_size",
                                           gc_audit_forked=False, gc_audit_found=None,
                                           outage_by="injected", resume_s=None,
                                           acknowledged_lost=0, steal_share=None),
            _load_figures(backend="postgresql", calm_latency_ms_p99=None, unissued=0)]
    texts = [load_report.report(r, lang) for r in runs]
    texts += [load_report.restore_report(runs[0], lang),
              load_report.comparison(load_report.compared(runs), lang),
              budget.report(_discord_figures(), lang)]
    english = "\n".join([load_report.report(runs[0], "en"), budget.report(_discord_figures())])
    for text in texts:
        assert not _spanish_in(text), text
        assert not {line for line in text.splitlines() if line in english}, text
    assert ("6\u202f815,6" if lang == "fr" else "6.815,6") in texts[0]  # the language's marks


@pytest.mark.parametrize("lang", ["eu", "fr"])
def test_the_bracket_picture_speaks_the_language(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bracket PNG was always Spanish («Cuadro principal», «Ronda 1», «Cuartos de
    final»): every text the picture draws, on bracket and table pages, is the language's."""
    import random

    from tournament_helpers import T0, drawn

    from musbot.tournament import Format
    from musbot.tournament.picture import Canvas as _Canvas
    from musbot.tournament.picture import render
    from musbot.tournament.simulate import random_results, simulate

    drawn_texts: list[str] = []
    real = _Canvas.text

    def text(self: _Canvas, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        drawn_texts.append(text)
        real(self, x, y, text, *args, **kwargs)

    monkeypatch.setattr(_Canvas, "text", text)

    def drawn_in(lang: str, formats: tuple[tuple[Format, int], ...]) -> str:
        drawn_texts.clear()
        for fmt, pairs in formats:
            t = drawn(pairs, fmt, 3)
            simulate(t, random_results(random.Random(3), late_rate=0.2), start=T0)
            drawn_texts.extend(page.title for page in render(t, lang))
        return "\n".join(drawn_texts)

    shown = drawn_in(lang, ((Format.DOUBLE, 8), (Format.GROUPS, 6), (Format.SWISS, 4)))
    assert len(set(drawn_texts)) > 30 and not _spanish_in(shown), sorted(set(drawn_texts))
    spanish = drawn_in("es", ((Format.DOUBLE, 8),))
    for words in ("Cuadro principal", "Cuartos de final", "Repesca"):
        assert words in spanish and words not in shown



def test_bench_txapelketa_draws_its_bracket_in_the_language_of_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`--idioma eu` drew the bracket in Spanish all the same: every page drawn during the run
    and the one written at its end are Basque."""
    from musbot.bench import txapelketa

    languages = []
    real = txapelketa.render

    def render(tournament: Any, lang: str = "es", **kwargs: Any) -> Any:
        languages.append(lang)
        return real(tournament, lang, **kwargs)

    monkeypatch.setattr(txapelketa, "render", render)
    out = tmp_path / "koadroa.png"
    assert main(["--idioma", "eu", "bench", "txapelketa", "--pairs", "4", "--format",
                 "knockout", "--games", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("musbot bench txapelketa — 4 bikote, kanporaketa")
    assert not _spanish_in(text) and out.read_bytes().startswith(b"\x89PNG")
    assert languages and set(languages) == {"eu"}
