"""A game's time limits: when each is due (from now, from 关门, from the moment its message is delivered, at a
time of day), scheduled, restored after a restart, reminded, and passed as the rules say."""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from datetime import datetime, timedelta

from engine import Timeout
from engine.events import DeadlineStart

from . import texts
from .errors import ServedElsewhere
from .handling import Address
from .models import DeadlineRow, OutboxRow
from .storing import Sink
from .texts import clock

if TYPE_CHECKING:
    from .games import Table


class OpenLimit(NamedTuple):
    """An open time limit as texts show it (`texts.until`, `texts.limit_name`)."""

    id: int
    key: str
    what: str
    who: list[str]
    anchor: str
    minutes: int
    due_at: datetime | None


_OPEN_LIMITS = ('SELECT ' + ",".join(f'"{name}"' for name in OpenLimit._fields)
                + ' FROM "deadline" WHERE "game_id"=? AND +"done"=0 ORDER BY "id"')


class Deadlines:
    """The part of `Service` (service/games.py) that keeps the games' time limits."""

    def _minutes(self, n: int) -> timedelta:
        return timedelta(seconds=n * self.config.banshabot_minute_seconds)

    def _due(self, t: Table, anchor: str, minutes: int) -> datetime | None:
        if anchor in ("now", "opened"):  # "opened": started by the 开门 itself ("开门以后一个小时")
            return self.now() + self._minutes(minutes)
        if anchor == "close":
            base = t.row.closed_at if t.game.phase == "night" else t.row.planned_close
            return base + self._minutes(minutes) if base else None
        if anchor == "clock":  # a time of day in the forum's time zone ("夜晚十点前"): its next occurrence
            local = self.now().astimezone(texts.zone())
            at = local.replace(hour=minutes // 60, minute=minutes % 60, second=0, microsecond=0)
            return at if at > local else at + timedelta(days=1)
        return None  # "open": the engine ends it itself at the next 开门

    async def _start_deadline(self, t: Table, event: DeadlineStart, told: dict[Address, object], sink: "Sink",
                              started: list[str]) -> None:
        due = self._due(t, event.anchor, event.minutes)
        message = None
        if event.anchor == "now":
            # "收到反馈后半小时": it counts from the moment the player has the message that tells him of
            # it, the last one this command queued for him, which OneBot may deliver much later (with
            # none queued, from now)
            queued = [told[to] for to in (("private", t.seat_of(name).qq) for name in event.who) if to in told]
            message = max(queued, key=lambda m: m.id, default=None)
        row = await sink.deadline(dict(game_id=t.row.id, key=event.key, what=event.what, who=list(event.who),
                                       anchor=event.anchor, minutes=event.minutes, due_at=due), message)
        sink.then(self._started, row, message)
        if due and event.who and message is None:
            started.append(_limit_started(event.who, event.what, due))

    def _started(self, row: DeadlineRow, message: OutboxRow | None) -> None:
        """A time limit stored: the delivery it waits for is watched, and it is scheduled (one waiting
        for its message at the soonest it can pass; it cannot pass before the message is delivered,
        and the delivery starts it again: message_sent)."""
        if message is not None:
            self.waited.add(message.id)
        if row.due_at:
            self._schedule(row)

    async def _tell_started(self, t: Table, who, what: str, due: datetime) -> None:
        await self.tell_directors(t, "时限开始：" + _limit_started(who, what, due))

    async def message_sent(self, message: OutboxRow) -> None:
        """The outbox delivered `message`: a time limit counted from it starts now (called by the outbox)."""
        if message.id not in self.waited:  # most messages start nothing: no need to ask the database
            return
        self.waited.discard(message.id)
        for row in await DeadlineRow.filter(waits_for_id=message.id, done=False):
            await self._count_from_delivery(row, message.sent_at)

    async def _count_from_delivery(self, row: DeadlineRow, delivered: datetime) -> None:
        t = await self.table(row.game_id)
        async with t.lock:  # not while a command of the game ends it
            await row.refresh_from_db()
            if row.done or row.waits_for_id is None:
                return
            row.waits_for_id = None
            row.due_at = delivered + self._minutes(row.minutes)
            row.done = t.game.phase == "over"
            await row.save()
            self._unschedule(row)
            if row.done:
                return
            self._schedule(row)
            if row.who:
                await self._tell_started(t, row.who, row.what, row.due_at)

    async def _waiting(self, row: DeadlineRow) -> bool:
        """The limit still waits for the delivery of the message that tells its player about it."""
        return row.waits_for_id is not None and await OutboxRow.filter(id=row.waits_for_id, sent_at=None).exists()

    async def _fill_close_anchors(self, t: Table) -> None:
        """关门 happened: limits counted from it, started during the day, now get their time."""
        for row in await DeadlineRow.filter(game_id=t.row.id, done=False, anchor="close", due_at=None):
            if row.minutes < 0:
                # "关门前1小时公示…": with no closing time announced, that moment was never known
                row.done = True
                await row.save()
                await self.tell_directors(t, f"未设定关门时间，<{row.what}>未能按时进行，请导演处理")
                continue
            row.due_at = t.row.closed_at + self._minutes(row.minutes)
            await row.save()
            self._schedule(row)

    def _schedule(self, row: DeadlineRow, late: bool = False) -> None:
        """`late`: at start-up, a reminder whose time came while the bot was down goes out now, if the
        limit is still ahead (the last one due, saying how long is really left)."""
        self.scheduler.at(f"deadline:{row.id}", row.due_at, lambda: self.deadline_passed(row.id))
        if not row.who:
            return
        now = self.now()
        missed = []
        for before in self.config.banshabot_remind_before:
            when = row.due_at - self._minutes(before)
            if before in row.reminded:
                continue
            if when > now:
                self.scheduler.at(f"remind:{row.id}:{before}", when, lambda b=before: self.remind(row.id, b))
            else:
                missed.append(before)
        if late and missed and row.due_at > now and row.waits_for_id is None:
            last = min(missed)
            self.scheduler.at(f"remind:{row.id}:{last}", now, lambda: self.remind(row.id, last, missed))

    def _unschedule(self, row: DeadlineRow) -> None:
        self._unschedule_all([row.id])

    def _unschedule_all(self, row_ids: list[int]) -> None:
        for row_id in row_ids:
            self.scheduler.cancel(f"deadline:{row_id}")
            for before in self.config.banshabot_remind_before:
                self.scheduler.cancel(f"remind:{row_id}:{before}")

    async def restore_deadlines(self, games: list[int] | None = None) -> None:
        """At start-up (or when this process takes an account over: of its `games`): every open time
        limit is scheduled again; one that passed fires at once.

        One whose message was delivered just before the bot stopped, before the limit could start,
        counts from that delivery."""
        rows = DeadlineRow.filter(done=False).exclude(due_at=None).exclude(game_id__in=list(self.broken))
        for row in await (rows if games is None else rows.filter(game_id__in=games)):
            message = await OutboxRow.get_or_none(id=row.waits_for_id) if row.waits_for_id else None
            if message is not None and message.sent_at is not None:
                await self._count_from_delivery(row, message.sent_at)
            else:
                if message is not None:
                    self.waited.add(message.id)
                self._schedule(row, late=True)
        await self.delivered()

    async def deadline_passed(self, row_id: int) -> None:
        if self.lost:  # stored now, it would vanish at the next start: the limit waits for it
            return
        row = await DeadlineRow.get_or_none(id=row_id)
        if row is None or row.done or await self._waiting(row):  # the delivery will schedule it again
            return
        try:
            t = await self.table(row.game_id)
        except ServedElsewhere:  # the process that holds its account now runs it
            return
        if t.game.phase == "over":
            row.done = True
            await row.save()
            return
        notes = []
        if row.who:  # a player's limit (a publication's own message tells the director enough)
            notes = [(to, f"时限已到：{'、'.join(row.who)}<{row.what}>，按规则处理") for to in await self.addresses(t, "director")]
            notes += [(("private", t.seat_of(name).qq), f"<{row.what}>的时限已到，已按规则处理。") for name in row.who]
        await self.submit(t, Timeout(row.key), source="deadline", notes=notes)
        row.done = True
        await row.save()

    async def remind(self, row_id: int, before: int, missed: list[int] = ()) -> None:
        """Remind the players of a limit `before` minutes ahead (`missed`: the reminders a restart
        made late, all sent as this one)."""
        if self.lost:  # the database is no longer the one opened: nothing more is sent
            return
        row = await DeadlineRow.get_or_none(id=row_id)
        if row is None or row.done or before in row.reminded or await self._waiting(row):
            return
        left = (row.due_at - self.now()).total_seconds() / self._minutes(1).total_seconds()
        if left <= 0:
            return
        try:
            t = await self.table(row.game_id)
        except ServedElsewhere:
            return
        shown = before if left > before - 0.5 else max(1, round(left))
        async with self.transaction():
            row.reminded = [*row.reminded, *dict.fromkeys([before, *missed])]
            await row.save()
            for name in row.who:
                await self.queue(("private", t.seat_of(name).qq), f"提醒：<{row.what}>还有{shown}分钟截止（{clock(row.due_at)}）。", t.row.id)
        await self.delivered()

    async def open_deadlines(self, t: Table) -> list[OpenLimit]:
        """The game's open time limits (every 帮助 shows them): read from the SQLite file directly where
        the bot reads it so (`handling.Seen.read_from`), not through the database's thread, behind
        whatever it is writing; only what a text of them shows, not as models (a model costs several
        times the row)."""
        # "+": by the game's own index, not by the index of every game's open limits, which SQLite would
        # otherwise pick and which grows with the games running
        rows = self.seen.read(_OPEN_LIMITS, (t.row.id,))
        if rows is None:
            return [OpenLimit(**row) for row in
                    await DeadlineRow.filter(game_id=t.row.id, done=False).order_by("id").values(*OpenLimit._fields)]
        fields = DeadlineRow._meta.fields_map
        return [OpenLimit(**dict(row, who=fields["who"].to_python_value(row["who"]),
                                 due_at=fields["due_at"].to_python_value(row["due_at"]))) for row in rows]


def _limit_started(who, what: str, due: datetime) -> str:
    return f"{'、'.join(who)}<{what}>，截止 {clock(due)}"
