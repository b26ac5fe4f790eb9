"""Shared pieces of the nonebug bot tests: fake OneBot events, expected calls, a ready game.

Everything the bot says reaches OneBot as `send_private_msg` / `send_group_msg` with one plain text
segment; `says` and `posts` declare such a call with its exact text, in the order the bot must make
it (nonebug matches calls in order and the whole params dict).
"""
from __future__ import annotations

import asyncio
import itertools
from contextlib import asynccontextmanager
from typing import Iterable

import nonebot
from nonebot.adapters.onebot.v11 import (
    Adapter,
    Bot,
    FriendRequestEvent,
    GroupDecreaseNoticeEvent,
    GroupIncreaseNoticeEvent,
    GroupMessageEvent,
    GroupRequestEvent,
    Message,
    MessageSegment,
    PrivateMessageEvent,
)
from nonebot.adapters.onebot.v11.event import Sender

BOT_ID = "99999"
DIRECTOR = 10000
CO_DIRECTOR = 10002
STRANGER = 55555
GROUP = 900001
GROUP_NAME = "闲聊群"
TITLE = "[M131]粽子"

# seat order = 电梯楼 order: (name, QQ, identity)
PLAYERS = [
    ("果果", 20001, "狼人"),
    ("橘子", 20002, "狼人"),
    ("香蕉", 20003, "狼人"),
    ("葡萄", 20004, "感染白痴"),
    ("西瓜", 20005, "预言家"),
    ("柠檬", 20006, "女巫"),
    ("草莓", 20007, "乌鸦"),
    ("芒果", 20008, "锈盾守卫"),
    ("桃子", 20009, "混血儿"),
    ("菠萝", 20010, "村民"),
    ("樱桃", 20011, "村民"),
    ("荔枝", 20012, "村民"),
    ("龙眼", 20013, "村民"),
]
QQ = {name: qq for name, qq, _ in PLAYERS}
SEAT = {name: i for i, (name, _, _) in enumerate(PLAYERS, 1)}
WOLVES = ["果果", "橘子", "香蕉", "葡萄"]
ROSTER_TEXT = "名单\n" + "\n".join(f"{name} {qq}" for name, qq, _ in PLAYERS)
FIXED_TEXT = "分配 固定\n" + "\n".join(f"{name} {role}" for name, _, role in PLAYERS)

# the director's answer to 开始: what to do next, and the identity table
STARTED = ("游戏已开始，每名玩家都已收到身份。开局技能（如认亲）收齐后，发送“关门”进入第一个夜晚。\n身份表：\n"
           + "\n".join(f"{i}号 {name}（QQ {qq}）：{role}，{'狼人阵营' if role in ('狼人', '感染白痴') else '村民阵营'}"
                       for i, (name, qq, role) in enumerate(PLAYERS, 1)))

# 讨论日长短: "一般讨论日持续一天，本局周末不延时" — opened 12-01, the day closes 12-02 21:00
# the 开门 post ends with the day's closing time ("投票帖与讨论日一同开门，一同关门"), as proposed
CLOSES = "\n\n[b]本日关门时间[/b]\n12-02 21:00"
PROPOSED_CLOSE = ("已执行。本日关门时间（按规则：一般讨论日持续一天，本局周末不延时（讨论日结束三个小时前一般为最后一个自然日的18:00））："
                  "12-02 21:00。需要更改请发送“关门时间 12-01 22:00”。")

# what the elected sheriff is told of his office ("成为警长的角色将收到告知")
SHERIFF = "你当选了警长。<带队>：你的投票计为1.5票。<殉职>：你非因红牌出局后可以选择一名未出局的角色继任警长（发送“殉职 座位号”，或“殉职 撕”撕毁警徽）。"

STRANGER_TEXT = "你好！你不在任何进行中的版杀游戏里，我只为本局玩家和导演服务。如需参加，请联系导演。"

