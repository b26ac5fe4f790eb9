"""Arbitrary messages and events through every handler, as hypothesis makes them up.

Each example begins with a fresh game at a stage it draws: M131 at its first night (its pack in a pool
group) or its second day (a victim's last words asked); 146 with every new moon in play, on day 1 (the
sheriff elected and asked to draw) or on day 2 under one of its big events; 154 at its first night or
its first day. Then come a few events in a row: private messages from a stranger, a player or the
director (most often what each has to do, as meant or with hostile arguments: numbers `int()`
cannot read or that are too long to, full-width digits, Discuz! code, CQ code, 5,000 characters, or
anything at all, as segment lists that mix text with images, faces and mentions); a message in a
team's group or in another group; a join, a friend request or a join request. After each event:

- nothing unexpected broke (no handler error, no "出错了" answer);
- whoever is due an answer got one: every private message, a team command in the team's group,
  every friend request, every join request to a pool group;
- what is stored changed only as the code decided, never by words in the answer: a player's message
  that was no command, or a command the game refused (`Service.submit`'s outcome), changes nothing,
  and a refused one is answered "未执行：…"; one it took is stored. A director's answer (what `director.handle` returned) that is no
  receipt (`RECEIPTS`) comes with nothing stored, and every stored change comes with one. A notice or a
  request stores nothing;
- every game held in memory is the game its stored log rebuilds (with corrections applied, as
  `history.effective` reads it), with the stored seats.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Awaitable, Callable

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

import test_bot_146 as r146
import test_bot_154 as r154
from bot_helpers import BOT_ID, DIRECTOR, GROUP, PLAYERS, QQ, STRANGER, WOLVES, connect, day_two, drain, night_one, running_game
from conftest import _empty_tables
from engine import Act, Ballots, CloseDay, Game, Moon, OpenDay, Timeout
from rulesets import get as get_ruleset
from rulesets.r146.moons import EVENTS
from service import director, groups, history, parse
from service.models import CommandRow, DeadlineRow, GameDirectorRow, GameRow, PoolGroupRow, SeatRow, TeamRow

pytestmark = pytest.mark.usefixtures("clean")

FREE = 900002  # a pool group no game holds
ELSEWHERE = 900003  # a group the bot is in that is no pool group

FUZZ = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

BROKEN = ("出错了", "抱歉，处理")
REFUSED = "未执行："  # what `Service.submit` answers a player whose command the game refused
# what a director command answers when it changed something (service/director.py, corrections.py, moons.py,
# groups.py), each from its first character; a game named first when several are running
RECEIPTS = re.compile("|".join((
    r"已创建游戏 #\d+", "名单已保存：", "已按种子随机分配身份", "已按给定分配身份", "游戏已开始，", "已执行。",
    "本日关门时间改为 ", "计票完成：", r"\d+号 .+ 由 \d+ 接手", r"\d+ 已成为 #\d+ 的协助导演", "已按时限到期处理：",
    r"群 \d+ 已加入群池", r"群 \d+ 已移出群池", r"已(撤销|重新计票)（第\d+条）",
)))
AGAIN = ("本日关门时间改为 ",)  # receipts of a setting, which may be set again to what it was

NUMBERS = ["1", "5", "13", "14", "22", "0", "-1", "３", "①", "³", "٣", "1_0", "9" * 12, "9" * 21, "9" * 5000,
           str(QQ["果果"]), "３００００", "30001", str(GROUP), "123456789012345678901", "99", "100", "第2条", "2", "3"]
WORDS = ["空", "撕", "拒绝", "同意", "蓝牌", "黄牌", "红牌", "随机", "固定", "狼人阵营", "村民阵营", "黑情侣阵营", "M131",
         "146", "154", "添加", "移除", "弃权", "强制", "无", "竞选", "投票", "22:00", "12-01 22:00", "02-30 25:61", "18:05",
         "投票对象：果果", "投票理由：好", "改票对象：", "3楼 果果", "果果:橘子", "果果->弃权", "[url=http://x.example]点[/url]",
         "[img]a[/img]", "[postbg]x[/postbg]", "[CQ:at,qq=all]", "&#91;", "\u200b", "\u0000", "😀", "狼人", "预言家"]
WORDS += [event.name for event in EVENTS]
PIECES = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(WORDS), st.text(max_size=8),
                   st.builds(lambda c, n: c * n, st.sampled_from("啊9[ \n"), st.integers(100, 5000)))
SEPARATORS = st.sampled_from([" "] * 6 + ["\n", "：", ":", "，", "  ", "\t", "　", ""])

DIRECTOR_WORDS = ["新游戏", "名单", "检查", "分配", "开始", "关门", "开门", "关门时间", "竞选", "投票", "发牌", "替补", "协助", "代",
                  "超时", "结算", "判负", "加速", "撤销", "确认", "取消", "重新计票", "新月设置", "新月", "违规", "私票", "计票",
                  "状态", "日志", "游戏", "群池", "群池 添加", "群池 移除", "帮助", "版本", "#1", "#2", "#" + "9" * 30]
PLAYER_WORDS = ["放弃", "遗言", "遗言：", "投降", "帮助", "状态", "?", "随便说点什么"]


@dataclass
class Setup:
    """A running game of one ruleset, made fresh for each example at one of its stages, and who most
    often sends what."""
    ruleset: str
    players: list[tuple[str, int, str]]
    make: Callable[[object, str], Awaitable[None]]  # game #1 at a stage, on an empty database
    stages: list[str]
    groups: list[int]  # the pool groups it was given
    own: dict[int, list[str]] = field(default_factory=dict)  # what each sender has to do, most often sent

    @property
    def words(self) -> list[str]:
        """The ruleset's command words: each skill's name and aliases, and what needs no skill."""
        rules = get_ruleset(self.ruleset)
        return PLAYER_WORDS + sorted({word for s in rules.skills.values() for word in (s.name, *s.aliases)})


async def settled(service, t) -> None:
    """Every night decision still asked: passed, or let run out when it cannot be passed."""
    g = t.game
    for _ in range(40):
        if g.phase != "night" or g.night.resolved or not (asked := g.rules.awaiting(g)):
            break
        who, slot = asked[0]
        # a team passes with its skill and no target ("杀人 空"), anyone else with 放弃
        passed = (Act(by=next(n for n in g.state.teams[who] if g.state.player(n).alive), skill=slot) if who in g.state.teams
                  else Act(by=who, skill="放弃"))
        if not (await service.submit(t, passed, source="test")).ok:
            assert (await service.submit(t, Timeout(g.night_key(who, slot)), source="test")).ok
    assert g.phase != "night" or g.night.resolved, g.rules.awaiting(g)
    await drain()


async def _m131(service, stage: str) -> None:
    """The first night, or the second day with 菠萝 killed (his last words asked) and 橘子 sheriff."""
    await groups.add_to_pool(str(FREE), "空闲群")  # the pack gets GROUP, the lower number; this one stays free
    t = await running_game(service)
    if stage == "night 1":
        await night_one(service, t)
    else:
        await day_two(service, t, kill="菠萝")


async def _146(service, stage: str) -> None:
    """Every new moon in play, 大勇 elected sheriff and asked to draw: day 1, or day 2 with the drawn event."""
    t = await r146.started(service, moons=[event.name for event in EVENTS])
    await r146.does(service, t, OpenDay())
    await r146.does(service, t, Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))))
    await r146.does(service, t, Act("大勇", "任命", "20"))
    if stage != "day 1":
        await service.submit(t, Moon(stage, None, drawn=True), source="test")  # an event that needs what is missing is not
        await r146.does(service, t, CloseDay())
        await settled(service, t)
        await r146.does(service, t, OpenDay())


async def _154(service, stage: str) -> None:
    """Its first night (154 begins with one), or the day after it."""
    t, _ = await r154.started(service)
    await night_one(service, t)
    if stage == "day 1":
        await settled(service, t)
        await r146.does(service, t, OpenDay())


Q146, Q154 = r146.QQ, r154.QQ
MOON_DIRECTOR = ["新月 " + event.name for event in EVENTS] + ["新月设置", "新月设置 无", "违规 阿福", "私票", "计票", "加速 强制"]
MOVES = ["关门", "开门", "结算", "超时", "超时", "撤销", "确认"]  # what moves a game on, most often bare
CORRECTIONS = [*MOVES, "撤销 1", "撤销 3", "撤销 5", "撤销 第4条", "确认", "确认", "取消", "重新计票 投票\n阿福:大勇",
               "重新计票 竞选\n阿福:阿福 大勇:大勇", "关门时间 22:00", "加速 果果 橘子"]
SETUPS = {
    "M131": Setup("M131", PLAYERS, _m131, ["night 1", "day 2"], [GROUP, FREE], {
        DIRECTOR: ["替补 果果", "协助", "发牌 黄牌", "代 果果 杀人", "代 草莓 诽谤", "超时", "判负", "开门", "关门", "群池 添加",
                   "投票", *CORRECTIONS],
        QQ["西瓜"]: ["预言", "查"], QQ["柠檬"]: ["救药", "毒药", "通灵"], QQ["草莓"]: ["诽谤"], QQ["芒果"]: ["最后的守护", "守护"],
        QQ["果果"]: ["杀人", "刀", "自爆"], QQ["桃子"]: ["认亲"], QQ["葡萄"]: ["假痴不癫"]}),
    "146": Setup("146", r146.PLAYERS, _146, ["day 1", *(event.name for event in EVENTS if event.big)], r146.POOL, {
        DIRECTOR: [*MOON_DIRECTOR, *CORRECTIONS, "关门", "开门", "代 大勇 决策", "超时", "发牌 红牌", "判负 黑情侣阵营"],
        Q146["大勇"]: ["决策", "抽大新月", "殉职", "任命", "投票"], Q146["丫蛋"]: ["辅策", "抽小新月", "投票 阿福 他是狼"],
        Q146["二狗"]: ["占卜", "投票"], Q146["阿福"]: ["杀人", "冲锋", "狼王的生日", "生日", "狼族首领", "首领", "捕猎", "报复"],
        Q146["春生"]: ["最后一枪", "猎人的愤怒", "报复", "数字"], Q146["玉兰"]: ["救药", "毒药", "灵媒"], Q146["旺财"]: ["预言"],
        Q146["翠花"]: ["救治"], Q146["秋月"]: ["装傻"], Q146["冬梅"]: ["试验鸳鸯", "鸳鸯", "数字", "UFO", "担保", "投票 旺财 理由"]}),
    "154": Setup("154", r154.PLAYERS, _154, ["night 1", "day 1"], [r154.COVEN_GROUP, r154.BROTHERS_GROUP], {
        DIRECTOR: ["关门", "开门", "代 姥姥 吸精", "超时", "结算", "判负", *CORRECTIONS],
        Q154["姥姥"]: ["吸精", "冲锋", "姥姥之怒", "怒"], Q154["小倩"]: ["执子之手", "找", "额外吸精"], Q154["老妖"]: ["妖隐"],
        Q154["道士"]: ["预言"], Q154["蛊女"]: ["救药", "毒药"], Q154["郎中"]: ["针灸"], Q154["刀客"]: ["最后一刀"]}),
}


@st.composite
def texts(draw, words: list[str]) -> str:
    """A command word and what may follow it: mostly one argument, as people send them."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(st.text(max_size=40))
    parts = [draw(st.sampled_from(words))]
    parts += [draw(PIECES)] if shape < 6 else draw(st.lists(PIECES, max_size=4))
    return draw(SEPARATORS).join(parts) if shape < 8 else "".join(p + draw(SEPARATORS) for p in parts)


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
    """A private message; the stranger's comes from someone who is not the bot's friend (the bot leaves
    a friend who plays in no game to other plugins)."""
    return PrivateMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="group" if user == STRANGER else "friend",
        user_id=user, message_type="private",
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
    def __init__(self, friends: list[int]) -> None:
        self.friends = friends
        self.calls: list[tuple[str, dict]] = []

    def __call__(self, adapter, api: str, **data):
        self.calls.append((api, data))
        if api == "get_friend_list":
            return [{"user_id": qq, "nickname": str(qq), "remark": ""} for qq in self.friends]
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


