"""The director's commands for new-moon events (146): which events are in play, a draw made on the
forum, a breach of the day's event rule, and the day's private ballots."""
from __future__ import annotations

from engine import Ballots, Breach, Configure, Moon
from engine.typed import quoted
from rulesets.r146.moons import CHOICE

from .games import Service, Table

NONE_WORDS = ("无", "none", "关闭")


async def _submit(service: Service, t: Table, qq: str, cmd) -> tuple[bool, str]:
    outcome = await service.submit(t, cmd, source=f"director:{qq}")
    return outcome.ok, "已执行。" if outcome.ok else f"未执行：{outcome.error}"


def _in_play(t: Table) -> str:
    events = t.game.state.options.get("moons")
    if events is None:
        return "本局规则没有新月事件。"
    return "本局新月：" + ("、".join(events) if events else "无")


async def settings(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`新月设置` shows the events in play; `新月设置 无` / `新月设置 事件名 …` sets them before 开门."""
    if t.game is None:
        return "请先“开始”，再在第一次开门前设置新月。"
    if not rest:
        return _in_play(t) + "\n（第一次开门前可以发送“新月设置 无”或“新月设置 事件名 事件名 …”更改）"
    value = "none" if rest in NONE_WORDS else rest.split()
    # the events its post listed when it started (the engine's own answer for one it never had): one the
    # post added since is no choice of this game's
    kept = t.row.rules["choices"].get(CHOICE)
    if kept and value != "none" and (added := [name for name in value if name not in kept]):
        return f"未执行：没有这些新月事件：{'、'.join(added)}"
    ok, reply = await _submit(service, t, qq, Configure("moons", value))
    return reply + ("\n" + _in_play(t) if ok else "")


async def fix(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`新月 事件名 [起始角色]`: the next draw of that kind yields it; a draw still asked of its drawer was
    made on the forum and is made now."""
    parts = rest.split()
    if t.game is None or not 1 <= len(parts) <= 2:
        return "请发送“新月 事件名”（神秘的UFO 可以加起始角色：“新月 神秘的UFO 角色名”）"
    ok, reply = await _submit(service, t, qq, Moon(parts[0], parts[1] if len(parts) == 2 else None, drawn=True))
    return reply


async def breach(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`违规 角色`: the player broke the day's event rule (a ballot posted in the thread on a private day,
    无我无狼, 英语考试...): the post's consequence, and the card it gives for the director."""
    if t.game is None or not rest:
        return "请发送“违规 角色名”"
    return (await _submit(service, t, qq, Breach(rest)))[1]


def _ballots(t: Table) -> dict[str, tuple[str, str]]:
    g = t.game
    return dict(g.state.day.private_ballots) if g and g.phase == "day" else {}


async def private_list(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`私票`: the private ballots sent so far today, with their reasons."""
    g = t.game
    if g is None or g.phase != "day" or not g.state.day.private_votes:
        return "今天不是私聊投票日。"
    sent = _ballots(t)
    label = {p.name: g.label(p) for p in g.state.players}
    lines = [f"{label[v]} → {label.get(tg, tg)}：{why}" for v, (tg, why) in sent.items()]
    return f"第{g.state.day_no}天私聊投票：已收到 {len(sent)} 张（关门时自动计票，或发送“计票”现在计票）\n" + "\n".join(lines)


async def count(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`计票`: count today's private ballots now instead of at 关门."""
    sent = _ballots(t)
    if not sent:
        return "没有可计的私聊投票。"
    ok, reply = await _submit(service, t, qq, Ballots("exile", tuple((v, tg) for v, (tg, _) in sent.items()), whole=True))
    if not ok:
        return reply
    tally = t.game.state.tallies[-1]
    counts = "，".join(f"{quoted(k)} {v}票" for k, v in tally["counts"].items()) or "无有效票"
    return f"计票完成：{counts}；结果：{tally['result'] or '平票/无人'}"


COMMANDS = {"新月设置": settings, "新月": fix, "违规": breach, "私票": private_list, "计票": count}
