"""Settings of a bot process, read from ``.env`` (python-dotenv) and the environment.

Where the data lives is decided once, here: an SQLite ``MUSBOT_DB`` given as a relative path is
taken from ``MUSBOT_DATA_DIR`` when it is set, else from the directory of the ``.env`` file
read, else from the working directory; without ``MUSBOT_DB`` the file is ``musbot.db`` in
``MUSBOT_DATA_DIR``, or ``data/musbot.db`` from the other two. A service started from another
directory then finds the same file, never a new empty one (:func:`check_database`, run before
the bot starts, refuses a missing directory or a file it cannot write).

Kept free of discord.py imports so ``musbot --help`` and the other subcommands stay fast.
"""

from __future__ import annotations

import argparse
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from dotenv import dotenv_values

from musbot.console import cli_language, discord_id, id_problem
from musbot.i18n import CLI

DEFAULT_DB = "data/musbot.db"
DATA_DIR_DB = "musbot.db"
"""The file's name in ``MUSBOT_DATA_DIR`` when ``MUSBOT_DB`` is not set."""
DEFAULT_ENV_FILE = ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("text", "json")


class ConfigError(ValueError):
    """A setting is present but unusable (e.g. DEV_GUILD_ID is not a number): a ``CLI`` catalog
    key and its parameters, worded in the run's language by :meth:`message`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def message(self, lang: str) -> str:
        """The sentence; a parameter given as a (key, values) pair is itself a sentence of the
        catalogue, worded in the same language (a reason inside the refusal)."""
        params = {name: CLI(value[0], lang, **value[1]) if isinstance(value, tuple)
                  else value for name, value in self.params.items()}
        return CLI(self.code, lang, **params)


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    """Never in a repr: a config printed in a log must not leak the bot's password."""
    dev_guild_id: int | None = None
    """Slash commands sync instantly to this server while developing; global sync otherwise."""
    db: str = field(default=DEFAULT_DB, repr=False)
    """MUSBOT_DB: an SQLite file's path (or an ``sqlite:`` URL, read as SQLAlchemy reads it:
    ``sqlite:///relative.db``, ``sqlite:////absolute.db``), or ``postgresql://…``, which may
    hold the database's password: not in a repr either."""
    shard_count: int | None = None
    """MUSBOT_SHARDS / ``--shards``: Discord's gateway shards in all the bot's processes
    (None: one process, unsharded)."""
    shard_ids: tuple[int, ...] | None = None
    """MUSBOT_SHARD_IDS / ``--shard-ids``: the shards this process runs (all when not given)."""
    base: str = "cwd"
    """What a relative SQLite path was taken from: ``MUSBOT_DATA_DIR``, ``.env`` (its
    directory) or ``cwd`` (:func:`resolve_db`)."""
    base_dir: Path | None = None
    """That directory."""
    log_level: str = "INFO"
    """MUSBOT_LOG_LEVEL: DEBUG, INFO, WARNING or ERROR (``musbot.logs``)."""
    log_format: str = "text"
    """MUSBOT_LOG_FORMAT: ``text`` (one line per event) or ``json`` (one JSON object a line)."""
    metrics: str | None = None
    """MUSBOT_METRICS: ``HOST:PORT`` where ``/metrics`` and ``/healthz`` are served (None:
    not served, the default)."""

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
        values.update(env_values(env_file))
    values.update(os.environ if environ is None else environ)
    token = (values.get("DISCORD_TOKEN") or "").strip() or None
    guild_text = (values.get("DEV_GUILD_ID") or "").strip()
    try:
        guild = int(guild_text) if guild_text else None
    except ValueError:
        raise ConfigError("dev_guild_id", value=guild_text) from None
    problem = id_problem(guild_text) if guild_text else None
    if problem is not None:  # a number, but no server's: -5, 42
        raise ConfigError("dev_guild_id_bad", reason=problem)
    env_dir = Path(env_file).resolve().parent \
        if env_file is not None and Path(env_file).is_file() else None
    data_dir = (values.get("MUSBOT_DATA_DIR") or "").strip()
    db, base, base_dir = resolve_db((values.get("MUSBOT_DB") or "").strip(), data_dir, env_dir)
    count, ids = shards((values.get("MUSBOT_SHARDS") or "").strip(),
                        (values.get("MUSBOT_SHARD_IDS") or "").strip())
    level = (values.get("MUSBOT_LOG_LEVEL") or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError("log_level_bad", value=values.get("MUSBOT_LOG_LEVEL"))
    log_format = (values.get("MUSBOT_LOG_FORMAT") or "text").strip().lower()
    if log_format not in LOG_FORMATS:
        raise ConfigError("log_format_bad", value=values.get("MUSBOT_LOG_FORMAT"))
    metrics = (values.get("MUSBOT_METRICS") or "").strip() or None
    if metrics is not None:
        try:
            address(metrics)
        except ValueError:
            raise ConfigError("metrics_bad", value=metrics) from None
    return checked(Config(token=token, dev_guild_id=guild, db=db, shard_count=count,
                          shard_ids=ids, base=base, base_dir=base_dir, log_level=level,
                          log_format=log_format, metrics=metrics))


def env_values(env_file: str | Path) -> dict[str, str | None]:
    """The settings an environment file holds; one that cannot be read, or is not text, is
    :class:`ConfigError` (one sentence) rather than python-dotenv's traceback."""
    try:
        return dict(dotenv_values(env_file, encoding="utf-8"))
    except OSError as exc:
        raise ConfigError("env_file_unreadable", path=env_file,
                          detail=exc.strerror or str(exc)) from None
    except UnicodeDecodeError:
        raise ConfigError("env_file_not_text", path=env_file) from None


def resolve_db(db: str, data_dir: str = "", env_dir: Path | None = None,
               cwd: Path | None = None) -> tuple[str, str, Path]:
    """``MUSBOT_DB`` as an absolute SQLite path (a PostgreSQL URL as it is), what a relative
    one was taken from, and that directory: see the module docstring."""
    here = cwd or Path.cwd()
    if data_dir:
        folder = Path(data_dir).expanduser()
        base, base_dir = "MUSBOT_DATA_DIR", folder if folder.is_absolute() \
            else (env_dir or here) / folder
    elif env_dir is not None:
        base, base_dir = ".env", env_dir
    else:
        base, base_dir = "cwd", here
    if not db:
        db = DATA_DIR_DB if data_dir else DEFAULT_DB
    if is_postgresql(db):
        return db, base, base_dir
    from musbot.storage.database import SQLITE_SCHEME

    path = db[len(SQLITE_SCHEME):] if db.startswith(SQLITE_SCHEME) else db
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]+:", path):
        raise ConfigError("db_bad_url", scheme=path.split(":", 1)[0] + ":")
    file = Path(path).expanduser()
    return str(file if file.is_absolute() else base_dir / file), base, base_dir


