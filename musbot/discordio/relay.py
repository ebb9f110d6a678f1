"""Sharded processes: what Discord delivers to shard 0 for a table that another process runs.

Discord sends every DM, and every interaction in a DM, to shard 0 only, while a table lives in
the process running its guild's shard. Shard 0's process looks the table up in the database
(whose live tables every process saves) and publishes the DM, or the press on a DM's discard
buttons, on the owner's channel (PostgreSQL ``NOTIFY``). The owner acknowledges at once, applies
it and answers by DM itself. No acknowledgement within :data:`ACK_SECONDS` means the owner is
down or starting again: the player is told so, never left without an answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Collection, Iterator
from typing import Any

import discord

from musbot.i18n import DISCORD
from musbot.storage import Database, StorageError, TablePlace
from musbot.table import Table, TableManager

from .card_emojis import CardEmojis
from .direct import DirectMessages
from .discard import discard_item, emojis_of
from .failures import expected, failure_text
from .texts import error
from .transport import DiscordTransport

log = logging.getLogger(__name__)

ACK_SECONDS = 2.0
"""How long shard 0 waits for the owner's acknowledgement before telling the player that their
table is being restored."""
SHARD_CHANNEL = "musbot_shard_{}"
"""Where the process running shard N hears what is relayed to it."""
ACK_CHANNEL = "musbot_relay_ack"
TEXT_LIMIT = 1000
"""A DM's text is cut to this before it is relayed (NOTIFY takes 8000 bytes; a move, a seña or
«cartas» is a few words)."""

class Relay:
    """One per process of a sharded bot on PostgreSQL: forwards (as shard 0) and receives."""

    def __init__(self, db: Database, shard_count: int, own_shards: Collection[int], *,
                 tables: TableManager, transport: DiscordTransport, dms: DirectMessages,
                 ack_seconds: float = ACK_SECONDS) -> None:
        """``tables``: this process's; ``transport`` answers; ``dms`` reads a DM relayed
        here (and wakes a restored table first)."""
        self.tables = tables
        self.transport = transport
        self.dms = dms
        self.db = db
        self.shard_count = shard_count
        self.own_shards = frozenset(own_shards)
        self.ack_seconds = ack_seconds
        self._waiting: dict[str, asyncio.Future[bool]] = {}
        self._channels = [SHARD_CHANNEL.format(shard) for shard in sorted(self.own_shards)]
        self.forwarded = 0
        """What this process relayed, and how much of it no owner acknowledged."""
        self.unanswered = 0
        self._active = 0
        """Relayings under way here, either way (:attr:`busy`)."""

    async def start(self) -> None:
        for channel in self._channels:
            await self.db.listen(channel, self._heard)
        await self.db.listen(ACK_CHANNEL, self._acked)

    async def stop(self) -> None:
        for future in self._waiting.values():
            future.cancel()
        for channel in (*self._channels, ACK_CHANNEL):
            try:
                await self.db.unlisten(channel)
            except StorageError:
                log.debug("could not stop listening on %s", channel, exc_info=True)

    @property
    def busy(self) -> bool:
        """Relaying something to its owner, or applying what was relayed here."""
        return self._active > 0

    @contextlib.contextmanager
    def _working(self) -> Iterator[None]:
        self._active += 1
        try:
            yield
        finally:
            self._active -= 1

    def owns(self, place: TablePlace) -> bool:
        return place.shard(self.shard_count) in self.own_shards

    # --- shard 0: what Discord delivered here for another process ---------------------------

    async def forward_dm(self, user_id: int, dm_channel_id: int, text: str) -> bool:
        """A DM from someone without a table here: relayed to the process of their table.
        False if they sit at no table anywhere (the caller says so)."""
        with self._working():
            return await self._forward_dm(user_id, dm_channel_id, text)

    async def _forward_dm(self, user_id: int, dm_channel_id: int, text: str) -> bool:
        remote = [p for p in await self.db.seated_tables(user_id) if not self.owns(p)]
        if not remote:
            return False
        place = remote[0]
        found = await self._publish(place.shard(self.shard_count), {
            "kind": "dm", "user": user_id, "dm": dm_channel_id, "text": text[:TEXT_LIMIT]})
        if found is None:
            await self.transport.direct(user_id, await self._restoring(place))
        elif not found:
            await self.transport.direct(user_id, DISCORD("no_table_dm"))
        return True

    async def forward_press(self, interaction: discord.Interaction[Any], channel_id: int
                            ) -> bool:
        """A press on a DM's discard buttons whose table another process runs: acknowledged
        here (within Discord's 3 s, without changing the message) and relayed. False if the
        table is not another process's (the caller answers)."""
        with self._working():
            return await self._forward_press(interaction, channel_id)

    async def _forward_press(self, interaction: discord.Interaction[Any], channel_id: int
                             ) -> bool:
        place = await self.db.table_place(channel_id)
        if interaction.guild_id is not None or interaction.message is None or \
                place is None or self.owns(place):
            return False
        await interaction.response.defer()
        found = await self._publish(place.shard(self.shard_count), {
            "kind": "press", "user": interaction.user.id, "table": channel_id,
            "dm": interaction.channel_id, "message": interaction.message.id,
            "custom_id": str(interaction.data.get("custom_id", "") if interaction.data else "")})
        if not found:
            text = await self._restoring(place) if found is None else error("no_table")
            await interaction.followup.send(text, ephemeral=True)
        return True

    async def forget_elsewhere(self, user_id: int) -> int:
        """``/mus olvidarme``: the other processes scrub the user from their tables; returns how
        many held them. A process that does not answer scrubs them when it restores its tables
        (the stored player is marked forgotten)."""
        with self._working():
            others = sorted(set(range(self.shard_count)) - self.own_shards)
            found = await asyncio.gather(*(self._publish(shard, {
                "kind": "forget", "user": user_id, "dm": 0}) for shard in others))
            return sum(1 for held in found if held)

    async def _publish(self, shard: int, body: dict[str, Any]) -> bool | None:
        """Publishes to the owner of ``shard``; its answer (whether it has the table), or None
        without one in time."""
        key = uuid.uuid4().hex
        waiting: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting[key] = waiting
        self.forwarded += 1
        try:
            await self.db.notify(SHARD_CHANNEL.format(shard), json.dumps({**body, "id": key}))
            return await asyncio.wait_for(waiting, self.ack_seconds)
        except (TimeoutError, StorageError):
            self.unanswered += 1
            log.warning("nobody answered for shard %s within %s s", shard, self.ack_seconds)
            return None
        finally:
            self._waiting.pop(key, None)

    def _acked(self, payload: str) -> None:
        try:
            body = json.loads(payload)
            waiting = self._waiting.get(str(body["id"]))
            found = bool(body["found"])
        except (ValueError, KeyError, TypeError):
            log.warning("unreadable relay acknowledgement")
            return
        if waiting is not None and not waiting.done():
            waiting.set_result(found)

    async def _restoring(self, place: TablePlace) -> str:
        """«Tu mesa se está restaurando…», in the table's server's language."""
        lang = "es"
        if place.guild_id is not None:
            with contextlib.suppress(StorageError):
                lang = (await self.db.server_settings(place.guild_id)).table.language
        return error("table_restoring", lang)

    # --- the owner: what shard 0 relayed here ------------------------------------------------

    async def _heard(self, payload: str) -> None:
        with self._working():
            await self._apply(payload)

    async def _apply(self, payload: str) -> None:
        try:
            body = json.loads(payload)
            key, kind, user_id = str(body["id"]), body["kind"], int(body["user"])
            dm_channel = int(body["dm"])
        except (ValueError, KeyError, TypeError):
            log.warning("unreadable relayed payload")
            return
        if kind == "forget":
            held = await self.tables.forget_user(user_id)
            await self.db.notify(ACK_CHANNEL, json.dumps({"id": key, "found": held > 0}))
            return
        table = self._table_for(kind, user_id, body)
        await self.db.notify(ACK_CHANNEL, json.dumps({"id": key, "found": table is not None}))
        if table is None:
            return
        self.transport.learn_dm(user_id, dm_channel)
        try:
            if kind == "dm":
                await self._dm(user_id, str(body.get("text", "")), table)
            else:
                await self._press(user_id, table, str(body.get("custom_id", "")),
                                  int(body["message"]))
        except Exception as problem:
            if not expected(problem):
                log.error("relayed %s failed at table %s", kind, table.channel_id,
                          exc_info=problem)
            text = failure_text(problem, table.lang_for(user_id))
            if text is not None:
                await self.transport.direct(user_id, text)

    def _table_for(self, kind: str, user_id: int, body: dict[str, Any]) -> Table | None:
        if kind == "dm":
            return self.tables.table_for(user_id)[0]
        if kind == "press":
            table = self.tables.get(int(body.get("table", 0)))
            if table is not None and table.seat_of(user_id) is not None:
                return table
        return None

    async def _dm(self, user_id: int, text: str, table: Table) -> None:
        _, ambiguous = self.tables.table_for(user_id)
        await self.dms.handle(user_id, text, table, ambiguous)

    async def _press(self, user_id: int, table: Table, custom_id: str, message_id: int) -> None:
        item = discard_item(custom_id)
        press = RelayedPress(self.transport, user_id, message_id)
        if item is None or item.channel_id != table.channel_id:
            await press.say(error("no_table", table.lang_for(user_id)))
        elif not await self.dms.awake(table):
            await press.say(error("table_restoring", table.lang_for(user_id)))
        else:
            await item.pressed(press, table)


class RelayedPress:
    """A press relayed from shard 0, answered by the owner: a DM, and the DM message's buttons
    edited through the REST API (the interaction was acknowledged by shard 0)."""

    def __init__(self, transport: DiscordTransport, user_id: int, message_id: int) -> None:
        self.transport = transport
        self._user_id = user_id
        self.message_id = message_id

    @property
    def user_id(self) -> int:
        return self._user_id

    @property
    def emojis(self) -> CardEmojis | None:
        return emojis_of(self.transport.client)

    async def say(self, text: str) -> None:
        await self.transport.direct(self._user_id, text)

    async def show(self, view: discord.ui.View | None) -> None:
        self.transport.edit_direct(self._user_id, self.message_id, view)
