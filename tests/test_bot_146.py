"""146 (创造营2021) in the bot, as its players and directors use it.

- Set-up: 新游戏 146, 名单 (22), 分配 固定, 开始; the cupid's 丘比特之箭 by private chat (two targets, a wrong
  count answered); at 开门 (146 begins with day 1) the 狼群, the 情侣群 and the 姐妹群 are formed as the post
  says — "1、游戏开始时，丘比特选择情侣。2、所有角色的阵营确定，狼人共群，情侣共群，非情侣的两姐妹共群。" — and not
  before: nobody is told a team he is about to leave, and no team hears of the lovers.
- The hunter: voted out by day he is asked privately for <最后一枪> until 30 minutes after the next 关门;
  killed in the night he is asked when the night settles, for 30 minutes from that moment, and his
  victim joins the night's deaths in the 开门 announcement.
- The sheriff: elected on day 1 and asked privately to <任命> a 执警; voted out, asked for <殉职>
  (no tearing: it is <强制>), his successor asked to <任命>; a missed limit moves the badge at random.

Line-up (seat, name, identity): 1 阿福 狼王, 2 阿贵 / 3 来福 / 6 银宝 / 8 桂香 / 18 招娣 狼人, 4 旺财 预言家,
7 玉兰 女巫, 9 翠花 医生, 10 铁柱 长老, 11 二狗 吉普赛人, 12 春生 猎人, 13 秋月 白痴, 14 冬梅 丘比特,
15 夏荷 / 16 小满 两姐妹, 5 金宝 / 17 大勇 / 19 狗蛋 / 20 丫蛋 / 21 铁蛋 / 22 石头 村民.
"""
from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from nonebug import App

from bot_helpers import (
    hides_history,
    promised,
    DIRECTOR,
    LineWith,
    chat,
    director_hears,
    drain,
    join_request,
    lists_members,
    posts,
    private,
    renames,
    says,
    says_with,
)
from conftest import NOW
from engine import Act, Ballots, CloseDay, Configure, OpenDay, Timeout
from service import groups
from service.models import GameRow, DeadlineRow, OutboxRow, TeamRow
from service.texts import clock

pytestmark = pytest.mark.usefixtures("clean")

PLAYERS = [
    ("阿福", 40001, "狼王"), ("阿贵", 40002, "狼人"), ("来福", 40003, "狼人"), ("旺财", 40004, "预言家"),
    ("金宝", 40005, "村民"), ("银宝", 40006, "狼人"), ("玉兰", 40007, "女巫"), ("桂香", 40008, "狼人"),
    ("翠花", 40009, "医生"), ("铁柱", 40010, "长老"), ("二狗", 40011, "吉普赛人"), ("春生", 40012, "猎人"),
    ("秋月", 40013, "白痴"), ("冬梅", 40014, "丘比特"), ("夏荷", 40015, "两姐妹"), ("小满", 40016, "两姐妹"),
    ("大勇", 40017, "村民"), ("招娣", 40018, "狼人"), ("狗蛋", 40019, "村民"), ("丫蛋", 40020, "村民"),
    ("铁蛋", 40021, "村民"), ("石头", 40022, "村民"),
]
QQ = {name: qq for name, qq, _ in PLAYERS}
SEAT = {name: i for i, (name, _, _) in enumerate(PLAYERS, 1)}
WOLVES = ["阿福", "阿贵", "来福", "银宝", "桂香", "招娣"]
SISTERS = ["夏荷", "小满"]
TITLE = "[146]《创造营2021》"
# the pool, lent in group-number order to the teams in the order the game sets them: 狼群, 姐妹群, 情侣群
POOL = [920001, 920002, 920003]
COMMANDS = "指令：技能 目标（座位号或角色名）/ 放弃 / 遗言 内容 / 状态 / 帮助"
HUNTER_ASKED_BY_DAY = "你已出局：可以<最后一枪>，发送“最后一枪 座位号”使一名其他角色立即出局，或“放弃”（关门后30分钟内有效）。"
HUNTER_ASKED_AT_NIGHT = "你已出局：可以<最后一枪>，发送“最后一枪 座位号”使一名其他角色立即出局，或“放弃”（30分钟内有效）。"
APPOINT_ASKED = "你是警长，须<任命>一名执警：发送“任命 座位号”（不能任命自己；关门后30分钟内，否则随机任命）。"
BADGE_ASKED = "你已出局，须<殉职>：发送“殉职 座位号”选择一名未出局的角色继任警长（关门后30分钟内，否则随机移交）。"
LAST_WORDS = "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。"


def label(name: str) -> str:
    return f"{SEAT[name]}号 {name}"


def roster(names: list[str]) -> str:
    return "、".join(label(n) for n in sorted(names, key=SEAT.get))


def others(*names: str) -> str:
    """Every player but `names`, in seat order."""
    return roster([n for n, _, _ in PLAYERS if n not in names])


NO_VOTE = "加速前的讨论日不投票者，判两张蓝牌"


def unvoted(day: int, word: str, *voters: str) -> str:
    """What only the director is told after a count: who did not vote and the card the post gives them
    (★ "3、加速前的讨论日不投票者，判两张蓝牌"): the bot gives it after the exile count, the director decides
    after the election's."""
    decided = f"已给{others(*voters)}各记两张蓝牌（免除请发送“免牌 角色”）" if word == "放逐投票" else "请决定是否发牌"
    return f"第{day}天{word}（仅导演可见）：\n未投票：{others(*voters)}。规则：{NO_VOTE}，{decided}"


