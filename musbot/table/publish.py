"""Publishing a saved change: the table's public face to its transport, and each private notice
to the one person it is for, worded from what the state holds now: the page in the table's
language, each private notice in its reader's (:meth:`Table.lang_for`).

Called by the runner alone, after the change is saved. The outside world failing never stops the
table: a refused DM is reported back (the channel is then told, without any card, to use «Ver
mis cartas»), anything else is logged.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from musbot.i18n import TABLE

from . import texts
from .clockwork import REMINDER_SECONDS
from .result import Alert, Direct, DiscardRound, HandDealt, Notice, Result, SenaShown
from .transport import DmClosed

if TYPE_CHECKING:
    from .runner import Table

log = logging.getLogger(__name__)


async def publish(table: Table, result: Result) -> list[int]:
    """Shows ``result``; returns the people whose new hand could not reach them by DM."""
    transport = table.transport
    if result.shown:
        transport.changed(table)
    # A seña that came with a deal is in that hand's DM already: one DM per event.
    dealt = {notice.user_id for notice in result.notices if isinstance(notice, HandDealt)}
    refused = [notice.user_id for notice in result.notices
               if not (isinstance(notice, SenaShown) and notice.user_id in dealt)
               and not await _notify(table, notice)]
    if result.events:
        for user_id in table.humans():
            transport.private_changed(table, user_id)
    return refused


async def _notify(table: Table, notice: Notice) -> bool:
    """One private notice; False when a hand could not reach its owner by DM."""
    state, transport = table.state, table.transport
    own = table.lang_for(notice.user_id)
    try:
        if isinstance(notice, HandDealt):
            await transport.private(table, notice.user_id,
                                    texts.private_text(state, notice.seat, own), cards=True)
        elif isinstance(notice, SenaShown):
            await transport.private(table, notice.user_id, texts.sena_text(
                state, notice.sender, notice.sena, caught=notice.caught, lang=own))
            transport.private_changed(table, notice.user_id)
        elif isinstance(notice, DiscardRound):
            await transport.discard_round(table, notice.user_id,
                                          texts.private_text(state, notice.seat, own))
        elif isinstance(notice, Alert):  # in the channel: the table's language
            await transport.alert(table, notice.user_id, TABLE(
                notice.key, table.lang, mention=transport.mention(notice.user_id),
                seconds=int(REMINDER_SECONDS)), offer=notice.offer)
        elif isinstance(notice, Direct):
            await transport.private(table, notice.user_id, TABLE(notice.key, own))
    except DmClosed:
        return not isinstance(notice, HandDealt)
    except Exception:  # the outside world failing must not stop the table
        log.warning("%s failed at table %s", type(notice).__name__, table.channel_id,
                    exc_info=True)
        return not isinstance(notice, HandDealt)
    return True


__all__ = ["publish"]
