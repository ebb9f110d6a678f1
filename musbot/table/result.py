"""What one command of a :class:`~musbot.table.state.TableState` did, as a value: the engine's
events, what must be saved before anyone is told, and what each person is to be told privately.

The runner (:class:`~musbot.table.runner.Table`) reads it in one order: save, then publish. A
command that cannot be done changes nothing and says why (:attr:`Result.error`).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol

from musbot.engine import Action, MusError
from musbot.engine import events as ev
from musbot.engine.senas import Sena
from musbot.grammar import Command

if TYPE_CHECKING:
    from .readings import Exchanged
    from .runner import Table


class Save(enum.IntEnum):
    """What a change asks of storage, from least to most: moves append to the table's journal;
    anything else (a deal's cards, a seat, a seña, a note) needs the whole state."""

    NOTHING = 0
    MOVES = 1
    WHOLE = 2


@dataclass(frozen=True, slots=True)
class HandDealt:
    """New cards for a person's seat: their hand, by DM."""

    user_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class SenaShown:
    """A seña reached a person (their partner's, or an opponent's caught one)."""

    user_id: int
    sender: int
    sena: Sena
    caught: bool


@dataclass(frozen=True, slots=True)
class DiscardRound:
    """A discard round began: the person's hand with its pick controls."""

    user_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class Alert:
    """A public message that must reach one person now (their turn's reminder, «I cannot DM
    you»), worded from the table catalogue's ``key``; ``offer`` names a table button to add."""

    user_id: int
    key: str
    offer: str | None = None


@dataclass(frozen=True, slots=True)
class Direct:
    """A DM worded from the table catalogue's ``key`` (the table closed under them)."""

    user_id: int
    key: str


Notice = HandDealt | SenaShown | DiscardRound | Alert | Direct


@dataclass(slots=True)
class Result:
    """One command's outcome. ``shown``: the public face changed (a line, a seat, whose turn)."""

    events: list[ev.Event] = field(default_factory=list)
    save: Save = Save.NOTHING
    moves: list[tuple[int, Action]] = field(default_factory=list)
    """The moves applied, in order: with :attr:`save` at ``MOVES``, all there is to save."""
    notices: list[Notice] = field(default_factory=list)
    shown: bool = False
    error: MusError | None = None
    seat: int | None = None
    """The seat a command gave (sitting down, adding a bot)."""

    def need(self, save: Save) -> None:
        """At least ``save`` is due."""
        if save > self.save:
            self.save = save

    def merge(self, other: Result) -> None:
        """``other`` happened after this within the same command."""
        self.events += other.events
        self.moves += other.moves
        self.notices += other.notices
        self.need(other.save)
        self.shown = self.shown or other.shown
        if other.seat is not None:
            self.seat = other.seat

    @classmethod
    def refused(cls, error: MusError) -> Result:
        return cls(error=error)

    def check(self) -> Result:
        """The result, or its error raised (for callers that answer with exceptions)."""
        if self.error is not None:
            raise self.error
        return self


P = ParamSpec("P")


def command(method: Callable[P, Result]) -> Callable[P, Result]:
    """A state's command refuses with a coded error as its result; nothing was changed by
    then."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> Result:
        try:
            return method(*args, **kwargs)
        except MusError as error:
            return Result.refused(error)

    return run


@dataclass(frozen=True, slots=True)
class Typed:
    """What the table made of a person's typed words (:meth:`Table.typed`): ``command`` None
    for chat; ``error`` a refusal for the surface to word; ``text`` a private answer (their
    cards)."""

    command: Command | None
    error: MusError | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Saved:
    """What storing a change said besides «stored»."""

    ratings: Sequence[Any] = ()
    """The league ratings a finished match changed, to be announced."""
    recovered: bool = False
    """The database took this save after refusing one: paused tables may try again now."""
    readings: Exchanged | None = None
    """What storage did of the people's readings the table asked for
    (:meth:`~musbot.table.readings.TableReadings.exchange`)."""


class Persist(Protocol):
    """Where a table's changes are stored (``persist.py``): ``save`` returns once they are, or
    raises :class:`~musbot.table.pause.Unsaved` with the table as last stored."""

    async def save(self, table: Table, result: Result) -> Saved: ...


__all__ = ["Alert", "Direct", "DiscardRound", "HandDealt", "Notice", "Persist", "Result",
           "Save", "Saved", "SenaShown", "Typed", "command"]
