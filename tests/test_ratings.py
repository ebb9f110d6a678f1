"""OpenSkill ratings: the pure helpers, and when the database applies them (on both
backends)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from datetime import datetime

import pytest
from db_helpers import hand
from hypothesis import given, settings
from hypothesis import strategies as st

from musbot.storage import (
    ChartUnavailable,
    Database,
    RatingChange,
    RatingPoint,
    SeatRecord,
    ratings,
)
from musbot.storage.chart import render_rating_chart


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with Database(target) as database:
        yield database


def seats(*users: int | str) -> list[SeatRecord]:
    return [SeatRecord.robot(i, u) if isinstance(u, str) else SeatRecord.human(i, u, f"p{u}")
            for i, u in enumerate(users)]


async def play(db: Database, players: list[SeatRecord], winner: int,
               league_id: int | None) -> list[RatingChange]:
    match_id = await db.start_match(players, league_id=league_id)
    await db.record_hand(match_id, 1, *hand([40, 10] if winner == 0 else [10, 40], winner))
    return await db.record_finished_match(match_id, winner)


# --- pure helpers -------------------------------------------------------------------------------

def test_newcomer_displays_1000() -> None:
    assert ratings.display(*ratings.initial()) == 1000
    assert ratings.display(26, 25 / 3) == 1040


@pytest.mark.parametrize("size", [1, 2, 3])
def test_winners_go_up_losers_mu_goes_down(size: int) -> None:
    start = ratings.initial()
    teams = [[start] * size, [start] * size]
    for winner in (0, 1):
        new = ratings.rate(teams, winner)
        for mu, sigma in new[winner]:
            assert mu > start[0] and sigma < start[1]
            assert ratings.display(mu, sigma) > 1000
        for mu, _ in new[1 - winner]:
            assert mu < start[0]


skill = st.tuples(st.floats(0, 50), st.floats(0.5, 9))
team = st.lists(skill, min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(team, team, st.sampled_from([0, 1]))
def test_winning_never_lowers_mu(a: list[ratings.Skill], b: list[ratings.Skill],
                                 winner: int) -> None:
    new = ratings.rate([a, b], winner)
    old = [a, b]
    assert all(n[0] >= o[0] for n, o in zip(new[winner], old[winner], strict=True))
    assert all(n[0] <= o[0] for n, o in zip(new[1 - winner], old[1 - winner], strict=True))


def test_upset_moves_more_than_expected_win() -> None:
    strong, weak = (30.0, 3.0), (20.0, 3.0)
    expected = ratings.rate([[strong, strong], [weak, weak]], 0)
    upset = ratings.rate([[strong, strong], [weak, weak]], 1)
    assert upset[1][0][0] - weak[0] > expected[0][0][0] - strong[0]


def test_rate_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        ratings.rate([[ratings.initial()], []], 0)
    with pytest.raises(ValueError):
        ratings.rate([[ratings.initial()], [ratings.initial()]], 2)


# --- in the database ----------------------------------------------------------------------------

async def test_league_match_without_bots_changes_ratings(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    changes = {c.user_id: c for c in await play(db, seats(1, 2, 3, 4), 0, lid)}
    assert set(changes) == {1, 2, 3, 4}
    assert all(c.before == 1000 for c in changes.values())
    assert changes[1].delta > 0 and changes[3].delta > 0
    assert changes[1].after > changes[2].after
    table = {s.user_id: s.rating for s in await db.standings(lid)}
    assert table == {u: c.after for u, c in changes.items()}
    # A second win moves the rating on from where it was.
    again = {c.user_id: c for c in await play(db, seats(1, 2, 3, 4), 0, lid)}
    assert again[1].before == changes[1].after and again[1].after > again[1].before
    assert (await db.player_profile(1, league_id=lid)).rating == again[1].after


@pytest.mark.parametrize("players", [(1, 2), (1, 2, 3, 4, 5, 6)])
async def test_individual_and_trios_are_rated(db: Database, players: tuple[int, ...]) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    changes = await play(db, seats(*players), 1, lid)
    assert len(changes) == len(players)
    assert all(c.delta > 0 for c in changes if c.user_id in players[1::2])


async def test_no_rating_change_with_a_bot_or_outside_a_league(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    assert await play(db, seats(1, 2, 3, "ai:basic"), 0, lid) == []
    assert await play(db, seats(1, 2, 3, 4), 0, None) == []
    assert all(s.rating is None for s in await db.standings(lid))
    assert await db.rating_history(1, lid) == []
    [bot_match] = await db.recent_results(lid)
    assert bot_match.rated is False


async def test_forgotten_seat_is_not_rated(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    match_id = await db.start_match(seats(1, 2, 3, 4), league_id=lid)
    await db.forget_player(4)  # mid-match
    assert await db.record_finished_match(match_id, 0) == []


async def test_new_season_starts_ratings_afresh(db: Database) -> None:
    lid = (await db.create_league(1, "Liga")).league_id
    await play(db, seats(1, 2, 3, 4), 0, lid)
    await db.new_season(lid)
    changes = await play(db, seats(1, 2, 3, 4), 1, lid)
    assert all(c.before == 1000 for c in changes)
    assert len(await db.rating_history(1, lid, season=1)) == 1
    assert len(await db.rating_history(1, lid)) == 1


async def test_rating_history_and_chart(db: Database) -> None:
    lid = (await db.create_league(1, "Liga de Otoño")).league_id
    for winner in (0, 0, 1, 0):
        await play(db, seats(1, 2, 3, 4), winner, lid)
    history = await db.rating_history(1, lid)
    assert len(history) == 4
    assert history[0].rating < history[1].rating
    png = await db.rating_chart(1, lid)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    empty = await db.rating_chart(99, lid)
    assert empty.startswith(b"\x89PNG")


def test_chart_without_matplotlib_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ChartUnavailable, match="matplotlib"):
        render_rating_chart([], "x")


def test_a_long_season_s_chart_stays_small() -> None:
    """Three hundred rated matches: ticks thinned out, and the picture well within what a phone
    downloads without a wait (150 KB)."""
    pytest.importorskip("matplotlib")
    points = [RatingPoint(i, datetime(2024, 1, 1), 0.0, 0.0, 1000 + (i * 37) % 400 - 100)
              for i in range(300)]
    png = render_rating_chart(points, "Ana · Liga de Otoño · temporada 3", "eu")
    assert png.startswith(b"\x89PNG") and len(png) <= 150_000


def test_a_chart_titled_with_a_name_shows_the_name_as_text() -> None:
    """A name is text in the chart's title too: to matplotlib «a $$ b» or «$\\frac{$» would be
    mathematics, broken (drawing the title failed, and /mus perfil with it), and «$x^2$» a
    formula."""
    pytest.importorskip("matplotlib")
    for title in ("$\\frac{$ · Liga · temporada 1", "a $$ b", "$x^2$"):
        assert render_rating_chart([], title).startswith(b"\x89PNG")
