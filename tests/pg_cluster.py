"""A throwaway PostgreSQL cluster for the tests that run on PostgreSQL as well as SQLite.

`initdb` and `pg_ctl` (on PATH, as the PostgreSQL packages install them) make a cluster in a
temporary directory, listening on a free port of 127.0.0.1 only, with durability switched off: it
lives for one test session. PostgreSQL refuses to run as root: under root the server runs as the
`postgres` account (or `nobody`). Without the binaries or asyncpg (`pip install -e '.[postgres]'`),
`Cluster.available` says why and the PostgreSQL variants are skipped.
"""
from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        self.base: Path | None = None
        self.port = 0
        self.user: pwd.struct_passwd | None = None
        self.started = False

    @staticmethod
    def available() -> str | None:
        """Why no cluster can be made here (None: it can)."""
        for tool in ("initdb", "pg_ctl"):
            if shutil.which(tool) is None:
                return f"{tool} is not on PATH"
        try:
            import asyncpg  # noqa: F401
        except ImportError:
            return "asyncpg is not installed (pip install -e '.[postgres]')"
        if os.geteuid() == 0 and not _unprivileged():
            return "running as root with no postgres or nobody account to run the server as"
        return None

    def _run(self, *command: str) -> None:
        if self.user is None:
            subprocess.run(command, check=True, capture_output=True, timeout=120)
            return
        user = self.user

        def drop() -> None:  # the server refuses to run as root
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)

        subprocess.run(command, check=True, capture_output=True, timeout=120, preexec_fn=drop,
                       env={**os.environ, "HOME": str(self.base)})

    def start(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="banshabot-pg-"))
        if os.geteuid() == 0:
            self.user = _unprivileged()
            os.chown(self.base, self.user.pw_uid, self.user.pw_gid)
        data, sockets = self.base / "data", self.base / "sockets"
        self._run("initdb", "-D", str(data), "-U", "banshabot", "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--locale=C")
        if self.user is not None:
            sockets.mkdir()
            os.chown(sockets, self.user.pw_uid, self.user.pw_gid)
        else:
            sockets.mkdir()
        self.port = _free_port()
        options = (f"-p {self.port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(data), "-l", str(self.base / "server.log"), "-o", options, "-w", "-t", "60", "start")
        self.started = True

    @property
    def address(self) -> str:
        return f"postgres://banshabot@127.0.0.1:{self.port}"

    def new_database(self) -> str:
        return new_database(self.address)

    def stop(self) -> None:
        if self.started:
            try:
                self._run("pg_ctl", "-D", str(self.base / "data"), "-m", "immediate", "-w", "stop")
            except subprocess.CalledProcessError:
                pass
            self.started = False
        if self.base is not None:
            shutil.rmtree(self.base, ignore_errors=True)


_names = itertools.count(1)


def new_database(address: str) -> str:
    """A new empty database in the cluster at `address` (postgres://user@host:port); its URL."""
    import asyncpg

    name = f"banshabot_{os.getpid()}_{next(_names)}"

    async def create() -> None:
        connection = await asyncpg.connect(f"{address}/postgres")
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    # in a thread of its own: the caller may be inside a running event loop
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, create()).result()
    return f"{address}/{name}"


def _unprivileged() -> pwd.struct_passwd | None:
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    return None
