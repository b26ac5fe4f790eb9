"""The director's corrections: `撤销` takes back one of his commands of the running phase (a correction
too), `重新计票` replaces the day's count with a new paste.

A game is its log, so a correction rebuilds the game from the log with that one entry taken back or
replaced. Before anything changes the director is shown what differs (deaths, counts, feedback, who
must be told) and confirms (`确认`) or drops it (`取消`). Confirmed, the correction is stored as a log
entry of its own (service/history.py), everyone who was told something no longer true is told so, and
what the new history says that the old did not is delivered as any command's consequences are. A
correction of a finished game after which it is not over brings it back: its groups lent again, its
players told, its time limits running.

Only the directors' entries are taken back. A player's accepted action never is. One whose grounds
went with the correction itself (last words or a decision owed by a death that no longer happens, a
night action of a player who is now out, anything sent before a new end of the game) stays in the
log, no longer in effect, and its sender is told; taking the correction back gives it back its
effect. A correction after which any other of them would be refused is not made, naming it. An
automatic entry (a time limit that passed, a settlement) that the new history no longer has is left
out with the correction.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from tortoise.transactions import in_transaction

from engine import Act, Ballots, CloseDay, Game, OpenDay, ResolveNight, Timeout, tie_pick
from engine.commands import Command, from_dict, to_dict
from engine.events import DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from engine.words import LAST_WORDS, PASS

from . import groups, history
from .errors import ServiceError
from .games import Service, Table, new_game
from .models import CommandRow, DeadlineRow
from .texts import clock

if TYPE_CHECKING:
    from .director import QQSide

AUTOMATIC = ("deadline", "auto")  # sources of the entries the bot makes itself
SHOWN = 10  # how many of the running phase's director entries `撤销` lists


@dataclass(frozen=True)
class Grounds:
    """What an act was accepted on: whether its sender's character was in the game, and what a `放弃`
    answered (his night's decisions, a question his death asked, his last words)."""

    alive: bool
    asked: frozenset[str] = frozenset()

    def stored(self) -> dict:
        return {"alive": self.alive, "asked": sorted(self.asked)}

    @classmethod
    def read(cls, record: dict) -> "Grounds":
        return cls(record["alive"], frozenset(record.get("asked", ())))


@dataclass
class Proposal:
    """A correction shown to the director, waiting for `确认`."""

    kind: str  # 撤销 | 重新计票
    seq: int  # the entry it takes back or replaces
    command: dict | None  # the replacement (None: taken back)
    void: list[int]  # automatic entries the new history no longer has
    moot: list[dict]  # acts no longer in effect in the new history: seq, why, the grounds they were accepted on
    log_length: int  # entries in the log when it was shown: a new one makes it stale
    by: str  # the director who asked
    game: Game  # the game rebuilt with it
    events: list = field(default_factory=list)  # what the new history says that the old did not
    withdrawn: dict[str, list[str]] = field(default_factory=dict)  # audience -> messages no longer true
    changes: list[str] = field(default_factory=list)  # what differs in the game, in words
    reopened_day: bool = False  # a 开门 taken back: the day's announced closing time goes with it
    close_back: datetime | None = None  # a 开门 brought back: the closing time it had comes back with it
    close_moves: int = 0  # days the day's closing time moves: a 延时 (M131) taken back or brought back
    revived: list[str] | None = None  # a finished game goes on: how its groups come back (None: it does not)


@dataclass
class _History:
    game: Game
    steps: list[tuple[int, Command, list]] = field(default_factory=list)  # (seq, command, its events)
    void: list[int] = field(default_factory=list)
    moot: dict[int, tuple[str, Grounds]] = field(default_factory=dict)  # seq -> why, the grounds it had
    grounds: dict[int, Grounds] = field(default_factory=dict)  # each act in effect: what it was accepted on


def _grounds(game: Game, act: Act) -> Grounds | None:
    p = game.state.player(act.by)
    if p is None:
        return None
    return Grounds(p.alive, _asked(game, p.name) if act.skill == PASS else frozenset())


def _asked(game: Game, name: str) -> frozenset[str]:
    """What a `放弃` of this player answers now (engine/game.py `_pass`)."""
    out = set()
    if game.phase == "night" and not game.night.resolved:
        out |= {f"夜晚:{slot}" for who, slot in game.rules.awaiting(game) if who == name}
    questions = {f"决定:{q.skill}" for q in game.state.pending if q.who == name}
    if not questions and game.owes_last_words(name):
        questions.add(LAST_WORDS)
    return frozenset(out | questions)


def _gone(game: Game, act: Act, was: Grounds | None, now: Grounds | None) -> str | None:
    """Why an act accepted on `was` no longer applies where the new history has come to (None: it is
    tried). Its sender is no longer out, or is out now; a `放弃` would answer something else."""
    if game.phase == "over":
        return "游戏已经结束"
    if was is None or now is None:
        return None
    if was.alive != now.alive:
        return "不再出局" if now.alive else "已出局"
    if act.skill == PASS and not (now.asked <= was.asked and (now.asked or not was.asked)):
        return "要决定的事已经不同"
    return None


def _lost_right(game: Game, act: Act) -> str | None:
    """Why a refused act lost its grounds: the right or the question it answered is not there (None:
    refused for another reason, which no correction may cause)."""
    p = game.state.player(act.by)
    if p is None:
        return None
    if act.skill == LAST_WORDS:
        return None if p.name in game.state.carry.get("words_offered", []) else "不再有遗言权利"
    skill = game.rules.skill(act.skill)
    if skill is None or act.skill == PASS:
        return None
    if skill.when == "decision":
        pending = game.pending_for(p.name, skill.name)
        if pending is None:
            return f"不再需要发动<{skill.name}>"
        if skill.name == tie_pick.PICK and act.target is not None and game.find(act.target).name not in pending.context:
            return "平票者已不同"  # a recount tied others: he is asked again among them
        return None
    return None if p.alive else "已出局"


def _replay(t: Table, entries: list[tuple[CommandRow, Command]], known: dict[int, Grounds]) -> _History:
    """The game played from the start through `entries`. An act whose grounds are gone (`known`: what
    each was accepted on) is moot; an automatic entry that is no longer accepted is left out; anything
    else refused raises ServiceError naming it."""
    h = _History(new_game(t.row, t.seats))
    game = h.game
    for row, cmd in entries:
        automatic = row.source.split(":")[0] in AUTOMATIC
        act = isinstance(cmd, Act) and not automatic
        if act:
            now = _grounds(game, cmd)
            was = known.get(row.seq)
            if why := _gone(game, cmd, was, now):
                h.moot[row.seq] = (why, was or now)
                continue
        outcome = game.apply(cmd)
        if outcome.ok:
            h.steps.append((row.seq, cmd, outcome.events))
            if act and now is not None:
                h.grounds[row.seq] = now
        elif automatic:
            h.void.append(row.seq)
        elif act and now is not None and (why := _lost_right(game, cmd)):
            h.moot[row.seq] = (why, was or now)
        else:
            raise ServiceError(f"更正后，第{row.seq + 1}条（{history.said(t, row)}）不再成立："
                               f"{outcome.error}。玩家已被接受的行动不会被撤销，所以这项更正不能执行。")
    return h


def _phase_start(entries: list[tuple[CommandRow, Command]]) -> int:
    """Where the running phase began: the last 关门 or 开门 (the whole log before the first)."""
    return next((i for i in range(len(entries) - 1, -1, -1) if isinstance(entries[i][1], (CloseDay, OpenDay))), 0)


def _undoable(rows: list[CommandRow], entries: list[tuple[CommandRow, Command]]) -> dict[int, tuple[CommandRow, Command | None]]:
    """The directors' entries of the running phase in effect, by seq: commands as the corrections read
    them, and the corrections that hold (no command)."""
    start = entries[_phase_start(entries)][0].seq if entries else 0
    mine = {row.seq: (row, cmd) for row, cmd in entries if row.seq >= start}
    mine.update((row.seq, (row, None)) for row in history.in_force(rows) if row.seq >= start)
    return {seq: mine[seq] for seq in sorted(mine) if mine[seq][0].source.startswith("director:")}


def _opening_undone(rows: list[CommandRow], seq: int) -> bool | None:
    """What taking entry `seq` back does to a 开门: takes it back (True), brings it back (False: `seq`
    is the 撤销 that took it back), or neither (None). A 撤销 of a 撤销 brings back what that one took."""
    by_seq = {row.seq: row for row in rows}
    undos, row = 0, by_seq[seq]
    while row.payload["type"] == history.CORRECTION and row.payload["command"] is None:
        undos += 1
        row = by_seq[row.payload["seq"]]
    return undos % 2 == 0 if row.payload["type"] == OpenDay.__name__ else None


def _said(t: Table, row: CommandRow, cmd: Command | None) -> str:
    """An entry as it now reads."""
    return history.said(t, row) if cmd is None else f"{history.who(t, row.source)}：{history.describe(to_dict(cmd))}"


async def _entries(t: Table) -> tuple[list[CommandRow], list[tuple[CommandRow, Command]]]:
    rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
    return rows, history.effective(rows)


# --- what the director is shown ---------------------------------------------------------------------------
async def listing(t: Table) -> str:
    """`撤销` alone: the directors' entries of the running phase, latest last."""
    rows, entries = await _entries(t)
    mine = list(_undoable(rows, entries).values())[-SHOWN:]
    if not mine:
        return "本阶段没有导演的操作可以撤销。（玩家已被接受的行动不能撤销；重新统计今天的票请发送“重新计票”加投票帖）"
    lines = [f"第{row.seq + 1}条 {clock(row.at)} {_said(t, row, cmd)}" for row, cmd in mine]
    last = mine[-1][0].seq + 1
    return "本阶段导演的操作：\n" + "\n".join(lines) + f"\n发送“撤销 编号”（如“撤销 {last}”）查看撤销后会有什么不同，确认后才会执行。"


async def propose_undo(service: Service, t: Table, qq: str, number: int) -> str:
    """`撤销 N`: what taking back entry N (as the log numbers it, from 1) would change."""
    seq = number - 1
    rows, entries = await _entries(t)
    mine = _undoable(rows, entries)
    if seq not in mine:
        return f"第{number}条不是本阶段导演的操作，不能撤销。发送“撤销”查看可以撤销的操作。"
    row, cmd = mine[seq]
    p = await _propose(service, t, qq, rows, entries, "撤销", seq, None)
    opening = _opening_undone(rows, seq)
    p.reopened_day = opening is True
    kept = next(row for row in rows if row.seq == seq).payload.get("closing")
    if opening is False and kept:
        # the 开门 comes back: with the closing time it had when the correction now undone took it away
        p.close_back = datetime.fromisoformat(kept)
        p.changes.append(f"本日关门时间：恢复为 {clock(p.close_back)}")
    return f"撤销第{number}条（{clock(row.at)} {history.said(t, row)}）\n" + _shown(t, p)


def _todays_count(entries: list[tuple[CommandRow, Command]], kind: str | None) -> tuple[CommandRow, Ballots] | None:
    """Today's latest count (of `kind`, or of either), as logged."""
    day = next((i for i in range(len(entries) - 1, -1, -1) if isinstance(entries[i][1], OpenDay)), 0)
    counts = [(row, cmd) for row, cmd in entries[day:] if isinstance(cmd, Ballots) and kind in (None, cmd.kind)]
    return counts[-1] if counts else None


async def propose_recount(service: Service, t: Table, qq: str, kind: str | None, ballots: Ballots) -> str:
    rows, entries = await _entries(t)
    if (found := _todays_count(entries, kind)) is None:
        word = {"election": "警长竞选", "exile": "放逐投票"}.get(kind, "")
        return f"今天还没有{word}计票，请直接发送“{'竞选' if kind == 'election' else '投票'}”加投票帖。"
    row, old = found
    new = replace(ballots, kind=old.kind)  # the paste's ballots, 改票 and void posts, for the count it replaces
    p = await _propose(service, t, qq, rows, entries, "重新计票", row.seq, to_dict(new))
    word = "警长竞选" if old.kind == "election" else "放逐投票"
    return f"重新计票：以新的投票帖代替第{row.seq + 1}条的{word}计票\n" + _shown(t, p)


async def propose_excuse(service: Service, t: Table, qq: str, name: str) -> str:
    """`免牌 角色`: today's exile count again with `name` spared the card the bot gave him for not voting."""
    rows, entries = await _entries(t)
    found = _todays_count(entries, "exile")
    none = f"{name} 今天没有因未投票被记牌，没有可以免除的牌。"
    if found is None or name in found[1].excused:
        return none
    row, old = found
    p = await _propose(service, t, qq, rows, entries, "免牌", row.seq, to_dict(replace(old, excused=(*old.excused, name))))
    if p.game.state.player(name).cards == t.game.state.player(name).cards:
        t.proposed = None
        return none
    return f"免牌：{name} 不再因第{row.seq + 1}条的放逐投票计票中未投票记牌\n" + _shown(t, p)


async def _propose(service: Service, t: Table, qq: str, rows, entries, kind: str, seq: int, command: dict | None) -> Proposal:
    if t.game is None:
        raise ServiceError("游戏还没有开始")
    old = _replay(t, entries, {})
    mine = CommandRow(game_id=t.row.id, seq=len(rows), source=f"director:{qq}",
                      payload={"type": history.CORRECTION, "seq": seq, "command": command})
    _, moot = history.left_out(history.in_force(rows))
    known = {seq: Grounds.read(m) for seq, m in moot.items()} | old.grounds
    new = _replay(t, history.replayed([*rows, mine]), known)
    stored = [{"seq": s, "why": why, **grounds.stored()} for s, (why, grounds) in sorted(new.moot.items())]
    p = Proposal(kind, seq, command, new.void, stored, len(rows), qq, new.game)
    _differences(t, old, new, p, *_moot(t, new, rows, moot))
    p.close_moves = delayed_today(new.game) - delayed_today(old.game)
    if p.close_moves and t.row.planned_close:
        p.changes.append(f"本日关门时间：{clock(t.row.planned_close)} → {clock(t.row.planned_close + timedelta(days=p.close_moves))}")
    if old.game.phase == "over" and new.game.phase != "over":
        p.revived = _regrouped(await _groups_back(t, "再重新发送这项更正。"))
    t.proposed = p
    return p


def delayed_today(game: Game) -> int:
    """Whether the running day is extended by a 延时 ("本讨论日延长一天"): its closing time is a day later."""
    return int(game.phase == "day" and game.state.carry.get("delayed", {}).get("day") == game.state.day_no)


async def _groups_back(t: Table, then: str) -> list:
    """The groups a finished game gets back to go on (service/groups.py `regained`); with a team left
    without one, the director is told what to do and nothing changes."""
    plan, short = await groups.regained(t)
    if short:
        taken = "；".join(f"{row.team}的QQ群 {row.group_id} " + (f"已借给 #{game}" if game else "已移出群池") for row, game in short)
        raise ServiceError(f"这局游戏结束后，{taken}，群池里也没有空闲的群可以代替，所以游戏还不能恢复进行。"
                           f"请先发送“群池 添加 群号”加入一个空群，{then}")
    return plan


def _regrouped(plan: list) -> list[str]:
    return [f"{row.team} 使用QQ群 {group}" + ("" if group == row.group_id else f"（原来的群 {row.group_id} 已被占用）")
            + "，队员需要重新加群" for row, group in plan]


def _what(act: Act) -> str:
    return {LAST_WORDS: "遗言", PASS: "放弃"}.get(act.skill, f"<{act.skill}>")


def _moot(t: Table, new: _History, rows: list[CommandRow], before: dict[int, dict]) -> tuple[list[str], list[Notice]]:
    """The acts the correction puts out of effect (`before`: those already out), and those it gives
    their effect back: what the director is shown of each, and what its sender is told. (A player's act
    is never replaced by a correction, so the log holds it as it was sent.)"""
    acts = {row.seq: from_dict(row.payload) for row in rows if row.seq in new.moot or row.seq in before}
    label = lambda act: _audience(t, f"player:{act.by}")  # noqa: E731
    lines, notices = [], []
    for seq, (why, _) in sorted(new.moot.items()):
        if seq not in before:
            act = acts[seq]
            lines.append(f"{label(act)} 的{_what(act)}（第{seq + 1}条）不再成立（{why}），仍记在日志中")
            notices.append(Notice(f"player:{act.by}", f"【更正】你的{_what(act)}不再成立（{why}）。它仍记在日志（树洞）中，"
                                                       "如果这项更正以后被撤销，会恢复有效。"))
    for seq in sorted(before):
        if seq in new.grounds:
            act = acts[seq]
            lines.append(f"{label(act)} 的{_what(act)}（第{seq + 1}条）恢复有效")
            notices.append(Notice(f"player:{act.by}", f"【更正】你的{_what(act)}恢复有效。"))
    return lines, notices


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


def _first_change(old: _History, new: _History) -> int:
    """The first entry at which the two histories part: what each told anyone before it is the same."""
    for (seq, cmd, _), (other, changed, _) in zip(old.steps, new.steps):
        if seq != other or cmd != changed:
            return min(seq, other)
    rest = old.steps[len(new.steps):] or new.steps[len(old.steps):]
    return rest[0][0] if rest else 1 << 62


def _differences(t: Table, old: _History, new: _History, p: Proposal, moot: list[str], notices: list[Notice]) -> None:
    seq = _first_change(old, new)
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
    p.events += added + notices + reopened
    if new.game.phase == "over" and old.game.phase != "over":
        p.events.append(GameOver(new.game.state.winner, tuple(new.game.state.lost)))
    p.changes = _summary(t, old.game, new.game) + _feedback(t, before, after) + moot


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
    if p.revived is not None:
        lines.append("游戏将恢复进行" + ("：" + "；".join(p.revived) if p.revived else "") + "。未完成的时限重新开始。")
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


async def move_close(service: Service, t: Table, days: int) -> None:
    """The day's closing time `days` later (a 延时 passed, taken back or brought back), and the limits
    counted from it with it."""
    t.row.planned_close += timedelta(days=days)
    await retime_from_close(service, t)


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


async def confirm(service: Service, t: Table, qq: str, side: "QQSide | None" = None) -> str:
    """`确认`: the correction shown is made. `side` (service/director.py's QQSide) reads the pool's
    groups, for the groups a finished game going on again is lent (every free pool group is checked
    first, as at a start)."""
    p = t.proposed
    if p is None:
        return "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。"
    if p.by != qq:
        return f"这项更正由导演 {p.by} 发起，请由他确认或取消。"
    async with t.lock:
        if await CommandRow.filter(game_id=t.row.id).count() != p.log_length:
            t.proposed = None
            return "显示更正之后游戏又有了新的记录，更正已作废：请重新发送“撤销 编号”或“重新计票”查看。"
        reviving, plan = t.game.phase == "over" and p.game.phase != "over", []
        if reviving and await _groups_back(t, "再发送“确认”。"):
            if side is None:
                raise groups.Unreachable()
            for note in await groups.before_lending(service, *side.pool(), t.row.id):
                await service.tell_directors(t, note)
            plan = await _groups_back(t, "再发送“确认”。")  # the check may have taken a group out of the pool
        regrouped = _regrouped(plan)
        t.proposed = None
        before, old = t.game.phase, t.game
        t.game = p.game
        try:
            async with in_transaction():
                # a 开门 taken back keeps the day's closing time, for a 撤销 of this correction to bring back
                kept = {"closing": t.row.planned_close.isoformat()} if p.reopened_day and t.row.planned_close else {}
                await CommandRow.create(game_id=t.row.id, seq=p.log_length, source=f"director:{qq}", at=service.now(),
                                        payload={"type": history.CORRECTION, "seq": p.seq, "command": p.command,
                                                 "void": p.void, "moot": p.moot, **kept})
                t.next_seq = p.log_length + 1
                t.directed[qq] = p.log_length
                events = p.events
                if reviving:
                    t.row.status = "running"
                    await t.row.save()
                    await groups.lend_again(service, t, plan)
                    # whatever limit the end left open is replaced by those the new history runs
                    ended = {row.key for row in await DeadlineRow.filter(game_id=t.row.id, done=False)}
                    events = [DeadlineEnd(key) for key in sorted(ended)] + events
                told = {}
                for audience, texts in p.withdrawn.items():
                    if audience == "public":
                        await service.tell_directors(t, "【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n" + "\n".join(f"「{x}」" for x in texts))
                        continue
                    for to in await service.addresses(t, audience):
                        told[to] = await service.queue(to, "【更正】你之前收到的以下消息有误，已作废：\n" + "\n".join(f"「{x}」" for x in texts), t.row.id)
                if p.reopened_day:
                    t.row.planned_close = None
                elif p.close_back:
                    t.row.planned_close = p.close_back
                elif p.close_moves and t.row.planned_close:
                    await move_close(service, t, p.close_moves)
                await service._consequences(t, Outcome(ok=True, events=events), before, told)
                if p.close_back or before == "night" and t.game.phase == "day":
                    # a 关门 taken back, a 开门 brought back: the day's closing time is again to come
                    await retime_from_close(service, t)
        except BaseException:
            t.game = old
            if reviving:
                t.row.status = "over"
            service.tables.pop(t.row.id, None)  # memory and database may differ: rebuild from the log
            raise
        if reviving:
            service.revived(t)
    await service.delivered()
    if t.game.night_complete():  # every night action is in after all: settle, as after any command
        await service.submit(t, ResolveNight(), source="auto")
    goes_on = f"游戏恢复进行：{'；'.join(regrouped)}。" if regrouped else "游戏恢复进行。" if reviving else ""
    told = "相关玩家已收到更正。" if _players_told(p) else "没有需要告知的玩家。"
    return f"已{p.kind}（第{p.seq + 1}条），{told}{goes_on}"


def _players_told(p: Proposal) -> bool:
    """Whether a correction tells any player anything: a message withdrawn or one the new history sends."""
    return any(audience != "public" for audience in p.withdrawn) or any(
        isinstance(e, (Notice, Feedback)) and e.audience not in ("director", "public") for e in p.events)
