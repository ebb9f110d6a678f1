"""Discord adapter of the table layer: the transport (channel, table message, DMs), the
persistent buttons, names shown as text (``markup``), and what a lost permission does (``guard``
at discord.py's HTTP door, ``access`` for the tables). The cogs in ``cogs/`` use these; the
rules stay in :mod:`musbot.engine`."""

from typing import Any

import discord

from .discard import DISCARD_ITEMS
from .transport import Board, DiscordTransport
from .ui import TABLE_ITEMS

DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*TABLE_ITEMS, *DISCARD_ITEMS)
"""Register at start-up: ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``."""

__all__ = ["DYNAMIC_ITEMS", "Board", "DiscordTransport"]
