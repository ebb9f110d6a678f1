"""Buttons, the envido modal and the table embed: Discord's input for a :class:`Table`.

Every button is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries the table's channel
and what the button does, so the buttons keep working after a restart (registered once with
``bot.add_dynamic_items(*DYNAMIC_ITEMS)``). Callbacks are thin: find the table, call one of its
coroutines, word its error. The rules stay in the engine.

Privacy: public views are built from the table's public state only (whose turn, which kinds of
move are legal now); card labels appear only in the discard controls, which are sent by DM or as
an ephemeral answer to the card holder.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord

from musbot.engine import (
    ENVIDO,
    MIN_ENVITE,
    MUS,
    NO_HAY_MUS,
    NO_QUIERO,
    ORDAGO,
    PASO,
    QUIERO,
    Action,
    ActionKind,
    MalformedCommand,
    MusError,
    SeatView,
    descarte,
    mas,
)
from musbot.i18n import error_text
from musbot.table import Table, TableManager
from musbot.table.render import card_text

from .failures import answer_privately, guarded, report
from .texts import dt, error

log = logging.getLogger(__name__)

EMBED_LIMIT = 4096
EMBED_COLOUR = discord.Colour.dark_green()

ACTIONS: dict[str, Action] = {
    "mus": MUS, "nohaymus": NO_HAY_MUS, "paso": PASO, "envido": ENVIDO, "mas": mas(MIN_ENVITE),
    "ordago": ORDAGO, "quiero": QUIERO, "noquiero": NO_QUIERO,
}
"""Turn buttons by the verb in their custom_id; «envidon» opens the amount modal instead."""
ACTION_VERBS = (*ACTIONS, "envidon")
_ACTION_LOOK: dict[str, tuple[str, discord.ButtonStyle]] = {
    "mus": ("btn_mus", discord.ButtonStyle.primary),
    "nohaymus": ("btn_no_hay_mus", discord.ButtonStyle.secondary),
    "paso": ("btn_paso", discord.ButtonStyle.secondary),
    "envido": ("btn_envido", discord.ButtonStyle.primary),
    "mas": ("btn_mas", discord.ButtonStyle.primary),
    "envidon": ("btn_envido_n", discord.ButtonStyle.primary),
    "ordago": ("btn_ordago", discord.ButtonStyle.danger),
    "quiero": ("btn_quiero", discord.ButtonStyle.success),
    "noquiero": ("btn_no_quiero", discord.ButtonStyle.secondary),
}
_VERBS_BY_KIND: dict[ActionKind, tuple[str, ...]] = {
    ActionKind.MUS: ("mus",), ActionKind.NO_HAY_MUS: ("nohaymus",),
    ActionKind.QUIERO: ("quiero",), ActionKind.NO_QUIERO: ("noquiero",),
    ActionKind.PASO: ("paso",), ActionKind.ENVIDO: ("envido", "envidon"),
    ActionKind.MAS: ("mas", "envidon"), ActionKind.ORDAGO: ("ordago",),
}
_VERB_ORDER = ("mus", "nohaymus", "quiero", "noquiero", "paso", "envido", "mas", "envidon",
               "ordago")

TABLE_VERBS = ("join1", "join2", "join", "bot", "start", "cards", "back", "rematch")
_TABLE_LOOK: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join1": ("btn_join", discord.ButtonStyle.primary),
    "join2": ("btn_join", discord.ButtonStyle.primary),
    "join": ("btn_join_any", discord.ButtonStyle.primary),
    "bot": ("btn_bot", discord.ButtonStyle.secondary),
    "start": ("btn_start", discord.ButtonStyle.success),
    "cards": ("btn_cards", discord.ButtonStyle.secondary),
    "back": ("btn_back", discord.ButtonStyle.success),
    "rematch": ("btn_rematch", discord.ButtonStyle.success),
}


class Pages(Protocol):
    """What the callbacks need of the transport (``musbot.discordio.transport``)."""

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer a button pressed on a table's message: the page brought up to date."""
        ...

    def remember_ephemeral(self, channel_id: int, user_id: int,
                           interaction: discord.Interaction[Any]) -> None:
        """A «Ver mis cartas» answer to keep current while its token lives."""
        ...


