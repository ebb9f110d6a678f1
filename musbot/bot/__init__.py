"""``musbot run``: the Discord bot, in three parts.

- ``client.py``: :class:`MusBot`, the discord.py client that owns the tables, their Discord
  transport and the cogs.
- ``storage.py``: the storage at start-up: the database opened (again and again while it cannot
  be reached), the saved tables restored asleep, each woken with its channel.
- ``launcher.py``: the process: configuration, logging, metrics, signals, ``musbot run``.
"""

from .client import BOT_DELAY, MusBot, ShardedMusBot, extensions, make_bot, make_intents
from .launcher import run_bot, run_command, stop_on_signals

__all__ = ["BOT_DELAY", "MusBot", "ShardedMusBot", "extensions", "make_bot", "make_intents",
           "run_bot", "run_command", "stop_on_signals"]
