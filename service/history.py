"""The stored game log read as history: the commands a game is rebuilt from once corrections are
applied, each command in words, and the whole log (树洞) as the director posts it.

A correction (`撤销`, `重新计票`) is a log entry of its own, appended like any command: it names the
entry it takes back or replaces, and the automatic entries (a time limit, a settlement) the new
history no longer has. Nothing is ever deleted: the 树洞 shows the entry, who made it, and who took it
back.
"""
from __future__ import annotations

from engine import Act, Ballots, Breach, Card, Configure, FactionLoss, Moon, SpeedUp, Timeout
from engine.commands import Command, from_dict
from rulesets import get as get_ruleset

from .models import CommandRow
from .texts import clock, forum_safe, identity, key_name

CORRECTION = "Correction"
OPTIONS = {"moons": "新月设置"}  # a game's options, as the director's commands name them
_TAKEN_BACK = object()


def corrections(rows: list[CommandRow]) -> dict[int, CommandRow]:
    """Each corrected entry's seq, with the correction that took it back or replaced it (the last one)."""
    return {row.payload["seq"]: row for row in rows if row.payload["type"] == CORRECTION}


def effective(rows: list[CommandRow]) -> list[tuple[CommandRow, Command]]:
    """The commands the game is: stored entries in order, a corrected one as its correction says."""
    fixed = corrections(rows)
    void = {seq for row in fixed.values() for seq in row.payload.get("void", ())}
    out = []
    for row in rows:
        if row.payload["type"] == CORRECTION or row.seq in void:
            continue
        payload = fixed[row.seq].payload["command"] if row.seq in fixed else row.payload
        if payload is not None:
            out.append((row, from_dict(payload)))
    return out


def describe(payload: dict) -> str:
    """A command in the director's words."""
    if payload["type"] == CORRECTION:
        return "重新计票" if payload["command"] else "撤销"
    cmd = from_dict(payload)
    match cmd:
        case Act():
            return f"{cmd.by} {cmd.skill} {cmd.shown_target}{(' ' + cmd.text) if cmd.text else ''}".strip()
        case Ballots():
            changed = dict(cmd.changed)
            return ("竞选 " if cmd.kind == "election" else "投票 ") + " ".join(
                f"{v}:{tg}" + (f"（改票，原投{changed[v]}）" if v in changed else "") for v, tg in cmd.ballots)
        case Card():
            return f"发牌 {cmd.color} {cmd.to}"
        case Timeout():
            return f"时限到期：{key_name(cmd.key)}"
        case FactionLoss():
            return f"判负 {cmd.faction}"
        case Moon():
            return f"新月 {cmd.event}" + (f" 从{cmd.start}起" if cmd.start else "") + ("（论坛抽取）" if cmd.drawn else "")
        case Breach():
            return f"违规 {cmd.who}"
        case Configure():
            words = OPTIONS.get(cmd.key, cmd.key)
            return f"{words} " + ("无" if cmd.value in ("none", []) else " ".join(cmd.value) if isinstance(cmd.value, list) else str(cmd.value))
        case SpeedUp():
            when = f"（{cmd.at[5:10]} {cmd.at[11:16]}）" if cmd.at else ""  # "2026-12-01T18:30:00" → 12-01 18:30
            return ("延时 " if cmd.delay else "加速 ") + ("强制" if cmd.forced else " ".join(cmd.askers)) + when
    return {"CloseDay": "关门", "OpenDay": "开门", "ResolveNight": "结算夜晚"}[payload["type"]]


def who(t, source: str) -> str:
    """Who sent an entry: a director, a player (by seat, also one a substitute took over from), the
    bot's clock or the bot itself."""
    kind, _, qq = source.partition(":")
    if kind == "director":
        return f"导演 {qq}"
    if kind == "qq":
        seat = next((s for s in t.seats if s.qq == qq or qq in s.former_qq), None)
        return f"{seat.seat}号 {seat.name}" + ("（前任）" if seat and seat.qq != qq else "") if seat else f"QQ {qq}"
    return {"deadline": "时限", "auto": "自动"}.get(kind, source)


def entry(t, row: CommandRow, fixed: dict[int, CommandRow]) -> str:
    """One entry of the log: its number (from 1: `seq` + 1), time, sender and content, and what became of it."""
    p = row.payload
    text = describe(p)
    if p["type"] == "Act" and who(t, row.source).endswith(f"号 {p['by']}"):
        text = text.removeprefix(f"{p['by']} ")  # a player's own act: his name is the sender's
    if p["type"] == CORRECTION:
        text = f"{text}第{p['seq'] + 1}条" + (f"：{describe(p['command'])}" if p["command"] else "")
    line = f"[第{row.seq + 1}条] {clock(row.at)} {who(t, row.source)}：{text}"
    if row.seq in fixed:
        line += f"（已由第{fixed[row.seq].seq + 1}条{'重新计票' if fixed[row.seq].payload['command'] else '撤销'}）"
    if any(row.seq in c.payload.get("void", ()) for c in fixed.values()):
        line += "（更正后不再成立）"
    return line


PART = 3000  # characters of one message of the 树洞: QQ refuses messages much longer


async def treehole(t) -> list[str]:
    """The whole log (树洞) ready to post on the forum: the seed, every identity, every entry with who
    sent it, the result. Cut into messages of at most `PART` characters, at line ends."""
    rules = get_ruleset(t.row.ruleset)
    lines = [f"#{t.row.id} {t.row.title}（{t.row.ruleset}）", f"种子：{t.row.seed}（身份分配和每一次随机结果都由它决定）", "身份："]
    lines += [f"{s.seat}号 {s.name}：{identity(rules, s.role) if s.role else '未分配'}"
              + (f"（替补接手 {len(s.former_qq)} 次）" if s.former_qq else "") for s in t.seats]
    rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
    fixed = corrections(rows)
    if rows:
        lines.append("记录：")
    lines += [entry(t, row, fixed) for row in rows]
    if t.game and t.game.state.moons:  # "随机方式游戏结束后公示": how each event was drawn
        lines.append("新月：" + "；".join(f"第{m['day']}天 {m['event']}（{m['draw']}）" for m in t.game.state.moons))
    if t.game and t.game.state.winner:
        lines.append(f"结果：{t.game.state.winner}获胜")
    return _parts(forum_safe("\n".join(lines)).split("\n"))


def _parts(lines: list[str]) -> list[str]:
    parts, part = [], ""
    for line in lines:
        if part and len(part) + 1 + len(line) > PART:
            parts.append(part)
            part = line
        else:
            part = f"{part}\n{line}" if part else line
    parts.append(part)
    return parts if len(parts) == 1 else [f"【树洞 {i}/{len(parts)}】\n{p}" for i, p in enumerate(parts, 1)]
