"""The director's private-chat commands. Every answer goes out through the outbox."""
from __future__ import annotations

import difflib
import logging
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Awaitable, Callable

from tortoise.transactions import in_transaction

from engine import Act, Ballots, Card, CloseDay, FactionLoss, OpenDay, ResolveNight, SpeedUp, Timeout
from engine import tie_pick
from engine.typed import number, quoted
from rulesets import RULESETS
from rulesets import get as get_ruleset

from . import accounts, corrections, desk, groups, handling, history, moons, parse, rule_posts, simulate
from .errors import ServiceError
from .games import Service, Table
from .models import CommandRow, DeadlineRow, GameDirectorRow, GameRow, SeatRow
from .texts import NO_DIRECTORS, brief, clock, director_status, identity_table, key_name, limit_name, until, zone

log = logging.getLogger(__name__)

HELP = """导演指令（私聊发送；多局同时进行时在指令前加“#编号 ”指定游戏）：
新游戏 规则 [标题] —— 规则：{rulesets}
规则帖 —— 之后换行粘贴一个规则帖文件（YAML），检查后添加为新的规则；也可以直接把 .yaml 文件发给我
名单 —— 之后每行“角色名 QQ号”，按电梯楼顺序
检查 —— 检查每名玩家是否已加我为好友
分配 随机 | 分配 固定（之后每行“角色名 身份”）
开始 —— 私聊每名玩家身份，分配队伍群
关门 / 开门 [关门时间，如 12-01 22:00]（不写时间则按规则的讨论日长短）/ 关门时间 12-01 22:00（更改今天的关门时间）
竞选 票 / 投票 票 —— 票：粘贴投票帖（首行写发帖角色名，可带“发表于 时间”），或“投票人:对象 …”
重新计票 [竞选|投票] 票 —— 用新的投票帖代替今天的计票（先显示变化，确认后执行）
撤销 / 撤销 编号 —— 列出本阶段导演的操作 / 撤销其中一条（先显示变化，确认后执行）；确认 / 取消
加速 [时间] 角色 角色 … —— 记录在进程帖申请加速的玩家；加速 强制 —— 导演执行加速；延时 [时间] 角色 …（规则有延时时）
发牌 蓝牌|黄牌|红牌 角色 / 免牌 角色（免除我因未投票自动记的牌：先显示变化，确认后执行）
替补 角色 新QQ号 / 协助 QQ号（添加协助导演）
账号 [QQ号] —— 本局由哪个机器人账号发送消息 / 改由另一个已连接的账号发送
代 角色 技能 [目标] —— 代玩家行动（覆盖）
超时 角色 —— 该角色进行中的时限立即到期
结算 —— 行动收齐后立即结算夜晚
判负 阵营 / 状态 / 日志 / 游戏
模拟 规则 局数 [种子] —— 模拟该规则的许多局（最多 5000），发来各阵营胜率表和图
群池 / 群池 添加 群号 [原群名] / 群池 移除 群号
新月（146）：新月设置 [无 | 事件名 …]（第一次开门前）/ 新月 事件名 [起始角色]（论坛上抽取的新月）/
违规 角色（违反当天新月规则：在投票帖投票的私聊投票日、无我无狼、英语考试…）/ 私票（今天的私聊投票）/ 计票（现在统计私聊投票）
网页 / 网页 重置 —— 本局导演网页的链接 / 让之前的链接失效；揭秘 公开 / 揭秘 撤回 —— 游戏结束后公开揭秘页"""

Friends = Callable[[], Awaitable[set[str]]]


@dataclass(frozen=True)
class QQSide:
    """What a command may ask OneBot: the bot's friends, a group's members, any other action at once
    (None: not available); and how its reply names the game, with several running."""

    friends: Friends
    members: groups.Members | None = None
    ask: groups.Ask | None = None
    which: str = ""
    # the same of another QQ account (a game's own, where the director wrote to another one)
    through: Callable[[str], "QQSide"] | None = None

    def of(self, account: str | None) -> "QQSide":
        """What a command asks OneBot about a game: its own account's friends and groups."""
        if account is None or self.through is None:
            return self
        return replace(self.through(account), which=self.which)

    def pool(self) -> tuple[groups.Members, groups.Ask]:
        """What checking the pool's groups needs; Unreachable without it."""
        if self.members is None or self.ask is None:
            raise groups.Unreachable()
        return self.members, self.ask


class Stored(str):
    """A reply stored with what the command did (sent with it): not to be queued again."""


# what a finished game still answers: reading it, and its directors' corrections (a wrong paste, 判负 or
# red card that ended it can be taken back: confirmed, the game goes on); every other command would change it
READ_ONLY = {"状态", "日志", "检查", *desk.COMMANDS}
CORRECTING = {"撤销", "重新计票", "确认", "取消"}
STATUS = {"roster": "筹备中", "running": "进行中", "over": "已结束"}
ANY_TIME = {"帮助", "导演帮助", "新游戏", "规则帖", "群池", "游戏", "模拟"}  # commands that need no game
NO_ONEBOT = "现在连不上QQ（OneBot），无法检查队伍群的成员：什么都没有改变，请稍后再发送。"


