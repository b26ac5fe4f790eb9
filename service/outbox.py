"""Delivery: stored OneBot actions are performed chat by chat, each chat in order, chats side by side.

Every action is stored (`OutboxRow`) before it is handed here, so nothing is lost to a crash. Each
chat (a player, a group) has its own lane: its actions go out one at a time in the order they were
queued, and a chat whose action fails waits for its retry without holding any other chat. What
limits each QQ account is a rate (`BANSHABOT_SEND_RATE` messages a second, QQ restricts accounts that
send in bursts), and under it an answer to someone who just wrote goes before broadcasts.

The bot may have several accounts, each its own OneBot connection: an action goes through the
account stored with it (`OutboxRow.account`) and no other, so a lane is a chat of one account, each
account keeps its own pace, and an account that is not connected holds its own actions until it is
back while the others go on. An action stored without an account (from before accounts were kept,
or the bot's own notices) goes through whichever account connected first.

An action OneBot refuses is tried again after `retry` seconds, and given up after `attempts`
refusals (whoever set up the game is told). One whose outcome is unknown (no answer within
`timeout`, or the connection dropped while waiting) is in doubt: before it is sent again the chat's
history is looked at where the OneBot implementation offers it (`confirm`), so it goes out twice only
where that cannot be known. After a crash, the same holds for every action that may have gone out:
each one's id is written to a file (`Handed`) before OneBot is called, cheaply and beside the
database, so a quick send whose mark was not stored yet is looked up too.

Whoever handed actions over waits until each was attempted (at a pace, a handling only for its
answers: its broadcast goes at the pace without it), but never for another chat's trouble:
not for a retry, and not past `SLOW` seconds of a call OneBot is slow to answer (what stands behind
such a call in its chat is not waited for either).

Marks (sent, tried, refused) are written in batches, with whatever else is stored at that moment.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import os
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Awaitable, Callable, Iterable

from .models import OutboxRow
from .writer import Job, Writer

log = logging.getLogger("banshabot.outbox")

Call = Callable[[str, dict], Awaitable[object]]
Sent = Callable[[OutboxRow], Awaitable[None]]
GivenUp = Callable[[OutboxRow], Awaitable[None]]
Confirm = Callable[[OutboxRow, "str | None"], Awaitable["bool | None"]]

LOOK_FOR_LAST = 500  # stored sends looked through for a chat's last delivered message (after a restart)
TRYING = "发送中"  # last_error while an attempt's outcome is not known (kept through a crash)


class Refused(Exception):
    """OneBot answered that it did not perform the action."""


class Unreachable(Exception):
    """No OneBot connection: nothing was sent (the attempt does not count)."""


def chat_of(action: str, params: dict) -> str:
    """The chat an action belongs to: actions of one chat keep their order."""
    if action in ("send_private_msg", "send_group_msg"):
        return f"group:{params['group_id']}" if action == "send_group_msg" else f"private:{params['user_id']}"
    if "group_id" in params:  # renames, kicks: in order with the group's messages
        return f"group:{params['group_id']}"
    if "user_id" in params:
        return f"private:{params['user_id']}"
    return f"{action}:{params.get('flag', '')}"  # a request's answer stands alone


def lane_of(row: OutboxRow) -> str:
    """The lane an action waits in: its chat, of its account (one account's messages in a chat say
    nothing about another's order there)."""
    chat = chat_of(row.action, row.params)
    return f"{row.account}/{chat}" if row.account else chat


def split_text(text: str, limit: int, parts: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at line ends where there are any, each
    numbered (1/3); past `parts` pieces the rest is cut off with a note saying so."""
    if limit <= 0 or len(text) <= limit:
        return [text]
    room = max(limit - 12, 1)  # leaves room for "（12/12）\n" and the note
    pieces: list[str] = []
    rest = text
    while rest:
        if len(rest) <= room:
            pieces.append(rest)
            break
        cut = rest.rfind("\n", 0, room)
        cut = cut + 1 if cut > room // 2 else room
        pieces.append(rest[:cut])
        rest = rest[cut:]
    if len(pieces) > parts:
        dropped = sum(map(len, pieces[parts - 1:]))
        pieces = pieces[:parts - 1] + [f"……（以下 {dropped} 字过长，未发送）"]
    return [f"（{i}/{len(pieces)}）\n{piece}" for i, piece in enumerate(pieces, 1)]


class RateLimit:
    """At most `rate` sends a second for the whole bot (bursts up to one second's worth); waiting
    sends go in order of priority (0 first), then of arrival. `rate` 0: no limit."""

    def __init__(self, rate: float):
        self.rate = rate
        self.capacity = max(1.0, rate)
        self.tokens = self.capacity
        self.stamp = time.monotonic()
        self.waiting: list[tuple[int, int, asyncio.Future]] = []
        self.held: dict[object, tuple[int, asyncio.Future]] = {}  # who waits: his place in the order
        self.order = itertools.count()
        self.timer: asyncio.TimerHandle | None = None

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    async def permit(self, priority: int, who: object) -> None:
        if self.rate <= 0:
            return
        self._refill()
        if not self.waiting and self.tokens >= 1:
            self.tokens -= 1
            return
        future = asyncio.get_running_loop().create_future()
        order = next(self.order)
        heapq.heappush(self.waiting, (priority, order, future))
        self.held[who] = (order, future)
        self._release()
        try:
            await future
        finally:
            self.held.pop(who, None)

    def hasten(self, who: object) -> None:
        """`who`, waiting, goes first from now on (priority 0, in his place of arrival)."""
        order, future = self.held.get(who, (0, None))
        if future is not None and not future.done():
            heapq.heappush(self.waiting, (0, order, future))  # its old place is passed over once done

    def _release(self) -> None:
        self.timer = None
        self._refill()
        while self.waiting and self.tokens >= 1:
            _, _, future = heapq.heappop(self.waiting)
            if not future.done():
                self.tokens -= 1
                future.set_result(None)
        while self.waiting and self.waiting[0][2].done():  # given up by whoever waited, or hastened
            heapq.heappop(self.waiting)
        if self.waiting and self.timer is None:
            self.timer = asyncio.get_running_loop().call_later((1 - self.tokens) / self.rate, self._release)


@dataclass(eq=False)
class Entry:
    """A stored action handed to a lane, until its first attempt is over (or it was sent)."""

    row: OutboxRow
    urgent: bool
    attempted: asyncio.Future
    in_doubt: bool = False  # an attempt's outcome is not known: look before sending it again
    children: list[asyncio.Future] = field(default_factory=list)
    strikes: int = 0  # failures counted towards giving up: at least `retry` seconds apart
    struck: float = 0.0  # monotonic time of the last one counted


class Lane:
    def __init__(self, account: str | None) -> None:
        self.account = account  # what its actions go through (None: whichever account is connected)
        self.via: str | None = None  # the connection its call being made went through
        self.entries: deque[Entry] = deque()
        self.task: asyncio.Task | None = None
        self.retry_at = 0.0  # monotonic: a failed action waits until then
        self.wake = asyncio.Event()
        self.busy = False  # its first action is being attempted
        self.calling = False  # OneBot is being called for it
        self.cut = False  # disconnect() cancelled that call
        self.slow = False  # OneBot takes more than SLOW seconds over it: nobody waits for this lane


class Marks:
    """Outcomes of attempts, written together with whatever else is stored at that moment (the
    service's writer: one transaction for all).

    `unsettled` holds the rows sent or given up whose mark is not stored yet, so that a look at the
    stored rows meanwhile does not take them for rows still to send."""

    FIELDS = ("sent_at", "attempts", "last_error", "given_up_at", "message_id")
    PAUSE = 5.0  # seconds between tries while the database refuses them
    GATHER = 0.05  # seconds a mark waits for others to be written with

    def __init__(self, writer: Writer, context: Callable[[], contextvars.Context]) -> None:
        self.writer = writer
        self.context = context
        self.pending: dict[int, OutboxRow] = {}
        self.unsettled: set[int] = set()
        self.task: asyncio.Task | None = None
        self.failing = False  # the database refuses writes: the marks wait and are tried again
        self.batches = 0  # batches begun
        self.stored: dict[int, asyncio.Future] = {}  # batch number -> done once it is stored
        # while the marks wait for company: done with what was submitted (None: they waited GATHER)
        self.company: asyncio.Future | None = None
        writer.joining.append(self._join)

    def add(self, row: OutboxRow) -> None:
        self.pending[row.id] = row
        if row.sent_at is not None or row.given_up_at is not None:
            self.unsettled.add(row.id)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._write(), context=self.context())

    def _batch(self, number: int) -> asyncio.Future:
        if number not in self.stored:
            self.stored[number] = asyncio.get_running_loop().create_future()
        return self.stored[number]

    def _submit(self) -> tuple[list[OutboxRow], asyncio.Future, int]:
        """The marks made so far, handed to the writer's next batch: the rows, the writer's future,
        the batch's number."""
        rows, self.pending = list(self.pending.values()), {}
        self.batches += 1
        self._batch(self.batches)
        job = Job()
        for row in rows:
            job.update(OutboxRow, {name: getattr(row, name) for name in self.FIELDS}, '"id"=?', [row.id])
        return rows, self.writer.submit(job), self.batches

    def _join(self) -> None:
        """The writer begins a batch (a handling's, mostly): the marks waiting for company go with it,
        one transaction fewer."""
        if self.company is not None and not self.company.done() and self.pending and not self.failing:
            self.company.set_result(self._submit())

    async def _write(self) -> None:
        # marks wait a moment for the others of that moment, or for the next batch the writer
        # begins: fewer, larger transactions, out of the way of the messages being stored
        loop = asyncio.get_running_loop()
        company = self.company = loop.create_future()
        timer = loop.call_later(self.GATHER, lambda: company.done() or company.set_result(None))
        try:
            submitted = await company
        finally:
            timer.cancel()
            self.company = None
        while submitted is not None or self.pending:
            rows, writing, number = submitted or self._submit()
            submitted = None
            done = self._batch(number)
            try:
                await writing
            except Exception as exc:
                # the database cannot be written (read-only, disk full): what was sent stays known
                # here, so nothing is sent twice; the marks are tried again
                if not self.failing:
                    log.error("cannot store delivery marks: %s", exc)
                self.failing = True
                for row in rows:
                    self.pending.setdefault(row.id, row)
                self.stored.pop(number, None)
                done.set_result(None)  # nobody waits on a database that refuses: they go on
                await asyncio.sleep(self.PAUSE)
                continue
            self.failing = False
            for row in rows:
                if row.id not in self.pending:
                    self.unsettled.discard(row.id)
            self.stored.pop(number, None)
            done.set_result(None)

    async def drain(self) -> None:
        """Wait until the marks made so far are stored, or found unstorable: the batch being
        written, or the next one if marks wait for it."""
        if self.failing or self.task is None or self.task.done():
            return
        await asyncio.shield(self._batch(self.batches + (1 if self.pending else 0)))


class Handed:
    """The ids of the actions handed to OneBot, a line each, written to a file before each call (a
    system call: the file survives the bot being killed). After a crash, an action not marked sent
    whose id is there may have gone out. The file is rewritten to what still matters at start-up and
    whenever it grows past `LIMIT` bytes."""

    LIMIT = 1 << 16

    def __init__(self) -> None:
        self.path: Path | None = None
        self.fd: int | None = None
        self.size = 0
        self.tried: set[int] = set()  # read at start-up: what the bot before this one handed to OneBot

    def open(self, path: Path) -> None:
        self.path = path
        try:
            self.tried = {int(line) for line in path.read_text(encoding="ascii").split() if line.isdigit()}
        except FileNotFoundError:
            self.tried = set()
        self.keep(self.tried)

    def keep(self, ids: Iterable[int]) -> None:
        """The file holds exactly `ids` from now on (replaced whole: a crash meanwhile leaves the
        old one or the new one)."""
        if self.path is None:
            return
        data = "".join(f"{i}\n" for i in sorted(ids)).encode("ascii")
        new = self.path.with_name(self.path.name + ".new")
        self.close()
        try:
            new.write_bytes(data)
            os.replace(new, self.path)
            self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            self._unwritable(exc)
        self.size = len(data)

    def note(self, row_id: int) -> None:
        if self.fd is not None:
            try:
                self.size += os.write(self.fd, b"%d\n" % row_id)
            except OSError as exc:
                self._unwritable(exc)

    def _unwritable(self, exc: OSError) -> None:
        # a full disk: sending goes on; after a crash, what it did not note is sent without a look
        log.error("cannot note what is handed to OneBot in %s: %s", self.path, exc)
        self.close()

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class Outbox:
    SLOW = 0.5  # seconds of a call (or of a look at the history) after which nobody waits for it

    def __init__(self, now: Callable[[], datetime], writer: Writer, sent: Sent | None = None, *, rate: float = 0.0,
                 timeout: float = 15.0, attempts: int = 5, retry: float = 30.0):
        self.now = now
        self.sent = sent  # told of each action once OneBot accepted it (a time limit may start then)
        self.given_up: GivenUp | None = None  # told of each action given up (the director is told)
        # whether an action in doubt reached its chat (None: unknown), given the id of the message
        # delivered before it in that chat
        self.confirm: Confirm | None = None
        self.last_ids: dict[str, str | None] = {}  # lane -> the id OneBot gave its last message delivered
        self.queued: Callable[[], list[OutboxRow]] = lambda: []  # what `sent` / `given_up` queued
        self.timeout = timeout
        self.attempts = attempts
        self.retry = retry
        self.limit = RateLimit(rate)  # the pace of a connection serving every account (tests)
        self.limits: dict[str, RateLimit] = {}  # account -> its own pace
        # account -> how to reach it, while connected; None: one connection for every account (tests)
        self.calls: dict[str | None, Call] = {}
        self.changed = asyncio.Event()  # set (and replaced) whenever an account connects
        # several processes on one database (service/leases.py): whether this one may send through an
        # account now, and which accounts' stored rows are its to send (None: every account's)
        self.may_send: Callable[[str | None], bool] = lambda account: True
        self.served: Callable[[], list[str] | None] = lambda: None
        self.lanes: dict[str, Lane] = {}
        self.entries: dict[int, Entry] = {}  # every row handed over and not yet sent or given up
        # where its own tasks run: a copy of the context the database was opened in (Service.open)
        self.context: Callable[[], contextvars.Context] = contextvars.Context
        self.marks = Marks(writer, lambda: self.context())
        self.handed = Handed()

    # --- connection ------------------------------------------------------------------------------
    def connect(self, call: Call, account: str | None = None) -> None:
        """`account` connected (None: one connection for every account): its lanes go on."""
        self.calls[account] = call
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    def disconnect(self, account: str | None = None) -> None:
        """`account`'s OneBot went away (None: every one): what is being sent through it is in doubt,
        and nobody waits for what it holds now."""
        if account is None:
            self.calls.clear()
        else:
            self.calls.pop(account, None)
        self.cut(account=account)
        for lane in self.lanes.values():
            if self.route(lane.account) is None:
                for entry in lane.entries:
                    if not entry.attempted.done():
                        entry.attempted.set_result(None)

    def route(self, account: str | None) -> tuple[str | None, Call] | None:
        """The connection an action of `account` goes through, and its name (None: not connected, or
        another process holds the account)."""
        if not self.may_send(account):
            return None
        if account in self.calls:
            return account, self.calls[account]
        if None in self.calls:
            return None, self.calls[None]
        if account is None and self.calls:  # no account of its own: the first connected
            first = next(iter(self.calls))
            return first, self.calls[first]
        return None

    def pace(self, via: str | None) -> RateLimit:
        """Each connection's own pace (its account's)."""
        if via is None:
            return self.limit
        if via not in self.limits:
            self.limits[via] = RateLimit(self.limit.rate)
        return self.limits[via]

    def cut(self, tasks: set[asyncio.Task] | None = None, account: str | None = None) -> None:
        """The calls the lanes `tasks` (None: every lane) wait for through `account` (None: any) will
        not be answered (their connection went): each is in doubt now. Where OneBot is connected
        again already, it is looked up and tried again at once."""
        for lane in self.lanes.values():
            if (lane.calling and lane.task is not None and not lane.cut and (tasks is None or lane.task in tasks)
                    and (account is None or lane.via == account)):
                lane.cut = True
                lane.task.cancel()

    # --- handing over ------------------------------------------------------------------------------
    def send(self, rows: Iterable[OutboxRow], urgent: Callable[[OutboxRow], bool] = lambda row: False,
             answers_only: bool = False) -> asyncio.Future:
        """Hand stored rows to their chats' lanes. The result is done once each was attempted, with
        whatever its delivery queued in turn (the director's 时限开始), or at once while OneBot is
        not connected. `answers_only`: at a pace, only the urgent rows are waited for (a handling's
        answer after its broadcast, the 开始's, must not wait for the broadcast to go out)."""
        waits = []
        for row in sorted(rows, key=lambda r: r.id):
            entry = self.entries.get(row.id)
            if entry is None:
                if row.sent_at is not None or row.given_up_at is not None or row.id in self.marks.unsettled:
                    continue
                entry = self.entries[row.id] = Entry(row, urgent(row), asyncio.get_running_loop().create_future())
                chat = lane_of(row)
                lane = self.lanes.get(chat)
                if lane is None:
                    lane = self.lanes[chat] = Lane(row.account)
                _in_order(lane, entry)
                if entry.urgent:
                    self._hasten(lane, entry)
                if lane.task is None or lane.task.done():
                    # not the caller's context: what a delivery queues belongs to no caller's handling
                    lane.task = asyncio.create_task(self._drive(chat, lane), context=self.context())
                    lane.task.add_done_callback(_failure_logged)
            lane = self.lanes[lane_of(entry.row)]
            if self.route(lane.account) is None:
                continue  # its account is not connected: it goes once it is back
            if lane.retry_at or lane.slow:
                if not entry.attempted.done():
                    entry.attempted.set_result(None)  # behind a failure or a slow call: not waited for
                continue
            if answers_only and not entry.urgent and self.limit.rate > 0:
                continue  # it goes at the pace; nobody waits for it
            if entry.attempted.done():  # attempted before: the caller waits for the next attempt
                entry.attempted = asyncio.get_running_loop().create_future()
            waits.append(entry.attempted)
        return _all(waits)

    def _hasten(self, lane: Lane, entry: Entry) -> None:
        """An answer to someone who just wrote: what waits ahead of it in his chat (his brief) must go
        first, so all of it goes before broadcasts too."""
        for ahead in lane.entries:
            if ahead is entry:
                break
            if not ahead.urgent:
                ahead.urgent = True
                for limit in (self.limit, *self.limits.values()):
                    limit.hasten(ahead)

    async def flush(self, call: Call | None = None, account: str | None = None) -> None:
        """Every stored action not yet sent, tried now (a failed one without waiting for its retry):
        when OneBot connects (`call`: how to reach `account`, None: every account) and every `retry`
        seconds. What is held here but no longer waits in the database (settled meanwhile) is
        dropped first, before the account's lanes go on."""
        newest = await OutboxRow.all().order_by("-id").first().values_list("id", flat=True) or 0
        rows = OutboxRow.filter(sent_at=None, given_up_at=None)
        served = self.served()
        rows = await (rows if served is None else rows.filter(account__in=served)).order_by("id")
        self._drop_settled({row.id for row in rows}, newest)
        if call is not None and (account is not None or None not in self.calls):
            self.connect(call, account)
        if self.handed.path is not None and self.handed.fd is None:  # it could not be written: again
            self._keep_handed()
        self.retry_now()
        await self.send(rows)
        await self.marks.drain()

    def _drop_settled(self, waiting: set[int], newest: int) -> None:
        for lane in self.lanes.values():
            keep: deque[Entry] = deque()
            for i, entry in enumerate(lane.entries):
                row_id = entry.row.id
                if row_id in waiting or row_id > newest or (i == 0 and lane.busy) or row_id in self.marks.pending:
                    keep.append(entry)
                else:
                    self.entries.pop(row_id, None)
                    if not entry.attempted.done():
                        entry.attempted.set_result(None)
            lane.entries = keep

    async def load(self) -> None:
        """At start-up: what waits to be sent takes its place in its chat's lane at once, before
        anything queued from now on, and goes out once OneBot connects. What the bot before this one
        handed to OneBot may have gone out: it is in doubt."""
        rows = await OutboxRow.filter(sent_at=None, given_up_at=None).order_by("id")
        self.send(rows)
        tried = [row.id for row in rows if row.id in self.handed.tried]
        for row_id in tried:
            self.entries[row_id].in_doubt = True
        self.handed.keep(tried)

    def _keep_handed(self) -> None:
        """The file of what was handed to OneBot, down to what may still be unrecorded (and what
        waits: it may be handed over any moment)."""
        self.handed.keep(set(self.entries) | set(self.marks.pending) | self.marks.unsettled)

    def retry_now(self) -> None:
        """Every chat waiting to retry a failed action tries it now, without anyone waiting for it
        (flush() waits, through send()). Only failures `retry` seconds apart count towards giving
        one up, so retrying early never gives up sooner."""
        for lane in self.lanes.values():
            if lane.retry_at:
                lane.retry_at = 0.0
                lane.wake.set()

    async def waiting(self) -> int:
        return await OutboxRow.filter(sent_at=None, given_up_at=None).count()

    def drop(self, account: str | None) -> None:
        """Drop what is held in memory for `account` (another process sends it now)."""
        for chat, lane in list(self.lanes.items()):
            if lane.account == account:
                if lane.task is not None:
                    lane.task.cancel()
                for entry in lane.entries:
                    self.entries.pop(entry.row.id, None)
                    if not entry.attempted.done():
                        entry.attempted.set_result(None)
                del self.lanes[chat]

    def forget(self) -> None:
        """Drop everything held in memory (a clean slate for tests; the rows stay stored)."""
        for lane in self.lanes.values():
            if lane.task is not None:
                lane.task.cancel()
        self.lanes.clear()
        self.entries.clear()
        self.last_ids.clear()
        self.marks.unsettled.clear()

    # --- the lanes --------------------------------------------------------------------------------
    async def _drive(self, chat: str, lane: Lane) -> None:
        while lane.entries:
            wait = lane.retry_at - time.monotonic()
            if wait > 0:
                lane.wake.clear()
                try:
                    await asyncio.wait_for(lane.wake.wait(), wait)
                except asyncio.TimeoutError:
                    pass
                continue
            if self.route(lane.account) is None:
                await self.changed.wait()  # its account is away: it holds its actions until it is back
                continue
            entry = lane.entries[0]
            lane.busy = True
            try:
                outcome = await self._attempt(entry, lane)
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # not a failure to send: whoever waits for it must see it
                if not entry.attempted.done():
                    entry.attempted.set_exception(exc)
                for waiting in lane.entries:
                    self.entries.pop(waiting.row.id, None)
                if self.lanes.get(chat) is lane:
                    del self.lanes[chat]
                raise
            finally:
                lane.busy = False
            if outcome in ("sent", "given up"):
                lane.entries.popleft()
                self.entries.pop(entry.row.id, None)
            elif outcome == "failed":  # ("cut" waits for nothing: OneBot is back, it is looked up now)
                lane.retry_at = time.monotonic() + self.retry
                for waiting in lane.entries:  # nobody waits for what now waits for the retry
                    if not waiting.attempted.done():
                        waiting.attempted.set_result(None)
            done = entry.attempted
            if not done.done():
                if entry.children:
                    _all(entry.children).add_done_callback(lambda _, done=done: done.done() or done.set_result(None))
                else:
                    done.set_result(None)
        if self.lanes.get(chat) is lane:
            del self.lanes[chat]

    async def _attempt(self, entry: Entry, lane: Lane) -> str:
        row = entry.row
        if entry.in_doubt or row.last_error == TRYING:
            with self._watched(lane):
                if await self._confirmed(row, lane_of(row)):
                    # tried before without an answer (or the bot stopped meanwhile), and it did arrive
                    return await self._delivered(entry)
        route = self.route(lane.account)
        if route is None:
            return "unreachable"
        await self.pace(route[0]).permit(0 if entry.urgent else 1, entry)
        route = self.route(lane.account)  # it may have gone while waiting
        if route is None:
            return "unreachable"
        lane.via, call = route
        row.attempts += 1
        row.last_error = TRYING
        self.handed.note(row.id)  # before OneBot is called: after a crash, it may have gone out
        if self.handed.size > Handed.LIMIT:
            self._keep_handed()
        lane.calling = True  # disconnect() cuts the call short: its answer will not come
        try:
            with self._watched(lane):
                async with asyncio.timeout(self.timeout):
                    answer = await call(row.action, dict(row.params))
        except TimeoutError:  # no answer in time: it may have gone out
            entry.in_doubt = True
            return await self._failed(entry, f"{self.timeout:g} 秒内没有回应", keep=TRYING)
        except asyncio.CancelledError:
            if not lane.cut:
                raise
            asyncio.current_task().uncancel()
            lane.cut = False
            entry.in_doubt = True  # the connection dropped while waiting for the answer
            outcome = await self._failed(entry, "连接中断", keep=TRYING)
            return "cut" if outcome == "failed" and self.route(lane.account) is not None else outcome
        except Unreachable:
            row.attempts -= 1
            row.last_error = ""
            self.marks.add(row)
            self.disconnect(lane.via)
            return "unreachable"
        except Refused as exc:
            entry.in_doubt = False
            return await self._failed(entry, str(exc))
        except Exception as exc:  # the connection failed under the call: it may have gone out
            entry.in_doubt = True
            return await self._failed(entry, f"{type(exc).__name__}: {exc}", keep=TRYING)
        finally:
            lane.calling = False
        ident = answer.get("message_id") if isinstance(answer, dict) else None
        row.message_id = None if ident is None else str(ident)
        return await self._delivered(entry)

    @contextlib.contextmanager
    def _watched(self, lane: Lane):
        """Around a call to OneBot for `lane`: once it has taken `SLOW` seconds, nobody waits for
        this lane any more (a handling's answer never waits for another chat's trouble)."""
        def slow() -> None:
            lane.slow = True
            for waiting in lane.entries:
                if not waiting.attempted.done():
                    waiting.attempted.set_result(None)

        timer = asyncio.get_running_loop().call_later(self.SLOW, slow)
        try:
            yield
        finally:
            timer.cancel()
            lane.slow = False

    async def _confirmed(self, row: OutboxRow, chat: str) -> bool:
        if self.confirm is None or self.route(row.account) is None:
            return False
        try:
            return bool(await asyncio.wait_for(self.confirm(row, await self._last_id(chat, row)), self.timeout))
        except Exception:  # the implementation offers no history, or it failed: send again
            return False

    async def _last_id(self, chat: str, row: OutboxRow) -> str | None:
        """The id of the message delivered in `chat` (a lane) before `row` (None: not known): known
        since this bot delivered it, or stored (after a restart)."""
        if chat in self.last_ids:
            return self.last_ids[chat]
        earlier = OutboxRow.filter(id__lt=row.id, action=row.action, account=row.account, sent_at__not_isnull=True)
        for before in await earlier.order_by("-id").limit(LOOK_FOR_LAST):
            if lane_of(before) == chat:
                return before.message_id
        return None

    async def _delivered(self, entry: Entry) -> str:
        row = entry.row
        self.last_ids[lane_of(row)] = row.message_id
        row.sent_at = self.now()
        row.last_error = ""
        entry.in_doubt = False
        self.marks.add(row)
        await self._after(self.sent, entry, "delivering")
        return "sent"

    async def _failed(self, entry: Entry, error: str, keep: str = "") -> str:
        row = entry.row
        row.last_error = keep or error[:500]
        now = time.monotonic()
        if not entry.strikes or now - entry.struck >= self.retry:
            entry.strikes += 1
            entry.struck = now
        if entry.strikes < self.attempts:
            self.marks.add(row)
            return "failed"
        row.given_up_at = self.now()
        row.last_error = error[:500]
        self.marks.add(row)
        log.warning("outbox row %s given up after %s failures: %s", row.id, entry.strikes, error)
        await self._after(self.given_up, entry, "giving up")
        return "given up"

    async def _after(self, hook: Sent | None, entry: Entry, what: str) -> None:
        """Tell `hook` what became of an action; what it queued in turn goes out as part of it."""
        if hook is None:
            return
        try:
            await hook(entry.row)
        except Exception:
            log.exception("%s outbox row %s", what, entry.row.id)
        more = self.queued()
        if more:
            entry.children.append(self.send(more))


def _in_order(lane: Lane, entry: Entry) -> None:
    """A chat's actions go in the order they were stored (one stored earlier may be handed over
    later: what waited through a restart), never before the one being attempted."""
    entries = lane.entries
    at = len(entries)
    while at > (1 if lane.busy else 0) and entries[at - 1].row.id > entry.row.id:
        at -= 1
    entries.insert(at, entry)


def _failure_logged(task: asyncio.Task) -> None:
    """A lane's task ended by an error that is not a failure to send (whoever waited saw it too)."""
    if not task.cancelled() and task.exception() is not None:
        log.error("delivery stopped by an unexpected error", exc_info=task.exception())


def _all(futures: list[asyncio.Future]) -> asyncio.Future:
    if not futures:
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done
    return asyncio.gather(*futures)
