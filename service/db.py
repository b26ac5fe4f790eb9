"""Opening the database and bringing its schema up to date with the migrations in service/migrations."""
from __future__ import annotations

import inspect
import sqlite3
from contextlib import closing
from pathlib import Path

from tortoise import Tortoise
from tortoise.backends.base.config_generator import expand_db_url
from tortoise.connection import get_connection
from tortoise.migrations.executor import MigrationExecutor

DEFAULT_URL = "sqlite://data/banshabot.sqlite3"


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None: another database, or one in memory), read as tortoise reads it:
    the bot's own connections (sqlite_uri) open the file tortoise opens. "?synchronous=NORMAL": SQLite's pragmas."""
    if url.startswith("sqlite://") and not url.startswith("sqlite://:memory:"):
        return expand_db_url(url)["credentials"]["file_path"]
    return None


def sqlite_uri(path: str, mode: str) -> str:
    """The URI sqlite3 opens `path` by in `mode` (ro, rw): a "%", "?" or "#" in a folder's name is quoted, not
    read as an escape, the start of the URI's options or of a fragment."""
    return f"{Path(path).absolute().as_uri()}?mode={mode}"


def with_sqlite_defaults(url: str) -> str:
    """A SQLite file in WAL mode syncs to disk at checkpoints, not at every commit
    (synchronous=NORMAL): a commit costs a fraction of a millisecond instead of a disk flush, and a
    crash or SIGKILL of the bot still loses nothing it committed; only a power cut or an operating
    system crash can lose the last moments. "?synchronous=FULL" in the URL keeps every commit on
    disk before it returns."""
    if sqlite_path(url) is None or "synchronous=" in url:
        return url
    return url + ("&" if "?" in url else "?") + "synchronous=NORMAL"


async def _session_kept(connection) -> None:
    """What asyncpg's pool runs on a connection given back to it, instead of resetting its session
    (advisory locks, LISTEN, session settings, cursors): that is one more round trip to the server
    after every query and every transaction, and the bot leaves none of those behind. An open
    transaction is still rolled back, by asyncpg itself."""


def _connection(url: str) -> str | dict:
    """The connection's configuration: the URL, or its expansion where it is PostgreSQL's (asyncpg)."""
    if url.startswith("sqlite://"):
        return with_sqlite_defaults(url)
    config = expand_db_url(url)
    if config["engine"] != "tortoise.backends.asyncpg":
        return url
    config["credentials"]["reset"] = _session_kept
    return config


def tortoise_config(url: str) -> dict:
    return {
        "connections": {"default": _connection(url)},
        "apps": {
            "models": {
                "models": ["service.models"],
                "migrations": "service.migrations",
                "default_connection": "default",
            }
        },
    }


# for the command line: `tortoise -c service.db.TORTOISE_ORM makemigrations` after a model change
TORTOISE_ORM = tortoise_config(DEFAULT_URL)


class DatabaseUnusable(RuntimeError):
    """The configured database cannot be opened (message in Chinese, for the one starting the bot)."""


def _check_sqlite(path: str) -> None:
    # tortoise waits forever for a connection it failed to open (a directory, a file that is not a
    # database): the bot would hang at start-up instead of saying what is wrong
    try:
        with closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA schema_version")
    except sqlite3.Error as exc:
        raise DatabaseUnusable(f"无法打开数据库 {path}：{exc}。请检查 BANSHABOT_DATABASE_URL。") from exc


def quick_check(url: str) -> str | None:
    """SQLite's own check of every page (`PRAGMA quick_check`): what is damaged, or None. It reads
    the whole file, so the bot runs it beside its work rather than before it."""
    path = sqlite_path(url)
    if path is None:
        return None
    try:
        with closing(sqlite3.connect(sqlite_uri(path, "ro"), uri=True)) as db:
            found = [row[0] for row in db.execute("PRAGMA quick_check(20)")]
    except sqlite3.Error as exc:
        return str(exc)
    return None if found == ["ok"] else "; ".join(found)


MIGRATING = 0x62616E73  # the advisory lock key migrations run under on PostgreSQL ("bans")


async def open_database(url: str) -> None:
    if url.startswith("sqlite://") and "#" in url:
        # tortoise reads what follows "#" as the URL's fragment and would open another file than the one named
        raise DatabaseUnusable(f"数据库地址 {url} 含有“#”：SQLite 的地址在“#”处截断，会打开另一个文件。"
                               "请把数据库放在名称不含“#”的目录中，并相应修改 BANSHABOT_DATABASE_URL。")
    path = sqlite_path(url)
    if path is not None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        _check_sqlite(path)
    config = tortoise_config(url)
    # handlers run in NoneBot's tasks, not the one that opened the database: share it globally, one
    # connection for all (scheduled jobs run in copies of this task's context: plugins/banshabot/runtime.py)
    await Tortoise.init(config=config, _enable_global_fallback=True)
    # tortoise's own migrate() initialises again, which would drop that global fallback (and an
    # in-memory database): run the migrations on the connection just opened instead
    connection = get_connection("default")
    if path is not None or url.startswith("sqlite://"):
        await MigrationExecutor(connection, config["apps"]).migrate()
        return
    # several bot processes started at once on one PostgreSQL (service/leases.py) would each create the
    # migrations' table and apply the same migration: one at a time, the later finding them applied. The lock
    # is held on a connection of its own, outside the pool: the migration takes the pool's, so a pool of one
    # (`?maxsize=1`) would wait for itself forever
    held = await _own_connection(connection)
    try:
        await held.execute("SELECT pg_advisory_lock($1)", MIGRATING)
        await MigrationExecutor(connection, config["apps"]).migrate()
    finally:
        await held.close()  # the session's end lets the lock go, also where the migration failed


async def _own_connection(client):
    """One asyncpg connection with the settings the pool's connections get (those a single connection takes)."""
    import asyncpg

    takes = inspect.signature(asyncpg.connect).parameters
    settings = {**client.server_settings, **({"search_path": client.schema} if client.schema else {}),
                **({"application_name": client.application_name} if client.application_name else {})}
    given = {"host": client.host, "port": client.port, "user": client.user, "password": client.password,
             "database": client.database, "server_settings": settings, **client.extra}
    return await asyncpg.connect(**{k: v for k, v in given.items() if k in takes})


async def close_database() -> None:
    await Tortoise.close_connections()
