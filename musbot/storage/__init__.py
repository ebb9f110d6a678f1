"""Persistence for musbot (issue #4): one SQLite file, opened with :class:`Database`.

Every public method is a coroutine and one transaction, written as one synchronous function of
the connection: writes run on the event loop's own connection, reads on aiosqlite's thread (see
``Connection._write`` and ``Connection._fetch`` for why). The schema lives in
numbered migrations under ``migrations/`` (see ``connection.py`` for how a file is checked and
upgraded). How the other layers use it::

    db = await Database.open("data/musbot.db")      # CorruptDatabase / DatabaseTooNew / ...
    for table in await db.load_tables():              # restore tables after a restart
        ...
    await db.save_table(channel_id, guild_id, state)  # after a change: the whole state
    await db.append_to_journal(channel_id, [move])    # or, after a plain move, just the move
    match_id = await db.start_match(seats, rules=rules, league_id=league_id, key=table_match_id)
    await db.record_hand(match_id, number, hand.transcript(), hand.result())  # after each hand
    changes = await db.record_finished_match(match_id, winner, final_score=match.summary())
    await db.delete_table(channel_id)                 # when the table closes

Ratings: ``ratings.py`` (OpenSkill Plackett-Luce; display = 1000 + 40·(mu - 3·sigma)).
"""

from .connection import DEFAULT_PATH, SCHEMA_VERSION
from .database import Database
from .errors import (
    AlreadyMember,
    ChartUnavailable,
    ConflictingHand,
    CorruptDatabase,
    DatabaseClosed,
    DatabaseLocked,
    DatabaseTooNew,
    ForeignDatabase,
    LeagueExists,
    MatchFinished,
    StorageError,
    UnknownLeague,
    UnknownMatch,
    UnknownSeason,
)
from .models import (
    League,
    LiveTable,
    MatchSummary,
    Partner,
    Profile,
    RatingChange,
    RatingPoint,
    Season,
    SeatRecord,
    SeatResult,
    ServerSettings,
    Standing,
)
from .ratings import display as display_rating

__all__ = [
    "DEFAULT_PATH",
    "SCHEMA_VERSION",
    "AlreadyMember",
    "ChartUnavailable",
    "ConflictingHand",
    "CorruptDatabase",
    "Database",
    "DatabaseClosed",
    "DatabaseLocked",
    "DatabaseTooNew",
    "ForeignDatabase",
    "League",
    "LeagueExists",
    "LiveTable",
    "MatchFinished",
    "MatchSummary",
    "Partner",
    "Profile",
    "RatingChange",
    "RatingPoint",
    "Season",
    "SeatRecord",
    "SeatResult",
    "ServerSettings",
    "Standing",
    "StorageError",
    "UnknownLeague",
    "UnknownMatch",
    "UnknownSeason",
    "display_rating",
]
