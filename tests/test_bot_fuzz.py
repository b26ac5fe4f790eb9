"""Arbitrary messages and events through every handler, as hypothesis makes them up.

A running M131 game (its pack in a pool group) receives one event per example: a private message
from a stranger, a player or the director; a message in the pack's group or in another group; a
join, a friend request or a join request. Texts are commands with hostile arguments (numbers
`int()` cannot read or that are too long to, full-width digits, Discuz! code, CQ code, 5,000
characters) or anything at all, sent as segment lists that mix text with images, faces and
mentions. After each event:

- nothing unexpected broke (no handler error, no "出错了" answer);
- whoever is due an answer got one: every private message, a team command in the team's group,
  every friend request, every join request to a pool group;
- nothing stored changed unless the answer says the input was taken;
- every game held in memory is the game its stored commands rebuild, with the stored seats.
"""
from __future__ import annotations

import itertools
from contextlib import asynccontextmanager

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from nonebot.adapters.onebot.v11 import (
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
from nonebug import App

from bot_helpers import BOT_ID, DIRECTOR, GROUP, PLAYERS, QQ, STRANGER, WOLVES, connect, night_one, running_game
from conftest import _empty_tables
from engine import Game
from engine.commands import from_dict
from rulesets import get as get_ruleset
from service import groups, parse
from service.models import CommandRow, GameRow, PoolGroupRow, SeatRow, TeamRow

pytestmark = pytest.mark.usefixtures("clean")

FREE = 900002  # a pool group no game holds

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# answers that say the input was taken (anything stored must come with one of these)
TAKEN = ("已收到", "已执行", "已成为", "接手", "已创建游戏", "名单已保存", "已按", "游戏已开始", "计票完成", "已加入群池",
         "已移出群池", "已按时限到期处理", "提交了今晚", "放弃了今晚", "同意", "拒绝投降", "预言结果", "通灵", "守护")
BROKEN = ("出错了", "抱歉，处理")

DIRECTOR_WORDS = ["新游戏", "名单", "检查", "分配", "开始", "关门", "开门", "竞选", "投票", "发牌", "替补", "协助", "代",
                  "超时", "结算", "判负", "状态", "日志", "游戏", "群池", "群池 添加", "群池 移除", "帮助", "版本", "#1", "#2",
                  "#" + "9" * 30]
PLAYER_WORDS = ["杀人", "刀", "预言", "查", "诽谤", "最后的守护", "守", "救药", "救", "毒药", "毒", "认亲", "自爆", "假痴不癫",
                "殉职", "放弃", "遗言", "遗言：", "投降", "帮助", "状态", "?"]
NUMBERS = ["1", "5", "13", "14", "0", "-1", "３", "①", "³", "٣", "1_0", "9" * 12, "9" * 21, "9" * 5000, str(QQ["果果"]),
           "３００００", "30001", str(GROUP), "123456789012345678901"]
WORDS = [name for name, _, _ in PLAYERS] + ["空", "撕", "拒绝", "同意", "蓝牌", "黄牌", "红牌", "随机", "固定", "狼人阵营",
                                            "村民阵营", "M131", "146", "154", "添加", "移除", "弃权", "22:00", "12-01 22:00",
                                            "02-30 25:61", "投票对象：果果", "投票理由：好", "改票对象：", "3楼 果果",
                                            "果果:橘子", "果果->弃权", "[url=http://x.example]点[/url]", "[img]a[/img]",
                                            "[CQ:at,qq=all]", "&#91;", "\u200b", "\u0000", "😀", "狼人", "预言家"]
pieces = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(NUMBERS), st.sampled_from(WORDS), st.text(max_size=8),
                   st.builds(lambda c, n: c * n, st.sampled_from("啊9[ \n"), st.integers(100, 5000)))
separators = st.sampled_from([" "] * 6 + ["\n", "：", ":", "，", "  ", "\t", "　", ""])


