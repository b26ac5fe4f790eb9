"""The director's corrections: `撤销` takes back one of his commands of the running phase, `重新计票`
replaces the day's count with a new paste.

A game is its log, so a correction rebuilds the game from the log with that one entry taken back or
replaced. Before anything changes the director is shown what differs (deaths, counts, feedback, who
must be told) and confirms (`确认`) or drops it (`取消`). Confirmed, the correction is stored as a log
entry of its own (service/history.py), everyone who was told something no longer true is told so, and
what the new history says that the old did not is delivered as any command's consequences are.

Only the directors' entries are taken back. A player's accepted action never is: a correction after
which one of them would no longer be accepted is refused, naming it. An automatic entry (a time limit
that passed, a settlement) that the new history no longer has is left out with the correction.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tortoise.transactions import in_transaction

from engine import Ballots, CloseDay, Game, OpenDay, ResolveNight, Timeout
from engine.commands import Command, from_dict, to_dict
from engine.events import DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from rulesets import get as get_ruleset

from . import history
from .games import Service, ServiceError, Table
from .models import CommandRow, DeadlineRow
from .texts import clock

AUTOMATIC = ("deadline", "auto")  # sources of the entries the bot makes itself
SHOWN = 10  # how many of the running phase's director entries `撤销` lists


@dataclass
class Proposal:
    """A correction shown to the director, waiting for `确认`."""

    kind: str  # 撤销 | 重新计票
    seq: int  # the entry it takes back or replaces
    command: dict | None  # the replacement (None: taken back)
    void: list[int]  # automatic entries the new history no longer has
    log_length: int  # entries in the log when it was shown: a new one makes it stale
    by: str  # the director who asked
    game: Game  # the game rebuilt with it
    events: list = field(default_factory=list)  # what the new history says that the old did not
    withdrawn: dict[str, list[str]] = field(default_factory=dict)  # audience -> messages no longer true
    changes: list[str] = field(default_factory=list)  # what differs in the game, in words
    reopened_day: bool = False  # a 开门 taken back: the day's announced closing time goes with it


@dataclass
class _History:
    game: Game
    steps: list[tuple[int, Command, list]]  # (seq, command, its events)
    void: list[int]


def _rules(t: Table):
    return get_ruleset(t.row.ruleset)


def _replay(t: Table, entries: list[tuple[CommandRow, Command]]) -> _History:
    """The game played from the start through `entries`. An automatic entry that is no longer accepted is
    left out; anything else refused raises ServiceError naming it."""
    game = Game(_rules(t), [(s.name, s.role) for s in t.seats], seed=t.row.seed)
    steps, void = [], []
    for row, cmd in entries:
        outcome = game.apply(cmd)
        if outcome.ok:
            steps.append((row.seq, cmd, outcome.events))
        elif row.source.split(":")[0] in AUTOMATIC:
            void.append(row.seq)
        else:
            raise ServiceError(f"更正后，第{row.seq + 1}条（{history.who(t, row.source)}：{history.describe(row.payload)}）不再成立："
                               f"{outcome.error}。玩家已被接受的行动不会被撤销，所以这项更正不能执行。")
    return _History(game, steps, void)


async def _entries(t: Table) -> tuple[list[CommandRow], list[tuple[CommandRow, Command]]]:
    rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
    return rows, history.effective(rows)


def _phase_start(entries: list[tuple[CommandRow, Command]]) -> int:
    """Where the running phase began: the last 关门 or 开门 (the whole log before the first)."""
    return next((i for i in range(len(entries) - 1, -1, -1) if isinstance(entries[i][1], (CloseDay, OpenDay))), 0)


# --- what the director is shown ---------------------------------------------------------------------------
async def listing(t: Table) -> str:
    """`撤销` alone: the directors' entries of the running phase, latest last."""
    _, entries = await _entries(t)
    mine = [(row, cmd) for row, cmd in entries[_phase_start(entries):] if row.source.startswith("director:")][-SHOWN:]
    if not mine:
        return "本阶段没有导演的操作可以撤销。（玩家已被接受的行动不能撤销；重新统计今天的票请发送“重新计票”加投票帖）"
    lines = [f"第{row.seq + 1}条 {clock(row.at)} {history.who(t, row.source)}：{history.describe(to_dict(cmd))}" for row, cmd in mine]
    last = mine[-1][0].seq + 1
    return "本阶段导演的操作：\n" + "\n".join(lines) + f"\n发送“撤销 编号”（如“撤销 {last}”）查看撤销后会有什么不同，确认后才会执行。"


