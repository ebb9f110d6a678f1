"""``musbot replay`` as docs/replay.md specifies: output, the transcript keys, and every refusal."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from musbot.cli import main
from musbot.engine import CARD_CODES, Rules
from musbot.i18n import catalog
from musbot.replay import KEYS, LANGS, RULE_KEYS, replay, run

es, en = catalog("es"), catalog("en")


@pytest.fixture(autouse=True)
def spanish_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay speaks the language of LANG: the tests' words must not depend on the runner's."""
    monkeypatch.setenv("LANG", "C.UTF-8")

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


DEALT = [code for hand in HANDS for code in hand]
UNDEALT = [code for code in CARD_CODES if code not in DEALT]
"""The 24 cards not in HANDS: a whole deck, so that it may run out (docs/replay.md ``deck``)."""


def two_rounds_of_four(*then: list[Any]) -> list[list[Any]]:
    """Everybody discards the whole hand twice. The deck serves round 1 (seat s gets
    UNDEALT[4s:4s+4]) and seats 0 and 1 in round 2; then it is used up and seats 2 and 3 are
    served from the reshuffled discards. Then a third mus round, and ``then``."""
    mus = [[s, "mus"] for s in range(4)]
    first = [[s, "descarto " + " ".join(HANDS[s])] for s in range(4)]
    second = [[s, "descarto " + " ".join(UNDEALT[4 * s:4 * s + 4])] for s in range(4)]
    return [*mus, *first, *mus, *second, *mus,
            [0, "descarto " + UNDEALT[16]], [1, "descarto " + UNDEALT[20]], *then]


def test_reshuffles_absent_use_discard_order_and_given_ones_are_checked() -> None:
    """docs/replay.md ``reshuffles``: absent, the new deck is the discards in discard order, so
    seat 2 gets the oldest four, seat 0's first hand; given, it is used as it is, and it must be
    exactly the discards."""
    out = replay(transcript(two_rounds_of_four([2, "descarto 12o 12c 1e 5b"]), deck=UNDEALT))
    assert out["finished"] is False and out["to_act"] == 3
    with pytest.raises(Exception, match="No tienes el 3o"):  # seat 2's own first card is not back
        replay(transcript(two_rounds_of_four([2, "descarto 3o"]), deck=UNDEALT))

    pool = DEALT + UNDEALT[:16]  # every discard, in the order made
    given = transcript(two_rounds_of_four([2, "descarto " + pool[-1]]), deck=UNDEALT,
                       reshuffles=[pool[::-1]])
    assert replay(given)["to_act"] == 3
    with pytest.raises(Exception, match="rebarajado 1"):
        replay(transcript(two_rounds_of_four(), deck=UNDEALT, reshuffles=[UNDEALT[:4]]))


def test_module_entry_point(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript(FULL)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "musbot", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == [6, 1]


# ----------------------------------------------------------------------------------------------
# Every bad transcript is refused with exit status 2 and a sentence: one test per problem found.
# ----------------------------------------------------------------------------------------------

MUS = [[s, "mus"] for s in range(4)]
ONE_EACH = [[0, "descarto 5b"], [1, "descarto 4b"], [2, "descarto 11b"], [3, "descarto 10b"]]
"""A round of discards of one card each; its last discard, action 7 after MUS, closes it."""


def refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any,
            *args: str) -> dict[str, Any]:
    """The answer to a transcript that must be refused: exit 2, ``{"error", "action"}``."""
    path = tmp_path / "hand.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    status = main(["replay", *args, str(path)])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert status == 2, out
    assert set(out) == {"error", "action"}
    return out


@pytest.mark.parametrize(("card", "shown"), [
    (12, "12"), (None, "null"), (["12o"], "una lista"), (12.5, "12.5"), (True, "true"),
    ({"rank": 12}, "un objeto"),
])
@pytest.mark.parametrize("where", ["hands", "deck"])
def test_item_a_card_written_as_a_number_null_or_a_list(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], card: Any, shown: str,
        where: str) -> None:
    """Before: a traceback and exit 1 (with the compiled engine). A card is a string."""
    if where == "hands":
        data, path = transcript([], hands=[[card, *HANDS[0][1:]], *HANDS[1:]]), "hands[0][0]"
    else:
        data, path = transcript([], deck=["1o", card]), "deck[1]"
    out = refusal(tmp_path, capsys, data)
    assert out["action"] is None
    assert out["error"] == (f"«{path}» debe ser una carta escrita como texto, como \"12o\", "
                            f"no {shown}.")


