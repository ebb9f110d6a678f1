"""The discard controls: a hand's four cards as toggle buttons and a confirm, sent only to their
holder (by DM, or under «Ver mis cartas»). The picked set and the round live in the custom_id,
so the buttons need no memory and survive a restart.

A press is answered through a :class:`Press`: the interaction's own answer; or, in a sharded bot,
where Discord delivers a press in a DM to shard 0 only, by the process that owns the table, with a
DM and an edit of the DM's message (:mod:`musbot.discordio.relay`). Both run the same steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import discord

from musbot.engine import MusError, SeatView, descarte
from musbot.i18n import DISCORD, error_text
from musbot.table import Table, TableError
from musbot.table.render import card_text

from .callbacks import Guarded, services
from .card_emojis import CardEmojis
from .failures import answer_privately
from .markup import plain
from .texts import error

TOKEN = r"(?P<token>(?:[0-9a-f]{1,32}\.)?[0-9]+\.[0-9]+)"
"""A discard round's token in a custom_id: match.hand.round (hand.round alone on buttons sent by
an older musbot, which are all stale now)."""


class Press(Protocol):
    """Someone's press on their discard buttons, and how it is answered."""

    @property
    def user_id(self) -> int: ...

    @property
    def emojis(self) -> CardEmojis | None:
        """The bot's card emojis, for the buttons shown anew."""
        ...

    async def say(self, text: str) -> None:
        """A refusal, to the presser alone."""
        ...

    async def show(self, view: discord.ui.View | None) -> None:
        """The pressed message's buttons, changed (None: removed)."""
        ...


class InteractionPress:
    """A press answered through its interaction (``UPDATE_MESSAGE``, then its token)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def emojis(self) -> CardEmojis | None:
        return emojis_of(self.interaction.client)

    async def say(self, text: str) -> None:
        await answer_privately(self.interaction, text)

    async def show(self, view: discord.ui.View | None) -> None:
        if self.interaction.response.is_done():
            await self.interaction.edit_original_response(view=view)
        else:
            await self.interaction.response.edit_message(view=view)


class DiscardToggle(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"mus:dt:(?P<channel>[0-9]+):" + TOKEN + r":"
                             r"(?P<mask>[0-9]{1,2}):(?P<pos>[0-3])"):
    """Picks or unpicks card ``pos`` for the discard. ``token`` (:func:`discard_token`) makes
    buttons of other cards refuse instead of discarding the wrong ones."""

    def __init__(self, channel_id: int, token: str, mask: int, pos: int,
                 label: str = "?", emoji: discord.PartialEmoji | None = None) -> None:
        picked = bool(mask >> pos & 1)
        super().__init__(discord.ui.Button(
            label=label, custom_id=f"mus:dt:{channel_id}:{token}:{mask}:{pos}", emoji=emoji,
            style=discord.ButtonStyle.danger if picked else discord.ButtonStyle.secondary))
        self.channel_id = channel_id
        self.token = token
        self.mask = mask
        self.pos = pos

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> DiscardToggle:
        return cls(int(match["channel"]), match["token"], int(match["mask"]), int(match["pos"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_here(interaction, self.channel_id)
        if table is not None:
            await self.pressed(InteractionPress(interaction), table)

    async def pressed(self, press: Press, table: Table) -> None:
        if await _still_current(press, table, self.token) is not None:
            await press.show(discard_view(table, press.user_id, self.mask ^ (1 << self.pos),
                                          press.emojis))


class DiscardConfirm(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"mus:dc:(?P<channel>[0-9]+):" + TOKEN + r":"
                              r"(?P<mask>[0-9]{1,2})"):
    """Discards the picked cards (``descarto`` with those positions)."""

    def __init__(self, channel_id: int, token: str, mask: int, lang: str = "es") -> None:
        count = bin(mask).count("1")
        super().__init__(discord.ui.Button(
            label=DISCORD("btn_discard", lang, count=count), style=discord.ButtonStyle.success,
            disabled=count == 0, custom_id=f"mus:dc:{channel_id}:{token}:{mask}"))
        self.channel_id = channel_id
        self.token = token
        self.mask = mask

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> DiscardConfirm:
        return cls(int(match["channel"]), match["token"], int(match["mask"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_here(interaction, self.channel_id)
        if table is not None:
            await self.pressed(InteractionPress(interaction), table)

    async def pressed(self, press: Press, table: Table) -> None:
        view = await _still_current(press, table, self.token)
        if view is None:
            return
        picked = [card for pos, card in enumerate(view.cards) if self.mask >> pos & 1]
        if not picked:
            await press.say(error("discard_none", table.lang_for(press.user_id)))
            return
        # Acknowledge by removing the controls, so a second press cannot discard twice.
        await press.show(None)
        try:
            await table.act(press.user_id, descarte(*picked))
        except MusError as problem:
            await press.say(plain(error_text(problem, table.lang_for(press.user_id),
                                             table.names())))
            controls = discard_view(table, press.user_id, self.mask, press.emojis)
            if controls is not None:
                await press.show(controls)


DISCARD_ITEMS: tuple[type[DiscardToggle] | type[DiscardConfirm], ...] = (
    DiscardToggle, DiscardConfirm)


def discard_item(custom_id: str) -> DiscardToggle | DiscardConfirm | None:
    """The discard button a custom_id names (a press relayed from shard 0), or None."""
    for kind in DISCARD_ITEMS:
        found = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is None:
            continue
        channel, token, mask = int(found["channel"]), found["token"], int(found["mask"])
        if kind is DiscardToggle:
            return DiscardToggle(channel, token, mask, int(found["pos"]))
        return DiscardConfirm(channel, token, mask)
    return None


async def _table_here(interaction: discord.Interaction[Any], channel_id: int) -> Table | None:
    """The table the buttons speak of, if this process has it. A sharded bot receives every
    press in a DM on shard 0: another process's table gets the press relayed, and answers."""
    client = services(interaction)
    table = client.tables.get(channel_id)
    if table is not None:
        return table
    relay = getattr(client, "relay", None)
    if relay is not None and await relay.forward_press(interaction, channel_id):
        return None
    raise TableError("no_table")


