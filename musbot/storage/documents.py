"""How stored JSON documents are written as text: one encoder for both backends, which keep the
text exactly as given (SQLite's TEXT, PostgreSQL's ``json``), so a document reads back the same
wherever it was stored or copied to."""

from __future__ import annotations

from typing import Any

import orjson


def document_json(data: Any) -> str:
    """Stored documents (hands, results, settings, rules): compact and with sorted keys, the
    same text the standard encoder gives, at a fraction of its cost. A hand stored again (from
    a table's outbox after a restart) is compared as text with the one stored before, maybe by
    an older musbot. Like the live states, a non-finite float is written as null, never as
    invalid JSON."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def state_document(data: Any) -> bytes:
    """A live table's state: compact and unsorted (rewritten after every action, compared with
    nothing, so key order does not matter). orjson, because this runs on every move of every
    table. As UTF-8 bytes, the smallest form to keep in memory (a table's pages have emoji,
    which make a ``str`` of it four bytes a character)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def state_json(data: Any) -> str:
    """:func:`state_document` as the text a database stores."""
    return state_document(data).decode()


def entry_json(data: Any) -> str:
    """One entry of a live table's journal."""
    return orjson.dumps(data).decode()
