"""The formats, one strategy each (:class:`.base.FormatRules`): what the tournament asks its
format at the draw, after every decided match, for its table, for its champion, and at a
replay. The pure pairing and seeding they use are :mod:`..brackets`, :mod:`..standings` and
:mod:`..swiss`."""

from __future__ import annotations

from ..settings import Format
from .base import Drawn, FormatRules, Podium
from .double import Double
from .groups import Groups, group_label, group_sizes, qualifiers
from .knockout import Knockout
from .league import RoundRobin, league
from .swiss import Swiss

RULES: dict[Format, FormatRules] = {rules.format: rules for rules in (
    Knockout(), Double(), Groups(), RoundRobin(), Swiss())}
"""Each format's strategy."""

MAX_PAIRS = {fmt: rules.max_pairs for fmt, rules in RULES.items()}
"""The largest field of each format: a round robin of 128 pairs is already 8,128 matches;
Swiss is the format for the biggest fields."""

__all__ = [
    "MAX_PAIRS", "RULES", "Double", "Drawn", "FormatRules", "Groups", "Knockout", "Podium",
    "RoundRobin", "Swiss", "group_label", "group_sizes", "league", "qualifiers",
]