class Decisions:
    """What the code decided while one event was handled: each command `Service.submit` was given and
    whether the game took it, and each answer `director.handle` gave (None: no director command)."""

    def __init__(self, service, monkeypatch) -> None:
        self.submitted: list[tuple[str, object, bool]] = []
        self.directed: list[tuple[str, str | None]] = []
        submit, handle = service.submit, director.handle

        async def watched_submit(t, cmd, source, *args, **kwargs):
            outcome = await submit(t, cmd, source, *args, **kwargs)
            self.submitted.append((source, cmd, outcome.ok))
            return outcome

        async def watched_handle(service, qq, *args, **kwargs):
            reply = await handle(service, qq, *args, **kwargs)
            self.directed.append((qq, reply))
            return reply

        monkeypatch.setattr(service, "submit", watched_submit)
        monkeypatch.setattr(director, "handle", watched_handle)

    def clear(self) -> None:
        self.submitted.clear()
        self.directed.clear()

    def by(self, qq: int) -> list[bool]:
        """Whether each command sent by player `qq` was taken."""
        return [ok for source, _, ok in self.submitted if source == f"qq:{qq}"]


@pytest.fixture
def decisions(banshabot, monkeypatch) -> Decisions:
    return Decisions(banshabot.service, monkeypatch)


