"""A table's page as a Discord message: one embed per page, the hand's lines, its status, its
buttons; kept within Discord's embed limits by continuing a long page in a new message.

What a page message shows is captured from the table when it changes (:class:`Snapshot`): by the
time the message is sent or edited the table may be ahead of what it has saved, and nothing
unsaved may be shown. Lines are the table's own (``Page.lines``, append-only, saved first),
plain text shown escaped (``markup.plain``); the footer is shown as it is (Discord renders no
markdown and no mention there).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from musbot.i18n import DISCORD, TABLE
from musbot.table import Page, Table, render, status, texts
from musbot.table.clockwork import REMINDER_SECONDS
from musbot.table.status import NameList, StatusFacts

from . import ui
from .markup import plain

DESCRIPTION_LIMIT = 4096
TITLE_LIMIT = 256
FOOTER_LIMIT = 2048
EMBED_COLOUR = discord.Colour.dark_green()
FINISHED_COLOUR = discord.Colour.dark_grey()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a table published after its last saved change, as a table message shows it: an
    immutable snapshot (``boards.py`` captures it as the change is published, never later), of
    facts worded only when a message shows them."""

    page: Page
    count: int
    """How many of the page's lines were saved and shown by then."""
    title: str
    status: tuple[str, ...]
    """Status lines worded already (a table without a match); a match's are ``facts``."""
    footer: str
    verbs: tuple[str, ...]
    """The buttons: the table's (join, cards, back, rematch…) then the moves of the person
    whose turn it is."""
    lang: str
    closed: bool
    facts: StatusFacts | None = None
    """The match's status (see :mod:`musbot.table.status`), with the seats' ``names``."""
    names: NameList = ()
    section: int = 0
    """Where the part of the hand in play begins among the lines (``Page.section``)."""
    deadline: int | None = None
    """When the turn of the person to act runs out (Unix time), for Discord to count down."""
    speaker: int | None = None
    """The person whose turn it is (a person's own turn, not one a bot plays for them)."""
    turn: int = 0
    """The table's turn (``TableState.turn``): a new one is a new turn to tell."""

    @classmethod
    def capture(cls, table: Table) -> Snapshot:
        page = table.state.page
        lang = table.lang
        names = tuple(table.names().items())
        closed = table.lifecycle == "closed"
        match = table.match
        worded: tuple[str, ...]
        facts: StatusFacts | None
        if closed:
            worded, facts = (), None
        elif match is None or page.hand_number is None:
            worded, facts = (table.status(),), None
        else:
            worded, facts = (), status.status_facts(match.view(-1))
        verbs = tuple(ui.board_verbs(table))
        if table.settled and table.lifecycle == "playing":
            verbs = (*ui.action_verbs(table), *verbs)
        seats = status.seats_text(names, texts.seat_notes(table.state), table.state.players,
                                  lang)
        seat = table.state.person_to_act()
        speaker = table.seats[seat].user_id if seat is not None else None  # type: ignore[union-attr]
        return cls(page, len(page.lines), page_title(page, lang), worded, seats, verbs, lang,
                   closed, facts, names, page.section, turn_ends(table), speaker,
                   table.state.turn)

    def status_lines(self) -> tuple[str, ...]:
        if self.facts is None:
            return self.status
        return status.facts_lines(self.facts, self.names, self.lang)

    def signature(self, first: int, final: bool) -> tuple[Any, ...]:
        """Equal signatures, equal messages: an edit that would change nothing is not made."""
        if final:
            return (self.page.number, self.page.revision, first, self.count, "final",
                    self.page.summary)
        return (self.page.number, self.page.revision, first, self.count, self.status,
                self.facts, self.names, self.verbs, self.footer, self.section, self.deadline)

    @classmethod
    def finished(cls, page: Page, lang: str) -> Snapshot:
        """A finished page: its lines (all saved) and its title are all it shows."""
        return cls(page, len(page.lines), page_title(page, lang), (), "", (), lang, True)


def turn_ends(table: Table) -> int | None:
    """When the turn of the person to act runs out, in Unix time: the clock's deadline for this
    turn, or (the turn just begun, its alarm not set yet) a whole turn from now."""
    state = table.state
    seat = state.person_to_act()
    seconds = state.settings.turn_seconds
    if seat is None or seconds is None:
        return None
    now = table.clock.now()
    due = state.deadline
    if due is not None and due.turn == state.turn and due.seat == seat:
        end = due.at + (REMINDER_SECONDS if due.step == "remind" else 0.0)
    else:
        end = now + seconds
    return round(time.time() + end - now)