async def propose_undo(service: Service, t: Table, qq: str, number: int) -> str:
    """`撤销 N`: what taking back entry N (as the log numbers it, from 1) would change."""
    seq = number - 1
    rows, entries = await _entries(t)
    mine = {row.seq: (row, cmd) for row, cmd in entries[_phase_start(entries):] if row.source.startswith("director:")}
    if seq not in mine:
        return f"第{number}条不是本阶段导演的操作，不能撤销。发送“撤销”查看可以撤销的操作。"
    row, cmd = mine[seq]
    p = await _propose(service, t, qq, rows, entries, "撤销", seq, None)
    p.reopened_day = isinstance(cmd, OpenDay)
    return f"撤销第{number}条（{clock(row.at)} {history.who(t, row.source)}：{history.describe(row.payload)}）\n" + _shown(t, p)


async def propose_recount(service: Service, t: Table, qq: str, kind: str | None, ballots: Ballots) -> str:
    rows, entries = await _entries(t)
    day = next((i for i in range(len(entries) - 1, -1, -1) if isinstance(entries[i][1], OpenDay)), 0)
    counts = [(row, cmd) for row, cmd in entries[day:] if isinstance(cmd, Ballots) and kind in (None, cmd.kind)]
    if not counts:
        word = {"election": "警长竞选", "exile": "放逐投票"}.get(kind, "")
        return f"今天还没有{word}计票，请直接发送“{'竞选' if kind == 'election' else '投票'}”加投票帖。"
    row, old = counts[-1]
    new = Ballots(old.kind, ballots.ballots, ballots.changed)
    p = await _propose(service, t, qq, rows, entries, "重新计票", row.seq, to_dict(new))
    word = "警长竞选" if old.kind == "election" else "放逐投票"
    return f"重新计票：以新的投票帖代替第{row.seq + 1}条的{word}计票\n" + _shown(t, p)


async def _propose(service: Service, t: Table, qq: str, rows, entries, kind: str, seq: int, command: dict | None) -> Proposal:
    if t.game is None:
        raise ServiceError("游戏还没有开始")
    old = _replay(t, entries)
    new = _replay(t, [(row, from_dict(command) if row.seq == seq else cmd) for row, cmd in entries
                      if not (row.seq == seq and command is None)])
    p = Proposal(kind, seq, command, new.void, len(rows), qq, new.game)
    _differences(t, old, new, seq, p)
    t.proposed = p
    return p


def _messages(steps, seq: int) -> list[tuple[tuple[str, str], object]]:
    """What the entries from `seq` on told anyone but the directors: ((audience, text), event)."""
    return [((e.audience, e.text), e) for s, _, events in steps if s >= seq for e in events
            if isinstance(e, (Notice, Feedback)) and e.audience != "director"]


def _minus(these: list, those: list) -> list:
    """`these` without as many of each of `those` (by key), in order."""
    left = Counter(key for key, _ in those)
    out = []
    for key, event in these:
        if left[key]:
            left[key] -= 1
        else:
            out.append((key, event))
    return out


def _open_limits(h: _History) -> dict[str, DeadlineStart]:
    """The time limits still running at the end of a history."""
    running: dict[str, DeadlineStart] = {}
    for _, cmd, events in h.steps:
        if isinstance(cmd, Timeout):
            running.pop(cmd.key, None)
        for e in events:
            if isinstance(e, DeadlineStart):
                running[e.key] = e
            elif isinstance(e, DeadlineEnd):
                running.pop(e.key, None)
    return {} if h.game.phase == "over" else running


