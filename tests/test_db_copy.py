"""``musbot db copy SRC DST``: an SQLite database copied into each backend and back, checked, run
again without effect, refused when the target holds something else."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from db_helpers import select

from musbot.cli import main
from musbot.engine.match import Match
from musbot.engine.rules import Rules
from musbot.settings import TableSettings
from musbot.storage import Database, SeatRecord, ServerSettings, postgres, sqlite
from musbot.storage.transfer import TABLES
from musbot.tournament import Format, Settings, Tournament
from musbot.tournament.simulate import random_results, simulate


async def play(db: Database, league_id: int | None, users: list[int | str], seed: int) -> int:
    """A whole match of the real engine (random legal moves), every hand recorded."""
    rng = random.Random(seed)
    match = Match(Rules(puntos=10, juegos=1, jugadores=len(users)), first_mano=0,
                  shuffler=lambda cards: rng.sample(list(cards), len(cards)))
    seats = [SeatRecord.robot(i, u) if isinstance(u, str)
             else SeatRecord.human(i, u, f"Jugador {u} ñ") for i, u in enumerate(users)]
    match_id = await db.start_match(seats, rules=match.rules, league_id=league_id,
                                    channel_id=10**17 + seed, guild_id=10**17)
    while not match.finished:
        current, number = match.hand, match.hand_number
        seat = match.to_act
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        if current.finished:
            await db.record_hand(match_id, number, current.transcript(), current.result())
    assert match.winner is not None
    await db.record_finished_match(match_id, match.winner, final_score=match.summary())
    return match_id


async def populate(path: Path) -> None:
    """A bot's database with some of everything: leagues over two seasons, rated and bot
    matches, an abandoned one, a forgotten player, live tables with journals, settings, chosen
    languages."""
    async with Database(path) as db:
        settings = ServerSettings(TableSettings(language="en", turn_seconds=45))
        await db.save_server_settings(10**17, settings)
        league = await db.create_league(10**17, "Liga de Otoño", created_by=2**62)
        await db.join_league(league.league_id, 2**62, "Ane")
        for seed in range(3):
            await play(db, league.league_id, [2**62, 2, 3, 4], seed)
        await play(db, league.league_id, [2**62, "ai:normal", 3, "ai:dificil"], 7)
        await db.new_season(league.league_id)
        await play(db, league.league_id, [4, 3, 2, 2**62], 8)
        await play(db, None, [5, 6], 9)
        abandoned = await db.start_match([SeatRecord.human(0, 5), SeatRecord.human(1, 6)])
        await db.abandon_match(abandoned)
        await db.forget_player(6)
        await db.save_table(1, 10**17, {"state": "playing", "n": 1})
        await db.append_to_journal(1, [[0, "paso", 0, []], [1, "órdago", 0, []]])
        await db.save_table(2, None, {"state": "waiting"})
        # A finished tournament (its podium, its pairs' ratings) and one taking sign-ups.
        start = datetime(2025, 5, 1, 18, tzinfo=UTC)
        cup = Tournament.new(Settings("Txapelketa ñ", format=Format.DOUBLE), 7, now=start)
        for user in range(100, 116):
            cup.sign_up(user, f"Jugador {user}", now=start)
        stored = await db.create_tournament(10**17, cup, created_by=100)
        cup.draw(now=start)
        simulate(cup, random_results(random.Random(7)), start=start)
        await db.save_tournament(stored.tournament_id, cup)
        await db.add_match_table(stored.tournament_id, "W1-1", 2**60 + 1)
        await db.create_tournament(10**17, Tournament.new(Settings("Abierto"), 8, now=start))
        await db.save_player_readings(10**17, {2**62: {"v": 1, "words": 4}, 3: {"v": 1}})
        await db.set_person_language(2**62, "eu")
        await db.set_person_language(3, "fr")
        await db.set_person_call(3, "dm")


def dump(target: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (the tests that run ``musbot db copy`` are not coroutines:
    the command runs its own event loop)."""

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        async with Database(target) as db:
            return {table: sorted(await select(db, f"SELECT * FROM {table}"), key=repr)
                    for table in TABLES}

    return asyncio.run(read())


@pytest.fixture
async def source(tmp_path: Path) -> str:
    path = tmp_path / "source.db"
    await populate(path)
    return str(path)