def carded(ctx, day: int, *voters: str, out: tuple[str, ...] = ()) -> None:
    """Every living player but `voters` is told the two blue cards he got for not voting."""
    for name in QQ:
        if name not in voters and name not in out:
            says(ctx, QQ[name], f"导演判罚：你获得两张蓝牌（第{day}天没有投票。规则：{NO_VOTE}）。")


# 讨论日长短: "A日上午开帖，到A+1日晚上关帖……第一天讨论日不因周末而延长": opened 12-01, it closes 12-02 at 22:00
# the 开门 post ends with the day's closing time, as the post's day length sets it
CLOSES = "\n\n[b]本日关门时间[/b]\n12-02 22:00"
PROPOSED_CLOSE = ("已执行。本日关门时间（按规则：一般是A日上午开帖，到A+1日晚上关帖。每逢周末就延长一天，也就是A+2日晚上关帖。"
                  "例外的，第一天讨论日不因周末而延长。）：12-02 22:00。需要更改请发送“关门时间 12-01 22:00”。")
IDENTITIES = "身份表：\n" + "\n".join(
    f"{i}号 {name}（QQ {qq}）：{role}，{'狼人阵营' if role in ('狼王', '狼人') else '村民阵营'}" for i, (name, qq, role) in enumerate(PLAYERS, 1))


async def director(app: App, text: str, *replies: str) -> None:
    """The director sends `text` and reads exactly `replies` (nothing goes to anyone else)."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, text))
        director_hears(ctx, *replies)


async def player(app: App, name: str, text: str, *replies: str) -> None:
    """A player sends `text` privately and reads exactly `replies` (nothing goes to anyone else)."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ[name], text))
        for reply in replies:
            says(ctx, QQ[name], reply)


# --- a game set up straight through the service (for the tests about what comes after) ---------------
async def started(service, arrow: str | None = "19 21", moons="none"):
    """A started 146 game (#1, seed 146) whose cupid has shot `arrow`, with the new moons `moons` in play
    (none: the rules of 2L–5L alone); the pool holds three groups. Nothing is left in the outbox."""
    for group in POOL:
        await groups.add_to_pool(str(group), f"闲聊{group}")
    row = await service.create(str(DIRECTOR), "146", "")
    row.seed = 146  # the random badge hand-over below is the seed's: fixed, so the test is too
    await row.save()
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])
    await service.start(t)
    await does(service, t, Configure("moons", moons))
    if arrow:
        await does(service, t, Act(by="冬梅", skill="丘比特之箭", target=arrow.split()))
    await drain()
    return t


async def does(service, t, cmd) -> None:
    outcome = await service.submit(t, cmd, source="test")
    assert outcome.ok, outcome.error
    await drain()


async def quiet_night(service, t, kill: str | None = None) -> None:
    """Every night action in: the pack kills `kill` (or passes), everyone else passes; the night
    settles itself. Drained."""
    g = t.game
    while g.rules.awaiting(g):
        who, slot = g.rules.awaiting(g)[0]
        if who == "狼群":
            wolf = next(n for n in g.state.teams["狼群"] if g.state.player(n).alive)
            await does(service, t, Act(by=wolf, skill="杀人", target=kill))
        else:
            await does(service, t, Act(by=who, skill="放弃"))
    assert g.night.resolved


async def day_two(service, t, sheriff: str = "大勇", deputy: str = "丫蛋") -> None:
    """Day 1: `sheriff` elected, `deputy` appointed; a quiet night 1; 开门 into day 2 (no closing time
    announced, so limits counted from 关门 wait for it)."""
    await does(service, t, OpenDay())
    await does(service, t, Ballots("election", (("阿福", sheriff), (sheriff, sheriff))))
    await does(service, t, Act(by=sheriff, skill="任命", target=str(SEAT[deputy])))
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())


def said_to(sent, to: int) -> list[str]:
    """The texts in `sent` (drained actions) sent to QQ or group `to`."""
    return [p["text"] for a, p in sent if a.startswith("send_") and to in (p.get("user_id"), p.get("group_id"))]


async def heard_by(name: str) -> tuple[set[int], set[int]]:
    """Everyone (private QQ, group) the bot has told anything naming `name` so far."""
    private_to, groups_to = set(), set()
    for row in await OutboxRow.filter(action__in=("send_private_msg", "send_group_msg")):
        if name in row.params["text"]:
            (private_to if "user_id" in row.params else groups_to).add(row.params.get("user_id") or row.params["group_id"])
    return private_to, groups_to


