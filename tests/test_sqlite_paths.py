"""A SQLite file in a folder whose name holds what a URI reads otherwise ("%25", a space, CJK): every connection the
bot opens to it beside tortoise's (the writer's, the event keys' look-up, the file watch, the damage check) opens
that same file; a "#", where tortoise's URL would end, is refused at start-up in Chinese."""
from __future__ import annotations

import contextvars
from datetime import datetime, timezone

import pytest
from tortoise.context import TortoiseContext
from tortoise.migrations.executor import MigrationExecutor

from service.db import DatabaseUnusable, open_database, quick_check, sqlite_path, tortoise_config
from service.dbfile import FileWatch
from service.handling import Seen
from service.models import SeenMessage
from service.writer import Job, Writer


async def test_the_bots_own_connections_open_the_file_tortoise_opens(tmp_path):
    url = f"sqlite://{tmp_path / '比例 100%25' / 'bot.sqlite3'}"
    path = sqlite_path(url)
    assert path.endswith("比例 100%25/bot.sqlite3")
    (tmp_path / "比例 100%25").mkdir()
    async with TortoiseContext() as context:
        config = tortoise_config(url)
        await context.init(config=config)
        await MigrationExecutor(context.db("default"), config["apps"]).migrate()
        writer = Writer(contextvars.copy_context)
        job = Job()
        job.insert(SeenMessage, {"key": "k1", "time": 7, "at": datetime.now(timezone.utc)}, returns=False)
        try:
            await writer.write(job)
            assert writer.own is not None  # written on the writer's own connection, to tortoise's file
        finally:
            writer.close()
        assert await SeenMessage.filter(key="k1").exists()
        seen = Seen()
        seen.read_from(path)
        try:
            assert await seen.stored("k1") == [7]
        finally:
            seen.read_from(None)
        watch = FileWatch(path)
        assert watch.problem() is None
        watch.highest = 5  # as if the bot had stored five messages: the file, read, has none
        assert "少" in watch.problem()
        assert quick_check(url) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["比例 100%25"]  # no file made where "%25" was read as "%"


async def test_a_hash_in_the_sqlite_url_is_refused_in_chinese(tmp_path):
    with pytest.raises(DatabaseUnusable, match="“#”"):
        await open_database(f"sqlite://{tmp_path / 'a#b' / 'bot.sqlite3'}")
    assert not (tmp_path / "a#b").exists() and not (tmp_path / "a").exists()
