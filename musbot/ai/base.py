"""The seam between the table and any AI: a player sees one seat's view and answers an action.

A player never receives the engine's state, only :class:`~musbot.engine.SeatView` (own cards and
public history) and the señas that reached its seat, so an AI cannot cheat by construction and a
stronger level plugs in by implementing the same two methods (and, to learn from showdowns, the
optional ``hand_over``). A level that plays each person as they play (``reads_table``, «dificil»)
also gets, through :func:`ask`, what its table's :class:`~musbot.ai.memory.OpponentMemory` learnt
of each seat from the showdowns: public knowledge, as any player at the table has.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from musbot.engine import Action, Hand, SeatView
from musbot.engine.senas import Sena, SenaSeen

if TYPE_CHECKING:
    from .reading import OpponentModel

__all__ = ["SENA_PRIORITY", "Player", "SenaSeen", "ask", "hand_over", "heavy"]


@runtime_checkable
class Player(Protocol):
    """Anything that can sit at a table in place of a person."""

    level: str

    def decide(self, view: SeatView, rng: random.Random,
               senas: Sequence[SenaSeen] = ()) -> Action:
        """One of ``view.legal`` (``envido``/``más`` with any amount ≥ 2); only called on the
        seat's turn."""
        ...

    def choose_senas(self, view: SeatView, rng: random.Random) -> list[Sena]:
        """Señas to send the partner now, among those the hand shows (the table checks)."""
        ...

    # Optional, so not part of the protocol's required members: ``hand_over(view) -> None``,
    # called (through :func:`hand_over`) by the table and the bench after every hand with the
    # seat's own view of the hand just finished (``revealed`` holds every hand after a
    # showdown). A bot learns there what a person at the table learns: how the others' words
    # matched their cards. What it learns lives only in memory. Two optional flags: a
    # ``reads_table`` player's ``decide`` also takes ``models=`` (see :func:`ask`), and a
    # ``heavy`` one thinks for milliseconds, so a table runs it off its event loop.


def ask(player: Player, view: SeatView, rng: random.Random, senas: Sequence[SenaSeen] = (),
        models: Sequence[OpponentModel] | None = None) -> Action:
    """The player's move; a player that reads the table (``reads_table``) also gets ``models``,
    per seat what the table learnt of how that player bets."""
    if models is not None and getattr(player, "reads_table", False):
        decide = player.decide
        return decide(view, rng, senas, models=models)  # type: ignore[call-arg]
    return player.decide(view, rng, senas)


def heavy(player: object) -> bool:
    """Whether the player's decisions take milliseconds rather than microseconds (a table runs
    those off its event loop)."""
    return bool(getattr(player, "heavy", False))


def hand_over(player: object, hand: Hand, seat: int, number: int) -> None:
    """Gives a bot that learns from showdowns its seat's view of the hand just ended, as a
    person at the table sees it (every hand if there was a showdown, nobody else's otherwise);
    a player without ``hand_over`` (a person: None) is skipped."""
    hook = getattr(player, "hand_over", None)
    if hook is not None:
        hook(hand.view(seat, hand_number=number))


SENA_PRIORITY: tuple[Sena, ...] = (
    Sena.REAL, Sena.SOLOMILLO, Sena.DUPLES, Sena.TREINTA_Y_UNA, Sena.TRES_REYES, Sena.MEDIAS,
    Sena.TRES_ASES, Sena.DOS_REYES, Sena.DOS_ASES, Sena.TREINTA, Sena.CIEGO,
)
"""Which seña a bot sends when its hand shows several: the most telling first."""