# --- set-up through the bot ----------------------------------------------------------------------------------
async def test_a_146_game_is_set_up_and_its_groups_formed_when_day_one_opens(app: App, banshabot):
    """Black lovers (来福, a wolf, and 金宝, a villager): 来福 is never in the 狼群 and never learns it;
    the lovers share the 情侣群 without the single cupid; the sisters get the 姐妹群."""
    for group in POOL:
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(DIRECTOR, f"群池 添加 {group} 闲聊{group}"))
            lists_members(ctx, group)
            hides_history(ctx, group)
            says(ctx, DIRECTOR, f"群 {group} 已加入群池。")
    await director(app, "新游戏 146", "已创建游戏 #1（146）。下一步：发送“名单”，之后每行“角色名 QQ号”。")
    await director(app, "名单\n" + "\n".join(f"{n} {qq}" for n, qq, _ in PLAYERS),
                   "名单已保存：\n" + "\n".join(f"{i}号 {n} {qq}" for i, (n, qq, _) in enumerate(PLAYERS, 1))
                   + "\n下一步：“检查”，然后“分配 随机”。")
    await director(app, "分配 固定\n" + "\n".join(f"{n} {r}" for n, _, r in PLAYERS),
                   "已按给定分配身份。发送“状态”查看，确认后发送“开始”。")
    row = await GameRow.get(id=1)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        for group in POOL:  # the groups are lent only at 开门, but checked now, at the start
            lists_members(ctx, group)
            hides_history(ctx, group)
        for name, qq, role in PLAYERS:  # the briefs; no group yet: the lovers are not chosen
            faction = "狼人阵营" if name in WOLVES else "村民阵营"
            says_with(ctx, qq, f"你的角色：{label(name)}\n你的身份：{role}（{faction}）", "行动时限：")
        says(ctx, DIRECTOR, promised(row, PLAYERS))
        says(ctx, DIRECTOR, "游戏已开始，每名玩家都已收到身份。开局技能（如丘比特之箭）收齐后，发送“开门”进入第一个白天。\n" + IDENTITIES)
    assert await TeamRow.all().count() == 0

    # the cupid: 帮助 names his skill; a wrong count or a bad pair is answered and changes nothing
    await player(app, "冬梅", "帮助",
                 "你是 14号 冬梅，身份：丘比特。<丘比特之箭>（强制）：游戏开始时选择两名角色成为情侣（发送“丘比特之箭 座位号 座位号”，可以选自己；第一天开门前未选则随机），你的阵营随情侣\n"
                 f"现在可以：丘比特之箭 座位号 座位号（导演第一次开门前）\n{COMMANDS}")
    two = "<丘比特之箭>需要2个目标：请发送“丘比特之箭 座位号 座位号”。"
    await player(app, "冬梅", "丘比特之箭 3", two)
    await player(app, "冬梅", "丘比特之箭", two)
    await player(app, "冬梅", "箭 3 5 7", two)
    await player(app, "冬梅", "丘比特之箭 3 3", "未执行：<丘比特之箭>须选择两名不同的角色")
    await player(app, "冬梅", "丘比特之箭 3 99", "未执行：没有找到角色「99」，请发送座位号或角色名")
    await player(app, "金宝", "丘比特之箭 3 5", "未执行：金宝 的身份没有<丘比特之箭>")
    await player(app, "阿福", "杀人 5", "未执行：<杀人>只能在夜晚发动")
    t = await banshabot.service.table(1)
    assert "lovers" not in t.game.state.carry
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["冬梅"], "丘比特之箭 3，5"))
        says(ctx, QQ["冬梅"], "已收到：丘比特之箭 3号 来福、5号 金宝。游戏开始时他们成为情侣。")
        says(ctx, DIRECTOR, "14号 冬梅：丘比特之箭 3 5")
    await player(app, "冬梅", "丘比特之箭 6 7", "未执行：<丘比特之箭>已经发动过")
    assert t.game.state.carry["lovers"] == ["来福", "金宝"]
    assert await TeamRow.all().count() == 0

    pack = [w for w in WOLVES if w != "来福"]
    async with chat(app) as (ctx, bot):  # 开门: the lovers are formed, then every team gets its group
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        for group in POOL:  # checked again before any is lent
            lists_members(ctx, group)
            hides_history(ctx, group)
        says(ctx, QQ["来福"], "丘比特之箭：你与 5号 金宝 成为情侣。<殉情>：情侣中一人出局，另一人立即出局。"
                             "你们属于不同阵营，私奔形成【黑情侣阵营】：胜利条件为其他阵营全部判负。你失去<杀人>，离开狼群。")
        says(ctx, QQ["金宝"], "丘比特之箭：你与 3号 来福 成为情侣。<殉情>：情侣中一人出局，另一人立即出局。"
                             "你们属于不同阵营，私奔形成【黑情侣阵营】：胜利条件为其他阵营全部判负。")
        says(ctx, QQ["冬梅"], "情侣已产生，你的阵营变为【黑情侣阵营】。")
        says(ctx, DIRECTOR, "情侣：3号 来福、5号 金宝（黑情侣阵营）")
        for group, team, members in ((POOL[0], "狼群", pack), (POOL[1], "姐妹群", SISTERS), (POOL[2], "情侣群", ["来福", "金宝"])):
            renames(ctx, group, f"{TITLE}·{team}")
            for name in members:
                says(ctx, QQ[name], f"你属于【{team}】，成员：{roster(members)}。请申请加入QQ群 {group}，我会通过你的申请。")
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n[b]开门，第1天（警长竞选）[/b]\n当日警长：无\n当日执警：无" + CLOSES)
        says(ctx, DIRECTOR, PROPOSED_CLOSE)

    reject = {"approve": False, "reason": "此群仅限本局队伍成员加入"}
    async with chat(app) as (ctx, bot):  # who may join which group
        for i, (group, name, approve) in enumerate((
            (POOL[0], "阿福", True), (POOL[0], "来福", False), (POOL[2], "来福", True), (POOL[2], "金宝", True),
            (POOL[2], "冬梅", False),  # "如果丘比特单身，丘比特不与情侣共群"
            (POOL[1], "夏荷", True), (POOL[1], "金宝", False),
        )):
            ctx.receive_event(bot, join_request(group, QQ[name], f"flag-{i}"))
            answer = {"approve": True} if approve else reject
            ctx.should_call_api("set_group_add_request", {"flag": f"flag-{i}", "sub_type": "add", **answer}, result=None)

    # nothing about the lovers reached anyone not entitled to it: not the pack, not the sisters
    for lover in ("来福", "金宝"):
        private_to, groups_to = await heard_by(lover)
        assert private_to <= {QQ["来福"], QQ["金宝"], QQ["冬梅"], DIRECTOR}, lover
        assert groups_to <= {POOL[2]}, lover
    # the director's log shows the two-target act as it was sent
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "日志"))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": LineWith("14号 冬梅：丘比特之箭 3 5")}, result={"message_id": 1})