def test_item_a_card_code_that_is_no_card(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = refusal(tmp_path, capsys, transcript([], deck=["1o", "8o"]))
    assert out["action"] is None
    assert out["error"].startswith("«deck[1]»: «8o» no es una carta")


@pytest.mark.parametrize(("change", "words"), [
    ({"action": FULL}, ["«action»", "¿querías decir «actions»?"]),
    ({"rules": {"punto": 30}}, ["«punto»", "¿querías decir «puntos»?"]),
    ({"rules": {"juegos": 3}}, ["«rules.juegos» es una regla de la partida"]),
    ({"rules": {"mus_corrido": True}}, ["«rules.mus_corrido»", "¿querías decir «corrido»?"]),
    ({"resuffles": []}, ["«resuffles»", "«reshuffles»"]),
])
def test_item_unknown_keys_are_refused_not_ignored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any],
        words: list[str]) -> None:
    """Before: ``"action"`` for ``"actions"`` replayed no action (exit 0, ``"finished": false``)
    and ``rules: {"punto": 30}`` played to 40."""
    data = transcript(FULL, **change)
    if "action" in change:
        del data["actions"]
    out = refusal(tmp_path, capsys, data)
    assert out["action"] is None
    for word in words:
        assert word in out["error"]


def test_item_actions_are_required(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = transcript([])
    del data["actions"]
    assert refusal(tmp_path, capsys, data)["error"].startswith("Falta «actions»")


@pytest.mark.parametrize(("change", "index", "words"), [
    ({"mano": True}, None, "«mano» debe ser un asiento, de 0 a 3, no true."),
    ({"mano": 1.0}, None, "«mano» debe ser un asiento, de 0 a 3, no 1.0."),
    ({"actions": [[False, "no hay mus"]]}, 0, "el asiento debe ser un número de 0 a 3, no false"),
    ({"scores": [True, 0]}, None, "«scores[0]» debe ser un número entero de tantos"),
])
def test_item_json_booleans_are_not_seats_nor_numbers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any],
        index: int | None, words: str) -> None:
    """Before: ``"mano": true`` played with seat 1 as mano (Python's True == 1)."""
    out = refusal(tmp_path, capsys, {**transcript(FULL), **change})
    assert out["action"] == index
    assert words in out["error"]


@pytest.mark.parametrize(("scores", "rules", "players", "refused"), [
    ([45, 0], {}, 4, "«scores[0]» es 45, y el juego es a 40 tantos"),
    ([0, 40], {}, 4, "«scores[1]» es 40, y el juego es a 40 tantos"),
    ([39, 39], {}, 4, None),
    ([0, 30], {"puntos": 30}, 4, "«scores[1]» es 30, y el juego es a 30 tantos"),
    ([45, 0], {}, 6, None),  # trios play to 50 (docs/rules.md §8)
    ([50, 0], {}, 6, "«scores[0]» es 50, y el juego es a 50 tantos"),
])
def test_item_a_score_over_the_target(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      scores: list[int], rules: dict[str, Any], players: int,
                                      refused: str | None) -> None:
    """Before: ``"scores": [45, 0]`` was played, and answered «La mano ya ha terminado.» at some
    later action. A pair at the target has won the game: no hand starts there."""
    trios = [["1o", "1c", "1b", "4o"], ["4c", "4e", "5o", "5e"]]
    hands = HANDS if players == 4 else [*HANDS, *trios]
    data = transcript([[0, "no hay mus"]], scores=scores, rules=rules, hands=hands, deck=[])
    if refused is None:
        assert replay(data)["scores"] == scores
        return
    out = refusal(tmp_path, capsys, data)
    assert out["action"] is None
    assert out["error"].startswith(refused)


def test_item_discards_with_no_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: the discards were silently dealt back from a reshuffle of themselves, and the
    error, if any, came at an unrelated later action. The cards run out at action 7, the
    discard that closes the round."""
    data = transcript([*MUS, *ONE_EACH, [0, "no hay mus"]])
    del data["deck"]
    out = refusal(tmp_path, capsys, data)
    assert out == {"error": "La acción 7 cierra una ronda de descartes y hay que reponer las "
                            "cartas, pero la transcripción no tiene «deck», las cartas sin "
                            "repartir.", "action": 7}


def test_item_discards_with_too_short_a_deck(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A deck of 4 cards serves the first round of four single discards; the second round runs
    it out at its closing discard, action 15: that is the action named."""
    actions = [*MUS, *ONE_EACH, *MUS, [0, "descarto 12o"], [1, "descarto 7o"],
               [2, "descarto 3o"], [3, "descarto 2o"], [0, "no hay mus"]]
    deck = UNDEALT[:4]
    served = replay(transcript(actions[:12], deck=deck))
    assert served["finished"] is False and served["to_act"] == 0  # round 1 was served
    out = refusal(tmp_path, capsys, transcript(actions, deck=deck))
    assert out["action"] == 15
    assert out["error"] == (
        "En la acción 15, que cierra una ronda de descartes, no quedan cartas en «deck» para "
        "reponerlos. Los descartes solo se rebarajan cuando se ha repartido el mazo entero, y el "
        "de la transcripción no lo está: las manos y «deck» suman 20 cartas, no 40.")
    given = refusal(tmp_path, capsys, transcript(actions, deck=deck, reshuffles=[UNDEALT[4:8]]))
    assert given == out  # a given reshuffle does not make up for the missing cards


