"""Persistence for musbot (issue #4): one SQLite file by default, or a PostgreSQL database when
the bot outgrows one process (``MUSBOT_DB=postgresql://…``), opened with :class:`Database`.

Every public method is a coroutine and one transaction, written once for both backends against
a small transaction interface (:mod:`.tx`); each backend runs it its own way (:mod:`.sqlite`:
writes on the event loop's own connection, reads on aiosqlite's thread; :mod:`.postgres`: a
pool, serializable writes retried after a conflict). The schema lives in numbered migrations
under ``migrations/`` (:mod:`.schema`). The facade (:mod:`.database`) is made of one mixin per
concern: :mod:`.players`, :mod:`.servers`, :mod:`.live`, :mod:`.matches`, :mod:`.leagues`,
:mod:`.profiles`, :mod:`.tournaments` (its docstring shows how a tournament is kept). How the
other layers use it::

    db = await Database.open("data/musbot.db")      # CorruptDatabase / DatabaseTooNew / ...
    for table in await db.load_tables():              # restore tables after a restart
        ...
    await db.save_table(channel_id, guild_id, state)  # after a change: the whole state
    await db.append_to_journal(channel_id, [move])    # or, after a plain move, just the move
    match_id = await db.start_match(seats, rules=rules, league_id=league_id, key=table_match_id)
    await db.record_hand(match_id, number, hand.transcript(), hand.result(),  # after each hand
                         [o.to_dict() for o in hand.ordagos()])
    changes = await db.record_finished_match(match_id, winner, final_score=match.summary())
    await db.delete_table(channel_id)                 # when the table closes

Ratings: ``ratings.py`` (OpenSkill Plackett-Luce; display = 1000 + 40·(mu - 3·sigma)).
"""

from .database import Database
from .errors import (
    AlreadyMember,
    ChartUnavailable,
    ConflictingHand,
    ConstraintViolation,
    CopyMismatch,
    CorruptDatabase,
    DatabaseClosed,
    DatabaseFull,
    DatabaseLocked,
    DatabaseTooNew,
    DatabaseUnavailable,
    DriverError,
    ForeignDatabase,
    LeagueExists,
    MatchFinished,
    NotificationsUnavailable,
    StaleTournament,
    StorageError,
    TargetNotEmpty,
    TournamentExists,
    UnknownLeague,
    UnknownMatch,
    UnknownSeason,
    UnknownTournament,
    UnrecordedMatch,
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
    TablePlace,
    shard_of,
)
from .ratings import display as display_rating
from .schema import SCHEMA_VERSION
from .sqlite import DEFAULT_PATH
from .tournaments import HallOfFameEntry, PairRating, StoredTournament

__all__ = [
    "DEFAULT_PATH",
    "SCHEMA_VERSION",
    "AlreadyMember",
    "ChartUnavailable",
    "ConflictingHand",
    "ConstraintViolation",
    "CopyMismatch",
    "CorruptDatabase",
    "Database",
    "DatabaseClosed",
    "DatabaseFull",
    "DatabaseLocked",
    "DatabaseTooNew",
    "DatabaseUnavailable",
    "DriverError",
    "ForeignDatabase",
    "HallOfFameEntry",
    "League",
    "LeagueExists",
    "LiveTable",
    "MatchFinished",
    "MatchSummary",
    "NotificationsUnavailable",
    "PairRating",
    "Partner",
    "Profile",
    "RatingChange",
    "RatingPoint",
    "Season",
    "SeatRecord",
    "SeatResult",
    "ServerSettings",
    "StaleTournament",
    "Standing",
    "StorageError",
    "StoredTournament",
    "TablePlace",
    "TargetNotEmpty",
    "TournamentExists",
    "UnknownLeague",
    "UnknownMatch",
    "UnknownSeason",
    "UnknownTournament",
    "UnrecordedMatch",
    "display_rating",
    "shard_of",
]
