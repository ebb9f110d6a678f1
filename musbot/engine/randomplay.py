"""A random legal player: the benchmark's load, the property tests' fuzzer, the AI's floor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol, TypeVar

from .actions import MUS, NO_HAY_MUS, Action, ActionKind, envido, mas

_MUS: Final = ActionKind.MUS
_DESCARTE: Final = ActionKind.DESCARTE
_PASO: Final = ActionKind.PASO

T = TypeVar("T")


class Draws(Protocol):
    """What :func:`random_action` draws from: a ``random.Random``, or anything with its
    ``random`` and ``choice``."""

    def random(self) -> float: ...

    def choice(self, options: Sequence[T], /) -> T: ...


def random_action(legal: tuple[Action, ...], rng: Draws) -> Action:
    """Any legal action, weighted so that hands usually reach the tanteo (a uniform choice would
    throw an órdago in a third of all lances and end most hands at Grande)."""
    kind = legal[0].kind
    if kind is _MUS:
        return MUS if rng.random() < 0.7 else NO_HAY_MUS
    if kind is _DESCARTE:
        return rng.choice(legal)
    r = rng.random()
    if kind is _PASO:  # opening: paso, envido, órdago
        if r < 0.6:
            return legal[0]
        if r < 0.98:
            return envido(2 + int(r * 100) % 5)
        return legal[2]
    # answering: quiero, no quiero, [más, órdago]
    if len(legal) == 2 or r < 0.45:
        return legal[0] if r < 0.5 else legal[1]
    if r < 0.85:
        return legal[1]
    if r < 0.98:
        return mas(2 + int(r * 100) % 4)
    return legal[3]
