"""The time limit of a match played on Discord asks the organiser (issue 47, item 2: «the
per-match time limit of Discord-played matches acts the same way» as a deadline): once per
limit, with the board as it stands one of the choices; the table's own result still counts
meanwhile; only a tournament that lets the bot decide alone decides by the board. Each answer
is in the tournament's log and on the organiser's board."""

from __future__ import annotations

import pytest
from tournament_helpers import drawn, minutes

from musbot.i18n import LANGUAGES, error_text
from musbot.tournament import AtDeadline, EventKind, MatchState, Tournament, TournamentError
from musbot.tournament.board import status
from musbot.tournament.clock import MORE_PLAY


def kinds(events: list) -> list[EventKind]:  # type: ignore[type-arg]
    return [e.kind for e in events]


def asked(at_deadline: AtDeadline = AtDeadline.ASK) -> Tournament:
    """Two pairs, one match of the default 120 minutes, begun at minute 5 and past its time at
    minute 120."""
    t = drawn(2, at_deadline=at_deadline)
    t.start("W1-1", now=minutes(5))
    return t


@pytest.mark.parametrize("setting", [AtDeadline.ASK, AtDeadline.REPORT])
def test_the_time_limit_asks_the_organiser_once_and_decides_nothing(
        setting: AtDeadline) -> None:
    t = asked(setting)
    assert [d.kind for d in t.due(minutes(119))] == []
    assert [d.kind for d in t.due(minutes(120))] == ["overtime"]
    events = t.overtime("W1-1", (1, 0), (40, 12), playing=(5, 20), now=minutes(120))
    assert kinds(events) == [EventKind.TIME_UP]
    match = t.matches["W1-1"]
    assert match.state is MatchState.PLAYING and not match.decided, "never decided alone"
    assert "time_up" in match.flags and "overtime" not in match.flags
    assert t.due(minutes(600)) == [], "asked once"
    assert t.overtime("W1-1", (2, 0), (80, 12), playing=(0, 0), now=minutes(130)) == []
    assert status(t, match, minutes(130)) == "time_up"
    assert [(e["what"], e["games"]) for e in t.log] == [("time_up", [1, 0])]
    # The table plays on: its result counts if it comes before the organiser's word.
    t.record("W1-1", (3, 1), (150, 90), now=minutes(140))
    assert match.state is MatchState.FINISHED and match.winner == 0
    with pytest.raises(TournamentError) as excinfo:
        t.walkover("W1-1", {0}, now=minutes(141))
    assert excinfo.value.code == "tournament_already_decided"


def test_only_a_tournament_that_lets_the_bot_decide_decides_by_the_board() -> None:
    t = asked(AtDeadline.DECIDE)
    events = t.overtime("W1-1", (1, 1), (57, 60), playing=(12, 20), now=minutes(121))
    assert kinds(events)[0] is EventKind.MATCH_DECIDED and t.matches["W1-1"].winner == 1
    assert "time_up" not in t.matches["W1-1"].flags and not t.log


def test_more_time_moves_the_limit_and_asks_again_at_the_new_one() -> None:
    t = asked()
    t.overtime("W1-1", (0, 0), now=minutes(120))
    events = t.more_time("W1-1", now=minutes(130))
    assert kinds(events) == [EventKind.TIME_GIVEN]
    match = t.matches["W1-1"]
    assert t.limit_of(match) == minutes(130) + MORE_PLAY, "from the answer, later than the limit"
    assert "time_up" not in match.flags and status(t, match, minutes(131)) == "more_time"
    assert t.due(minutes(159)) == []
    assert [d.kind for d in t.due(minutes(160))] == ["overtime"]
    assert kinds(t.overtime("W1-1", (1, 1), now=minutes(160))) == [EventKind.TIME_UP]
    t.more_time("W1-1", now=minutes(160))
    assert t.limit_of(match) == minutes(190), "from its limit, the answer coming at once"
    assert Tournament.from_dict(t.to_dict()) == t, "the limit is stored"
    assert [e["what"] for e in t.log] == ["time_up", "more_time", "time_up", "more_time"]
    # Paused, its time stands still with it.
    t.pause("W1-1", now=minutes(170))
    t.resume("W1-1", now=minutes(200))
    assert t.limit_of(match) == minutes(220)


def test_the_board_decides_at_the_organisers_word_and_level_is_refused() -> None:
    t = asked()
    with pytest.raises(TournamentError) as early:
        t.by_board("W1-1", (1, 0), now=minutes(100))
    assert early.value.code == "tournament_not_overtime"
    t.overtime("W1-1", (1, 1), (50, 50), playing=(10, 10), now=minutes(120))
    before = t.to_dict()
    with pytest.raises(TournamentError) as level:
        t.by_board("W1-1", (1, 1), (50, 50), playing=(10, 10), now=minutes(121))
    assert level.value.code == "tournament_board_level" and t.to_dict() == before
    for lang in LANGUAGES:
        said = error_text(level.value, lang)
        assert "W1-1" in said and "1–1" in said and "{" not in said
    events = t.by_board("W1-1", (1, 1), (55, 50), playing=(15, 10), now=minutes(125))
    match = t.matches["W1-1"]
    assert EventKind.MATCH_DECIDED in kinds(events) and match.winner == 0
    assert match.games == [1, 1] and match.tantos == [55, 50]
    assert {"overtime", "organiser"} <= set(match.flags)
    assert status(t, match, minutes(126)) == "by_board"
    assert [e["what"] for e in t.log] == ["time_up", "board"]


@pytest.mark.parametrize(("absent", "what"), [({1}, "walkover"), ({0, 1}, "double_walkover")])
def test_a_walkover_answering_the_time_limit_is_logged(absent: set[int], what: str) -> None:
    t = asked()
    t.overtime("W1-1", (0, 0), now=minutes(120))
    t.walkover("W1-1", absent, now=minutes(121))
    assert [e["what"] for e in t.log] == ["time_up", what]
    assert status(t, t.matches["W1-1"], minutes(122)) == "walkover"


def test_more_time_is_refused_for_a_match_decided_or_not_ready() -> None:
    t = drawn(4)
    with pytest.raises(TournamentError) as pending:
        t.more_time("W2-1", now=minutes(1))
    assert pending.value.code == "tournament_not_ready"
    t.walkover("W1-1", {1}, now=minutes(2))
    with pytest.raises(TournamentError) as decided:
        t.more_time("W1-1", now=minutes(3))
    assert decided.value.code == "tournament_already_decided"
