"""The database a ``musbot bench load`` run plays on, always empty at the start, and what it
holds at the end.

``--db`` names it as ``MUSBOT_DB`` would, with one difference: the benchmark never writes into a
database that was there before it.

- ``sqlite`` (the default): a file in a new temporary folder, removed afterwards;
- a path, or ``sqlite:///path``: a new file there (an existing directory: a temporary file in
  it), to choose the disk; an existing file is refused. Removed afterwards, with its log;
- ``postgresql://…``: a new database ``musbot_bench_…`` on that server, made through the
  database the URL names (``CREATE DATABASE``: the role needs CREATEDB) and dropped afterwards.

Sizes: SQLite's from its ``dbstat`` table (each b-tree's pages), PostgreSQL's from
``pg_total_relation_size`` (heap, indexes, TOAST, free-space and visibility maps), both as the
run left them, without a VACUUM.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from musbot.runtime import process_ticks
from musbot.storage.database import SQLITE_SCHEME

PER_HAND_TABLES = ("hands", "ledger", "ordagos", "games", "matches", "match_seats")
"""What the database keeps for finished hands: the figure for bytes per hand."""

Kind = Literal["sqlite", "postgresql"]


class BadTarget(ValueError):
    """A ``--db`` the benchmark will not run on; ``key`` is its sentence in the CLI catalog."""

    def __init__(self, key: str, value: str) -> None:
        super().__init__(key, value)
        self.key = key
        self.value = value


def kind_of(spec: str) -> Kind:
    """Which backend a ``--db`` value names; :class:`BadTarget` for what is not a database
    (an unknown URL scheme) or would overwrite one (an existing file)."""
    from musbot.storage.database import backend_for

    if spec == "sqlite":
        return "sqlite"
    try:
        kind: Kind = backend_for(spec).dialect
    except ValueError:
        raise BadTarget("bench_db_unknown", spec) from None
    path = Path(spec[len(SQLITE_SCHEME):] if spec.startswith(SQLITE_SCHEME) else spec)
    if kind == "sqlite" and path.exists() and not path.is_dir():
        raise BadTarget("bench_db_exists", spec)
    return kind


def with_database(url: str, name: str) -> str:
    """The server URL ``url`` naming database ``name`` instead of its own (``urlunsplit``
    would drop the ``//`` of a URL without a host, ``postgresql:///db?host=/socket/dir``)."""
    parts = urlsplit(url)
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.netloc}/{name}{query}"


@dataclass
class Scratch:
    """The run's database: ``target`` is what :meth:`musbot.storage.Database.open` takes."""

    spec: str
    kind: Kind
    target: str = ""
    where: str = ""
    """How the report names it (a PostgreSQL URL without its password)."""
    _made: list[Path] = field(default_factory=list)
    _server: str = ""

    async def create(self) -> None:
        from musbot.storage import Database

        if self.kind == "postgresql":
            import asyncpg

            from musbot.storage.postgres import DRIVER_ERRORS, public_url, translate

            name = f"musbot_bench_{uuid.uuid4().hex[:12]}"
            try:
                admin = await asyncpg.connect(self.spec, timeout=10)
                try:
                    await admin.execute(f'CREATE DATABASE "{name}"')
                finally:
                    await admin.close()
            except DRIVER_ERRORS as exc:  # one sentence, as every storage failure
                raise translate(exc, public_url(self.spec), 0.0) from exc
            self._server = self.spec
            self.target = with_database(self.spec, name)
        else:
            self.target = str(self._sqlite_path())
        self.where = Database(self.target).where

    def _sqlite_path(self) -> Path:
        spec = self.spec[len(SQLITE_SCHEME):] if self.spec.startswith(SQLITE_SCHEME) \
            else self.spec
        if spec == "sqlite" or Path(spec).is_dir():
            folder = Path(tempfile.mkdtemp(prefix="musbot-load-",
                                           dir=None if spec == "sqlite" else spec))
            self._made.append(folder)
            return folder / "load.db"
        path = Path(spec)
        if path.exists():
            raise BadTarget("bench_db_exists", self.spec)
        self._made.extend(Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm",
                                                                 "-journal"))
        missing = [folder for folder in path.parents if not folder.exists()]
        if missing:  # the storage makes the folders a new file needs: they go too
            self._made.append(missing[-1])
        return path

    async def drop(self) -> None:
        """Removes what :meth:`create` made (a database still connected is closed by force)."""
        if self.kind == "postgresql" and self._server:
            import asyncpg

            name = urlsplit(self.target).path.lstrip("/")
            admin = await asyncpg.connect(self._server)
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await admin.close()
        for made in self._made:
            if made.is_dir():
                shutil.rmtree(made, ignore_errors=True)
            else:
                made.unlink(missing_ok=True)

    async def figures(self) -> dict[str, Any]:
        """Bytes the finished hands take (their tables with indexes), the live tables' state
        size and the whole database's size, with the database closed (SQLite) or idle."""
        if self.kind == "postgresql":
            return await _pg_figures(self.target)
        return _sqlite_figures(Path(self.target))


