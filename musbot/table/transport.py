"""What a table needs from the outside world: somewhere to speak publicly and privately.

Discord implements it with channel messages, DMs and ephemeral replies; the terminal with print();
tests with a list. The table never knows which.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


class DmClosed(Exception):
    """A private message could not be delivered (the user blocks DMs). The table then tells the
    channel, without any card, to use «Ver mis cartas»."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"cannot send private messages to user {user_id}")
        self.user_id = user_id


@runtime_checkable
class Transport(Protocol):
    async def public(self, channel_id: int, text: str) -> None:
        """A message to the table's channel, seen by everyone. Never holds a private card."""
        ...

    async def private(self, channel_id: int, user_id: int, text: str) -> None:
        """A message only ``user_id`` sees (a DM) about the table in ``channel_id``. Raises
        :class:`DmClosed` if it cannot."""
        ...

    async def reply(self, channel_id: int, user_id: int, text: str) -> None:
        """An answer to one user's command (an error): ephemeral where the transport can, else
        in the channel addressed to them."""
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