def test_item_reshuffles_given_but_never_needed(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = refusal(tmp_path, capsys, transcript(FULL, reshuffles=[["1o"]]))
    assert out == {"error": "«reshuffles» trae más mazos (1) de los que esta mano rebarajó (0).",
                   "action": None}


def test_item_hands_as_a_string_is_not_missing(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Before: ``"hands": "12o 12c"`` was answered «Falta hands», though it is there."""
    out = refusal(tmp_path, capsys, transcript(FULL, hands="12o 12c"))
    assert out == {"error": "«hands» debe ser una lista con las cartas de cada asiento (2, 4 o 6 "
                            "listas de 4 cartas), no \"12o 12c\".", "action": None}


@pytest.mark.parametrize(("rules", "words"), [
    ({"puntos": 30.5}, "«rules.puntos» debe ser un número entero de 1 a 1000, no 30.5."),
    ({"puntos": "40"}, "«rules.puntos» debe ser un número entero de 1 a 1000, no \"40\"."),
    ({"puntos": 0}, "«rules.puntos» debe ser un número entero de 1 a 1000, no 0."),
    ({"puntos": True}, "«rules.puntos» debe ser un número entero de 1 a 1000, no true."),
    ({"reyes": 8.0}, "«rules.reyes» debe ser 4 u 8, no 8.0."),
    ({"real": 1}, "«rules.real» debe ser true o false, no 1."),
    ({"corrido": "no"}, "«rules.corrido» debe ser true o false, no \"no\"."),
    ([], "«rules» debe ser un objeto, como {\"reyes\": 8, \"puntos\": 40}, no una lista."),
])
def test_item_wrong_types_in_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   rules: Any, words: str) -> None:
    """Before: «int object expected; got float» leaked from the compiled engine (and plain
    Python played to 30.5)."""
    out = refusal(tmp_path, capsys, transcript(FULL, rules=rules))
    assert out == {"error": words, "action": None}


def test_item_del_asiento(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: «La mano de el asiento 0 tiene 3 cartas»."""
    out = refusal(tmp_path, capsys, transcript([], hands=[HANDS[0][:3], *HANDS[1:]]))
    assert out["error"] == "La mano del asiento 0 («hands[0]») tiene 3 cartas; deben ser 4."
    assert " de el " not in out["error"]


@pytest.mark.parametrize(("text", "words"), [
    ('{"hands": [], "hands": [], "actions": []}', "repite la clave «hands»"),
    ('{"hands": NaN, "actions": []}', "NaN no existe en JSON"),
    ("[" * 100_000, "anida demasiadas"),
    ('{"mano": ' + "9" * 5000 + "}", "un número demasiado largo"),
    ("\ufeff" + json.dumps(transcript([], hands="x")), "«hands» debe ser una lista"),  # a BOM
])
def test_item_documents_json_cannot_say(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        text: str, words: str) -> None:
    """Python's JSON reader takes these (or fails with a traceback); each has one meaning here."""
    assert words in refusal(tmp_path, capsys, text)["error"]


def test_item_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"actions": ["paso"], "hands": "ñ"}'.encode("latin-1"))
    assert main(["replay", str(path)]) == 2
    assert "no está en UTF-8: el byte 32" in json.loads(capsys.readouterr().out)["error"]


def test_item_a_refusal_from_the_real_entry_point_is_no_traceback(tmp_path: Path) -> None:
    """The first report: a traceback on stderr and exit 1, from ``python -m musbot``."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transcript(FULL, hands=[[12, *HANDS[0][1:]], *HANDS[1:]])),
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "musbot", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert (done.returncode, done.stderr) == (2, "")
    assert json.loads(done.stdout)["action"] is None


def test_replay_bounds_are_the_engines(tmp_path: Path) -> None:
    """The shape check states the variants' bounds for its sentences; they must be exactly those
    Rules accepts, or a transcript would meet the engine's own, untranslated refusal."""
    def engine_takes(**variant: int) -> bool:
        try:
            Rules(**variant)  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    def replay_takes(**variant: int) -> bool:
        try:
            replay(transcript([], rules=variant))
        except Exception:
            return False
        return True

    for reyes in range(-1, 13):
        assert replay_takes(reyes=reyes) == engine_takes(reyes=reyes), reyes
    for puntos in (-1, 0, 1, 2, 999, 1000, 1001, 10**6):
        assert replay_takes(puntos=puntos) == engine_takes(puntos=puntos), puntos


# ----------------------------------------------------------------------------------------------
# One language per run: --idioma, else LANG.
# ----------------------------------------------------------------------------------------------

NOT_YOUR_TURN = transcript([[1, "mus"]])


@pytest.mark.parametrize(("lang", "args", "error"), [
    ("C.UTF-8", [], "No es tu turno: habla el asiento 0."),
    ("en_GB.UTF-8", [], "Not your turn: seat 0 is to speak."),
    ("en", [], "Not your turn: seat 0 is to speak."),
    ("es_ES.UTF-8", [], "No es tu turno: habla el asiento 0."),
    ("", [], "No es tu turno: habla el asiento 0."),
    ("en_US.UTF-8", ["--idioma", "es"], "No es tu turno: habla el asiento 0."),
    ("C.UTF-8", ["--idioma", "en"], "Not your turn: seat 0 is to speak."),
])
def test_the_language_follows_idioma_then_lang(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        lang: str, args: list[str], error: str) -> None:
    monkeypatch.setenv("LANG", lang)
    assert refusal(tmp_path, capsys, NOT_YOUR_TURN, *args) == {"error": error, "action": 0}


def test_every_sentence_of_a_run_is_in_its_language(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Inner phrases (what was found, the did-you-mean) follow the sentence's language."""
    out = refusal(tmp_path, capsys, {**transcript([]), "hand": []}, "--idioma", "en")
    assert out["error"] == ("A transcript has no key «hand» (did you mean «hands»?). Its keys "
                            "are: rules, mano, scores, hands, deck, reshuffles, actions.")
    out = refusal(tmp_path, capsys, transcript([], deck={}), "--idioma", "en")
    assert out["error"] == "«deck» must be a list of cards, like [\"1o\", \"12c\"], not an object."
    missing = refusal(tmp_path, capsys, "{}", "--idioma", "en")
    assert missing["error"] == "«hands» is missing: the cards dealt to each seat."
    assert main(["replay", "--idioma", "en", str(tmp_path / "nope.json")]) == 2
    assert json.loads(capsys.readouterr().out)["error"] == (
        f"Cannot read «{tmp_path / 'nope.json'}»: it does not exist.")


def test_the_catalogs_word_every_replay_sentence_in_both_languages() -> None:
    """Every key the replay names exists (tests/test_i18n.py holds the languages to it)."""
    source = Path(__file__).resolve().parent.parent.joinpath("musbot", "replay.py").read_text(
        encoding="utf-8")
    named = set(re.findall(r'(?:ReplayError|_Phrase)\(\s*"(\w+)"', source))
    named |= {f"missing_{key}" for key in ("hands", "actions")}
    assert len(named) > 30
    assert named - set(es.REPLAY) == set()


def test_help_points_at_the_documentation(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "docs/replay.md" in capsys.readouterr().out


# ----------------------------------------------------------------------------------------------
# Any JSON document at all: exit 0, or exit 2 and a sentence; never a traceback.
# ----------------------------------------------------------------------------------------------

PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

WORDS = ["mus", "no hay mus", "paso", "envido", "envido 5", "3 más", "quiero", "no quiero",
         "órdago", "descarto 1", "descarto 1 2 3 4", "descarto 12o", "hola", "", "envido 1"]
scalars = (st.none() | st.booleans() | st.integers(-3, 60) | st.integers()
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from([*CARD_CODES[:6], "13o", "", " 12O ", *WORDS]) | st.text(max_size=8))
keys = st.sampled_from([*KEYS, *RULE_KEYS, "action", "jugadores"]) | st.text(max_size=6)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25)


def answer(document: str, lang: str) -> tuple[int, Any]:
    """``musbot replay -`` on ``document``: its exit status and its parsed output."""
    out = io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(document)), redirect_stdout(out):
        status = run("-", lang=lang)  # type: ignore[arg-type]
    return status, json.loads(out.getvalue())


def check_answer(data: Any, status: int, out: Any) -> None:
    assert status in (0, 2)
    if status == 0:
        assert isinstance(out["finished"], bool) and len(out["scores"]) == 2
        return
    assert set(out) == {"error", "action"}
    assert isinstance(out["error"], str) and out["error"].strip()
    actions = data.get("actions") if isinstance(data, dict) else None
    count = len(actions) if isinstance(actions, list) else 0
    assert out["action"] is None or (type(out["action"]) is int and 0 <= out["action"] < count)


@PROPERTY
@given(data=json_values | st.dictionaries(keys, json_values), lang=st.sampled_from(LANGS))
def test_any_json_document_gets_an_answer(data: Any, lang: str) -> None:
    status, out = answer(json.dumps(data), lang)
    check_answer(data, status, out)


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself first."""
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*here, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += paths(inner, (*here, i))
    return found


@st.composite
def near_valid(draw: st.DrawFn) -> Any:
    """A valid transcript (no mus, or discards from a whole deck up to a reshuffle) with a few
    places replaced, removed or added, and actions drawn from the table's words."""
    base = draw(st.sampled_from([
        transcript(FULL),
        transcript(two_rounds_of_four([2, "descarto 12o 12c 1e 5b"]), deck=UNDEALT),
        transcript([*MUS, *ONE_EACH, [0, "no hay mus"], *FULL[1:]], deck=UNDEALT[:4]),
    ]))
    data = json.loads(json.dumps(base))
    if draw(st.booleans()):
        extra = draw(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(WORDS)), max_size=8))
        data["actions"] = data["actions"][:draw(st.integers(0, len(data["actions"])))] + [
            [seat, word] for seat, word in extra]
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.sampled_from(paths(data)))
        if not where:
            continue
        *parent_path, last = where
        parent = data
        for step in parent_path:
            parent = parent[step]
        change = draw(st.sampled_from(["replace", "remove", "add"]))
        if change == "replace":
            parent[last] = draw(json_values)
        elif change == "remove":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(keys)] = draw(json_values)
        else:
            parent.insert(last, draw(json_values))
    return data


