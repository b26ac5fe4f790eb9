"""154 in the bot: the ghost group and the brothers' group are formed from the pool, 宁采臣 joins the
ghost group when 小倩 finds him, and nothing about 宁采臣 reaches anyone not entitled to it."""
from __future__ import annotations

from nonebug import App

from bot_helpers import DIRECTOR, chat, drain, in_group, posts, private, says, says_with, texts_to

from engine import Act, CloseDay
from service import groups

# seat order: (name, QQ, identity)
PLAYERS = [
    ("姥姥", 30001, "树精姥姥"), ("小倩", 30002, "小倩"), ("鬼甲", 30003, "女鬼"), ("鬼乙", 30004, "女鬼"),
    ("鬼丙", 30005, "女鬼"), ("老妖", 30006, "黑山老妖"), ("道士", 30007, "除妖道士"), ("蛊女", 30008, "苗疆蛊女"),
    ("刀客", 30009, "绝命刀客"), ("郎中", 30010, "江湖郎中"), ("兄长", 30011, "兄弟考生"), ("小弟", 30012, "兄弟考生"),
    ("石头", 30013, "宁采臣"), ("书一", 30014, "赶考书生"), ("书二", 30015, "赶考书生"), ("书三", 30016, "赶考书生"),
    ("书四", 30017, "赶考书生"), ("书五", 30018, "赶考书生"), ("书六", 30019, "赶考书生"), ("书七", 30020, "赶考书生"),
]
QQ = {name: qq for name, qq, _ in PLAYERS}
COVEN_GROUP, BROTHERS_GROUP = 910001, 910002


async def started(service):
    await groups.add_to_pool(str(COVEN_GROUP), "闲聊一群")
    await groups.add_to_pool(str(BROTHERS_GROUP), "闲聊二群")
    row = await service.create(str(DIRECTOR), "154", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])
    await service.start(t)
    return t, await drain()


async def test_the_ghosts_and_the_brothers_each_get_a_group(banshabot, clean):
    t, sent = await started(banshabot.service)
    renamed = {p["group_id"]: p["group_name"] for a, p in sent if a == "set_group_name"}
    assert renamed == {COVEN_GROUP: f"{t.row.title}·女鬼群"[:30], BROTHERS_GROUP: f"{t.row.title}·兄弟群"[:30]}
    for name in ("姥姥", "小倩", "鬼甲", "鬼乙", "鬼丙"):
        assert any(f"请申请加入QQ群 {COVEN_GROUP}" in text for text in texts_to(sent, QQ[name])), name
    for name in ("兄长", "小弟"):
        assert any(f"请申请加入QQ群 {BROTHERS_GROUP}" in text for text in texts_to(sent, QQ[name])), name
    assert await groups.may_join(str(COVEN_GROUP), str(QQ["鬼甲"]))
    assert not await groups.may_join(str(COVEN_GROUP), str(QQ["兄长"]))
    assert not await groups.may_join(str(COVEN_GROUP), str(QQ["石头"]))  # not before 小倩 finds him


async def test_ning_is_told_he_is_a_scholar_and_nobody_hears_of_him(banshabot, clean):
    t, sent = await started(banshabot.service)
    [brief] = [text for text in texts_to(sent, QQ["石头"]) if "你的身份" in text]
    assert "你的身份：赶考书生" in brief and "宁采臣" not in brief
    others = {qq for _, qq, _ in PLAYERS} - {QQ["石头"]}
    told_others = [p["text"] for a, p in sent if a.startswith("send_") and (p.get("user_id") in others or "group_id" in p)]
    assert not any("石头" in text for text in told_others)  # who he is reaches no one


async def test_ning_found_joins_the_ghost_group(app: App, banshabot, clean):
    service = banshabot.service
    t, _ = await started(service)
    await service.submit(t, CloseDay(), source="test")
    await drain()
    outcome = await service.submit(t, Act(by="小倩", skill="执子之手", target="石头"), source="test")
    assert outcome.ok, outcome.error
    sent = await drain()
    assert any(f"请申请加入QQ群 {COVEN_GROUP}" in text for text in texts_to(sent, QQ["石头"]))
    told = texts_to(sent, QQ["石头"])  # he learns who he is before the group's invitation
    assert told[0].startswith("你就是宁采臣") and "请申请加入QQ群" in told[1]
    assert any("13号 石头" in text for text in texts_to(sent, COVEN_GROUP))  # the group's new roster
    assert await groups.may_join(str(COVEN_GROUP), str(QQ["石头"]))
    async with chat(app) as (ctx, bot):  # his 帮助 says who he is now, not 赶考书生
        ctx.receive_event(bot, private(QQ["石头"], "帮助"))
        says_with(ctx, QQ["石头"], "身份：宁采臣", "你现在属于女鬼阵营", lacks=("身份：赶考书生",))
    for name in ("兄长", "道士", "书一"):  # no one outside the ghosts learns of it
        assert not any("石头" in text for text in texts_to(sent, QQ[name])), name
    assert not any("石头" in text for text in texts_to(sent, BROTHERS_GROUP))


