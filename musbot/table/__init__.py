"""The live-table layer: one :class:`Table` per channel over the pure engine, speaking through a
:class:`Transport` (Discord, terminal, tests) and timed by an injectable :class:`Clock`."""

from .clock import Clock, ManualClock, RealClock, settle
from .manager import TableManager
from .table import (
    DEFAULT_TURN_SECONDS,
    MAX_EXPIRIES,
    REMINDER_SECONDS,
    Seat,
    Table,
    TableError,
)
from .transport import DmClosed, Transport

__all__ = [
    "DEFAULT_TURN_SECONDS", "MAX_EXPIRIES", "REMINDER_SECONDS", "Clock", "DmClosed",
    "ManualClock", "RealClock", "Seat", "Table", "TableError", "TableManager", "Transport",
    "settle",
]