@pytest.mark.parametrize("arrow, teams", [
    # 私奔: a wolf and a villager elope; "若情侣中有且只有一名狼人，则它……不与其他狼人阵营的角色互知共群"
    ("3 5", {"狼群": [w for w in WOLVES if w != "来福"], "姐妹群": SISTERS, "情侣群": ["来福", "金宝"]}),
    # 默契: "当两姐妹中任意一名角色为情侣之一时，两姐妹不互知也不共群"
    ("15 17", {"狼群": WOLVES, "情侣群": ["夏荷", "大勇"]}),
    ("19 21", {"狼群": WOLVES, "姐妹群": SISTERS, "情侣群": ["狗蛋", "铁蛋"]}),
    # "情侣在成为情侣后互知共群（双狼情侣除外）": they stay in the pack, no group of their own
    ("2 3", {"狼群": WOLVES, "姐妹群": SISTERS}),
    # "如果丘比特单身……": a cupid who chose himself is a lover and in the group
    ("14 17", {"狼群": WOLVES, "姐妹群": SISTERS, "情侣群": ["冬梅", "大勇"]}),
])
async def test_the_teams_formed_at_day_one_follow_the_lovers(banshabot, arrow, teams):
    service = banshabot.service
    t = await started(service, arrow)
    assert await TeamRow.all().count() == 0  # nothing before the first 开门
    await service.submit(t, OpenDay(), source="test")
    sent = await drain()
    stored = {row.team: (row.members, int(row.group_id)) for row in await TeamRow.all()}
    assert {team: members for team, (members, _) in stored.items()} == teams
    renamed = {p["group_id"]: p["group_name"] for a, p in sent if a == "set_group_name"}
    assert renamed == {group: f"{TITLE}·{team}" for team, (_, group) in stored.items()}
    for team, (members, group) in stored.items():
        for name, qq, _ in PLAYERS:
            told = [text for text in said_to(sent, qq) if f"你属于【{team}】" in text]
            assert bool(told) == (name in members), (team, name)
            assert await groups.may_join(str(group), str(qq)) == (name in members), (team, name)
    lovers = t.game.state.carry["lovers"]
    for name, _, _ in PLAYERS:  # the lovers are named to each other, the cupid and the director only
        if name in lovers:
            continue
        for lover in lovers:
            assert not any(lover in text for text in said_to(sent, QQ[name]) if "情侣" in text), (name, lover)
    for team, (members, group) in stored.items():  # and in no group but their own
        if team != "情侣群":
            assert not any("情侣" in text for text in said_to(sent, group)), team
    if "姐妹群" not in teams:  # "两姐妹不互知": neither sister hears of the other
        other = next(s for s in SISTERS if s not in lovers)
        mate = next(s for s in SISTERS if s in lovers)
        assert not any(mate in text for text in said_to(sent, QQ[other]))


# --- the hunter ------------------------------------------------------------------------------------------
async def test_a_hunter_voted_out_by_day_is_asked_privately_until_30_minutes_after_closing(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service)
    await day_two(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票 阿福:春生 春生:阿福 旺财:春生"))
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n12号 春生 2票、1号 阿福 1票\n结果：12号 春生\n"
                            "票型：\n1号 阿福 → 12号 春生\n12号 春生 → 1号 阿福\n4号 旺财 → 12号 春生\n"
                            f"未投票：{others('阿福', '春生', '旺财')}")
        says(ctx, DIRECTOR, unvoted(2, "放逐投票", "阿福", "春生", "旺财"))
        says(ctx, DIRECTOR, "12号 春生 出局（投票）")
        says(ctx, QQ["春生"], HUNTER_ASKED_BY_DAY)
        says(ctx, DIRECTOR, "等待 12号 春生 发动<最后一枪>")
        says(ctx, DIRECTOR, "【可公示】放逐投票：12号 春生 出局")
        says(ctx, QQ["春生"], LAST_WORDS)
        carded(ctx, 2, "阿福", "春生", "旺财")  # "加速前的讨论日不投票者，判两张蓝牌": the bot gives them
        says(ctx, DIRECTOR, "计票完成：12号 春生 2票、1号 阿福 1票；结果：12号 春生。可公示的计票结果见上。")
    # 30 minutes after a 关门 not yet known: stored, and scheduled once the director closes the day
    row = await DeadlineRow.get(key="最后一枪:春生:day2")
    assert (row.who, row.anchor, row.minutes, row.due_at, row.done) == (["春生"], "close", 30, None, False)
    assert f"deadline:{row.id}" not in scheduler.jobs
    async with chat(app) as (ctx, bot):  # the director's 状态 says the same
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": LineWith(
            "时限：春生<最后一枪> 截止 关门后30分钟")}, result={"message_id": 1})
    await player(app, "春生", "帮助",
                 "你是 12号 春生，身份：猎人。非因红牌出局后可以<最后一枪>使一名其他角色立即出局\n"
                 "等待你决定：<最后一枪>，发送“最后一枪 座位号”（截止 关门后30分钟）\n"
                 f"你可以留下遗言：发送“遗言 内容”，下一次开门前有效。\n{COMMANDS}")
    await player(app, "春生", "最后一枪", "<最后一枪>需要一个目标：请发送“最后一枪 座位号”或“最后一枪 角色名”。")
    await player(app, "春生", "枪 1 2", "<最后一枪>只需要一个目标：请发送“最后一枪 座位号”或“最后一枪 角色名”。")
    await player(app, "春生", "最后一枪 12", "未执行：<最后一枪>须选择一名其他角色")
    await player(app, "旺财", "最后一枪 1", "未执行：旺财 现在不能发动<最后一枪>。发送“帮助”查看你现在能做什么和怎样发送")
    async with chat(app) as (ctx, bot):  # "投票结束后，因投票而触发的……猎人<最后一枪>、以及被枪杀的角色立即公示"
        ctx.receive_event(bot, private(QQ["春生"], "最后一枪 1"))
        says(ctx, QQ["春生"], "已收到：最后一枪 1号 阿福。")
        says(ctx, DIRECTOR, "1号 阿福 出局（最后一枪）")
        says(ctx, DIRECTOR, "【可公示】最后一枪：1号 阿福 出局")
        says(ctx, QQ["阿福"], LAST_WORDS)
        says(ctx, DIRECTOR, "12号 春生：最后一枪 1")
    await row.refresh_from_db()
    assert row.done
    await player(app, "春生", "最后一枪 2", "未执行：春生 现在不能发动<最后一枪>。发送“帮助”查看你现在能做什么和怎样发送")
    await does(service, t, CloseDay())
    assert f"deadline:{row.id}" not in scheduler.jobs