def test_a_copy_holds_every_row_and_checks_out(
        source: str, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--idioma", "en", "db", "copy", source, target]) == 0
    said = capsys.readouterr().out
    assert "copied" in said and "compared as text" in said
    original = dump(source)
    assert all(original[table] for table in TABLES), "the source has rows in every table"
    assert dump(target) == original

    async def use() -> None:
        async with Database(source) as before, Database(target) as after:
            league = await after.get_league(10**17, "liga de otono")
            assert await after.standings(league.league_id, 1) \
                == await before.standings(league.league_id, 1)
            assert await after.load_tables() == await before.load_tables()
            assert (await after.server_settings(10**17)).table.language == "en"
            assert await after.hall_of_fame(10**17) == await before.hall_of_fame(10**17)
            # New rows get new ids after the copied ones.
            assert (await after.create_league(1, "Nueva")).league_id > league.league_id
            cup = await after.find_tournament(10**17, "txapelketa n")
            new = Tournament.new(Settings("Otra"), 1, now=datetime.now(UTC))
            assert (await after.create_tournament(1, new)).tournament_id > cup.tournament_id

    asyncio.run(use())
    assert main(["--idioma", "en", "db", "copy", source, target]) == 2, \
        "the target has a league more now"
    assert "only fills an empty database" in capsys.readouterr().err


def test_a_second_run_finds_the_copy_made(source: str, target: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--idioma", "en", "db", "copy", source, target]) == 0
    capsys.readouterr()
    copied = dump(target)
    assert main(["--idioma", "en", "db", "copy", source, target]) == 0
    assert "already holds this copy" in capsys.readouterr().out
    assert dump(target) == copied


def test_a_copy_comes_back_the_same(source: str, target: str, tmp_path: Path) -> None:
    """Into the backend and back into a new SQLite file: the same rows, ids, texts and
    doubles."""
    back = str(tmp_path / "back.db")
    assert main(["--idioma", "en", "db", "copy", source, target]) == 0
    assert main(["--idioma", "en", "db", "copy", target, back]) == 0
    assert dump(back) == dump(source)


def test_a_target_holding_something_else_is_refused_untouched(
        source: str, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def settle_in() -> None:
        async with Database(target) as db:
            await db.save_server_settings(1, ServerSettings())

    asyncio.run(settle_in())
    before = dump(target)
    assert main(["--idioma", "en", "db", "copy", source, target]) == 2
    said = capsys.readouterr().err
    assert "already holds data (1 rows in 1 tables)" in said and "Nothing was changed" in said
    assert dump(target) == before


def reencoded_hand(table: str, rows: list[Any]) -> list[Any]:
    """The last hand's transcript written with spaces: the same JSON, another text."""
    if table != "hands":
        return rows
    *kept, last = rows
    return [*kept, tuple(json.dumps(json.loads(v)) if name == "transcript" else v
                         for name, v in zip(HAND_COLUMNS, last, strict=True))]


HAND_COLUMNS = ("hand_id", "match_id", "number", "game_number", "transcript", "result",
                "recorded_at")


@pytest.mark.parametrize("damage", [
    lambda table, rows: rows[:-1] if table == "rating_history" else rows,
    reencoded_hand,
], ids=["a row lost", "a hand's text changed"])
def test_a_copy_that_does_not_read_back_is_rolled_back(
        source: str, target: str, damage: Callable[[str, list[Any]], list[Any]],
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever went wrong on the way, the target stays empty."""
    loader = sqlite._SqliteLoader if Database(target).dialect == "sqlite" \
        else postgres._PgLoader
    insert = loader.insert

    async def damaging(self: Any, table: str, columns: Any, rows: Any) -> None:
        assert table != "hands" or tuple(columns) == HAND_COLUMNS
        await insert(self, table, columns, damage(table, list(rows)))

    monkeypatch.setattr(loader, "insert", damaging)
    assert main(["--idioma", "en", "db", "copy", source, target]) == 1
    assert "did not read back" in capsys.readouterr().err
    assert all(rows == [] for rows in dump(target).values())


def test_a_database_copied_onto_itself_is_refused(
        source: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--idioma", "en", "db", "copy", source, f"sqlite:///{source}"]) == 2
    assert "one database" in capsys.readouterr().err


def test_a_target_that_cannot_be_opened_is_a_sentence_not_a_traceback(
        source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--idioma", "en", "db", "copy", source,
                 "postgresql://bot:s3cret@127.0.0.1:1/musbot"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("musbot db copy: postgresql://bot@127.0.0.1:1/musbot: the database "
                           "is unavailable") and "s3cret" not in said
    (tmp_path / "other.db").write_bytes(b"not a database" * 300)
    assert main(["--idioma", "en", "db", "copy", source, str(tmp_path / "other.db")]) == 2
    assert "is not an SQLite database" in capsys.readouterr().err


@pytest.mark.parametrize(("lang", "sentence"), [
    ("es", "musbot db copy: {path} no existe: no hay nada que copiar (no se ha creado nada).\n"),
    ("en", "musbot db copy: {path} does not exist: there is nothing to copy (nothing was "
           "created).\n"),
])
def test_a_missing_source_is_one_sentence_and_nothing_is_made(
        lang: str, sentence: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue: ``musbot db copy /nope/x.db out.db`` made ``/nope`` and an empty ``x.db``,
    printed 14 tables of 0 rows, exit 0, in English under ``--idioma es``."""
    missing = tmp_path / "nope" / "x.db"
    target = tmp_path / "out.db"
    assert main(["db", "copy", str(missing), str(target), "--idioma", lang]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err == sentence.format(path=missing)
    assert not missing.parent.exists() and not target.exists()
    assert main(["db", "copy", f"sqlite:///{missing}", str(target), "--idioma", lang]) == 2
    assert not missing.parent.exists() and not target.exists()


def test_every_word_of_a_copy_is_in_the_chosen_language(
        source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = str(tmp_path / "es.db")
    assert main(["db", "copy", source, target, "--idioma", "es"]) == 0
    said = capsys.readouterr().out
    assert said.splitlines()[-1].startswith("copiadas ") and "copied" not in said
    assert main(["db", "copy", source, target, "--idioma", "es"]) == 0
    assert "el destino ya tiene esta copia" in capsys.readouterr().out
    assert main(["db", "copy", source, "mysql://x/y", "--idioma", "es"]) == 2
    assert capsys.readouterr().err == ("musbot db copy: la dirección de base de datos mysql:… "
                                       "no se conoce: usa la ruta de un fichero, sqlite:///ruta "
                                       "o postgresql://…\n")
