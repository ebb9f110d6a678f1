"""Buttons, the envido modal and the table embed: Discord's input for a :class:`Table`.

Every button is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what the button does
(the table is the channel of the message it is pressed on), so the buttons keep working after a
restart (registered once with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``). Callbacks are thin:
find the table, call one of its coroutines, word its error. The rules stay in the engine.

Privacy: public views are built from the table's public state only (whose turn, which kinds of
move are legal now); card labels appear only in the discard controls, which are sent by DM or as
an ephemeral answer to the card holder.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from musbot.coach.reviewer import REVIEWER, ReviewRefused
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
    mas,
)
from musbot.i18n import DISCORD
from musbot.table import Table, TableError

from .callbacks import Guarded, services, table_or_say
from .discard import discard_view, emojis_of
from .failures import answer_privately, guarded, report
from .locales import recall
from .markup import plain, seat_name
from .texts import MESSAGE_LIMIT

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

TABLE_VERBS = ("join1", "join2", "join", "bot", "start", "cards", "back", "rematch", "repaso")
_TABLE_LOOK: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join1": ("btn_join", discord.ButtonStyle.primary),
    "join2": ("btn_join", discord.ButtonStyle.primary),
    "join": ("btn_join_any", discord.ButtonStyle.primary),
    "bot": ("btn_bot", discord.ButtonStyle.secondary),
    "start": ("btn_start", discord.ButtonStyle.success),
    "cards": ("btn_cards", discord.ButtonStyle.secondary),
    "back": ("btn_back", discord.ButtonStyle.success),
    "rematch": ("btn_rematch", discord.ButtonStyle.success),
    "repaso": ("btn_repaso", discord.ButtonStyle.secondary),
}
"""Labels from the ``DISCORD`` catalogue."""
MOVES_A_ROW = 3
"""Move buttons side by side: three short labels fit a phone's 390 px."""
BUTTONS_A_ROW = 4


# --- the dynamic items --------------------------------------------------------------------------


def _custom_id(kind: str, verb: str, channel_id: int | None) -> str:
    """``mus:a:envido``: a table message's button names no channel, as the message is in the
    table's own, so one row of buttons serves every table (:func:`page_view`). Buttons sent
    before named theirs (``mus:a:<channel>:envido``) and still work."""
    return f"mus:{kind}:{verb}" if channel_id is None else f"mus:{kind}:{channel_id}:{verb}"


def _channel(interaction: discord.Interaction[Any], match: Any) -> int:
    """The table a press is for: the channel its button names, else the message's own."""
    if match["channel"]:
        return int(match["channel"])
    if interaction.channel_id is None:  # a message somewhere else: no table of ours
        raise TableError("no_table")
    return interaction.channel_id


class ActionButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"mus:a:(?:(?P<channel>[0-9]+):)?(?P<verb>" + "|".join(ACTION_VERBS)
                   + ")"):
    """A move on the turn message: Mus, Paso, Envido, Quiero… (or «Envido N…», a modal)."""

    def __init__(self, verb: str, lang: str = "es", channel_id: int | None = None) -> None:
        key, style = _ACTION_LOOK[verb]
        super().__init__(discord.ui.Button(label=DISCORD(key, lang), style=style,
                                           custom_id=_custom_id("a", verb, channel_id)))
        self.channel_id = channel_id or 0  # a button shown: the press says its channel
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> ActionButton:
        return cls(match["verb"], channel_id=_channel(interaction, match))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_or_say(interaction, self.channel_id)
        if self.verb == "ordago":  # one tap must not lose a match: asked again, privately
            table.state.require_seat(interaction.user.id)
            lang = table.lang_for(interaction.user.id)
            await interaction.response.send_message(
                DISCORD("ordago_sure", lang), ephemeral=True,
                view=ordago_view(table.state.turn, lang))
            return
        if self.verb == "envidon":
            table.state.require_seat(interaction.user.id)
            await interaction.response.send_modal(
                EnvidoModal(self.channel_id, table.lang_for(interaction.user.id)))
            return
        await perform(interaction, table, ACTIONS[self.verb])