def page_title(page: Page, lang: str) -> str:
    return _title(page.hand_number, lang)


@functools.lru_cache(maxsize=1024)
def _title(hand_number: int | None, lang: str) -> str:
    if hand_number is None:
        return DISCORD("table_title", lang)
    return DISCORD("hand_title", lang, number=hand_number)


def split_at(lines: list[str], first: int, count: int, reserve: int) -> int:
    """The end of the lines one message can show from ``first`` (at least one line, cut to fit
    if it alone is too long), leaving ``reserve`` characters for the status."""
    room = DESCRIPTION_LIMIT - reserve
    used = 0
    end = first
    while end < count:
        used += len(lines[end]) + 1
        if used > room and end > first:
            break
        end += 1
    return end


@dataclass(frozen=True, slots=True)
class RenderedMessage:
    embed: discord.Embed
    view_verbs: tuple[str, ...]
    end: int
    """The line after the last one shown."""
    frozen: bool
    """The page goes on beyond ``end``, in another message: this one's lines are final."""
    signature: tuple[Any, ...]


@dataclass(slots=True)
class Escaped:
    """A page's lines as Discord gets them (:func:`~.markup.plain`), each escaped once: a page
    is rendered at every edit, its lines only ever added to, or reworded as a whole (a new
    revision: a forgotten player's name)."""

    revision: int = -1
    lines: list[str] = field(default_factory=list)

    def upto(self, page: Page, count: int) -> list[str]:
        """The first ``count`` lines (at least), escaped."""
        if self.revision != page.revision:
            self.revision, self.lines = page.revision, []
        lines = self.lines
        for line in page.lines[len(lines):count]:
            shown = plain(line)
            lines.append(line if shown == line else shown)  # the same string, kept once
        return lines


Cards = Callable[[str], str]
"""What a message does to the cards in a text before it goes (custom emojis for them)."""


def render_page(snapshot: Snapshot, first: int, *, final: bool, escaped: Escaped | None = None,
                cards: Cards | None = None) -> RenderedMessage:
    """The message showing ``snapshot``'s page from line ``first``. A hand in play reads as a Mus
    table: its title the hand, the part of it in play and who speaks; fields the score, the
    envite standing and the turn's clock; its text only the words of the part in play. A
    finished hand collapses to its summary (its whole log one press away, «Ver jugada»). The
    lobby, a closed table and a page from before summaries show their lines and status.
    ``escaped``: the page's lines escaped by an earlier render; ``cards``: applied to the
    cards a finished hand's summary shows."""
    page = snapshot.page
    if first == 0 and page.hand_number is not None:
        if page.summary:  # the hand is over (the match's last one stays the live page)
            return _finished_hand(snapshot, cards, final=final)
        if not final and not snapshot.closed and snapshot.facts is not None:
            return _live_hand(snapshot, escaped)
    return _lines_page(snapshot, first, final=final, escaped=escaped)


def _live_hand(snapshot: Snapshot, escaped: Escaped | None) -> RenderedMessage:
    facts = snapshot.facts
    assert facts is not None
    shown = (escaped or Escaped()).upto(snapshot.page, snapshot.count)
    lines = shown[snapshot.section:snapshot.count]
    text = "\n".join(lines)
    while len(text) > DESCRIPTION_LIMIT and len(lines) > 1:  # the part's latest words
        lines = lines[1:]
        text = "\n".join(lines)
    worded = _live_words(facts, snapshot.names, snapshot.lang, snapshot.page.hand_number or 0)
    embed = discord.Embed(title=worded[0][:TITLE_LIMIT], description=text[:DESCRIPTION_LIMIT]
                          or None, colour=EMBED_COLOUR)
    for name, value in worded[1]:
        embed.add_field(name=name, value=value, inline=True)
    if snapshot.deadline is not None and facts.to_act is not None:
        embed.add_field(name=DISCORD("field_time", snapshot.lang),
                        value=f"<t:{snapshot.deadline}:R>", inline=True)
    embed.set_footer(text=worded[2][:FOOTER_LIMIT])
    return RenderedMessage(embed, snapshot.verbs, snapshot.count, False,
                           snapshot.signature(0, False))


