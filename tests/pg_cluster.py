"""A PostgreSQL server of a test's own, which the test may stop and start (the shared one that
MUSBOT_TEST_POSTGRES names is never touched): a throw-away cluster in a temporary folder, on a
Unix socket only, run as the ``postgres`` user when the tests run as root (the server refuses
root), as ``.ci/run`` does. Made once per module that asks for it (``initdb`` takes seconds)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))


class PgCluster:
    """One server; :meth:`url` names a database on it."""

    def __init__(self) -> None:
        shm = Path("/dev/shm")
        self.root = Path(tempfile.mkdtemp(prefix="musbot-pg-",
                                          dir=shm if os.access(shm, os.W_OK) else None))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E",
                  "UTF8", "--no-locale", "--no-sync")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self._as, str(PG_BIN / program), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql:///{database}?host={self.root}&user=postgres"

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o",
                  f"-c listen_addresses='' -c unix_socket_directories='{self.root}' "
                  "-c fsync=off -c max_connections=60", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stops the server (``fast``: open transactions rolled back, connections closed;
        ``immediate``: as a crash)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        subprocess.run([*self._as, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m",
                        "immediate", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[PgCluster]:
    """A running server of the module's own; each test leaves it running."""
    if not (PG_BIN / "initdb").exists():
        reason = f"needs PostgreSQL's programs in {PG_BIN} (PG_BIN) to run a server of its own"
        if _ci():
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = PgCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()
