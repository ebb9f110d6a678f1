"""Compiles the rules engine with mypyc when the package is installed, as black and mypy do for
their wheels; everything else is plain Python.

Only the engine is compiled because only the engine measurably pays for it: compiled it plays
hands about three times as fast (``musbot bench engine``), which the bots' simulations feel.
Whatever goes wrong on the way (no mypyc, a type error, no C compiler, a failed link) the
install goes on as plain Python with the same behaviour, saying so in one line.
``MUSBOT_PURE_PYTHON=1`` skips the compile on purpose. An editable install (``pip install -e``)
never compiles: it would put compiled modules beside the source you edit, and Python would
import them instead.
"""

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "musbot/engine/actions.py",
    "musbot/engine/cards.py",
    "musbot/engine/evaluation.py",
    "musbot/engine/events.py",
    "musbot/engine/hand.py",
    "musbot/engine/match.py",
    "musbot/engine/randomplay.py",
    "musbot/engine/record.py",
    "musbot/engine/rules.py",
    "musbot/engine/senas.py",
    "musbot/engine/view.py",
]

MYPY_OPTIONS = ["--no-site-packages", "--ignore-missing-imports", "--follow-imports=silent"]
"""The build's own environment has mypy but none of musbot's dependencies: they are typed as
Any here, always, so every build compiles the same code whatever happens to be installed."""

FALLBACK = "musbot: the engine is installed as plain Python (same behaviour, slower): {why}"


def _say_fallback(why: object) -> None:
    print(FALLBACK.format(why=why), file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """Builds the compiled engine if it can; any failure leaves the plain Python modules, which
    are installed in any case, to be imported instead."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or self.inplace:
            # ``pip install -e`` builds in place: a compiled engine beside the source would be
            # imported instead of the file being edited (tests/conftest.py refuses one).
            self.extensions = []
            _say_fallback("an editable install runs the source as it is edited")
            return
        try:
            super().run()
        except Exception as exc:  # a compiler missing or failing, a link error, …
            self._discard_partial_build()
            _say_fallback(f"could not compile it ({type(exc).__name__}; see the build log above)")

    def _discard_partial_build(self) -> None:
        """A half-built set of extensions would shadow some plain modules and not others."""
        for ext in self.extensions:
            for path in (Path(self.get_ext_fullpath(ext.name)),
                         Path(self.build_lib) / self.get_ext_filename(ext.name)):
                path.unlink(missing_ok=True)
        self.extensions = []


def extensions() -> list[object]:
    if os.environ.get("MUSBOT_PURE_PYTHON"):
        _say_fallback("MUSBOT_PURE_PYTHON is set")
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify([*MYPY_OPTIONS, *COMPILED], opt_level="3"))
    except (ImportError, SystemExit, Exception) as exc:  # no mypyc, or it refused the code
        _say_fallback(f"mypyc unavailable ({exc!r})")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
