"""What a seated person types, read by the one grammar and done as the table's command: pure,
like the state's own commands (``state.py``).

The same words in the table's channel (``public``: only moves and «vuelvo»), by DM or in the
terminal; discards by position are read against the cards the person holds right now, which is
why reading happens with the table's lock held, in its runner.
"""

from __future__ import annotations

from musbot.engine import MusError
from musbot.grammar import Command, Move, Request, SendSena, read

from . import lobby
from .pause import NotSaved
from .result import Result
from .state import TableState

CARDS = Request("cards")
COME_BACK = Request("come_back")


def typed(state: TableState, user_id: int, text: str, *, public: bool = False
          ) -> tuple[Command | None, Result | None]:
    """The command ``text`` is (None: chat) and its result (None: nothing for the table to
    do, as for «cartas» or a word the terminal answers itself, «ayuda»). Anything typed by
    someone not seated is chat, and so is a move while no match is in play; a near miss of a
    command is refused while one is."""
    seat = state.seat_of(user_id)
    if seat is None:
        return None, None
    match = state.match
    playing = state.lifecycle == "playing"
    hand = match.view(seat).cards if match is not None and not match.finished else None
    try:
        command = read(text, hand, public=public)
    except MusError as error:
        return None, Result.refused(error) if playing else None
    if command is None or (isinstance(command, Move) and not playing):
        return None, None
    if isinstance(command, Request) and command != COME_BACK:
        return command, None
    if state.paused:
        return command, Result.refused(NotSaved())
    if isinstance(command, Move):
        return command, state.move(user_id, command.action)
    if isinstance(command, SendSena):
        return command, state.send_sena(user_id, command.sena)
    return command, lobby.come_back(state, user_id)


__all__ = ["CARDS", "COME_BACK", "typed"]
