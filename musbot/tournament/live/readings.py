"""What the runner says and reads: the organiser's board, a result in one sentence, a
player's name, a deadline's zone, and a match's board from its table's notice."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from musbot.i18n import TXAPELKETA
from musbot.table import MatchNotice
from musbot.tournament import (
    EventKind,
    Fixture,
    MatchState,
    Tournament,
    TournamentError,
    TournamentEvent,
)
from musbot.tournament.board import ICONS
from musbot.tournament.board import board as round_board
from musbot.tournament.labels import Words

from .cup import Cup

BOARD_NEWS = frozenset({
    EventKind.DRAWN, EventKind.MATCH_READY, EventKind.MATCH_STARTED, EventKind.MATCH_DECIDED,
    EventKind.MATCH_REOPENED, EventKind.MATCH_PAUSED, EventKind.MATCH_RESUMED,
    EventKind.MATCH_WITHDRAWN, EventKind.RESULT_REPORTED, EventKind.RESULT_DISPUTED,
    EventKind.DEADLINE_PASSED, EventKind.DEADLINE_SET, EventKind.ROUND_PAIRED,
    EventKind.TIME_UP, EventKind.TIME_GIVEN,
    EventKind.KNOCKOUT_DRAWN, EventKind.DISQUALIFIED, EventKind.CHAMPION})
"""What changes a line of the organiser's board."""


BOARD_LIMIT = 2000


BOARD_KEYS = {"played": "board_played", "agreed": "board_agreed", "by_board": "board_by_board",
              "walkover": "board_walkover", "disputed": "board_disputed",
              "reported": "board_reported", "time_up": "board_time_up", "late": "board_late",
              "more_time": "board_more_time", "playing": "board_playing",
              "paused": "board_paused", "waiting": "board_waiting"}
"""A board line's sentence by the match's state (``TXAPELKETA.board_…``)."""


def board_text(cup: Cup, now: datetime) -> str:
    """The organiser's board in the tournament's language: a title with how many matches of
    the round are decided, then a line per match (its state's sign, its id, its pairs, its
    games or what it waits for), within one message."""
    t, lang = cup.tournament, cup.lang
    words = Words(t, lang)
    rows = round_board(t, now)
    done = sum(1 for r in rows if r.match.decided)
    lines = [TXAPELKETA("board_title", lang, name=cup.name, done=done, total=len(rows))]
    for row in rows:
        match = row.match
        games = f"{match.games[0]}–{match.games[1]}"
        if row.status == "reported" and match.report is not None:
            games = f"{match.report.games[0]}–{match.report.games[1]}"
        lines.append(TXAPELKETA(BOARD_KEYS[row.status], lang, icon=ICONS[row.status],
                                match=match.id, first=words.side(match, 0),
                                second=words.side(match, 1), games=games))
    text = "\n".join(lines)
    while len(text) > BOARD_LIMIT and len(lines) > 2:
        lines.pop()
        text = "\n".join(lines) + "\n…"
    return text


def zone_of(name: str) -> ZoneInfo:
    """The time zone a tournament's deadlines are written in; one the system does not know is
    the tournament's refusal (``tournament_bad_zone``)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise TournamentError("tournament_bad_zone", zone=name[:40]) from exc


def person_name(t: Tournament, user: int | None, words: Words) -> str:
    """A player's name as signed up (plain text for the venue to escape)."""
    for pair in t.pairs:
        if user is not None and user in pair.players:
            return words.person(pair.names[pair.players.index(user)])
    return words.person(None)


def late(match_id: str, sides: set[int]) -> Callable[[Tournament, datetime], list[TournamentEvent]]:
    """The change that gives a late pair's walkover (or game) at a match."""
    return lambda t, now: t.late(match_id, sides, now=now)


def result_line(words: Words, match: Fixture, lang: str) -> str:
    """A decided match in one sentence: its score, or how it was won without playing."""
    first, second = words.side(match, 0), words.side(match, 1)
    winner = words.side(match, match.winner or 0)
    if match.state is MatchState.WALKOVER and match.winner is None:
        return TXAPELKETA("result_double_walkover", lang, match=match.id, first=first,
                          second=second)
    if match.state is MatchState.WALKOVER:
        return TXAPELKETA("result_walkover", lang, match=match.id, winner=winner, first=first,
                          second=second)
    if "overtime" in match.flags:
        return TXAPELKETA("result_overtime", lang, match=match.id, first=first, second=second,
                          winner=winner, games=f"{match.games[0]}–{match.games[1]}")
    if match.state is MatchState.DISQUALIFIED:
        return TXAPELKETA("result_disqualified", lang, match=match.id, first=first, second=second,
                          winner=winner)
    return TXAPELKETA("result", lang, match=match.id, first=first, second=second,
                      games=f"{match.games[0]}–{match.games[1]}")


def board(notice: MatchNotice | None, match: Fixture
          ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A match's board while it is played, from its table's last notice: games won by each
    pair (those given for lateness included), tantos summed over its games (the one in play
    included), and the tantos of the game in play. Without a table that began, the games given
    for lateness alone."""
    if notice is None or not notice.playing:
        return (match.forfeits[0], match.forfeits[1]), (0, 0), (0, 0)
    _, finished = notice.score()
    playing = notice.tantos
    return notice.games, (finished[0] + playing[0], finished[1] + playing[1]), playing