class OrdagoConfirm(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"mus:oc:(?P<answer>yes|no):(?P<turn>[0-9]{1,9})"):
    """«¿Órdago? Sí / No», answered to the «Órdago» button (a typed «órdago» needs none). The
    turn it was asked at is in its custom_id: a «Sí» pressed once the turn has moved on is
    refused, never an órdago somewhere else."""

    def __init__(self, answer: str, turn: int, lang: str = "es") -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label=DISCORD("btn_ordago_yes" if yes else "btn_ordago_no", lang),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"mus:oc:{answer}:{turn}"))
        self.answer = answer
        self.turn = turn
        self.channel_id = 0

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> OrdagoConfirm:
        button = cls(match["answer"], int(match["turn"]))
        button.channel_id = interaction.channel_id or 0
        return button

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_or_say(interaction, self.channel_id)
        lang = table.lang_for(interaction.user.id)
        if self.answer == "no":
            await interaction.response.edit_message(content=DISCORD("ordago_dropped", lang),
                                                    view=None)
            return
        if table.state.turn != self.turn:
            await interaction.response.edit_message(content=DISCORD("ordago_late", lang),
                                                    view=None)
            return
        await table.act(interaction.user.id, ORDAGO)
        await interaction.response.edit_message(content=DISCORD("ordago_said", lang), view=None)


@functools.lru_cache(maxsize=256)
def ordago_view(turn: int, lang: str = "es") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(OrdagoConfirm("yes", turn, lang))
    view.add_item(OrdagoConfirm("no", turn, lang))
    return view


class TableButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"mus:t:(?:(?P<channel>[0-9]+):)?(?P<verb>" + "|".join(TABLE_VERBS)
                  + ")"):
    """The table message's buttons: sit down, add a bot, start, see my cards, back, rematch."""

    def __init__(self, verb: str, lang: str = "es", channel_id: int | None = None) -> None:
        key, style = _TABLE_LOOK[verb]
        pair = verb[-1] if verb in ("join1", "join2") else ""
        super().__init__(discord.ui.Button(label=DISCORD(key, lang, pair=pair), style=style,
                                           custom_id=_custom_id("t", verb, channel_id)))
        self.channel_id = channel_id or 0  # a button shown: the press says its channel
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> TableButton:
        return cls(match["verb"], channel_id=_channel(interaction, match))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_or_say(interaction, self.channel_id)
        if self.verb == "cards":
            await show_cards(interaction, table)
            return
        if self.verb == "repaso":
            await show_review(interaction, table)
            return
        user = interaction.user
        verb = self.verb
        if verb.startswith("join"):
            pair = int(verb[-1]) - 1 if verb != "join" else None
            await recall(interaction.client, user.id, again=True)  # their DMs in their language
            await run_for(interaction, table, lambda: table.join(user.id, seat_name(user), pair))
        elif verb == "bot":
            await run_for(interaction, table, table.add_bot)
        elif verb == "start":
            await run_for(interaction, table, lambda: table.start(user.id))
        elif verb == "back":
            await run_for(interaction, table, lambda: table.come_back(user.id))
        elif verb == "rematch":
            await run_for(interaction, table, lambda: table.rematch(user.id))


class HandButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"mus:h:(?P<verb>log|repaso):(?P<page>[0-9]{1,9})"):
    """A finished hand's buttons: its whole log («Ver jugada») and «¿Cómo jugué?», answered
    to the presser alone. The page is the table's page number (a hand's number repeats from
    match to match); the table is the message's channel."""

    def __init__(self, verb: str, page: int, lang: str = "es") -> None:
        label = DISCORD("btn_log" if verb == "log" else "btn_repaso", lang)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"mus:h:{verb}:{page}"))
        self.verb = verb
        self.page = page
        self.channel_id = 0

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any, /) -> HandButton:
        button = cls(match["verb"], int(match["page"]))
        button.channel_id = interaction.channel_id or 0
        return button

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        table = await table_or_say(interaction, self.channel_id)
        page = services(interaction).transport.page(self.channel_id, self.page)
        lang = table.lang_for(interaction.user.id)
        if page is None or page.hand_number is None:
            await answer_privately(interaction, DISCORD("hand_gone", lang))
            return
        if self.verb == "repaso":
            await show_review(interaction, table, page.hand_number)
            return
        for part in _parts("\n".join(plain(line) for line in page.lines)):
            await answer_privately(interaction, part)


