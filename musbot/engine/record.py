"""Value semantics for the engine's small records (actions, events, lance results).

They are ordinary classes with a hand-written ``__init__`` rather than dataclasses or named
tuples: mypyc (see setup.py) compiles such a constructor to a direct C call, while a dataclass's
generated ``__init__`` stays interpreted, and the engine builds a few dozen records per hand.
Equality, hashing and repr come from ``__match_args__``, which also makes them usable in
``match`` statements. Treat them as immutable.
"""

from __future__ import annotations

from typing import Any, ClassVar


class Record:
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"{type(self).__name__}({fields})"