def _sqlite_figures(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as conn:
        hands = conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
        names = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE tbl_name IN "
            f"({','.join('?' * len(PER_HAND_TABLES))})", PER_HAND_TABLES)}
        how = "dbstat"
        try:
            stored = sum(size for name, size in conn.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name") if name in names)
        except sqlite3.OperationalError:  # SQLite built without dbstat: the whole file
            stored = path.stat().st_size
            how = "file"
        live, state_bytes = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(length(state)), 0) FROM live_tables").fetchone()
    return {"hands": hands, "db_bytes_per_hand": stored / hands if hands else 0.0,
            "state_bytes": state_bytes / live if live else 0.0,
            "db_bytes": path.stat().st_size, "size_measure": how}


async def _pg_figures(url: str) -> dict[str, Any]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        hands = int(await conn.fetchval("SELECT COUNT(*) FROM hands"))
        stored = int(await conn.fetchval(
            "SELECT COALESCE(SUM(pg_total_relation_size(to_regclass(t))), 0)::bigint"
            " FROM unnest($1::text[]) AS t", list(PER_HAND_TABLES)))
        live, state_bytes = (int(v) for v in await conn.fetchrow(
            "SELECT COUNT(*), COALESCE(SUM(octet_length(state::text)), 0)::bigint"
            " FROM live_tables"))
        size = int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()
    return {"hands": hands, "db_bytes_per_hand": stored / hands if hands else 0.0,
            "state_bytes": state_bytes / live if live else 0.0,
            "db_bytes": size, "size_measure": "pg_total_relation_size"}


class ServerCpu:
    """CPU time of the PostgreSQL server's processes serving the run's database, read from
    ``/proc`` while the open loop runs: with PostgreSQL much of a save's work leaves this
    process, so its CPU per action alone would flatter it. Only for a server on this machine
    (``None`` otherwise); the server's background writers are not counted."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._start: dict[int, int] = {}
        self.ticks: int | None = None

    async def _backends(self) -> list[int]:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            rows = await conn.fetch(
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        finally:
            await conn.close()
        return [row[0] for row in rows]

    async def start(self) -> None:
        self._start = _cpu_of(await self._backends())

    async def stop(self) -> None:
        now = _cpu_of(await self._backends())
        if not now and not self._start:
            self.ticks = None
            return
        # A backend that started during the run counts whole (it started inside it).
        self.ticks = sum(ticks - self._start.get(pid, 0) for pid, ticks in now.items())

    def ms_per_action(self, actions: int) -> float | None:
        if self.ticks is None:
            return None
        return self.ticks / os.sysconf("SC_CLK_TCK") / max(actions, 1) * 1000


def _cpu_of(pids: Sequence[int]) -> dict[int, int]:
    """utime + stime in clock ticks of each pid that is a local PostgreSQL process."""
    found: dict[int, int] = {}
    for pid in pids:
        ticks = process_ticks(pid)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if ticks is None or b"postgres" not in command:
            continue  # a pid of a server elsewhere, the same number as one of ours here
        found[pid] = ticks
    return found
