"""The game service: every command goes through here, is stored, and its consequences are queued.

A game is rebuilt from its roster, its seed, the rules it was started with and its stored commands;
a command is stored in the same transaction as the messages it causes, the time limits it starts and
the key of the event it came from, before anyone is answered. Then the messages are handed to the
outbox.

What a message needs is found without reading what piled up: the games not over are kept in memory
(`live`: whether someone directs one is asked of every private message), each game is rebuilt on its
own when it is first needed, and the database is asked only through indexes.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import secrets
import weakref
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Awaitable, Callable, NamedTuple

from tortoise.backends.base.client import TransactionalDBClient
from tortoise.exceptions import BaseORMException, IntegrityError
from tortoise.signals import post_save
from tortoise.transactions import _get_connection, in_transaction

from engine import CloseDay, Command, Game, ResolveNight, Timeout
from engine.commands import to_dict
from engine.events import Announcement, DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from engine.snapshot import changes, snapshot
from rulesets import RULESETS
from rulesets import get as get_ruleset

from . import groups, handling, history, texts
from .config import Config
from .dbfile import FileWatch
from .handling import Address
from .leases import Leases
from .models import CommandRow, DeadlineRow, GameDirectorRow, GameRow, OutboxRow, SeatRow, SeenMessage, TeamRow
from .outbox import Outbox, chat_of, split_text
from .texts import brief, clock, forum_safe
from .writer import Job, Ref, Writer

log = logging.getLogger("banshabot.games")

# the fields of a game's row a command may change: it is written only when one did
ROW_FIELDS = ("status", "planned_close", "closed_at", "directors", "title")
REBUILD_SLICE = 200  # commands replayed between two looks at the event loop


class ServiceError(ValueError):
    """A director's or player's request that cannot be done (Chinese, says what to send instead)."""


class GameBroken(ServiceError):
    """A game whose stored log no longer replays: every message for it is answered with why."""


class ServedElsewhere(GameBroken):
    """A game whose account another bot process holds (service/leases.py): it drives the game."""

    def __init__(self, row: GameRow) -> None:
        ServiceError.__init__(self, f"#{row.id} 由机器人账号 QQ {row.account} 负责：请私聊 QQ {row.account}。")


class CannotSave(ServiceError):
    """The database refuses to store anything (read-only, disk full): nothing was done."""

    def __init__(self) -> None:
        super().__init__("机器人暂时无法保存记录（数据库不可写入），你的消息没有执行，请稍后再发送一次。")


class DatabaseLost(CannotSave):
    """The database file is no longer the one the bot opened (service/dbfile.py): nothing is taken."""

    def __init__(self) -> None:
        ServiceError.__init__(self, "机器人的数据库文件出了问题，已停止接受指令：你的消息没有执行。导演已收到通知，请等他通知后再发送。")


@dataclass
class Table:
    """One game in memory: its stored row and seats, and the engine game rebuilt from its log."""

    row: GameRow
    seats: list[SeatRow]
    game: Game | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_seq: int = 0  # the stored log's next command number
    # each director's (QQ) last command stored, by its number in the log: a command of his is refused
    # when another's was taken after he sent it (Service._moved_on)
    directed: dict[str, int] = field(default_factory=dict)
    proposed: object | None = None  # a correction shown to the director and not yet confirmed (service/corrections.py)

    def seat_of(self, name: str) -> SeatRow:
        return next(s for s in self.seats if s.name == name)

    def seat_by_qq(self, qq: str) -> SeatRow | None:
        return next((s for s in self.seats if s.qq == qq), None)


class Repeated(Exception):
    """The event being handled was stored as handled already (by the bot before a restart)."""


_rows: ContextVar[list[OutboxRow] | None] = ContextVar("banshabot_transaction_rows", default=None)


class _Transaction:
    """A transaction of the service (Service.transaction)."""

    def __init__(self) -> None:
        self.rows: list[OutboxRow] = []
        self.key: str | None = None

    @staticmethod
    def open() -> bool:
        return _rows.get() is not None

    @staticmethod
    def queued(row: OutboxRow, unit: handling.Unit) -> None:
        """Where a row just stored waits: with its transaction, or handed over at once if stored
        already; one stored inside a transaction this service did not open is looked up first."""
        rows = _rows.get()
        if rows is not None:
            rows.append(row)
        elif _inside_foreign_transaction():
            unit.unsure.append(row)
        else:
            unit.rows.append(row)

    async def __aenter__(self) -> "_Transaction":
        self.outer = _rows.get()
        self.token = _rows.set(self.rows)
        self.context = in_transaction()
        try:
            await self.context.__aenter__()
            unit = handling.current()
            self.key = unit.store_key()
            if self.key:
                if unit.reused:
                    await SeenMessage.filter(key=self.key).delete()
                await SeenMessage.create(key=self.key, time=unit.time)
        except IntegrityError as exc:
            await self.context.__aexit__(type(exc), exc, exc.__traceback__)
            _rows.reset(self.token)
            raise Repeated(self.key) from exc
        except BaseException as exc:
            await self._failed(exc)
            raise _unsaved(exc) from exc
        return self

    async def __aexit__(self, kind, exc, tb) -> bool:
        _rows.reset(self.token)
        try:
            await self.context.__aexit__(kind, exc, tb)
        except BaseException as failure:
            self._lost()
            raise _unsaved(failure) from failure
        if kind is not None:
            self._lost()
            unsaved = _unsaved(exc)
            if unsaved is not exc:
                raise unsaved from exc
            return False
        if self.outer is not None:
            self.outer.extend(self.rows)  # stored once the outer transaction is
        else:
            handling.current().rows.extend(self.rows)
        return False

    async def _failed(self, exc: BaseException) -> None:
        try:
            await self.context.__aexit__(type(exc), exc, exc.__traceback__)
        except BaseException:
            pass
        _rows.reset(self.token)
        self._lost()

    def _lost(self) -> None:
        if self.key:  # nothing stored: the event's key waits for the next change
            handling.current().key = self.key


def _sends(to: Address, text: str, config: Config) -> list[tuple[str, dict]]:
    """The OneBot sends of a message to one chat: a long one in parts."""
    kind, target = to
    key = "user_id" if kind == "private" else "group_id"
    parts = split_text(text, config.banshabot_message_limit, config.banshabot_message_parts)
    return [(f"send_{kind}_msg", {key: int(target), "text": part}) for part in parts]


class _Direct:
    """Where a command's consequences are stored at once, through tortoise, inside the service's
    transaction: for what needs more than the writer does (groups, the game's end, a night's start)."""

    def __init__(self, service: "Service"):
        self.service = service

    async def command(self, game_id: int, seq: int, cmd: Command, source: str) -> None:
        await CommandRow.create(game_id=game_id, seq=seq, payload=to_dict(cmd), source=source, at=self.service.now())

    async def message(self, to: Address, text: str, game_id: int | None) -> OutboxRow:
        return await self.service.queue(to, text, game_id)

    async def deadline(self, values: dict, message: OutboxRow | None) -> DeadlineRow:
        return await DeadlineRow.create(**values, waits_for=message)

    async def end_deadlines(self, game_id: int, key: str) -> list[int]:
        rows = await DeadlineRow.filter(game_id=game_id, key=key, done=False)
        for row in rows:
            row.done = True
            await row.save()
        return [row.id for row in rows]

    @staticmethod
    def then(after: Callable, *made) -> None:
        after(*made)


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


@dataclass(eq=False)
class _Later:
    """A row the writer is to store: its statement in the job, and the values it will have. `id`
    orders it among the job's rows until it has its own."""

    id: int
    ref: Ref
    model: type
    values: dict


