"""The live-table layer: one :class:`Table` per channel over the pure engine.

Its shape is python-chess's board with a runner around it: a :class:`TableState`
(``state.py``, with its seating and upkeep commands in ``lobby.py`` and ``upkeep.py``, the
four ways it is not played, asleep, hidden, paused or suspended, in ``halts.py``, its
turn clock as data in ``clockwork.py``, what its bots read of the players in ``readings.py``,
who alone sits at a tournament's match table in ``entry.py``)
changes only through commands that return a :class:`Result` (what happened, what to save, who
is told what) and never does I/O; one
:class:`Table` per table (``runner.py``) owns the lock, the clock, the bots' thinking time and
the order «save, then publish», speaking through a :class:`Transport` (Discord, the terminal,
tests) and saving through a ``Persist`` (``persist.py``).

«envido 5» typed in a table's channel, to the edited hand message, in five steps:

1. ``cogs/chat.py`` receives the message and routes it to the channel's table:
   ``table.typed(user, "envido 5", public=True)``.
2. The runner, under the table's lock, reads it with the one grammar (``musbot.grammar.read``:
   ``Move(envido(5))``) and gives it to ``TableState.move``, which has the engine apply it and
   returns a :class:`Result` (the ``Spoke`` event, its page line, the move to journal).
3. The runner saves it (``TablePersister.save``: the move appended to the table's journal)
   and only then publishes it: ``transport.changed(table)``.
4. The Discord transport (``musbot.discordio.boards``) marks the table's public face changed
   and asks the channel's governor for an edit of the hand's message (coalesced, within
   Discord's limits).
5. The governor makes the edit when the channel's budget allows: the face captured then (the
   page's lines so far, the status as facts: ``status.py``) and rendered
   (``musbot.discordio.embeds``, which words the status) shows «Ana: envido 5.». A refusal
   would have come back in step 2 as ``Typed.error``, worded for its author alone by the cog.
"""

from .clock import Clock, ManualClock, RealClock, settle
from .clockwork import MAX_EXPIRIES, REMINDER_SECONDS
from .languages import Speakers
from .manager import TableManager
from .page import Page
from .pause import NotSaved, Unsaved
from .result import Result, Save, Typed
from .runner import Persist, Table
from .seats import Seat, TableError
from .state import TableState
from .transport import DmClosed, Transport

__all__ = [
    "MAX_EXPIRIES", "REMINDER_SECONDS", "Clock", "DmClosed", "ManualClock", "NotSaved", "Page",
    "Persist", "RealClock", "Result", "Save", "Seat", "Speakers", "Table", "TableError",
    "TableManager", "TableState", "Transport", "Typed", "Unsaved", "settle",
]