# the post's time limits, as every brief lists them
LIMITS = (
    "行动时限：\n"
    "· 警长被投票出局时需要发动技能；夜晚预言家、女巫、乌鸦、锈盾守卫需要发动技能。在关门时间段，无法与导演取得联系，且提前未与导演说明自己的在线情况者，记一张黄牌，情况分为以下数种。\n"
    "· 警长被投票出局或在第一夜出局，关门三十分钟后仍未与导演取得联系，视为放弃移交警长。\n"
    "· 关门一个小时后，预言家、女巫、乌鸦、锈盾守卫未与导演取得联系，视为放弃夜晚行动。狼队在关门一个小时后仍未提交刀人目标，视为放弃出刀，这个时间也可能根据女巫、锈盾守卫的需求提前。\n"
    "· 女巫<通灵>、锈盾守卫<最后的守护>收到反馈后半小时，仍未给导演答复，视为放弃技能行使。\n"
    "· 在次日游戏日开始前，有遗言权利的出局玩家未提交遗言，视为放弃遗言。"
)
HOW_TO = "私聊我发送“技能 目标”行动（目标写座位号或角色名，如“预言 3”），“放弃”放弃，“帮助”查看你现在能做什么，“状态”查看场上情况。"
SUMMARY = {
    "狼人": "夜晚与狼群共同<杀人>；除竞选日外的白天可以<自爆>",
    "感染白痴": "与狼人共群；<假痴不癫>：被投票出局后狼群下一夜获得附加刀或查验；可以<自爆>",
    "村民": "没有技能",
    "预言家": "夜晚<预言>一名角色的阵营",
    "女巫": "<通灵>得知被指杀的角色；<救药>（限定，不能自救）；<毒药>（限定）；同一夜不能同时使用",
    "乌鸦": "夜晚<诽谤>一名角色，其下一个游戏日的放逐投票多计一票；不能连续两晚选同一人",
    "锈盾守卫": "夜晚<最后的守护>：得知一名角色当晚是否受到伤害，然后可以守护他",
    "混血儿": "游戏开始时必须<认亲>一名角色，成为与其相同的阵营；被查验始终为村民阵营",
}
FACTION = {"狼人": "狼人阵营", "感染白痴": "狼人阵营"}


def brief(name: str) -> str:
    """The start-of-game message a player must get: character, identity, skills, limits, how to act."""
    seat, role = SEAT[name], dict((n, r) for n, _, r in PLAYERS)[name]
    return (
        f"【{TITLE}】你的角色：{seat}号 {name}\n"
        f"你的身份：{role}（{FACTION.get(role, '村民阵营')}）\n"
        f"技能：{SUMMARY[role]}\n"
        + (VILLAGER_TAIL if role == "村民" else f"{LIMITS}\n{HOW_TO}")
    )


# a villager has nothing of his own to send: only the limits that may come to anyone (the sheriff's, last
# words), and no "如“预言 3”"
VILLAGER_TAIL = ("行动时限：\n"
                 + "\n".join(line for line in LIMITS.split("\n")[1:] if "警长" in line or "遗言" in line)
                 + "\n私聊我发送“帮助”查看你现在能做什么，“状态”查看场上情况。")


def pack_night(n: int) -> str:
    """What the pack is told when night `n` opens (in its group, or privately by relay)."""
    return f"第{n}夜：狼群可以<杀人>：发送“杀人 座位号”（全队放弃发送“杀人 空”），关门后1小时内有效。"


# what the directors are told at a 关门 of the fixed line-up: every night limit begun, in one message
NIGHT_LIMITS = ("时限开始：\n果果、橘子、香蕉、葡萄<杀人>，截止 12-01 21:00\n西瓜<预言>，截止 12-01 21:00\n"
                "草莓<诽谤>，截止 12-01 21:00\n芒果<最后的守护>，截止 12-01 21:00")


def label(name: str) -> str:
    return f"{SEAT[name]}号 {name}"


def labels(names) -> str:
    return "、".join(label(n) for n in names)


def others(*names: str, out: tuple[str, ...] = ()) -> list[str]:
    """The players, in seat order, but `names` and those `out` of the game."""
    return [n for n, _, _ in PLAYERS if n not in names and n not in out]


def deal(row, players=PLAYERS) -> list[str]:
    """A started game's deal as the 树洞 reveals it (engine/commitment.py's canonical text)."""
    return ["版杀发牌 v1", f"规则：{row.ruleset}", f"种子：{row.seed}", f"盐：{row.salt}"] + [
        f"{i}号：{role}" for i, (_, _, role) in enumerate(players, 1)]