async def test_a_hunter_voted_out_who_lets_the_limit_pass_gives_up_the_shot(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service)
    await day_two(service, t)
    await does(service, t, Ballots("exile", (("阿福", "春生"),)))
    row = await DeadlineRow.get(key="最后一枪:春生:day2")
    await does(service, t, CloseDay())  # 关门 at 20:00: his limit is now 20:30
    await row.refresh_from_db()
    assert clock(row.due_at) == "12-01 20:30"
    assert scheduler.jobs[f"deadline:{row.id}"][0] == NOW + timedelta(minutes=30)
    async with chat(app) as (ctx, bot):
        says(ctx, DIRECTOR, "时限已到：春生<最后一枪>，按规则处理")
        says(ctx, QQ["春生"], "<最后一枪>的时限已到，已按规则处理。")
        says(ctx, DIRECTOR, "春生 未在时限内发动<最后一枪>，视为放弃")
        await scheduler.run(f"deadline:{row.id}")
    assert all(p.alive for p in t.game.state.players if p.name != "春生")


async def test_a_shot_sent_after_closing_is_still_published(banshabot):
    """"投票结束后，因投票而触发的……猎人<最后一枪>、以及被枪杀的角色立即公示" — within his 30 minutes after 关门 too."""
    service = banshabot.service
    t = await started(service)
    await day_two(service, t)
    await does(service, t, Ballots("exile", (("阿福", "春生"),)))
    await does(service, t, CloseDay())
    outcome = await service.submit(t, Act(by="春生", skill="最后一枪", target="1"), source="test")
    assert outcome.ok, outcome.error
    assert not t.game.state.player("阿福").alive
    sent = await drain()
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    sent += await drain()
    published = [text for text in said_to(sent, DIRECTOR) if text.startswith("【")]
    assert any("1号 阿福" in text for text in published), published


async def test_a_hunter_killed_at_night_is_asked_when_the_night_settles(app: App, banshabot, clean, monkeypatch):
    """"猎人一旦出局，猎人需立即决定<最后一枪>，被枪杀的角色立即在猎人出局之后出局"; "猎人<最后一枪>收到反馈后半小时"."""
    service, scheduler = banshabot.service, clean
    t = await started(service)
    await does(service, t, OpenDay())
    await does(service, t, Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))))
    await does(service, t, Act(by="大勇", skill="任命", target="20"))
    await does(service, t, CloseDay())  # 20:00
    await does(service, t, Act(by="翠花", skill="放弃"))
    await does(service, t, Act(by="阿贵", skill="杀人", target="春生"))
    await does(service, t, Act(by="阿福", skill="放弃"))
    await does(service, t, Act(by="旺财", skill="放弃"))
    later = NOW + timedelta(minutes=40)  # the witch answers at 20:40: the hunter's 30 minutes start then
    monkeypatch.setattr(service, "now", lambda: later)
    async with chat(app) as (ctx, bot):  # the last action: the bot settles the night at once
        ctx.receive_event(bot, private(QQ["玉兰"], "放弃"))
        says(ctx, QQ["玉兰"], "已收到：放弃。")
        says(ctx, DIRECTOR, "7号 玉兰：放弃")
        says(ctx, DIRECTOR, "12号 春生 出局（杀人）")
        says(ctx, QQ["春生"], HUNTER_ASKED_AT_NIGHT)
        says(ctx, DIRECTOR, "等待 12号 春生 发动<最后一枪>")
        says(ctx, DIRECTOR, "时限开始：春生<最后一枪>，截止 12-01 21:10")
    row = await DeadlineRow.get(key="最后一枪:春生:night1")
    assert (row.anchor, row.minutes, row.due_at) == ("now", 30, later + timedelta(minutes=30))
    assert scheduler.jobs[f"deadline:{row.id}"][0] == later + timedelta(minutes=30)
    assert t.game.night.held == []  # nobody else was to go out: the draft waits only for his answer
    await player(app, "春生", "帮助",
                 "你是 12号 春生，身份：猎人。非因红牌出局后可以<最后一枪>使一名其他角色立即出局\n"
                 f"等待你决定：<最后一枪>，发送“最后一枪 座位号”（截止 12-01 21:10）\n{COMMANDS}")
    async with chat(app) as (ctx, bot):  # his victim goes out in the night, after him
        ctx.receive_event(bot, private(QQ["春生"], "最后一枪 金宝"))
        says(ctx, QQ["春生"], "已收到：最后一枪 5号 金宝。")
        says(ctx, DIRECTOR, "5号 金宝 出局（最后一枪）")
        says(ctx, DIRECTOR, "12号 春生：最后一枪 金宝")
        says(ctx, DIRECTOR, "夜晚已结算，开门公告草稿：昨晚出局：春生、金宝")
    assert f"deadline:{row.id}" not in scheduler.jobs
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        says(ctx, QQ["春生"], LAST_WORDS)
        says(ctx, QQ["金宝"], LAST_WORDS)
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n[b]开门，第2天（放逐投票）[/b]\n"
                            "前一天投票出局：无\n昨晚出局：12号 春生、5号 金宝\n当日警长：17号 大勇\n当日执警：20号 丫蛋" + CLOSES)
        says(ctx, DIRECTOR, PROPOSED_CLOSE)


