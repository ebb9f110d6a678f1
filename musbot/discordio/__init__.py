"""Discord adapter of the table layer: the transport (channel, table message, DMs) and the
persistent buttons. The cogs in ``cogs/`` use these; the rules stay in :mod:`musbot.engine`."""

from .transport import Board, DiscordTransport, reply_via
from .ui import DYNAMIC_ITEMS

__all__ = ["DYNAMIC_ITEMS", "Board", "DiscordTransport", "reply_via"]
