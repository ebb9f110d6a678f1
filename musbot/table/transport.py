"""What a table needs from the outside world: somewhere to show its record, to speak privately,
and to call one person's attention.

Discord implements it with one live message per hand, DMs and ephemeral replies (within
Discord's rate limits, see ``musbot.discordio``); the terminal with print(); tests with lists.
The table never knows which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .table import Table


class DmClosed(Exception):
    """A private message could not be delivered (the user blocks DMs). The table then tells the
    channel, without any card, to use «Ver mis cartas»."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"cannot send private messages to user {user_id}")
        self.user_id = user_id


@runtime_checkable
class Transport(Protocol):
    def changed(self, table: Table) -> None:
        """The table's public face changed: its page (``table.page``, the lines of the hand in
        play), its status, who may do what. Called with that change saved and the table's
        state consistent: what to show must be read now (later the table may be ahead of what
        is saved). Showing it may wait (coalesced with later changes), never block."""
        ...

    async def alert(self, channel_id: int, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        """A public message that must reach one person now (their turn's reminder, «I cannot
        DM you»): addressed to them, outside the page. ``offer`` names a table button the
        transport may add (``"cards"``: «Ver mis cartas»)."""
        ...

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        """A message only ``user_id`` sees (a DM) about the table in ``channel_id``. Raises
        :class:`DmClosed` if it is known it cannot be delivered; a refusal found out later is
        reported with :meth:`Table.private_refused`."""
        ...

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        """An answer to one user's command (an error): ephemeral where the transport can, else
        in the channel addressed to them, briefly."""
        ...

    def wants_view(self, channel_id: int, user_id: int) -> bool:
        """Whether :meth:`update_view` would show the text now. Rendering four private texts
        after every move is most of a busy table's work, and a transport that shows the text
        on demand (Discord's «Ver mis cartas» asks the table) needs it only while something
        displays it."""
        ...

    async def update_view(self, channel_id: int, user_id: int, text: str) -> None:
        """The user's private «Ver mis cartas» text changed (new cards, a seña, their turn);
        called only when :meth:`wants_view` says so."""
        ...

    def mention(self, user_id: int) -> str:
        """How to address a user in a public message (``<@id>`` on Discord)."""
        ...
