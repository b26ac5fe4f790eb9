"""What the bot says that is not a rule's own words: briefs, help, status, the final log."""
from __future__ import annotations

import re
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

from engine import Game
from engine.discuz import discuz_code
from engine.ruleset import Ruleset

# The forum's time zone: every time the bot shows or reads is written in it (the posts' times are Beijing
# time). Set from BANSHABOT_TIMEZONE when the service starts.
_zone: tzinfo = ZoneInfo("Asia/Shanghai")


def use_zone(name: str) -> None:
    global _zone
    _zone = ZoneInfo(name)


def zone() -> tzinfo:
    return _zone


# What Discuz! turns into a link as it stores a post (function_post.php `parseurl`): a bare address
# starting with one of its schemes or "www.", not right after a letter, a digit, "]", "=", a quote or a
# slash (there it belongs to something else), followed by a character an address may hold.
BARE_URL = re.compile(r"""(?<![\]a-z0-9\-="'\\/])(?:(https?|ftp|gopher|news|telnet|rtsp|mms|callto|bctp|thunder|qqdl"""
                      r"""|synacast)://|(www)\.)(?=[a-z0-9/\-_+=.~!%@?#&;:$\\()|])""", re.IGNORECASE)


def forum_safe(text: str) -> str:
    """Text for the forum with every Discuz! code in it shown as written instead of applied (a tag's
    opening bracket becomes a full-width one, which Discuz! reads as text), and every bare address
    shown, not linked (its "://" or "www."'s dot full-width: the posts forbid 贴出网址): what the
    director pastes links, shows and hides nothing a player wrote. What counts as code:
    `engine.discuz.discuz_code`."""
    out, last = [], 0
    for at in discuz_code(text):
        out += (text[last:at], "［")
        last = at + 1
    bracketed = "".join(out) + text[last:]
    return BARE_URL.sub(lambda m: f"{m[1]}：//" if m[1] else f"{m[2]}．", bracketed)


# the answer to a message whose handling broke unexpectedly: nothing was done
TROUBLE = "抱歉，处理这条消息时出错了：它没有生效，游戏保持原样，导演已收到通知。请稍后再试，或联系导演。"
# what a bot started without directors answers anyone who would create a game (and logs at start-up)
NO_DIRECTORS = ("这个机器人还没有配置导演（SUPERUSERS 为空），现在没有人能创建游戏。"
                "管理员：在 .env 中写入 SUPERUSERS=[\"导演的QQ号\"]，然后重启机器人。")


def clock(at: datetime | None) -> str:
    return at.astimezone(_zone).strftime("%m-%d %H:%M") if at else "下一次开门"


def until(row) -> str:
    """When a stored time limit ends. One counted from a 关门 still to come has no time yet: "下一次开门"
    would be wrong (146's hunter voted out by day has until 30 minutes after 关门)."""
    if row.due_at is None and row.anchor == "close":
        return f"关门后{row.minutes}分钟" if row.minutes else "关门时"
    return clock(row.due_at)


def limit_name(row) -> str:
    """A stored time limit as people read it: whose decision, or what is published."""
    return f"{'、'.join(row.who)}<{row.what}>" if row.who else row.what


# the keys the engine gives its time limits, as the log (树洞) names them
_KEYS = (
    (re.compile(r"night(\d+):(.+):(.+)"), lambda m: f"第{m[1]}夜 {m[3]}<{m[2]}>"),
    (re.compile(r"公示:(.+):day(\d+)"), lambda m: f"第{m[2]}天公示<{m[1]}>"),
    (re.compile(r"(.+):(.+):(?:day|night|setup)\d+"), lambda m: f"{m[2]}<{m[1]}>"),
    (re.compile(r"(.+):day(\d+)"), lambda m: f"第{m[2]}天<{m[1]}>"),
    (re.compile(r"(.+):(.+)"), lambda m: f"{m[2]}<{m[1]}>"),
)


