"""The public record of a table, one page per hand (and one for the lobby before a match).

Whatever a transport shows of a table it shows from here: every move of the hand in play as a
line, with the table's own notices (someone sat down, time ran out, the table came back after a
restart) in between. Lines are appended only once the change they speak of is saved, so nothing
on a page can be lost by a crash; and a page is rebuilt from the engine's events of the hand
plus its notices (:meth:`Page.rebuild`), so a restored table shows exactly what it showed.

A transport may show a page in several messages (a long hand overflows one): ``refs`` are its
own references to them, saved with the table so that after a restart it edits those messages
instead of showing the same moves twice.
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import orjson

from musbot.engine import events as ev

EventLines = Callable[..., list[str]]
"""Renders one public event as lines (see :func:`musbot.table.render.event_lines`); called with
``names=`` it words them with those names instead of its own."""
NameList = tuple[tuple[int, str], ...]
_SECTIONS = (ev.LanceStarted, ev.CardsReplaced)
"""Events that begin a part of a hand of its own (a lance, a new mus round)."""


class PackedLines(Sequence[str]):
    """A finished page's lines, kept compressed: a table keeps its last hands for «Ver jugada»,
    a save and a forgotten name, which read them whole and seldom, while the lines of a hand
    with card emojis take four bytes a character as ``str``. Read back, they are the same
    list; equal lines pack to equal bytes."""

    __slots__ = ("_count", "_packed")

    def __init__(self, lines: Iterable[str]) -> None:
        kept = list(lines)
        self._count = len(kept)
        self._packed = zlib.compress(orjson.dumps(kept))

    def unpacked(self) -> list[str]:
        return list(orjson.loads(zlib.decompress(self._packed)))

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self.unpacked()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.unpacked())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedLines):
            return self._packed == other._packed
        if isinstance(other, Sequence):
            return len(other) == self._count and self.unpacked() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has none

    def __repr__(self) -> str:
        return f"PackedLines({self.unpacked()!r})"


Lines = list[str] | PackedLines
"""A page's lines: a list while it grows, packed once it is finished (:meth:`Page.pack`)."""


