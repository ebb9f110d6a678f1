"""What a seated person sends the bot by DM: ``descarto 1 3``, ``seña dos reyes``, ``cartas``,
``vuelvo`` and any move, for the table where they have something to do
(:meth:`~musbot.table.TableManager.table_for`). The same steps whether the DM reached this
process or was relayed from shard 0 (``relay.py``); every answer goes by DM, naming the table
when the person sits at more than one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from musbot.grammar import Request, SendSena
from musbot.i18n import DISCORD
from musbot.table import Table, TableManager
from musbot.table.render import sena_name
from musbot.table.typed_words import CARDS, COME_BACK

from .discard import discard_view, emojis_of
from .failures import refuse_direct
from .texts import error
from .transport import DiscordTransport


class DirectMessages:
    """Words sent by DM to the tables of ``tables``, answered through ``transport``;
    ``awake(table)`` wakes a restored table first (False: it cannot be yet)."""

    def __init__(self, tables: TableManager, transport: DiscordTransport,
                 awake: Callable[[Table], Awaitable[bool]]) -> None:
        self.tables = tables
        self.transport = transport
        self.awake = awake

    async def handle(self, user_id: int, text: str, table: Table, ambiguous: bool) -> None:
        """A DM for ``table`` (``ambiguous``: the person sits at another table too)."""
        transport = self.transport
        lang = table.lang_for(user_id)
        where = " " + self.which_table(table, lang) if ambiguous else ""
        if not await self.awake(table):
            await transport.direct(user_id, error("table_restoring", lang) + where)
            return
        outcome = await table.typed(user_id, text)
        if outcome.error is not None:
            await refuse_direct(transport, user_id, outcome.error, table, where)
        elif outcome.command == CARDS and outcome.text is not None:
            await transport.direct(user_id, outcome.text + where,
                                   view=discard_view(table, user_id,
                                                     emojis=emojis_of(transport.client)))
        elif isinstance(outcome.command, SendSena):
            await transport.direct(user_id, DISCORD("sena_sent", lang,
                                                    sena=sena_name(outcome.command.sena, lang))
                                   + where)
        elif outcome.command is None or \
                (isinstance(outcome.command, Request) and outcome.command != COME_BACK):
            await transport.direct(user_id, DISCORD("dm_unknown", lang) + where)

    def which_table(self, table: Table, lang: str) -> str:
        """«(mesa de #mus en Txoko)»: the table a DM's answer speaks of."""
        channel = self.transport.client.get_channel(table.channel_id)
        guild = getattr(channel, "guild", None)
        name = getattr(channel, "name", None)
        if guild is None or name is None:
            return ""
        return DISCORD("which_table", lang, channel=name, guild=guild.name)


__all__ = ["DirectMessages"]