# --- what is stored, and what is held in memory -------------------------------------------------------------
async def stored() -> tuple:
    games = [(g.id, g.title, g.status, tuple(g.directors), g.planned_close, g.closed_at) for g in await GameRow.all().order_by("id")]
    codirectors = sorted((d.game_id, d.qq) for d in await GameDirectorRow.all())
    seats = [(s.game_id, s.seat, s.name, s.qq, s.role, tuple(s.former_qq)) for s in await SeatRow.all().order_by("game_id", "seat")]
    commands = [(c.game_id, c.seq, str(c.payload)) for c in await CommandRow.all().order_by("game_id", "seq")]
    limits = sorted((d.game_id, d.key, d.due_at is None, str(d.due_at), d.done) for d in await DeadlineRow.all())
    teams = [(r.game_id, r.team, tuple(r.members), r.group_id) for r in await TeamRow.all().order_by("game_id", "team")]
    pool = [(p.group_id, p.original_name, p.game_id, p.team) for p in await PoolGroupRow.all().order_by("group_id")]
    return games, codirectors, seats, commands, limits, teams, pool


async def memory_is_the_database(service) -> None:
    for game_id, t in list(service.tables.items()):
        seats = [(s.seat, s.name, s.qq, s.role, list(s.former_qq)) for s in await SeatRow.filter(game_id=game_id).order_by("seat")]
        assert [(s.seat, s.name, s.qq, s.role, list(s.former_qq)) for s in t.seats] == seats, f"game {game_id}: seats"
        row = await GameRow.get(id=game_id)
        assert (t.row.status, t.row.directors, t.row.planned_close) == (row.status, row.directors, row.planned_close)
        if t.game is None:
            continue
        game = Game(get_ruleset(row.ruleset), [(s.name, s.role) for s in t.seats], seed=row.seed)
        rows = await CommandRow.filter(game_id=game_id).order_by("seq")
        assert t.next_seq == (rows[-1].seq + 1 if rows else 0), f"game {game_id}: the next entry's number"
        for entry, command in history.effective(rows):  # the game is its log with corrections applied
            assert game.apply(command).ok, f"game {game_id}: entry {entry.seq + 1} no longer applies"
        assert game.state == t.game.state, f"game {game_id}: the game in memory is not the stored one"


