"""Discord's refusals, as the API sends them and as discord.py turns them into exceptions.

A handler refuses by raising :class:`WireError`; the recorder answers with its status and JSON
body, and the emulated client raises what discord.py's own ``request`` would raise for that
answer (:class:`discord.Forbidden` for 403, :class:`discord.NotFound` for 404, else
:class:`discord.HTTPException`), built from a response-like object the way discord.py builds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
           403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
           429: "Too Many Requests", 500: "Internal Server Error"}

# Discord's JSON error codes, the ones the double answers with.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_SEND_EMPTY = 50006
CANNOT_DM_USER = 50007
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
ALREADY_ACKNOWLEDGED = 40060


@dataclass
class FakeResponse:
    """What discord.py's exceptions read from an aiohttp response: ``status`` and ``reason``
    (and, for logging, ``url``, ``method`` and ``headers``)."""

    status: int
    method: str = ""
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return REASONS.get(self.status, "Error")


class WireError(Exception):
    """Raised by a route handler: the HTTP status and JSON body Discord would answer with."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


class UnsupportedRoute(AssertionError):
    """The bot called an endpoint the double does not model. Failing loudly beats a silent
    answer that Discord would never give; add the route to the double if the bot needs it."""


def form_error(path: str, code: str, message: str) -> WireError:
    """400/50035 «Invalid Form Body» with one error at ``path`` (dotted, e.g.
    ``embeds.0.fields.25.value``), nested as Discord nests it."""
    errors: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path.split(".")):
        errors = {key: errors}
    return WireError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


def too_long(path: str, limit: int) -> WireError:
    return form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def bad_length(path: str, low: int, high: int) -> WireError:
    return form_error(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def required(path: str) -> WireError:
    return form_error(path, "BASE_TYPE_REQUIRED", "This field is required")


def unknown(what: str) -> WireError:
    codes = {"channel": UNKNOWN_CHANNEL, "guild": UNKNOWN_GUILD, "message": UNKNOWN_MESSAGE,
             "user": UNKNOWN_USER, "webhook": UNKNOWN_WEBHOOK,
             "interaction": UNKNOWN_INTERACTION}
    return WireError(404, codes[what], f"Unknown {what.capitalize()}")


def to_exception(response: FakeResponse, body: Any) -> discord.HTTPException:
    """The exception discord.py's ``HTTPClient.request`` raises for a non-2xx, non-429 answer."""
    if response.status == 403:
        return discord.Forbidden(response, body)
    if response.status == 404:
        return discord.NotFound(response, body)
    if response.status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)