@st.composite
def texts(draw, words: list[str]) -> str:
    """A command word and what may follow it: mostly one argument, as people send them."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(st.text(max_size=40))
    parts = [draw(st.sampled_from(words))]
    parts += [draw(pieces)] if shape < 6 else draw(st.lists(pieces, max_size=4))
    return draw(separators).join(parts) if shape < 8 else "".join(p + draw(separators) for p in parts)


@st.composite
def messages(draw, words: list[str]) -> Message:
    """What a OneBot implementation posts: the text, sometimes split or mixed with other segments."""
    text = draw(texts(words))
    segments = [MessageSegment.text(text)]
    for _ in range(draw(st.integers(0, 2))):
        other = draw(st.sampled_from([
            MessageSegment.image("https://x.example/a.png"), MessageSegment.face(14), MessageSegment.at(QQ["果果"]),
            MessageSegment.at("all"), MessageSegment.reply(123), MessageSegment.text(draw(st.sampled_from(WORDS))),
            MessageSegment("json", {"data": "{\"app\":\"x\"}"}),
        ]))
        segments.insert(draw(st.integers(0, len(segments))), other)
    return Message(segments)


_ids = itertools.count(900_000)


def private(user: int, message: Message) -> PrivateMessageEvent:
    return PrivateMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="friend", user_id=user, message_type="private",
        message_id=next(_ids), message=message, original_message=message, raw_message=str(message), font=0,
        sender=Sender(user_id=user, nickname=str(user)), to_me=True,
    )


def in_group(group: int, user: int, message: Message) -> GroupMessageEvent:
    return GroupMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="normal", user_id=user, message_type="group",
        group_id=group, message_id=next(_ids), message=message, original_message=message, raw_message=str(message),
        font=0, sender=Sender(user_id=user, nickname=str(user)), to_me=False,
    )


# --- the bot's OneBot, answering whatever it is asked ------------------------------------------------------
class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def __call__(self, adapter, api: str, **data):
        self.calls.append((api, data))
        if api == "get_friend_list":
            return [{"user_id": qq, "nickname": str(qq), "remark": ""} for _, qq, _ in PLAYERS]
        if api == "get_group_member_list":
            return [{"group_id": data["group_id"], "user_id": int(BOT_ID), "nickname": "bot", "role": "owner"}]
        if api.startswith("send_"):
            return {"message_id": len(self.calls)}
        return None

    def texts(self, kind: str, target: int) -> list[str]:
        key = "user_id" if kind == "private" else "group_id"
        return ["".join(s.data.get("text", "") for s in data["message"]) for api, data in self.calls
                if api == f"send_{kind}_msg" and data.get(key) == target]

    def all_texts(self) -> list[str]:
        return ["".join(s.data.get("text", "") for s in data["message"]) for api, data in self.calls if api.startswith("send_")]


@asynccontextmanager
async def onebot(app: App):
    """A connected bot whose every OneBot call is answered and recorded; the events given to the
    context are handled when the block ends."""
    recorder = Recorder()
    async with app.test_matcher() as ctx:
        ctx.got_call_api = recorder
        bot = await connect(ctx)
        yield ctx, bot, recorder


# --- what is stored, and what is held in memory -------------------------------------------------------------
async def stored() -> tuple:
    games = [(g.id, g.title, g.status, tuple(g.directors), g.planned_close) for g in await GameRow.all().order_by("id")]
    seats = [(s.game_id, s.seat, s.name, s.qq, s.role, tuple(s.former_qq)) for s in await SeatRow.all().order_by("game_id", "seat")]
    commands = [(c.game_id, c.seq, str(c.payload)) for c in await CommandRow.all().order_by("game_id", "seq")]
    teams = [(r.game_id, r.team, tuple(r.members), r.group_id) for r in await TeamRow.all().order_by("game_id", "team")]
    pool = [(p.group_id, p.original_name, p.game_id, p.team) for p in await PoolGroupRow.all().order_by("group_id")]
    return games, seats, commands, teams, pool


async def memory_is_the_database(service) -> None:
    for game_id, t in list(service.tables.items()):
        seats = [(s.seat, s.name, s.qq, s.role, list(s.former_qq)) for s in await SeatRow.filter(game_id=game_id).order_by("seat")]
        assert [(s.seat, s.name, s.qq, s.role, list(s.former_qq)) for s in t.seats] == seats, f"game {game_id}: seats"
        row = await GameRow.get(id=game_id)
        assert (t.row.status, t.row.directors, t.row.planned_close) == (row.status, row.directors, row.planned_close)
        if t.game is None:
            continue
        game = Game(get_ruleset(row.ruleset), [(s.name, s.role) for s in t.seats], seed=row.seed)
        for cmd in await CommandRow.filter(game_id=game_id).order_by("seq"):
            assert game.apply(from_dict(cmd.payload)).ok
        assert game.state == t.game.state, f"game {game_id}: the game in memory is not the stored one"


async def fresh_game_if_over(service) -> None:
    """A game that ended takes nothing more: the examples go on with a new one."""
    if await GameRow.exists(id=1) and await GameRow.all().count() < 6:
        t = await service.table(1)
        if t.game.phase != "over":
            return
    await _empty_tables()
    service.tables.clear()
    await groups.add_to_pool(str(FREE), "空闲群")  # the pack gets GROUP, the lower number; this one stays free
    await night_one(service, await running_game(service))


async def check(app: App, service, event, sender_private: int | None = None, group_due: int | None = None,
                answer: str | None = None) -> None:
    await fresh_game_if_over(service)
    before = await stored()
    async with onebot(app) as (ctx, bot, recorder):
        ctx.receive_event(bot, event)
    said = recorder.all_texts()
    assert not [t for t in said if t.startswith(BROKEN)], said
    replies = []
    if sender_private is not None:
        replies = recorder.texts("private", sender_private)
        if sender_private in [QQ[n] for n in WOLVES]:  # the pack's choice is confirmed in the pack's group
            replies += recorder.texts("group", GROUP)
        assert replies, "a private message got no answer"
    if group_due is not None:
        replies += recorder.texts("group", group_due)
        assert replies, "a team command in the team's group got no answer"
    if answer is not None:
        assert any(api == answer for api, _ in recorder.calls), f"no {answer}"
    if await stored() != before and answer is None:
        assert any(any(word in r for word in TAKEN) for r in replies), f"stored a change, but answered {replies!r}"
    await memory_is_the_database(service)


# --- the examples ------------------------------------------------------------------------------------------------
# what each sender has to do at night is what he most often sends
OWN = {DIRECTOR: ["替补 果果", "协助", "发牌 黄牌", "代 果果 杀人", "代 草莓 诽谤", "超时", "判负", "开门", "群池 添加", "投票"],
       QQ["西瓜"]: ["预言", "查"], QQ["柠檬"]: ["救药", "毒药"], QQ["草莓"]: ["诽谤"], QQ["芒果"]: ["最后的守护"],
       QQ["果果"]: ["杀人", "刀"], QQ["桃子"]: ["认亲"]}
SENDERS = st.one_of(st.sampled_from(sorted(OWN)), st.sampled_from([STRANGER] + [qq for _, qq, _ in PLAYERS]))


@st.composite
def sent(draw) -> tuple[int, Message]:
    sender = draw(SENDERS)
    words = DIRECTOR_WORDS if sender == DIRECTOR else PLAYER_WORDS
    own = OWN.get(sender)
    return sender, draw(messages(own) if own and draw(st.booleans()) else messages(words + ["随便说点什么"]))


@settings(FUZZ, max_examples=300)
@given(sent())
# what once broke a game, whatever hypothesis makes up besides
@example((QQ["草莓"], Message("诽谤 ①")))
@example((QQ["西瓜"], Message("预言 " + "9" * 2999)))
@example((DIRECTOR, Message("协助 ①")))
@example((DIRECTOR, Message("发牌 蓝牌 " + "9" * 5000)))
@example((DIRECTOR, Message("替补 果果 123456789012345678901")))
@example((DIRECTOR, Message("群池 添加 ³³³³³³")))
@example((DIRECTOR, Message("新游戏 M131 " + "长" * 200)))
async def test_any_private_message_is_answered_and_breaks_nothing(app: App, banshabot, sent):
    sender, message = sent
    await check(app, banshabot.service, private(sender, message), sender_private=sender)


@FUZZ
@given(sender=st.sampled_from([QQ[n] for n in WOLVES] + [QQ["西瓜"], STRANGER]), group=st.sampled_from([GROUP, FREE, 900003]),
       message=messages(PLAYER_WORDS))
@example(sender=QQ["果果"], group=GROUP, message=Message("杀人 ³"))
@example(sender=QQ["果果"], group=GROUP, message=Message("杀人 " + "啊" * 5000))
async def test_any_group_message_is_answered_where_due_and_breaks_nothing(app: App, banshabot, sender, group, message):
    service = banshabot.service
    await fresh_game_if_over(service)
    t = await service.table(1)
    due = None
    if group == GROUP and sender in [QQ[n] for n in WOLVES] and t.game.phase != "over":
        name = t.seat_by_qq(str(sender)).name
        try:
            command = parse.player_text(message.extract_plain_text(), t.game.rules, name)
            skill = t.game.rules.skill(getattr(command, "skill", ""))
            due = GROUP if skill is not None and skill.team else None
        except parse.TooLong:
            due = GROUP
        except parse.ParseError:
            pass
    await check(app, service, in_group(group, sender, message), group_due=due)


@FUZZ
@given(kind=st.sampled_from(["joined", "left", "friend", "join", "invite"]),
       user=st.sampled_from([STRANGER, QQ["果果"], QQ["西瓜"], int(BOT_ID), 1, 10 ** 12]),
       group=st.sampled_from([GROUP, FREE, 900003]), comment=st.text(max_size=30))
async def test_any_notice_or_request_is_answered_where_due_and_breaks_nothing(app: App, banshabot, kind, user, group, comment):
    base = {"time": 1764590400, "self_id": int(BOT_ID), "user_id": user}
    answer = None
    if kind == "joined":
        event = GroupIncreaseNoticeEvent(**base, post_type="notice", notice_type="group_increase", sub_type="invite",
                                         group_id=group, operator_id=QQ["果果"])
        pack = user in [QQ[n] for n in WOLVES] and group == GROUP
        answer = "set_group_kick" if group in (GROUP, FREE) and user != int(BOT_ID) and not pack else None
    elif kind == "left":
        event = GroupDecreaseNoticeEvent(**base, post_type="notice", notice_type="group_decrease", sub_type="leave",
                                         group_id=group, operator_id=user)
    elif kind == "friend":
        event = FriendRequestEvent(**base, post_type="request", request_type="friend", flag=f"f{next(_ids)}", comment=comment)
        answer = "set_friend_add_request"
    else:
        event = GroupRequestEvent(**base, post_type="request", request_type="group", sub_type="add" if kind == "join" else "invite",
                                  group_id=group, flag=f"g{next(_ids)}", comment=comment)
        answer = "set_group_add_request" if kind == "join" and group in (GROUP, FREE) else None
    await check(app, banshabot.service, event, answer=answer)
