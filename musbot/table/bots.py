"""The bots of one table: when they play, what they decide, what they learn.

A bot sees only its seat's view and the señas that reached it (``musbot.ai``). With a think
time (Discord: people follow the moves) a bot plays from a task of its own, thinking outside the
table's lock, so people may still ask for their cards or send señas meanwhile; and it plays only
if the turn is still the one it thought about. Without one (tests, the terminal) bots answer
within the move that handed them the turn.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from musbot.ai import make_player
from musbot.ai.base import hand_over
from musbot.engine import Action, Hand, MusError
from musbot.engine.senas import Sena

from .pause import NotSaved

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger(__name__)


class Bots:
    """Every bot seat of one table, and people's seats while a bot plays them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._task: asyncio.Task[None] | None = None

    def decide(self, seat: int) -> Action:
        table = self.table
        match = table._require_match()
        occupant = table.seats[seat]
        player = occupant.bot if occupant is not None and occupant.bot is not None else None
        player = player or make_player(table.bot_level)
        return player.decide(match.view(seat), table.rng, table.senas.seen_by(seat))

    def schedule(self) -> None:
        """A bot's turn, played after its think time (lock held by the caller)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._turn(self.table.turn))

    async def _turn(self, turn: int) -> None:
        table = self.table
        try:
            await table.clock.sleep(table.bot_delay)
            async with table._lock:
                if self._task is asyncio.current_task():
                    self._task = None
                match = table.match
                if turn != table.turn or table.state != "playing" or match is None \
                        or table.paused:
                    return
                seat = match.to_act
                occupant = table.seats[seat] if seat is not None else None
                if seat is None or occupant is None or not occupant.bot_plays:
                    return
                await table._advance(table._apply(seat, self.decide(seat)))
        except NotSaved:
            pass  # undone, the table paused: the bot plays again once it goes on
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot must never take the table down: the clock still runs
            log.exception("bot move failed on table %s", table.channel_id)

    def cancel(self) -> None:
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def hand_over(self, hand: Hand, number: int) -> None:
        """Bots that learn from showdowns (``hand_over``, see :class:`~musbot.ai.Player`) get
        their own seat's view of the hand just ended, as a person at the table sees it. What
        they learn lives in memory only: a restored table's bots start afresh."""
        table = self.table
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.bot is None:
                continue
            try:
                hand_over(occupant.bot, hand, seat, number)
            except Exception:  # a bot's bookkeeping must never stop the table
                log.exception("bot hand_over failed on table %s", table.channel_id)

    def choose_senas(self) -> list[tuple[int, Sena, list[tuple[int, bool]]]]:
        """The bots' señas on new cards, recorded in the table's log (a change of state): each
        with its receivers, to be told once the table is saved."""
        table = self.table
        match = table.match
        if match is None or not table.senas_open():
            return []
        made = []
        for seat, occupant in enumerate(table.seats):
            if occupant is None or occupant.human or occupant.bot is None:
                continue
            for sena in occupant.bot.choose_senas(match.view(seat), table.rng):
                try:
                    table._check_sena(seat, sena)
                except MusError:
                    continue
                made.append((seat, sena, table._record_sena(seat, sena)))
        return made