async def test_a_hunter_killed_at_night_who_lets_the_limit_pass(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service)
    await does(service, t, OpenDay())
    await does(service, t, Ballots("election", (("阿福", "大勇"),)))
    await does(service, t, CloseDay())
    await quiet_night(service, t, kill="春生")
    row = await DeadlineRow.get(key="最后一枪:春生:night1")
    assert row.due_at == NOW + timedelta(minutes=30)
    async with chat(app) as (ctx, bot):
        says(ctx, DIRECTOR, "时限已到：春生<最后一枪>，按规则处理")
        says(ctx, QQ["春生"], "<最后一枪>的时限已到，已按规则处理。")
        says(ctx, DIRECTOR, "春生 未在时限内发动<最后一枪>，视为放弃")
        says(ctx, DIRECTOR, "夜晚已结算，开门公告草稿：昨晚出局：春生")
        await scheduler.run(f"deadline:{row.id}")


# --- the sheriff -------------------------------------------------------------------------------------------
ELECTION_POSTS = "竞选\n3楼 阿福\n投票对象：大勇\n投票理由：稳重\n4楼 大勇\n投票对象：大勇\n投票理由：我来\n5楼 旺财\n投票对象：石头\n投票理由：看好"


async def test_the_elected_sheriff_is_asked_privately_to_appoint_a_deputy(app: App, banshabot):
    service = banshabot.service
    t = await started(service)
    await does(service, t, OpenDay())
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, ELECTION_POSTS))
        says(ctx, DIRECTOR, "【可公示】第1天警长竞选结果：\n17号 大勇 2票、22号 石头 1票\n结果：17号 大勇 当选警长\n"
                            "票型：\n1号 阿福 → 17号 大勇\n17号 大勇 → 17号 大勇\n4号 旺财 → 22号 石头\n"
                            f"未投票：{others('阿福', '大勇', '旺财')}")
        says(ctx, DIRECTOR, unvoted(1, "警长竞选", "阿福", "大勇", "旺财"))
        says(ctx, QQ["大勇"], "你当选了警长。<带队>：你的投票计为2.5票。<殉职>：你非因红牌出局后须选择一名未出局的角色继任警长（发送“殉职 座位号”）。<任命>：你须立即任命一名执警（发送“任命 座位号”，不能是自己）。")
        says(ctx, QQ["大勇"], APPOINT_ASKED)
        says(ctx, DIRECTOR, "等待 17号 大勇 发动<任命>")
        says(ctx, DIRECTOR, "计票完成：17号 大勇 2票、22号 石头 1票；结果：17号 大勇。可公示的计票结果见上。")
    row = await DeadlineRow.get(key="任命:大勇:day1")
    assert (row.anchor, row.minutes, row.due_at) == ("close", 30, None)
    await player(app, "大勇", "帮助", "你是 17号 大勇，身份：村民。没有技能\n"
                                      f"等待你决定：<任命>，发送“任命 座位号”（截止 关门后30分钟）\n{COMMANDS}")
    await player(app, "大勇", "任命", "<任命>需要一个目标：请发送“任命 座位号”或“任命 角色名”。")
    await player(app, "大勇", "任命 17", "未执行：不能任命自己为执警，请选择其他角色")
    await player(app, "石头", "任命 20", "未执行：石头 现在不能发动<任命>。发送“帮助”查看你现在能做什么和怎样发送")
    async with chat(app) as (ctx, bot):  # "当选警长的角色需要立即在投票贴内任命一个执警"
        ctx.receive_event(bot, private(QQ["大勇"], "执警 20"))
        says(ctx, QQ["大勇"], "已收到：任命 20号 丫蛋 为执警。")
        says(ctx, DIRECTOR, "【可公示】警长 17号 大勇 任命 20号 丫蛋 为执警")
        says(ctx, QQ["丫蛋"], "你被任命为执警。<代理>：你的投票计为1票。")
        says(ctx, DIRECTOR, "17号 大勇：任命 20")
    assert (t.game.state.sheriff, t.game.state.carry["deputy"]) == ("大勇", "丫蛋")
    await row.refresh_from_db()
    assert row.done


