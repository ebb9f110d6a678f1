"""Txapelketak: tournaments of pairs, from sign-up to champions. Pure: no I/O, no asyncio, no
Discord; the whole state is one JSON document.

The life of a tournament, and what its runner (:mod:`.live`, on live tables) calls::

    settings = Settings.create("Txapelketa 2025", format=Format.DOUBLE, games_to_win=3,
                               deadline=deadline)   # TournamentError if impossible
    t = Tournament.new(settings, seed=secrets.randbits(32), now=now)
    t.sign_up(ane, "Ane", partner=bea, now=now)   # an invitation ...
    t.sign_up(bea, "Bea", partner=ane, now=now)   # ... confirmed: events include PAIRED
    t.sign_up(koldo, "Koldo", now=now)            # alone: drawn a partner at the draw
    t.withdraw(koldo, now=now)
    events = t.draw(now=now, ratings=pair_ratings)  # {pair_key(a, b): display rating}
    t.start(match_id, now=now)                  # the four sat down at the match's table
    t.record(match_id, (3, 1), (131, 87), now=now, bot_game=False)   # the table's result
    for due in t.due(now):                      # grace time passed: the runner checks who
        t.late(due.match, {1}, now=now)         # sat down; walkover, or a game, as set
        t.overtime(due.match, (1, 1), (57, 60), playing=(12, 20), now=now)  # time up:
                                                # the organiser is asked (TIME_UP), or, if
                                                # the settings say so, the board decides
    t.more_time(match_id, now=now), t.by_board(match_id, games, tantos, playing=..., now=now)
    t.set_result(...), t.replay(...), t.disqualify(pair_id, reason, now=now), t.cancel(...)
    t.champion, t.finalist                      # once t.phase is Stage.FINISHED
    Tournament.from_dict(t.to_dict()) == t      # what storage keeps (musbot.storage)

What the runner does with the events: ``MATCH_READY`` opens the match's table (a thread),
set to :attr:`Settings.table_rules` (one vaca of ``games_to_win`` games; games already given
for lateness are in :attr:`Fixture.forfeits`), mentioning the four players of
:attr:`Tournament.pairs`; ``MATCH_DECIDED`` closes it and redraws the bracket
(:func:`.picture.render` with ``matches=`` for just the pages concerned, and
:func:`.text.bracket_text` for screen readers); ``MATCH_WITHDRAWN`` closes a table opened for a
match that a replay took back; ``BOT_FLAGGED``, ``BOTH_LATE``, ``OVERTIME_LEVEL``, ``TIME_UP``
(with the organiser's choices) and ``DISQUALIFIED`` are for the organiser; ``CHAMPION`` ends
it. The runner saves the state after every change, with the events' effects done once the
save is committed (a restart then redoes nothing twice: a repeated change returns no events).

Every change takes the time it happens at and returns the list of :class:`TournamentEvent` it
caused; an empty list means it changed nothing, so repeating a change after a restart (the same
result recorded twice, a walkover called again) is harmless, while a conflicting one (another
result for a decided match) raises. Errors are :class:`TournamentError` codes, worded by
:func:`musbot.i18n.error_text`.

A match goes pending → ready (both pairs known, and neither has an earlier match to play) →
playing → finished, walkover or disqualified; a bye is a slot with one pair, which goes
through without playing (:class:`MatchState`). Results move the winners on, and in double
elimination the losers into the repesca (:mod:`.brackets`); the format's later rounds are made
when their time comes (the Swiss rounds, the knockout after the groups, the grand final's
second match). Each format is one strategy (:mod:`.formats`: what the draw makes, what a
decided match starts, who has won, what a replay takes back); the seeding, the brackets and
the tie-breaks are described in :mod:`.settings`, :mod:`.brackets`, :mod:`.standings` and
:mod:`.swiss`. :class:`Tournament` is its state and machinery (:mod:`.core`) with one mixin per
kind of change: :mod:`.signups`, :mod:`.playing`, :mod:`.reports`, :mod:`.clock`,
:mod:`.organiser`.

Pair ratings (OpenSkill, kept by storage) are :func:`musbot.storage.ratings.rate_pairs`;
:func:`rated_results` lists the matches of a finished tournament that count for them (played
to the end, no walkover, no bot playing a whole game). :func:`.simulate.simulate` plays a
tournament with a result function (the tests; ``musbot bench txapelketa`` to come).

The walk of a tournament match's end, from its table's last point to the board:

1. The last point: ``musbot.engine.match.Match.apply`` ends the vaca, and
   ``musbot.table.state.TableState.apply`` sets the table finished and queues the match's
   «finish» record (``musbot.table.records.MatchRecords.add``).
2. The table saves before anything is shown: ``musbot.table.runner.Table._commit`` has
   ``musbot.table.persist.TablePersister.save`` store the state and the records, the table's
   stored match finished (``musbot.storage.matches.Matches.record_finished_match``).
3. Under the table's lock, ``musbot.table.runner.Table._commit`` builds the «match over»
   notice from that saved state (``musbot.table.notice.notice_of``: games played, tantos, the
   bot's flag, the stored match's key) and ``musbot.table.manager.TableManager._tell`` hands it
   to the subscribers.
4. The runner hears it: ``musbot.tournament.live.tables.MatchTables._heard`` and, under the
   tournament's lock, ``musbot.tournament.live.tables.MatchTables._table_news`` makes the
   change ``musbot.tournament.playing.Playing.record`` (``musbot.table.notice.MatchNotice.score``
   plus the games given for lateness) through ``musbot.tournament.live.base.RunnerBase._change``:
   the match decided (``musbot.tournament.core.Core._decide``), the next ones ready.
5. The change is saved: ``musbot.storage.tournaments.Tournaments.save_tournament``, whose
   state refers to the table's stored match for the result (``musbot.storage.tournaments._refer``:
   stored once, read back by ``musbot.storage.tournaments._read_back``).
6. Only then its events are acted on, ``musbot.tournament.live.runner.TournamentRunner._act``:
   the table closed (``musbot.tournament.live.tables.MatchTables._close_table``), the result told
   (``musbot.discordio.venue.DiscordVenue.news``), the organiser's board edited
   (``musbot.discordio.venue.DiscordVenue.board`` with
   ``musbot.tournament.live.readings.board_text``) and the bracket's pages drawn again
   (``musbot.discordio.venue.DiscordVenue.bracket``).
"""

