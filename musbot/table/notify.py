"""What each person at a table is told privately, and how one person's attention is called.

Private texts are built from one seat's view only (the engine's observer), so a hand can only
reach its owner; a seña reaches whoever :class:`~musbot.engine.senas.SenaLog` says saw it. A
closed DM is never a secret kept from the game: the channel is told, once a hand, without any
card, to use «Ver mis cartas».
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from musbot.commands import parse_sena
from musbot.engine import MusError, SeatView
from musbot.engine.senas import Sena, check_sena
from musbot.i18n import error_text

from . import render
from .transport import DmClosed

if TYPE_CHECKING:
    from .core import TableCore
    from .table import Table

log = logging.getLogger(__name__)


class Notifier:
    """The private side of one table; every method expects the table's lock held."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._texts: dict[int, tuple[tuple[Any, ...], str]] = {}
        """Each seat's last private text and what it was rendered from (see private_text)."""

    def private_text(self, seat: int) -> str:
        table = self.table
        assert table.match is not None
        view: SeatView = table.match.view(seat)
        names = table.names()
        received = [(names.get(seen.seat, "?"), seen.sena, not seen.partner)
                    for seen in table.senas.seen_by(seat)]
        allowed = table.senas_open()
        key = render.hand_text_key(view, names, received, allowed, table.lang)
        cached = self._texts.get(seat)
        if cached is not None and cached[0] == key:
            return cached[1]
        text = render.hand_text(view, names, received=received, senas_allowed=allowed,
                                lang=table.lang)
        self._texts[seat] = (key, text)
        return text

    async def send_hand(self, seat: int) -> bool:
        """The seat's new cards by DM; True if that is known to be impossible and the channel
        was told (once a hand: a change of state)."""
        table = self.table
        occupant = table.seats[seat]
        if occupant is None or occupant.user_id is None:
            return False
        text = self.private_text(seat)
        warned = False
        if not await self.private(occupant.user_id, text):
            warned = await self.dm_refused(seat)
        if table.transport.wants_view(table.channel_id, occupant.user_id):
            await self._view(occupant.user_id, text)
        return warned

    async def update_views(self) -> None:
        for seat in range(self.table.players):
            await self.update_view(seat)

    async def update_view(self, seat: int) -> None:
        table = self.table
        occupant = table.seats[seat]
        if occupant is None or occupant.user_id is None or table.match is None:
            return
        if table.transport.wants_view(table.channel_id, occupant.user_id):
            await self._view(occupant.user_id, self.private_text(seat))

    async def sena(self, receiver: int, sender: int, sena: Sena, *, caught: bool) -> None:
        """A seña for one receiver: a bot has it in the table's log already; a person by DM.
        A closed DM is not announced: even saying «X got a seña» would tell the table."""
        table = self.table
        occupant = table.seats[receiver]
        if occupant is None or occupant.user_id is None:
            return
        text = render.sena_text(table.names().get(sender, "?"), sena, caught=caught,
                                lang=table.lang)
        await self.private(occupant.user_id, text)
        await self.update_view(receiver)

    async def dm_refused(self, seat: int) -> bool:
        """The seat's person cannot get DMs: the channel is told, once a hand. True if it was
        told now (the seat's state changed)."""
        table = self.table
        occupant = table.seats[seat]
        if occupant is None or occupant.user_id is None or occupant.dm_warned:
            return False
        occupant.dm_warned = True
        table.mark_changed()
        await self.alert(occupant.user_id, render.t(
            "dm_closed", table.lang, mention=table.transport.mention(occupant.user_id)),
            offer="cards")
        return True

    async def alert(self, user_id: int, text: str, *, offer: str | None = None) -> None:
        table = self.table
        try:
            await table.transport.alert(table.channel_id, user_id, text, offer=offer)
        except Exception:
            log.warning("alert failed on table %s", table.channel_id, exc_info=True)

    async def private(self, user_id: int, text: str) -> bool:
        """A DM; False when it is known it cannot be delivered. The text is never logged:
        it holds cards."""
        table = self.table
        try:
            await table.transport.private(table.channel_id, user_id, text)
        except DmClosed:
            return False
        except Exception:
            log.warning("private message failed on table %s", table.channel_id, exc_info=True)
            return False
        return True

    async def reply_error(self, user_id: int, error: MusError) -> None:
        table = self.table
        text = error_text(error, table.lang, table.names())
        if "card" in error.params:
            # An error naming a card says something about a hand: only its owner reads it.
            if await self.private(user_id, text):
                return
            text = render.t("dm_closed", table.lang, mention=table.transport.mention(user_id))
        try:
            await table.transport.reply(table.channel_id, user_id, text)
        except Exception:
            log.warning("reply failed on table %s", table.channel_id, exc_info=True)

    async def _view(self, user_id: int, text: str) -> None:
        table = self.table
        try:
            await table.transport.update_view(table.channel_id, user_id, text)
        except Exception:
            log.warning("view update failed on table %s", table.channel_id, exc_info=True)


class SenaCommands:
    """The señas of :class:`~musbot.table.Table` (a mixin): a person's, checked by the
    engine's rules (§7) and delivered to whoever saw it."""

    async def send_sena(self: TableCore, user_id: int, name: str | Sena) -> Sena:
        """Sends a seña to the partner(s) if the hand shows it (§7); maybe caught by one
        opponent. The sender is told nothing beyond the returned seña. Saved before anyone
        receives it."""
        async with self._lock:
            seat = self._require_seat(user_id)
            self._require_match()
            sena = parse_sena(name) if isinstance(name, str) else name
            self._check_sena(seat, sena)
            self._require_saving()
            receivers = self._record_sena(seat, sena)
            await self._changed()
            await self._tell_sena(seat, sena, receivers)
            return sena

    def _check_sena(self: TableCore, seat: int, sena: Sena) -> None:
        match = self._require_match()
        hand = match.hand
        check_sena(self.rules, corrido=hand.corrido, finished=hand.finished,
                   cards=match.view(seat).cards, sena=sena, sent=self.senas.sent_by(seat))

    def _record_sena(self: TableCore, seat: int, sena: Sena) -> list[tuple[int, bool]]:
        """The seña in the table's log (state, to be saved); who receives it, and whether as
        an opponent who caught it."""
        self.mark_changed()
        return self.senas.send(self.rules, seat, sena, self.rng)

    async def _tell_sena(self: TableCore, seat: int, sena: Sena,
                         receivers: list[tuple[int, bool]]) -> None:
        """Once the seña is saved: each receiver is told."""
        for receiver, caught in receivers:
            await self.notify.sena(receiver, seat, sena, caught=caught)
