"""One tournament's whole state and every change to it (see the package docstring for the
life of a tournament): the state and its machinery are :class:`.core.Core`, the changes one
mixin per concern, the formats one strategy each (:mod:`.formats`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .clock import MORE_TIME, Deadlines, Due, Reminder
from .errors import TournamentError
from .formats import MAX_PAIRS, group_label, group_sizes
from .model import Fixture, Pair, Signup, Stage
from .organiser import Organiser
from .playing import Playing
from .reports import Reports
from .settings import Settings
from .signups import SignUps
from .timestamps import stamp

STATE_VERSION = 1
"""Of :meth:`Tournament.to_dict`'s document; a newer one is refused, an older one upgraded."""

__all__ = ["MAX_PAIRS", "MORE_TIME", "STATE_VERSION", "Due", "Reminder", "Tournament",
           "group_label", "group_sizes"]


class Tournament(SignUps, Playing, Reports, Deadlines, Organiser):
    """A tournament: sign-ups, then the draw, then matches until a champion. Every change is a
    method that takes the time it happens at and returns the :class:`TournamentEvent` list it
    caused (an empty list: it changed nothing, so a repeated call after a restart is harmless);
    bad input raises :class:`TournamentError` and changes nothing."""

    @classmethod
    def new(cls, settings: Settings, seed: int, *, now: datetime) -> Tournament:
        return cls(settings, seed, stamp(now))

    # --- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON values; :meth:`from_dict` gives back an equal tournament."""
        return {"version": STATE_VERSION, "settings": self.settings.to_dict(),
                "seed": self.seed, "created_at": self.created_at, "phase": self.phase.value,
                "revision": self.revision, "drawn_at": self.drawn_at,
                "finished_at": self.finished_at, "cancelled": self.cancelled,
                "plan": dict(self.plan),
                "entries": [e.to_json() for e in self.entries.values()],
                "unpaired": list(self.unpaired),
                "pairs": [p.to_json() for p in self.pairs],
                "matches": [m.to_json() for m in self.matches.values()],
                **({"invited": [[author, list(named)] for author, named in
                                sorted(self.invited.items())]} if self.invited else {}),
                **({"log": [dict(entry) for entry in self.log]} if self.log else {}),
                **({"deadlines": dict(self.deadlines)} if self.deadlines else {})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        version = data.get("version")
        if not isinstance(version, int) or version < 1:
            raise TournamentError("tournament_bad_state")
        if version > STATE_VERSION:
            raise TournamentError("tournament_state_too_new", version=version,
                                  known=STATE_VERSION)
        try:
            return cls(Settings.from_dict(data["settings"]), int(data["seed"]),
                       str(data["created_at"]), phase=Stage(data["phase"]),
                       entries=[Signup.from_json(e) for e in data["entries"]],
                       pairs=[Pair.from_json(p) for p in data["pairs"]],
                       matches=[Fixture.from_json(m) for m in data["matches"]],
                       unpaired=[int(u) for u in data["unpaired"]], plan=data["plan"],
                       drawn_at=data["drawn_at"], finished_at=data["finished_at"],
                       cancelled=data["cancelled"], revision=int(data["revision"]),
                       invited={int(a): named for a, named in data.get("invited", [])},
                       log=data.get("log", []), deadlines=data.get("deadlines"))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, TournamentError):
                raise
            raise TournamentError("tournament_bad_state") from exc

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tournament) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Tournament({self.settings.name!r}, {self.settings.format.value}, "
                f"{self.phase.value}, {len(self.pairs)} pairs, {len(self.matches)} matches)")
