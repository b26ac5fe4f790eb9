"""End to end: the database file taken away from under the running bot.

SQLite keeps writing to the file it opened: deleted, replaced by another file (a backup restored),
or with its `-wal` removed, the running bot went on acknowledging actions that vanished at the next
start. bot.py now notices that the file is no longer the one it opened, takes no more commands (the
sender is told why) and tells the directors.
"""
from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from onebot_sim import OneBotSim
from test_e2e import DIRECTOR, QQ, SELF_ID, TOKEN, WAIT, Table, bots, connect, pm  # noqa: F401

STOPPED = "机器人的数据库文件出了问题，已停止接受指令"


async def lose_the_file(bots, what) -> tuple[OneBotSim, str]:
    """A bot with a game; `what(path)` is done to its database file; what the director is told."""
    bot = bots(minute_seconds=60)
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()))
    t = Table(sim, 0)
    bot.start()
    path = Path(bot.db.url.removeprefix("sqlite://"))
    async with asyncio.timeout(60):
        await connect(sim, bot)
        await t.director("新游戏 M131 一局", "已创建游戏")
        mark = sim.mark()
        what(path)
        told = await sim.wait_for(pm(DIRECTOR), lambda s: s.startswith("【故障】"), WAIT, since=mark)
        refused = await t.director("游戏", STOPPED)
        assert "没有执行" in refused, refused
        await sim.close()
    return sim, told


@pytest.mark.slow
async def test_a_deleted_database_file_stops_the_bot(bots, tmp_path):
    _, told = await lose_the_file(bots, os.remove)
    assert "已被删除" in told and "停止接受指令" in told, told


@pytest.mark.slow
async def test_a_backup_moved_over_the_database_file_stops_the_bot(bots, tmp_path):
    def restore(path: Path) -> None:
        backup = path.with_name("backup.sqlite3")
        shutil.copy(path, backup)
        os.replace(backup, path)

    _, told = await lose_the_file(bots, restore)
    assert "已被另一个文件替换" in told, told


@pytest.mark.slow
async def test_a_removed_wal_stops_the_bot(bots, tmp_path):
    _, told = await lose_the_file(bots, lambda path: os.remove(f"{path}-wal"))
    assert "-wal 已被删除或替换" in told, told


def test_a_backup_copied_into_the_file_keeps_its_inode_but_not_the_rows(tmp_path):
    """`cp backup banshabot.sqlite3` writes into the same file: the rows the bot stored since are missing."""
    import sqlite3

    from service.dbfile import FileWatch

    path = tmp_path / "db.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    for file, rows in ((backup, 3), (path, 5)):
        with sqlite3.connect(file) as db:
            db.execute('CREATE TABLE "outbox" ("id" INTEGER PRIMARY KEY)')
            db.executemany('INSERT INTO "outbox" VALUES (?)', [(n,) for n in range(1, rows + 1)])
        db.close()
    watch = FileWatch(str(path))
    watch.stored(5)
    assert watch.problem() is None
    inode = path.stat().st_ino
    path.write_bytes(backup.read_bytes())
    assert path.stat().st_ino == inode
    assert "记录比机器人已经保存的少" in watch.problem()
