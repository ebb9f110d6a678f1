"""What can go wrong in a tournament, as codes with parameters (like the engine's errors): the
adapters word them in the server's language through the ``ERRORS`` catalogues
(:func:`musbot.i18n.error_text`), so the core makes no language decision."""

from __future__ import annotations

from musbot.engine.errors import MusError


class TournamentError(MusError):
    """Settings, a sign-up or an organiser's action that the tournament cannot take now. Every
    code starts with ``tournament_`` (keys of the ``ERRORS`` catalogues)."""


class ResultConflict(TournamentError):
    """A second, different result for a match already decided (the same result again is not an
    error: recording is idempotent, so a restart may repeat it)."""

    def __init__(self, match: str) -> None:
        super().__init__("tournament_result_conflict", match=match)
        self.match = match
