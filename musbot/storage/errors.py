"""What can go wrong with the database, one class per thing the caller must handle differently.

Every failure of a driver (sqlite3, aiosqlite, asyncpg) or of the disk under it reaches the rest
of musbot as one of these, never raw: each backend translates its own
(:func:`musbot.storage.sqlite_file.translate`, :func:`musbot.storage.postgres.translate`), the
driver's error kept as ``__cause__`` for the log. Each class has a ``code``: the
key of its sentence in the i18n catalogs (``SERVER``), which the one error path words
(``musbot.discordio.failures``), as the engine's errors are worded by their codes.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

Where = Path | str
"""A database as messages name it: an SQLite file, or a PostgreSQL URL without its password."""


class StorageError(Exception):
    """Base class of every error raised by :mod:`musbot.storage`."""

    code: ClassVar[str] = "db_error"
    """The sentence that tells a person about it (``SERVER`` catalog)."""


class DriverError(StorageError):
    """A driver's failure that none of the classes below names (an unexpected answer of the
    server, a statement SQLite refused): a bug more likely than an outage, logged with the
    driver's error as its cause."""


class DatabaseTooNew(StorageError):
    """The database was written by a newer musbot: running old code on it could lose data."""

    code = "db_too_new"

    def __init__(self, where: Where, found: int, known: int) -> None:
        super().__init__(
            f"{where}: database schema version {found} is newer than this musbot knows "
            f"(up to {known}); upgrade musbot. The database was not modified."
        )
        self.where, self.found, self.known = where, found, known


class CorruptDatabase(StorageError):
    """The file is not an SQLite database or fails its integrity check; it is left untouched so
    that it can be restored from a backup or salvaged (``sqlite3 FILE .recover``)."""

    code = "db_corrupt"

    def __init__(self, where: Where, detail: str) -> None:
        super().__init__(f"{where}: the database is damaged ({detail}); the file was not modified")
        self.where, self.detail = where, detail


class ForeignDatabase(StorageError):
    """A database with tables but no musbot schema record: probably the wrong path or URL."""

    code = "db_foreign"

    def __init__(self, where: Where) -> None:
        super().__init__(f"{where}: this database was not created by musbot (it has tables but "
                         "no musbot schema record); refusing to use it")
        self.where = where


class DatabaseLocked(StorageError):
    """Another process kept the database locked for longer than the busy timeout. Nothing was
    written: the caller may try again later."""

    code = "db_locked"

    def __init__(self, where: Where, timeout: float) -> None:
        super().__init__(
            f"{where}: the database is locked by another process (waited {timeout:g} s); "
            "is another musbot running on the same file?"
        )
        self.where, self.timeout = where, timeout


class DatabaseUnavailable(DatabaseLocked):
    """The database server could not be reached, dropped the connection, or kept failing the
    transaction for contention. A :class:`DatabaseLocked` because the caller does the same: try
    again later (a write whose connection dropped may have been committed, which every write's
    retry allows). Also what the disk says under SQLite: the file cannot be opened, read or
    written (an I/O error, a read-only file system, permissions)."""

    code = "db_unavailable"

    def __init__(self, where: Where, detail: str) -> None:
        StorageError.__init__(self, f"{where}: the database is unavailable ({detail})")
        self.where, self.timeout, self.detail = where, 0.0, detail


class DatabaseFull(DatabaseUnavailable):
    """The disk under the database is full (SQLite's file, PostgreSQL's data directory):
    nothing was written; writes work again once there is room."""

    code = "db_full"

    def __init__(self, where: Where, detail: str) -> None:
        StorageError.__init__(self, f"{where}: the database's disk is full ({detail})")
        self.where, self.timeout, self.detail = where, 0.0, detail


class DatabaseClosed(StorageError):
    """The :class:`~musbot.storage.Database` was used before ``open()`` or after ``close()``."""

    code = "db_closed"


class ConstraintViolation(StorageError):
    """A write broke one of the schema's constraints (a unique key, a reference, a check); the
    transaction was rolled back. The storage methods turn the ones a caller can expect into
    their own errors (:class:`LeagueExists`, :class:`AlreadyMember`)."""

    code = "db_constraint"