class _Gathered:
    """Where a handling's changes are gathered into one job for the writer (service/writer.py),
    with the key of the event being handled first; `store` writes it and then makes the rows."""

    def __init__(self, service: "Service"):
        self.service = service
        self.job = Job()
        self.rows: list[_Later] = []
        self.ended: list[int] = []
        self.afters: list[tuple[Callable, tuple]] = []
        self.made: dict[_Later, object] = {}
        self.unit = handling.current()
        self.key = self.unit.store_key()
        if self.key:
            if self.unit.reused:  # a former message's key: this one's takes its place
                self.job.add('DELETE FROM "seen_message" WHERE "key"=?', [self.key])
            self.job.insert(SeenMessage, {"key": self.key, "time": self.unit.time, "at": service.now()}, returns=False)

    def _row(self, model: type, values: dict) -> _Later:
        later = _Later(len(self.rows), self.job.insert(model, {k: getattr(v, "ref", v) for k, v in values.items()}),
                       model, values)
        self.rows.append(later)
        return later

    def action(self, action: str, params: dict, game_id: int | None, account: str | None) -> _Later:
        return self._row(OutboxRow, dict(game_id=game_id, action=action, params=params, created_at=self.service.now(),
                                         attempts=0, last_error="", account=account))

    async def command(self, game_id: int, seq: int, cmd: Command, source: str) -> None:
        self.job.insert(CommandRow, dict(game_id=game_id, seq=seq, payload=to_dict(cmd), source=source,
                                         at=self.service.now()), returns=False)

    async def message(self, to: Address, text: str, game_id: int | None) -> _Later:
        account = self.service.account_for(to, game_id)
        for action, params in _sends(to, text, self.service.config):
            last = self.action(action, params, game_id, account)
        return last

    async def deadline(self, values: dict, message: _Later | None) -> _Later:
        return self._row(DeadlineRow, dict(values, reminded=[], done=False, waits_for_id=message))

    async def end_deadlines(self, game_id: int, key: str) -> int:
        return self.job.update(DeadlineRow, {"done": True}, '"game_id"=? AND "key"=? AND "done"=?', [game_id, key, False],
                               returns=True)

    def then(self, after: Callable, *made) -> None:
        self.afters.append((after, made))

    async def store(self) -> None:
        try:
            ids = await self.service.writer.write(self.job)
        except IntegrityError as exc:
            if self.key:
                raise Repeated(self.key) from exc
            raise
        except BaseException as exc:
            if self.key:  # nothing was stored: the event's key waits for the next change
                self.unit.key = self.key
            raise _unsaved(exc) from exc
        for later in self.rows:
            values = {k: (self.made[v].id if isinstance(v, _Later) else v) for k, v in later.values.items()}
            self.made[later] = later.model.construct(_saved_in_db=True, id=ids[later.ref.index][0], **values)
        self.unit.rows.extend(row for row in self.made.values() if isinstance(row, OutboxRow))
        for after, made in self.afters:
            after(*(self.made[m] if isinstance(m, _Later) else ids[m] if isinstance(m, int) else m for m in made))


_Sink = _Direct | _Gathered


def _inside_foreign_transaction() -> bool:
    try:
        connection = _get_connection(None)
    except Exception:
        return False
    return isinstance(connection, TransactionalDBClient) and not connection._finalized


