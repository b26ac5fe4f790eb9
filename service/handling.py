"""Each OneBot event is handled once, and what one handling queued goes out together.

OneBot may deliver an event twice: after a reconnect, or many times at once. An event is known by
its bot, its kind, its chat and its id (two chats' message ids say nothing about each other), a
message also by what it says and by OneBot's time of it (ids start again when OneBot is set up
again: a new message may come under an old id, even with the same text). The
first handler to claim the key handles it; a repeat arriving meanwhile or later finds the claim in
memory. The key is also stored (`SeenMessage`, with the message's time) in the transaction of the
first change the handling makes, and an event not claimed in memory is looked up there (by its
primary key) before it is handled, whatever time OneBot gave it relative to the bot's clock (which
may run behind OneBot's): only a stored time that differs makes it another message, whose handling
then stores its own time in place of the old one's. A repeat may come after a restart or after the
claim in memory was let go (`KEEP_SECONDS`, by which time the key of anything the handling changed
is stored). Stored keys are forgotten after `KEEP_DAYS`.

A handling is a `Unit` in the task's context: the key it must store, the chat it answers (whose
messages go before broadcasts) and the outbox rows it queued, handed to the outbox once stored.
"""
from __future__ import annotations

import hashlib
import sqlite3
import time
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from . import writer
from .db import sqlite_uri
from .models import OutboxRow, SeenMessage

KEEP_SECONDS = 3600.0
KEEP_DAYS = 3
KEY_LENGTH = 64  # SeenMessage.key

Address = tuple[str, str]  # ("private", qq) | ("group", group id)


@dataclass
class Unit:
    """One handling of an event, or one job (a time limit, a delivery's consequences)."""

    key: str | None = None  # the event's key, stored with the handling's first change
    time: int | None = None  # OneBot's time of the event, stored with its key
    reused: bool = False  # the key is stored with another time (a former message's): replaced
    origin: Address | None = None  # the chat the event came from: its answers go first
    account: str | None = None  # the QQ account the event came to: its answers go through it
    rows: list[OutboxRow] = field(default_factory=list)  # queued and stored, not yet handed over
    # queued inside a transaction this service did not open: handed over once seen stored
    unsure: list[OutboxRow] = field(default_factory=list)
    # a director's command: the game, the phase (and its name) and the length of its log he read it
    # against (a command of his finding the game moved on by another's is refused); moved along with
    # each of his own commands accepted
    against: tuple[int, tuple, str, int] | None = None

    def store_key(self) -> str | None:
        """The key to store with the change being made now (once)."""
        key, self.key = self.key, None
        return key


_unit: ContextVar[Unit | None] = ContextVar("banshabot_unit", default=None)


def current() -> Unit:
    unit = _unit.get()
    if unit is None:
        unit = Unit()
        _unit.set(unit)
    return unit


def begin(key: str | None, origin: Address | None, *, time: int | None = None, reused: bool = False,
          account: str | None = None) -> Unit:
    unit = Unit(key=key, origin=origin, time=time, reused=reused, account=account)
    _unit.set(unit)
    return unit


def event_key(self_id: str, kind: str, chat: str, ident: object) -> str:
    key = f"{self_id}:{kind}:{chat}:{ident}"
    if len(key) > KEY_LENGTH:  # a long request flag: its digest stands for it
        key = f"{self_id}:{kind}:" + hashlib.sha1(key.encode()).hexdigest()
    return key[:KEY_LENGTH]


def message_key(self_id: str, kind: str, chat: str, message_id: object, content: str) -> str:
    """A message's key: its id and a digest of what it says. A OneBot set up again numbers messages
    from the start: a new message with an old id mostly says something else; one saying the same is
    told apart by its time, stored beside the key (`Seen.verdict`)."""
    return event_key(self_id, kind, chat, f"{message_id}:{hashlib.sha1(content.encode()).hexdigest()[:12]}")


_STORED = 'SELECT "time" FROM "seen_message" WHERE "key"=? LIMIT 1'


class Seen:
    """The events claimed by this process, each remembered for `KEEP_SECONDS`, and a look at the
    stored keys for every event not claimed yet."""

    def __init__(self) -> None:
        self.claims: OrderedDict[str, float] = OrderedDict()
        self.file: sqlite3.Connection | None = None

    def read_from(self, path: str | None) -> None:
        """Look stored keys up in the SQLite file at `path` directly (None: through tortoise). Every
        message asks: through tortoise that is a trip to the database's thread, behind whatever it is
        writing; a read of its own is a few microseconds (in WAL mode readers never wait for the
        writer, and each statement sees what was committed)."""
        if self.file is not None:
            self.file.close()
        self.file = None if path is None else sqlite3.connect(sqlite_uri(path, "ro"), uri=True, isolation_level=None)

    def read(self, sql: str, params: tuple) -> list[dict] | None:
        """Rows read from the SQLite file directly (each as column -> value); None where it is not
        open or busy for a moment: then ask tortoise."""
        if self.file is None:
            return None
        try:
            cursor = self.file.execute(sql, params)
            names = [column[0] for column in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]
        except sqlite3.Error:
            return None

    async def stored(self, key: str) -> list[int | None]:
        """The time stored with `key` ([]: not stored; [None]: stored without one)."""
        if self.file is not None:
            try:
                # read to the end: no statement is left open to hold back the log's checkpoints
                rows = self.file.execute(_STORED, (key,)).fetchall()
                return [row[0] for row in rows]
            except sqlite3.Error:  # busy for a moment (a checkpoint restarting the log): ask tortoise
                pass
        return [row[0] for row in await writer.read(_STORED, [key])]

    def claim(self, key: str, at: int | None = None) -> bool:
        """Whether `key` at OneBot's time `at` was not claimed yet in this process (claiming it)."""
        now = time.monotonic()
        while self.claims and next(iter(self.claims.values())) < now - KEEP_SECONDS:
            self.claims.popitem(last=False)
        claim = key if at is None else f"{key}@{at}"
        if claim in self.claims:
            return False
        self.claims[claim] = now
        return True

    async def verdict(self, key: str, at: int | None = None) -> str:
        """What the event `key` at OneBot's time `at` is: "repeat" (claimed in memory, or stored as
        handled with that time or none), "new", or "reused" (its key is stored with another time: a
        message OneBot numbered before it was set up again). Claimed in memory unless a repeat."""
        if not self.claim(key, at):
            return "repeat"
        stored = await self.stored(key)
        if not stored:
            return "new"
        return "repeat" if at is None or stored[0] is None or stored[0] == at else "reused"

    def forget(self) -> None:
        self.claims.clear()


async def expire(now: datetime) -> int:
    """Forget stored keys older than `KEEP_DAYS` (an index on `at` finds them)."""
    return await SeenMessage.filter(at__lt=now - timedelta(days=KEEP_DAYS)).delete()