@functools.lru_cache(maxsize=1024)
def _live_words(facts: StatusFacts, names: NameList, lang: str, number: int
                ) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """A hand in play's title, fields and footer: cached, the same at every edit until the
    score, the part of the hand, the envite or the turn changes. A few entries a table: what is
    rendered again is the state just rendered (its edit, a press's answer), so 1,024 keep 52 % of
    the hits 4,096 kept at a thousand tables, for 5 MB less."""
    by_seat = dict(names)
    if facts.phase == "mus":
        part = DISCORD("part_mus", lang)
    elif facts.phase == "descarte":
        part = DISCORD("part_descarte", lang)
    elif facts.lance is not None:
        part = render.lance_name(facts.lance, lang)
    else:
        part = ""
    key = "hand_title_turn" if facts.to_act is not None else "hand_title_part"
    title = DISCORD(key, lang, number=number, part=part,
                    name=render.name_of(facts.to_act, by_seat, lang))
    fields = []
    for team in (0, 1):
        members = ", ".join(render.name_of(s, by_seat, lang)
                            for s in range(team, facts.players, 2))
        fields.append((render.pair_label(team, facts.players, lang)[:256],
                       plain(members)[:300] + "\n"
                       + render.tantos_text(facts.scores[team], facts.target, lang)))
    if facts.ordago:
        bet = DISCORD("bet_ordago", lang, name=render.name_of(facts.bettor, by_seat, lang))
    elif facts.bet:
        bet = DISCORD("bet_envite", lang, bet=facts.bet,
                      name=render.name_of(facts.bettor, by_seat, lang))
    else:
        bet = ""  # nothing stands: no field (two lines fewer on a phone)
    if bet:
        fields.append((DISCORD("field_bet", lang), plain(bet)[:1024]))
    footer = " · ".join([TABLE("status_games", lang, a=facts.games[0], b=facts.games[1],
                               c=facts.vacas[0], d=facts.vacas[1]),
                         TABLE("status_mano", lang,
                               name=render.name_of(facts.mano, by_seat, lang)).rstrip(".")])
    return title, tuple(fields), footer


def _finished_hand(snapshot: Snapshot, cards: Cards | None, *, final: bool) -> RenderedMessage:
    page = snapshot.page
    after = [text for position, text in page.notes if position >= page.events]
    shown = [plain(line) for line in (*page.summary, *after)]
    text = "\n".join(shown)
    if cards is not None:
        text = cards(text)
    embed = discord.Embed(title=snapshot.title[:TITLE_LIMIT],
                          description=text[:DESCRIPTION_LIMIT] or None, colour=FINISHED_COLOUR)
    if page.picture is not None or page.pictured:
        embed.set_image(url=f"attachment://{picture_name(page)}")
    verbs = HAND_VERBS if final or snapshot.closed else (*snapshot.verbs, *HAND_VERBS)  # a rematch
    return RenderedMessage(embed, verbs, snapshot.count, False, snapshot.signature(0, final))


HAND_VERBS = ("log", "repaso")
"""A finished hand's buttons: its whole log, and «¿Cómo jugué?» (``ui.hand_view``)."""


def picture_name(page: Page) -> str:
    """The showdown picture's file, named by its hand (the page's number counts the lobby's)."""
    return f"mano-{page.hand_number or page.number}.png"


def _lines_page(snapshot: Snapshot, first: int, *, final: bool, escaped: Escaped | None
                ) -> RenderedMessage:
    """A page's lines from ``first`` with the status and the buttons while it is live (the
    lobby), only the lines once it is finished or continued elsewhere."""
    lines = (escaped or Escaped()).upto(snapshot.page, snapshot.count)[first:snapshot.count]
    worded = "" if final else "\n".join(plain(line) for line in snapshot.status_lines())
    reserve = len(worded) + 2 if worded else 0
    end = first + split_at(lines, 0, len(lines), reserve)
    frozen = end < snapshot.count
    shown = [line if len(line) <= DESCRIPTION_LIMIT else line[:DESCRIPTION_LIMIT - 1] + "…"
             for line in lines[:end - first]]
    text = "\n".join(shown)
    if worded and not frozen:
        text = f"{text}\n\n{worded}" if text else worded
        if len(text) > DESCRIPTION_LIMIT:
            text = text[:DESCRIPTION_LIMIT - 1] + "…"
    embed = discord.Embed(title=snapshot.title[:TITLE_LIMIT], description=text or None,
                          colour=FINISHED_COLOUR if final or snapshot.closed else EMBED_COLOUR)
    if not final and not frozen:
        embed.set_footer(text=snapshot.footer[:FOOTER_LIMIT])
    live = not final and not frozen and not snapshot.closed
    verbs = snapshot.verbs if live else ()
    signature = (snapshot.page.number, snapshot.page.revision, first, end, "final") if frozen else \
        snapshot.signature(first, final)
    return RenderedMessage(embed, verbs, end, frozen, signature)