async def fresh_game(service, setup: Setup, stage: str) -> None:
    """Each example begins with a game of its own, at the stage it drew: nothing carries over."""
    await _empty_tables()
    service.forget()
    await setup.make(service, stage)


def unnamed(reply: str, titles: list[str]) -> str:
    """A director's answer without the game it went to, named first when several are running."""
    for title in titles:
        reply = reply.removeprefix(title)
    return reply


async def check(app: App, service, decisions: Decisions, event, setup: Setup, sender: int | None = None,
                group_due: int | None = None, answer: str | None = None) -> None:
    """Handle `event`; `sender`: who sent it (privately, or in a group), due an answer privately unless
    `group_due` says where; `answer`: the OneBot call a notice or request is due."""
    recorder = Recorder([qq for _, qq, _ in setup.players])
    async with app.test_matcher() as ctx:
        ctx.got_call_api = recorder
        bot = await connect(ctx)  # whatever was still queued went out here
        before = await stored()
        decisions.clear()
        ctx.receive_event(bot, event)
    said = recorder.all_texts()
    assert not [t for t in said if t.startswith(BROKEN)], said
    changed = await stored() != before
    if answer is not None:
        assert any(api == answer for api, _ in recorder.calls), f"no {answer}"
    if sender is None:  # a notice or a request
        assert not changed, "a notice or a request changed what is stored"
    elif (directed := [reply for qq, reply in decisions.directed if qq == str(sender) and reply is not None]):
        [reply] = directed
        bare = unnamed(reply, [f"（#{g.id} {g.title}）" for g in await GameRow.all()])
        done = RECEIPTS.match(bare) is not None
        assert recorder.texts("private", sender), "a director's command got no answer"
        if changed:
            assert done, f"stored a change, but answered {reply!r}"
        if done and not bare.startswith(AGAIN):
            assert changed, f"answered {reply!r}, but stored nothing"
        director_sent = [ok for source, _, ok in decisions.submitted if source == f"director:{sender}"]
        if director_sent and not any(director_sent):
            assert not changed and not done, f"the game refused it, but: {reply!r}"
    else:
        if event.message_type == "private":  # a team's choice sent privately is confirmed in the team's group
            replies = recorder.texts("private", sender) + [r for g in setup.groups for r in recorder.texts("group", g)]
            assert replies, "a private message got no answer"
        else:
            replies = recorder.texts("group", event.group_id)
            assert replies or group_due is None, "a team command in the team's group got no answer"
        taken = decisions.by(sender)
        if not any(taken):  # no command, or one the game refused
            assert not changed, f"stored a change from a message the game did not take: {replies!r}"
        if taken and not any(taken):
            assert any(r.startswith(REFUSED) for r in replies), f"refused, but answered {replies!r}"
        if any(taken):
            assert changed, "the game took a command but nothing was stored"
            assert not any(r.startswith(REFUSED) for r in replies), f"taken and stored, but answered {replies!r}"
    await memory_is_the_database(service)


