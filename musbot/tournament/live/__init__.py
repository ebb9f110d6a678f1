"""Runs a bot's tournaments (:mod:`musbot.tournament`) on live tables: each change applied,
saved, then acted on; a table per match, opened for its four players only, whose finished
match is the match's result; the grace time and the round's time on the bot's clock (a round
time up decides the match by its table's board, :func:`board`); sign-ups closed and drawn at
their deadline. No Discord here: a :class:`Venue` makes the places where the tables are played
and shows the news and the bracket (threads on Discord, ``musbot.discordio.venue``; plain
channel ids in ``musbot bench txapelketa``).

One order for every change, as for a table's moves: under the tournament's lock, the change is
made on the state, the state is saved (:meth:`Database.save_tournament`), and only then are
its events acted on (a table opened, a result told). A change that cannot be saved is undone
(the state read back) and raised. After a restart, :meth:`TournamentRunner.start` looks at
each tournament in play and does what its saved state asks and was not done: a match ready
without its table gets one (in the place it had, if it had one: never two), a table whose
match ended while the bot was down gives its result, a table whose match was decided
meanwhile closes. Nothing is done twice: every change of the state is idempotent.

A match's table is a table like any other (its clock, its bots for a missed turn), set to the
tournament's rules with one vaca of the match's games, so the score of games is carried from
game to game on the table (:attr:`musbot.tournament.Settings.table_rules`); only its four
players may sit, each with their partner, and it begins when the four have sat down. A game
of which a bot played every move of a person's seat (the person missed
:data:`~musbot.table.MAX_EXPIRIES` turns, or left, and was not back before the game ended)
flags the match for the organiser.

A match's table is heard only through its notices (:class:`musbot.table.MatchNotice`, built
under the table's lock from what it saved): begun, over (its games, tantos and flag, and the
table's stored match, which holds the result: the tournament refers to it, see
:mod:`musbot.storage.tournaments`), closed, out of reach or back; nothing of the table's state
or records is read here (``tests/test_layers.py``).

The parts: :mod:`.cup` (a tournament in play, its venue), :mod:`.base` (one change applied,
saved, acted on), :mod:`.tables` (a match's own table, its notices), :mod:`.runner` (start-up,
events, time) and :mod:`.readings` (the board, a result's sentence). Unlike the rest of
:mod:`musbot.tournament`, this is the adapter: it runs on asyncio, the tables and storage.
"""

from .cup import LEFT, WHEN, Cup, Lacking, Venue, Wall, entrants_of, match_key, wall_clock
from .readings import (
    board,
    board_text,
    person_name,
    result_line,
    zone_of,
)
from .runner import TournamentRunner

__all__ = ["LEFT", "WHEN", "Cup", "Lacking", "TournamentRunner", "Venue", "Wall", "board",
           "board_text", "entrants_of", "match_key", "person_name", "result_line", "wall_clock",
           "zone_of"]