# how SQLite and PostgreSQL say they cannot store anything now (read-only, disk full, I/O)
REFUSING = ("readonly", "read-only", "read only", "disk", "full", "i/o", "no space", "locked", "unable to open")


def _unsaved(exc: BaseException) -> BaseException:
    """A database that refuses writes becomes CannotSave; anything else stays what it is."""
    if isinstance(exc, BaseORMException) and not isinstance(exc, IntegrityError):
        if any(word in str(exc).lower() for word in REFUSING):
            return CannotSave()
    return exc


def _written(row: GameRow) -> tuple:
    return tuple(repr(getattr(row, name)) for name in ROW_FIELDS)


class Scheduler:
    """Where time limits are handed to run later (apscheduler in the bot, a fake in tests)."""

    def at(self, job_id: str, when: datetime, job: Callable[[], Awaitable[None]]) -> None:
        raise NotImplementedError

    def cancel(self, job_id: str) -> None:
        raise NotImplementedError


class Service:
    def __init__(self, config: Config, scheduler: Scheduler, now: Callable[[], datetime], superusers: set[str]):
        self.config = config
        self.scheduler = scheduler
        self.now = now
        self.superusers = superusers
        texts.use_zone(config.banshabot_timezone)
        self.tables: dict[int, Table] = {}
        self.live: dict[int, GameRow] = {}  # every game not over, by number (read at start-up)
        self.broken: dict[int, str] = {}  # games whose log no longer replays, or whose rules changed: why
        self.rules_checked: dict[tuple, list[str]] = {}  # what the code plays differently, by rules kept
        self.loading: dict[int, asyncio.Future] = {}  # a game being rebuilt: one rebuild, many waiting
        self.waited: set[int] = set()  # outbox rows a time limit waits for ("收到反馈后半小时")
        # QQ -> the running games he plays in, newest first: asked of every player's message
        self.players: dict[str, list[int]] = {}
        self.after_commit: list[Callable[[], Awaitable[None]]] = []  # run after each handling's delivery
        self.accounts: Callable[[], list[str]] = lambda: []  # the QQ accounts connected (set by the plugin)
        # several processes on one database (service/leases.py): which accounts this one drives; None:
        # one process, it drives every account. `serving` takes an account's lease if it can.
        self.leases: Leases | None = None
        self.serving: Callable[[str], Awaitable[bool]] | None = None
        self.seen = handling.Seen()
        self.watch: FileWatch | None = None  # the SQLite file, watched by the plugin
        self.lost: str | None = None  # why the database is no longer the one opened: nothing is taken then
        self.context = contextvars.Context()  # replaced by open()
        self.writer = Writer(lambda: self.context.copy())
        self.outbox = Outbox(lambda: self.now(), self.writer, sent=self.message_sent, rate=config.banshabot_send_rate,
                             timeout=config.banshabot_send_timeout, attempts=config.banshabot_send_attempts,
                             retry=config.banshabot_retry_seconds)
        self.outbox.given_up = self.message_given_up
        self.outbox.queued = self._taken

    # --- start-up -------------------------------------------------------------------------------------
    async def open(self) -> None:
        """After the database is open: the games not over, the open time limits, what waits to be sent.

        The service's own tasks (delivery, rebuilding a game) run in copies of this moment's
        context: where the database was opened, in no transaction and no event's handling."""
        self.context = contextvars.copy_context()
        self.outbox.context = self.context.copy
        _serving.add(self)
        self.live = {row.id: row for row in await GameRow.filter(status__in=("roster", "running"))}
        for row in self.live.values():
            row._written = _written(row)
        self.players = {}
        for seat in await SeatRow.filter(game__status="running").only("qq", "game_id"):
            self._plays(seat.qq, seat.game_id)
        if self.leases is not None:  # an account's rows and time limits are its holder's, once it holds it
            return
        await self.outbox.load()
        # an upgrade that changed a running game's rules is told to its directors now, not when the
        # game is next needed
        for row in [row for row in self.live.values() if row.status == "running"]:
            if changed := self.rules_changed(row):
                await self._rules_gone(row, changed)
        await self.restore_deadlines()

    def adopt(self, row: GameRow) -> None:
        """A game not over, as stored now (another process drove it until this one took its account)."""
        row._written = _written(row)
        self.live[row.id] = row

    def forget(self) -> None:
        """Drop everything held in memory (a clean slate for tests; the database stays)."""
        self.tables.clear()
        self.live.clear()
        self.players.clear()
        self.broken.clear()
        self.rules_checked.clear()
        self.waited.clear()
        self.seen.forget()
        self.outbox.forget()

    # --- loading --------------------------------------------------------------------------------------
    async def table(self, game_id: int) -> Table:
        t = self.tables.get(game_id)
        if t is not None and self.leases is not None and not self.leases.holds(t.row.account):
            raise ServedElsewhere(t.row)
        if t is not None:
            return t
        if game_id in self.broken:
            raise GameBroken(self.broken[game_id])
        # each game is rebuilt on its own: a long log never holds up the other games; in a context of
        # its own, since what it may queue (a broken log reported) belongs to no caller's handling
        loading = self.loading.get(game_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_task(self._load(game_id), context=self.context.copy())
            self.loading[game_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
        return await asyncio.shield(loading)

    async def _load(self, game_id: int) -> Table:
        row = await GameRow.get_or_none(id=game_id)
        if row is None:
            raise ServiceError(f"没有编号为 {game_id} 的游戏")
        if self.leases is not None and row.status != "over" and not self.leases.holds(row.account):
            raise ServedElsewhere(row)
        t = await self._rebuild(row)
        row._written = _written(row)
        if row.status != "over":
            self.live[row.id] = row  # the same object the table changes
        self.tables[game_id] = t
        return t

    async def _rebuild(self, row: GameRow) -> Table:
        seats = await SeatRow.filter(game_id=row.id).order_by("seat")
        game = None
        seq, rows = 0, []
        if row.status != "roster":
            if changed := self.rules_changed(row):
                await self._rules_gone(row, changed)
                raise GameBroken(self.broken[row.id])
            game = new_game(row, seats)
            rows = await CommandRow.filter(game_id=row.id).order_by("seq")
            seq = rows[-1].seq + 1 if rows else 0
            # the log as corrections left it (service/history.py)
            for n, (cmd, command) in enumerate(history.effective(rows), 1):
                try:
                    outcome = game.apply(command)
                    error = None if outcome.ok else outcome.error
                except Exception as exc:  # a stored command the engine can no longer take
                    error = f"{type(exc).__name__}: {exc}"
                if error is not None:
                    await self._unrebuildable(row, cmd, command, error)
                if n % REBUILD_SLICE == 0:
                    await asyncio.sleep(0)  # a long log: let the other games' messages through
        directed = {r.source.removeprefix("director:"): r.seq for r in rows if r.source.startswith("director:")}
        return Table(row=row, seats=list(seats), game=game, next_seq=seq, directed=directed)

    async def _unrebuildable(self, row: GameRow, cmd: CommandRow, command: Command, error: str) -> None:
        """A game whose log no longer replays: its director is told which command fails; every
        message for it gets the same answer until it is mended. Every other game goes on."""
        shown = history.describe(to_dict(command))
        why = f"#{row.id} 的游戏记录无法恢复：第 {cmd.seq + 1} 条指令（{shown}，{clock(cmd.at)}，来自 {cmd.source}）不能再执行：{error}"
        await self._pause(row, "记录无法恢复", f"【故障】{why}。本局已暂停，请检查数据库备份或联系维护者；其他游戏照常进行。")
        raise GameBroken(self.broken[row.id])

    def rules_changed(self, row: GameRow) -> list[str]:
        """What the code now plays differently from the rules a started game keeps (empty: nothing).
        Games started alike share the answer: the code does not change while the bot runs."""
        rules = get_ruleset(row.ruleset)
        if rules is None:
            return [f"规则“{row.ruleset}”已不存在"]
        if row.rules is None:
            return ["本局没有保存开始时的规则"]
        key = (row.ruleset, row.rules["fingerprint"], json.dumps(row.rules["options"], sort_keys=True))
        if key not in self.rules_checked:
            self.rules_checked[key] = changes(row.rules, rules)
        return self.rules_checked[key]

    async def _rules_gone(self, row: GameRow, changed: list[str]) -> None:
        """A game the code can no longer play by the rules it started with: its directors are told what
        changed; it is not replayed by the new rules, and waits, paused, for the code it started with."""
        await self._pause(row, "规则与机器人当前版本不同", (
            f"【规则已改变】#{row.id}（{row.title}）开始时的规则，当前版本的机器人不能照样进行：{'；'.join(changed)}。"
            "本局已暂停，不会按新规则重放；请用开始本局时的机器人版本进行完本局（见 README 的 Upgrading 一节）。其他游戏照常进行。"))

    async def _pause(self, row: GameRow, trouble: str, report: str) -> None:
        """A game that cannot go on: every message for it gets the same answer, its directors `report`.
        Every other game goes on."""
        log.error(report)
        # the players hear only that it stopped: what stops it may be a secret night action
        self.broken[row.id] = f"本局游戏（#{row.id}）的{trouble}，已暂停并通知导演处理；请等导演通知后再发送。"
        self.live.pop(row.id, None)
        async with self.transaction():
            for qq in row.directors:
                await self.queue(("private", qq), report)
        await self.delivered()

    # --- who plays where --------------------------------------------------------------------------------
    async def playing(self, qq: str) -> list[tuple[Table, SeatRow]]:
        """The running games this QQ plays in, newest first, with his seat in each: known in memory;
        the database is asked only about someone not known to play (a stranger, mostly)."""
        found = []
        for game_id in list(self.players.get(qq, ())):
            t = await self.table(game_id)
            seat = t.seat_by_qq(qq)
            if t.row.status == "running" and seat is not None:
                found.append((t, seat))
            else:
                self._leaves(qq, game_id)
        if found:
            return found
        for seat in await SeatRow.filter(qq=qq, game__status="running").order_by("-game_id"):
            self._plays(qq, seat.game_id)
            t = await self.table(seat.game_id)
            found.append((t, t.seat_of(seat.name)))
        return found

    def _plays(self, qq: str, game_id: int) -> None:
        games = self.players.setdefault(qq, [])
        if game_id not in games:
            games.append(game_id)
            games.sort(reverse=True)

    def _leaves(self, qq: str, game_id: int) -> None:
        games = self.players.get(qq, [])
        if game_id in games:
            games.remove(game_id)
        if not games:
            self.players.pop(qq, None)

    def seat_saved(self, seat: SeatRow) -> None:
        """A seat was stored (a 替补 takes it over): the QQ now sitting there plays that game."""
        row = self.live.get(seat.game_id)
        if row is not None and row.status == "running":
            self._plays(seat.qq, seat.game_id)

    # --- storing ----------------------------------------------------------------------------------------
    def transaction(self) -> "_Transaction":
        """One transaction of this service: it stores the key of the event being handled with the
        first change the handling makes, and hands what it queued to the outbox only once stored."""
        return _Transaction()

    # --- the one way a game changes ------------------------------------------------------------------
    async def submit(self, t: Table, cmd: Command, source: str, reply: Address | None = None, seen: str | None = None,
                     notes: list[tuple[Address, str]] = ()) -> Outcome:
        """Apply a command; store it with its messages and time limits; then deliver.

        `notes`: messages that go out only if the command is accepted, before its consequences.
        `seen`: the key of the event it came from (claimed by its handler, or claimed here).
        """
        unit = handling.current()
        if seen and seen != unit.key and not await self.claim(seen):
            return Outcome(ok=False, error="重复的消息，已忽略")
        async with t.lock:
            if t.game is None:
                raise ServiceError("游戏还没有开始")
            before = t.game.state.phase
            moved = self._moved_on(t, source, unit)
            outcome = Outcome(ok=False, error=moved) if moved else t.game.apply(cmd)
            if outcome.ok and unit.against and unit.against[0] == t.row.id:
                self.sent_against(t)
            if outcome.ok and isinstance(cmd, CloseDay):
                t.row.closed_at = self.now()  # night limits count from this moment
            if outcome.ok or reply or unit.key:
                try:
                    if self._simple(t, outcome, before):
                        # most commands: stored with whatever else is stored at this moment
                        sink = _Gathered(self)
                        await self._store(t, cmd, source, outcome, before, reply, notes, sink)
                        await sink.store()
                    else:  # groups, the game's end, a new night's limits: through tortoise
                        async with self.transaction():
                            await self._store(t, cmd, source, outcome, before, reply, notes, _Direct(self))
                except BaseException:
                    if outcome.ok:
                        self.tables.pop(t.row.id, None)  # the game object moved but nothing was stored: rebuild
                    raise
                if outcome.ok:
                    if source.startswith("director:"):
                        t.directed[source.removeprefix("director:")] = t.next_seq
                    t.next_seq += 1
        await self.delivered()
        if outcome.ok and t.game.night_complete():
            # every action of the night is in: settle it now so the director has the draft at once
            await self.submit(t, ResolveNight(), source="auto")
        return outcome

    @staticmethod
    def sent_against(t: Table) -> None:
        """A director's command is about to be read: the game as he sees it (its phase, and how long
        its log is), where it now stands."""
        s = t.game.state
        handling.current().against = (t.row.id, (s.phase, s.night_no, s.day_no), texts.phase_name(t.game), t.next_seq)

    @staticmethod
    def _moved_on(t: Table, source: str, unit: handling.Unit) -> str | None:
        """Why a director's command no longer applies to the game he sent it against: a command taken
        first moved it to another phase (two co-directors' 开门 at once: the second would skip a whole
        day), or another director's command was taken after he sent his (both give 5号 a yellow card:
        the second would make it red). Players' acts and his own earlier commands meanwhile do not
        count: he sent his knowing the game takes them."""
        if not source.startswith("director:") or unit.against is None or unit.against[0] != t.row.id:
            return None
        game_id, phase, name, seq = unit.against
        s = t.game.state
        if phase != (s.phase, s.night_no, s.day_no):
            return (f"你发出这条指令时是{name}，现在已是{texts.phase_name(t.game)}（另一条指令先执行了）。"
                    "请确认现在的情况后再发送。")
        me = source.removeprefix("director:")
        others = sorted(qq for qq, last in t.directed.items() if qq != me and last >= seq)
        if others:
            return (f"你发出这条指令后，导演（QQ {'、'.join(others)}）的指令先执行了，游戏已经变化。"
                    "请发送“状态”确认现在的情况后再发送。")
        return None

    @staticmethod
    def _simple(t: Table, outcome: Outcome, before: str) -> bool:
        """Whether what a command causes is only messages and time limits: what the writer stores."""
        return (not any(isinstance(e, (TeamChange, GameOver)) for e in outcome.events)
                and not (t.game.phase == "night" and before != "night")
                and getattr(t.row, "_written", None) == _written(t.row))

    async def _store(self, t: Table, cmd: Command, source: str, outcome: Outcome, before: str, reply: Address | None,
                     notes: list[tuple[Address, str]], sink: "_Sink") -> None:
        if outcome.ok:
            await sink.command(t.row.id, t.next_seq, cmd, source)
            told: dict[Address, object] = {}  # the last message to each address
            for to, text in notes:
                told[to] = await sink.message(to, text, t.row.id)
            await self._consequences(t, outcome, before, told, sink, sender=reply)
        elif reply:
            await sink.message(reply, f"未执行：{outcome.error}", t.row.id)

    # --- events handled once -------------------------------------------------------------------------
    async def handling(self, key: str, origin: Address | None = None, time: int | None = None,
                       account: str | None = None) -> bool:
        """Begin handling the OneBot event `key` from chat `origin`, at OneBot's `time`, come to the QQ
        `account`: False if it was handled already or is being handled (a repeat: do nothing)."""
        handling.begin(None, origin, account=account)
        if self.lost:
            raise DatabaseLost()
        if self.serving is not None and account is not None and not await self.serving(account):
            return False  # another process holds the account: it handles the event
        verdict = await self.seen.verdict(key, time)
        if verdict == "repeat":
            return False
        handling.begin(key, origin, time=time, reused=verdict == "reused", account=account)
        return True

    async def claim(self, key: str) -> bool:
        unit = handling.current()
        verdict = await self.seen.verdict(key, unit.time)
        if verdict == "repeat":
            return False
        unit.key, unit.reused = key, verdict == "reused"
        return True

    async def seen_before(self, key: str) -> bool:
        """For messages that change no game: whether it was handled already. The key is stored with
        whatever the handling queues next."""
        unit = handling.current()
        if key == unit.key:
            return False  # claimed by this very handling
        return not await self.claim(key)

    # --- what is sent ---------------------------------------------------------------------------------
    async def tell_superusers(self, text: str) -> None:
        """The configured directors (SUPERUSERS), about the bot itself; sent once OneBot is there."""
        for qq in sorted(self.superusers):
            await self.queue(("private", qq), text)
        await self.delivered()

    async def tell_directors(self, t: Table, text: str, sink: "_Sink | None" = None) -> None:
        for to in await self.addresses(t, "director"):
            if sink is None:
                await self.queue(to, text, t.row.id)
            else:
                await sink.message(to, text, t.row.id)

    async def queue(self, to: Address, text: str, game_id: int | None = None, account: str | None = None) -> OutboxRow:
        """A message to one player, director or group, sent as plain text (a long one in parts:
        returns the last), through `account` (by default: account_for)."""
        return await self._actions(_sends(to, text, self.config), game_id, account or self.account_for(to, game_id))

    async def act(self, action: str, params: dict, game_id: int | None = None) -> OutboxRow:
        """Any other OneBot action (rename a group, remove a member...), queued like a message."""
        return await self._actions([(action, params)], game_id, self.account_for(None, game_id))

    def account_for(self, to: Address | None, game_id: int | None) -> str | None:
        """The QQ account a message to `to` (None: another action) goes through: an answer to whoever
        wrote, or what answers an event (a request), through the account he wrote to; anything else
        of a game through the game's account (None: whichever is connected)."""
        unit = handling.current()
        if unit.account and (game_id is None or to == unit.origin):
            return unit.account
        row = self.live.get(game_id) if game_id is not None else None
        if row is None and game_id in self.tables:
            row = self.tables[game_id].row
        account = getattr(row, "account", None) or unit.account
        if account is None and self.leases is not None:  # several processes: every row is an account's
            account = next(iter(self.leases.held()), None)
        return account

    async def _actions(self, actions: list[tuple[str, dict]], game_id: int | None, account: str | None) -> OutboxRow:
        """Store OneBot actions: inside the service's transaction through tortoise; else together (all
        a message's parts or none), with the key of the event being handled, through the writer."""
        unit = handling.current()
        if _Transaction.open() or _inside_foreign_transaction():
            try:
                for action, params in actions:
                    row = await OutboxRow.create(game_id=game_id, action=action, params=params, account=account)
                    _Transaction.queued(row, unit)
            except BaseORMException as exc:
                raise _unsaved(exc) from exc
            return row
        sink = _Gathered(self)
        last = None
        for action, params in actions:
            last = sink.action(action, params, game_id, account)
        try:
            await sink.store()
        except BaseException:
            raise
        return sink.made[last]

    async def delivered(self) -> None:
        """Hand what this handling queued to the outbox and wait until each was tried, but not for
        another chat's trouble (service/outbox.py); a chat still waiting on a failed message is
        tried again as well, without waiting for it."""
        unit = handling.current()
        rows, unit.rows = unit.rows, []
        if rows and self.watch is not None:
            self.watch.stored(max(row.id for row in rows))
        if unit.unsure:
            # queued inside a transaction that may have been undone (and its ids given again since):
            # what is stored as it was queued is sent
            unsure, unit.unsure = unit.unsure, []
            stored = {r.id: r for r in await OutboxRow.filter(id__in=[r.id for r in unsure])}
            rows += [r for r in unsure if r.id in stored and (stored[r.id].action, stored[r.id].params) == (r.action, r.params)]
        answer = f"{unit.origin[0]}:{unit.origin[1]}" if unit.origin else None  # the chat being answered
        self.outbox.retry_now()  # first: what this handling queued in such a chat goes after it, and is waited for
        done = self.outbox.send(rows, urgent=lambda row: chat_of(row.action, row.params) == answer, answers_only=True)
        await done
        await self.outbox.marks.drain()
        for hook in self.after_commit:
            await hook()

    def _taken(self) -> list[OutboxRow]:
        """What was queued in this context and not handed over yet (for the outbox, after a
        delivery's consequences)."""
        unit = handling.current()
        rows, unit.rows = unit.rows, []
        return rows

    async def message_given_up(self, message: OutboxRow) -> None:
        """The outbox gave up a message OneBot kept refusing: the game's directors are told what it
        said, so that they can pass it on (called by the outbox)."""
        row = self.live.get(message.game_id) if message.game_id else None
        if row is None and message.game_id:
            row = await GameRow.get_or_none(id=message.game_id)
        to = message.params.get("user_id") or message.params.get("group_id")
        where = f"QQ {to}" if "user_id" in message.params else f"群 {to}"
        text = message.params.get("text")
        what = f"消息：\n{text}" if text is not None else f"操作 {message.action}"
        note = f"【未能送达】发给 {where} 的{what}\n（OneBot 拒绝了 {message.attempts} 次，已放弃：{message.last_error}）"
        for qq in (row.directors if row else []):
            if not ("user_id" in message.params and str(to) == qq):  # nobody is told of his own failures
                await self.queue(("private", qq), note, message.game_id)

    # --- where each event goes -----------------------------------------------------------------------
    async def addresses(self, t: Table, audience: str) -> list[Address]:
        kind, _, name = audience.partition(":")
        if kind == "player":
            return [("private", t.seat_of(name).qq)]
        if kind == "team":
            row = await TeamRow.get_or_none(game_id=t.row.id, team=name)
            if row and row.group_id and (t.row.status != "over" or await groups.holds(t, row)):
                return [("group", row.group_id)]
            # no group free for this team (or, the game over, given back): relay to each member privately
            return [("private", t.seat_of(n).qq) for n in t.game.state.teams.get(name, [])]
        return [("private", qq) for qq in t.row.directors]

    async def _consequences(self, t: Table, outcome: Outcome, phase_before: str, told: dict[Address, object],
                            sink: "_Sink | None" = None, sender: Address | None = None) -> None:
        """What a command's events cause, stored through `sink` (by default at once through
        tortoise: the caller holds a transaction). `sender`: where the command came from."""
        sink = sink or _Direct(self)
        morning = any(isinstance(e, Announcement) for e in outcome.events)
        post: list[str] = []  # the 开门 post, gathered into one message the director pastes as it is
        started: list[str] = []  # the time limits begun, told the directors in one message
        over = False  # the game ended: its log (树洞) goes last, after the count and the result it follows
        for event in outcome.events:
            if isinstance(event, Notice) and event.audience == "public":
                if morning:
                    post.append(event.text)
                else:
                    await self.tell_directors(t, "【可公示】" + forum_safe(event.text), sink)
            elif isinstance(event, (Notice, Feedback)):
                addresses = await self.addresses(t, event.audience)
                for to in addresses:
                    told[to] = await sink.message(to, event.text, t.row.id)
                if sender and sender[0] == "private" and event.audience.startswith("team:") and sender not in addresses:
                    # a team's choice sent privately is receipted in its group, which the sender may not have
                    # joined yet: he gets the receipt where he sent the choice too
                    told[sender] = await sink.message(sender, event.text, t.row.id)
            elif isinstance(event, DeadlineStart):
                await self._start_deadline(t, event, told, sink, started)
            elif isinstance(event, DeadlineEnd):
                sink.then(self._unschedule_all, await sink.end_deadlines(t.row.id, event.key))
            elif isinstance(event, TeamChange):
                await self.team_changed(t, event.team, list(event.members))
            elif isinstance(event, GameOver):
                over = True
        if started:
            await self.tell_directors(t, "时限开始：" + (started[0] if len(started) == 1 else "\n" + "\n".join(started)), sink)
        if post:
            if t.game.phase == "day" and t.row.planned_close and t.row.planned_close > self.now():
                # "投票帖与讨论日一同开门，一同关门": the thread is told when today's discussion and vote end
                post.append(f"本日关门时间\n{clock(t.row.planned_close)}")
            if window := t.game.rules.speech_window(t.game):  # 146's 英语考试: "自讨论日开门时至开门后6小时"
                what, minutes = window
                post.append(f"{what}时段\n{clock(self.now())} 至 {clock(self.now() + self._minutes(minutes))}")
            await self.tell_directors(t, "【开门公告，可直接粘贴到论坛】\n" + discuz_post(post), sink)
        for warning in outcome.warnings:
            await self.tell_directors(t, f"注意：{warning}", sink)
        if over:
            await self._game_over(t)
        if t.game.phase == "night" and phase_before != "night":
            await self._fill_close_anchors(t)
        await self.save_row(t.row)

    @staticmethod
    async def save_row(row: GameRow) -> None:
        """Write a game's row if a command changed it (most change none of its fields)."""
        if getattr(row, "_written", None) != _written(row):
            await row.save()

    # --- time limits ---------------------------------------------------------------------------------
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

    async def _start_deadline(self, t: Table, event: DeadlineStart, told: dict[Address, object], sink: "_Sink",
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

    # --- team groups -----------------------------------------------------------------------------------
    async def team_changed(self, t: Table, team: str, members: list[str]) -> None:
        await groups.assign_team(self, t, team, members)

    def revived(self, t: Table) -> None:
        """A correction brought a finished game back (its row already says so): it is among the games
        not over again, and its players play in it."""
        self.live[t.row.id] = t.row
        for seat in t.seats:
            self._plays(seat.qq, t.row.id)

    async def _game_over(self, t: Table) -> None:
        t.row.status = "over"
        self.live.pop(t.row.id, None)
        for seat in t.seats:
            self._leaves(seat.qq, t.row.id)
        for part in await history.treehole(t):  # the whole log, ready to post
            await self.tell_directors(t, part)
        await groups.release(self, t)

    # --- building a game ---------------------------------------------------------------------------------
    async def create(self, director: str, ruleset_id: str, title: str) -> GameRow:
        rules = get_ruleset(ruleset_id)
        if rules is None:
            raise ServiceError(f"没有规则“{ruleset_id}”。可用：{'、'.join(RULESETS)}")
        async with self.transaction():
            row = await GameRow.create(ruleset=rules.id, title=title or rules.title, seed=secrets.randbits(31),
                                       salt=secrets.token_hex(16),
                                       directors=[director], account=handling.current().account)
        self.live[row.id] = row
        return row

    async def set_roster(self, t: Table, lines: list[tuple[str, str]]) -> None:
        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster":
            raise ServiceError("游戏已经开始，不能再改名单；换人请用“替补”")
        if len(lines) != rules.size:
            raise ServiceError(f"{rules.id} 需要 {rules.size} 名玩家，名单里有 {len(lines)} 名")
        names = [n for n, _ in lines]
        qqs = [q for _, q in lines]
        for name, qq in lines:
            if name.isdigit():
                raise ServiceError(f"角色名“{name}”不能是纯数字（数字表示座位号）")
            if not qq.isdigit():
                raise ServiceError(f"“{name}”后面的QQ号“{qq}”不是数字")
        for values, word in ((names, "角色名"), (qqs, "QQ号")):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ServiceError(f"{word}重复：{'、'.join(twice)}")
        async with self.transaction():
            await SeatRow.filter(game_id=t.row.id).delete()
            t.seats = [await SeatRow.create(game_id=t.row.id, seat=i, name=n, qq=q) for i, (n, q) in enumerate(lines, 1)]

    async def assign(self, t: Table, fixed: list[tuple[str, str]] | None) -> None:
        from engine import LineupError, check, deal

        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster" or not t.seats:
            raise ServiceError("请先发送名单；游戏开始后不能再分配身份")
        names = [s.name for s in t.seats]
        try:
            if fixed is None:
                players = deal(rules, names, t.row.seed)
            else:
                given = dict(fixed)
                unknown = sorted(set(given) - set(names))
                if unknown or len(given) != len(names):
                    raise ServiceError("固定分配须为名单里每个角色各写一行“角色名 身份”" + (f"；不在名单里：{'、'.join(unknown)}" if unknown else ""))
                players = [(n, given[n]) for n in names]
                check(rules, players)
        except LineupError as exc:
            raise ServiceError(str(exc)) from exc
        # stored first, all together, then in memory: a failure half-way leaves both as they were
        async with self.transaction():
            for seat, (_, role) in zip(t.seats, players):
                await SeatRow.filter(id=seat.id).update(role=role)
        for seat, (_, role) in zip(t.seats, players):
            seat.role = role

    async def start(self, t: Table, notes: list[tuple[Address, str]] = ()) -> None:
        """`notes`: messages stored with the start, after the briefs (the director's reply)."""
        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster":
            raise ServiceError("游戏已经开始")
        if not t.seats or any(s.role is None for s in t.seats):
            raise ServiceError("请先分配身份（“分配 随机”或“分配 固定”）")
        players = [(s.name, s.role) for s in t.seats]
        t.game = Game(rules, players, seed=t.row.seed)
        async with self.transaction():
            t.row.rules = snapshot(rules, t.game.state.options)  # what it is replayed by, whatever the code becomes
            t.row.status = "running"
            t.row.salt = t.row.salt or secrets.token_hex(16)  # a game created before deals were hashed
            await t.row.save()
            for seat in t.seats:
                self._plays(seat.qq, t.row.id)
            for seat in t.seats:
                await self.queue(("private", seat.qq), brief(rules, t.game, seat.name), t.row.id)
            await self.tell_directors(t, history.deal_promise(t))
            # where a start choice can still reshape the teams (146's lovers), the groups wait for the
            # ruleset's TeamChange at the first phase, so nobody is shown a team he is about to leave
            if rules.teams_known_when_dealt:
                for team, members in t.game.state.teams.items():
                    await groups.assign_team(self, t, team, members)
            for to, text in notes:
                await self.queue(to, text, t.row.id)
        await self.delivered()


def new_game(row: GameRow, seats: list[SeatRow]) -> Game:
    """A started game before its first command, with the options it started with (146's events in play)."""
    return Game(get_ruleset(row.ruleset), [(s.name, s.role) for s in seats], seed=row.seed, options=row.rules["options"])


_serving: "weakref.WeakSet[Service]" = weakref.WeakSet()  # the services opened (one in the bot)


@post_save(SeatRow)
async def _seat_in_step(sender, instance: SeatRow, created: bool, using_db, update_fields) -> None:
    for service in _serving:
        service.seat_saved(instance)


@post_save(GameRow)
async def _directors_in_step(sender, instance: GameRow, created: bool, using_db, update_fields) -> None:
    """A game's directors are kept in GameDirectorRow as well, whoever saves its row (a 协助 adds one)."""
    instance._written = _written(instance)
    wanted = [str(qq) for qq in dict.fromkeys(instance.directors)]
    if getattr(instance, "_directors_stored", None) == wanted:
        return
    have = set() if created else set(
        await GameDirectorRow.filter(game_id=instance.id).using_db(using_db).values_list("qq", flat=True))
    for qq in wanted:
        if qq not in have:
            await GameDirectorRow.create(game_id=instance.id, qq=qq, using_db=using_db)
    gone = have - set(wanted)
    if gone:
        await GameDirectorRow.filter(game_id=instance.id, qq__in=gone).using_db(using_db).delete()
    instance._directors_stored = wanted


def discuz_post(parts: list[str]) -> str:
    """Each part's first line in bold, parts a blank line apart: ready for the forum's editor. What
    the parts carry (names, last words) never acts as Discuz! code: only the bold is ours."""
    out = []
    for part in parts:
        head, _, rest = forum_safe(part).partition("\n")
        out.append(f"[b]{head}[/b]" + (f"\n{rest}" if rest else ""))
    return "\n\n".join(out)


def _limit_started(who, what: str, due: datetime) -> str:
    return f"{'、'.join(who)}<{what}>，截止 {clock(due)}"
