"""``musbot replay`` as REPLAY.md specifies: output, the transcript keys, and every refusal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from musbot.cli import main
from musbot.replay import replay

HANDS = [["12o", "12c", "1e", "5b"], ["7o", "7c", "10e", "4b"],
         ["3o", "6c", "6e", "11b"], ["2o", "5c", "7e", "10b"]]


def transcript(actions: list[list[Any]], **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"rules": {"reyes": 8, "puntos": 40, "real": False}, "mano": 0,
                            "scores": [0, 0], "hands": HANDS, "deck": ["1o", "4c"],
                            "actions": actions}
    data.update(extra)
    return data


def run_cli(tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    path = tmp_path / "hand.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["replay", str(path)])
    return status, json.loads(capsys.readouterr().out)


FULL = [[0, "no hay mus"], [0, "envido"], [1, "quiero"], [0, "paso"], [1, "envido 3"],
        [2, "no quiero"], [0, "no quiero"], [0, "paso"], [1, "paso"], [2, "paso"]]


def test_a_whole_hand_worked_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """§3/§5 by hand: Grande querido at 2 (seat 0: R R 5 A beats seat 2: R C 6 6); Chica refused
    (pair 1 takes 1 at once); Pares en paso: seats 0 and 2 each hold a par → 2 for pair 0; Juego:
    only seat 2 (32) → no betting, 2 for pair 0. Scored in lance order after the deje."""
    status, out = run_cli(tmp_path, transcript(FULL), capsys)
    assert status == 0
    assert out == {
        "winners": {"grande": 0, "chica": 3, "pares": 0, "juego": 2, "punto": None},
        "ledger": [
            {"pair": 1, "tantos": 1, "lance": "chica", "kind": "deje"},
            {"pair": 0, "tantos": 2, "lance": "grande", "kind": "apuesta"},
            {"pair": 0, "tantos": 2, "lance": "pares", "kind": "base"},
            {"pair": 0, "tantos": 2, "lance": "juego", "kind": "base"},
        ],
        "scores": [6, 1],
        "game_winner": None,
        "finished": True,
    }


def test_unfinished_hand_says_whose_turn(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_cli(tmp_path, transcript(FULL[:4]), capsys)
    assert status == 0
    assert out["finished"] is False
    assert out["to_act"] == 1
    assert out["scores"] == [0, 0] and out["ledger"] == []


def test_standard_input(monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(transcript(FULL))))
    assert main(["replay", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [6, 1]


def test_defaults_and_target_mid_tanteo() -> None:
    """Keys left out take docs/rules.md defaults; §5: the game stops at the step reaching 40 — the
    Grande bet takes pair 0 from 38 to 40 and the Pares/Juego base values are not added."""
    data = {"hands": HANDS, "scores": [38, 37], "actions": FULL}
    out = replay(data)
    assert out["game_winner"] == 0
    assert out["scores"] == [40, 38]
    assert [s["kind"] for s in out["ledger"]] == ["deje", "apuesta"]


def test_a_deje_reaching_the_target_ends_the_hand_at_once() -> None:
    """§5: a deje that reaches the target wins the game mid-hand; later actions are refused."""
    data = {"hands": HANDS, "scores": [38, 39], "actions": FULL[:7]}
    out = replay(data)
    assert out == {"winners": out["winners"], "ledger": [
        {"pair": 1, "tantos": 1, "lance": "chica", "kind": "deje"}],
        "scores": [38, 40], "game_winner": 1, "finished": True}
    with pytest.raises(Exception, match="terminado"):
        replay({**data, "actions": FULL})


@pytest.mark.parametrize(("actions", "index", "words"), [
    ([[1, "mus"]], 0, "No es tu turno"),
    ([[0, "no hay mus"], [0, "3 más"]], 1, "No hay envite que subir"),
    ([[0, "no hay mus"], [0, "envido 1"]], 1, "mínimo"),
    ([[0, "no hay mus"], [0, "quiero"]], 1, "No hay envite"),
    ([[0, "no hay mus"]] + [[s, "paso"] for s in range(4)] * 2 + [[3, "envido"]], 9,
     "Solo pueden envidar a pares quienes los tienen"),
    ([[0, "mus"], [1, "mus"], [2, "mus"], [3, "mus"], [0, "descarto 7o"]], 4, "No tienes"),
    ([[0, "mus"], [1, "mus"], [2, "mus"], [3, "mus"], [0, "descarto"]], 4, "descart"),
    ([[0, "no hay mus"], [0, "hola qué tal"]], 1, "No entiendo"),
    ([[0, "no hay mus"], [0, "órdago"], [1, "quiero"], [2, "paso"]], 3, "terminado"),
    ([[7, "mus"]], 0, "asiento"),
    ([["0", "mus"]], 0, "[asiento, texto]"),
])
def test_rule_breaking_transcripts_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               actions: list[list[Any]], index: int,
                                               words: str) -> None:
    status, out = run_cli(tmp_path, transcript(actions), capsys)
    assert status == 2
    assert out["action"] == index
    assert words.lower() in out["error"].lower()


@pytest.mark.parametrize(("change", "words"), [
    ({"hands": [["13o", "12c", "1e", "5b"], *HANDS[1:]]}, "13o"),
    ({"hands": [["7o", "12c", "1e", "5b"], *HANDS[1:]]}, "dos veces"),
    ({"hands": [["12o", "12c", "1e"], *HANDS[1:]]}, "4"),
    ({"hands": HANDS[:3]}, "2, 4 o 6"),
    ({"deck": ["12o"]}, "dos veces"),
    ({"scores": [0]}, "scores"),
    ({"mano": 9}, "mano"),
    ({"rules": {"reyes": 5}}, "reyes"),
])
def test_impossible_deals_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      change: dict[str, Any], words: str) -> None:
    status, out = run_cli(tmp_path, transcript([], **change), capsys)
    assert status == 2
    assert out["action"] is None
    assert words in out["error"]


def test_not_json_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_cli(tmp_path, "{not json", capsys)
    assert status == 2 and out["action"] is None
    assert main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "No se puede leer" in json.loads(capsys.readouterr().out)["error"]


def test_reshuffles_absent_use_discard_order_and_given_ones_are_checked() -> None:
    """REPLAY.md ``reshuffles``: absent, the new deck is the discards in discard order; given,
    it must be exactly the discards. Deck of 2 cards: seat 0 takes both, the rest come from the
    reshuffled discards."""
    mus = [[s, "mus"] for s in range(4)]
    discards = [[0, "descarto 12o 12c 1e"], [1, "descarto 7o"], [2, "descarto 3o"],
                [3, "descarto 2o"]]
    out = replay(transcript(mus + discards + [[0, "no hay mus"]]))
    assert out["finished"] is False and out["to_act"] == 0
    bad = transcript(mus + discards, reshuffles=[["1o", "4c"]])
    with pytest.raises(Exception, match="rebarajado 1"):
        replay(bad)


def test_module_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript(FULL)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "musbot", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == [6, 1]
