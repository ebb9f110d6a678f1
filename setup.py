"""Compiles the hot modules with mypyc, as black and mypy do for their wheels: the engine, and
the table layer every move goes through (its text, its saves, its Discord rendering).

The source stays plain typed Python: ``MUSBOT_PURE_PYTHON=1`` (or a missing/failed mypyc) installs
it uncompiled, with the same behaviour; the engine then runs at a third of the speed (``musbot
bench engine``). Compiling the table layer as well took the whole bot under load from about
0.35 ms of CPU per move to 0.32 (``musbot bench load``). ``.ci/run`` runs the tests of both
layers both ways, and fails a build that fell back to plain Python.

Left out: ``table/clock.py`` (a runtime-checkable Protocol, which mypyc cannot compile),
``discordio/ui.py`` (its buttons subclass discord.py's classes), and ``storage/``: most of its
time is SQLite's own C, and compiled it failed at start-up (a stricter argument check).
"""

import os
import sys

from setuptools import setup

COMPILED = [
    "musbot/engine/actions.py",
    "musbot/engine/cards.py",
    "musbot/engine/events.py",
    "musbot/engine/evaluation.py",
    "musbot/engine/hand.py",
    "musbot/engine/match.py",
    "musbot/engine/randomplay.py",
    "musbot/engine/record.py",
    "musbot/engine/rules.py",
    "musbot/engine/senas.py",
    "musbot/engine/view.py",
    "musbot/table/manager.py",
    "musbot/table/persist.py",
    "musbot/table/render.py",
    "musbot/table/table.py",
    "musbot/discordio/texts.py",
    "musbot/discordio/transport.py",
]

MYPY_OPTIONS = ["--no-site-packages", "--ignore-missing-imports", "--follow-imports=silent"]
"""The build's own environment has mypy but none of musbot's dependencies (discord.py, aiosqlite…),
which the table layer imports: they are typed as Any here, always, whatever happens to be
installed, so every build compiles the same code. (Type-checking them is ``mypy musbot``'s job.)"""

ext_modules = []
if not os.environ.get("MUSBOT_PURE_PYTHON"):
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify([*MYPY_OPTIONS, *COMPILED], opt_level="3")
    except (ImportError, SystemExit, Exception) as exc:  # any failure: stay pure
        print(f"musbot: building without mypyc ({exc!r})", file=sys.stderr)

setup(ext_modules=ext_modules)