async def handle(service: Service, qq: str, text: str, friends: Friends, members: groups.Members | None = None,
                 ask: groups.Ask | None = None, through: Callable[[str], QQSide] | None = None) -> str | None:
    """Run one director command; returns the reply (None: not a director command; a `Stored` one
    is queued already).

    `members` reads a group's member list from OneBot (for 群池 添加 and 开始); `ask` calls any other
    action at once (a group's history setting, the friend requests QQ filtered)."""
    written, body = parse.game_prefix(text)
    chosen = None
    if written is not None:
        chosen = number(written, 9)
        if chosen is None:
            return f"没有编号为 #{quoted(written)} 的游戏"
    word, _, rest = body.partition("\n") if " " not in body.split("\n", 1)[0] else body.partition(" ")
    word, rest = word.strip(), rest.strip()
    if word not in COMMANDS and word not in ANY_TIME:
        # a director who also plays a running game sends his player's commands here; to anyone else it is a typo
        return None if await service.playing(qq) else unknown(word)
    if await _plays_it(service, qq, chosen, body):
        return None  # inside a game he plays, he is a player
    if len(body) > parse.DIRECTOR_LIMIT:
        return str(parse.TooLong(len(body), parse.DIRECTOR_LIMIT))
    try:
        return await _command(service, qq, word, rest, chosen, QQSide(friends, members, ask, through=through))
    except (ServiceError, parse.ParseError) as exc:
        return str(exc)
    except groups.Unreachable:
        return NO_ONEBOT
    except groups.NotChecked as exc:
        return str(exc)


async def _plays_it(service: Service, qq: str, chosen: int | None, body: str) -> bool:
    """Whether `body` is a player's command in a running game this QQ plays in: the game chosen with
    `#编号`, or any, unless the number names a game he directs."""
    if not service.players.get(qq) or (chosen is not None and any(r.id == chosen for r in _live(service, qq))):
        return False
    return any((chosen is None or t.row.id == chosen) and parse.is_player_word(body, t.game.rules)
               for t, seat in await service.playing(qq))


def unknown(word: str) -> str:
    """A director's message that is no command: said so, with the commands he most likely meant."""
    names = [*ANY_TIME, *COMMANDS]
    meant = difflib.get_close_matches(word, names, n=3, cutoff=0.5)
    meant += [c for c in sorted(names, key=len, reverse=True) if word.startswith(c) and c not in meant]
    guess = f"你是不是想发送：{'、'.join(f'“{c}”' for c in meant[:3])}？" if meant else ""
    return f"不认识的导演指令“{quoted(word[:20])}”。{guess}发送“帮助”查看全部导演指令。"


async def _command(service: Service, qq: str, word: str, rest: str, chosen: int | None, side: QQSide) -> str | None:
    if word in ("帮助", "导演帮助"):
        return HELP.format(rulesets="、".join(RULESETS))
    if word == "新游戏":
        if not service.superusers:
            return NO_DIRECTORS
        if qq not in service.superusers:
            return "只有配置的导演（SUPERUSERS）可以创建游戏"
        ruleset, _, title = rest.partition(" ")
        title = title.strip()
        if len(title) > parse.TITLE_LIMIT:
            return f"标题太长：{len(title)}字，最多{parse.TITLE_LIMIT}字。"
        row = await service.create(qq, ruleset.strip(), title)
        return f"已创建游戏 #{row.id}（{row.ruleset}）。下一步：发送“名单”，之后每行“角色名 QQ号”。"
    if word == "规则帖":
        return await rule_posts.add(service.superusers, qq, rest)
    if word == "群池":
        # the pool is the bot's, lent to every game: a co-director of one game has no say in it
        if qq not in service.superusers:
            return "只有配置的导演（SUPERUSERS）可以管理群池"
        return await _pool(service, rest, side)
    if word == "模拟":
        return await simulate.start(service, qq, rest)
    if word == "游戏":
        rows = await _mine(qq)
        return "\n".join(f"#{r.id} {r.title}（{r.ruleset}，{STATUS[r.status]}）" for r in rows) or "你还没有游戏"
    mine = _live(service, qq)
    t = await _current(service, qq, mine, chosen)
    if t is None and chosen is not None:
        return f"你没有编号为 #{chosen} 的游戏。发送“游戏”查看你的游戏和它们的编号。"
    if t is None:
        return "你没有进行中的游戏。发送“新游戏 规则”创建一局。"
    # with several games running, a bare command says which one it went to
    which = f"（#{t.row.id} {t.row.title}）" if chosen is None and len([r for r in mine if r.status != "over"]) > 1 else ""
    if t.row.status == "over" and word not in READ_ONLY | CORRECTING:
        return f"{which}未执行：游戏已经结束"
    if t.game is not None:
        service.sent_against(t)
    try:
        reply = await COMMANDS[word](service, t, qq, rest, replace(side.of(t.row.account), which=which))
        return reply if isinstance(reply, Stored) else which + reply
    except (ServiceError, parse.ParseError, groups.Unreachable, groups.NotChecked):
        raise
    except Exception as exc:
        # whatever broke, the game is as stored: the copy in memory may be half changed
        log.exception("director command %r of game %s failed", word, t.row.id)
        if service.tables.get(t.row.id) is t:
            service.tables.pop(t.row.id)
        return f"出错了：“{word}”没有执行，游戏保持原样（{type(exc).__name__}，详见日志）。请稍后再试。"
    finally:
        handling.current().against = None  # what comes next in this context is not this command


