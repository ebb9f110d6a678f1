"""How the bots read a person's betting, per server (``musbot.ai.reading``): a JSON document per
(server, player), fetched when the person sits at one of the server's tables and written back as
the bots learn. Never read across servers; :meth:`~musbot.storage.Players.forget_player` deletes
them all."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .documents import document_json
from .store import Store
from .tx import Tx

_SAVE = (
    "INSERT INTO player_readings (guild_id, user_id, reading, updated_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET reading = excluded.reading,"
    " updated_at = excluded.updated_at")


class Readings(Store):
    async def player_readings(self, guild_id: int,
                              user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The stored readings of these people at this server's tables (absent: none stored).
        A document that is not a JSON object is left out, as if none were stored."""
        wanted = tuple(user_ids)
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        rows = await self._read(lambda tx: tx.fetch(
            "SELECT user_id, reading FROM player_readings"
            f" WHERE guild_id = ? AND user_id IN ({marks})", guild_id, *wanted))
        out: dict[int, dict[str, Any]] = {}
        for user_id, text in rows:
            data = json.loads(text)
            if isinstance(data, dict):
                out[int(user_id)] = data
        return out

    async def save_player_readings(self, guild_id: int,
                                   readings: Mapping[int, Mapping[str, Any]]) -> None:
        """Writes these people's readings at this server, in one transaction."""
        if not readings:
            return
        now = self._now()
        rows = [(guild_id, user_id, document_json(dict(doc)), now)
                for user_id, doc in sorted(readings.items())]

        async def write(tx: Tx) -> None:
            await tx.executemany(_SAVE, rows)

        await self._write(write)