def promised(row, players=PLAYERS) -> str:
    """What the directors are told at 开始 to post: the deal's hash."""
    import hashlib

    digest = hashlib.sha256("\n".join(deal(row, players)).encode("utf-8")).hexdigest()
    return (f"【可公示】发牌承诺：本局种子与身份表的 SHA-256 为 {digest}。游戏结束时在树洞中公布原文，"
            "任何人都可以用 sha256 或“python -m engine verify 哈希”核对，确认发牌在开局前已经确定。")


def treehole(row, *entries: str, out: str | None = None, result: str | None = None) -> str:
    """The whole log (树洞) of a started game #1 of the fixed line-up (dealt by the director), ready to
    post: seed, identities, the deal whose hash was posted, entries, who went out (`out`, as the log's
    出局 line writes it), the result."""
    lines = ["#1 [M131]粽子（M131）", f"种子：{row.seed}（每一次随机结果都由它决定（身份由导演指定））", "身份："]
    lines += [f"{i}号 {name}：{role}，{FACTION.get(role, '村民阵营')}" for i, (name, _, role) in enumerate(PLAYERS, 1)]
    lines += ["发牌原文（其 SHA-256 应与开始时公布的一致）：", *deal(row)]
    lines += (["记录："] if entries else []) + list(entries) + ([f"出局：{out}"] if out else []) + ([f"结果：{result}获胜"] if result else [])
    return "\n".join(lines)


def game_over(faction: str, seed: int) -> str:
    """What every player is told when the game ends."""
    return (f"游戏结束，{faction}获胜。感谢参与！本局的随机种子是 {seed}：每一次随机结果都由它决定（身份由导演指定），"
            "可以在导演公布的完整记录（树洞）中核对。")


# 投票规则: "讨论结束时，未回复投票帖者将被判罚黄牌"; "执行加速时……未投票者将不被判罚"
NO_VOTE_CARD = "讨论结束时，未回复投票帖者将被判罚黄牌（执行加速时不判罚）"


def unvoted(day: int, word: str, names, card: str | None = NO_VOTE_CARD) -> str:
    """What only the director is told after a count: who did not vote, and the card the post gives."""
    return f"第{day}天{word}（仅导演可见）：\n未投票：{labels(names)}" + (f"。规则：{card}，请决定是否发牌" if card else "")


# --- events -----------------------------------------------------------------------------------------
_message_ids = itertools.count(5000)


def text_message(text: str) -> Message:
    # what NapCat posts in array format: whatever the player typed is one text segment
    return Message(MessageSegment.text(text))


def private(user: int, text: str, message_id: int | None = None, friend: bool = True) -> PrivateMessageEvent:
    """A private message; from someone who is not the bot's friend (a temporary session) with `friend=False`."""
    msg = text_message(text)
    return PrivateMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="friend" if friend else "group", user_id=user,
        message_type="private", message_id=next(_message_ids) if message_id is None else message_id,
        message=msg, original_message=msg, raw_message=text, font=0,
        sender=Sender(user_id=user, nickname=str(user)), to_me=True,
    )


def in_group(group: int, user: int, text: str, message_id: int | None = None) -> GroupMessageEvent:
    msg = text_message(text)
    return GroupMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="normal", user_id=user,
        message_type="group", group_id=group, message_id=next(_message_ids) if message_id is None else message_id,
        message=msg, original_message=msg, raw_message=text, font=0,
        sender=Sender(user_id=user, nickname=str(user)), to_me=False,
    )


def join_request(group: int, user: int, flag: str) -> GroupRequestEvent:
    return GroupRequestEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="request", request_type="group", sub_type="add",
        group_id=group, user_id=user, flag=flag, comment="",
    )


def friend_request(user: int, flag: str) -> FriendRequestEvent:
    return FriendRequestEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="request", request_type="friend",
        user_id=user, flag=flag, comment="",
    )


def joined(group: int, user: int) -> GroupIncreaseNoticeEvent:
    return GroupIncreaseNoticeEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="notice", notice_type="group_increase",
        sub_type="approve", group_id=group, user_id=user, operator_id=int(BOT_ID),
    )


def left(group: int, user: int, sub_type: str = "leave", operator: int | None = None) -> GroupDecreaseNoticeEvent:
    """`user` left the group (`leave`), or was removed from it by `operator` (`kick`)."""
    return GroupDecreaseNoticeEvent(
        time=1764594000, self_id=int(BOT_ID), post_type="notice", notice_type="group_decrease",
        sub_type=sub_type, group_id=group, user_id=user, operator_id=operator or user,
    )