async def test_the_log_shows_the_faction_ning_ended_in_and_who_went_out_when(app: App, banshabot, clean):
    service = banshabot.service
    t, _ = await started(service)
    for step in (CloseDay(), Act(by="小倩", skill="执子之手", target="石头"), Act(by="鬼甲", skill="吸精", target="书一")):
        assert (await service.submit(t, step, source="test")).ok
    await drain()
    from engine import OpenDay

    assert (await service.submit(t, OpenDay(lapse=True), source=f"director:{DIRECTOR}")).ok
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "日志"))
        says_with(ctx, DIRECTOR, "13号 石头：宁采臣（隐藏身份，本人收到：赶考书生），书生阵营 → 女鬼阵营",
                  "出局：第1夜 14号 书一（吸精）")


# --- 姥姥之怒, attached to the group's 吸精 -----------------------------------------------------------------
async def test_the_fury_is_attached_to_the_groups_suck_in_the_group_or_in_private(app: App, banshabot, clean):
    """"姥姥之怒……在该阵营吸食角色时，可以附加姥姥之怒": "姥姥之怒 座位号" is the night's 吸精 with the fury;
    "姥姥之怒" alone joins the group's 吸精 already sent, in the group or in private."""
    service = banshabot.service
    t, _ = await started(service)
    await service.submit(t, CloseDay(), source="test")
    await drain()
    async with chat(app) as (ctx, bot):  # nothing to attach it to yet: refused, and her fury is not spent
        ctx.receive_event(bot, private(QQ["姥姥"], "姥姥之怒"))
        says(ctx, QQ["姥姥"], "未执行：女鬼群今晚还没有<吸精>：发送“姥姥之怒 座位号”吸精并附加姥姥之怒，或在女鬼群吸精之后发送“姥姥之怒”")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(COVEN_GROUP, QQ["鬼甲"], "吸精 14"))
        posts(ctx, COVEN_GROUP, "鬼甲 提交了今晚的吸精：14号 书一。已确认，不能更改。")
        says(ctx, DIRECTOR, "3号 鬼甲：吸精 14")
        ctx.receive_event(bot, in_group(COVEN_GROUP, QQ["姥姥"], "姥姥之怒 15"))
        posts(ctx, COVEN_GROUP, "未执行：女鬼群今晚已经吸精 14号 书一：<姥姥之怒>只能附加到这次吸精（发送“姥姥之怒”）")
        ctx.receive_event(bot, in_group(COVEN_GROUP, QQ["姥姥"], "姥姥之怒"))
        posts(ctx, COVEN_GROUP, "姥姥 为今晚的吸精 14号 书一 附加了<姥姥之怒>。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 姥姥：姥姥之怒")
    assert t.game.night.actions["姥姥之怒"] == ("姥姥", "书一")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["姥姥"], "怒"))
        says(ctx, QQ["姥姥"], "未执行：<姥姥之怒>每局游戏仅限使用一次，已经用过")


async def test_the_fury_with_a_target_is_the_nights_suck(app: App, banshabot, clean):
    service = banshabot.service
    t, _ = await started(service)
    await service.submit(t, CloseDay(), source="test")
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["姥姥"], "姥姥之怒 14"))
        posts(ctx, COVEN_GROUP, "姥姥 提交了今晚的吸精：14号 书一，附加<姥姥之怒>。已确认，不能更改。")
        says(ctx, QQ["姥姥"], "姥姥 提交了今晚的吸精：14号 书一，附加<姥姥之怒>。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 姥姥：姥姥之怒 14")
    assert t.game.night.actions["吸精"] == t.game.night.actions["姥姥之怒"] == ("姥姥", "书一")


# --- 替补: 154 sets no limit ----------------------------------------------------------------------------
async def test_a_character_may_have_a_second_substitute(app: App, banshabot, clean):
    """"每名角色仅限更换一次替补" is M131's: 154's 替补 rules ("若导演无法指定，判作前任玩家扮演的角色罚下") set no limit."""
    service = banshabot.service
    t, _ = await started(service)
    for new, old in ((40001, QQ["书一"]), (40002, 40001)):
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(DIRECTOR, f"替补 书一 {new}"))
            says(ctx, old, "你的角色 书一 已由替补接手，你不再能以该角色行动。")
            says_with(ctx, new, "你作为替补接手了本局角色。", "你的角色：14号 书一", "你的身份：赶考书生")
            ctx.should_call_api("get_friend_list", {}, result=[{"user_id": new, "nickname": "替补"}])
            says(ctx, DIRECTOR, f"14号 书一 由 {new} 接手（原 {old}）。")
    assert t.seat_of("书一").former_qq == [str(QQ["书一"]), "40001"]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "日志"))
        says_with(ctx, DIRECTOR, "14号 书一：赶考书生，书生阵营（替补接手 2 次）")


