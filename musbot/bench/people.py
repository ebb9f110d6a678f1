"""The people of ``musbot bench discord``: they press the buttons they are shown, type moves in
the channel and discard by DM, through the same code a Discord event reaches.

A button is pressed as discord.py dispatches one: its ``custom_id`` is matched against the
registered dynamic items' templates and the item's work runs with an interaction (the
stand-in of :mod:`musbot.testing.memory`); without the guard that turns a failure into an
answer, so that a failure stops the benchmark instead of hiding in a figure. A typed move goes
where ``cogs/chat.py`` sends it: :meth:`Table.typed`, refusals answered in the channel
(or by DM for DMs) through :func:`~musbot.discordio.reply_via`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Literal

from musbot.ai import Player
from musbot.discordio import DYNAMIC_ITEMS, DiscordTransport
from musbot.discordio.discard import discard_token
from musbot.discordio.failures import refuse_direct, refuse_typed
from musbot.discordio.ui import EnvidoModal, OrdagoConfirm
from musbot.engine import MIN_ENVITE, Action, ActionKind
from musbot.i18n import DISCORD
from musbot.table import Table
from musbot.testing.memory import (
    MemoryChannel,
    MemoryClient,
    MemoryInteraction,
    MemoryMessage,
    new_id,
)

Input = Literal["buttons", "text", "mixed"]

VERBS = {ActionKind.MUS: "mus", ActionKind.NO_HAY_MUS: "nohaymus", ActionKind.PASO: "paso",
         ActionKind.ENVIDO: "envido", ActionKind.MAS: "mas", ActionKind.ORDAGO: "ordago",
         ActionKind.QUIERO: "quiero", ActionKind.NO_QUIERO: "noquiero"}
"""The turn button of each kind of move (an amount other than the least: «envidon», a
modal)."""


class NotShown(LookupError):
    """A person was to press a button that is not on the message."""


@dataclass
class Tally:
    """How the people made their moves, over every match."""

    pressed: int = 0
    """Moves made with buttons (a discard's toggles and confirm: one move)."""
    typed: int = 0
    """Moves typed, in the channel or (discards) by DM."""
    presses: int = 0
    """Buttons pressed, joining and starting included."""
    refused: int = 0
    """Moves the table refused (none expected: the people pick legal ones)."""


@dataclass
class Person:
    """Someone at a table, who decides as a bot of ``player``'s level would, from their seat's
    view, and makes the move as ``input`` says."""

    user: int
    name: str
    player: Player
    rng: random.Random
    input: Input
    dm: MemoryChannel
    seat: int | None = None
    as_user: Any = field(init=False)

    def __post_init__(self) -> None:
        self.as_user = SimpleNamespace(id=self.user, name=self.name, display_name=self.name,
                                       bot=False)


class Hands:
    """What a person does with their hands: press, type, DM. ``client`` is the memory client,
    ``transport`` the real one; ``services`` what a button's callback takes for the bot."""

    def __init__(self, client: MemoryClient, transport: DiscordTransport, tables: Any,
                 tally: Tally) -> None:
        self.client = client
        self.transport = transport
        self.services = SimpleNamespace(tables=tables, transport=transport)
        self.tally = tally

    # --- buttons --------------------------------------------------------------------------

    def interaction(self, person: Person, message: MemoryMessage | None,
                    channel_id: int | None) -> MemoryInteraction:
        return MemoryInteraction(self.services, self.client.stats, person.as_user, message,
                                 channel_id)

    async def press(self, person: Person, channel: MemoryChannel, message_id: int,
                    custom_id: str) -> MemoryInteraction:
        """Presses the button ``custom_id`` under a message, if it is there."""
        if custom_id not in channel.buttons.get(message_id, ()):
            raise NotShown(custom_id)
        message = MemoryMessage(channel, message_id)
        interaction = self.interaction(person, message, channel.id if channel.kind == "table"
                                       else None)
        for cls in DYNAMIC_ITEMS:
            found = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if found is not None:
                item = await cls.from_custom_id(interaction, None, found)  # type: ignore[arg-type]
                self.tally.presses += 1
                await item.run(interaction)  # type: ignore[attr-defined]
                return interaction
        raise NotShown(custom_id)

    def live_message(self, table: Table) -> int | None:
        """The id of the message showing the table's live page (its last one)."""
        board = self.transport.boards.get(table.channel_id)
        live = board.live if board is not None else None
        last = live.last if live is not None else None
        return last.message_id if last is not None else None

    async def press_table(self, person: Person, table: Table, verb: str,
                          prefix: str = "a") -> MemoryInteraction:
        """A button of the table's live message: ``mus:a:…`` a move, ``mus:t:…`` the table's."""
        message_id = self.live_message(table)
        if message_id is None:
            raise NotShown(verb)
        channel = self.client.channel(table.channel_id)
        return await self.press(person, channel, message_id,
                                f"mus:{prefix}:{verb}")

    def shown(self, person: Person, table: Table) -> bool:
        """Whether the person can see their turn: the live message shows the table as it is
        now (the transport's own test: the same signature), and in a discard round the DM
        with their cards and the pick buttons has arrived."""
        board = self.transport.boards.get(table.channel_id)
        live = board.live if board is not None else None
        last = live.last if live is not None else None
        face = board.snapshot if board is not None else None
        if live is None or last is None or face is None or live.posting or last.frozen or \
                face.page is not live.page or last.signature != face.signature(last.first, False):
            return False
        match = table.match
        if match is None or match.view(-1).phase != "descarte":
            return True
        return self.discard_prompt(person, table) is not None

    def discard_prompt(self, person: Person, table: Table) -> tuple[int, str] | None:
        """The DM offering this round's discard: (message id, its confirm button's id). An
        older round's prompt, discarded from by typing, still has its buttons: not that one."""
        match, seat = table.match, person.seat
        if match is None or seat is None:
            return None
        view = match.view(seat)
        token = discard_token(table.state.match_key, view.hand_number, len(view.discards))
        prefix = f"mus:dc:{table.channel_id}:{token}:"
        for message_id, ids in reversed(person.dm.buttons.items()):
            for custom_id in ids:
                if custom_id.startswith(prefix):
                    return message_id, custom_id
        return None

    # --- a move -----------------------------------------------------------------------------

    async def move(self, person: Person, table: Table, action: Action, by_button: bool) -> None:
        if action.kind is ActionKind.DESCARTE:
            if by_button:
                await self._discard_with_buttons(person, table, action)
            else:
                await self._dm_text(person, table, action.text())
        elif by_button:
            await self._press_move(person, table, action)
        else:
            await self._type(person, table, action.text())
        if by_button:
            self.tally.pressed += 1
        else:
            self.tally.typed += 1

    async def _press_move(self, person: Person, table: Table, action: Action) -> None:
        if action.kind in (ActionKind.ENVIDO, ActionKind.MAS) and action.amount != MIN_ENVITE:
            # «Envido N…»: the button opens the modal, whose submission is an interaction too.
            await self.press_table(person, table, "envidon")
            submit = self.interaction(person, MemoryMessage(
                self.client.channel(table.channel_id), self.live_message(table) or 0),
                table.channel_id)
            modal = EnvidoModal(table.channel_id, table.lang)
            await modal.submit(submit, str(action.amount))  # type: ignore[arg-type]  # a stand-in
            self._refusals(submit)
            return
        if action.kind is ActionKind.ORDAGO:  # the button asks again, privately: «Sí»
            turn = table.state.turn
            await self.press_table(person, table, VERBS[action.kind])
            confirm = self.interaction(person, None, table.channel_id)
            found = OrdagoConfirm.__discord_ui_compiled_template__.fullmatch(
                f"mus:oc:yes:{turn}")
            item = await OrdagoConfirm.from_custom_id(confirm, None, found)  # type: ignore[arg-type]
            self.tally.presses += 1
            await item.run(confirm)  # type: ignore[arg-type]
            self._refusals(confirm)
            return
        self._refusals(await self.press_table(person, table, VERBS[action.kind]))

    async def _discard_with_buttons(self, person: Person, table: Table, action: Action) -> None:
        """Picks each card on the DM's toggles (each press redraws them), then confirms."""
        prompt = self.discard_prompt(person, table)
        if prompt is None:
            raise NotShown("discard")
        message_id, confirm = prompt
        seat = table.seat_of(person.user)
        assert table.match is not None and seat is not None
        cards = table.match.view(seat).cards
        token = confirm.split(":")[3]
        mask = 0
        for card in action.cards:
            pos = cards.index(card)
            await self.press(person, person.dm, message_id,
                             f"mus:dt:{table.channel_id}:{token}:{mask}:{pos}")
            mask ^= 1 << pos
        self._refusals(await self.press(person, person.dm, message_id,
                                        f"mus:dc:{table.channel_id}:{token}:{mask}"))

    def _refusals(self, interaction: MemoryInteraction) -> None:
        self.tally.refused += len(interaction.answers)

    # --- typed ------------------------------------------------------------------------------

    async def _type(self, person: Person, table: Table, text: str) -> None:
        """A move typed in the table's channel, as ``cogs/chat.py`` hands it to the table."""
        channel = self.client.channel(table.channel_id)
        said = MemoryMessage(channel, new_id())  # the person's message, a reply's reference
        self.transport.seen(table.channel_id, said.id, person.user)  # as the chat cog does
        outcome = await table.typed(person.user, text, public=True)
        if outcome.error is not None:
            self.tally.refused += 1
            await refuse_typed(self.transport, table, person.user, outcome.error,
                               reference=said)  # type: ignore[arg-type]

    async def _dm_text(self, person: Person, table: Table, text: str) -> None:
        """A move sent by DM (a discard typed), as ``cogs/chat.py`` hands it to the table."""
        transport = self.transport
        transport.learn_dm(person.user, person.dm.id)
        outcome = await table.typed(person.user, text)
        if outcome.error is not None:
            self.tally.refused += 1
            await refuse_direct(transport, person.user, outcome.error, table)
        elif outcome.command is None:
            self.tally.refused += 1
            await transport.direct(person.user, DISCORD("dm_unknown", table.lang))