# --- the examples ------------------------------------------------------------------------------------------------
@st.composite
def plausible(draw, words: list[str], setup: Setup) -> Message:
    """A command as a player or the director means it: a word, then seats or names (the game moves on)."""
    targets = [str(seat) for seat in range(1, len(setup.players) + 1)] + [name for name, _, _ in setup.players] + ["空"]
    parts = [draw(st.sampled_from(words))] + draw(st.lists(st.sampled_from(targets), max_size=draw(st.sampled_from([1, 1, 1, 2]))))
    return Message(" ".join(parts))


@st.composite
def sent(draw, setup: Setup) -> tuple[int, Message]:
    """One private message: most often the director's, or what a sender has to do, often as meant."""
    qqs = [qq for _, qq, _ in setup.players]
    sender = draw(st.one_of(st.just(DIRECTOR), st.sampled_from(sorted(setup.own)), st.sampled_from([STRANGER] + qqs)))
    words = DIRECTOR_WORDS if sender == DIRECTOR else setup.words
    own = setup.own.get(sender) or words
    return sender, draw(st.one_of(plausible(own, setup), plausible(own, setup), messages(own), messages(words)))


def conversations(setup: Setup):
    """A stage of the game, then a few messages in a row: a proposal and its 确认, an action and what it led to."""
    return st.tuples(st.sampled_from(setup.stages), st.lists(sent(setup), min_size=1, max_size=6))


async def private_messages(app, banshabot, decisions, setup: Setup, conversation) -> None:
    stage, messages = conversation
    await fresh_game(banshabot.service, setup, stage)
    for sender, message in messages:
        await check(app, banshabot.service, decisions, private(sender, message), setup, sender=sender)


@settings(FUZZ, max_examples=150)
@given(messages=conversations(SETUPS["M131"]))
# what once broke a game, whatever hypothesis makes up besides
@example(messages=("night 1", [(QQ["草莓"], Message("诽谤 ①")), (QQ["西瓜"], Message("预言 " + "9" * 2999))]))
@example(messages=("night 1", [(DIRECTOR, Message("协助 ①")), (DIRECTOR, Message("发牌 蓝牌 " + "9" * 5000))]))
@example(messages=("night 1", [(DIRECTOR, Message("替补 果果 123456789012345678901")), (DIRECTOR, Message("群池 添加 ³³³³³³"))]))
@example(messages=("night 1", [(DIRECTOR, Message("新游戏 M131 " + "长" * 200))]))
# refusals whose words a keyword check would take for receipts
@example(messages=("night 1", [(QQ["柠檬"], Message("通灵 3")), (QQ["芒果"], Message("守护 ³")), (QQ["果果"], Message("投降 同意"))]))
# a correction made and confirmed: the game is its log with the entry taken back
@example(messages=("day 2", [(DIRECTOR, Message("发牌 蓝牌 果果")), (DIRECTOR, Message("撤销")), (DIRECTOR, Message("撤销 11")),
                            (DIRECTOR, Message("确认")), (QQ["菠萝"], Message("遗言 [postbg]x[/postbg]")), (DIRECTOR, Message("开门"))]))
@example(messages=("day 2", [(DIRECTOR, Message("关门时间 22:00")), (DIRECTOR, Message("关门时间 22:00"))]))  # set again
async def test_any_private_message_in_an_m131_game_is_answered_and_breaks_nothing(app: App, banshabot, decisions, messages):
    await private_messages(app, banshabot, decisions, SETUPS["M131"], messages)