@functools.lru_cache(maxsize=1024)
def hand_view(page: int, lang: str = "es") -> discord.ui.View:
    """A finished hand's message's buttons (see :class:`HandButton`)."""
    view = discord.ui.View(timeout=None)
    for verb in ("log", "repaso"):
        view.add_item(HandButton(verb, page, lang))
    return view


TABLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ActionButton, TableButton,
                                                               HandButton, OrdagoConfirm)
"""The buttons of the table's messages (the discard buttons are in ``discard.py``)."""


class EnvidoModal(discord.ui.Modal):
    """«Envido N…»: asks the amount; while a bet stands the engine takes it as N más (§4)."""

    def __init__(self, channel_id: int, lang: str = "es") -> None:
        super().__init__(title=DISCORD("modal_title", lang), timeout=300)
        self.channel_id = channel_id
        self.amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
            placeholder="5", min_length=1, max_length=20)
        self.add_item(discord.ui.Label(text=DISCORD("modal_label", lang), component=self.amount))

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        await guarded(interaction, self.channel_id,
                      lambda: self.submit(interaction, self.amount.value))

    async def on_error(  # type: ignore[override]  # discord.py types Modal's as a View's
            self, interaction: discord.Interaction[Any], error: Exception, /) -> None:
        await report(interaction, error, table=services(interaction).tables.get(self.channel_id))

    async def submit(self, interaction: discord.Interaction[Any], value: str) -> None:
        from musbot.grammar import parse  # the grammar says what an amount is (§4)

        table = await table_or_say(interaction, self.channel_id)
        word = value.strip()
        action = parse(f"envido {word}")
        if action is None or action.kind is not ActionKind.ENVIDO:
            raise MalformedCommand("bad_amount", word=word)
        await perform(interaction, table, action)


# --- callbacks' common steps --------------------------------------------------------------------


async def perform(interaction: discord.Interaction[Any], table: Table, action: Action) -> None:
    """Applies a button's move and answers with the page as it is now (the person's move, and
    the bots' if they answer at once)."""
    user_id = interaction.user.id
    await run_for(interaction, table, lambda: table.act(user_id, action))


async def run_for(interaction: discord.Interaction[Any], table: Table,
                  step: Callable[[], Awaitable[Any]]) -> None:
    """A table step (a move, join, start, …) for a button: its public effect is on the table's
    page, which the interaction's answer updates. A refusal goes up to the one error path
    (:func:`~musbot.discordio.failures.guarded`), which answers the presser alone."""
    await step()
    await services(interaction).transport.acknowledge(interaction, table)


async def show_cards(interaction: discord.Interaction[Any], table: Table) -> None:
    """«Ver mis cartas»: the private hand view, ephemeral, with discard controls when the discard
    phase is on; remembered so the transport can refresh it while it lives."""
    user_id = interaction.user.id
    text = plain(table.private_text(user_id))
    controls = discard_view(table, user_id, emojis=emojis_of(interaction.client))
    extra: dict[str, Any] = {"view": controls} if controls is not None else {}
    await interaction.response.send_message(text, ephemeral=True, **extra)
    services(interaction).transport.remember_ephemeral(table.channel_id, user_id, interaction,
                                                       text)


