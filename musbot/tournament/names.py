"""Names as they are shown: plain text on one line, whatever a nickname holds. A name is
never markup here; the Discord adapter escapes what Discord would read as markup."""

from __future__ import annotations

import unicodedata

DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"})
"""Control and format characters (bidirectional marks, zero-width joiners), surrogates,
private and unassigned code points, line breaks, and combining marks left after NFC (what
piles up in «zalgo» text)."""


def width(char: str) -> int:
    """Columns a character takes: two for wide East Asian characters."""
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def clean(text: str | None, limit: int = 40, fallback: str = "?") -> str:
    """``text`` as one plain line of at most ``limit`` columns (cut with «…»)."""
    if not text:
        return fallback
    kept = []
    for char in unicodedata.normalize("NFC", str(text)):
        if char.isspace():
            kept.append(" ")
            continue
        if unicodedata.category(char) not in DROPPED:
            kept.append(char)
    line = " ".join("".join(kept).split())
    if not line:
        return fallback
    total = 0
    for i, char in enumerate(line):
        total += width(char)
        if total > limit:
            return line[: max(i - 1, 0)].rstrip() + "…"
    return line