@dataclass(slots=True)
class Page:
    """One page of a table's record. ``lines`` only ever grows while the page is current."""

    number: int
    """1 for the table's first page, then one more for each new page."""
    hand_number: int | None = None
    """The match's hand this page narrates; None for the lobby (before a match)."""
    lines: Lines = field(default_factory=list)
    """Every line of the page; packed (:class:`PackedLines`) once the page is finished."""
    notes: list[tuple[int, str]] = field(default_factory=list)
    """The lines that are not the engine's, each with how many of the hand's events came
    before it: what :meth:`rebuild` needs besides the events."""
    events: int = 0
    """How many of the hand's events are on the page."""
    refs: list[tuple[int, int]] = field(default_factory=list)
    """The transport's messages showing this page: (its id, the first line it shows)."""
    final: bool = False
    """The hand (or lobby) is over: no line will be added to it."""
    revision: int = 0
    """Bumped when lines already shown are worded again (a name forgotten, see
    :meth:`rename`; moves undone after a failed save, see :meth:`Pages.adopt`): a transport
    showing them shows them again."""
    section: int = 0
    """Where the part of the hand in play begins among the lines (its deal, a new mus round,
    the lance being played): what a table shows at a glance, the rest one press away."""
    summary: tuple[str, ...] | PackedLines = ()
    """The finished hand in a few lines (each lance's result, the showdown, the score):
    worded by the table when the hand ends, with the names it was played with."""
    picture: Any = None
    """The showdown seen from above (``musbot.pictures.table``'s input), made when the hand
    ends; not saved: a restored page's message has its picture already (:attr:`pictured`)."""
    pictured: bool = False
    """The hand's message shows the showdown's picture."""
    names: list[tuple[int, NameList]] = field(default_factory=list)
    """The seats' names the events were worded with, each from the event it began at: a page
    rebuilt after a restart says what it said, whoever sits there now (only a person who asked
    to be forgotten is worded anew, :meth:`rename`)."""

    def note(self, text: str) -> None:
        self._growing().append(text)
        self.notes.append((self.events, text))

    def _growing(self) -> list[str]:
        """The lines, to add to: a page packed and then written on again (a closed table's
        last word, the match's last hand) is unpacked first."""
        if isinstance(self.lines, PackedLines):
            self.lines = self.lines.unpacked()
        return self.lines

    def pack(self) -> None:
        """The page is finished: its lines and its summary are kept compressed
        (:class:`PackedLines`)."""
        self.final = True
        if not isinstance(self.lines, PackedLines):
            self.lines = PackedLines(self.lines)
        if self.summary and not isinstance(self.summary, PackedLines):
            self.summary = PackedLines(self.summary)

    def add_events(self, events: Sequence[ev.Event], render: EventLines,
                   names: NameList | None = None) -> None:
        if names is not None and (not self.names or self.names[-1][1] != names):
            self.names.append((self.events, names))
        for event in events:
            if isinstance(event, _SECTIONS):
                self.section = len(self.lines)
            self._growing().extend(render(event))
            self.events += 1

    def names_at(self, events: int) -> NameList | None:
        """The names the page's event number ``events`` was worded with (None: not kept)."""
        found = None
        for since, names in self.names:
            if since > events:
                break
            found = names
        return found

    @classmethod
    def rebuild(cls, saved: dict[str, Any], events: Sequence[ev.Event], render: EventLines,
                tail: Sequence[ev.Event] = ()) -> Page:
        """The page :meth:`to_json` saved, its lines rendered again from the hand's
        ``events`` (those of the moves journaled after the save included) with the notes at
        their places; ``tail`` are events after the hand's own (a won vaca, the match)."""
        page = cls(int(saved["number"]), saved.get("hand"),
                   refs=[(int(ref), int(first)) for ref, first in saved.get("refs", ())])
        kept = [(int(since), tuple((int(seat), str(name)) for seat, name in names))
                for since, names in saved.get("names", ())]
        page.names = kept
        notes = [(int(pos), str(text)) for pos, text in saved.get("notes", ())]
        waiting = iter(notes)
        pending = next(waiting, None)
        for event in (*events, *tail):
            while pending is not None and pending[0] <= page.events:
                page.note(pending[1])
                pending = next(waiting, None)
            then = page.names_at(page.events)
            page.add_events([event], render if then is None else
                            functools.partial(render, names=dict(then)))
        while pending is not None:
            page.note(pending[1])
            pending = next(waiting, None)
        page.final = bool(saved.get("final", False))
        page.summary = tuple(str(x) for x in saved.get("summary", ()))
        page.pictured = bool(saved.get("pictured", False))
        return page

    def to_json(self) -> dict[str, Any]:
        """What a restart needs besides the engine's events: notes, references, not lines."""
        return {"number": self.number, "hand": self.hand_number,
                "notes": [list(note) for note in self.notes],
                "refs": [list(ref) for ref in self.refs], "final": self.final,
                "names": [[since, [list(n) for n in names]] for since, names in self.names],
                **({"summary": list(self.summary)} if self.summary else {}),
                **({"pictured": True} if self.pictured else {})}

    def to_json_final(self) -> dict[str, Any]:
        """A finished page keeps its lines: its hand's events are gone from the match."""
        return {"number": self.number, "hand": self.hand_number, "lines": list(self.lines),
                "refs": [list(ref) for ref in self.refs], "final": True,
                **({"summary": list(self.summary)} if self.summary else {}),
                **({"pictured": True} if self.pictured else {})}

    def rename(self, old: str, new: str, render_again: Callable[[Page], list[str]] | None
               ) -> None:
        """«Forget me»: ``old`` (a name) no longer appears; the events' lines are rendered again
        (``render_again``, with the seats' new names), the notes have it replaced. In place: a
        transport showing the page keeps its place in it."""
        pattern = re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")
        self.notes = [(pos, pattern.sub(new, text)) for pos, text in self.notes]
        self.names = [(since, tuple((seat, new if name == old else name) for seat, name in names))
                      for since, names in self.names]
        summary = tuple(_cut_forms(old).sub(new, pattern.sub(new, line))
                        for line in self.summary)
        self.summary = PackedLines(summary) if isinstance(self.summary, PackedLines) else summary
        lines = [pattern.sub(new, line) for line in
                 (render_again(self) if render_again is not None else self.lines)]
        self.lines = PackedLines(lines) if isinstance(self.lines, PackedLines) else lines
        self.revision += 1

    @classmethod
    def from_json_final(cls, saved: dict[str, Any]) -> Page:
        return cls(int(saved["number"]), saved.get("hand"),
                   lines=PackedLines(str(x) for x in saved["lines"]),
                   refs=[(int(ref), int(first)) for ref, first in saved.get("refs", ())],
                   final=True, summary=PackedLines(str(x) for x in saved.get("summary", ())),
                   pictured=bool(saved.get("pictured", False)))


