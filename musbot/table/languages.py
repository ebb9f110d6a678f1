"""Who reads what in which language: a table speaks its own (the server's, ``/musadmin config
idioma``) in public, and each person their own in what only they read (their hand, the señas
they receive, their refusals, their private answers).

A person's own language is the one they chose (``/mus idioma``, saved; the adapter loads it
into :class:`Speakers` when they sit down, when a restored table comes back and when they
choose), else their client's (Discord's ``interaction.locale``, seen on their last
interaction, when it is one of ours: Discord has no Basque locale, so Basque is always a
choice), else none, and then the table's. Knowing a person's language needs no I/O: a
table words a DM under its lock.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any, Final

from musbot.i18n import LANGUAGE_CODES, language_of_locale

CLIENTS_KEPT: Final = 50_000
"""Client languages remembered (people seen lately); the oldest go first past this, and are
seen again on their next interaction."""


class Speakers:
    """Each person's own language, as far as this process knows it."""

    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}
        """Chosen and saved (``/mus idioma``): loaded for the people who sit or choose."""
        self._client: dict[int, str] = {}
        """Their Discord client's language, from their last interaction (not saved)."""
        self._known: dict[int, None] = {}
        """Whose saved choice was read (an ordered set: the oldest go first past
        :data:`CLIENTS_KEPT`, and are read again when next needed)."""

    def language(self, user_id: int) -> str | None:
        """The person's own language, or None (then the table's, or the server's)."""
        return self._chosen.get(user_id) or self._client.get(user_id)

    def chosen(self, user_id: int) -> str | None:
        return self._chosen.get(user_id)

    def known(self, user_id: int) -> bool:
        """Whether the person's saved choice was read (:meth:`loaded`)."""
        return user_id in self._known

    def saw_locale(self, user_id: int, locale: str | None) -> str | None:
        """A client's locale seen on one of the person's interactions (``fr``, ``es-ES``,
        ``de``); returns the language it maps to, if it is one of ours."""
        language = language_of_locale(locale)
        if language is None:
            self._client.pop(user_id, None)
            return None
        _keep(self._client, user_id, language)
        return language

    def choose(self, user_id: int, language: str | None) -> None:
        """The person's saved choice (None: they have none, or forgot it)."""
        if language is None:
            self._chosen.pop(user_id, None)
            return
        if language not in LANGUAGE_CODES:
            raise ValueError(f"unknown language {language!r}")
        self._chosen[user_id] = language

    def loaded(self, users: Iterable[int], chosen: Mapping[int, str]) -> None:
        """The saved choices of ``users`` as the database holds them (those absent chose
        none)."""
        for user_id in users:
            self.choose(user_id, chosen.get(user_id))
            _keep(self._known, user_id, None)

    def forget(self, user_id: int) -> None:
        """``/mus olvidarme``: nothing of the person is kept."""
        self._chosen.pop(user_id, None)
        self._client.pop(user_id, None)
        self._known.pop(user_id, None)


def _keep(lately: dict[int, Any], user_id: int, value: Any) -> None:
    """``lately[user_id] = value`` as the newest entry; past :data:`CLIENTS_KEPT`, the oldest
    tenth goes (at once, so that the cost is spread over the insertions)."""
    lately.pop(user_id, None)
    lately[user_id] = value
    if len(lately) > CLIENTS_KEPT:
        for old in list(itertools.islice(lately, len(lately) - CLIENTS_KEPT * 9 // 10)):
            del lately[old]


__all__ = ["CLIENTS_KEPT", "Speakers"]