def _differences(t: Table, old: _History, new: _History, seq: int, p: Proposal) -> None:
    before, after = _messages(old.steps, seq), _messages(new.steps, seq)
    for (audience, text), _ in _minus(before, after):
        p.withdrawn.setdefault(audience, []).append(text)
    added = [event for _, event in _minus(after, before)]
    was, now = _open_limits(old), _open_limits(new)
    p.events = [DeadlineEnd(key) for key in was if key not in now]
    p.events += [TeamChange(team, tuple(members)) for team, members in new.game.state.teams.items()
                 if old.game.state.teams.get(team) != members]
    reopened = [start for key, start in now.items() if key not in was]
    # a decision the old history had closed is open again: whoever it is asked of is told so
    prompted = {e.about for e in added if isinstance(e, Notice)}
    added += [Notice(f"player:{name}", f"更正后，你的<{start.what}>可以重新决定：发送“帮助”查看现在能做什么。")
              for start in reopened if start.key not in prompted for name in start.who]
    p.events += added + reopened
    if new.game.phase == "over" and old.game.phase != "over":
        p.events.append(GameOver(new.game.state.winner, tuple(new.game.state.lost)))
    p.changes = _summary(t, old.game, new.game) + _feedback(t, before, after)


def _summary(t: Table, old: Game, new: Game) -> list[str]:
    """What differs in the game itself: deaths, counts, offices, the phase, the winner."""
    g, out = new, []
    label = {p.name: g.label(p) for p in g.state.players}
    died = lambda game: {d["name"]: d for d in game.state.deaths}  # noqa: E731
    gone, come = died(old), died(new)
    for name, d in gone.items():
        if name not in come:
            out.append(f"{label[name]} 不再出局（原为{d['cause']}）")
        elif come[name]["cause"] != d["cause"]:
            out.append(f"{label[name]} 出局原因：{d['cause']} → {come[name]['cause']}")
    out += [f"{label[name]} 出局（{d['cause']}）" for name, d in come.items() if name not in gone]
    for was, now in zip(old.state.players, new.state.players):
        if was.cards != now.cards:
            out.append(f"{label[now.name]} 的牌：{_cards(was.cards)} → {_cards(now.cards)}")
    for before, after in _paired(old.state.tallies, new.state.tallies):
        if before != after:
            out.append(f"第{(after or before)['number']}天{'警长竞选' if (after or before)['kind'] == 'election' else '放逐投票'}："
                       f"{_tally(before, label)} → {_tally(after, label)}")
    for (office, was), (_, now) in zip(old.rules.officers(old), new.rules.officers(new)):
        if was != now:
            out.append(f"{office}：{label.get(was, '无')} → {label.get(now, '无')}")
    if (old.phase, old.state.number) != (new.phase, new.state.number):
        out.append(f"阶段：{_phase(old)} → {_phase(new)}")
    if old.state.winner != new.state.winner:
        out.append(f"结果：{old.state.winner or '游戏继续'} → {new.state.winner or '游戏继续'}")
    return out


def _cards(cards: dict[str, int]) -> str:
    return "".join(f"{k}{v}" for k, v in cards.items() if v) or "无"


def _paired(a: list, b: list) -> list[tuple]:
    return [(a[i] if i < len(a) else None, b[i] if i < len(b) else None) for i in range(max(len(a), len(b)))]


def _tally(tally: dict | None, label: dict[str, str]) -> str:
    if tally is None:
        return "未计票"
    counts = "、".join(f"{label.get(k, k)} {v}票" for k, v in tally["counts"].items()) or "无有效票"
    return f"{counts}（结果：{label.get(tally['result'], '无')}）"


def _phase(g: Game) -> str:
    return {"setup": "未开始", "night": f"第{g.state.night_no}夜", "day": f"第{g.state.day_no}天", "over": "已结束"}[g.phase]


def _feedback(t: Table, before, after) -> list[str]:
    """Private results (checks, who was attacked) that differ."""
    who = lambda audience: _audience(t, audience)  # noqa: E731
    gone = [f"反馈作废：发给 {who(e.audience)} 的「{e.text}」" for _, e in _minus(before, after) if isinstance(e, Feedback)]
    return gone + [f"新反馈：发给 {who(e.audience)} 的「{e.text}」" for _, e in _minus(after, before) if isinstance(e, Feedback)]