@PROPERTY
@given(data=near_valid(), lang=st.sampled_from(LANGS))
def test_a_mutated_transcript_gets_an_answer(data: Any, lang: str) -> None:
    status, out = answer(json.dumps(data), lang)
    check_answer(data, status, out)


@settings(max_examples=200, deadline=None)
@given(document=st.text(max_size=40) | json_values.map(json.dumps).map(lambda t: t[:-1]))
def test_any_text_at_all_gets_an_answer(document: str) -> None:
    """Not JSON, cut short, lone surrogates quoted back: still one JSON object on stdout."""
    status, out = answer(document, "es")
    check_answer(None, status, out)


# ----------------------------------------------------------------------------------------------
# docs/replay.md's worked examples are replayed as they are written there.
# ----------------------------------------------------------------------------------------------

DOC_BLOCK = re.compile(r"^```json (transcript|output|refusal)\n(.*?)^```$",
                       re.DOTALL | re.MULTILINE)
EXIT_STATUS = {"output": 0, "refusal": 2}


def documented_examples() -> list[tuple[str, str, str]]:
    """(transcript, kind of answer, answer) for each example of docs/replay.md, in order."""
    doc = Path(__file__).resolve().parent.parent.joinpath("docs", "replay.md")
    blocks = DOC_BLOCK.findall(doc.read_text(encoding="utf-8"))
    kinds = [kind for kind, _ in blocks]
    assert kinds[0::2] == ["transcript"] * (len(blocks) // 2), kinds
    assert all(kind in EXIT_STATUS for kind in kinds[1::2]) and len(blocks) % 2 == 0, kinds
    return [(blocks[i][1], blocks[i + 1][0], blocks[i + 1][1]) for i in range(0, len(blocks), 2)]


def test_the_documentation_has_worked_examples_of_both_answers() -> None:
    kinds = [kind for _, kind, _ in documented_examples()]
    assert "output" in kinds and "refusal" in kinds


@pytest.mark.parametrize(("number", "example"), list(enumerate(documented_examples(), start=1)))
def test_a_documented_example_replays_exactly_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], number: int,
        example: tuple[str, str, str]) -> None:
    given, kind, expected = example
    path = tmp_path / f"example{number}.json"
    path.write_text(given, encoding="utf-8")
    assert main(["replay", "--idioma", "en", str(path)]) == EXIT_STATUS[kind]
    assert capsys.readouterr().out == expected
