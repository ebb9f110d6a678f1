"""The numbered migrations, the RoboDanny way: ``.sql`` files applied in order, each recorded in
``schema_version`` (see each backend's ``connect`` for how a database is checked and upgraded).

Both backends have the same migrations, so a schema version means the same tables everywhere.
``migrations/NNNN_name.sql`` is the SQL of migration NNNN; where PostgreSQL must differ (its
types: BIGINT ids, identity columns, ``json``, double precision), its own file of the same name
is in ``migrations/postgresql/`` and replaces it there.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable

from .tx import Dialect

DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def _files(folder: Traversable) -> dict[int, Migration]:
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            migration = Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8"))
            if migration.version in found:
                # Two branches numbered a migration alike: which one ran would depend on the
                # order of the directory's entries, and applying either alone would leave the
                # other unapplied forever on the databases it had migrated.
                raise RuntimeError(f"two migrations numbered {migration.version:04d}: "
                                   f"{found[migration.version].name} and {migration.name}")
            found[migration.version] = migration
    return found


def load_migrations() -> dict[Dialect, tuple[Migration, ...]]:
    """The migrations shipped in this package, by dialect and number. A gap, or a PostgreSQL
    file that replaces no migration of its name, is a packaging bug."""
    folder = resources.files("musbot.storage") / "migrations"
    common = _files(folder)
    if sorted(common) != list(range(1, len(common) + 1)):
        raise RuntimeError("migrations must be numbered 0001, 0002, … without gaps")
    own = _files(folder / "postgresql")
    for version, migration in own.items():
        if version not in common or common[version].name != migration.name:
            raise RuntimeError(f"postgresql/{version:04d}_{migration.name}.sql replaces no "
                               "migration of that number and name")
    ordered = [common[v] for v in sorted(common)]
    return {"sqlite": tuple(ordered),
            "postgresql": tuple(own.get(m.version, m) for m in ordered)}


def split_statements(sql: str) -> list[str]:
    """Statements of a migration, one per ``execute`` on SQLite (``executescript`` would commit
    the migration's transaction behind our back)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise ValueError(f"incomplete SQL statement at the end of a migration: {leftover[0]!r}")
    return statements


MIGRATIONS = load_migrations()
SCHEMA_VERSION = len(MIGRATIONS["sqlite"])
"""The newest schema this code knows."""
