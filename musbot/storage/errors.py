"""What can go wrong with the database, one class per thing the caller must handle differently."""

from __future__ import annotations

from pathlib import Path


class StorageError(Exception):
    """Base class of every error raised by :mod:`musbot.storage`."""


class DatabaseTooNew(StorageError):
    """The file was written by a newer musbot: running old code on it could lose data."""

    def __init__(self, path: Path, found: int, known: int) -> None:
        super().__init__(
            f"{path}: database schema version {found} is newer than this musbot knows "
            f"(up to {known}); upgrade musbot. The file was not modified."
        )
        self.path, self.found, self.known = path, found, known


class CorruptDatabase(StorageError):
    """The file is not an SQLite database or fails its integrity check; it is left untouched so
    that it can be restored from a backup or salvaged (``sqlite3 FILE .recover``)."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"{path}: the database is damaged ({detail}); the file was not modified")
        self.path, self.detail = path, detail


class ForeignDatabase(StorageError):
    """An SQLite file with tables but no musbot schema record: probably the wrong path."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: this SQLite file was not created by musbot; refusing to use it")
        self.path = path


class DatabaseLocked(StorageError):
    """Another process kept the database locked for longer than the busy timeout."""

    def __init__(self, path: Path, timeout: float) -> None:
        super().__init__(
            f"{path}: the database is locked by another process (waited {timeout:g} s); "
            "is another musbot running on the same file?"
        )
        self.path, self.timeout = path, timeout


class DatabaseClosed(StorageError):
    """The :class:`~musbot.storage.Database` was used before ``open()`` or after ``close()``."""


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
