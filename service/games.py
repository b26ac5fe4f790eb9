"""The game service: every command goes through here, is stored, and its consequences are queued.

A game is rebuilt from its roster, its seed and its stored commands; a command is stored in the same
transaction as the messages it causes and the time limits it starts, before anyone is answered.
"""
from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Awaitable, Callable

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from engine import CloseDay, Command, Game, ResolveNight, Timeout
from engine.commands import to_dict
from engine.events import Announcement, DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from rulesets import RULESETS
from rulesets import get as get_ruleset

from . import groups, history, texts
from .config import Config
from .models import CommandRow, DeadlineRow, GameRow, OutboxRow, SeatRow, SeenMessage, TeamRow
from .texts import brief, clock, forum_safe

Address = tuple[str, str]  # ("private", qq) | ("group", group id)


class ServiceError(ValueError):
    """A director's or player's request that cannot be done (Chinese, says what to send instead)."""


@dataclass
class Table:
    """One game in memory: its stored row and seats, and the engine game rebuilt from its log."""

    row: GameRow
    seats: list[SeatRow]
    game: Game | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    proposed: object | None = None  # a correction shown to the director and not yet confirmed (service/corrections.py)

    def seat_of(self, name: str) -> SeatRow:
        return next(s for s in self.seats if s.name == name)

    def seat_by_qq(self, qq: str) -> SeatRow | None:
        return next((s for s in self.seats if s.qq == qq), None)


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
        # two callers rebuilding one game at once would each get a copy, and one copy's commands would
        # be applied to a game the other never sees
        self.loading = asyncio.Lock()
        self.after_commit: list[Callable[[], Awaitable[None]]] = []  # delivery hooks

    # --- loading ------------------------------------------------------------------------------------
    async def table(self, game_id: int) -> Table:
        async with self.loading:
            if game_id not in self.tables:
                row = await GameRow.get_or_none(id=game_id)
                if row is None:
                    raise ServiceError(f"没有编号为 {game_id} 的游戏")
                self.tables[game_id] = await self._rebuild(row)
            return self.tables[game_id]

    async def _rebuild(self, row: GameRow) -> Table:
        seats = await SeatRow.filter(game_id=row.id).order_by("seat")
        game = None
        if row.status != "roster":
            game = Game(get_ruleset(row.ruleset), [(s.name, s.role) for s in seats], seed=row.seed)
            for cmd, command in history.effective(await CommandRow.filter(game_id=row.id).order_by("seq")):
                outcome = game.apply(command)
                if not outcome.ok:
                    raise RuntimeError(f"game {row.id}: stored command {cmd.seq} no longer applies: {outcome.error}")
        return Table(row=row, seats=list(seats), game=game)

    # --- the one way a game changes ------------------------------------------------------------------
    async def submit(self, t: Table, cmd: Command, source: str, reply: Address | None = None, seen: str | None = None,
                     notes: list[tuple[Address, str]] = ()) -> Outcome:
        """Apply a command; store it with its messages and time limits; then deliver.

        `notes`: messages that go out only if the command is accepted, before its consequences.
        """
        async with t.lock:
            if t.game is None:
                raise ServiceError("游戏还没有开始")
            if seen and await SeenMessage.exists(key=seen):
                return Outcome(ok=False, error="重复的消息，已忽略")
            before = t.game.state.phase
            outcome = t.game.apply(cmd)
            if outcome.ok and isinstance(cmd, CloseDay):
                t.row.closed_at = self.now()  # night limits count from this moment
            try:
                async with in_transaction():
                    if seen:
                        await SeenMessage.create(key=seen)
                    if outcome.ok:
                        seq = await CommandRow.filter(game_id=t.row.id).count()
                        await CommandRow.create(game_id=t.row.id, seq=seq, payload=to_dict(cmd), source=source, at=self.now())
                        told: dict[Address, OutboxRow] = {}  # the last message to each address
                        for to, text in notes:
                            told[to] = await self.queue(to, text, t.row.id)
                        await self._consequences(t, outcome, before, told)
                    elif reply:
                        await self.queue(reply, f"未执行：{outcome.error}", t.row.id)
            except Exception:
                self.tables.pop(t.row.id, None)  # the game object moved but nothing was stored: rebuild
                raise
        await self.delivered()
        if outcome.ok and t.game.night_complete():
            # every action of the night is in: settle it now so the director has the draft at once
            await self.submit(t, ResolveNight(), source="auto")
        return outcome

    async def already_seen(self, key: str) -> bool:
        return await SeenMessage.exists(key=key)

    async def seen_before(self, key: str) -> bool:
        """For messages that change no game: remember them so a repeat is ignored."""
        try:
            await SeenMessage.create(key=key)
        except IntegrityError:
            return True
        return False

    async def tell_directors(self, t: Table, text: str) -> None:
        for to in await self.addresses(t, "director"):
            await self.queue(to, text, t.row.id)

    async def queue(self, to: Address, text: str, game_id: int | None = None) -> OutboxRow:
        """A message to one player, director or group, sent as plain text."""
        kind, target = to
        key = "user_id" if kind == "private" else "group_id"
        return await self.act(f"send_{kind}_msg", {key: int(target), "text": text}, game_id)

    async def act(self, action: str, params: dict, game_id: int | None = None) -> OutboxRow:
        """Any other OneBot action (rename a group, remove a member...), queued like a message."""
        return await OutboxRow.create(game_id=game_id, action=action, params=params)

    async def delivered(self) -> None:
        for hook in self.after_commit:
            await hook()

    # --- where each event goes -----------------------------------------------------------------------
    async def addresses(self, t: Table, audience: str) -> list[Address]:
        kind, _, name = audience.partition(":")
        if kind == "player":
            return [("private", t.seat_of(name).qq)]
        if kind == "team":
            row = await TeamRow.get_or_none(game_id=t.row.id, team=name)
            if row and row.group_id:
                return [("group", row.group_id)]
            # no group free for this team: relay to each member privately
            return [("private", t.seat_of(n).qq) for n in t.game.state.teams.get(name, [])]
        return [("private", qq) for qq in t.row.directors]

    async def _consequences(self, t: Table, outcome: Outcome, phase_before: str,
                            told: dict[Address, OutboxRow]) -> None:
        morning = any(isinstance(e, Announcement) for e in outcome.events)
        post: list[str] = []  # the 开门 post, gathered into one message the director pastes as it is
        for event in outcome.events:
            if isinstance(event, Notice) and event.audience == "public":
                if morning:
                    post.append(event.text)
                else:
                    await self.tell_directors(t, "【可公示】" + forum_safe(event.text))
            elif isinstance(event, (Notice, Feedback)):
                for to in await self.addresses(t, event.audience):
                    told[to] = await self.queue(to, event.text, t.row.id)
            elif isinstance(event, DeadlineStart):
                await self._start_deadline(t, event, told)
            elif isinstance(event, DeadlineEnd):
                await self._end_deadline(t, event.key)
            elif isinstance(event, TeamChange):
                await self.team_changed(t, event.team, list(event.members))
            elif isinstance(event, GameOver):
                await self._game_over(t)
        if post:
            if window := t.game.rules.speech_window(t.game):  # 146's 英语考试: "自讨论日开门时至开门后6小时"
                what, minutes = window
                post.append(f"{what}时段\n{clock(self.now())} 至 {clock(self.now() + self._minutes(minutes))}")
            await self.tell_directors(t, "【开门公告，可直接粘贴到论坛】\n" + discuz_post(post))
        for warning in outcome.warnings:
            await self.tell_directors(t, f"注意：{warning}")
        if t.game.phase == "night" and phase_before != "night":
            await self._fill_close_anchors(t)
        await t.row.save()

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

    async def _start_deadline(self, t: Table, event: DeadlineStart, told: dict[Address, OutboxRow]) -> None:
        due = self._due(t, event.anchor, event.minutes)
        message = None
        if event.anchor == "now":
            # "收到反馈后半小时": it counts from the moment the player has the message that tells him of
            # it, the last one this command queued for him, which OneBot may deliver much later (with
            # none queued, from now)
            queued = [told[to] for to in (("private", t.seat_of(name).qq) for name in event.who) if to in told]
            message = max(queued, key=lambda m: m.id, default=None)
        row = await DeadlineRow.create(game_id=t.row.id, key=event.key, what=event.what, who=list(event.who),
                                       anchor=event.anchor, minutes=event.minutes, due_at=due, waits_for=message)
        if due:
            # one waiting for its message is scheduled at the soonest it can pass, but cannot pass
            # before the message is delivered: the delivery starts it again (message_sent)
            self._schedule(row)
            if event.who and message is None:
                await self._tell_started(t, row)

    async def _tell_started(self, t: Table, row: DeadlineRow) -> None:
        await self.tell_directors(t, f"时限开始：{'、'.join(row.who)}<{row.what}>，截止 {clock(row.due_at)}")

    async def message_sent(self, message: OutboxRow) -> None:
        """The outbox delivered `message`: a time limit counted from it starts now (called by the outbox)."""
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
                await self._tell_started(t, row)

    async def _waiting(self, row: DeadlineRow) -> bool:
        """The limit still waits for the delivery of the message that tells its player about it."""
        return row.waits_for_id is not None and await OutboxRow.filter(id=row.waits_for_id, sent_at=None).exists()

    async def _end_deadline(self, t: Table, key: str) -> None:
        for row in await DeadlineRow.filter(game_id=t.row.id, key=key, done=False):
            row.done = True
            await row.save()
            self._unschedule(row)

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

    def _schedule(self, row: DeadlineRow) -> None:
        self.scheduler.at(f"deadline:{row.id}", row.due_at, lambda: self.deadline_passed(row.id))
        for before in self.config.banshabot_remind_before:
            when = row.due_at - self._minutes(before)
            if before not in row.reminded and when > self.now() and row.who:
                self.scheduler.at(f"remind:{row.id}:{before}", when, lambda b=before: self.remind(row.id, b))

    def _unschedule(self, row: DeadlineRow) -> None:
        self.scheduler.cancel(f"deadline:{row.id}")
        for before in self.config.banshabot_remind_before:
            self.scheduler.cancel(f"remind:{row.id}:{before}")

    async def restore_deadlines(self) -> None:
        """At start-up: every open time limit is scheduled again; one that passed fires at once.

        One whose message was delivered just before the bot stopped, before the limit could start,
        counts from that delivery."""
        for row in await DeadlineRow.filter(done=False).exclude(due_at=None):
            message = await OutboxRow.get_or_none(id=row.waits_for_id) if row.waits_for_id else None
            if message is not None and message.sent_at is not None:
                await self._count_from_delivery(row, message.sent_at)
            else:
                self._schedule(row)

    async def deadline_passed(self, row_id: int) -> None:
        row = await DeadlineRow.get_or_none(id=row_id)
        if row is None or row.done or await self._waiting(row):  # the delivery will schedule it again
            return
        t = await self.table(row.game_id)
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

    async def remind(self, row_id: int, before: int) -> None:
        row = await DeadlineRow.get_or_none(id=row_id)
        if row is None or row.done or before in row.reminded or await self._waiting(row):
            return
        t = await self.table(row.game_id)
        row.reminded = [*row.reminded, before]
        await row.save()
        for name in row.who:
            await self.queue(("private", t.seat_of(name).qq), f"提醒：<{row.what}>还有{before}分钟截止（{clock(row.due_at)}）。", t.row.id)
        await self.delivered()

    async def open_deadlines(self, t: Table) -> list[DeadlineRow]:
        return await DeadlineRow.filter(game_id=t.row.id, done=False).order_by("id")

    # --- team groups -----------------------------------------------------------------------------------
    async def team_changed(self, t: Table, team: str, members: list[str]) -> None:
        await groups.assign_team(self, t, team, members)

    async def _game_over(self, t: Table) -> None:
        t.row.status = "over"
        for part in await history.treehole(t):  # the whole log, ready to post
            await self.tell_directors(t, part)
        await groups.release(self, t)

    # --- building a game ---------------------------------------------------------------------------------
    async def create(self, director: str, ruleset_id: str, title: str) -> GameRow:
        rules = get_ruleset(ruleset_id)
        if rules is None:
            raise ServiceError(f"没有规则“{ruleset_id}”。可用：{'、'.join(RULESETS)}")
        return await GameRow.create(ruleset=rules.id, title=title or rules.title, seed=secrets.randbits(31), directors=[director])

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
        async with in_transaction():
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
        for seat, (_, role) in zip(t.seats, players):
            seat.role = role
            await seat.save()

    async def start(self, t: Table) -> None:
        rules = get_ruleset(t.row.ruleset)
        if t.row.status != "roster":
            raise ServiceError("游戏已经开始")
        if not t.seats or any(s.role is None for s in t.seats):
            raise ServiceError("请先分配身份（“分配 随机”或“分配 固定”）")
        players = [(s.name, s.role) for s in t.seats]
        t.game = Game(rules, players, seed=t.row.seed)
        async with in_transaction():
            t.row.status = "running"
            await t.row.save()
            for seat in t.seats:
                await self.queue(("private", seat.qq), brief(rules, t.game, seat.name), t.row.id)
            # where a start choice can still reshape the teams (146's lovers), the groups wait for the
            # ruleset's TeamChange at the first phase, so nobody is shown a team he is about to leave
            if rules.teams_known_when_dealt:
                for team, members in t.game.state.teams.items():
                    await groups.assign_team(self, t, team, members)
        await self.delivered()


def discuz_post(parts: list[str]) -> str:
    """Each part's first line in bold, parts a blank line apart: ready for the forum's editor. What
    the parts carry (names, last words) never acts as Discuz! code: only the bold is ours."""
    out = []
    for part in parts:
        head, _, rest = forum_safe(part).partition("\n")
        out.append(f"[b]{head}[/b]" + (f"\n{rest}" if rest else ""))
    return "\n\n".join(out)