async def test_a_sheriff_voted_out_hands_over_the_badge_and_the_heir_appoints(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service)
    await day_two(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票 阿贵:大勇 旺财:大勇 石头:大勇 大勇:阿贵"))
        # 带队: the sheriff's ballot counts 2.5
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n17号 大勇 3票、2号 阿贵 2.5票\n结果：17号 大勇\n"
                            "票型：\n2号 阿贵 → 17号 大勇\n4号 旺财 → 17号 大勇\n22号 石头 → 17号 大勇\n17号 大勇 → 2号 阿贵（2.5票）\n"
                            f"未投票：{others('阿贵', '旺财', '石头', '大勇')}\n计票说明：警长 17号 大勇 的票计为2.5票")
        says(ctx, DIRECTOR, unvoted(2, "放逐投票", "阿贵", "旺财", "石头", "大勇"))
        says(ctx, DIRECTOR, "17号 大勇 出局（投票）")
        says(ctx, QQ["大勇"], BADGE_ASKED)
        says(ctx, DIRECTOR, "等待 17号 大勇 发动<殉职>")
        says(ctx, DIRECTOR, "【可公示】放逐投票：17号 大勇 出局")
        says(ctx, QQ["大勇"], LAST_WORDS)
        carded(ctx, 2, "阿贵", "旺财", "石头", "大勇")
        says(ctx, DIRECTOR, "计票完成：17号 大勇 3票、2号 阿贵 2.5票；结果：17号 大勇。可公示的计票结果见上。")
    row = await DeadlineRow.get(key="殉职:大勇:day2")
    assert (row.anchor, row.minutes, row.due_at) == ("close", 30, None)
    assert f"deadline:{row.id}" not in scheduler.jobs
    await player(app, "大勇", "帮助", "你是 17号 大勇，身份：村民。没有技能\n"
                                      "等待你决定：<殉职>，发送“殉职 座位号”（截止 关门后30分钟）\n"
                                      f"你可以留下遗言：发送“遗言 内容”，下一次开门前有效。\n{COMMANDS}")
    # 殉职<强制>: a successor must be named; tearing the badge is not offered, and refused in Chinese
    await player(app, "大勇", "殉职", "<殉职>需要一个目标：请发送“殉职 座位号”或“殉职 角色名”。")
    await director(app, "代 大勇 殉职", "<殉职>需要一个目标：请发送“殉职 座位号”或“殉职 角色名”。")
    await player(app, "大勇", "殉职 撕", "未执行：<殉职>是强制技，不能撕警徽：请发送“殉职 座位号”选择一名未出局的角色继任警长")
    await player(app, "大勇", "殉职 大勇", "未执行：不能把警徽移交给自己，请选择其他角色")
    await player(app, "大勇", "殉职 99", "未执行：没有找到角色「99」，请发送座位号或角色名")
    assert t.game.state.sheriff is None
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["大勇"], "殉职 22"))
        says(ctx, DIRECTOR, "【可公示】17号 大勇 将警徽移交给 22号 石头")
        says(ctx, QQ["大勇"], "已收到：警徽移交给 22号 石头。")
        says(ctx, QQ["石头"], "你继任了警长。")
        # "警长或执警其中任意一个出局，警长需要重新任命一个执警"
        says(ctx, QQ["石头"], APPOINT_ASKED)
        says(ctx, DIRECTOR, "等待 22号 石头 发动<任命>")
        says(ctx, DIRECTOR, "17号 大勇：殉职 22")
    await row.refresh_from_db()
    assert row.done and t.game.state.sheriff == "石头"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["石头"], "任命 4"))
        says(ctx, QQ["石头"], "已收到：任命 4号 旺财 为执警。")
        says(ctx, DIRECTOR, "【可公示】警长 22号 石头 任命 4号 旺财 为执警")
        says(ctx, QQ["旺财"], "你被任命为执警。<代理>：你的投票计为1票。")
        says(ctx, DIRECTOR, "22号 石头：任命 4")
    assert t.game.state.carry["deputy"] == "旺财"


async def sheriff_out(service, t) -> DeadlineRow:
    """Day 2: the sheriff 大勇 voted out, asked for <殉职>; returns his time limit."""
    await day_two(service, t)
    await does(service, t, Ballots("exile", (("阿福", "大勇"), ("旺财", "大勇"))))
    return await DeadlineRow.get(key="殉职:大勇:day2")


def heir_of(t, key: str) -> str:
    """Whom the game's seed hands the badge to when `key` passes (asked of a throwaway copy)."""
    probe = copy.deepcopy(t.game)
    assert probe.apply(Timeout(key)).ok
    return probe.state.sheriff


async def test_a_missed_hand_over_sent_by_the_director_moves_the_badge_at_random(app: App, banshabot):
    """"关门三十分钟后仍未与导演取得联系……警长随机移交给在场的一名未出局角色": the director's 超时."""
    service = banshabot.service
    t = await started(service)
    row = await sheriff_out(service, t)
    heir = heir_of(t, row.key)
    assert heir != "大勇" and t.game.state.player(heir).alive
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "超时 大勇"))
        says(ctx, DIRECTOR, f"【可公示】17号 大勇 未移交警徽，警徽随机移交给 {label(heir)}")
        says(ctx, QQ[heir], "你继任了警长。")
        says(ctx, QQ[heir], APPOINT_ASKED)
        says(ctx, DIRECTOR, f"等待 {label(heir)} 发动<任命>")
        # 超时 lets every running limit of his pass, his last words' too (the reply names each)
        says(ctx, DIRECTOR, "已按时限到期处理：大勇<殉职>、大勇<遗言>")
    assert t.game.state.sheriff == heir