async def _still_current(press: Press, table: Table, token: str) -> SeatView | None:
    """The presser's view if these discard buttons still speak of the cards they hold."""
    seat = table.seat_of(press.user_id)
    if seat is None or table.match is None:
        await press.say(error("not_seated", table.lang_for(press.user_id)))
        return None
    view = table.match.view(seat)
    current = discard_token(table.state.match_key, view.hand_number, len(view.discards))
    if view.phase != "descarte" or current != token:
        await press.say(DISCORD("stale_cards", table.lang_for(press.user_id)))
        return None
    return view


def discard_token(match_key: str, hand_number: int, mus_rounds: int) -> str:
    """Which cards discard buttons refer to: the match (its key, unique to it; a rematch starts
    again from hand 1), the hand and its mus round."""
    return f"{match_key}.{hand_number}.{mus_rounds}" if match_key else \
        f"{hand_number}.{mus_rounds}"


@dataclass(frozen=True, slots=True)
class DiscardButtons:
    """One discard's buttons as data, made into a view only when shown: a DM that waits for its
    channel's turn keeps these few values, not a view of five items that point at each other."""

    channel_id: int
    token: str
    labels: tuple[str, ...]
    """One per card, in the hand's order: only ever shown to the cards' holder."""
    mask: int
    lang: str
    emojis: tuple[str | None, ...] = ()
    """Each card's custom emoji (its markup), where the bot has them: the card as a picture
    beside its number on the button."""

    def view(self) -> discord.ui.View:
        controls = discord.ui.View(timeout=None)
        for pos, label in enumerate(self.labels):
            markup = self.emojis[pos] if pos < len(self.emojis) else None
            controls.add_item(DiscardToggle(
                self.channel_id, self.token, self.mask, pos, label=label,
                emoji=discord.PartialEmoji.from_str(markup) if markup else None))
        controls.add_item(DiscardConfirm(self.channel_id, self.token, self.mask, self.lang))
        return controls


def discard_buttons(table: Table, user_id: int, mask: int = 0,
                    emojis: CardEmojis | None = None) -> DiscardButtons | None:
    """Toggle buttons for the user's cards 1–4 and a confirm, or None outside their discard
    phase; the cards as ``emojis`` (the bot's, :func:`emojis_of`) once they are there."""
    seat = table.seat_of(user_id)
    match = table.match
    if seat is None or match is None or match.finished:
        return None
    view = match.view(seat)
    if view.phase != "descarte":
        return None
    token = discard_token(table.state.match_key, view.hand_number, len(view.discards))
    if emojis is not None and emojis.ready:
        labels = tuple(str(pos + 1) for pos in range(len(view.cards)))
        markups = tuple(emojis.markup(card) for card in view.cards)
    else:
        labels = tuple(f"{pos + 1} · {card_text(card)}" for pos, card in enumerate(view.cards))
        markups = ()
    return DiscardButtons(table.channel_id, token, labels, mask, table.lang_for(user_id),
                          markups)


def discard_view(table: Table, user_id: int, mask: int = 0,
                 emojis: CardEmojis | None = None) -> discord.ui.View | None:
    """:func:`discard_buttons` as a view."""
    buttons = discard_buttons(table, user_id, mask, emojis)
    return None if buttons is None else buttons.view()


def emojis_of(client: Any) -> CardEmojis | None:
    """The bot's card emojis (``card_emojis.py``), if it has them."""
    return getattr(client, "card_emojis", None)
