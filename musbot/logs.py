"""The bot's log, as an administrator reads it: one line per event on standard error (which
systemd's journal keeps), its level from ``MUSBOT_LOG_LEVEL``, and with
``MUSBOT_LOG_FORMAT=json`` one JSON object per line for a log shipper (python-json-logger), a
traceback included in its line.

What never reaches it: the cards of a hand in progress. musbot logs no card itself, and
discord.py's HTTP logger, which at DEBUG writes every request's body (DMs with a hand
included), is kept at INFO whatever the level asked for.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

TEXT_FORMAT = "{asctime} {levelname:<8} {name}: {message}"
QUIET_LOGGERS = ("discord.http", "discord.webhook.async_")
"""Loggers that write request bodies at DEBUG: never below INFO."""


def json_formatter() -> logging.Formatter:
    return JsonFormatter("{asctime}{levelname}{name}{message}", style="{",
                         rename_fields={"asctime": "time", "levelname": "level",
                                        "name": "logger"},
                         json_ensure_ascii=False)


def setup_logging(level: str = "INFO", fmt: str = "text",
                  stream: TextIO | None = None) -> logging.Handler:
    """The root logger's one handler (replacing any other), at ``level``; returns it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(json_formatter() if fmt == "json"
                         else logging.Formatter(TEXT_FORMAT, style="{"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        quiet = logging.getLogger(name)
        quiet.setLevel(max(logging.getLevelName(level), logging.INFO))
    return handler
