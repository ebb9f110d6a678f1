"""«¿Cómo jugué?» outside Discord: ``musbot repaso FILE --asiento N`` and the terminal's offer
after each hand."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from helpers_rules import shuffled_hand
from table_helpers import ANY_CARD
from test_terminal import session

from musbot.ai import NormalBot
from musbot.cli import main
from musbot.coach.cli import run


def _transcript(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    h = shuffled_hand(seed)
    bot = NormalBot()
    while h.to_act is not None:
        h.apply(h.to_act, bot.decide(h.view(h.to_act), rng))
    return h.transcript()


def test_repaso_reviews_one_seat_of_a_stored_hand(tmp_path: Path) -> None:
    path = tmp_path / "mano.json"
    path.write_text(json.dumps(_transcript(3)))
    out, err = io.StringIO(), io.StringIO()
    assert run(str(path), 2, seed=1, out=out, err=err) == 0
    text = out.getvalue()
    assert text.startswith("¿Cómo jugué?") and "Consejo" in text and not err.getvalue()
    # Its own cards only: a stored hand holds all four, the review shows the seat's.
    hands = _transcript(3)["hands"]
    assert isinstance(hands, list)
    others = {code for seat, hand in enumerate(hands) if seat != 1 for code in hand}
    assert not {m.group(0) for m in ANY_CARD.finditer(text)} & others
    out = io.StringIO()
    assert run(str(path), 2, seed=1, lang="en", out=out) == 0
    assert out.getvalue().startswith("How did I play?")


def test_repaso_refuses_bad_files_and_seats_with_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "mano.json"
    path.write_text(json.dumps(_transcript(3)))
    err = io.StringIO()
    assert run(str(path), 5, out=io.StringIO(), err=err) == 2
    assert "--asiento va de 1 a 4" in err.getvalue()
    err = io.StringIO()
    assert run(str(tmp_path / "nada.json"), 1, out=io.StringIO(), err=err) == 2
    assert err.getvalue().strip()
    bad = tmp_path / "mala.json"
    data = _transcript(3)
    data["actions"] = [[0, "envido 1"]]
    bad.write_text(json.dumps(data))
    err = io.StringIO()
    assert run(str(bad), 1, out=io.StringIO(), err=err) == 2
    assert err.getvalue().strip()
    assert main(["repaso", str(path), "--asiento", "1", "--semilla", "3"]) == 0


def test_the_terminal_offers_the_review_after_each_hand() -> None:
    out = session(["mus", "paso"] * 20 + ["repaso", "repaso 99", "salir"], ["--seed", "5"])
    offers = [line for line in out if line.startswith("¿Cómo jugué? Escribe «repaso»")]
    assert offers and offers[0].endswith("mano 1.")
    assert any(line.startswith("¿Cómo jugué en la mano") for line in out)
    assert any(line.startswith("No tengo la mano 99") for line in out)


def test_bench_repaso_prints_its_figures(capsys: object) -> None:
    assert main(["bench", "repaso", "--hands", "3", "--json"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["reviews"] == 3
    assert 0 < figures["cpu_ms_p50"] <= figures["answer_ms_max"] * 1.5
    assert {"answer_ms_p99", "loop_late_ms_p99"} <= figures.keys()


def _refused() -> list[tuple[str, dict[str, object]]]:
    """Transcripts ``musbot replay`` refuses, each for a reason of its own; docs/replay.md's
    example 3 (the deck runs out before it was all dealt) first."""
    from test_replay import documented_examples

    third, kind, _ = documented_examples()[2]
    assert kind == "refusal"
    whole = _transcript(3)
    after_end = {**whole, "actions": [*whole["actions"], [0, "paso"]]}  # type: ignore[list-item]
    unused = {**whole, "reshuffles": [["1o"]]}
    hola = {**whole, "actions": [[0, "hola"]]}
    return [("deck_short", json.loads(third)), ("after_end", after_end),
            ("reshuffles_unused", unused), ("not_a_move", hola)]


@pytest.mark.parametrize("lang", ["es", "eu", "fr", "en"])
def test_repaso_refuses_what_replay_refuses_with_the_same_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """Issue 46: `musbot repaso` reviewed docs/replay.md's example 3, which `musbot replay`
    refuses, and exited 0. Both now play a transcript through one loop."""
    for name, data in _refused():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        assert main(["--idioma", lang, "replay", str(path)]) == 2, name
        refusal = json.loads(capsys.readouterr().out)["error"]
        assert main(["--idioma", lang, "repaso", str(path), "--asiento", "1"]) == 2, name
        out, err = capsys.readouterr()
        assert out == "" and err == refusal + "\n", name


@pytest.mark.parametrize(("lang", "heading"), [
    ("eu", "Nola jokatu nuen?"), ("fr", "Comment ai-je joué ?"), ("en", "How did I play?")])
def test_repaso_speaks_the_language_of_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, heading: str) -> None:
    """Issue 46: `musbot repaso --idioma eu|fr` printed Spanish."""
    from test_i18n import spanish_words

    path = tmp_path / "mano.json"
    path.write_text(json.dumps(_transcript(3)))
    assert main(["repaso", str(path), "--asiento", "2", "--semilla", "1", "--idioma", lang]) == 0
    out = capsys.readouterr().out
    assert out.startswith(heading)
    assert lang == "en" or not spanish_words(out.replace("«dificil»", "")), out
