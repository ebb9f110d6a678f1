"""Where the pictures a table sends are drawn (a hand for a DM, a showdown for the table's
message): a thread by default, the running bot's worker process (``musbot.pictures.worker``), or
the event loop itself where a run must be the same every time. One :class:`Painter` per
transport, shared by the messenger and the boards, counts what is being drawn."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

Draw = Callable[..., Awaitable[bytes]]
"""Draws a picture, ``draw(function, *arguments)``, somewhere."""


async def in_thread(work: Callable[..., bytes], *args: Any) -> bytes:
    return await asyncio.to_thread(work, *args)


async def draw_inline(work: Callable[..., bytes], *args: Any) -> bytes:
    """Draws on the event loop itself: for runs that must be the same every time."""
    return work(*args)


class Painter:
    """Draws through :attr:`draw` as it is set now (the running bot sets its worker after the
    transport is built), counting the pictures under way."""

    def __init__(self, draw: Draw | None = None) -> None:
        self.draw: Draw = draw or in_thread
        self.drawing = 0
        """Pictures being drawn now."""

    async def __call__(self, work: Callable[..., bytes], *args: Any) -> bytes:
        self.drawing += 1
        try:
            return await self.draw(work, *args)
        finally:
            self.drawing -= 1


__all__ = ["Draw", "Painter", "draw_inline", "in_thread"]