class Services(Protocol):
    """What ``interaction.client`` offers the callbacks (:class:`musbot.bot.MusBot` does)."""

    tables: TableManager
    transport: Pages


def services(interaction: discord.Interaction[Any]) -> Services:
    return cast(Services, interaction.client)


# --- the dynamic items --------------------------------------------------------------------------


class _Guarded:
    """Every button's callback goes through :func:`~musbot.discordio.failures.guarded`: a
    failure is answered, never left to «The application did not respond»."""

    channel_id: int

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await guarded(interaction, self.channel_id, lambda: self.run(interaction))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class ActionButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"mus:a:(?P<channel>[0-9]+):(?P<verb>" + "|".join(ACTION_VERBS) + ")"):
    """A move on the turn message: Mus, Paso, Envido, Quiero… (or «Envido N…», a modal)."""

    def __init__(self, channel_id: int, verb: str, lang: str = "es") -> None:
        key, style = _ACTION_LOOK[verb]
        super().__init__(discord.ui.Button(label=dt(key, lang), style=style,
                                           custom_id=f"mus:a:{channel_id}:{verb}"))
        self.channel_id = channel_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> ActionButton:
        return cls(int(match["channel"]), match["verb"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_or_say(interaction, self.channel_id)
        if table is None:
            return
        if self.verb == "envidon":
            if table.seat_of(interaction.user.id) is None:
                await _answer(interaction, error("not_seated", table.lang))
                return
            await interaction.response.send_modal(EnvidoModal(self.channel_id, table.lang))
            return
        await perform(interaction, table, ACTIONS[self.verb])


class TableButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"mus:t:(?P<channel>[0-9]+):(?P<verb>" + "|".join(TABLE_VERBS) + ")"):
    """The table message's buttons: sit down, add a bot, start, see my cards, back, rematch."""

    def __init__(self, channel_id: int, verb: str, lang: str = "es") -> None:
        key, style = _TABLE_LOOK[verb]
        pair = verb[-1] if verb in ("join1", "join2") else ""
        super().__init__(discord.ui.Button(label=dt(key, lang, pair=pair), style=style,
                                           custom_id=f"mus:t:{channel_id}:{verb}"))
        self.channel_id = channel_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> TableButton:
        return cls(int(match["channel"]), match["verb"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_or_say(interaction, self.channel_id)
        if table is None:
            return
        if self.verb == "cards":
            await show_cards(interaction, table)
            return
        user = interaction.user
        verb = self.verb
        if verb.startswith("join"):
            pair = int(verb[-1]) - 1 if verb != "join" else None
            await run_for(interaction, table, lambda: table.join(user.id, _name(user), pair))
        elif verb == "bot":
            await run_for(interaction, table, table.add_bot)
        elif verb == "start":
            await run_for(interaction, table, lambda: table.start(user.id))
        elif verb == "back":
            await run_for(interaction, table, lambda: table.come_back(user.id))
        elif verb == "rematch":
            await run_for(interaction, table, lambda: table.rematch(user.id))


class DiscardToggle(_Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"mus:dt:(?P<channel>[0-9]+):(?P<token>[0-9]+\.[0-9]+):"
                             r"(?P<mask>[0-9]{1,2}):(?P<pos>[0-3])"):
    """Picks or unpicks card ``pos`` for the discard. The picked set lives in the custom_id
    (``mask``), so the controls need no memory and survive a restart; ``token`` (hand.round)
    makes buttons of older cards refuse instead of discarding the wrong ones."""

    def __init__(self, channel_id: int, token: str, mask: int, pos: int,
                 label: str = "?") -> None:
        picked = bool(mask >> pos & 1)
        super().__init__(discord.ui.Button(
            label=label, custom_id=f"mus:dt:{channel_id}:{token}:{mask}:{pos}",
            style=discord.ButtonStyle.primary if picked else discord.ButtonStyle.secondary))
        self.channel_id = channel_id
        self.token = token
        self.mask = mask
        self.pos = pos

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> DiscardToggle:
        return cls(int(match["channel"]), match["token"], int(match["mask"]), int(match["pos"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_or_say(interaction, self.channel_id)
        if table is None:
            return
        view = await _discard_state(interaction, table, self.token)
        if view is None:
            return
        controls = discard_view(table, interaction.user.id, self.mask ^ (1 << self.pos))
        await interaction.response.edit_message(view=controls)


class DiscardConfirm(_Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"mus:dc:(?P<channel>[0-9]+):(?P<token>[0-9]+\.[0-9]+):"
                              r"(?P<mask>[0-9]{1,2})"):
    """Discards the picked cards (``descarto`` with those positions)."""

    def __init__(self, channel_id: int, token: str, mask: int, lang: str = "es") -> None:
        count = bin(mask).count("1")
        super().__init__(discord.ui.Button(
            label=dt("btn_discard", lang, count=count), style=discord.ButtonStyle.success,
            disabled=count == 0, custom_id=f"mus:dc:{channel_id}:{token}:{mask}"))
        self.channel_id = channel_id
        self.token = token
        self.mask = mask

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> DiscardConfirm:
        return cls(int(match["channel"]), match["token"], int(match["mask"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await _table_or_say(interaction, self.channel_id)
        if table is None:
            return
        view = await _discard_state(interaction, table, self.token)
        if view is None:
            return
        picked = [card for pos, card in enumerate(view.cards) if self.mask >> pos & 1]
        if not picked:
            await _answer(interaction, error("discard_none", table.lang))
            return
        # Acknowledge by removing the controls, so a second press cannot discard twice.
        await interaction.response.edit_message(view=None)
        user_id = interaction.user.id
        try:
            await table.act(user_id, descarte(*picked))
        except MusError as problem:
            await interaction.followup.send(error_text(problem, table.lang, table.names()),
                                            ephemeral=True)
            controls = discard_view(table, user_id, self.mask)
            if controls is not None:
                await interaction.edit_original_response(view=controls)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton, TableButton, DiscardToggle, DiscardConfirm)
"""Register at start-up: ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``."""


class EnvidoModal(discord.ui.Modal):
    """«Envido N…»: asks the amount; while a bet stands the engine takes it as N más (§4)."""

    def __init__(self, channel_id: int, lang: str = "es") -> None:
        super().__init__(title=dt("modal_title", lang), timeout=300)
        self.channel_id = channel_id
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            placeholder="5", min_length=1, max_length=20)
        self.add_item(discord.ui.Label(text=dt("modal_label", lang), component=self.amount))

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await guarded(interaction, self.channel_id,
                      lambda: self.submit(interaction, self.amount.value))

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:
        await report(interaction, error, table_id=self.channel_id)

    async def submit(self, interaction: discord.Interaction[Any], value: str) -> None:
        from musbot.commands import parse  # the grammar says what an amount is (§4)

        table = await _table_or_say(interaction, self.channel_id)
        if table is None:
            return
        word = value.strip()
        action = parse(f"envido {word}")
        if action is None or action.kind is not ActionKind.ENVIDO:
            raise MalformedCommand("bad_amount", word=word)
        await perform(interaction, table, action)


# --- callbacks' common steps --------------------------------------------------------------------


async def perform(interaction: discord.Interaction[Any], table: Table, action: Action) -> None:
    """Applies a button's move and answers with the page as it is now (the person's move, and
    the bots' if they answer at once); a refusal goes to the presser alone."""
    user_id = interaction.user.id
    if table.seat_of(user_id) is None:
        await _answer(interaction, error("not_seated", table.lang))
        return
    await run_for(interaction, table, lambda: table.act(user_id, action))


async def run_for(interaction: discord.Interaction[Any], table: Table,
                  step: Callable[[], Awaitable[Any]]) -> None:
    """A table step (a move, join, start, …) for a button: its public effect is on the table's
    page, which the interaction's answer updates; a refusal is answered to the presser alone."""
    try:
        await step()
    except MusError as problem:
        await _answer(interaction, error_text(problem, table.lang, table.names()))
        return
    await services(interaction).transport.acknowledge(interaction, table)


async def show_cards(interaction: discord.Interaction[Any], table: Table) -> None:
    """«Ver mis cartas»: the private hand view, ephemeral, with discard controls when the discard
    phase is on; remembered so the transport can refresh it while it lives."""
    user_id = interaction.user.id
    try:
        text = table.private_text(user_id)
    except MusError as problem:
        await _answer(interaction, error_text(problem, table.lang, table.names()))
        return
    controls = discard_view(table, user_id)
    extra: dict[str, Any] = {"view": controls} if controls is not None else {}
    await interaction.response.send_message(text, ephemeral=True, **extra)
    services(interaction).transport.remember_ephemeral(table.channel_id, user_id, interaction)


async def _table_or_say(interaction: discord.Interaction[Any], channel_id: int) -> Table | None:
    table = services(interaction).tables.get(channel_id)
    if table is None:
        await _answer(interaction, error("no_table"))
    return table


async def _discard_state(interaction: discord.Interaction[Any], table: Table,
                         token: str) -> SeatView | None:
    """The presser's view if these discard buttons still speak of the cards they hold."""
    user_id = interaction.user.id
    seat = table.seat_of(user_id)
    if seat is None or table.match is None:
        await _answer(interaction, error("not_seated", table.lang))
        return None
    view = table.match.view(seat)
    if view.phase != "descarte" or discard_token(view.hand_number, len(view.discards)) != token:
        await _answer(interaction, dt("stale_cards", table.lang))
        return None
    return view


async def _answer(interaction: discord.Interaction[Any], text: str) -> None:
    await answer_privately(interaction, text)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


# --- builders -----------------------------------------------------------------------------------


def discard_token(hand_number: int, mus_rounds: int) -> str:
    """Which cards discard buttons refer to: the hand and its mus round."""
    return f"{hand_number}.{mus_rounds}"


def release(view: discord.ui.View | None) -> None:
    """Unlinks a sent one-off view from its buttons. A view and its items point at each other, so
    without this every discard prompt (four per mus round at every table) is a reference cycle
    left to the garbage collector, whose young collections then took milliseconds and stalled
    every table. Its buttons are DynamicItems: discord.py keeps nothing of the view once sent,
    and the view still lists them."""
    if view is None:
        return
    for item in view.children:
        item._update_view(None)
        inner = getattr(item, "item", None)
        if isinstance(inner, discord.ui.Item):
            inner._update_view(None)


def discard_view(table: Table, user_id: int, mask: int = 0) -> discord.ui.View | None:
    """Toggle buttons for the user's cards 1–4 and a confirm, or None outside their discard
    phase. Card labels: only ever sent to this user (DM or ephemeral)."""
    seat = table.seat_of(user_id)
    match = table.match
    if seat is None or match is None or match.finished:
        return None
    view = match.view(seat)
    if view.phase != "descarte":
        return None
    token = discard_token(view.hand_number, len(view.discards))
    controls = discord.ui.View(timeout=None)
    for pos, card in enumerate(view.cards):
        controls.add_item(DiscardToggle(table.channel_id, token, mask, pos,
                                        label=f"{pos + 1} · {card_text(card)}"))
    controls.add_item(DiscardConfirm(table.channel_id, token, mask, table.lang))
    return controls


def action_verbs(table: Table) -> list[str]:
    """The turn buttons for the seat to act: from the kinds of legal move, which are public
    (the phase, a standing bet, an órdago), never from the cards."""
    match = table.match
    seat = match.to_act if match is not None else None
    if match is None or seat is None or match.finished:
        return []
    kinds = {action.kind for action in match.legal_actions(seat)}
    verbs = {verb for kind in kinds for verb in _VERBS_BY_KIND.get(kind, ())}
    return [verb for verb in _VERB_ORDER if verb in verbs]


def page_view(channel_id: int, verbs: tuple[str, ...], lang: str = "es") -> discord.ui.View:
    """A page message's buttons: the moves first, then the table's (see ``pages.Face``)."""
    view = discord.ui.View(timeout=None)
    for verb in verbs:
        if verb in ACTIONS or verb == "envidon":
            view.add_item(ActionButton(channel_id, verb, lang))
    for verb in verbs:
        if verb in TABLE_VERBS:
            view.add_item(TableButton(channel_id, verb, lang))
    return view


def action_view(table: Table) -> discord.ui.View:
    """The turn message's buttons, and «Ver mis cartas» (the only way to discard without DMs)."""
    view = discord.ui.View(timeout=None)
    for verb in action_verbs(table):
        view.add_item(ActionButton(table.channel_id, verb, table.lang))
    view.add_item(TableButton(table.channel_id, "cards", table.lang))
    return view


def single_view(channel_id: int, verb: str, lang: str = "es") -> discord.ui.View:
    """One table button alone (Ver mis cartas, Volver, Revancha) under a public message."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(channel_id, verb, lang))
    return view


def board_verbs(table: Table | None) -> list[str]:
    if table is None or table.state == "closed":
        return []
    if table.state == "waiting":
        return ["join1", "join2", "bot", "start"]
    if table.state == "finished" or (table.match is not None and table.match.finished):
        return ["rematch"]
    verbs = ["cards"]
    if any(s is not None and s.bot is not None and not s.human for s in table.seats):
        verbs.insert(0, "join")
    if any(s is not None and s.away for s in table.seats):
        verbs.append("back")
    return verbs


def board_view(table: Table | None) -> discord.ui.View | None:
    """The table message's buttons for the table's state; None once it is closed."""
    verbs = board_verbs(table)
    if table is None or not verbs:
        return None
    view = discord.ui.View(timeout=None)
    for verb in verbs:
        view.add_item(TableButton(table.channel_id, verb, table.lang))
    return view


def table_embed(table: Table | None, lang: str = "es") -> discord.Embed:
    """The table message: seats, score, lance and turn from :meth:`Table.status`, which renders
    a card-free view by construction."""
    if table is None or table.state == "closed":
        return discord.Embed(title=dt("table_title", lang), description=dt("table_closed", lang),
                             colour=discord.Colour.dark_grey())
    text = table.status()
    if len(text) > EMBED_LIMIT:
        text = text[:EMBED_LIMIT - 1] + "…"
    embed = discord.Embed(title=dt("table_title", table.lang), description=text,
                          colour=EMBED_COLOUR)
    embed.set_footer(text=dt("table_footer", table.lang))
    return embed


def rules_summary(table: Table | None, lang: str = "es") -> str:
    """«reglas»: the table's variants, or the defaults where no table is open."""
    from musbot.engine import Rules
    from musbot.table.render import rules_text

    if table is None:
        return rules_text(Rules(), lang)
    return rules_text(table.rules, table.lang)


__all__ = [
    "ACTIONS", "DYNAMIC_ITEMS", "TABLE_VERBS", "ActionButton", "DiscardConfirm", "DiscardToggle",
    "EnvidoModal", "TableButton", "action_verbs", "action_view", "board_view", "discard_token",
    "discard_view", "perform", "release", "rules_summary", "show_cards", "single_view",
    "table_embed",
]
