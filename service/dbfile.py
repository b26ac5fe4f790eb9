"""Whether the SQLite file the bot writes to is still the one on disk.

SQLite keeps writing through the file it opened: a database deleted while the bot runs, another
file moved over it (a backup restored), or its `-wal` removed goes on taking commits that the next
start never sees. Every acknowledged action would vanish then. `FileWatch` notices: the file's and
the log's inodes are those seen at start-up, and a fresh reader of the path finds every outbox row
the bot stored (a backup copied over the file in place keeps its inode, not its rows).
"""
from __future__ import annotations

import os
import sqlite3

from .db import sqlite_uri


class FileWatch:
    def __init__(self, path: str):
        self.path = path
        self.inode = os.stat(path).st_ino
        self.wal_inode = self._inode(path + "-wal")  # None until the first write makes it
        self.highest = 0  # the newest outbox row the bot stored

    @staticmethod
    def _inode(path: str) -> int | None:
        try:
            return os.stat(path).st_ino
        except FileNotFoundError:
            return None

    def stored(self, row_id: int) -> None:
        self.highest = max(self.highest, row_id)

    def problem(self) -> str | None:
        """What happened to the file (Chinese), or None: it is the one the bot opened."""
        inode = self._inode(self.path)
        if inode is None:
            return f"数据库文件 {self.path} 已被删除"
        if inode != self.inode:
            return f"数据库文件 {self.path} 已被另一个文件替换（例如从备份恢复）"
        wal = self._inode(self.path + "-wal")
        if self.wal_inode is None:
            self.wal_inode = wal
        elif wal != self.wal_inode:
            return f"数据库的日志文件 {self.path}-wal 已被删除或替换，其中的记录已丢失"
        if self.highest and self._newest() < self.highest:
            return f"数据库文件 {self.path} 里的记录比机器人已经保存的少（可能被备份覆盖）"
        return None

    def _newest(self) -> int:
        try:
            db = sqlite3.connect(sqlite_uri(self.path, "ro"), uri=True, timeout=1)
        except sqlite3.Error:
            return self.highest  # busy for a moment: the inodes were the same, look again next time
        try:
            return db.execute('SELECT MAX("id") FROM "outbox"').fetchone()[0] or 0
        except sqlite3.Error:
            return self.highest
        finally:
            db.close()
