"""What a table needs from the outside world: somewhere to show its record, to speak privately,
and to call one person's attention.

Discord implements it with one live message per hand, DMs and ephemeral answers (within
Discord's rate limits, see ``musbot.discordio``); the terminal with print(); tests with lists.
The table never knows which. Every call is made by the table's runner with the table's state
saved and as the call speaks of it: what to show must be read now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .runner import Table


class DmClosed(Exception):
    """A private message could not be delivered (the user blocks DMs). The table then tells the
    channel, without any card, to use «Ver mis cartas»."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"cannot send private messages to user {user_id}")
        self.user_id = user_id


@runtime_checkable
class Transport(Protocol):
    def changed(self, table: Table) -> None:
        """The table's public face changed: its page (``table.page``), its status, who may do
        what. Showing it may wait (coalesced with later changes), never block."""
        ...

    async def alert(self, table: Table, user_id: int, text: str, *,
                    offer: str | None = None) -> None:
        """A public message that must reach one person now (their turn's reminder, «I cannot
        DM you»), outside the page. ``offer`` names a table button the transport may add
        (``"cards"``: «Ver mis cartas»)."""
        ...

    async def private(self, table: Table, user_id: int, text: str, *,
                      cards: bool = False) -> None:
        """A message only ``user_id`` sees (a DM) about ``table``; ``cards``: it is their hand
        (dealt, or new cards after a discard). Raises :class:`DmClosed` if it is known it
        cannot be delivered; a refusal found out later is reported with
        :meth:`Table.private_refused`."""
        ...

    def private_changed(self, table: Table, user_id: int) -> None:
        """The person's private text (``table.private_text(user_id)``) may have changed: a
        transport that keeps one on display refreshes it; it is not rendered otherwise."""
        ...

    async def discard_round(self, table: Table, user_id: int, text: str) -> None:
        """A discard round began: the person's hand (``text``) with whatever lets them pick
        cards where the transport has it (Discord: buttons, by DM)."""
        ...

    def mention(self, user_id: int) -> str:
        """How to address a user in a public message (``<@id>`` on Discord)."""
        ...


__all__ = ["DmClosed", "Transport"]
