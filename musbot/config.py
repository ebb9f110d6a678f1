"""Settings of a bot process, read from ``.env`` (python-dotenv) and the environment.

Kept free of discord.py imports so ``musbot --help`` and the other subcommands stay fast.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from musbot.console import cli_language, cli_text

DEFAULT_DB = "data/musbot.db"
DEFAULT_ENV_FILE = ".env"


class ConfigError(ValueError):
    """A setting is present but unusable (e.g. DEV_GUILD_ID is not a number): a ``CLI`` catalog
    key and its parameters, worded in the run's language by :meth:`message`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def message(self, lang: str) -> str:

        return cli_text(self.code, lang, **self.params)


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    """Never in a repr: a config printed in a log must not leak the bot's password."""
    dev_guild_id: int | None = None
    """Slash commands sync instantly to this server while developing; global sync otherwise."""
    db: str = field(default=DEFAULT_DB, repr=False)
    """MUSBOT_DB: an SQLite file's path (or ``sqlite:///path``), or ``postgresql://…``, which
    may hold the database's password: not in a repr either."""
    shard_count: int | None = None
    """MUSBOT_SHARDS / ``--shards``: Discord's gateway shards in all the bot's processes
    (None: one process, unsharded)."""
    shard_ids: tuple[int, ...] | None = None
    """MUSBOT_SHARD_IDS / ``--shard-ids``: the shards this process runs (all when not given)."""

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def own_shards(self) -> tuple[int, ...]:
        if self.shard_count is None:
            return (0,)
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))


def load_config(env_file: str | Path | None = DEFAULT_ENV_FILE,
                environ: Mapping[str, str] | None = None) -> Config:
    """``.env`` first, then the real environment on top (as ``load_dotenv`` does by default), so a
    deployment can override the file without editing it."""
    values: dict[str, str | None] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update(dotenv_values(env_file))
    values.update(os.environ if environ is None else environ)
    token = (values.get("DISCORD_TOKEN") or "").strip() or None
    guild_text = (values.get("DEV_GUILD_ID") or "").strip()
    try:
        guild = int(guild_text) if guild_text else None
    except ValueError:
        raise ConfigError("dev_guild_id", value=guild_text) from None
    db = (values.get("MUSBOT_DB") or "").strip()
    count, ids = shards((values.get("MUSBOT_SHARDS") or "").strip(),
                        (values.get("MUSBOT_SHARD_IDS") or "").strip())
    return checked(Config(token=token, dev_guild_id=guild, db=db or DEFAULT_DB,
                          shard_count=count, shard_ids=ids))


def checked(config: Config) -> Config:
    """Some shards only (other processes run the rest) need PostgreSQL: the processes share
    its tables, and DMs, which Discord sends to shard 0 alone, reach the others by its
    notifications. One SQLite file is one process's."""
    if config.shard_count is not None and config.shard_ids is not None and \
            len(config.shard_ids) < config.shard_count and not is_postgresql(config.db):
        raise ConfigError("shards_need_postgresql")
    return config


def is_postgresql(db: str) -> bool:
    from musbot.storage.database import POSTGRES_SCHEMES

    return db.startswith(POSTGRES_SCHEMES)


def shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """The shard count and this process's shard ids from their written forms («2», «0,1»):
    every id below the count, none twice, ids only with a count."""
    count: int | None = None
    if count_text:
        try:
            count = int(count_text)
        except ValueError:
            count = None
        if count is None or count < 1:
            raise ConfigError("shards_count", value=count_text)
    ids: tuple[int, ...] | None = None
    if ids_text:
        try:
            ids = tuple(int(part) for part in ids_text.replace(" ", "").split(",") if part)
        except ValueError:
            raise ConfigError("shards_ids", value=ids_text) from None
        if count is None:
            raise ConfigError("shards_ids_alone")
        if not ids or len(set(ids)) != len(ids) or not all(0 <= i < count for i in ids):
            raise ConfigError("shards_ids", value=ids_text)
    return count, ids


def add_env_file_option(parser: argparse.ArgumentParser, lang: str) -> None:
    """``--env-file``, the one spelling for ``run`` and ``invite``; ``--env`` (``run``'s old
    spelling) stays as a hidden alias."""

    parser.add_argument("--env-file", dest="env_file", default=None,
                        metavar=cli_text("file", lang), help=cli_text("env_file", lang))
    parser.add_argument("--env", dest="env_file", default=argparse.SUPPRESS,
                        help=argparse.SUPPRESS)


def env_file_from(args: argparse.Namespace) -> Path | None:
    """The file ``--env-file`` names, which must exist (a typo must not start a bot without
    its settings); without the option, ``.env`` when there is one."""
    named = getattr(args, "env_file", None)
    if named is not None:
        if not Path(named).is_file():
            raise ConfigError("env_file_missing", path=named)
        return Path(named)
    default = Path(DEFAULT_ENV_FILE)
    return default if default.is_file() else None


def add_run_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    """Options of ``musbot run``; here rather than in :mod:`musbot.bot` so building the CLI does
    not import discord.py."""

    lang = lang or cli_language([])
    add_env_file_option(parser, lang)
    parser.add_argument("--dev-guild", dest="dev_guild", type=int, default=None,
                        metavar=cli_text("id", lang), help=cli_text("dev_guild", lang))
    parser.add_argument("--shards", dest="shards", default=None, metavar="N",
                        help=cli_text("shards", lang))
    parser.add_argument("--shard-ids", dest="shard_ids", default=None, metavar="0,1",
                        help=cli_text("shard_ids", lang))


def config_from_args(args: argparse.Namespace) -> Config:
    config = load_config(env_file_from(args))
    guild = getattr(args, "dev_guild", None)
    if guild is not None:
        config = replace(config, dev_guild_id=guild)
    count_text = getattr(args, "shards", None)
    ids_text = getattr(args, "shard_ids", None)
    if count_text is not None or ids_text is not None:
        count, ids = shards(count_text if count_text is not None
                            else str(config.shard_count or ""), ids_text or "")
        config = checked(replace(config, shard_count=count, shard_ids=ids))
    return config