async def test_a_missed_hand_over_at_its_time_moves_the_badge_at_random(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service)
    row = await sheriff_out(service, t)
    await does(service, t, CloseDay())  # 20:00: the badge's limit is 20:30
    await row.refresh_from_db()
    assert scheduler.jobs[f"deadline:{row.id}"][0] == row.due_at == NOW + timedelta(minutes=30)
    heir = heir_of(t, row.key)
    async with chat(app) as (ctx, bot):
        says(ctx, DIRECTOR, "时限已到：大勇<殉职>，按规则处理")
        says(ctx, QQ["大勇"], "<殉职>的时限已到，已按规则处理。")
        says(ctx, DIRECTOR, f"【可公示】17号 大勇 未移交警徽，警徽随机移交给 {label(heir)}")
        says(ctx, QQ[heir], "你继任了警长。")
        await scheduler.run(f"deadline:{row.id}")
    assert t.game.state.sheriff == heir
    # a badge taken at night is appointed for at 开门, with its whole limit from the next 关门
    assert not t.game.pending_for(heir, "任命")
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    assert t.game.pending_for(heir, "任命")
    appoint = await DeadlineRow.get(key=t.game.pending_for(heir, "任命").key)
    assert (appoint.anchor, appoint.minutes, appoint.due_at) == ("close", 30, None)


# --- a red card the day of the vote -----------------------------------------------------------------------
async def test_a_red_card_after_the_vote_moves_the_badge_at_random_and_tells_the_director_each_change(app: App, banshabot):
    """"白天红牌罚下在被投票出局之前"; "红牌罚下出局的角色没有遗言权利，不能发动……警长<殉职>……红牌罚下的警长警徽随机
    移交": the sheriff 大勇, voted out and asked for <殉职>, is red-carded the same day."""
    from engine import Card

    service = banshabot.service
    t = await started(service)
    await sheriff_out(service, t)
    probe = copy.deepcopy(t.game)
    assert probe.apply(Card("红牌", "大勇")).ok
    heir = probe.state.sheriff
    assert heir != "大勇" and probe.state.player(heir).alive
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "发牌 红牌 大勇"))
        says(ctx, DIRECTOR, "17号 大勇 获得红牌")
        says(ctx, DIRECTOR, "【可公示】红牌罚下：17号 大勇（白天红牌罚下在被投票出局之前：按红牌罚下出局，不再按投票出局）")
        says(ctx, DIRECTOR, f"【可公示】17号 大勇 被红牌罚下，警徽随机移交给 {label(heir)}")
        says(ctx, QQ[heir], "你继任了警长。")
        says(ctx, QQ[heir], APPOINT_ASKED)
        says(ctx, DIRECTOR, f"等待 {label(heir)} 发动<任命>")
        says(ctx, QQ["大勇"], "你被红牌罚下（白天红牌罚下在被投票出局之前），按红牌罚下出局：你不再有遗言权利、<殉职>。")
        says(ctx, DIRECTOR, "17号 大勇 今天被投票出局后又被红牌罚下，改为红牌罚下出局：\n"
                            "· 出局原因：投票 → 红牌\n"
                            "· 取消<殉职>（尚未答复）\n"
                            "· 取消遗言权利\n"
                            f"· 警徽随机移交给 {label(heir)}")
        says(ctx, DIRECTOR, "村民阵营累计红牌 1 张；导演可决定是否判负该阵营")
        says(ctx, DIRECTOR, "已执行。")
    assert t.game.state.sheriff == heir
    await player(app, "大勇", "殉职 22", "未执行：大勇 现在不能发动<殉职>。发送“帮助”查看你现在能做什么和怎样发送")


async def test_the_groups_lent_at_day_one_are_checked_for_outsiders_first(banshabot):
    """146 lends its groups only when day 1 opens (the lovers decide the teams), a while after the start's
    check: by then someone may have got into a free pool group. The pool is checked again before the 开门
    lends any: he is removed before the group is renamed and its team's roster posted there, and the
    directors are told."""
    from service import director as directing

    service = banshabot.service
    t = await started(service)
    outsider = "50001"

    async def members(group_id: str) -> tuple[str, dict[str, str]]:
        return "owner", ({outsider: "member"} if group_id == str(POOL[2]) else {})

    async def no_friends() -> set[str]:
        return set()

    async def ask(action: str, params: dict) -> None:
        return None  # the history setting of each group: turned off

    reply = await directing.handle(service, str(DIRECTOR), "开门", no_friends, members, ask)
    assert reply.startswith("已执行。"), reply
    sent = await drain()
    kick = ("set_group_kick", {"group_id": POOL[2], "user_id": int(outsider), "reject_add_request": False})
    assert kick in sent
    in_group = [(action, params) for action, params in sent if params.get("group_id") == POOL[2]]
    assert in_group[0] == kick and in_group[1][0] == "set_group_name", in_group
    assert f"群 {POOL[2]} 里有不属于任何队伍的人，已移出：{outsider}" in [p.get("text") for _, p in sent]
