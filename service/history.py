"""The stored game log read as history: the commands a game is rebuilt from once corrections are
applied, each command in words, and the whole log (树洞) as the director posts it.

A correction (`撤销`, `重新计票`) is a log entry of its own, appended like any command: it names the
entry it takes back or replaces (a correction too: taking one back gives the log back what it
changed), the automatic entries (a time limit, a settlement) the new history no longer has, and the
players' acts whose grounds went with it (last words of a death that no longer happens...), each with
why and the grounds it was accepted on. Nothing is ever deleted: the 树洞 shows every entry, who made
it, who took it back and what no longer holds.
"""
from __future__ import annotations

from datetime import datetime

from engine import Act, Ballots, Breach, Card, Configure, FactionLoss, Moon, SpeedUp, Timeout
from engine.commands import Command, from_dict
from engine.commitment import deal_text, digest
from engine.lineup import seed_decides
from rulesets import get as get_ruleset

from .models import CommandRow
from .texts import clock, forum_safe, identity, key_name

CORRECTION = "Correction"
# what a director changes beside the game's commands (a 替补, the day's 关门时间): an entry of the log for
# the 树洞 to show, who made it, when, and what it was before; the game is never rebuilt from it
NOTE = "Note"
OPTIONS = {"moons": "新月设置"}  # a game's options, as the director's commands name them


def in_force(rows: list[CommandRow]) -> list[CommandRow]:
    """The corrections that hold, in log order: one taken back (`撤销`) by a later correction that holds
    does not. A correction names an earlier entry only, so the latest are settled first."""
    taken, held = set(), []
    for row in reversed(rows):
        if row.payload["type"] != CORRECTION or row.seq in taken:
            continue
        held.append(row)
        if row.payload["command"] is None:
            taken.add(row.payload["seq"])
    return held[::-1]


def replayed(rows: list[CommandRow], held: list[CommandRow] | None = None) -> list[tuple[CommandRow, Command]]:
    """Every entry as the corrections that hold read it (one taken back is left out), before any is
    found no longer to apply: what a correction replays to find that out."""
    fixed = {row.payload["seq"]: row.payload["command"] for row in (in_force(rows) if held is None else held)}
    out = []
    for row in rows:
        if row.payload["type"] in (CORRECTION, NOTE):
            continue
        payload = fixed.get(row.seq, row.payload) if row.seq in fixed else row.payload
        if payload is not None:
            out.append((row, from_dict(payload)))
    return out


def left_out(held: list[CommandRow]) -> tuple[set[int], dict[int, dict]]:
    """What the latest correction that holds found no longer applies: the automatic entries (a time
    limit, a settlement) and the acts whose grounds went with it (`moot`: seq -> why, and the grounds
    the act was accepted on, so that a later correction can give it back its effect). Each correction
    records all of them for the history it makes, so the latest one says it for the whole log."""
    if not held:
        return set(), {}
    last = held[-1].payload
    return set(last.get("void", ())), {m["seq"]: m for m in last.get("moot", ())}


def effective(rows: list[CommandRow]) -> list[tuple[CommandRow, Command]]:
    """The commands the game is: the entries as the corrections that hold read them, without those
    the latest correction found no longer apply. Every rebuild replays exactly these."""
    held = in_force(rows)
    void, moot = left_out(held)
    return [(row, cmd) for row, cmd in replayed(rows, held) if row.seq not in void and row.seq not in moot]


def describe(payload: dict) -> str:
    """A command in the director's words."""
    if payload["type"] == CORRECTION:
        return "重新计票" if payload["command"] else "撤销"
    if payload["type"] == NOTE:
        return _noted(payload)
    cmd = from_dict(payload)
    match cmd:
        case Act():
            return " ".join(part for part in (cmd.by, cmd.skill, cmd.shown_target, cmd.text) if part)
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


def note(what: str, old: str | None, new: str, **about) -> dict:
    """A log entry of a change beside the game's commands: `what` changed from `old` to `new`."""
    return {"type": NOTE, "what": what, "old": old, "new": new, **about}


def _noted(payload: dict) -> str:
    old, new = payload["old"], payload["new"]
    if payload["what"] == "关门时间":  # stored as ISO times: shown as the director types them
        return f"关门时间 {clock(datetime.fromisoformat(old)) if old else '未设定'} → {clock(datetime.fromisoformat(new))}"
    return f"替补 {payload['seat']}号 {payload['name']}：QQ {old} → QQ {new}"


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


