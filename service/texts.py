"""What the bot says that is not a rule's own words: briefs, help, status, the final log."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from engine import Game
from engine.game import DISCUZ
from engine.ruleset import Ruleset

CHINA = timezone(timedelta(hours=8))


def forum_safe(text: str) -> str:
    """Text for the forum with every Discuz! code in it shown as written instead of applied (a tag's
    opening bracket becomes a full-width one): what the director pastes links, shows and hides
    nothing a player wrote."""
    return DISCUZ.sub(lambda tag: "［" + tag.group(0)[1:], text)


# the answer to a message whose handling broke unexpectedly: nothing was done
TROUBLE = "抱歉，处理这条消息时出错了：它没有生效，游戏保持原样，导演已收到通知。请稍后再试，或联系导演。"


def clock(at: datetime | None) -> str:
    return at.astimezone(CHINA).strftime("%m-%d %H:%M") if at else "下一次开门"


def until(row) -> str:
    """When a stored time limit ends. One counted from a 关门 still to come has no time yet: "下一次开门"
    would be wrong (146's hunter voted out by day has until 30 minutes after 关门)."""
    if row.due_at is None and row.anchor == "close":
        return f"关门后{row.minutes}分钟" if row.minutes else "关门时"
    return clock(row.due_at)


def brief(rules: Ruleset, game: Game, name: str) -> str:
    """The start-of-game message: character, identity as the player is told it, skills, limits."""
    p = game.state.player(name)
    role = rules.role(p.role)
    told = role.hidden_as or role.name
    shown = rules.role(told)
    lines = [
        f"【{rules.title}】你的角色：{p.seat}号 {p.name}",
        f"你的身份：{told}（{shown.faction}）",
        f"技能：{shown.summary}",
    ]
    lines.append("行动时限：\n" + "\n".join(f"· {limit.text}" for limit in rules.limits.values()))
    lines.append("私聊我发送“技能 目标”行动（目标写座位号或角色名，如“预言 3”），“放弃”放弃，“帮助”查看你现在能做什么，“状态”查看场上情况。")
    return "\n".join(lines)


def seats_line(game: Game) -> str:
    return "、".join(f"{p.seat}号{p.name}{'' if p.alive else '（出局）'}" for p in game.state.players)


def player_status(game: Game, name: str) -> str:
    s = game.state
    p = s.player(name)
    phase = {"setup": "游戏尚未开始", "night": f"第{s.night_no}夜", "day": f"第{s.day_no}天", "over": "游戏已结束"}[s.phase]
    lines = [f"{phase}。你是 {p.seat}号 {p.name}，{'存活' if p.alive else '已出局'}。", "座位：" + seats_line(game)]
    lines.append(f"警长：{s.sheriff or '无'}")
    return "\n".join(lines)


def director_status(game: Game, deadlines: list[tuple[str, str, str]]) -> str:
    s = game.state
    phase = {"setup": "未开始", "night": f"第{s.night_no}夜", "day": f"第{s.day_no}天", "over": f"已结束，{s.winner}获胜"}[s.phase]
    lines = [f"阶段：{phase}；警长：{s.sheriff or '无'}"]
    for p in s.players:
        state = "存活" if p.alive else f"出局（{p.death[2]}）"
        cards = "".join(f"{k}{v}" for k, v in p.cards.items() if v)
        lines.append(f"{p.seat}号 {p.name}：{p.role}/{p.faction}/{state}{' ' + cards if cards else ''}")
    if s.phase == "night" and not s.night.resolved:
        waiting = game.rules.awaiting(game)
        lines.append("等待行动：" + ("、".join(f"{who}<{slot}>" for who, slot in waiting) or "已收齐，可结算"))
    for pending in s.pending:
        lines.append(f"等待决定：{pending.who}<{pending.skill}>")
    for key, what, ends in deadlines:  # `ends`: as `until` writes it
        lines.append(f"时限：{what}（{key}）截止 {ends}")
    return "\n".join(lines)
