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

PICTURES_IN_FLIGHT = 64
"""Pictures under way past which a message goes without its own: the worker draws a hand in
about 1 ms and a showdown in about 5 (``musbot bench pictures``), so this is at most a third of
a second of drawing (a deal at sixty tables at once fits); a busier bot than its workers can
serve would otherwise queue them without end, and their messages behind them."""


class PicturesBusy(Exception):
    """Too many pictures are under way: this message goes without its own (its text says the
    same)."""


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
        self.drawn = 0
        self.skipped = 0
        """Messages sent without their picture, :data:`PICTURES_IN_FLIGHT` being under way."""

    async def __call__(self, work: Callable[..., bytes], *args: Any) -> bytes:
        """The picture; :class:`PicturesBusy` when too many are under way."""
        if self.drawing >= PICTURES_IN_FLIGHT:
            self.skipped += 1
            raise PicturesBusy
        self.drawing += 1
        try:
            png = await self.draw(work, *args)
        finally:
            self.drawing -= 1
        self.drawn += 1
        return png


__all__ = ["PICTURES_IN_FLIGHT", "Draw", "Painter", "PicturesBusy", "draw_inline", "in_thread"]
