"""The table messages of every table channel: one live message per page (a hand, or the lobby)
showing every move of it, its status and its buttons, kept current through the governor.

- A page's message is edited at most once a second (the governor), the bots' moves between two
  people's turns in one edit (:data:`HOLD_SECONDS`); a finished hand's message keeps its
  showdown and score, the next hand gets a new one; a long page goes on in a new message.
- The messages of a page are remembered with its table (``Table.remember_refs``), so after a
  restart the same messages are edited: every move shows exactly once.
- A button pressed on a page's message is answered with the page itself (``UPDATE_MESSAGE``,
  outside the global budget) instead of an edit of the channel.

Nothing here logs what a message says.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from musbot.i18n import DISCORD
from musbot.pictures.table import table_png
from musbot.table import Clock, Page, Table

from . import ui
from .bookkeeping import Bookkeeping
from .drawing import Painter, PicturesBusy
from .embeds import HAND_VERBS, Cards, Escaped, RenderedMessage, Snapshot, picture_name, render_page
from .governor import Governor
from .markup import NO_MENTIONS, mentioning
from .messenger import Messenger

log = logging.getLogger(__name__)

RECENT_PAGES = 3
REPOST_BELOW = 5
"""Messages below the live table message after which it is posted again at the bottom: a
hand's words typed under it never push it off a phone's screen (at most five messages up).
It goes down with the table's next change (a post and a delete where an edit was due); chat
alone brings it down at most every :data:`REPOST_QUIET` seconds."""
REPOST_QUIET = 15.0
WATCHING_SECONDS = 60.0
"""A person heard at the table this recently is watching it: their turn is told by the table
message itself (its title names who speaks). Anyone else is called, by a mention that pings
them alone."""
HOLD_SECONDS = 15.0
"""While bots play, the page waits for the next person's turn to show their moves in one edit;
in a longer stretch of bots (a person away, a whole hand of bots) it is edited at most this
often."""


@dataclass
class PageMessage:
    """One message showing a page from its line ``first``."""

    message_id: int
    first: int
    end: int = 0
    """The line after its last one."""
    frozen: bool = False
    """Its lines are final: the page goes on in a later message."""
    signature: tuple[Any, ...] | None = None
    """What it shows now; None after a restart (unknown: edit it anyway)."""

    def shows(self, rendered: RenderedMessage) -> None:
        self.end = rendered.end
        self.frozen = rendered.frozen
        self.signature = rendered.signature


@dataclass
class PageMessages:
    """A page and the messages that show it."""

    page: Page
    messages: list[PageMessage] = field(default_factory=list)
    posting: bool = False
    """A message for it is queued or on its way."""
    escaped: Escaped = field(default_factory=Escaped)
    pictured: bool = False
    """Its showdown's picture went with its message (drawn once, off the event loop)."""
    png: bytes | None = None
    """The picture, drawn before the call that sends it takes the channel's slot."""
    drawing: bool = False

    @property
    def last(self) -> PageMessage | None:
        return self.messages[-1] if self.messages else None

    def next_first(self) -> int:
        """Where a new message for the page starts: after the frozen ones."""
        last = self.last
        return 0 if last is None else last.end

    def refs(self) -> list[tuple[int, int]]:
        return [(shown.message_id, shown.first) for shown in self.messages]


@dataclass
class Board:
    """What the transport keeps per table channel."""

    channel_id: int
    channel: discord.abc.Messageable
    table: Table | None = None
    """The table it shows, once it has shown it."""
    lang: str = "es"
    snapshot: Snapshot | None = None
    """What the table last published (captured right after its change was saved: an immutable
    snapshot, so a message never shows anything unsaved, nor words the past with who sits
    there now)."""
    live: PageMessages | None = None
    restored: bool = False
    """The table just came back after a restart: its page is shown again at once."""
    recent: dict[int, PageMessages] = field(default_factory=dict)
    """Finished pages by their last message, a few: a button pressed there is answered with
    the page's final form."""
    unsettled_since: float | None = None
    changed_at: float | None = None
    """When the table last changed, or was shown again: what an idle table's time counts
    from."""
    below: set[int] = field(default_factory=set)
    """Messages seen in the channel after the live message (:data:`REPOST_BELOW`)."""
    reposted_at: float = float("-inf")
    heard: dict[int, float] = field(default_factory=dict)
    """When each person was last heard at the table (a word typed, a button pressed)."""
    told_turn: int | None = None
    """The last turn whose person was told (called, or seen watching)."""
    call: tuple[int, int, str] | None = None
    """(person, turn, text) the live message calls while that turn stands: its content,
    mentioning them alone, on a message posted anew (an edit notifies nobody)."""
    dm_call: tuple[int, int] | None = None
    """(person, turn) called by DM, that DM taken back once the turn is played."""