def address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9108`` for IPv6), as MUSBOT_METRICS and ``--metrics`` take it;
    ValueError when it is not one."""
    host, colon, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(text)
    return host, int(port)


def check_database(config: Config, lang: str = "es") -> bool | None:
    """Before the bot starts: the SQLite file's directory exists and the file (or a new one in
    it) can be written; nothing is created. True when the file is there, False when a new one
    will be made, None for PostgreSQL (its server is checked by connecting). Raises
    :class:`ConfigError`, one sentence, otherwise."""
    if is_postgresql(config.db):
        return None
    path = Path(config.db)
    folder = path.parent
    if not folder.is_dir():
        raise ConfigError("data_dir_missing", folder=folder, db=path, base=base_text(config, lang))
    if path.exists():
        if not path.is_file():
            raise ConfigError("db_not_a_file", db=path)
        for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            if name.exists() and not _writable(name):
                raise ConfigError("db_not_writable", db=name)
    try:  # SQLite writes its -wal and -shm files beside the database: the directory too
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError:
        raise ConfigError("data_dir_not_writable", folder=folder) from None
    return path.exists()


def _writable(path: Path) -> bool:
    """Opened for writing, really (``os.access`` says yes to root on any file)."""
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError:
        return False
    return True


BASE_KEYS: Final = {"MUSBOT_DATA_DIR": "base_musbot_data_dir", ".env": "base_env",
                    "cwd": "base_cwd"}
"""Each :attr:`Config.base` and its sentence in the ``CLI`` catalogue."""


def base_text(config: Config, lang: str | None = None) -> str:
    """Where relative paths are taken from, as the start-up line says it."""
    return CLI(BASE_KEYS[config.base], lang or cli_language([]),
               folder=config.base_dir or Path.cwd())


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
                        metavar=CLI("file", lang), help=CLI("env_file", lang))
    parser.add_argument("--env", dest="env_file", default=argparse.SUPPRESS,
                        help=argparse.SUPPRESS)


def env_file_from(args: argparse.Namespace) -> Path | None:
    """The file ``--env-file`` names, which must exist (a typo must not start a bot without
    its settings) and not be a directory; without the option, ``.env`` when there is one."""
    named = getattr(args, "env_file", None)
    if named is not None:
        if Path(named).is_dir():
            raise ConfigError("env_file_directory", path=named)
        if not Path(named).exists():
            raise ConfigError("env_file_missing", path=named)
        return Path(named)  # /dev/null too: no settings, said the usual way
    default = Path(DEFAULT_ENV_FILE)
    return default if default.is_file() else None


def add_run_arguments(parser: argparse.ArgumentParser, lang: str | None = None) -> None:
    """Options of ``musbot run``; here rather than in :mod:`musbot.bot` so building the CLI does
    not import discord.py."""

    lang = lang or cli_language([])
    add_env_file_option(parser, lang)
    parser.add_argument("--dev-guild", dest="dev_guild", type=discord_id(lang), default=None,
                        metavar=CLI("id", lang), help=CLI("dev_guild", lang))
    parser.add_argument("--shards", dest="shards", default=None, metavar="N",
                        help=CLI("shards", lang))
    parser.add_argument("--shard-ids", dest="shard_ids", default=None, metavar="0,1",
                        help=CLI("shard_ids", lang))


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
