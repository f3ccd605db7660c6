"""A PostgreSQL server of the tests' own, for the stores and servers that share one
database: started with initdb and pg_ctl (as the ``postgres`` user when the tests run
as root, as CI does), trust authentication on the loopback address only, no fsync.
The ``postgres`` fixture (conftest.py) skips, saying why, where that is impossible."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: A throwaway cluster: trust on loopback, no fsync while it is made.
INITDB = ("--auth=trust", "-E", "UTF8", "--no-sync")


class NoPostgres(Exception):
    """No PostgreSQL server can be started here; the message says why."""


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start a PostgreSQL server; its DSN (the ``postgres`` database) while it runs."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise NoPostgres("the PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    try:
        import psycopg  # noqa: F401 - only whether it is there
    except ImportError:
        raise NoPostgres("psycopg is not installed") from None
    root = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        if shutil.which("runuser") is None:
            raise NoPostgres("running as root without runuser: initdb cannot be run")
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run(
        [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-U", "tabletop", *INITDB],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg_ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://tabletop@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(dsn: str) -> str:
    """The DSN of a new, empty database on the server of ``dsn``."""
    import psycopg

    name = f"t{os.urandom(6).hex()}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return dsn.rsplit("/", 1)[0] + f"/{name}"


def fresh_postgres(dsn: str) -> Any:
    """A PostgresGameStore on an empty database of its own."""
    from tabletop.adapters.server.pgstore import PostgresGameStore

    return PostgresGameStore(fresh_database(dsn))
