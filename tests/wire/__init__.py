"""A test double of Discord at discord.py's HTTP layer.

Real ``discord.Client``/``commands.Bot`` objects connect to :class:`FakeDiscord`: their
``HTTPClient.request`` and the webhook adapter are replaced by a recorder that answers as
Discord does and refuses what Discord refuses (lengths, empty messages, components, the 3 s
and 15 min interaction windows, closed DMs, per-channel and global rate limits); gateway
events are fed to the connection state's parsers. Tests assert on the world's records.
"""

from .errors import FakeResponse, UnsupportedRoute, WireError
from .fake import FakeDiscord
from .gateway import FakeGatewaySocket, settle
from .recorder import Call, Report
from .routing import FileInfo
from .state import Answer, Edit, FakeChannel, FakeGuild, FakeInteraction, FakeMessage, FakeUser

__all__ = [
    "Answer",
    "Call",
    "Edit",
    "FakeChannel",
    "FakeDiscord",
    "FakeGatewaySocket",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeResponse",
    "FakeUser",
    "FileInfo",
    "Report",
    "UnsupportedRoute",
    "WireError",
    "settle",
]
