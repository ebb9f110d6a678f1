"""Deadlines that act (issue 47, item 2), in the pure core: a round's or a match's deadline,
reminders a day and an hour before (each once), the organiser asked once it passes (nothing
decided alone unless the settings say a reported result stands), the organiser's walkover,
double walkover or more time; all of it surviving a save."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tournament_helpers import T0, drawn

from musbot.tournament import (
    AtDeadline,
    EventKind,
    Format,
    MatchState,
    Reporting,
    Settings,
    Tournament,
    TournamentError,
)
from musbot.tournament.board import board, current_round
from musbot.tournament.live import zone_of

DEADLINE = T0 + timedelta(days=3)


def hours(n: float):  # type: ignore[no-untyped-def]
    return DEADLINE + timedelta(hours=n)


def kinds(t: Tournament, when) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return {(r.match, r.kind) for r in t.deadlines_due(when)}


def test_reminders_come_a_day_and_an_hour_before_then_the_organiser_is_asked() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    events = t.set_deadline(1, DEADLINE, now=T0)
    assert [(e.kind, e.match) for e in events] == [(EventKind.DEADLINE_SET, "round:1")]
    assert kinds(t, hours(-25)) == set()
    assert t.next_deadline(T0) == hours(-24)
    assert kinds(t, hours(-23)) == {("W1-1", "reminded_day"), ("W1-2", "reminded_day")}
    assert [e.kind for e in t.remind("W1-1", "reminded_day", now=hours(-23))] == \
        [EventKind.DEADLINE_DAY]
    assert t.remind("W1-1", "reminded_day", now=hours(-22)) == [], "once"
    assert t.next_deadline(hours(-23)) == hours(-23), "W1-2's day reminder is due now"
    t.remind("W1-2", "reminded_day", now=hours(-23))
    assert t.next_deadline(hours(-23)) == hours(-1)
    assert kinds(t, hours(-0.5)) == {("W1-1", "reminded_hour"), ("W1-2", "reminded_hour")}
    assert [e.kind for e in t.remind("W1-1", "deadline_passed", now=hours(0))] == \
        [EventKind.DEADLINE_PASSED]
    assert not t.matches["W1-1"].decided, "never decided alone"
    assert ("W1-1", "deadline_passed") not in kinds(t, hours(5)), "asked once"
    restored = Tournament.from_dict(t.to_dict())
    assert restored == t and restored.deadline_of(restored.matches["W1-2"]) == DEADLINE
    t.cancel("lluvia", now=hours(1))
    assert kinds(t, hours(5)) == set() and t.next_deadline(hours(5)) is None, "cancelled"


def test_a_late_deadline_skips_the_day_reminder_and_past_dates_are_refused() -> None:
    t = drawn(2, reporting=Reporting.TABLE)
    with pytest.raises(TournamentError) as past:
        t.set_deadline("W1-1", T0 - timedelta(minutes=1), now=T0)
    assert past.value.code == "tournament_deadline_past"
    with pytest.raises(TournamentError) as unknown:
        t.set_deadline(7, DEADLINE, now=T0)
    assert unknown.value.code == "tournament_unknown_round"
    t.set_deadline("W1-1", T0 + timedelta(minutes=30), now=T0)
    assert kinds(t, T0) == {("W1-1", "reminded_hour")}


def test_the_organiser_gives_a_walkover_or_more_time() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    t.set_deadline(1, DEADLINE, now=T0)
    for match in ("W1-1", "W1-2"):
        t.remind(match, "deadline_passed", now=hours(0))
    events = t.walkover("W1-1", {1}, now=hours(1))
    assert EventKind.MATCH_DECIDED in {e.kind for e in events}
    w11 = t.matches["W1-1"]
    assert w11.state is MatchState.WALKOVER and w11.winner == 0 and w11.games == [3, 0]
    t.set_deadline("W1-2", hours(24), now=hours(1))  # «a day more»
    assert "deadline_passed" not in t.matches["W1-2"].flags
    assert kinds(t, hours(1)) == {("W1-2", "reminded_day")}
    with pytest.raises(TournamentError):
        t.walkover("W1-1", {0}, now=hours(2))


def test_a_double_walkover_sends_the_next_opponent_through_and_counts_as_two_defeats() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    t.walkover("W1-1", {0, 1}, now=hours(0))
    w11 = t.matches["W1-1"]
    assert w11.state is MatchState.WALKOVER and w11.winner is None
    t.set_result("W1-2", (3, 0), now=hours(1))
    final = t.matches["W2-1"]
    assert final.state is MatchState.BYE and t.phase.value == "finished"
    assert t.champion is not None and t.champion.id == t.matches["W1-2"].winner_pair
    league = drawn(3, Format.ROUND_ROBIN, reporting=Reporting.TABLE)
    first = next(m for m in league.matches.values() if m.state is MatchState.READY)
    league.walkover(first.id, {0, 1}, now=hours(0))
    table = {row.pair: row for row in league.standings()}
    for pair in first.pairs:
        assert pair is not None and (table[pair].played, table[pair].lost) == (1, 1)
    both_out = drawn(4, reporting=Reporting.TABLE)
    both_out.walkover("W1-1", {0, 1}, now=hours(0))
    both_out.walkover("W1-2", {0, 1}, now=hours(0))
    assert both_out.phase.value == "finished" and both_out.champion is None


def test_a_report_not_answered_stands_at_the_deadline_only_if_the_settings_say_so() -> None:
    for rule, decided in ((AtDeadline.ASK, False), (AtDeadline.REPORT, True)):
        t = drawn(2, reporting=Reporting.TABLE, at_deadline=rule)
        t.set_deadline("W1-1", DEADLINE, now=T0)
        match = t.matches["W1-1"]
        first = t.pairs[match.pairs[0] or 0].players[0]
        assert first is not None
        t.report("W1-1", first, (3, 2), now=T0)
        t.remind("W1-1", "deadline_passed", now=hours(0))
        assert match.decided is decided, rule
        if decided:
            assert match.winner == 0 and t.log[-1]["what"] == "stood"


def test_a_time_zone_is_checked_and_kept() -> None:
    for bad_name in ("Europe Madrid", "../etc/passwd", "", "x" * 61):
        with pytest.raises(TournamentError) as bad:
            Settings("Kopa", time_zone=bad_name)
        assert bad.value.code == "tournament_bad_zone"
    with pytest.raises(TournamentError) as unknown:
        zone_of("Mars/Olympus")  # well written, but no such zone: where zones are read
    assert unknown.value.code == "tournament_bad_zone"
    assert zone_of("Europe/Paris").key == "Europe/Paris"
    paris = Settings("Kopa", time_zone="Europe/Paris", at_deadline=AtDeadline.REPORT)
    assert Settings.from_dict(paris.to_dict()) == paris
    assert "time_zone" not in Settings("Kopa").to_dict(), "the default saves as before"


def test_the_board_lists_the_round_in_play_with_each_match_s_state() -> None:
    t = drawn(8, Format.GROUPS, reporting=Reporting.TABLE)
    live = current_round(t)
    assert {m.id for m in live} == {m.id for m in t.matches.values() if m.round == 1}
    assert {m.group for m in live} == {0, 1}, "each group's first round"
    first, second, third = live[:3]
    t.set_deadline(second.id, T0 + timedelta(hours=1), now=T0)
    player = t.pairs[first.pairs[0] or 0].players[0]
    assert player is not None
    t.report(first.id, player, (3, 1), now=T0)
    t.walkover(third.id, {0}, now=T0)
    states = {row.match.id: row.status for row in board(t, T0 + timedelta(hours=2))}
    assert states[first.id] == "reported" and states[second.id] == "late"
    assert states[third.id] == "walkover"
    assert set(states.values()) - {"reported", "late", "walkover"} == {"waiting"}