# --- the fake OneBot connection -----------------------------------------------------------------------
async def connect(ctx, self_id: str = BOT_ID) -> Bot:
    """A OneBot v11 bot (the QQ account `self_id`) connected for this test context; its on-connect
    outbox flush has run.

    That flush sends whatever is still queued: declare those calls before connecting."""
    from conftest import CONNECT_FLUSHES

    before = CONNECT_FLUSHES.done
    bot = ctx.create_bot(base=Bot, adapter=nonebot.get_adapter(Adapter), self_id=self_id)
    for _ in range(200):
        if CONNECT_FLUSHES.done > before:
            break
        await asyncio.sleep(0.005)
    else:
        raise AssertionError("the bot's on-connect outbox flush did not run")
    return bot


@asynccontextmanager
async def chat(app):
    """A nonebug matcher context with a connected OneBot v11 bot: `(ctx, bot)`. Events given to
    `ctx.receive_event` are handled when the block ends; every OneBot call must be declared."""
    async with app.test_matcher() as ctx:
        bot = await connect(ctx)
        yield ctx, bot


OK = {"message_id": 1}


def says(ctx, to: int, text: str, **kwargs) -> None:
    """The bot sends `text` privately to QQ `to`, as one plain text segment."""
    ctx.should_call_api("send_private_msg", {"user_id": to, "message": Message(MessageSegment.text(text))},
                        result=kwargs.get("result", OK), exception=kwargs.get("exception"))


def posts(ctx, group: int, text: str, **kwargs) -> None:
    """The bot sends `text` in QQ group `group`, as one plain text segment."""
    ctx.should_call_api("send_group_msg", {"group_id": group, "message": Message(MessageSegment.text(text))},
                        result=kwargs.get("result", OK), exception=kwargs.get("exception"))


def director_hears(ctx, *texts: str) -> None:
    for text in texts:
        says(ctx, DIRECTOR, text)


def kicks(ctx, group: int, user: int) -> None:
    ctx.should_call_api("set_group_kick", {"group_id": group, "user_id": user, "reject_add_request": False}, result=None)


def lists_members(ctx, group: int, members: dict[int, str] | None = None, bot_role: str = "owner") -> None:
    """The bot reads `group`'s member list: itself with `bot_role`, and `members` (QQ -> role)."""
    listed = [{"group_id": group, "user_id": int(BOT_ID), "nickname": "banshabot", "role": bot_role}]
    listed += [{"group_id": group, "user_id": qq, "nickname": str(qq), "role": role} for qq, role in (members or {}).items()]
    ctx.should_call_api("get_group_member_list", {"group_id": group}, result=listed)


def other_plugins() -> list:
    """What the plugins after banshabot hear from now on (tests/beside_plugin.py, loaded once): the
    events banshabot did not take."""
    import nonebot

    plugin = nonebot.get_plugin("beside_plugin") or nonebot.load_plugin("beside_plugin")
    plugin.module.heard.clear()
    return plugin.module.heard


def hides_history(ctx, group: int, **kwargs) -> None:
    """The bot turns off new members' view of `group`'s earlier chat (NapCat's extension)."""
    ctx.should_call_api("set_group_new_member_history_visibility", {"group_id": group, "visible": False},
                        result=None, exception=kwargs.get("exception"))


def renames(ctx, group: int, name: str) -> None:
    ctx.should_call_api("set_group_name", {"group_id": group, "group_name": name}, result=None)


# --- a game set up straight through the service (for tests about what comes after) -------------------
async def drain() -> list[tuple[str, dict]]:
    """Mark every queued action as delivered; returns them (action, params) in order."""
    from service.models import OutboxRow

    rows = await OutboxRow.filter(sent_at=None).order_by("id")
    for row in rows:
        row.sent_at = row.created_at
        await row.save()
    return [(r.action, r.params) for r in rows]


def texts_to(actions: Iterable[tuple[str, dict]], to: int) -> list[str]:
    return [p["text"] for a, p in actions if p.get("user_id") == to or p.get("group_id") == to]


async def dealt_game(service):
    """An M131 game (#1) with the fixed line-up above, its identities dealt, not started."""
    row = await service.create(str(DIRECTOR), "M131", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])
    return t