def _cut_forms(name: str) -> re.Pattern[str]:
    """A name as a summary may have shortened it (``summary.py``: its start and «…», maybe
    its last two characters): what «forget me» takes out of a summary with the name."""
    starts = "|".join(re.escape(name[:k]) for k in range(len(name) - 1, 2, -1))
    if not starts:
        return re.compile(r"(?!x)x")
    return re.compile(rf"(?<!\w)(?:{starts})…(?:{re.escape(name[-2:])})?")


class Pages:
    """A table's page in play and the one before (see :class:`Page`). What a line says is the
    caller's to render (``render``): the table knows the names and the language."""

    __slots__ = ("page", "previous")

    def __init__(self) -> None:
        self.page = Page(1)
        self.previous: Page | None = None
        """The page before, finished: kept (and saved) until the next one finishes, so a
        transport that had not shown its end yet (a restart in between) still can."""

    def add_events(self, events: Sequence[ev.Event], hand_number: int, render: EventLines,
                   names: NameList | None = None) -> None:
        """Each hand on a page of its own: a deal (``HandStarted``) turns the page, to the
        match's ``hand_number`` (the only deal a batch of events may hold). ``names``: the
        seats' names ``render`` words them with, kept with the page (by default those bound
        to ``render``, a partial of :func:`~musbot.table.render.event_lines`)."""
        if names is None:
            bound = getattr(render, "keywords", {}).get("names")
            names = tuple(bound.items()) if bound is not None else None
        for event in events:
            if isinstance(event, ev.HandStarted) and \
                    (self.page.hand_number is None or self.page.events):
                self.turn(hand_number)
            self.page.add_events([event], render, names)

    def turn(self, hand_number: int) -> None:
        """A new page for hand ``hand_number`` (nothing to do if the current one is it, fresh)."""
        if self.page.hand_number == hand_number and not self.page.events:
            return
        self.page.pack()
        self.previous = self.page
        self.page = Page(self.page.number + 1, hand_number)

    def note(self, text: str) -> None:
        self.page.note(text)

    def remember(self, number: int, refs: list[tuple[int, int]]) -> bool:
        """A transport's references to page ``number``'s messages; True if they are new."""
        for page in (self.page, self.previous):
            if page is not None and page.number == number and page.refs != refs:
                page.refs = list(refs)
                return True
        return False

    def rename(self, old: str, new: str, events: Sequence[ev.Event],
               tail: Sequence[ev.Event], render: EventLines) -> None:
        """«Forget me»: ``old`` no longer appears on either page; the current one is rendered
        again from its hand's ``events`` (with the seats' new names)."""
        page = self.page

        def again(current: Page) -> list[str]:
            if current.hand_number is None:
                return list(current.lines)
            return Page.rebuild(current.to_json(), events, render, tail=tail).lines

        page.rename(old, new, again)
        if self.previous is not None:
            self.previous.rename(old, new, None)

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page.to_json(),
                "previous": None if self.previous is None else self.previous.to_json_final()}

    def adopt(self, other: Pages) -> None:
        """Becomes ``other`` (the pages of the table as last saved, after a save that failed),
        keeping each :class:`Page` object that was the same page: a transport showing it holds
        it, and a new object would read to it as a new page, shown in a new message."""
        mine = {page.number: page for page in (self.page, self.previous) if page is not None}

        def kept(new: Page) -> Page:
            old = mine.get(new.number)
            if old is None:
                return new
            old.hand_number, old.events, old.final = new.hand_number, new.events, new.final
            old.section, old.summary, old.names = new.section, new.summary, new.names
            old.pictured = new.pictured
            if old.lines != new.lines:  # moves undone: lines taken back, others may follow
                old.lines = new.lines
                old.revision += 1
            old.notes[:] = new.notes
            old.refs = list(new.refs)
            return old

        self.page = kept(other.page)
        self.previous = None if other.previous is None else kept(other.previous)

    def restore(self, saved: dict[str, Any], events: Sequence[ev.Event],
                tail: Sequence[ev.Event], render: EventLines) -> None:
        """The pages :meth:`to_json` saved, the current one rebuilt from its hand's events."""
        self.page = Page.rebuild(saved["page"], events, render, tail=tail)
        previous = saved.get("previous")
        self.previous = None if previous is None else Page.from_json_final(previous)
