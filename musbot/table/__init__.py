"""The live-table layer: one :class:`Table` per channel over the pure engine, speaking through a
:class:`Transport` (Discord, terminal, tests) and timed by an injectable :class:`Clock`."""

from .clock import Clock, ManualClock, RealClock, settle
from .manager import TableManager
from .page import Page
from .pause import NotSaved, Unsaved
from .seating import Seat, TableError
from .table import Table
from .transport import DmClosed, Transport
from .turns import (
    DEFAULT_TURN_SECONDS,
    MAX_EXPIRIES,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    REMINDER_SECONDS,
)

__all__ = [
    "DEFAULT_TURN_SECONDS", "MAX_EXPIRIES", "MAX_TURN_SECONDS", "MIN_TURN_SECONDS",
    "REMINDER_SECONDS", "Clock", "DmClosed", "ManualClock", "NotSaved", "Page", "RealClock", "Seat",
    "Table", "TableError", "TableManager", "Transport", "Unsaved", "settle",
]
