"""Compiles the hot engine modules with mypyc, as black and mypy do for their wheels.

The source stays plain typed Python: ``MUSBOT_PURE_PYTHON=1`` (or a missing/failed mypyc) installs
it uncompiled, with the same behaviour, at a third of the speed (``musbot bench engine``).
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
]

ext_modules = []
if not os.environ.get("MUSBOT_PURE_PYTHON"):
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify(COMPILED, opt_level="3")
    except (ImportError, SystemExit, Exception) as exc:  # any failure: stay pure
        print(f"musbot: building without mypyc ({exc!r})", file=sys.stderr)

setup(ext_modules=ext_modules)