# --- 投票规则: "没有投票（或弃票）的玩家将记作一张黄牌" --------------------------------------------------------
async def test_who_did_not_vote_gets_the_yellow_card_from_the_bot_and_the_director_may_spare_him(app: App, banshabot, clean):
    from engine import Ballots, OpenDay

    service = banshabot.service
    t, _ = await started(service)
    for step in (CloseDay(), OpenDay(lapse=True), Ballots("election", ())):
        assert (await service.submit(t, step, source=f"director:{DIRECTOR}")).ok
    await drain()
    voters = [name for name, _, _ in PLAYERS if name != "书七"]
    assert (await service.submit(t, Ballots("exile", tuple((n, "书一") for n in voters), whole=True), source=f"director:{DIRECTOR}")).ok
    sent = await drain()
    rule = "没有投票（或弃票）的玩家将记作一张黄牌（加快进程后不判罚）"
    assert texts_to(sent, QQ["书七"]) == [f"导演判罚：你获得一张黄牌（第1天没有投票。规则：{rule}）。"]
    assert f"未投票：20号 书七。规则：{rule}，已给20号 书七各记一张黄牌（免除请发送“免牌 角色”）" in "".join(texts_to(sent, DIRECTOR))
    assert t.game.state.player("书七").cards["黄牌"] == 1
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "免牌 书一"))
        says(ctx, DIRECTOR, "书一 今天没有因未投票被记牌，没有可以免除的牌。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "免牌 20"))
        says_with(ctx, DIRECTOR, "20号 书七 的牌：黄牌1 → 无", "20号 书七：以下消息作废", "确认请发送“确认”")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        says(ctx, QQ["书七"], f"【更正】你之前收到的以下消息有误，已作废：\n「导演判罚：你获得一张黄牌（第1天没有投票。规则：{rule}）。」")
        says_with(ctx, DIRECTOR, "已免牌")
    assert t.game.state.player("书七").cards["黄牌"] == 0


# --- what players are told in 154's words ---------------------------------------------------------------------
async def test_the_gu_woman_is_told_of_the_nights_suck_not_a_kill(app: App, banshabot, clean):
    """<通灵>: "得知当晚被吸精的角色" — 154 has no 指杀."""
    service = banshabot.service
    t, _ = await started(service)
    assert (await service.submit(t, CloseDay(), source="test")).ok
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["蛊女"], "帮助"))
        says_with(ctx, QQ["蛊女"], "收到<通灵>反馈（所有吸精提交后）之后还可以：救药 座位号", lacks=("指杀",))


async def test_a_ballot_sent_privately_is_pointed_to_the_vote_thread(app: App, banshabot, clean):
    """154's votes are posted in the thread ("投票帖与讨论日一同开门，一同关门"): a private one is told where, not "不认识"."""
    service = banshabot.service
    t, _ = await started(service)
    from engine import OpenDay

    for step in (CloseDay(), OpenDay(lapse=True)):
        assert (await service.submit(t, step, source="test")).ok
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["书一"], "投票 5 他很可疑"))
        says_with(ctx, QQ["书一"], "请在论坛的投票帖回帖投票", "投票对象", lacks=("不认识",))


# --- "并在投票结束前一个半至两个小时之间提醒玩家投票" ------------------------------------------------------------
async def test_the_living_are_reminded_to_vote_two_hours_before_closing_and_not_once_the_day_closed(banshabot, clean):
    """The reminder is a time limit counted back from 关门: it moves with 关门时间, tells every living player
    privately what he votes in and where, and a day closed before it is due sends none."""
    from datetime import timedelta

    from engine import OpenDay
    from service import director as directing
    from service import handling
    from service.models import DeadlineRow
    from service.texts import clock

    service, scheduler = banshabot.service, clean
    t, _ = await started(service)
    for step in (CloseDay(), OpenDay(lapse=True)):
        assert (await service.submit(t, step, source=f"director:{DIRECTOR}")).ok
    await drain()
    handling.begin(None, ("private", str(DIRECTOR)))
    assert (await directing.handle(service, str(DIRECTOR), "关门时间 12-02 22:00", None)).startswith("本日关门时间改为")
    row = await DeadlineRow.get(key="提醒投票:day1")
    assert clock(row.due_at) == "12-02 20:00" and scheduler.jobs[f"deadline:{row.id}"][0] == t.row.planned_close - timedelta(hours=2)
    await drain()
    await scheduler.run(f"deadline:{row.id}")
    sent = await drain()
    reminder = "提醒投票：今天的警长竞选、放逐投票在关门时截止（约2小时后），请在投票帖投票。"
    assert all(texts_to(sent, qq) == [reminder] for _, qq, _ in PLAYERS)
    assert not texts_to(sent, DIRECTOR)
    # the next day closes before its reminder is due: it ends with the day, and nothing is sent
    for step in (CloseDay(), OpenDay(lapse=True)):
        assert (await service.submit(t, step, source=f"director:{DIRECTOR}")).ok
    await drain()
    row = await DeadlineRow.get(key="提醒投票:day2")
    assert (await service.submit(t, CloseDay(), source=f"director:{DIRECTOR}")).ok
    await drain()
    await row.refresh_from_db()
    assert row.done and f"deadline:{row.id}" not in scheduler.jobs