def said(t, row: CommandRow) -> str:
    """What an entry says, with who sent it (a correction: which entry it takes back or replaces)."""
    p = row.payload
    text = describe(p)
    if p["type"] == "Act" and who(t, row.source).endswith(f"号 {p['by']}"):
        text = text.removeprefix(f"{p['by']} ")  # a player's own act: his name is the sender's
    if p["type"] == CORRECTION:
        text = f"{text}第{p['seq'] + 1}条" + (f"：{describe(p['command'])}" if p["command"] else "")
    return f"{who(t, row.source)}：{text}"


def entry(t, row: CommandRow, held: list[CommandRow], fixed: dict[int, CommandRow], void: set[int], moot: dict[int, dict]) -> str:
    """One entry of the log: its number (from 1: `seq` + 1), time, sender and content, and what became
    of it under the corrections that hold (`held`; `fixed`: the latest of them naming each entry;
    `void`, `moot`: what the latest found no longer applies)."""
    line = f"[第{row.seq + 1}条] {clock(row.at)} {said(t, row)}"
    if row.seq in fixed:
        line += f"（已由第{fixed[row.seq].seq + 1}条{'重新计票' if fixed[row.seq].payload['command'] else '撤销'}）"
    if row.seq in void:
        line += "（更正后不再成立）"
    elif row.seq in moot:
        line += f"（第{held[-1].seq + 1}条更正后不再成立：{moot[row.seq]['why']}；如该更正被撤销则恢复）"
    return line


def deal(t) -> str:
    """The deal's canonical text (engine/commitment.py): its hash is posted at 开始, the text itself in
    the 树洞. Identities as dealt, in seat order (a 替补 takes over a seat, never changes it)."""
    return deal_text(t.row.ruleset, t.row.seed, t.row.salt, [s.role for s in t.seats])


def deal_promise(t) -> str:
    """What the director posts at 开始, before anyone has acted: the deal's hash."""
    return (f"【可公示】发牌承诺：本局种子与身份表的 SHA-256 为 {digest(deal(t))}。游戏结束时在树洞中公布原文，"
            "任何人都可以用 sha256 或“python -m engine verify 哈希”核对，确认发牌在开局前已经确定。")


PART = 3000  # characters of one message of the 树洞: QQ refuses messages much longer


async def treehole(t) -> list[str]:
    """The whole log (树洞) ready to post on the forum: the seed, every identity, every entry with who
    sent it, the result. Cut into messages of at most `PART` characters, at line ends."""
    rules = get_ruleset(t.row.ruleset)
    lines = [f"#{t.row.id} {t.row.title}（{t.row.ruleset}）", f"种子：{t.row.seed}（{seed_decides(rules, [(s.name, s.role) for s in t.seats], t.row.seed)}）", "身份："]
    lines += [f"{s.seat}号 {s.name}：{identity(rules, s.role) if s.role else '未分配'}" + _became(t, s.name)
              + (f"（替补接手 {len(s.former_qq)} 次）" if s.former_qq else "") for s in t.seats]
    if t.row.salt and t.row.status != "roster":  # the deal whose hash was posted at 开始, to check it by
        lines += ["发牌原文（其 SHA-256 应与开始时公布的一致）：", *deal(t).split("\n")]
    rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
    held = in_force(rows)
    fixed = {c.payload["seq"]: c for c in held}
    void, moot = left_out(held)
    if rows:
        lines.append("记录：")
    lines += [entry(t, row, held, fixed, void, moot) for row in rows]
    if t.game and t.game.state.moons:  # "随机方式游戏结束后公示": how each event was drawn
        lines.append("新月：" + "；".join(f"第{m['day']}天 {m['event']}（{m['draw']}）" for m in t.game.state.moons))
    if t.game and t.game.state.deaths:  # each day's and night's result, in the order they went out
        lines.append("出局：" + "；".join(f"{_when(d)} {t.game.label(t.game.state.player(d['name']))}（{d['cause']}）"
                                          for d in t.game.state.deaths))
    if t.game and t.game.state.winner:
        lines.append(f"结果：{t.game.state.winner}获胜")
    return _parts(forum_safe("\n".join(lines)).split("\n"))


def _became(t, name: str) -> str:
    """The faction a player ended in, where it is not his identity's (宁采臣 found, a lover, a half-blood)."""
    p = t.game.state.player(name) if t.game else None
    role = get_ruleset(t.row.ruleset).role(p.role) if p else None
    return f" → {p.faction}" if role and p.faction != role.faction else ""


def _when(death: dict) -> str:
    return f"第{death['number']}{'夜' if death['phase'] == 'night' else '天'}"


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