def key_name(key: str) -> str:
    """A time limit's key (`night1:预言:西瓜`, `遗言:果果`...) in words: no key is ever shown."""
    for pattern, words in _KEYS:
        if m := pattern.fullmatch(key):
            return words(m)
    return key


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
    limits = rules.deadline_rules or tuple(dict.fromkeys(limit.text for limit in rules.limits.values()))
    if shown.summary.endswith(NO_SKILLS):
        # nothing of his own to send: only the limits that may come to anyone (a sheriff's, last words)
        limits = tuple(text for text in limits if any(word in text for word in ANYONES))
        how = "私聊我发送“帮助”查看你现在能做什么，“状态”查看场上情况。"
    else:
        how = "私聊我发送“技能 目标”行动（目标写座位号或角色名，如“预言 3”），“放弃”放弃，“帮助”查看你现在能做什么，“状态”查看场上情况。"
    if limits:
        lines.append("行动时限：\n" + "\n".join(f"· {text}" for text in limits))
    lines.append(how)
    return "\n".join(lines)


NO_SKILLS = "没有技能"  # how a role's summary ends when its player has nothing of his own to send
ANYONES = ("警长", "遗言")  # a time limit that may come to any player: the sheriff's office, the last words


def identity(rules: Ruleset, role_name: str) -> str:
    """An identity as the director's table shows it: a hidden one with what its player is told."""
    role = rules.role(role_name)
    return role.name + (f"（隐藏身份，本人收到：{role.hidden_as}）" if role.hidden_as else "") + f"，{role.faction}"


def identity_table(rules: Ruleset, seats) -> str:
    """Every seat with its character, QQ and identity, for the director (and the final 树洞)."""
    return "\n".join(f"{s.seat}号 {s.name}（QQ {s.qq}）：{identity(rules, s.role)}" if s.role else f"{s.seat}号 {s.name}（QQ {s.qq}）：未分配"
                     for s in seats)


def seats_line(game: Game) -> str:
    return "、".join(f"{p.seat}号{p.name}{'' if p.alive else '（出局）'}" for p in game.state.players)


def phase_name(game: Game) -> str:
    """Where a game is, in words: 第2夜, 第3天, its end and who won."""
    s = game.state
    if s.phase == "setup":
        first = "关门进入第一夜" if game.rules.first_phase == "night" else "开门进入第一天"
        return f"游戏已开始，等待导演{first}"
    return {"night": f"第{s.night_no}夜", "day": f"第{s.day_no}天", "over": f"游戏已结束，{s.winner}获胜"}[s.phase]


def player_status(game: Game, name: str, closes: datetime | None = None) -> str:
    """`状态`: the phase (by day, its closing time), the seats, the offices, and the player's own cards."""
    s = game.state
    p = s.player(name)
    lines = [f"{phase_name(game)}。你是 {p.seat}号 {p.name}，{'存活' if p.alive else '已出局'}。", "座位：" + seats_line(game)]
    lines += game.office_lines()
    if s.phase == "day" and closes:
        lines.append(f"本日关门时间：{clock(closes)}")
    if cards := "、".join(f"{k}{v}张" for k, v in p.cards.items() if v):
        lines.append(f"你的牌：{cards}")
    return "\n".join(lines)


def director_status(game: Game, deadlines: list[tuple[str, str]]) -> str:
    """`deadlines`: each open time limit's name and end, as `limit_name` and `until` write them."""
    s = game.state
    lines = [f"阶段：{phase_name(game)}；" + "；".join(game.office_lines())]
    if s.carry.get("sped_up"):
        lines.append(f"进程已加速（第{s.carry['sped_up']['day']}天起）")
    for p in s.players:
        state = "存活" if p.alive else f"出局（{p.death[2]}）"
        cards = "".join(f"{k}{v}" for k, v in p.cards.items() if v)
        lines.append(f"{p.seat}号 {p.name}：{p.role}/{p.faction}/{state}{' ' + cards if cards else ''}")
    if s.phase == "night" and not s.night.resolved:
        waiting = game.rules.awaiting(game)
        lines.append("等待行动：" + ("、".join(f"{who}<{slot}>" for who, slot in waiting) or "已收齐，可结算"))
    for pending in s.pending:
        lines.append(f"等待决定：{pending.who}<{pending.skill}>")
    for what, ends in deadlines:
        lines.append(f"时限：{what} 截止 {ends}")
    return "\n".join(lines)
