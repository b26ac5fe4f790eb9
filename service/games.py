"""The game service: every command goes through here, is stored, and its consequences are queued.

A game is rebuilt from its roster, its seed, the rules it was started with and its stored commands;
a command is stored in the same transaction as the messages it causes, the time limits it starts and
the key of the event it came from, before anyone is answered. Then the messages are handed to the
outbox.

What a message needs is found without reading what piled up: the games not over are kept in memory
(`live`: whether someone directs one is asked of every private message), each game is rebuilt on its
own when it is first needed, and the database is asked only through indexes.

`Service` is written in parts by what they do: this module (loading, the one way a game changes, what
is sent and to whom), service/deadlines.py (time limits), service/building.py (a game set up before it
starts); how a handling is stored is service/storing.py, what is refused and why service/errors.py.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import weakref
from dataclasses import dataclass, field
from datetime import datetime
from typing import Awaitable, Callable

from tortoise.exceptions import BaseORMException
from tortoise.signals import post_save

from engine import CloseDay, Command, Game, ResolveNight
from engine.commands import to_dict
from engine.events import Announcement, DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from engine.snapshot import changes
from rulesets import get as get_ruleset

from . import groups, handling, history, rule_posts, texts
from .building import Building
from .config import Config
from .dbfile import FileWatch
from .deadlines import Deadlines
from .errors import DatabaseLost, GameBroken, ServedElsewhere, ServiceError
from .handling import Address
from .leases import Leases
from .models import CommandRow, GameDirectorRow, GameRow, OutboxRow, SeatRow, TeamRow
from .outbox import Outbox, chat_of
from .storing import Direct, Gathered, Sink, Transaction, inside_foreign_transaction, sends, unsaved
from .texts import clock, forum_safe
from .writer import Writer

log = logging.getLogger("banshabot.games")

# the fields of a game's row a command may change: it is written only when one did
ROW_FIELDS = ("status", "planned_close", "closed_at", "directors", "title")
REBUILD_SLICE = 200  # commands replayed between two looks at the event loop


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


def _written(row: GameRow) -> tuple:
    return tuple(repr(getattr(row, name)) for name in ROW_FIELDS)


class Scheduler:
    """Where time limits are handed to run later (apscheduler in the bot, a fake in tests)."""

    def at(self, job_id: str, when: datetime, job: Callable[[], Awaitable[None]]) -> None:
        raise NotImplementedError

    def cancel(self, job_id: str) -> None:
        raise NotImplementedError


class Service(Deadlines, Building):
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
        await rule_posts.load()  # before the games: some may play a post a director sent
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
        await rule_posts.find(row.ruleset)  # a post another process was sent since this one started
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
    def transaction(self) -> "Transaction":
        """One transaction of this service: it stores the key of the event being handled with the
        first change the handling makes, and hands what it queued to the outbox only once stored."""
        return Transaction()

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
                        sink = Gathered(self)
                        await self._store(t, cmd, source, outcome, before, reply, notes, sink)
                        await sink.store()
                    else:  # groups, the game's end, a new night's limits: through tortoise
                        async with self.transaction():
                            await self._store(t, cmd, source, outcome, before, reply, notes, Direct(self))
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
                     notes: list[tuple[Address, str]], sink: "Sink") -> None:
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

    async def tell_directors(self, t: Table, text: str, sink: "Sink | None" = None) -> None:
        for to in await self.addresses(t, "director"):
            if sink is None:
                await self.queue(to, text, t.row.id)
            else:
                await sink.message(to, text, t.row.id)

    async def queue(self, to: Address, text: str, game_id: int | None = None, account: str | None = None) -> OutboxRow:
        """A message to one player, director or group, sent as plain text (a long one in parts:
        returns the last), through `account` (by default: account_for)."""
        return await self._actions(sends(to, text, self.config), game_id, account or self.account_for(to, game_id))

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
        if Transaction.open() or inside_foreign_transaction():
            try:
                for action, params in actions:
                    row = await OutboxRow.create(game_id=game_id, action=action, params=params, account=account)
                    Transaction.queued(row, unit)
            except BaseORMException as exc:
                raise unsaved(exc) from exc
            return row
        sink = Gathered(self)
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
                            sink: "Sink | None" = None, sender: Address | None = None) -> None:
        """What a command's events cause, stored through `sink` (by default at once through
        tortoise: the caller holds a transaction). `sender`: where the command came from."""
        sink = sink or Direct(self)
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