from .errors import ResultConflict, TournamentError
from .model import (
    DECIDED,
    PLAYED,
    Bracket,
    EventKind,
    Fixture,
    MatchState,
    Pair,
    PairKey,
    Report,
    Signup,
    Source,
    Stage,
    TournamentEvent,
    pair_key,
)
from .results import PairResult, rated_results
from .settings import (
    BASQUE_RULES,
    AtDeadline,
    Format,
    KnockoutDraw,
    Lateness,
    Reporting,
    Seeding,
    Settings,
)
from .standings import PairStanding
from .timestamps import parse_time, stamp
from .tournament import MAX_PAIRS, STATE_VERSION, Due, Reminder, Tournament, group_label

__all__ = [
    "BASQUE_RULES",
    "DECIDED",
    "MAX_PAIRS",
    "PLAYED",
    "STATE_VERSION",
    "AtDeadline",
    "Bracket",
    "Due",
    "EventKind",
    "Fixture",
    "Format",
    "KnockoutDraw",
    "Lateness",
    "MatchState",
    "Pair",
    "PairKey",
    "PairResult",
    "PairStanding",
    "Reminder",
    "Report",
    "Reporting",
    "ResultConflict",
    "Seeding",
    "Settings",
    "Signup",
    "Source",
    "Stage",
    "Tournament",
    "TournamentError",
    "TournamentEvent",
    "group_label",
    "pair_key",
    "parse_time",
    "rated_results",
    "stamp",
]
