"""Per-server settings: one JSON document per guild, defaults where nothing was saved."""

from __future__ import annotations

import json

from .documents import document_json
from .models import ServerSettings
from .store import Store


class Servers(Store):
    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The server's settings, defaults where nothing was saved."""
        text = await self._read(lambda tx: tx.fetchval(
            "SELECT settings FROM servers WHERE guild_id = ?", guild_id))
        return ServerSettings.from_dict(json.loads(text)) if text is not None \
            else ServerSettings()

    async def save_server_settings(self, guild_id: int, settings: ServerSettings) -> None:
        document = document_json(settings.to_dict())
        await self._write(lambda tx: tx.execute(
            "INSERT INTO servers (guild_id, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings,"
            " updated_at = excluded.updated_at", guild_id, document, self._now()))
