"""What every part of the :class:`~musbot.storage.Database` facade shares: the backend that runs
its transactions (the mixins' common base, as Red-DiscordBot's ``MixinMeta``)."""

from __future__ import annotations

from typing import TypeVar

from .backend import Backend
from .tx import Work

T = TypeVar("T")


class Store:
    """Each storage concern is a mixin of this class, in a module of its own; every public
    method is one transaction, written once (:mod:`~musbot.storage.tx`) for both backends."""

    _backend: Backend

    async def _read(self, work: Work[T]) -> T:
        return await self._backend.read(work)

    async def _write(self, work: Work[T]) -> T:
        return await self._backend.write(work)

    def _now(self) -> str:
        return self._backend.now()
