"""What anyone may read of a live table, without its lock: its state's answers, and each
person's own language. The runner (``runner.py``) alone changes the state."""

from __future__ import annotations

from musbot.engine import Match

from . import texts
from .languages import Speakers
from .seats import Seat, TableError
from .state import Lifecycle, TableState


class TableView:
    """The read side of :class:`~.runner.Table`."""

    state: TableState
    speakers: Speakers

    @property
    def channel_id(self) -> int:
        return self.state.channel_id

    @property
    def guild_id(self) -> int | None:
        return self.state.guild_id

    @property
    def lang(self) -> str:
        return self.state.lang

    def lang_for(self, user_id: int) -> str:
        """The language of what only ``user_id`` reads (their hand, their señas, their
        refusals): their own (``languages.py``), else the table's."""
        return self.speakers.language(user_id) or self.state.lang

    @property
    def lifecycle(self) -> Lifecycle:
        return self.state.lifecycle

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def seats(self) -> list[Seat | None]:
        return self.state.seats

    @property
    def paused(self) -> bool:
        """The table waits for its database (see ``pause.py``): it refuses every command."""
        return self.state.paused

    @property
    def settled(self) -> bool:
        """No bot is about to play: a transport may wait for this, so the moves of the bots
        between two people's turns are shown together."""
        return self.state.bot_turn() is None

    def names(self) -> dict[int, str]:
        return self.state.names()

    def seat_of(self, user_id: int) -> int | None:
        return self.state.seat_of(user_id)

    def humans(self) -> list[int]:
        return self.state.humans()

    def status(self) -> str:
        return texts.status_text(self.state)

    def private_text(self, user_id: int) -> str:
        """«Ver mis cartas»: the user's seat's private text, from that seat's view only."""
        seat = self.state.require_seat(user_id)
        if self.state.match is None:
            raise TableError("not_started")
        return texts.private_text(self.state, seat, self.lang_for(user_id))


__all__ = ["TableView"]
