"""Results played off Discord (issue 47, item 1), in the pure core: a player of a match reports
it, the other pair confirms (the match is decided) or disputes (the organiser decides); until
both agree nothing advances; everything is logged, survives a save, and the organiser can undo
it. Nobody but the match's four players reports or answers."""

from __future__ import annotations

import pytest
from tournament_helpers import drawn, minutes

from musbot.tournament import (
    EventKind,
    Format,
    MatchState,
    Reporting,
    Tournament,
    TournamentError,
)


def first_match(t: Tournament):  # type: ignore[no-untyped-def]
    match = next(m for m in t.matches.values() if m.state is MatchState.READY)
    a, b = (t.pairs[p].players for p in match.pairs if p is not None)
    return match, a, b


def codes(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(TournamentError) as caught:
        call()
    return caught.value.code


def test_a_report_confirmed_by_the_other_pair_decides_the_match() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    match, (a1, a2), (b1, b2) = first_match(t)
    events = t.report(match.id, a1, (3, 1), now=minutes(30))
    assert [e.kind for e in events] == [EventKind.RESULT_REPORTED]
    assert match.state is MatchState.READY and match.report is not None
    assert not any(m.state is MatchState.READY and m.id != match.id and m.round > 1
                   for m in t.matches.values()), "nothing advances until agreed"
    assert t.report(match.id, a2, (3, 1), now=minutes(31)) == [], "the same report again"
    assert codes(lambda: t.confirm(match.id, a2, 1, now=minutes(32))) == \
        "tournament_report_other_pair"
    assert codes(lambda: t.confirm(match.id, b1, 2, now=minutes(32))) == \
        "tournament_report_stale"
    events = t.confirm(match.id, b2, 1, now=minutes(33))
    assert EventKind.MATCH_DECIDED in {e.kind for e in events}
    assert match.state is MatchState.FINISHED and match.games == [3, 1] and match.winner == 0
    assert "reported" in match.flags and match.report is None
    assert [e["what"] for e in t.log] == ["reported", "confirmed"]
    assert codes(lambda: t.confirm(match.id, b2, 1, now=minutes(34))) == \
        "tournament_already_decided"


def test_games_are_given_from_the_reporter_s_side_and_the_same_from_the_other_agrees() -> None:
    t = drawn(2, reporting=Reporting.EITHER)
    match, (a1, _), (b1, _) = first_match(t)
    t.report(match.id, b1, (3, 2), now=minutes(10))  # b's pair won 3–2
    assert match.report is not None and match.report.games == (2, 3)
    events = t.report(match.id, a1, (2, 3), now=minutes(11))  # a agrees: they lost 2–3
    assert EventKind.CHAMPION in {e.kind for e in events}
    assert match.winner == 1 and t.champion is not None and t.champion.id == match.pairs[1]


def test_a_dispute_leaves_it_to_the_organiser_who_settles_and_can_undo() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    match, (a1, _), (b1, b2) = first_match(t)
    t.report(match.id, a1, (3, 0), now=minutes(10))
    events = t.dispute(match.id, b1, 1, now=minutes(11))
    assert [e.kind for e in events] == [EventKind.RESULT_DISPUTED]
    assert not match.decided and "disputed" in match.flags
    for attempt in (lambda: t.confirm(match.id, b2, 1, now=minutes(12)),
                    lambda: t.report(match.id, a1, (3, 1), now=minutes(12))):
        assert codes(attempt) == "tournament_report_disputed"
    t.set_result(match.id, (1, 3), now=minutes(20))
    assert match.winner == 1 and "organiser" in match.flags
    restored = Tournament.from_dict(t.to_dict())
    assert restored == t and [e["what"] for e in restored.log] == \
        ["reported", "disputed", "settled"]
    events = t.replay(match.id, now=minutes(30))
    assert EventKind.MATCH_REOPENED in {e.kind for e in events}
    assert match.state is MatchState.READY and match.report is None


def test_a_different_report_from_the_other_pair_is_a_dispute() -> None:
    t = drawn(2, reporting=Reporting.TABLE)
    match, (a1, _), (b1, _) = first_match(t)
    t.report(match.id, a1, (3, 1), now=minutes(10))
    events = t.report(match.id, b1, (3, 1), now=minutes(11))  # «we won 3–1», they say
    assert [e.kind for e in events] == [EventKind.RESULT_DISPUTED]
    assert match.report is not None and match.report.disputed and not match.decided


def test_only_the_match_s_players_report_and_reports_are_budgeted() -> None:
    t = drawn(4, reporting=Reporting.TABLE)
    match, (a1, _), _ = first_match(t)
    other = next(m for m in t.matches.values()
                 if m.state is MatchState.READY and m.id != match.id)
    stranger = t.pairs[other.pairs[0] or 0].players[0]
    assert stranger is not None
    assert codes(lambda: t.report(match.id, stranger, (3, 0), now=minutes(5))) == \
        "tournament_not_your_match"
    assert codes(lambda: t.report(match.id, 424242, (3, 0), now=minutes(5))) == \
        "tournament_not_your_match"
    assert codes(lambda: t.report(match.id, a1, (3, 3), now=minutes(5))) == \
        "tournament_bad_score"
    for n, games in enumerate(((3, 0), (3, 1), (3, 2)), 1):
        t.report(match.id, a1, games, now=minutes(5 + n))
        assert match.report is not None and match.report.number == n
    assert codes(lambda: t.report(match.id, a1, (0, 3), now=minutes(9))) == \
        "tournament_reports_spent"
    assert t.current_match(a1) is match and t.current_match(424242) is None


def test_a_discord_tournament_takes_no_reports_and_only_it_has_time_limits() -> None:
    t = drawn(2)
    match, (a1, _), _ = first_match(t)
    assert codes(lambda: t.report(match.id, a1, (3, 0), now=minutes(5))) == \
        "tournament_reports_off"
    assert t.due(minutes(600)), "a Discord match past its times is due"
    table = drawn(2, Format.KNOCKOUT, reporting=Reporting.TABLE)
    assert table.due(minutes(600)) == [], "a real table's match: the organiser's deadlines"
    assert Tournament.from_dict(table.to_dict()).settings.reporting is Reporting.TABLE
    assert "reporting" not in t.settings.to_dict(), "a Discord tournament saves as before"
