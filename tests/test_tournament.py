"""The tournament core (musbot.tournament), without Discord: settings, sign-ups, the draw, each
format's matches, results, lateness, the organiser's actions, the JSON state, and every bad input
answered with a coded error that changes nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tournament_helpers import T0, drawn, minutes, people, signed

from musbot.engine import Rules
from musbot.i18n import LANGUAGES, error_text
from musbot.storage import ratings
from musbot.tournament import (
    STATE_VERSION,
    AtDeadline,
    Bracket,
    EventKind,
    Format,
    Lateness,
    MatchState,
    ResultConflict,
    Seeding,
    Settings,
    Stage,
    Tournament,
    TournamentError,
    TournamentEvent,
    pair_key,
    rated_results,
    stamp,
)
from musbot.tournament.brackets import bracket_order, double_elimination
from musbot.tournament.simulate import Outcome, random_results, simulate
from musbot.tournament.standings import circle
from musbot.tournament.tournament import group_sizes

ROOT = Path(__file__).resolve().parents[1]


def kinds(events: list[TournamentEvent]) -> list[EventKind]:
    return [e.kind for e in events]


def play(t: Tournament, match_id: str, games: tuple[int, int], at: float = 30,
         tantos: tuple[int, int] = (0, 0)) -> list[TournamentEvent]:
    t.start(match_id, now=minutes(at - 1))
    return t.record(match_id, games, tantos, now=minutes(at))


def code(excinfo: pytest.ExceptionInfo[TournamentError]) -> str:
    return excinfo.value.code


# --- settings ----------------------------------------------------------------------------------

def test_the_defaults_are_the_basque_championships() -> None:
    settings = Settings("Txapelketa")
    assert (settings.rules.reyes, settings.rules.puntos, settings.games_to_win) == (4, 40, 3)
    assert settings.table_rules == Rules(reyes=4, puntos=40, juegos=3, vacas=1)
    assert settings.format is Format.KNOCKOUT and settings.lateness is Lateness.MATCH


@pytest.mark.parametrize(("options", "expected"), [
    ({"name": "   "}, "tournament_bad_name"),
    ({"name": "x" * 101}, "tournament_bad_name"),
    ({"games_to_win": 4}, "tournament_bad_games"),
    ({"games_to_win": 0}, "tournament_bad_games"),
    ({"rules": Rules(jugadores=2)}, "tournament_pairs_only"),
    ({"round_minutes": 4}, "tournament_bad_round_time"),
    ({"grace_minutes": 0}, "tournament_bad_grace"),
    ({"grace_minutes": 120, "round_minutes": 120}, "tournament_bad_grace"),
    ({"group_size": 2}, "tournament_bad_group_size"),
    ({"advance": 4, "group_size": 4}, "tournament_bad_advance"),
    ({"swiss_rounds": 0}, "tournament_bad_swiss_rounds"),
    ({"format": "ladder"}, "tournament_bad_option"),
    ({"signup_deadline": "mañana"}, "tournament_bad_time"),
    ({"signup_deadline": "2025-05-01T18:00:00"}, "tournament_naive_time"),
])
def test_impossible_settings_are_refused_with_a_code(options: dict[str, object],
                                                     expected: str) -> None:
    name = options.pop("name", "Txapelketa")
    with pytest.raises(TournamentError) as excinfo:
        Settings(str(name), **options)  # type: ignore[arg-type]
    assert code(excinfo) == expected
    for lang in LANGUAGES:
        assert error_text(excinfo.value, lang) != expected, "worded in every language"


def test_settings_round_trip_and_keep_unknown_keys() -> None:
    settings = Settings.create("Liga  de\tverano", format="swiss", seeding="random",  # type: ignore[arg-type]
                               deadline=T0, rules=Rules(reyes=8, puntos=30, real=True),
                               games_to_win=2, swiss_rounds=5)
    assert settings.name == "Liga de verano" and settings.format is Format.SWISS
    data = {**settings.to_dict(), "from_the_future": [1, 2]}
    again = Settings.from_dict(data)
    assert again == settings and again.to_dict() == data
    assert again.deadline == T0


def test_every_code_the_core_raises_is_worded_in_every_language() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "musbot/tournament").glob("*.py"))
    codes = set(re.findall(r'"(tournament_[a-z_]+)"', source))
    assert len(codes) > 25
    for lang, module in LANGUAGES.items():
        assert not codes - set(module.ERRORS), f"{lang} lacks {codes - set(module.ERRORS)}"


# --- sign-ups ----------------------------------------------------------------------------------

def test_naming_each_other_makes_a_pair_and_an_unanswered_invitation_is_drawn_alone() -> None:
    t = Tournament.new(Settings("T"), 3, now=T0)
    assert kinds(t.sign_up(1, "Ane", partner=2, now=T0)) == [EventKind.SIGNED_UP,
                                                              EventKind.INVITED]
    assert t.signed_pairs() == [] and t.solos() == [1]
    assert kinds(t.sign_up(2, "Bea", partner=1, now=T0)) == [EventKind.SIGNED_UP,
                                                               EventKind.PAIRED]
    t.sign_up(3, "Koldo", partner=9, now=T0)  # 9 never answers
    t.sign_up(4, "Miren", now=T0)
    assert t.signed_pairs() == [(1, 2)] and t.solos() == [3, 4]
    events = t.draw(now=T0)
    assert {p.players for p in t.pairs} in ({(1, 2), (3, 4)}, {(1, 2), (4, 3)})
    assert EventKind.UNPAIRED not in kinds(events)


def test_signing_up_again_replaces_the_entry_and_the_same_entry_changes_nothing() -> None:
    t = Tournament.new(Settings("T"), 3, now=T0)
    t.sign_up(1, "Ane", partner=2, now=T0)
    revision = t.revision
    assert t.sign_up(1, "Ane", partner=2, now=minutes(5)) == []
    assert t.revision == revision
    t.sign_up(1, "Ane  Etxeberria", now=minutes(6))
    assert t.entries[1].partner is None and t.entries[1].name == "Ane Etxeberria"


def test_withdrawing_before_the_draw_and_not_after() -> None:
    t = signed(2)
    t.withdraw(1000, now=T0)
    assert 1000 not in t.entries and 1001 in t.solos(), "the partner stays, drawn alone"
    with pytest.raises(TournamentError) as excinfo:
        t.withdraw(1000, now=T0)
    assert code(excinfo) == "tournament_not_signed_up"
    t.sign_up(5, "Eneko", now=T0)
    t.draw(now=T0)
    with pytest.raises(TournamentError) as excinfo:
        t.withdraw(1002, now=T0)
    assert code(excinfo) == "tournament_signups_closed"


@pytest.mark.parametrize("when", ["after_deadline", "after_draw", "self"])
def test_sign_ups_that_cannot_be_taken(when: str) -> None:
    t = Tournament.new(Settings("T", signup_deadline=stamp(minutes(60))), 1, now=T0)
    for first, second in people(2):
        t.sign_up(first, "A", partner=second, now=T0)
        t.sign_up(second, "B", partner=first, now=T0)
    before = t.to_dict()
    with pytest.raises(TournamentError) as excinfo:
        if when == "after_deadline":
            t.sign_up(7, "Late", now=minutes(61))
        elif when == "self":
            t.sign_up(7, "Me", partner=7, now=T0)
        else:
            t.draw(now=minutes(60))
            before = t.to_dict()
            t.sign_up(7, "Late", now=minutes(60))
    assert code(excinfo) == {"after_deadline": "tournament_signups_closed",
                             "after_draw": "tournament_signups_closed",
                             "self": "tournament_partner_self"}[when]
    assert t.to_dict() == before


# --- the draw ----------------------------------------------------------------------------------

def test_a_draw_needs_two_pairs_and_changes_nothing_without_them() -> None:
    t = signed(1)
    t.sign_up(7, "Solo", now=T0)
    before = t.to_dict()
    with pytest.raises(TournamentError) as excinfo:
        t.draw(now=T0)
    assert code(excinfo) == "tournament_too_few" and excinfo.value.params == {"count": 1}
    assert t.to_dict() == before
    t.sign_up(8, "Solo bi", now=T0)
    t.draw(now=T0)
    with pytest.raises(TournamentError) as excinfo:
        t.draw(now=T0)
    assert code(excinfo) == "tournament_already_drawn"


def test_the_odd_person_alone_is_left_out_and_told() -> None:
    t = Tournament.new(Settings("T"), 11, now=T0)
    for user in range(5):
        t.sign_up(user, f"P{user}", now=T0)
    events = t.draw(now=T0)
    left = [e.user for e in events if e.kind is EventKind.UNPAIRED]
    assert len(left) == 1 and t.unpaired == left and len(t.pairs) == 2
    assert left[0] not in {u for p in t.pairs for u in p.players}


def test_the_draw_is_reproducible_from_its_seed() -> None:
    def make(seed: int) -> dict[str, object]:
        t = Tournament.new(Settings("T", format=Format.DOUBLE, seeding=Seeding.RANDOM), seed,
                           now=T0)
        for user in range(40):
            t.sign_up(user, f"P{user}", now=T0)
        t.draw(now=T0)
        return t.to_dict()

    assert make(5) == make(5)
    assert make(5)["pairs"] != make(6)["pairs"]


def test_seeding_by_rating_puts_the_best_rated_first_and_the_unrated_after() -> None:
    keys = [pair_key(*p) for p in people(6)]
    table = {keys[0]: 900.0, keys[3]: 1300.0, keys[5]: 1100.0}
    t = drawn(6, ratings=table)
    order = [p.key for p in t.pairs]
    assert order[:3] == [keys[3], keys[5], keys[0]]
    assert set(order[3:]) == {keys[1], keys[2], keys[4]}
    assert [p.rating for p in t.pairs[:4]] == [1300.0, 1100.0, 900.0, None]
    shuffled = drawn(6, ratings=table, seeding=Seeding.RANDOM, seed=2)
    assert [p.key for p in shuffled.pairs] != order


def test_byes_go_to_the_top_seeds_in_the_first_round() -> None:
    t = drawn(5)
    first = [m for m in t.matches.values() if m.round == 1]
    byes = sorted(m.winner_pair for m in first if m.state is MatchState.BYE)  # type: ignore
    assert byes == [0, 1, 2]
    assert [m.pairs for m in first if m.state is MatchState.READY] == [[3, 4]]
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)


def test_the_field_is_limited_by_format() -> None:
    t = signed(129, Format.ROUND_ROBIN)
    with pytest.raises(TournamentError) as excinfo:
        t.draw(now=T0)
    assert code(excinfo) == "tournament_too_many"
    t = signed(4, Format.SWISS, swiss_rounds=4)
    with pytest.raises(TournamentError) as excinfo:
        t.draw(now=T0)
    assert code(excinfo) == "tournament_too_many_rounds"


# --- playing -----------------------------------------------------------------------------------

def test_a_match_is_pending_until_both_pairs_are_known_then_ready() -> None:
    t = drawn(4)
    semis = [t.matches["W1-1"], t.matches["W1-2"]]
    final = t.matches["W2-1"]
    assert [m.state for m in semis] == [MatchState.READY] * 2
    assert final.state is MatchState.PENDING and final.pairs == [None, None]
    events = play(t, "W1-1", (3, 1), tantos=(130, 90))
    assert kinds(events) == [EventKind.MATCH_DECIDED]
    assert final.pairs == [0, None] and final.state is MatchState.PENDING
    events = play(t, "W1-2", (2, 3), at=40)
    assert kinds(events) == [EventKind.MATCH_DECIDED, EventKind.MATCH_READY]
    assert final.pairs == [0, 2] and final.ready_at == stamp(minutes(40))
    events = play(t, "W2-1", (3, 0), at=90)
    assert kinds(events) == [EventKind.MATCH_DECIDED, EventKind.CHAMPION]
    assert t.phase is Stage.FINISHED and t.champion is t.pairs[0]
    assert t.finalist is t.pairs[2]


def test_recording_a_result_twice_changes_nothing_and_another_one_is_an_error() -> None:
    t = drawn(4)
    play(t, "W1-1", (3, 2), tantos=(150, 140))
    state = t.to_dict()
    assert t.record("W1-1", (3, 2), (150, 140), now=minutes(99)) == []
    assert t.to_dict() == state
    with pytest.raises(ResultConflict) as excinfo:
        t.record("W1-1", (2, 3), (140, 150), now=minutes(99))
    assert excinfo.value.code == "tournament_result_conflict"
    assert t.to_dict() == state
    assert t.start("W1-2", now=minutes(1)) != [] and t.start("W1-2", now=minutes(2)) == []


@pytest.mark.parametrize("games", [(4, 0), (3, 3), (2, 1), (-1, 3), (3,), (3, 1, 0), (3.0, 1)])
def test_a_score_that_cannot_end_a_match_is_refused(games: tuple[int, ...]) -> None:
    t = drawn(2)
    before = t.to_dict()
    with pytest.raises(TournamentError) as excinfo:
        t.record("W1-1", games, now=minutes(5))
    assert code(excinfo) == "tournament_bad_score" and excinfo.value.params == {"target": 3}
    with pytest.raises(TournamentError) as excinfo:
        t.record("W1-1", (3, 0), (-5, 0), now=minutes(5))
    assert code(excinfo) == "tournament_bad_tantos"
    assert t.to_dict() == before


def test_acting_on_a_match_that_is_not_there_or_not_ready() -> None:
    t = drawn(4)
    with pytest.raises(TournamentError) as excinfo:
        t.record("W9-9", (3, 0), now=T0)
    assert code(excinfo) == "tournament_unknown_match"
    with pytest.raises(TournamentError) as excinfo:
        t.record("W2-1", (3, 0), now=T0)
    assert code(excinfo) == "tournament_not_ready"
    with pytest.raises(TournamentError) as excinfo:
        t.start("W2-1", now=T0)
    assert code(excinfo) == "tournament_not_ready"
    with pytest.raises(TournamentError) as excinfo:
        t.disqualify(7, "no", now=T0)
    assert code(excinfo) == "tournament_unknown_pair"


# --- lateness ----------------------------------------------------------------------------------

def test_a_pair_not_sitting_down_loses_by_walkover_once_the_grace_time_has_passed() -> None:
    t = drawn(4, grace_minutes=10)
    with pytest.raises(TournamentError) as excinfo:
        t.late("W1-1", {1}, now=minutes(9))
    assert code(excinfo) == "tournament_not_late"
    assert [d.match for d in t.due(minutes(10)) if d.kind == "grace"] == ["W1-1", "W1-2"]
    events = t.late("W1-1", {1}, now=minutes(10))
    match = t.matches["W1-1"]
    assert match.state is MatchState.WALKOVER and match.games == [3, 0]
    assert kinds(events) == [EventKind.MATCH_DECIDED]
    assert t.late("W1-1", {1}, now=minutes(11)) == [], "a restart repeating it: no change"
    assert t.matches["W2-1"].pairs[0] == match.winner_pair
    with pytest.raises(TournamentError):
        t.late("W1-1", {0}, now=minutes(11))


def test_lateness_costing_a_game_costs_one_per_grace_time() -> None:
    t = drawn(2, lateness=Lateness.GAME, grace_minutes=10)
    events = t.late("W1-1", {0}, now=minutes(10))
    match = t.matches["W1-1"]
    assert kinds(events) == [EventKind.GAME_FORFEITED]
    assert match.games == [0, 1] and match.forfeits == [0, 1]
    assert t.late("W1-1", {0}, now=minutes(15)) == [], "the same grace time again"
    assert [d.kind for d in t.due(minutes(19))] == []
    t.late("W1-1", {0}, now=minutes(20))
    assert match.games == [0, 2] and match.state is MatchState.READY
    with pytest.raises(TournamentError):
        t.record("W1-1", (3, 1), now=minutes(21)), "fewer games than forfeited"
    t.late("W1-1", {0}, now=minutes(30))
    assert match.state is MatchState.WALKOVER and match.games == [0, 3]
    assert t.champion is not None and t.champion.id == match.pairs[1]


def test_a_late_pair_that_comes_plays_on_from_the_games_it_lost() -> None:
    t = drawn(2, lateness=Lateness.GAME)
    t.late("W1-1", {1}, now=minutes(10))
    t.start("W1-1", now=minutes(12))
    t.record("W1-1", (2, 3), (70, 110), now=minutes(60))
    assert t.matches["W1-1"].winner == 1


def test_both_pairs_late_is_for_the_organiser() -> None:
    t = drawn(2)
    assert kinds(t.late("W1-1", {0, 1}, now=minutes(10))) == [EventKind.BOTH_LATE]
    assert t.late("W1-1", {0, 1}, now=minutes(25)) == []
    assert t.matches["W1-1"].state is MatchState.READY
    assert [d.kind for d in t.due(minutes(30))] == []
    assert [d.kind for d in t.due(minutes(120))] == ["overtime"]
    with pytest.raises(TournamentError) as excinfo:
        t.late("W1-1", set(), now=minutes(30))
    assert code(excinfo) == "tournament_bad_side"
    t.set_result("W1-1", (3, 0), now=minutes(130))
    assert "organiser" in t.matches["W1-1"].flags and t.phase is Stage.FINISHED


# --- the organiser -----------------------------------------------------------------------------

def test_disqualifying_a_pair_gives_its_open_match_away_with_the_reason() -> None:
    t = drawn(4)
    t.start("W1-1", now=minutes(1))
    with pytest.raises(TournamentError) as excinfo:
        t.disqualify(0, "  ", now=minutes(2))
    assert code(excinfo) == "tournament_reason_needed"
    events = t.disqualify(0, "señas falsas", now=minutes(2))
    assert kinds(events)[:2] == [EventKind.DISQUALIFIED, EventKind.MATCH_DECIDED]
    match = t.matches["W1-1"]
    assert match.state is MatchState.DISQUALIFIED and match.note == "señas falsas"
    assert match.winner_pair == 3 and t.disqualify(0, "otra vez", now=minutes(3)) == []
    assert t.pairs[0].disqualified == "señas falsas"


def test_a_disqualified_pair_in_double_elimination_loses_its_repesca_match_too() -> None:
    t = drawn(4, Format.DOUBLE)
    play(t, "W1-1", (3, 0))
    loser = t.matches["W1-1"].loser_pair
    assert loser is not None
    t.disqualify(loser, "abandono", now=minutes(40))
    play(t, "W1-2", (3, 0), at=50)
    repesca = t.matches["L1-1"]
    assert repesca.state is MatchState.DISQUALIFIED and repesca.loser_pair == loser


def test_a_disqualified_pair_loses_every_match_left_in_a_round_robin() -> None:
    t = drawn(5, Format.ROUND_ROBIN)
    t.disqualify(4, "no juega", now=minutes(1))
    theirs = t.matches_of(4)
    assert len(theirs) == 4 and all(m.state is MatchState.DISQUALIFIED for m in theirs)
    assert t.standings()[-1].pair == 4


def test_a_replay_undoes_what_followed_until_something_after_it_started() -> None:
    t = drawn(4)
    play(t, "W1-1", (3, 0))
    play(t, "W1-2", (3, 0), at=40)
    events = t.replay("W1-1", now=minutes(50))
    assert kinds(events) == [EventKind.MATCH_REOPENED, EventKind.MATCH_WITHDRAWN,
                             EventKind.MATCH_READY]
    assert t.matches["W2-1"].state is MatchState.PENDING and t.matches["W2-1"].pairs[0] is None
    assert t.matches["W1-1"].state is MatchState.READY and t.matches["W1-1"].games == [0, 0]
    play(t, "W1-1", (1, 3), at=60)
    t.start("W2-1", now=minutes(61))
    before = t.to_dict()
    with pytest.raises(TournamentError) as excinfo:
        t.replay("W1-1", now=minutes(62))
    assert code(excinfo) == "tournament_replay_too_late"
    assert excinfo.value.params == {"match": "W1-1", "blocking": "W2-1"}
    assert t.to_dict() == before
    assert t.replay("W2-1", now=minutes(62)) == [], "in play: nothing to undo"
    with pytest.raises(TournamentError) as excinfo:
        drawn(4).replay("W2-1", now=minutes(62))
    assert code(excinfo) == "tournament_not_decided"


def test_the_organiser_overrides_a_walkover_whatever_games_it_had_given() -> None:
    t = drawn(2, lateness=Lateness.GAME)
    for at in (10, 20, 30):
        t.late("W1-1", {0}, now=minutes(at))
    assert t.matches["W1-1"].state is MatchState.WALKOVER
    t.set_result("W1-1", (3, 1), now=minutes(40))
    match = t.matches["W1-1"]
    assert match.state is MatchState.FINISHED and match.games == [3, 1]
    assert match.forfeits == [0, 0] and t.champion is not None
    assert t.champion.id == match.pairs[0]


def test_the_organiser_corrects_a_result_by_setting_it() -> None:
    t = drawn(4)
    play(t, "W1-1", (3, 0))
    winner = t.matches["W1-1"].winner_pair
    events = t.set_result("W1-1", (0, 3), now=minutes(45))
    assert EventKind.MATCH_REOPENED in kinds(events)
    match = t.matches["W1-1"]
    assert match.winner_pair != winner and "organiser" in match.flags
    assert t.matches["W2-1"].pairs[0] == match.winner_pair
    assert t.set_result("W1-1", (0, 3), now=minutes(46)) == []


def test_cancelling_ends_the_tournament_without_a_champion() -> None:
    t = drawn(4)
    assert kinds(t.cancel("lluvia", now=minutes(5))) == [EventKind.CANCELLED]
    assert t.phase is Stage.CANCELLED and t.champion is None
    assert t.cancel("again", now=minutes(6)) == []
    done = drawn(2)
    play(done, "W1-1", (3, 0))
    with pytest.raises(TournamentError) as excinfo:
        done.cancel("late", now=minutes(60))
    assert code(excinfo) == "tournament_over"


def test_when_the_round_time_runs_out_the_pair_ahead_on_the_board_wins() -> None:
    """The tournament lets the bot decide alone (``al_plazo:decide``)."""
    t = drawn(4, at_deadline=AtDeadline.DECIDE)  # 120 minutes a round, from the draw
    t.start("W1-1", now=minutes(5))
    t.start("W1-2", now=minutes(5))
    assert [d.kind for d in t.due(minutes(119))] == []
    assert [(d.match, d.kind) for d in t.due(minutes(120))] == [
        ("W1-1", "overtime"), ("W1-2", "overtime")]
    # Level in games (1-1), ahead in the game in play: pair 1 wins on tantos.
    events = t.overtime("W1-1", (1, 1), (57, 60), playing=(12, 20), now=minutes(121))
    assert kinds(events)[0] is EventKind.MATCH_DECIDED
    match = t.matches["W1-1"]
    assert match.state is MatchState.FINISHED and match.winner == 1
    assert match.games == [1, 1] and match.tantos == [57, 60] and "overtime" in match.flags
    assert t.matches["W2-1"].pairs[0] == match.pairs[1], "the winner goes on"
    assert t.overtime("W1-1", (1, 1), (57, 60), playing=(12, 20), now=minutes(122)) == []
    assert len(rated_results(t)) == 1, "played by the four of them: it rates the pairs"
    # Ahead in games counts before tantos.
    other = drawn(2, at_deadline=AtDeadline.DECIDE)
    other.overtime("W1-1", (2, 0), (90, 30), playing=(0, 35), now=minutes(120))
    assert other.matches["W1-1"].winner == 0 and other.phase is Stage.FINISHED


def test_level_when_the_time_runs_out_plays_on_for_the_organiser_once() -> None:
    t = drawn(2, at_deadline=AtDeadline.DECIDE)
    t.start("W1-1", now=minutes(5))
    events = t.overtime("W1-1", (1, 1), (50, 50), playing=(10, 10), now=minutes(125))
    assert kinds(events) == [EventKind.OVERTIME_LEVEL]
    match = t.matches["W1-1"]
    assert match.state is MatchState.PLAYING and "overtime" in match.flags
    assert t.due(minutes(500)) == [], "dealt with: not due again"
    assert t.overtime("W1-1", (2, 1), (80, 50), playing=(30, 0), now=minutes(130)) == []
    t.record("W1-1", (3, 1), (110, 60), now=minutes(140))
    assert match.winner == 0, "the table's result counts"
    assert "overtime" in match.flags and match.games == [3, 1]
    # A match never started, its pairs level (both late): the organiser's too.
    late = drawn(2, at_deadline=AtDeadline.DECIDE)
    late.late("W1-1", {0, 1}, now=minutes(10))
    assert kinds(late.overtime("W1-1", (0, 0), now=minutes(120))) == [EventKind.OVERTIME_LEVEL]
    # One pair late by games, then time: the pair present is ahead and wins.
    games = drawn(2, lateness=Lateness.GAME, grace_minutes=50,
                  at_deadline=AtDeadline.DECIDE)
    games.late("W1-1", {1}, now=minutes(50))
    games.late("W1-1", {1}, now=minutes(100))
    games.overtime("W1-1", (2, 0), now=minutes(120))
    assert games.matches["W1-1"].winner == 0 and games.matches["W1-1"].state is \
        MatchState.FINISHED


def test_a_replayed_match_gets_its_round_time_again() -> None:
    t = drawn(2, at_deadline=AtDeadline.DECIDE)
    t.overtime("W1-1", (1, 0), now=minutes(120))
    t.replay("W1-1", now=minutes(130))
    match = t.matches["W1-1"]
    assert match.state is MatchState.READY and "overtime" not in match.flags
    assert [d.kind for d in t.due(minutes(249))] == ["grace"]
    assert "overtime" in [d.kind for d in t.due(minutes(250))]


@pytest.mark.parametrize(("games", "tantos", "playing", "at", "error"), [
    ((1, 0), (0, 0), (0, 0), 119, "tournament_not_overtime"),
    ((3, 0), (0, 0), (0, 0), 120, "tournament_bad_score"),   # a match already won
    ((1,), (0, 0), (0, 0), 120, "tournament_bad_score"),
    ((-1, 0), (0, 0), (0, 0), 120, "tournament_bad_score"),
    (("1", 0), (0, 0), (0, 0), 120, "tournament_bad_score"),
    ((1, 0), (-5, 0), (0, 0), 120, "tournament_bad_tantos"),
    ((1, 0), (0, 0), (0, -1), 120, "tournament_bad_tantos"),
    ((1, 0), (0, 0), (0, 0, 0), 120, "tournament_bad_tantos"),
])
def test_a_bad_board_at_overtime_is_refused_and_changes_nothing(
        games: tuple[int, ...], tantos: tuple[int, ...], playing: tuple[int, ...], at: int,
        error: str) -> None:
    t = drawn(2)
    before = t.to_dict()
    with pytest.raises(TournamentError) as excinfo:
        t.overtime("W1-1", games, tantos, playing=playing, now=minutes(at))
    assert code(excinfo) == error
    assert t.to_dict() == before
    for lang in LANGUAGES:
        assert "{" not in error_text(excinfo.value, lang)


def test_overtime_is_refused_for_a_match_not_ready_and_below_its_forfeits() -> None:
    t = drawn(4)
    with pytest.raises(TournamentError) as excinfo:
        t.overtime("W2-1", (0, 0), now=minutes(200))
    assert code(excinfo) == "tournament_not_ready"
    with pytest.raises(TournamentError) as excinfo:
        t.overtime("X9", (0, 0), now=minutes(200))
    assert code(excinfo) == "tournament_unknown_match"
    games = drawn(2, lateness=Lateness.GAME, grace_minutes=50)
    games.late("W1-1", {1}, now=minutes(50))
    with pytest.raises(TournamentError) as excinfo:
        games.overtime("W1-1", (0, 0), now=minutes(120))  # it has a game given already
    assert code(excinfo) == "tournament_bad_score"


def test_a_match_where_a_bot_played_a_game_is_flagged_and_not_rated() -> None:
    t = drawn(2)
    t.start("W1-1", now=minutes(1))
    events = t.record("W1-1", (3, 1), now=minutes(50), bot_game=True)
    assert EventKind.BOT_FLAGGED in kinds(events)
    assert "bot_game" in t.matches["W1-1"].flags
    assert rated_results(t) == []
    other = drawn(2, seed=9)
    play(other, "W1-1", (3, 1))
    assert len(rated_results(other)) == 1


# --- formats -----------------------------------------------------------------------------------

def test_double_elimination_plays_the_grand_final_again_when_the_repesca_wins_it() -> None:
    for repesca_wins in (False, True):
        t = drawn(4, Format.DOUBLE)
        for match_id in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
            play(t, match_id, (3, 1))
        assert t.matches["F1"].state is MatchState.READY
        play(t, "F1", (1, 3) if repesca_wins else (3, 1))
        assert ("F2" in t.matches) is repesca_wins
        if repesca_wins:
            assert t.phase is Stage.RUNNING and t.champion is None
            play(t, "F2", (3, 2))
        assert t.phase is Stage.FINISHED and t.champion is not None


def test_the_repesca_is_the_usual_one_for_a_full_bracket() -> None:
    matches = double_elimination(list(range(8)))
    repesca = {m.id: tuple(s.ref for s in m.sources) for m in matches
               if m.bracket is Bracket.LOSERS}
    assert repesca == {"L1-1": ("W1-1", "W1-2"), "L1-2": ("W1-3", "W1-4"),
                       "L2-1": ("L1-1", "W2-2"), "L2-2": ("L1-2", "W2-1"),
                       "L3-1": ("L2-1", "L2-2"), "L4-1": ("L3-1", "W3-1")}


def test_circle_schedule_meets_everyone_once() -> None:
    for n in range(2, 12):
        rounds = circle(list(range(n)))
        met = [frozenset(m) for r in rounds for m in r]
        assert len(rounds) == (n if n % 2 else n - 1)
        assert len(met) == len(set(met)) == n * (n - 1) // 2
        assert all(len({p for m in r for p in m}) == 2 * len(r) for r in rounds)


def test_groups_are_balanced_by_seed_and_their_best_go_through() -> None:
    assert group_sizes(16, 4) == [4, 4, 4, 4] and group_sizes(10, 4) == [4, 3, 3]
    assert group_sizes(5, 4) == [5] and group_sizes(2, 4) == [2]
    t = drawn(16, Format.GROUPS)
    groups = [[p.id for p in t.pairs if p.group == g] for g in range(4)]
    assert groups == [[0, 7, 8, 15], [1, 6, 9, 14], [2, 5, 10, 13], [3, 4, 11, 12]]
    simulate(t, random_results(random.Random(3)), start=T0)
    knockout = [m for m in t.matches.values() if m.bracket is Bracket.WINNERS]
    assert len(knockout) == 7
    for match in knockout:
        if match.round == 1:
            first, second = (t.pairs[p].group for p in match.pairs if p is not None)
            assert first != second, "a group's pairs do not meet again at once"


def test_a_single_group_is_a_league_then_a_final() -> None:
    t = drawn(3, Format.GROUPS)
    assert t.plan == {"groups": 1, "advance": 2}
    simulate(t, random_results(random.Random(1)), start=T0)
    assert len([m for m in t.matches.values() if m.bracket is Bracket.WINNERS]) == 1
    t = drawn(2, Format.GROUPS)
    simulate(t, random_results(random.Random(1)), start=T0)
    assert t.plan["advance"] == 1 and len(t.matches) == 1 and t.champion is not None


def test_when_disqualifications_leave_one_pair_to_go_through_it_is_the_champion() -> None:
    t = drawn(6, Format.GROUPS, group_size=3, advance=1)
    assert t.plan == {"groups": 2, "advance": 1}
    for pair in [p.id for p in t.pairs if p.group == 1]:
        t.disqualify(pair, "ausentes", now=minutes(1))
    simulate(t, random_results(random.Random(2)), start=minutes(2))
    assert t.phase is Stage.FINISHED and t.champion is not None
    assert t.champion.group == 0 and t.champion.id == t.standings(0)[0].pair
    assert not [m for m in t.matches.values() if m.bracket is Bracket.WINNERS]


def test_league_ties_are_broken_by_head_to_head_before_the_differences() -> None:
    t = drawn(3, Format.ROUND_ROBIN)
    by_pairs = {frozenset(m.pairs): m.id for m in t.matches.values()}  # type: ignore[arg-type]
    # 0 beats 1 narrowly, 1 beats 2 widely, 2 beats 0: all on one win; head-to-head among the
    # three is one win each, so the game difference decides: 1 (+2), 2 (0), 0 (-2).
    results = {(0, 1): (3, 2), (1, 2): (3, 0), (2, 0): (3, 0)}
    at = 10
    while t.phase is Stage.RUNNING:
        for match in [m for m in t.matches.values() if m.state is MatchState.READY]:
            a, b = match.pairs
            score = results.get((a, b)) or tuple(reversed(results[(b, a)]))  # type: ignore
            play(t, match.id, score, at=at)  # type: ignore[arg-type]
            at += 10
    assert [s.pair for s in t.standings()] == [1, 2, 0]
    assert by_pairs


def test_swiss_pairs_like_scores_and_gives_each_bye_once() -> None:
    t = drawn(7, Format.SWISS)
    assert t.plan["rounds"] == 3
    first = [m.pairs for m in t.matches.values() if m.round == 1]
    assert first == [[0, 3], [1, 4], [2, 5], [6, None]]
    simulate(t, random_results(random.Random(5)), start=T0)
    byes = [m.winner_pair for m in t.matches.values() if m.state is MatchState.BYE]
    assert len(byes) == 3 and len(set(byes)) == 3
    met = [frozenset(m.pairs) for m in t.matches.values() if m.played]  # type: ignore[arg-type]
    assert len(met) == len(set(met))
    top = t.standings()[0]
    assert t.champion is not None and t.champion.id == top.pair
    assert top.buchholz is not None


def test_a_swiss_replay_takes_back_the_next_round_while_it_has_not_started() -> None:
    t = drawn(4, Format.SWISS)
    play(t, "S1-1", (3, 0))
    play(t, "S1-2", (3, 0), at=40)
    assert "S2-1" in t.matches
    events = t.replay("S1-2", now=minutes(45))
    assert kinds(events).count(EventKind.MATCH_WITHDRAWN) == 2
    assert "S2-1" not in t.matches and t.plan["paired"] == 1
    play(t, "S1-2", (0, 3), at=60)
    assert "S2-1" in t.matches


# --- state -------------------------------------------------------------------------------------

def test_the_state_round_trips_exactly_and_a_restored_copy_plays_on_identically() -> None:
    t = drawn(12, Format.DOUBLE, lateness=Lateness.GAME)
    rng = random.Random(4)
    results = random_results(rng, late_rate=0.2)
    copies: list[Tournament] = []

    def check(tournament: Tournament, events: list[TournamentEvent]) -> None:
        data = tournament.to_dict()
        again = Tournament.from_dict(data)
        assert again.to_dict() == data and again == tournament
        if len(copies) < 1 and tournament.revision > 20:
            copies.append(again)

    simulate(t, results, start=T0, after=check)
    restored = copies[0]
    replayed = random_results(random.Random(0))

    def same_result(tournament: Tournament, match: object) -> Outcome:
        original = t.matches[match.id]  # type: ignore[attr-defined]
        if original.state is MatchState.WALKOVER:
            return Outcome(late=1 - (original.winner or 0))
        return Outcome((original.games[0], original.games[1]),
                       (original.tantos[0], original.tantos[1]))

    assert replayed
    simulate(restored, same_result, start=T0)
    assert restored.champion == t.champion
    assert [(m.id, m.winner_pair) for m in restored.matches.values()] \
        == [(m.id, m.winner_pair) for m in t.matches.values()]


def test_a_state_from_a_newer_musbot_or_damaged_is_refused() -> None:
    data = drawn(2).to_dict()
    with pytest.raises(TournamentError) as excinfo:
        Tournament.from_dict({**data, "version": STATE_VERSION + 1})
    assert code(excinfo) == "tournament_state_too_new"
    for broken in ({**data, "version": "1"}, {k: v for k, v in data.items() if k != "pairs"},
                   {**data, "phase": "paused"}):
        with pytest.raises(TournamentError) as excinfo:
            Tournament.from_dict(broken)
        assert code(excinfo) in ("tournament_bad_state", "tournament_state_too_new")


def test_forgetting_a_person_blanks_them_and_keeps_the_results() -> None:
    t = drawn(2)
    play(t, "W1-1", (3, 0))
    revision = t.revision
    assert t.forget(1000) and not t.forget(1000)
    assert t.revision == revision
    pair = next(p for p in t.pairs if None in p.players)
    assert pair.players[1] == 1001 and pair.names == (None, "Bea1001") and pair.key is None
    assert 1000 not in t.people() and 1000 not in t.entries
    assert t.matches["W1-1"].state is MatchState.FINISHED
    assert rated_results(t) == [], "a forgotten person's pair is no longer a stable pair"


def test_pair_ratings_rise_for_the_winner_and_fall_for_the_loser() -> None:
    start = ratings.initial()
    winner, loser = ratings.rate_pairs(start, start)
    assert winner[0] > start[0] > loser[0]
    assert winner[1] < start[1] and loser[1] < start[1]
    assert ratings.display(*winner) > ratings.display(*loser)


def test_a_person_is_invited_once_and_an_author_names_few_partners() -> None:
    """Issue 42: alternating «apuntarse pareja:@Fer» and «pareja:@Gorka» pinged Fer at each
    change. A person named as a partner is notified once per tournament (whoever names them),
    and one person names at most INVITES_PER_PERSON partners."""
    t = Tournament.new(Settings("T"), 3, now=T0)
    invited = []
    for partner in (10, 11, 10, 11, 10, 11):
        invited += [e.user for e in t.sign_up(1, "Eli", partner=partner, now=T0)
                    if e.kind is EventKind.INVITED]
    assert invited == [10, 11], "each told once, however often named"
    assert [e.kind for e in t.sign_up(2, "Jon", partner=10, now=T0)] == [EventKind.SIGNED_UP]
    t.sign_up(1, "Eli", partner=12, now=T0)
    with pytest.raises(TournamentError, match="tournament_invites_spent"):
        t.sign_up(1, "Eli", partner=13, now=T0)
    assert t.sign_up(1, "Eli", partner=10, now=T0), "one already named may be named again"
    again = Tournament.from_dict(t.to_dict())
    assert again.invited == t.invited
    assert again.forget(10) and all(10 not in named for named in again.invited.values())
