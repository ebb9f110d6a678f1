"""The four ways a table is not being played, each with one cause and one way back. Nothing
is played in any of them: no turn clock runs, no bot thinks, no move is taken. This module is
where they are named, and where the table's own side of each is made (pure, like the state's
commands); the glossary in :mod:`musbot` points here.

- *asleep*: restored after a restart, its channel not seen yet by the gateway (the bot's
  ``bot.storage.Sleepers`` keeps them). Back: the channel is seen; the table wakes
  (:func:`resume`, «mesa restaurada»).
- *hidden*: its channel was lost to the bot, a permission taken away or the channel deleted
  (``discordio.access`` calls :func:`hide`). Back: the channel is seen again (:func:`unhide`).
- *paused*: a change could not be saved (``pause.py``'s ``Unsaved``; :func:`pause`). Back: a
  save is stored (``pause.Backoff`` tries again; :func:`unpause`).
- *suspended*: the bot is stopping (``Table.suspend``, ``TableManager.suspend_all``): saved,
  its clock and bots stopped. Back: the next start, which restores it asleep.
"""

from __future__ import annotations

from musbot.i18n import TABLE

from .result import Result, Save
from .state import TableState


def resume(state: TableState, *, announce: bool = True) -> Result:
    """Asleep, woken after a restart: say so; the turn clock starts afresh (nobody could speak
    meanwhile)."""
    if state.lifecycle == "closed":
        return Result()
    state.deadline = None
    if not announce:
        return Result(shown=True)
    state.say("restored")
    return Result(save=Save.WHOLE, shown=True)


def pause(state: TableState) -> None:
    """A change could not be saved (``pause.py``): the table waits for its database, and its
    page says so once (a second failure in a row says nothing new)."""
    state.paused = True
    notice = TABLE("paused_db", state.lang)
    notes = state.page.notes
    if not notes or notes[-1][1] != notice:
        state.pages.note(notice)


def unpause(state: TableState) -> Result:
    """The table tries its database again, saying it plays on: done once that is saved."""
    state.paused = False
    state.say("resumed_db")
    return Result(save=Save.WHOLE, shown=True)


def hide(state: TableState, reason: str) -> bool:
    """Nobody can see the table now (its transport lost its channel): nothing happens by itself
    until :func:`unhide`. The turn clock stops, the bots wait, moves are refused
    (``table_paused``, with ``reason``, a short text in the table's language). Nothing of the
    saved state changes: a restart plays on, and pauses again if need be. False if it was
    hidden already, or closed."""
    if state.hidden is not None or state.lifecycle == "closed":
        return False
    state.hidden = reason
    return True


def unhide(state: TableState) -> Result:
    """The table can be seen again: its page says it was paused, and play goes on where it
    stopped (the bots whose turn it is, the person to act with a whole turn's time)."""
    reason, state.hidden = state.hidden, None
    if reason is None or state.lifecycle == "closed":
        return Result()
    state.deadline = None
    state.say("unpaused", reason=reason)
    return Result(save=Save.WHOLE, shown=True)


__all__ = ["hide", "pause", "resume", "unhide", "unpause"]