class Boards:
    """Every table channel's board, through ``governor``. ``bookkeeping`` runs the table's
    bookkeeping that follows a call (remembering a page's messages) without holding up the
    channel; ``messenger`` calls by DM those who asked to be (``/mus avisos``), and takes the DM
    back once their turn is played; ``painter`` draws the showdowns."""

    def __init__(self, client: discord.Client, governor: Governor, clock: Clock,
                 bookkeeping: Bookkeeping, messenger: Messenger, painter: Painter) -> None:
        self.client = client
        self.governor = governor
        self.clock = clock
        self.boards: dict[int, Board] = {}
        self._spawn = bookkeeping.spawn
        self.messenger = messenger
        self.calls: dict[int, str] = {}
        """How each person asked to be told their turn (``/mus avisos``: a mention unless
        ``dm``), as far as known."""
        self.painter = painter

    def get(self, channel_id: int) -> Board | None:
        """The channel's board (None: no table shown there)."""
        return self.boards.get(channel_id)

    def call_by(self, user_id: int, way: str) -> None:
        """How the person asked to be told their turn: ``mention`` or ``dm``."""
        self.calls[user_id] = way

    def table(self, channel_id: int) -> Table | None:
        """The table a channel's board shows (None: none shown there)."""
        board = self.boards.get(channel_id)
        return board.table if board is not None else None

    def bind(self, channel_id: int, channel: discord.abc.Messageable) -> Board:
        """Where a table speaks."""
        board = self.boards.get(channel_id)
        if board is None:
            board = self.boards[channel_id] = Board(channel_id, channel)
        board.channel = channel
        return board

    def restore(self, table: Table) -> None:
        """A restored table, before it resumes: its page and the one before are shown in the
        messages that showed them before the restart (their ends may not have been shown)."""
        board = self.boards.get(table.channel_id)
        if board is None:
            return
        board.table = table
        board.lang = table.lang
        board.restored = True
        board.changed_at = self.clock.now()
        previous = table.state.pages.previous
        if previous is not None:
            self._finish(board, PageMessages(previous, _restored_messages(previous)))
        board.live = PageMessages(table.state.page, _restored_messages(table.state.page))

    def _tell_turn(self, board: Board, snapshot: Snapshot) -> bool:
        """A new turn of a person's: told by the table message if they are watching, else
        called by it (:data:`WATCHING_SECONDS`). True if the message must call them now."""
        if board.call is not None and board.call[1] != snapshot.turn:
            board.call = None  # that turn is played: its call goes with the next edit
        if board.dm_call is not None and board.dm_call[1] != snapshot.turn:
            self.messenger.call_played(board.channel_id, board.dm_call[0])
            board.dm_call = None
        speaker = snapshot.speaker
        if speaker is None or snapshot.turn == board.told_turn:
            return False
        board.told_turn = snapshot.turn
        heard = board.heard.get(speaker)
        if heard is not None and self.clock.now() - heard < WATCHING_SECONDS:
            return False
        if self.calls.get(speaker) == "dm":
            board.dm_call = (speaker, snapshot.turn)
            self.messenger.call_by_dm(board.channel_id, speaker, board.channel,
                                      self.lang_of(board.channel_id, speaker))
            return False
        board.call = (speaker, snapshot.turn,
                      DISCORD("turn_call", board.lang, mention=f"<@{speaker}>"))
        return True

    def remind(self, channel_id: int, user_id: int, text: str) -> bool:
        """The turn's reminder, as the live message's call (posted anew at the bottom, so it
        notifies the person alone, and goes with the turn). False: no live hand to carry it."""
        board = self.boards.get(channel_id)
        snapshot = board.snapshot if board is not None else None
        if board is None or snapshot is None or snapshot.speaker != user_id or board.live is None \
                or not board.live.messages:
            return False
        board.call = (user_id, snapshot.turn, text)
        self.repost(channel_id)
        return True

    def lang_of(self, channel_id: int, user_id: int) -> str:
        """The person's language, as the table they sit at knows it."""
        table = self.table(channel_id)
        return table.lang_for(user_id) if table is not None else "es"

    def heard(self, channel_id: int, user_id: int) -> None:
        """The person did something at the table (typed, pressed): they are watching it."""
        board = self.boards.get(channel_id)
        if board is not None:
            board.heard[user_id] = self.clock.now()

    def seen(self, channel_id: int, message_id: int) -> None:
        """A message in the channel (anyone's): past :data:`REPOST_BELOW` of them below the
        live message, it is posted again at the bottom."""
        board = self.boards.get(channel_id)
        live = board.live if board is not None else None
        if board is None or live is None or live.last is None or live.posting \
                or message_id <= live.last.message_id or live.page.final:
            return
        board.below.add(message_id)
        if len(board.below) >= REPOST_BELOW and \
                self.clock.now() - board.reposted_at >= REPOST_QUIET:
            self.repost(channel_id)

    def repost(self, channel_id: int) -> None:
        """The live message again at the channel's bottom (``/mus mesa``, a call, words typed
        under it): the old one is deleted, so no move is shown twice."""
        board = self.boards.get(channel_id)
        if board is None or board.live is None or board.live.posting:
            return
        board.changed_at = board.reposted_at = self.clock.now()  # shown again: not idle
        board.below = set()
        live = board.live
        last = live.last
        if last is not None and not last.frozen:
            live.messages.pop()
            self.governor.forget_edit(channel_id, last.message_id)
            self.governor.delete(channel_id, self.clock.now(), self._remover(board, last))
        self._post_page(board, live)

    def page(self, channel_id: int, number: int) -> Page | None:
        """The channel's page ``number``, if it is still kept (the live one, a few finished
        ones, or the table's last two)."""
        board = self.boards.get(channel_id)
        views = [] if board is None else [board.live, *board.recent.values()]
        found = [v.page for v in views if v is not None and v.page.number == number]
        table = board.table if board is not None else None
        if table is not None:
            found += [p for p in (table.state.page, table.state.pages.previous)
                      if p is not None and p.number == number]
        return found[0] if found else None

    def changed_at(self, channel_id: int) -> float | None:
        """When the channel's table last changed or was shown again (None: not shown yet)."""
        board = self.boards.get(channel_id)
        return board.changed_at if board is not None else None

    def reshow(self, channel_id: int) -> None:
        """The channel may be written to again after a while it could not (its permissions
        came back): what was not shown meanwhile is. The finished pages' messages are edited
        to their final form, the live page is shown anew at the bottom (see :meth:`repost`)."""
        board = self.boards.get(channel_id)
        if board is None:
            return
        for shown in board.recent.values():
            for message in shown.messages:
                message.signature = None  # what it shows is not known: edit it anyway
            if not shown.posting:
                self._edit_page(board, shown)
        live = board.live
        if live is None:
            return
        if not live.messages and not live.posting:
            self._post_page(board, live)  # its first message never went
        else:
            self.repost(channel_id)

    def changed(self, table: Table) -> None:
        board = self.boards.get(table.channel_id)
        if board is None:
            channel = self.client.get_channel(table.channel_id)
            if channel is None or not hasattr(channel, "send"):
                return  # not reachable (yet): a restored table is shown once it resumes
            board = self.bind(table.channel_id, channel)  # type: ignore[arg-type]
        board.table = table
        board.snapshot = snapshot = Snapshot.capture(table)
        board.lang = table.lang
        called = self._tell_turn(board, snapshot)
        page = table.state.page
        now = self.clock.now()
        board.changed_at = now
        if table.settled:
            board.unsettled_since = None
        elif board.unsettled_since is None:
            board.unsettled_since = now
        live = board.live
        if live is None or live.page is not page:
            if live is not None:
                self._finish(board, live)
            board.live = live = PageMessages(page)
            board.below = set()  # the new hand's message goes at the bottom
        for finished in board.recent.values():
            if finished.page is table.state.pages.previous and not finished.posting:
                self._edit_page(board, finished)  # worded again (a name forgotten)?
        if live.posting:
            return  # the post renders the latest snapshot when it goes
        if not live.messages:
            self._post_page(board, live)
            return
        if called or len(board.below) >= REPOST_BELOW:  # anew at the bottom: in view, and
            self.repost(table.channel_id)  # notifying the person whose turn it is
            return
        hold = None if board.unsettled_since is None or board.restored else \
            board.unsettled_since + HOLD_SECONDS
        board.restored = False
        self._edit_page(board, live, not_before=hold)
        if table.lifecycle == "closed":
            self._drop_when_done(board)

    def _finish(self, board: Board, shown: PageMessages) -> None:
        """A page is over: its messages show all its lines, without buttons."""
        shown.page.final = True
        shown.escaped = Escaped()  # a finished hand shows its summary: its lines escaped go
        if shown.last is not None:
            board.recent[shown.last.message_id] = shown
            while len(board.recent) > RECENT_PAGES:
                del board.recent[next(iter(board.recent))]
        if shown.page.picture is not None and not shown.pictured and shown.png is None:
            self._draw_first(board, shown)
            return
        self._show_final(board, shown)

    def _show_final(self, board: Board, shown: PageMessages) -> None:
        if shown.posting:
            return  # its post renders it final
        if not shown.messages:
            self._post_page(board, shown)
        else:
            self._edit_page(board, shown)

    def _draw_first(self, board: Board, shown: PageMessages) -> None:
        """The showdown's picture is drawn before its message's call is queued: a call that
        waited for a drawing after taking its slot would reach Discord late, beside the next
        window's calls (six edits in five seconds)."""
        shown.drawing = True

        async def draw() -> None:
            try:
                shown.png = await self._drawn(shown)
            finally:
                shown.drawing = False
            if not self.governor.stopped:
                self._show_final(board, shown)

        self._spawn(draw())

    async def _drawn(self, shown: PageMessages) -> bytes | None:
        """The page's showdown picture, or None: the hand's message then goes without it
        (too many pictures under way, or a drawing that failed, which is logged)."""
        picture = shown.page.picture
        if picture is None:  # given up meanwhile, by the other of the page's two requests
            return None
        try:
            return await self.painter(table_png, picture)
        except Exception as failure:
            if not isinstance(failure, PicturesBusy):
                log.exception("the showdown picture of hand %s", shown.page.number)
            shown.page.picture, shown.page.pictured = None, False
            return None

    def _final(self, board: Board, shown: PageMessages) -> bool:
        return shown is not board.live or shown.page.final

    def _snapshot_of(self, board: Board, shown: PageMessages) -> Snapshot | None:
        snapshot = board.snapshot if shown is board.live else None
        if snapshot is not None and snapshot.page is shown.page:
            return snapshot
        if shown.page.final:
            return Snapshot.finished(shown.page, board.lang)
        return None  # the live page before the table's first change: nothing saved to show

    def _render(self, board: Board, shown: PageMessages, first: int) -> RenderedMessage | None:
        snapshot = self._snapshot_of(board, shown)
        if snapshot is None:
            return None
        return render_page(snapshot, first, final=self._final(board, shown), escaped=shown.escaped,
                           cards=self._cards())

    def _cards(self) -> Cards | None:
        """The cards of a finished hand as the bot's custom emojis, once they are all there."""
        emojis = getattr(self.client, "card_emojis", None)
        if emojis is None or not emojis.ready:
            return None
        return emojis.in_text

    async def _files(self, shown: PageMessages, rendered: RenderedMessage) -> dict[str, Any]:
        """A finished hand's showdown picture, the first time its message shows it: drawn in a
        thread (a fifth of a core's 20 ms), attached once; later edits keep it."""
        picture = shown.page.picture
        if shown.pictured or picture is None or rendered.embed.image.url is None:
            return {}
        png = shown.png or await self._drawn(shown)
        if png is None:  # without its picture: the embed drops it
            rendered.embed.set_image(url=None)
            return {}
        shown.png = shown.page.picture = None  # sent: neither kept (the page stays pictured)
        shown.pictured = True
        return {"attachments": [discord.File(io.BytesIO(png), filename=picture_name(shown.page),
                                             description=rendered.embed.title)]}

    def _post_page(self, board: Board, shown: PageMessages) -> None:
        shown.posting = True
        first = shown.next_first()

        async def send() -> discord.Message | None:
            rendered = self._render(board, shown, first)
            if rendered is None:
                return None
            buttons = self._buttons(board, rendered.view_verbs, shown.page)
            extra: dict[str, Any] = {"view": buttons} if buttons is not None else {}
            files = await self._files(shown, rendered)
            if files:
                extra["files"] = files["attachments"]
            call = board.call if shown is board.live else None
            if call is not None:
                extra["content"] = call[2]
                extra["allowed_mentions"] = mentioning(call[0])
            message = await board.channel.send(embed=rendered.embed, **extra)
            posted = PageMessage(message.id, first)
            posted.shows(rendered)
            shown.messages.append(posted)
            return message

        done = self.governor.post(board.channel_id, send)
        done.add_done_callback(lambda _: self._posted(board, shown))

    def _posted(self, board: Board, shown: PageMessages) -> None:
        shown.posting = False
        if self.governor.stopped:
            return
        table = board.table
        if table is not None and shown.messages:
            self._spawn(table.remember_refs(shown.page.number, shown.refs()))
        last = shown.last
        if last is None:
            return
        if last.frozen:
            self._post_page(board, shown)
        else:
            self._edit_page(board, shown)

    def _edit_page(self, board: Board, shown: PageMessages, *, not_before: float | None = None
                   ) -> None:
        last = shown.last
        if last is None or shown.drawing:
            return  # a drawing's end shows the page
        snapshot = self._snapshot_of(board, shown)
        if snapshot is not None and last.signature == snapshot.signature(last.first,
                                                                  self._final(board, shown)):
            return  # shows that already

        async def apply() -> None:
            if last.frozen or shown.last is not last:
                return
            rendered = self._render(board, shown, last.first)
            if rendered is None or rendered.signature == last.signature:
                return
            message = board.channel.get_partial_message(last.message_id)  # type: ignore[attr-defined]
            call = board.call if shown is board.live else None
            try:
                await message.edit(content=call[2] if call is not None else None,
                                   embed=rendered.embed,
                                   view=self._buttons(board, rendered.view_verbs, shown.page),
                                   allowed_mentions=NO_MENTIONS,
                                   **await self._files(shown, rendered))
            except discord.NotFound:
                # Deleted by someone: the page goes on in a new message.
                shown.messages.remove(last)
                self._post_page(board, shown)
                return
            last.shows(rendered)
            if board.unsettled_since is not None:
                board.unsettled_since = self.clock.now()  # the next hold starts from here
            if rendered.frozen:
                self._post_page(board, shown)

        self.governor.edit(board.channel_id, last.message_id, apply, not_before=not_before)

    def _remover(self, board: Board, shown: PageMessage) -> Callable[[], Awaitable[None]]:
        async def remove() -> None:
            message = board.channel.get_partial_message(shown.message_id)  # type: ignore[attr-defined]
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await message.delete()
        return remove

    def _drop_when_done(self, board: Board) -> None:
        async def drop() -> None:
            while self.governor.busy(board.channel_id):
                await self.clock.sleep(0.5)
            if board.table is None or board.table.lifecycle == "closed":
                self.boards.pop(board.channel_id, None)
        self._spawn(drop())

    def _buttons(self, board: Board, verbs: tuple[str, ...], page: Page) -> discord.ui.View | None:
        if not verbs:
            return None
        lang = board.snapshot.lang if board.snapshot is not None else board.lang
        if verbs == HAND_VERBS:
            return ui.hand_view(page.number, lang)
        return ui.page_view(verbs, lang, page.number)

    async def acknowledge(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A button pressed on a table's message did its work: the page the presser sees is
        brought up to date by the interaction's own answer (``UPDATE_MESSAGE``, outside the
        global budget), so the channel's edit for it is saved: the live page as it is now, or
        a page the move just finished in its final form. Elsewhere only acknowledged."""
        self.heard(table.channel_id, interaction.user.id)
        if interaction.response.is_done():
            return
        board = self.boards.get(table.channel_id)
        message = interaction.message
        shown = None
        if board is not None and message is not None:
            live = board.live
            if live is not None and live.last is not None and \
                    live.last.message_id == message.id and not live.posting:
                shown = live
            else:
                shown = board.recent.get(message.id)
        last = shown.last if shown is not None else None
        if board is None or shown is None or last is None or last.frozen:
            await interaction.response.defer()
            return
        rendered = self._render(board, shown, last.first)
        if rendered is None or rendered.frozen:
            await interaction.response.defer()
            return
        self.governor.forget_edit(board.channel_id, last.message_id)
        try:
            call = board.call if shown is board.live else None
            await interaction.response.edit_message(
                content=call[2] if call is not None else None, embed=rendered.embed,
                view=self._buttons(board, rendered.view_verbs, shown.page),
                allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            self._edit_page(board, shown)  # the answer did not make it: the channel's edit does
            raise
        last.shows(rendered)


def _restored_messages(page: Page) -> list[PageMessage]:
    """A restored page's messages: all but the last frozen (their lines were final)."""
    shown = [PageMessage(message_id, first) for message_id, first in page.refs]
    for before, after in itertools.pairwise(shown):
        before.end, before.frozen = after.first, True
    return shown