async def running_game(service, *, pool: bool = True, recognise: str | None = "西瓜"):
    """A started M131 game (#1) with the fixed line-up above; 桃子 (混血儿) has recognised `recognise`.

    With `pool`, group 900001 is in the pool and lent to the 狼群. Nothing is left in the outbox.
    """
    from engine import Act

    from service import groups

    if pool:
        await groups.add_to_pool(str(GROUP), GROUP_NAME)
    t = await dealt_game(service)
    await service.start(t)
    if recognise:
        await service.submit(t, Act(by="桃子", skill="认亲", target=recognise), source="test")
    await drain()
    return t


async def night_one(service, t) -> None:
    """关门: the first night opens (its messages are drained)."""
    from engine import CloseDay

    outcome = await service.submit(t, CloseDay(), source=f"director:{DIRECTOR}")
    assert outcome.ok, outcome.error
    await drain()


async def act(service, t, name: str, skill: str, target=None, text=None) -> None:
    from engine import Act

    outcome = await service.submit(t, Act(by=name, skill=skill, target=target, text=text), source="test")
    assert outcome.ok, outcome.error
    await drain()


class TextWith:
    """A one-text-segment message whose text contains each of `pieces`.

    For behaviour the issue requires where the bot has no wording of its own yet: the test states
    what the player must be told without inventing the exact sentence.
    """

    def __init__(self, *pieces: str, lacks: tuple[str, ...] = ()):
        self.pieces, self.lacks = pieces, lacks

    def __eq__(self, other) -> bool:
        if not isinstance(other, Message) or any(seg.type != "text" for seg in other):
            return False
        text = "".join(seg.data["text"] for seg in other)
        return all(p in text for p in self.pieces) and not any(p in text for p in self.lacks)

    def __repr__(self) -> str:
        return f"TextWith{self.pieces!r}" + (f" lacking {self.lacks!r}" if self.lacks else "")


class LineWith(TextWith):
    """A one-text-segment message with one line that contains each of `pieces`."""

    def __eq__(self, other) -> bool:
        if not isinstance(other, Message) or any(seg.type != "text" for seg in other):
            return False
        text = "".join(seg.data["text"] for seg in other)
        return any(all(p in line for p in self.pieces) for line in text.splitlines())

    def __repr__(self) -> str:
        return f"LineWith{self.pieces!r}"


def says_with(ctx, to: int, *pieces: str, lacks: tuple[str, ...] = ()) -> None:
    """The bot sends `to` a message containing each of `pieces` and none of `lacks` (wording left
    to the bot)."""
    ctx.should_call_api("send_private_msg", {"user_id": to, "message": TextWith(*pieces, lacks=lacks)}, result=OK)


def says_line_with(ctx, to: int, *pieces: str) -> None:
    """The bot sends `to` a message with one line containing each of `pieces`."""
    ctx.should_call_api("send_private_msg", {"user_id": to, "message": LineWith(*pieces)}, result=OK)


async def quiet_night(service, t, kill: str | None = None, slander: str | None = None) -> None:
    """Every night action in (the pack kills `kill` or passes; the crow slanders `slander` or passes;
    everyone else passes): the night settles itself. Drained."""
    g = t.game
    alive = {p.name for p in g.state.players if p.alive}
    pack = next(n for n in WOLVES if n in alive)
    await act(service, t, pack, "杀人", kill)
    for name in ("柠檬", "西瓜", "芒果"):
        if name in alive and any(who == name for who, _ in g.rules.awaiting(g)):
            await act(service, t, name, "放弃")
    if "草莓" in alive:
        await act(service, t, "草莓", "诽谤" if slander else "放弃", slander)
    assert g.night.resolved, g.rules.awaiting(g)


async def director_does(service, t, cmd) -> None:
    outcome = await service.submit(t, cmd, source=f"director:{DIRECTOR}")
    assert outcome.ok, outcome.error
    await drain()


async def day_two(service, t, kill: str | None = None, slander: str | None = None) -> None:
    """Night 1 (quiet), the election (橘子 becomes sheriff), then 开门 into day 2 (讨论日)."""
    from engine import Ballots, OpenDay

    await night_one(service, t)
    await quiet_night(service, t, kill=kill, slander=slander)
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"), ("橘子", "橘子"))))
    await director_does(service, t, OpenDay())


async def close_day(service, t) -> None:
    """关门 through the service (drained)."""
    from engine import CloseDay

    await director_does(service, t, CloseDay())
