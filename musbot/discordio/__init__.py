"""Discord adapter of the table layer: the rules stay in :mod:`musbot.engine`, the cogs in
``cogs/`` use this. Its modules, from the bottom up (each imports only from below its own:
``DISCORD_LAYERS`` in ``tests/test_layers.py``):

1. The words and Discord's limits: ``texts``, ``markup`` (names shown as text), ``locales`` (each
   person's language), ``guard`` (discord.py's HTTP door: a lost permission), ``governor`` (every
   REST call within Discord's limits), ``card_emojis``, ``translator``, ``drawing``.
2. ``failures`` (the one error path) and ``bookkeeping`` (what a table does after a call).
3. The buttons: ``callbacks``, ``discard``, ``ui``.
4. ``embeds`` (a page as a message) and ``messenger`` (one person's messages: DMs, brief replies,
   «Ver mis cartas»).
5. ``boards``: every table channel's messages, kept current.
6. ``access`` (a table whose channel refused the bot pauses, and resumes) and ``idle`` (a table
   where nothing happens closes).
7. ``transport``: the table layer's :class:`~musbot.table.Transport`, built from the parts
   above, each given what it uses when it is built.
8. What Discord brings in: ``direct`` (words sent by DM), ``venue`` (a tournament's threads),
   ``relay`` (shard 0's DMs for another process's tables).

Names (one word for one thing):

- *page* (:class:`musbot.table.Page`): what a table shows as one unit, a hand or the lobby.
- *board* (:class:`Board`): one table channel as the bot shows it (its live page, the last
  finished ones, whom it calls); *boards* (:class:`~.boards.Boards`): every one,
  ``transport.boards``.
- *page message* (:class:`~.boards.PageMessage`): one Discord message showing a page from one of
  its lines on (a long page goes on in another); :class:`~.boards.PageMessages`: a page and the
  messages that show it.
- *snapshot* (:class:`~.embeds.Snapshot`): what a table published after its last saved change,
  immutable; a page message is rendered from it, never from the live table.
- *rendered message* (:class:`~.embeds.RenderedMessage`): one page message's embed and buttons,
  and its signature (an equal signature: no edit).
- *view*: here only ever a ``discord.ui.View``, the buttons under a message (``ui.page_view``,
  ``ui.hand_view``). The engine's ``SeatView`` (what one seat may know of a hand) and the table's
  ``TableView`` (the read side of a ``Table``) keep their names outside this package.
- *messenger* (:class:`~.messenger.Messenger`): whatever is said to one person; *direct*: a DM
  that is not a table's hand.

Its part of the two walks (told whole in :mod:`musbot.table` and :mod:`musbot.tournament`): a
move saved at a table is published to ``musbot.discordio.transport.DiscordTransport.changed``;
``musbot.discordio.boards.Boards.changed`` captures its snapshot
(``musbot.discordio.embeds.Snapshot.capture``) and ``musbot.discordio.governor.Governor.edit``
edits the page message when Discord's limits allow, rendered by
``musbot.discordio.embeds.render_page``. A tournament's match decided, its runner tells the
venue: ``musbot.discordio.venue.DiscordVenue.news``, ``musbot.discordio.venue.DiscordVenue.board``
and ``musbot.discordio.venue.DiscordVenue.bracket``.
"""

from typing import Any

import discord

from .boards import Board
from .discard import DISCARD_ITEMS
from .transport import DiscordTransport
from .ui import TABLE_ITEMS

DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*TABLE_ITEMS, *DISCARD_ITEMS)
"""Register at start-up: ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``."""

__all__ = ["DYNAMIC_ITEMS", "Board", "DiscordTransport"]