@settings(FUZZ, max_examples=120)
@given(messages=conversations(SETUPS["146"]))
@example(messages=("day 1", [(Q146["大勇"], Message("决策 ①")), (DIRECTOR, Message("新月 神秘的UFO " + "9" * 30)),
                            (DIRECTOR, Message("新月设置 " + " ".join(["王对王"] * 400)))]))
@example(messages=("day 1", [(DIRECTOR, Message("新月 狼族首领")), (DIRECTOR, Message("关门")), (DIRECTOR, Message("撤销")),
                            (DIRECTOR, Message("撤销 6")), (DIRECTOR, Message("确认"))]))
@example(messages=("猎人的愤怒", [(Q146["春生"], Message("最后一枪 ³")), (Q146["春生"], Message("猎人的愤怒 1")),
                                 (Q146["丫蛋"], Message("投票 阿福 他是狼")), (DIRECTOR, Message("私票")), (DIRECTOR, Message("计票"))]))
async def test_any_private_message_in_a_146_game_with_new_moons_is_answered_and_breaks_nothing(app: App, banshabot, decisions, messages):
    await private_messages(app, banshabot, decisions, SETUPS["146"], messages)


@settings(FUZZ, max_examples=90)
@given(messages=conversations(SETUPS["154"]))
async def test_any_private_message_in_a_154_game_is_answered_and_breaks_nothing(app: App, banshabot, decisions, messages):
    await private_messages(app, banshabot, decisions, SETUPS["154"], messages)


@st.composite
def group_messages(draw, setup: Setup) -> tuple[int, int, Message]:
    qqs = [qq for _, qq, _ in setup.players]
    sender = draw(st.sampled_from([*qqs[:6], STRANGER]))
    group = draw(st.sampled_from([*setup.groups, ELSEWHERE]))
    return sender, group, draw(st.one_of(plausible(setup.words, setup), messages(setup.words)))


@FUZZ
@given(case=st.sampled_from(sorted(SETUPS)).flatmap(
    lambda r: st.tuples(st.just(r), st.sampled_from(SETUPS[r].stages), group_messages(SETUPS[r]))))
@example(case=("M131", "night 1", (QQ["果果"], GROUP, Message("杀人 ³"))))
@example(case=("M131", "night 1", (QQ["果果"], GROUP, Message("杀人 " + "啊" * 5000))))
@example(case=("154", "night 1", (Q154["鬼甲"], r154.COVEN_GROUP, Message("怒 ①"))))
@example(case=("146", "狼王的生日", (Q146["阿福"], r146.POOL[0], Message("生日"))))
async def test_any_group_message_is_answered_where_due_and_breaks_nothing(app: App, banshabot, decisions, case):
    ruleset, stage, (sender, group, message) = case
    setup, service = SETUPS[ruleset], banshabot.service
    await fresh_game(service, setup, stage)
    t = await service.table(1)
    due = None
    owner = await groups.owner_of(str(group))
    seat = t.seat_by_qq(str(sender))
    if owner is not None and seat is not None and seat.name in owner[1].members and t.game.phase != "over":
        try:
            command = parse.player_text(message.extract_plain_text().replace("\x00", ""), t.game.rules, seat.name)
            skill = t.game.rules.skill(getattr(command, "skill", ""))
            due = group if skill is not None and (skill.team or skill.attaches_to) else None
        except parse.TooLong:
            due = group
        except parse.ParseError:
            pass
    await check(app, service, decisions, in_group(group, sender, message), setup, sender=sender, group_due=due)


@FUZZ
@given(kind=st.sampled_from(["joined", "left", "friend", "join", "invite"]),
       user=st.sampled_from([STRANGER, QQ["果果"], QQ["西瓜"], int(BOT_ID), 1, 10 ** 12]),
       group=st.sampled_from([GROUP, FREE, ELSEWHERE]), comment=st.text(max_size=30))
async def test_any_notice_or_request_is_answered_where_due_and_breaks_nothing(app: App, banshabot, decisions, kind, user, group, comment):
    base = {"time": 1764590400 + next(_ids), "self_id": int(BOT_ID), "user_id": user}  # one join is not another's repeat
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
    await fresh_game(banshabot.service, SETUPS["M131"], "night 1")
    await check(app, banshabot.service, decisions, event, SETUPS["M131"], answer=answer)