async def _mine(qq: str) -> list[GameRow]:
    """Every game this QQ directs, newest first (found through its own rows, not by reading every game)."""
    return await GameRow.filter(director_rows__qq=qq).order_by("-id")


def _live(service: Service, qq: str) -> list[GameRow]:
    """The games not over that this QQ directs, newest first (kept in memory: asked of every message)."""
    return sorted((r for r in service.live.values() if qq in r.directors and r.status != "over"), key=lambda r: -r.id)


async def _current(service: Service, qq: str, mine: list[GameRow], chosen: int | None) -> Table | None:
    """The game a command is for: of `mine` (his games not over, newest first), the newest or the one
    chosen; with none of those, a finished game of his (its 日志), asked of the database."""
    live = [r for r in mine if chosen is None or r.id == chosen]
    if not live:
        query = GameRow.filter(director_rows__qq=qq)
        row = await (query.filter(id=chosen) if chosen is not None else query.order_by("-id")).first()
        live = [row] if row else []
    return await service.table(live[0].id) if live else None


def _seat(t: Table, spec: str) -> SeatRow | None:
    """A seat by character name or seat number."""
    seat = number(spec, 3)
    return next((s for s in t.seats if s.name == spec or s.seat == seat), None)


def _lines(rest: str) -> list[tuple[str, str]]:
    """Lines of two words (`角色名 QQ号`, `角色名 身份`); a character's name is bounded in length."""
    pairs = []
    for line in rest.splitlines():
        parts = line.replace("，", " ").replace(",", " ").replace("：", " ").replace(":", " ").split()
        if not parts:
            continue
        if len(parts) != 2:
            raise ServiceError(f"这一行看不懂：“{quoted(line.strip())}”。每行应为两项，用空格分隔。")
        if len(parts[0]) > parse.NAME_LIMIT:
            raise ServiceError(f"角色名“{quoted(parts[0])}”太长：最多{parse.NAME_LIMIT}字。")
        pairs.append((parts[0], parts[1]))
    return pairs


def _roster_qq(name: str, text: str) -> str:
    qq = parse.qq_number(text)
    if qq is None:
        kind = "QQ号：QQ号是5到11位数字" if text.isdecimal() else "数字"
        raise ServiceError(f"“{name}”后面的QQ号“{quoted(text)}”不是{kind}")
    return qq