async def show_review(interaction: discord.Interaction[Any], table: Table,
                      number: int | None = None) -> None:
    """«¿Cómo jugué?»: the presser's review of a hand, privately; computed off the event loop
    (:meth:`Table.review`), so the answer is deferred first. Not seated: the one error path."""
    async with REVIEWER.answering():  # a bot stopping answers it first
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            text = await table.review(interaction.user.id, number)
        except ReviewRefused as refused:
            text = refused.text(table.lang_for(interaction.user.id))
        for part in _parts(text):
            await answer_privately(interaction, part)


def _parts(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Whole lines per message, within Discord's limit (a line never comes near it)."""
    parts: list[str] = []
    for line in text.split("\n"):
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line[:limit])
    return parts


# --- builders -----------------------------------------------------------------------------------


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


@functools.lru_cache(maxsize=1024)
def page_view(verbs: tuple[str, ...], lang: str = "es", page: int = 0) -> discord.ui.View:
    """A page message's buttons: the moves first, then the table's (see ``embeds.Snapshot``). Built
    once per row of buttons and language for every table: the buttons name no channel, and
    discord.py keeps nothing of a sent view whose items are all DynamicItems."""
    view = discord.ui.View(timeout=None)
    moves = [verb for verb in verbs if verb in ACTIONS or verb == "envidon"]
    placed = [0] * 5
    row = 0
    for i, verb in enumerate(moves):  # the answers first, three a row: two rows on a phone
        row = i // MOVES_A_ROW
        button: ActionButton | TableButton | HandButton = ActionButton(verb, lang)
        button.item.row = row
        placed[row] += 1
        view.add_item(button)
    for verb in (v for v in verbs if v in TABLE_VERBS or v in HAND_BUTTONS):
        if placed[row] >= BUTTONS_A_ROW:  # then the table's, where room is
            row += 1
        button = HandButton(HAND_BUTTONS[verb], page, lang) if verb in HAND_BUTTONS else \
            TableButton(verb, lang)
        button.item.row = row
        placed[row] += 1
        view.add_item(button)
    return view


HAND_BUTTONS = {"log": "log", "repaso": "repaso"}
"""A finished hand's verbs as its :class:`HandButton`'s (the match's last hand, live, shows
them beside «Revancha»)."""


@functools.lru_cache(maxsize=256)
def single_view(verb: str, lang: str = "es") -> discord.ui.View:
    """One table button alone (Ver mis cartas, Volver, Revancha) under a public message."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(verb, lang))
    return view


def board_verbs(table: Table | None) -> list[str]:
    """The table's own buttons for the moment: sitting down only before the match (and only
    in a pair with a seat free; with all seats taken, «Empezar» alone), during a hand only what
    belongs to it (one's cards, coming back), the rematch once the match is over. A finished
    hand's «¿Cómo jugué?» is on that hand's message (:func:`hand_view`)."""
    if table is None or table.lifecycle == "closed":
        return []
    if table.lifecycle == "waiting":
        free = [pair for pair in (0, 1) if any(
            table.seats[seat] is None for seat in range(pair, len(table.seats), 2))]
        verbs = [f"join{pair + 1}" for pair in free]
        return [*verbs, "bot", "start"] if free else ["start"]
    match = table.match
    if table.lifecycle == "finished" or (match is not None and match.finished):
        return ["rematch"]
    verbs = ["cards"]
    if any(s is not None and s.away for s in table.seats):
        verbs.append("back")
    return verbs


def rules_summary(table: Table | None, lang: str = "es") -> str:
    """«reglas»: the table's variants, or the defaults where no table is open; in ``lang``
    (the reader's)."""
    from musbot.engine import Rules
    from musbot.table.status import rules_text

    return rules_text(table.state.rules if table is not None else Rules(), lang)


__all__ = [
    "ACTIONS",
    "TABLE_ITEMS",
    "TABLE_VERBS",
    "ActionButton",
    "EnvidoModal",
    "HandButton",
    "OrdagoConfirm",
    "TableButton",
    "action_verbs",
    "board_verbs",
    "hand_view",
    "ordago_view",
    "page_view",
    "perform",
    "rules_summary",
    "show_cards",
    "show_review",
    "single_view",
]
