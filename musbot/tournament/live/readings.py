"""What the runner says and reads: the organiser's board, a result in one sentence, a
player's name, a deadline's zone, and a match table's board and score."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from musbot.i18n import TXAPELKETA
from musbot.table import Table
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
    EventKind.KNOCKOUT_DRAWN, EventKind.DISQUALIFIED, EventKind.CHAMPION})
"""What changes a line of the organiser's board."""


BOARD_LIMIT = 2000


BOARD_KEYS = {"played": "board_played", "agreed": "board_agreed", "walkover": "board_walkover",
              "disputed": "board_disputed", "reported": "board_reported", "late": "board_late",
              "playing": "board_playing", "paused": "board_paused", "waiting": "board_waiting"}
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


def board(table: Table | None, match: Fixture
          ) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A match's board while it is played: games won by each pair (those given for lateness
    included), tantos summed over its games (the one in play included), and the tantos of
    the game in play. Without a table that began, the games given for lateness alone."""
    if table is None or table.lifecycle != "playing" or table.match is None:
        return (match.forfeits[0], match.forfeits[1]), (0, 0), (0, 0)
    played = table.match
    _, finished = table_score(table)
    playing = (played.scores[0], played.scores[1])
    return ((played.games[0], played.games[1]),
            (finished[0] + playing[0], finished[1] + playing[1]), playing)


def table_score(table: Table) -> tuple[tuple[int, int], tuple[int, int]]:
    """A finished match table's games played (each pair's, from its finished games: the games
    given for lateness are the tournament's) and tantos (summed over those games)."""
    match = table.match
    assert match is not None
    games = [0, 0]
    tantos = [0, 0]
    for winner, first, second in match.games_played:
        games[winner] += 1
        tantos[0] += first
        tantos[1] += second
    return (games[0], games[1]), (tantos[0], tantos[1])


def bot_played(table: Table) -> bool:
    """Whether a bot played a whole game of this match in a person's place (every move of
    their seat in that game: they left, or missed turn after turn and did not come back before
    the game ended): the match is flagged for the organiser."""
    return table.state.records.bot_game
