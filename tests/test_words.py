"""One grammar (musbot.words, read by musbot.grammar): every word a player types is in one table,
and a word of a table is understood everywhere it should be: in the table channel, by DM, in the
terminal. The tests go over the tables themselves, so a word added to one is tested everywhere."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_discord_commands import connected
from test_terminal import session

from musbot import words
from musbot.discordio.transport import ANSWER_SECONDS
from musbot.engine import NO_HAY_MUS, NO_QUIERO, PASO, MusError
from musbot.engine.senas import Sena
from musbot.grammar import (
    asks_for_cards,
    asks_for_help,
    asks_for_status,
    asks_to_quit,
    is_come_back,
    parse,
    parse_sena,
    sena_named,
)
from musbot.terminal import help_text

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(REPO / "musbot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")])


# --- one normalise --------------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "folded"), [
    ("Órdago", "ordago"), ("  NO   hay\tmus ", "no hay mus"), ("Liga  de Otoño", "liga de otono"),
    ("DÚPLES", "duples"), ("Straße", "strasse"), ("¡Vuelvo!", "¡vuelvo!"), ("", ""),
])
def test_normalise_folds_case_accents_and_spacing(typed: str, folded: str) -> None:
    assert words.normalise(typed) == folded


def test_text_is_folded_in_one_place() -> None:
    """No second copy of normalise: only musbot/words.py takes accents off."""
    folding = [path.relative_to(REPO).as_posix() for path in SOURCES
               if "unicodedata" in path.read_text(encoding="utf-8")]
    assert folding == ["musbot/words.py"]


def test_the_engine_reads_no_words() -> None:
    """The grammar is above the engine: no engine module imports it."""
    for path in (REPO / "musbot" / "engine").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom)]
        imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names]
        assert not [m for m in imported if m.startswith(("musbot.words", "musbot.grammar"))], \
            path.name


# --- the tables, read ---------------------------------------------------------------------------


@pytest.mark.parametrize("word", words.COME_BACK_WORDS)
def test_come_back_words(word: str) -> None:
    assert is_come_back(word) and is_come_back(f"¡{word.upper()}!")
    assert parse(word) is None, "never a move"


@pytest.mark.parametrize("word", words.CARDS_WORDS)
def test_cards_words(word: str) -> None:
    assert asks_for_cards(word) and asks_for_cards(f"{word.title()}?")
    assert not is_come_back(word) and parse(word) is None


@pytest.mark.parametrize(("table", "reads"), [
    (words.HELP_WORDS, asks_for_help), (words.STATUS_WORDS, asks_for_status),
    (words.QUIT_WORDS, asks_to_quit),
])
def test_terminal_words(table: tuple[str, ...], reads: object) -> None:
    assert callable(reads)
    for word in table:
        assert reads(word) and reads(f"  {word.upper()} ")
    assert not reads("hola")


@pytest.mark.parametrize("word", words.SENA_WORDS)
@pytest.mark.parametrize(("name", "sena"), list(words.SENA_NAMES.items()))
def test_sena_words_and_names(word: str, name: str, sena: Sena) -> None:
    assert parse_sena(name) is sena
    named = sena_named(f"{word} {name}")
    assert named is not None and parse_sena(named) is sena
    assert parse_sena(f"{word} {name}") is sena, "the leading word is optional"


def test_unknown_sena_name() -> None:
    assert sena_named("seña") == ""
    with pytest.raises(MusError, match="cuatro sotas"):
        parse_sena("cuatro sotas")


# --- understood everywhere ----------------------------------------------------------------------

NEW_WORDS = {"ez dago musik": NO_HAY_MUS, "pasatu": PASO, "ez dut nahi": NO_QUIERO}
"""Words no table has: added to :data:`musbot.words.FIXED_PHRASES` by a test, as a person adding
Basque words would."""


@pytest.fixture
def new_words(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    for word, action in NEW_WORDS.items():
        monkeypatch.setitem(words.FIXED_PHRASES, word, action)
    return dict(NEW_WORDS)


def test_every_table_word_in_the_terminal(new_words: dict[str, object]) -> None:
    def cards_shown(out: list[str]) -> int:
        return sum(line.startswith("🔒") and "Tus cartas" in line for line in out)

    script = [*words.COME_BACK_WORDS, *words.CARDS_WORDS, *words.STATUS_WORDS,
              *(f"{w} la real" for w in words.SENA_WORDS), *words.HELP_WORDS]
    # Seed 12 asks seat 1 first: «ez dago musik» is «no hay mus», so «mus» comes too late.
    # Nothing after the quit word is read.
    end = ["ez dago musik", "mus", words.QUIT_WORDS[-1], words.HELP_WORDS[0]]
    out = session([*script, *end], ["--seed", "12"])
    baseline = session(end, ["--seed", "12"])
    assert out.count("⚠️ No estabas ausente: sigues jugando.") == len(words.COME_BACK_WORDS)
    assert cards_shown(out) - cards_shown(baseline) == len(words.CARDS_WORDS)
    assert out.count("⚠️ Tu mano no muestra «la real»: no se permiten señas falsas.") == \
        len(words.SENA_WORDS)
    assert out.count(help_text("es")) == 1 + len(words.HELP_WORDS)
    assert "⚠️ Ahora se apuesta a Grande." in out
    assert not [line for line in out if line.startswith("No es una jugada")]


async def test_every_table_word_in_the_channel_and_by_dm(tmp_path: Path,
                                                        new_words: dict[str, object]) -> None:
    scene = await connected(tmp_path, ("Ana", "Bea"))
    ana, bea = scene.people
    await scene.slash(ana, "mus mesa")
    await scene.slash(ana, "mus unirse")
    await scene.slash(bea, "mus unirse")
    await scene.slash(ana, "mus empezar")
    await scene.advance(2)
    table = scene.table()

    for word in words.CARDS_WORDS:
        first_line = table.private_text(ana.user).split("\n")[0]
        assert (await scene.dm_answer(ana, word)).startswith(first_line), word
    for word in words.COME_BACK_WORDS:
        assert await scene.dm_answer(ana, word) == "No estabas ausente: sigues jugando.", word
    for word in words.SENA_WORDS:
        assert "«la real»" in await scene.dm_answer(ana, f"{word} la real"), word
    for word in words.COME_BACK_WORDS:
        said = await scene.say(ana, word)
        await scene.advance(ANSWER_SECONDS)  # one answer per person per this long
        replies = [m.content for m in scene.world.messages(scene.channel) if m.reference == said]
        assert len(replies) == 1 and "No estabas ausente" in replies[0], word

    # A word added to the table is a move in the channel and by DM.
    for where in ("channel", "dm"):
        while not table.state.awaits(ana.user):
            await scene.advance(0.5)
        match = table.match
        assert match is not None and match.to_act is not None
        legal = match.legal_actions(match.to_act)
        word = next(w for w, action in new_words.items() if action in legal)
        turn = table.state.turn
        if where == "channel":
            await scene.say(ana, word)
        else:
            await scene.dm(ana, word)
        assert table.state.turn > turn, (where, word)
