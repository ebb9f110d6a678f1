"""The walks in the package docstrings (issue 45): «envido 5» typed in a channel, in
``musbot/table/__init__.py``, and a tournament match's end, in ``musbot/tournament/__init__.py``,
each in at most six numbered steps that name the functions taking them; ``musbot/__init__.py``
and ``musbot/discordio/__init__.py`` point at them. Every ``musbot.…`` or ``cogs.…`` name written
between double backquotes in those docstrings must be a real module, class or function, so a
renamed or removed function makes the walk fail here instead of rotting."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent

DOCSTRINGS = ("musbot/__init__.py", "musbot/table/__init__.py", "musbot/tournament/__init__.py",
              "musbot/discordio/__init__.py")

NAME = re.compile(r"``((?:musbot|cogs)(?:\.\w+)+)``")
"""A dotted name written as code: ``musbot.table.runner.Table.typed``."""

STEP = re.compile(r"^(\d+)\. ")

WALKS = {
    "musbot/table/__init__.py": ("The walk of «envido 5»", (
        "cogs.chat", "musbot.table.runner.Table.typed", "musbot.grammar", "musbot.engine",
        "musbot.table.persist", "musbot.discordio.embeds.Snapshot.capture",
        "musbot.discordio.governor")),
    "musbot/tournament/__init__.py": ("The walk of a tournament match's end", (
        "musbot.engine", "musbot.table.persist", "musbot.table.notice",
        "musbot.tournament.live.tables", "musbot.tournament.playing.Playing.record",
        "musbot.storage.tournaments.Tournaments.save_tournament",
        "musbot.discordio.venue.DiscordVenue.board")),
}
"""Each walk: where it is told, its heading, and what its steps must pass through, in order
(the cog → the table's runner, which reads the words with the grammar → the engine → the save →
the snapshot → the edit; the engine → the table's save → the notice → the runner → the
tournament's state → its save → the board)."""


def docstring(path: str) -> str:
    return ast.get_docstring(ast.parse((ROOT / path).read_text(encoding="utf-8"))) or ""


def walk_steps(text: str, heading: str) -> list[str]:
    """The numbered steps after ``heading`` (a step's lines joined), up to the first paragraph
    that is not a step."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    steps: list[str] = []
    for line in lines[start + 1:]:
        if STEP.match(line):
            steps.append(line)
        elif line.startswith("   ") and steps:
            steps[-1] += " " + line.strip()
        elif line.strip() or steps:
            if not line.strip():
                continue
            break
    return steps


def resolve(name: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes;
    AttributeError or ModuleNotFoundError when it names nothing."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            if cut == 1:
                raise
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(name)


def is_real(name: str) -> bool:
    try:
        found = resolve(name)
    except (AttributeError, ModuleNotFoundError):
        return False
    return isinstance(found, (ModuleType, type)) or callable(found)


@pytest.mark.parametrize("path", DOCSTRINGS)
def test_every_name_in_the_package_docstrings_is_real(path: str) -> None:
    names = NAME.findall(docstring(path))
    unknown = [name for name in names if not is_real(name)]
    assert not unknown, f"{path} names what does not exist: {unknown}"


@pytest.mark.parametrize("path", sorted(WALKS))
def test_each_walk_is_six_steps_at_most_each_naming_real_functions_in_order(path: str) -> None:
    heading, passes = WALKS[path]
    steps = walk_steps(docstring(path), heading)
    assert 1 < len(steps) <= 6, steps
    numbers = [int(found[1]) for step in steps if (found := STEP.match(step))]
    assert numbers == list(range(1, len(steps) + 1))
    named = [NAME.findall(step) for step in steps]
    assert all(named), "every step names the code that takes it"
    flat = [name for step in named for name in step]
    where = [next(i for i, name in enumerate(flat) if name.startswith(through))
             for through in passes]
    assert where == sorted(where), f"the walk passes through {passes} in order"
    assert all(is_real(name) for name in flat)


def test_the_summary_points_at_both_walks() -> None:
    text = docstring("musbot/__init__.py")
    assert ":mod:`musbot.table`" in text and ":mod:`musbot.tournament`" in text
    assert "tests/test_walks.py" in text


@pytest.mark.parametrize("name", [
    "musbot.table.runner.Table.no_such_step", "musbot.table.no_such_module.run",
    "cogs.no_such_cog.Cog.on_message", "musbot.table.notice.MatchNotice.over",
])
def test_a_name_that_is_not_a_function_is_seen(name: str) -> None:
    """The check itself: a misspelt step, a missing module, a property (not a step) fail."""
    assert not is_real(name)


def test_a_rotten_walk_is_seen() -> None:
    text = "The walk of x:\n\n1. ``musbot.table.runner.Table.typed`` reads.\n" \
           "2. ``musbot.table.runner.Table.gone`` saves.\n\nAfter.\n"
    steps = walk_steps(text, "The walk of x")
    assert len(steps) == 2
    assert [is_real(n) for step in steps for n in NAME.findall(step)] == [True, False]
