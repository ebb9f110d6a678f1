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

The walk of «envido 5», typed in a table's channel, to the edited hand message:

1. The cog ``cogs.chat.Chat.on_table_message`` receives the message and hands it to the
   channel's table: ``musbot.table.runner.Table.typed`` (``public=True``).
2. Under the table's lock, ``musbot.table.typed_words.typed`` reads it with the one grammar,
   ``musbot.grammar.moves.read`` (``Move(envido(5))``), and gives it to
   ``musbot.table.state.TableState.move``.
3. ``musbot.table.state.TableState.apply`` has the engine apply it,
   ``musbot.engine.match.Match.apply`` (``musbot.engine.hand.Hand.apply``: the envite, its
   events), and returns a :class:`Result` (the ``Spoke`` event, its page line, the move to save).
   A refusal comes back as ``Typed.error``, worded for its author alone by the cog.
4. ``musbot.table.runner.Table._commit`` saves it first:
   ``musbot.table.persist.TablePersister.save`` appends the move to the table's journal
   (``musbot.storage.live.LiveTables.append_to_journal``).
5. Only then it publishes: ``musbot.table.publish.publish`` calls the transport,
   ``musbot.discordio.transport.DiscordTransport.changed``, whose boards
   (``musbot.discordio.boards.Boards.changed``) capture the snapshot of what was saved,
   ``musbot.discordio.embeds.Snapshot.capture``, and ask for an edit of the hand's message.
6. ``musbot.discordio.boards.Boards._edit_page`` hands the edit to the channel's governor,
   ``musbot.discordio.governor.Governor.edit``, which makes it when Discord's limits allow: the
   snapshot rendered by ``musbot.discordio.embeds.render_page`` shows «Ana: envido 5.».

A tournament match's table tells its tournament through the same saved state: after the save
and the publishing, :meth:`Table._commit <musbot.table.runner.Table._commit>` hands its
immutable notice (``notice.py``) to the manager's subscribers (the walk of a match's end:
:mod:`musbot.tournament`).
"""

from .clock import Clock, ManualClock, RealClock, settle
from .clockwork import MAX_EXPIRIES, REMINDER_SECONDS
from .languages import Speakers
from .manager import TableManager
from .notice import MatchNotice
from .page import Page
from .pause import NotSaved, Unsaved
from .result import Result, Save, Typed
from .runner import Persist, Table
from .seats import Seat, TableError
from .state import TableState
from .transport import DmClosed, Transport

__all__ = [
    "MAX_EXPIRIES", "REMINDER_SECONDS", "Clock", "DmClosed", "ManualClock", "MatchNotice",
    "NotSaved", "Page",
    "Persist", "RealClock", "Result", "Save", "Seat", "Speakers", "Table", "TableError",
    "TableManager", "TableState", "Transport", "Typed", "Unsaved", "settle",
]
