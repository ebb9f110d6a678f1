"""How a request reaches a handler: by discord.py's own route template (``Route.path``, e.g.
``/channels/{channel_id}/messages``), so the recorded route is the one discord.py names, and
an endpoint the double does not model is an error rather than a guess."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from .errors import UnsupportedRoute

if TYPE_CHECKING:
    from .fake import FakeDiscord


@dataclass(frozen=True)
class FileInfo:
    """An uploaded file: its name, its bytes' length and its first bytes (what the recorder
    keeps of it)."""

    filename: str
    size: int
    description: str | None = None
    head: bytes = b""
    """Its first 24 bytes (a file type's signature; a PNG's width and height too)."""
    data: bytes = field(default=b"", repr=False)
    """All of it: what ``wire.look`` writes for the pictures to be seen."""


@dataclass
class Request:
    method: str
    template: str
    path: str
    params: Mapping[str, str]
    json: Any = None
    files: list[FileInfo] = field(default_factory=list)
    query: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "rest"
    """``rest`` (the bot token), ``callback`` (interaction response) or ``webhook``."""

    @property
    def route(self) -> str:
        return f"{self.method} {self.template}"

    def id(self, name: str) -> int:
        return int(self.params[name])

    def body(self) -> dict[str, Any]:
        return dict(self.json) if isinstance(self.json, Mapping) else {}


Reply = tuple[int, Any]
Handler = Callable[["FakeDiscord", Request], Reply]


class Router:
    """Handlers by ``"METHOD /template"``."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}

    def __call__(self, *keys: str) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            for key in keys:
                self.routes[key] = handler
            return handler
        return register

    def handler(self, request: Request) -> Handler:
        try:
            return self.routes[request.route]
        except KeyError:
            raise UnsupportedRoute(f"the wire double does not model {request.route} "
                                   f"({request.path})") from None


def match(template: str, path: str) -> dict[str, str]:
    """The parameters of ``path`` (concrete, URL-quoted) by ``template``'s names."""
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    found = re.fullmatch(pattern, path)
    if found is None:
        raise UnsupportedRoute(f"{path} does not fit {template}")
    return {k: unquote(v) for k, v in found.groupdict().items()}
