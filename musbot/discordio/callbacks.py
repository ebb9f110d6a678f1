"""What every button's callback shares: the bot's services it reaches through
``interaction.client``, and the guard that answers any failure (the one error path)."""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from musbot.table import Page, Table, TableError, TableManager

from .failures import guarded


class Acknowledger(Protocol):
    """What the callbacks need of the transport (``musbot.discordio.transport``)."""

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer a button pressed on a table's message: the page brought up to date."""
        ...

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any], text: str) -> None:
        """A «Ver mis cartas» answer (showing ``text``) to keep current while its token
        lives."""
        ...

    def page(self, channel_id: int, number: int) -> Page | None:
        """The channel's page ``number``, if it is still kept."""
        ...


class Forwarder(Protocol):
    """What the callbacks need of a sharded bot's relay (``relay.py``)."""

    async def forward_press(self, interaction: discord.Interaction[Any], channel_id: int
                            ) -> bool:
        """A press in a DM on shard 0 for another process's table: relayed to it (True)."""
        ...


class Services(Protocol):
    """What ``interaction.client`` offers the callbacks (:class:`musbot.bot.MusBot` does)."""

    tables: TableManager
    transport: Acknowledger
    relay: Forwarder | None
    """Sharded: brings a press on a DM's buttons to the process that owns its table."""


def services(interaction: discord.Interaction[Any]) -> Services:
    return cast(Services, interaction.client)


class Guarded:
    """Every button's callback goes through :func:`~musbot.discordio.failures.guarded`: a
    failure is answered, never left to «The application did not respond»."""

    channel_id: int

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, self.channel_id, lambda: self.run(interaction))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


async def table_or_say(interaction: discord.Interaction[Any], channel_id: int) -> Table:
    """The table the button speaks of; refused (and so answered) when it is gone."""
    table = services(interaction).tables.get(channel_id)
    if table is None:
        raise TableError("no_table")
    return table


def release(view: discord.ui.View | None) -> None:
    """Unlinks a sent one-off view from its buttons. A view and its items point at each other, so
    without this every discard prompt (four per mus round at every table) is a reference cycle
    left to the garbage collector, whose young collections then took milliseconds and stalled
    every table. Its buttons are DynamicItems: discord.py keeps nothing of the view once sent,
    and the view still lists them."""
    if view is None:
        return
    for item in view.children:
        item._update_view(None)
        inner = getattr(item, "item", None)
        if isinstance(inner, discord.ui.Item):
            inner._update_view(None)