def _audience(t: Table, audience: str) -> str:
    kind, _, name = audience.partition(":")
    if kind == "player":
        seat = t.seat_of(name)
        return f"{seat.seat}号 {seat.name}"
    return {"team": name, "public": "论坛"}.get(kind, name)


def _shown(t: Table, p: Proposal) -> str:
    lines = ["将会改变：", *(f"· {c}" for c in p.changes)] if p.changes else ["游戏状态不会改变。"]
    told = []
    for audience, texts in p.withdrawn.items():
        if audience == "public":
            told.append("· 论坛：已公示的以下内容不再成立，需要在论坛更正：" + "".join(f"\n  「{x}」" for x in texts))
        else:
            told.append(f"· {_audience(t, audience)}：以下消息作废" + "".join(f"\n  「{x}」" for x in texts))
    fresh: dict[str, list[str]] = {}
    for e in p.events:
        if isinstance(e, (Notice, Feedback)) and e.audience != "director":
            fresh.setdefault(e.audience, []).append(e.text)
    for audience, texts in fresh.items():
        where = "论坛：新的公示" if audience == "public" else f"{_audience(t, audience)}：将收到"
        told.append(f"· {where}" + "".join(f"\n  「{x}」" for x in texts))
    lines += ["需要告知：", *told] if told else ["不需要告知任何人。"]
    if p.void:
        lines.append("随之不再成立的自动记录：" + "、".join(f"第{s + 1}条" for s in p.void))
    lines.append("确认请发送“确认”，放弃请发送“取消”。这项更正和发起人都会记入日志（树洞）。")
    return "\n".join(lines)


async def retime_from_close(service: Service, t: Table) -> None:
    """The limits counted from the day's 关门 end at the time now announced for it (none announced: they wait
    for the 关门 itself)."""
    for row in await DeadlineRow.filter(game_id=t.row.id, done=False, anchor="close"):
        service._unschedule(row)
        row.due_at = t.row.planned_close + service._minutes(row.minutes) if t.row.planned_close else None
        await row.save()
        if row.due_at:
            service._schedule(row)


# --- confirming ---------------------------------------------------------------------------------------------
def cancel(t: Table) -> str:
    if t.proposed is None:
        return "没有待确认的更正。"
    t.proposed = None
    return "已取消，游戏没有任何改变。"


async def confirm(service: Service, t: Table, qq: str) -> str:
    p = t.proposed
    if p is None:
        return "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。"
    if p.by != qq:
        return f"这项更正由导演 {p.by} 发起，请由他确认或取消。"
    async with t.lock:
        if await CommandRow.filter(game_id=t.row.id).count() != p.log_length:
            t.proposed = None
            return "显示更正之后游戏又有了新的记录，更正已作废：请重新发送“撤销 编号”或“重新计票”查看。"
        t.proposed = None
        before, old = t.game.phase, t.game
        t.game = p.game
        try:
            async with in_transaction():
                await CommandRow.create(game_id=t.row.id, seq=p.log_length, source=f"director:{qq}", at=service.now(),
                                        payload={"type": history.CORRECTION, "seq": p.seq, "command": p.command, "void": p.void})
                t.next_seq = p.log_length + 1
                told = {}
                for audience, texts in p.withdrawn.items():
                    if audience == "public":
                        await service.tell_directors(t, "【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n" + "\n".join(f"「{x}」" for x in texts))
                        continue
                    for to in await service.addresses(t, audience):
                        told[to] = await service.queue(to, "【更正】你之前收到的以下消息有误，已作废：\n" + "\n".join(f"「{x}」" for x in texts), t.row.id)
                if p.reopened_day:
                    t.row.planned_close = None
                await service._consequences(t, Outcome(ok=True, events=p.events), before, told)
                if before == "night" and t.game.phase == "day":  # a 关门 taken back: the day's closing time is again to come
                    await retime_from_close(service, t)
        except BaseException:
            t.game = old
            service.tables.pop(t.row.id, None)  # memory and database may differ: rebuild from the log
            raise
    await service.delivered()
    if t.game.night_complete():  # every night action is in after all: settle, as after any command
        await service.submit(t, ResolveNight(), source="auto")
    return f"已{p.kind}（第{p.seq + 1}条），相关玩家已收到更正。"