async def _roster(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    await service.set_roster(t, [(name, _roster_qq(name, given)) for name, given in _lines(rest)])
    return "名单已保存：\n" + "\n".join(f"{s.seat}号 {s.name} {s.qq}" for s in t.seats) + "\n下一步：“检查”，然后“分配 随机”。"


ONE_WAY = "只是单向好友：他加了我，我的好友列表里却没有他。请他删除我后重新添加（机器人账号的加好友方式不要设为“允许任何人”）"
FILTERED = "好友申请被QQ过滤了：请在QQ的“被过滤的好友申请”里通过"


async def _check(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    try:
        return await _unreached(service, t, side)
    except groups.Unreachable:  # what is read is the game's account's: the director waits for that one
        whose = f"本局账号 QQ {t.row.account}" if t.row.account else "QQ（OneBot）"
        return f"{whose}现在没有连接，读不到它的好友列表：请在它连上后再发送“检查”。"


async def _unreached(service: Service, t: Table, side: QQSide) -> str:
    """Who cannot be reached privately yet. Where OneBot offers them, the requests QQ filtered (they
    never arrive as events; NapCat, LLBot) are approved for the roster's players, and a player who is
    only a one-way friend (NapCat) is named as such."""
    doubts = await _offered(side, "get_doubt_friends_add_request", {"count": 100})
    friended = await _offered(side, "get_unidirectional_friend_list", {})
    filtered = {str(r.get("uin")): str(r.get("flag")) for r in doubts or []}
    one_way = {str(f.get("uin")) for f in friended or []}
    lines, approved = [], []
    if service.config.banshabot_friend_requests != "none":
        for s in t.seats:
            if s.qq in filtered:
                await side.ask("set_doubt_friends_add_request", {"flag": filtered.pop(s.qq), "approve": True})
                approved.append(s)
    if approved:
        lines.append("已通过被QQ过滤的好友申请：" + "、".join(f"{s.seat}号 {s.name}（{s.qq}）" for s in approved))
    have = await side.friends() | {s.qq for s in approved}
    missing = [s for s in t.seats if s.qq not in have]
    if not missing:
        return "\n".join([*lines, f"每名玩家都已加{accounts.me(service, t)}为好友，可以私聊。"])
    lines.append(f"以下玩家还没有加{accounts.me(service, t)}为好友，私聊可能失败：")
    lines += [f"{s.seat}号 {s.name}（{s.qq}）" + (f"：{ONE_WAY}" if s.qq in one_way else f"：{FILTERED}" if s.qq in filtered else "")
              for s in missing]
    unread = [what for what, got in (("被QQ过滤的好友申请", doubts), ("单向好友", friended)) if got is None]
    if unread:
        lines.append(f"（这个 OneBot 实现读不到{'和'.join(unread)}，以上只按好友列表检查。）")
    return "\n".join(lines)


async def _offered(side: QQSide, action: str, params: dict) -> list | None:
    """What an action OneBot may not offer answers (None: refused, not offered, or no way to ask)."""
    if side.ask is None:
        return None
    try:
        return await side.ask(action, params) or []
    except groups.Refused:
        return None


async def _assign(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    mode, _, lines = rest.partition("\n")
    if mode.strip() == "随机":
        await service.assign(t, None)
        return "已按种子随机分配身份（种子在游戏结束后的日志中公开）。发送“状态”查看，确认后发送“开始”。"
    if mode.strip() == "固定":
        await service.assign(t, _lines(lines))
        return "已按给定分配身份。发送“状态”查看，确认后发送“开始”。"
    return "请发送“分配 随机”，或“分配 固定”后每行“角色名 身份”。"


async def _start(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.row.status != "roster":
        raise ServiceError("游戏已经开始")
    if not t.seats or any(s.role is None for s in t.seats):
        raise ServiceError("请先分配身份（“分配 随机”或“分配 固定”）")
    if rest not in ("", "确认"):
        return "请发送“开始”（或“开始 确认”：名单里有人同时在另一局进行中的游戏里）"
    elsewhere = [(s, other) for s in t.seats for other, _ in await service.playing(s.qq) if other.row.id != t.row.id]
    if elsewhere and rest != "确认":
        return ("未开始：以下玩家正在另一局进行中的游戏里：\n"
                + "\n".join(f"{s.seat}号 {s.name}（QQ {s.qq}）在 #{other.row.id} {other.row.title}" for s, other in elsewhere)
                + "\n两局同时进行时，他们私聊我的每条消息都要以“#编号 ”开头。请用“名单”换人，或发送“开始 确认”让他们同时参加。")
    await _pool_checked(service, t, side)
    rules = get_ruleset(t.row.ruleset)
    first = "关门" if rules.first_phase == "night" else "开门"
    # the ruleset's own start skills (M131's 认亲, 146's 丘比特之箭; 154 has none)
    starts = "、".join(s.name for s in rules.skills.values() if s.when == "start")
    wait = f"开局技能（如{starts}）收齐后，" if starts else ""
    reply = (f"{side.which}游戏已开始，每名玩家都已收到身份。{wait}发送“{first}”进入第一个{'夜晚' if first == '关门' else '白天'}。\n"
             "身份表：\n" + identity_table(rules, t.seats))
    notes = [(to, f"注意：#{other.row.id} 的 {other.seat_by_qq(s.qq).name}（QQ {s.qq}）也在 #{t.row.id} {t.row.title} 中有角色，"
                  "他私聊我的消息会以“#编号 ”开头。") for s, other in elsewhere for to in await service.addresses(other, "director")]
    notes += [(("private", s.qq), f"你同时在 #{other.row.id} 和 #{t.row.id} 中有角色：私聊我时请在消息前加“#编号 ”，"
                                  f"如“#{t.row.id} 帮助”。") for s, other in elsewhere]
    # the reply, with its identity table, is stored with the start: a crash cannot lose it
    await service.start(t, [*notes, (("private", qq), reply)])
    return Stored(reply)


async def _submit(service: Service, t: Table, qq: str, cmd) -> str:
    outcome = await service.submit(t, cmd, source=f"director:{qq}")
    return "已执行。" if outcome.ok else f"未执行：{outcome.error}"


async def _pool_checked(service: Service, t: Table, side: QQSide) -> None:
    """Before any group is lent: every free pool group holds nobody but the bot."""
    for note in await groups.before_lending(service, *side.pool(), t.row.id, t.row.account):
        await service.tell_directors(t, note)


async def _first_phase_lends(service: Service, t: Table, side: QQSide) -> None:
    """Where the teams are formed only when the first phase opens (146's, after the lovers), their groups
    are lent then: the free pool groups are checked then, as at a start."""
    if t.game is not None and t.game.phase == "setup" and not t.game.rules.teams_known_when_dealt:
        await _pool_checked(service, t, side)


async def _close(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    await _first_phase_lends(service, t, side)
    return await _submit(service, t, qq, CloseDay())


def _clock_text(text: str) -> str:
    """A time as a director may type it ("12/05 22：00", full-width digits) in the bot's own form ("12-05 22:00")."""
    text = " ".join(unicodedata.normalize("NFKC", text).split())
    return re.sub(r"^(\d{1,2})[/.月](\d{1,2})日?(?=\s)", r"\1-\2", text)


def _when(text: str, now: datetime) -> datetime:
    local = now.astimezone(zone())
    text = _clock_text(text)
    for fmt in ("%m-%d %H:%M", "%H:%M"):
        try:
            parsed = datetime.strptime(text, fmt)
        except ValueError:
            continue
        at = local.replace(hour=parsed.hour, minute=parsed.minute, second=0, microsecond=0)
        if fmt.startswith("%m"):
            at = at.replace(month=parsed.month, day=parsed.day)
        elif at <= local:
            at += timedelta(days=1)
        return at
    raise ServiceError(f"看不懂时间“{quoted(text)}”，请写成“12-01 22:00”或“22:00”")


def _proposed_close(service: Service, t: Table) -> datetime | None:
    """讨论日长短: when the day about to open closes by the post's rule (None: the post sets none)."""
    length = t.game.rules.day_length if t.game else None
    if length is None:
        return None
    local = service.now().astimezone(zone())
    day, minutes = length.closes(local.date(), t.game.state.day_no + 1)
    return datetime(day.year, day.month, day.day, minutes // 60, minutes % 60, tzinfo=zone())


async def _open(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    # a closing time belongs to one day: the director's, or the post's day length. It is stored with the
    # 开门 (the engine's limits count from it) and only if the 开门 is accepted.
    planned = _when(rest, service.now()) if rest else _proposed_close(service, t)
    await _first_phase_lends(service, t, side)
    before, ok = t.row.planned_close, False
    t.row.planned_close = planned
    try:
        outcome = await service.submit(t, OpenDay(), source=f"director:{qq}")
        ok = outcome.ok
    finally:
        if not ok:
            t.row.planned_close = before
    if not ok:
        return f"未执行：{outcome.error}"
    if rest:
        return f"已执行。本日关门时间：{clock(t.row.planned_close)}"
    if t.row.planned_close is None:
        return "已执行。本局规则没有规定讨论日长短：请发送“关门时间 12-01 22:00”设定今天的关门时间（时限从它起算）。"
    return (f"已执行。本日关门时间（按规则：{t.game.rules.day_length.text}）：{clock(t.row.planned_close)}。"
            "需要更改请发送“关门时间 12-01 22:00”。")


async def _closing_time(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    """`关门时间 12-03 22:00`: today's closing time; the limits counted from it move with it."""
    if t.game is None or t.game.phase != "day":
        return "只有白天可以设定当天的关门时间。"
    if not rest:
        return f"本日关门时间：{clock(t.row.planned_close) if t.row.planned_close else '未设定'}。更改请发送“关门时间 12-01 22:00”。"
    planned = _when(rest, service.now())
    async with t.lock:
        before = t.row.planned_close
        t.row.planned_close = planned
        try:
            async with in_transaction():
                await t.row.save()
                seq = await _noted(service, t, qq, history.note("关门时间", before and before.isoformat(), planned.isoformat()))
        except BaseException:
            t.row.planned_close = before
            raise
        _logged(t, qq, seq)
        await corrections.retime_from_close(service, t)
    return f"本日关门时间改为 {clock(planned)}，从关门起算的时限随之调整。"


def _change_rules(service: Service, t: Table) -> parse.ChangeRules:
    """What the post says about 改票 today, as the times of pasted posts (local, naive) are checked."""
    g, rules = t.game, t.game.rules
    cutoff = None
    if rules.change_cutoff and t.row.planned_close:
        cutoff = (t.row.planned_close - timedelta(minutes=rules.change_cutoff.count)).astimezone(zone()).replace(tzinfo=None)
    sped = g.state.carry.get("sped_up") if rules.speed_up_voids_changes else None
    until = None
    delayed = g.state.carry.get("delayed")
    if not sped and rules.speed_up_voids_changes and delayed and delayed["day"] == g.state.day_no and delayed["sped_up"]:
        # "延迟成功时，不再视为“执行加速”状态": today's changes posted while the game was still sped up stay void
        sped, until = delayed["sped_up"], datetime.fromisoformat(delayed["at"]) if delayed["at"] else None
    at = datetime.fromisoformat(sped["at"]) if sped and sped["at"] else None
    return parse.ChangeRules(cutoff=cutoff, cutoff_text=rules.change_cutoff.text if rules.change_cutoff else "",
                             sped_up=at, all_void=bool(sped) and (sped["day"] < g.state.day_no or at is None),
                             sped_up_until=until)


def _paste(service: Service, t: Table, kind: str, rest: str) -> tuple[Ballots, str]:
    """A paste read into the day's ballots, and what the director must know of it."""
    counted = parse.votes(rest, [s.name for s in t.seats], _change_rules(service, t))
    notes = [f"无效：{f}" for f in counted.flagged] + [f"注意：{n}" for n in counted.notes]
    return Ballots(kind, tuple(counted.ballots), tuple(counted.changed), tuple(counted.voided), whole=True), "\n".join(notes)


async def _ballots(kind: str, service: Service, t: Table, qq: str, rest: str) -> str:
    ballots, notes = _paste(service, t, kind, rest)
    outcome = await service.submit(t, ballots, source=f"director:{qq}")
    if not outcome.ok:
        return f"未计票：{outcome.error}" + (f"\n{notes}" if notes else "")
    return _counted(t) + (f"\n{notes}" if notes else "")


def _counted(t: Table) -> str:
    g = t.game
    tally = g.state.tallies[-1]
    label = {p.name: g.label(p) for p in g.state.players}
    ranked = sorted(tally["counts"].items(), key=lambda c: (-c[1], g.state.player(c[0]).seat))
    counts = "、".join(f"{label[name]} {n}票" for name, n in ranked) or "无有效票"
    pk = g.state.day.pk.get(tally["kind"]) if g.state.day else None
    if pk and tally["result"] is None and g.state.day.counted.count(tally["kind"]) == 1:
        word = "竞选" if tally["kind"] == "election" else "投票"
        return (f"计票完成：{counts}；结果：平票，{'、'.join(label[n] for n in pk)} 进入PK。可公示的计票结果与PK说明见上；"
                f"PK的投票结束后，请发送“{word}”加PK的投票帖计票。")
    picker = next((q.who for q in g.state.pending if q.skill == tie_pick.PICK), None)
    if picker and tally["result"] is None:
        return (f"计票完成：{counts}；结果：平票，由警长 {label[picker]} 决定谁出局（已私聊他）。可公示的计票结果见上；"
                "他的决定会通知你。当天结束（关门）会结束他的时限（未决定则无人出局），请等他决定或时限过后再关门。")
    return f"计票完成：{counts}；结果：{label.get(tally['result'], '平票或无票，无人')}。可公示的计票结果见上。"


async def _recount(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    """`重新计票 [竞选|投票] 票`: the day's count replaced by a new paste, once confirmed."""
    if t.game is None:
        return "游戏还没有开始"
    word, _, body = rest.partition("\n") if " " not in rest.split("\n", 1)[0] else rest.partition(" ")
    kind = {"竞选": "election", "投票": "exile"}.get(word.strip())
    if kind is None:
        body = rest
    if not body.strip():
        return "请发送“重新计票”加新的投票帖（可写“重新计票 竞选”或“重新计票 投票”指定哪一次计票）。"
    ballots, notes = _paste(service, t, kind or "exile", body)
    return await corrections.propose_recount(service, t, qq, kind, ballots) + (f"\n{notes}" if notes else "")


async def _undo(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.game is None:
        return "游戏还没有开始，没有可以撤销的操作。"
    if not rest:
        return await corrections.listing(t)
    seq = number(rest.removeprefix("第").removesuffix("条"), 9)
    if seq is None:
        return "请发送“撤销 编号”（编号见“撤销”列出的操作）。"
    return await corrections.propose_undo(service, t, qq, seq)


async def _excuse(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.game is None:
        return "游戏还没有开始"
    seat = _seat(t, rest.strip())
    if seat is None:
        return "请发送“免牌 角色”（今天因未投票被记牌的玩家，座位号或角色名）"
    return await corrections.propose_excuse(service, t, qq, seat.name)


async def _confirm(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return await corrections.confirm(service, t, qq, side)


async def _cancel(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return corrections.cancel(t)


def _asked_at(text: str, now: datetime) -> tuple[str | None, str]:
    """An optional time first (when the speed-up passed on the forum), and the rest."""
    first, _, others = text.partition(" ")
    if re.fullmatch(r"\d{1,2}-\d{1,2}", first):  # "12-02 18:05"
        second, _, others = others.partition(" ")
        first = f"{first} {second}"
    elif ":" not in first and "：" not in first:
        return None, text
    local = now.astimezone(zone())
    for fmt in ("%m-%d %H:%M", "%H:%M"):
        try:
            parsed = datetime.strptime(first.replace("：", ":"), fmt)
        except ValueError:
            continue
        at = local.replace(hour=parsed.hour, minute=parsed.minute, second=0, microsecond=0)
        if fmt.startswith("%m"):
            at = at.replace(month=parsed.month, day=parsed.day)
        return at.replace(tzinfo=None).isoformat(), others
    raise ServiceError(f"看不懂时间“{quoted(first)}”，请写成“18:05”或“12-02 18:05”")


async def _speed_up(service: Service, t: Table, qq: str, rest: str, side: QQSide, delay: bool = False) -> str:
    """`加速 [时间] 角色 …`: who asked for a speed-up in the thread; `加速 强制`: the director's own.
    `延时 [时间] 角色 …`: who asked for 延时, where the post has it."""
    if t.game is None:
        return "游戏还没有开始"
    word, rules = ("延时" if delay else "加速"), t.game.rules
    at, names = _asked_at(rest.strip(), service.now())
    at = at or service.now().astimezone(zone()).replace(tzinfo=None, second=0, microsecond=0).isoformat()
    specs = names.replace("、", " ").replace("，", " ").replace(",", " ").split()
    forced = specs == ["强制"]
    if not specs:
        return (f"请发送“{word} 角色 角色 …”（在进程帖申请{word}的玩家，座位号或角色名）"
                + ("。" if delay else "，导演执行加速请发送“加速 强制”。"))
    if rules.asks_cutoff and t.row.planned_close and not forced:
        # "当日申请人数在讨论日结束三个小时前……大于等于存活人数的一半": later requests do not count
        limit = (t.row.planned_close - timedelta(minutes=rules.asks_cutoff.count)).astimezone(zone())
        if datetime.fromisoformat(at) > limit.replace(tzinfo=None):
            return (f"未执行：{word}申请须在 {clock(limit)} 前（本日关门 {clock(t.row.planned_close)}）："
                    f"“{rules.asks_cutoff.text}”如果这些申请是在那之前发的，请写上时间：“{word} {limit:%H:%M} 角色 …”。")
    extended = corrections.delayed_today(t.game)
    outcome = await service.submit(t, SpeedUp(() if forced else tuple(specs), forced=forced, at=at, delay=delay),
                                   source=f"director:{qq}")
    if not outcome.ok:
        return f"未执行：{outcome.error}"
    if delay:
        moves = corrections.delayed_today(t.game) - extended
        if not moves:
            return NOT_YET.format(word=word)
        if not t.row.planned_close:
            return "已执行。"
        # "一般讨论日持续一天": the day is extended by one day (docs/rules-M131.md, Ambiguity 23)
        async with t.lock:
            before = t.row.planned_close
            await corrections.move_close(service, t, moves)
            async with in_transaction():
                await t.row.save()
                seq = await _noted(service, t, qq, history.note("关门时间", before.isoformat(), t.row.planned_close.isoformat()))
            _logged(t, qq, seq)
        return f"已执行。本日关门时间延后一天，改为 {clock(t.row.planned_close)}（可用“关门时间”更改）。"
    if not t.game.state.carry.get("sped_up"):
        return NOT_YET.format(word=word)
    window = rules.speech_window(t.game)
    if window is None:
        return "已执行。"
    # 146's 英语考试: "自讨论日开门时至开门后6小时（若进程已加速则为3小时）" — from today's 开门
    what, minutes = window
    opened = next(row.at for row in reversed(await CommandRow.filter(game_id=t.row.id).order_by("seq"))
                  if row.payload["type"] == "OpenDay")
    return (f"已执行。进程已加速：今天的{what}时段改为 {clock(opened)} 至 {clock(opened + service._minutes(minutes))}"
            f"（开门后{minutes // 60}小时），请在讨论帖公示。")


# the answer to requests recorded that are not enough yet (the count of them is told just before)
NOT_YET = "已记录，{word}尚未通过。"


async def _delay(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return await _speed_up(service, t, qq, rest, side, delay=True)


async def _election(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return await _ballots("election", service, t, qq, rest)


async def _exile(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return await _ballots("exile", service, t, qq, rest)


async def _card(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    parts = rest.split()
    if len(parts) != 2 or parts[0] not in ("蓝牌", "黄牌", "红牌"):
        return "请发送“发牌 蓝牌|黄牌|红牌 角色名”"
    return await _submit(service, t, qq, Card(parts[0], parts[1]))


async def _replace(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    parts = rest.split()
    new_qq = parse.qq_number(parts[1]) if len(parts) == 2 else None
    if new_qq is None:
        return "请发送“替补 角色名 新QQ号”"
    seat = _seat(t, parts[0])
    if seat is None:
        return f"没有角色“{quoted(parts[0])}”"
    limit = get_ruleset(t.row.ruleset).substitutes
    if limit and len(seat.former_qq) >= limit.count:
        return f"{seat.seat}号 {seat.name} 已经更换过替补。本局规则：{limit.text}"
    if any(s.qq == new_qq for s in t.seats):
        return f"QQ {new_qq} 已经在本局游戏中"
    old, former = seat.qq, list(seat.former_qq)
    async with t.lock:  # not while a command of the game is being applied and addressed
        # the seat changes first, in memory too: the messages below are addressed from it
        seat.former_qq, seat.qq = [*former, old], new_qq
        seq = None
        try:
            async with in_transaction():
                await seat.save()
                await service.queue(("private", old), f"你的角色 {seat.name} 已由替补接手，你不再能以该角色行动。", t.row.id)
                if t.game:
                    await service.queue(("private", new_qq), "你作为替补接手了本局角色。\n" + brief(t.game.rules, t.game, seat.name), t.row.id)
                    await groups.replaced(service, t, seat.name, old)
                    seq = await _noted(service, t, qq, history.note("替补", old, new_qq, seat=seat.seat, name=seat.name))
        except BaseException:
            seat.former_qq, seat.qq = former, old
            raise
        if seq is not None:
            _logged(t, qq, seq)
    await service.delivered()
    return f"{seat.seat}号 {seat.name} 由 {new_qq} 接手（原 {old}）。" + await _friend_note(side, new_qq)


async def _noted(service: Service, t: Table, qq: str, payload: dict) -> int:
    """A director's change beside the game's commands, stored in its log (树洞) inside the transaction
    that makes it (the game's lock held): its number in the log, for `_logged` once stored."""
    seq = t.next_seq
    await CommandRow.create(game_id=t.row.id, seq=seq, payload=payload, source=f"director:{qq}", at=service.now())
    return seq


def _logged(t: Table, qq: str, seq: int) -> None:
    """The log entry `seq` of director `qq` is stored: the game's log is one longer."""
    t.next_seq = seq + 1
    t.directed[qq] = seq


async def _friend_note(side: QQSide, qq: str) -> str:
    """Whether the bot can chat with `qq` privately: a QQ that is not its friend may never get his messages."""
    try:
        friends = await side.friends()
    except Exception:  # the change is made: the director hears the check could not be done, not an error
        log.warning("friend list not readable after 替补", exc_info=True)
        return "\n现在读不到我的好友列表：请稍后发送“检查”确认新QQ已加我为好友。"
    return "" if qq in friends else f"\n注意：QQ {qq} 还没有加我为好友，私聊可能失败：请让他加我为好友（可发送“检查”核对）。"


async def _assist(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    helper = parse.qq_number(rest)
    if helper is None:
        return "请发送“协助 QQ号”"
    if helper not in t.row.directors:
        directors = [*t.row.directors, helper]
        await GameRow.filter(id=t.row.id).update(directors=directors)
        t.row.directors = directors
    return f"{helper} 已成为 #{t.row.id} 的协助导演。"


async def _status(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.game is None:
        roster = "\n".join(f"{s.seat}号 {s.name} {s.qq} {s.role or '未分配'}" for s in t.seats) or "（尚无名单）"
        return f"#{t.row.id} {t.row.title}：筹备中{accounts.shown(service, t)}\n{roster}"
    deadlines = [(limit_name(d), until(d)) for d in await service.open_deadlines(t)]
    return f"#{t.row.id} {t.row.title}{accounts.shown(service, t)}\n" + director_status(t.game, deadlines)


async def _proxy(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    name, _, command = rest.partition(" ")
    if t.game is None or not command:
        return "请发送“代 角色名 技能 [目标]”"
    seat = _seat(t, name)
    if seat is None:
        return f"没有角色“{quoted(name)}”"
    act = parse.player_text(command, t.game.rules, seat.name)
    if not isinstance(act, Act):
        return "代行动只接受技能、放弃、遗言、投降"
    return await _submit(service, t, qq, act)


async def _timeout(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.game is None:
        return "游戏还没有开始"
    seat = _seat(t, rest)
    rows = await DeadlineRow.filter(game_id=t.row.id, done=False)
    keys = {r.key: limit_name(r) for r in rows if (seat and seat.name in r.who) or r.key == rest}
    if seat and t.game.phase == "night" and not t.game.night.resolved:
        keys.update((t.game.night_key(who, slot), f"{who}<{slot}>") for who, slot in t.game.rules.awaiting(t.game) if who == seat.name)
    done = []
    for key, name in keys.items():
        if (await service.submit(t, Timeout(key), source=f"director:{qq}")).ok:
            done.append(name or key_name(key))
    return ("已按时限到期处理：" + "、".join(done)) if done else f"“{quoted(rest)}”没有进行中的时限"


async def _resolve(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    return await _submit(service, t, qq, ResolveNight())


async def _lose(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    if t.game is None:
        return "游戏还没有开始"
    factions = t.game.rules.factions(t.game)
    if rest not in factions:
        return f"本局没有“{quoted(rest)}”。请发送“判负 阵营”，阵营：{'、'.join(factions)}"
    return await _submit(service, t, qq, FactionLoss(rest))


async def _log(service: Service, t: Table, qq: str, rest: str, side: QQSide) -> str:
    """The whole log (树洞), ready to post: all but its last message go out first, in order."""
    *first, last = await history.treehole(t)
    for part in first:
        await service.queue(("private", qq), part, t.row.id)
    return last


async def _pool(service: Service, rest: str, side: QQSide) -> str:
    parts = rest.split(maxsplit=2)
    if not parts:
        rows = await groups.pool()
        return "群池：\n" + ("\n".join(f"{g.group_id} {g.original_name} {_lent(g)}" for g in rows) or "（空）")
    group = parse.qq_number(parts[1]) if len(parts) >= 2 else None
    if parts[0] == "添加" and group:
        name = parts[2] if len(parts) > 2 else ""
        if len(name) > parse.TITLE_LIMIT:
            return f"原群名太长：{len(name)}字，最多{parse.TITLE_LIMIT}字。"
        return await groups.enter_pool(service, group, name, *side.pool())
    if parts[0] == "移除" and len(parts) == 2 and group:
        return f"群 {group} " + await groups.remove_from_pool(group)
    return "请发送“群池”、“群池 添加 群号 [原群名]”或“群池 移除 群号”"


def _lent(g) -> str:
    """Which game's team holds a pool group, or that it is free."""
    return f"使用中（#{g.game_id} {g.team}）" if g.game_id else "空闲"


COMMANDS = {
    "名单": _roster, "检查": _check, "分配": _assign, "开始": _start, "关门": _close, "开门": _open,
    "竞选": _election, "投票": _exile, "发牌": _card, "替补": _replace, "协助": _assist, "状态": _status,
    "代": _proxy, "超时": _timeout, "结算": _resolve, "判负": _lose, "日志": _log,
    "关门时间": _closing_time, "加速": _speed_up, "延时": _delay, "撤销": _undo, "重新计票": _recount, "确认": _confirm, "取消": _cancel,
    "免牌": _excuse, "账号": accounts.move,
    **moons.COMMANDS, **desk.COMMANDS,
}


async def is_director(service: Service, qq: str) -> bool:
    """A configured director, a co-director of a game not over, or, unless he plays in a running game (his
    messages are a player's then), a co-director of a finished one: its 日志 and its corrections stay his."""
    if qq in service.superusers or _live(service, qq):
        return True
    if service.players.get(qq):
        return False
    return await GameDirectorRow.filter(qq=qq).exists()