class NotificationsUnavailable(StorageError):
    """Publish/subscribe between processes needs PostgreSQL."""

    def __init__(self, dialect: str) -> None:
        super().__init__(
            f"notify/listen need PostgreSQL (MUSBOT_DB=postgresql://…); this database is "
            f"{dialect}, where one process runs the bot and has nobody to notify")
        self.dialect = dialect


class TargetNotEmpty(StorageError):
    """``musbot db copy`` fills only an empty database."""

    def __init__(self, where: Where, rows: int, tables: int) -> None:
        super().__init__(
            f"{where} already holds data ({rows} rows in {tables} tables) that differs from "
            "the source: musbot db copy only fills an empty database. Nothing was changed.")
        self.where, self.rows, self.tables = where, rows, tables


class CopyMismatch(StorageError):
    """What ``musbot db copy`` wrote did not read back as the source: nothing was kept."""

    def __init__(self, where: Where) -> None:
        super().__init__(f"{where}: the copy did not read back as the source (row counts or a "
                         "hand's text differ); it was rolled back, the target is as it was")
        self.where = where


class UnknownLeague(StorageError):
    """No league by that name (or id) in this server."""

    def __init__(self, league: str | int) -> None:
        super().__init__(f"unknown league: {league!r}")
        self.league = league


class LeagueExists(StorageError):
    """League names are unique per server (case-insensitively)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a league named {name!r} already exists in this server")
        self.name = name


class AlreadyMember(StorageError):
    """The player already belongs to the league."""

    def __init__(self, league: str, user_id: int) -> None:
        super().__init__(f"user {user_id} is already a member of league {league!r}")
        self.league, self.user_id = league, user_id


class UnknownSeason(StorageError):
    """The league has no season with that number."""

    def __init__(self, league_id: int, number: int) -> None:
        super().__init__(f"league {league_id} has no season {number}")
        self.league_id, self.number = league_id, number


class UnknownMatch(StorageError):
    """No match with that id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"unknown match: {match_id}")
        self.match_id = match_id


class MatchFinished(StorageError):
    """The match was already finished or abandoned; its record is final."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} is already finished")
        self.match_id = match_id


class ConflictingHand(StorageError):
    """A different hand was already recorded under that match and number."""

    def __init__(self, match_id: int, number: int) -> None:
        super().__init__(f"match {match_id} already has a different hand number {number}")
        self.match_id, self.number = match_id, number


class ChartUnavailable(StorageError):
    """Rating charts need matplotlib, an optional dependency."""

    def __init__(self) -> None:
        super().__init__("rating charts need matplotlib: pip install 'musbot[charts]'")


class UnknownTournament(StorageError):
    """No tournament by that name (or id) in this server."""

    def __init__(self, tournament: str | int) -> None:
        super().__init__(f"unknown tournament: {tournament!r}")
        self.tournament = tournament


class TournamentExists(StorageError):
    """Tournament names are unique per server (ignoring case and accents)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a tournament named {name!r} already exists in this server")
        self.name = name


class UnrecordedMatch(StorageError):
    """A tournament match said decided by its table, whose stored match is not finished (or not
    there): the result it would refer to is not stored yet, so the tournament's save is refused
    and the match waits for its table's records."""

    def __init__(self, tournament_id: int, match_id: str, key: str) -> None:
        super().__init__(f"tournament {tournament_id}: match {match_id} refers to the table's "
                         f"match {key!r}, which is not stored as finished; not saved")
        self.tournament_id, self.match_id, self.key = tournament_id, match_id, key


class StaleTournament(StorageError):
    """A save of an older state than the one stored (a late retry, or two writers): refused, so
    that what was recorded after it is not lost."""

    def __init__(self, tournament_id: int, stored: int, given: int) -> None:
        super().__init__(f"tournament {tournament_id}: revision {given} is older than the "
                         f"stored {stored}; not saved")
        self.tournament_id, self.stored, self.given = tournament_id, stored, given
