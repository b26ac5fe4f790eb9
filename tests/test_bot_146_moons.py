"""146's new moons over QQ: the draws by private chat, the director's commands, private-vote days, and
what each event asks of players, as they and the director see it (nonebug).

Line-up and helpers: tests/test_bot_146.py (大勇 is elected sheriff with 丫蛋 as deputy; 二狗 is the
gypsy, 春生 the hunter, 秋月 the idiot; the cupid's lovers are 狗蛋 and 铁蛋).
"""
from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from nonebug import App

from bot_helpers import DIRECTOR, LineWith, chat, drain, in_group, private, says, says_with, texts_to
from conftest import NOW
from engine import Act, Ballots, CloseDay, Moon, OpenDay
from service.models import CommandRow, DeadlineRow
from test_bot_146 import COMMANDS, POOL, QQ, director, does, player, quiet_night, started

pytestmark = pytest.mark.usefixtures("clean")


async def elected(service, t) -> list:
    """Day 1: 大勇 elected (the draw is asked of him), 丫蛋 his deputy. Returns what was sent."""
    await does(service, t, OpenDay())
    await service.submit(t, Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))), source="test")
    sent = await drain()
    await does(service, t, Act("大勇", "任命", "20"))
    return sent


def card(t, k: int) -> str:
    """The event on card `k` of the deck on the table (the drawer sees only its number)."""
    return t.game.state.carry["draw"]["deck"][k - 1]


# --- the draws ---------------------------------------------------------------------------------------------
async def test_the_sheriff_picks_a_card_privately_and_only_the_director_and_the_gypsy_learn_what_it_is(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["王对王", "魔法水晶球"])
    sent = await elected(service, t)
    assert texts_to(sent, QQ["大勇"])[0].endswith("<决策>：单数日投票结束时，你须选择下一次大新月事件（届时我会私聊你怎样选择）。")
    assert texts_to(sent, QQ["大勇"])[-1] == (
        "请<决策>第2天的大新月：桌上有 2 张背面朝上的牌，发送“决策 1”到“决策 2”选择一张（关门后30分钟内，否则由导演随机抽取）。")
    await player(app, "大勇", "帮助", "你是 17号 大勇，身份：村民。没有技能\n"
                 f"等待你决定：<决策>，发送“决策 牌号”（截止 关门后30分钟）\n{COMMANDS}")
    await player(app, "大勇", "决策 3", "未执行：<决策>须为 1–2 之间的整数：请发送“决策 1”到“决策 2”之间的一个")
    await player(app, "丫蛋", "决策 1", "未执行：丫蛋 现在不能发动<决策>。发送“帮助”查看你现在能做什么和怎样发送")
    event, other = card(t, 2), card(t, 1)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["大勇"], "决策 2"))
        says(ctx, QQ["大勇"], "已收到：决策 第2张。新月将在开门时公布。")
        says(ctx, DIRECTOR, f"第2天的大新月：{event}（17号 大勇 决策第2张）")
        says(ctx, DIRECTOR, "17号 大勇：决策 2")
    await service.submit(t, CloseDay(), source="test")
    sent = await drain()
    assert any(text.startswith(f"窥月：警长今晚选择的新月是【{event}】。你可以发送“占卜”重新抽取") for text in texts_to(sent, QQ["二狗"]))
    assert not [text for text in texts_to(sent, QQ["大勇"]) if event in text]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["二狗"], "占卜"))
        says(ctx, QQ["二狗"], "已收到：占卜。新月已重新抽取，将在开门时公布。")
        says(ctx, DIRECTOR, f"第2天的大新月：{other}（吉普赛人 11号 二狗 占卜重新抽取（原为{event}））")
        says(ctx, DIRECTOR, "11号 二狗：占卜")
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    post = texts_to(await drain(), DIRECTOR)
    assert any(f"今日大新月：【{other}】" in text and text.startswith("【开门公告") for text in post)


async def test_a_draw_let_pass_is_the_directors_random_draw_and_the_drawer_is_told(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service, moons=["王对王"])
    await elected(service, t)
    await does(service, t, CloseDay())
    row = await DeadlineRow.get(key="决策:大勇:day1")
    assert row.due_at == NOW + timedelta(minutes=30)  # "警长、执警在关门半小时内需要发动抽取新月技能"
    async with chat(app) as (ctx, bot):
        says(ctx, DIRECTOR, "时限已到：大勇<决策>，按规则处理")
        says(ctx, QQ["大勇"], "<决策>的时限已到，已按规则处理。")
        says(ctx, DIRECTOR, "第2天的大新月：王对王（17号 大勇 未在关门后30分钟内抽取，导演随机抽取（游戏种子））")
        says(ctx, QQ["二狗"], "窥月：警长今晚选择的新月是【王对王】。")  # no other event to redraw: no 占卜 offered
        says(ctx, DIRECTOR, "已发给 11号 二狗 的反馈：窥月：警长今晚选择的新月是【王对王】。")
        await scheduler.run(f"deadline:{row.id}")


async def test_a_draw_made_on_the_forum_is_fixed_by_the_director_and_the_drawer_is_released(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["王对王", "魔法水晶球", "英语考试"])
    await elected(service, t)
    await director(app, "新月 假面舞会", "未执行：本局没有新月「假面舞会」。本局新月：王对王、魔法水晶球、英语考试")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "新月 魔法水晶球"))
        says(ctx, DIRECTOR, "已指定下一次大新月：魔法水晶球")
        says(ctx, QQ["大勇"], "导演已按论坛上的抽取确定新月，你不需要再<决策>。")
        says(ctx, DIRECTOR, "第2天的大新月：魔法水晶球（论坛抽取，导演指定）")
        says(ctx, DIRECTOR, "已执行。")
    await player(app, "大勇", "决策 1", "未执行：大勇 现在不能发动<决策>。发送“帮助”查看你现在能做什么和怎样发送")
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())
    async with chat(app) as (ctx, bot):  # the log tells how each event was drawn
        ctx.receive_event(bot, private(DIRECTOR, "日志"))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": LineWith("新月：第2天 魔法水晶球（论坛抽取，导演指定）")},
                            result={"message_id": 1})
    # a small event fixed ahead: the next small draw yields it, whatever card the deputy takes
    await director(app, "新月 英语考试", "已指定下一次小新月：英语考试", "已执行。")
    log = [row.payload for row in await CommandRow.all().order_by("seq")]
    assert {"type": "Moon", "event": "魔法水晶球", "start": None, "drawn": True} in log


async def test_the_events_in_play_are_set_before_the_first_day(app: App, banshabot):
    service = banshabot.service
    t = await started(service, arrow=None, moons=None)
    await director(app, "新月设置", "本局新月：猎人的愤怒、魔法水晶球、神经错乱、王对王、狼王的生日、狼族首领、信用担保、招魂术、文明的狼人、"
                   "神秘的UFO、试验鸳鸯、不满情绪、无我无狼、英语考试、赞美小居、giegie加油、古文考试\n"
                   "（第一次开门前可以发送“新月设置 无”或“新月设置 事件名 事件名 …”更改）")
    await director(app, "新月设置 王对王 隐身术", "未执行：没有这些新月事件：隐身术")
    await director(app, "新月设置 王对王 英语考试", "设置已更改。", "已执行。\n本局新月：王对王、英语考试")
    await director(app, "新月设置 无", "设置已更改。", "已执行。\n本局新月：无")
    await does(service, t, OpenDay())
    await director(app, "新月设置 王对王", "未执行：第一个白天或夜晚开始后不能再改设置")


async def day_two(service, t) -> list:
    """Day 2, with the one event in play drawn; returns what its 开门 sent."""
    await elected(service, t)
    await does(service, t, Act("大勇", "决策", 1))
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    return await drain()


# --- private-vote days -------------------------------------------------------------------------------------
async def test_private_ballots_on_the_day_of_the_hunters_fury(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await started(service, moons=["猎人的愤怒"])
    await day_two(service, t)
    await player(app, "阿福", "投票 5 他很可疑", "未执行：猎人的愤怒：猎人开枪之后才进入投票阶段")
    fury = await DeadlineRow.get(key="猎人的愤怒:春生:day2")  # "若猎人在开门以后一个小时以内未联系法官"
    assert fury.due_at == NOW + timedelta(minutes=60) and f"remind:{fury.id}:10" in scheduler.jobs
    # his usual shot is not today's: the refusal names what is asked of him
    await player(app, "春生", "开枪 6", "未执行：春生 现在不能发动<最后一枪>：你现在要决定的是<猎人的愤怒>。发送“帮助”查看你现在能做什么和怎样发送")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["春生"], "猎人的愤怒 6"))
        says(ctx, QQ["春生"], "已收到：猎人的愤怒 6号 银宝。")
        says(ctx, DIRECTOR, "6号 银宝 出局（猎人的愤怒）")
        says(ctx, QQ["阿福"], "狼群内有角色出局，你失去了<冲锋>。")  # a wolf of the pack went out
        says(ctx, DIRECTOR, "【可公示】猎人的愤怒：6号 银宝 出局")
        says(ctx, QQ["银宝"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效，收到后当天公示。遗言中禁止使用Discuz!代码。")
        # the ballots go to the bot, not to the human director
        says_with(ctx, DIRECTOR, "【可公示】猎人的愤怒：进入当天的投票阶段", "私聊发给你身份的机器人QQ，发送“投票 角色 理由”",
                  lacks=("私聊导演",))
        says(ctx, DIRECTOR, "12号 春生：猎人的愤怒 6")
    await player(app, "阿福", "投票 5", "未执行：请附上投票理由：发送“投票 角色 理由”")
    await player(app, "阿福", "投票 6 理由", "未执行：银宝 已出局，不能被投票")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["阿福"], "帮助"))
        says_with(ctx, QQ["阿福"], "\n现在可以：私聊投票：发送“投票 角色 理由”（关门前可以改票）\n")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["阿福"], "投票 5 他很可疑"))
        says(ctx, QQ["阿福"], "已收到：投票 5号 金宝（理由：他很可疑）。关门前可以改票：重新发送即可。")
        says(ctx, DIRECTOR, "1号 阿福：投票 5")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["旺财"], "投票 1 狼王\n跳得太早"))
        says(ctx, QQ["旺财"], "已收到：投票 1号 阿福（理由：狼王\n跳得太早）。关门前可以改票：重新发送即可。")
        says(ctx, DIRECTOR, "4号 旺财：投票 1")
    await director(app, "私票", "第2天私聊投票：已收到 2 张（关门时自动计票，或发送“计票”现在计票）\n"
                   "1号 阿福 → 5号 金宝：他很可疑\n4号 旺财 → 1号 阿福：狼王\n跳得太早")
    async with chat(app) as (ctx, bot):  # a ballot posted in the thread instead: void, and the director's card
        ctx.receive_event(bot, private(DIRECTOR, "违规 阿福"))
        says(ctx, QQ["阿福"], "你在投票帖回帖投票：今天须私聊导演投票，你今天的投票作废。")
        says(ctx, QQ["阿福"], "导演判罚：你获得一张黄牌（在投票帖回帖投票者算作废票，并记作一张黄牌）。")  # given by the bot
        says(ctx, DIRECTOR, "1号 阿福 在投票帖回帖投票：今天的投票作废，已记黄牌一张（有误请用“撤销”撤回这条违规）。")
        says(ctx, DIRECTOR, "已执行。")
    await service.submit(t, CloseDay(), source="test")
    sent = texts_to(await drain(), DIRECTOR)
    assert "【可公示】第2天私聊投票汇总：\n4号 旺财 → 1号 阿福：狼王\n跳得太早" in sent
    [count] = [m for m in sent if m.startswith("【可公示】第2天放逐投票结果：\n1号 阿福 1票\n结果：1号 阿福\n票型：\n4号 旺财 → 1号 阿福\n")]
    assert "\n无效票：1号 阿福（在投票帖回帖投票，今天须私聊导演投票）" in count  # his thread post, void, is in the count
    assert "【可公示】放逐投票：1号 阿福 出局" in sent  # the exile is announced once, by itself


async def test_a_private_ballot_on_an_ordinary_day_is_refused(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons="none")
    await elected(service, t)
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())
    await player(app, "阿福", "投票 5 理由", "未执行：今天不是私聊投票日：请在投票帖投票")
    await director(app, "私票", "今天不是私聊投票日。")
    await director(app, "违规 阿福", "未执行：今天没有可以违反的新月规则（私聊投票日、无我无狼、英语考试、赞美小居、giegie加油、古文考试）")


# --- what an event asks of players ------------------------------------------------------------------------------
async def test_the_three_under_the_ufo_send_their_numbers_privately(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["神秘的UFO"])
    sent = await day_two(service, t)
    three = [name for name in QQ if any("你被UFO光线笼罩" in text for text in texts_to(sent, QQ[name]))]
    assert len(three) == 3
    first = three[0]
    await player(app, first, "数字 100", "未执行：<数字>须为 0–99 之间的整数：请发送“数字 0”到“数字 99”之间的一个")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ[first], "帮助"))
        says_with(ctx, QQ[first], "\n等待你决定：<数字>，发送“数字 0-99之间的整数”（截止 关门时）\n")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ[first], "数字 42"))
        says(ctx, QQ[first], "已收到：数字 42。")
        says_with(ctx, DIRECTOR, "：数字 42")
    outsider = next(name for name in QQ if name not in three)
    await player(app, outsider, "数字 7", f"未执行：{outsider} 现在不能发动<数字>。发送“帮助”查看你现在能做什么和怎样发送")


async def test_the_pack_starts_the_birthday_in_its_group(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["狼王的生日"])
    sent = await day_two(service, t)
    assert any("狼群可以在开门后1小时内决定是否启动" in text for text in texts_to(sent, POOL[0]))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["阿贵"], "帮助"))
        says_with(ctx, QQ["阿贵"], "\n现在可以：狼群可以启动<狼王的生日>：发送“狼王的生日”（开门后1小时内）\n")
    row = await DeadlineRow.get(key="狼王的生日:day2")
    assert row.due_at == NOW + timedelta(minutes=60)  # "事件发生后1小时内"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(POOL[0], QQ["阿贵"], "狼王的生日"))
        says_with(ctx, DIRECTOR, "【可公示】狼王的生日：狼群启动了此新月。名单：1号 阿福、2号 阿贵、3号 来福、6号 银宝、8号 桂香、18号 招娣。")
        ctx.should_call_api("send_group_msg", {"group_id": POOL[0], "message": LineWith("阿贵 启动了<狼王的生日>")}, result={"message_id": 1})
        says(ctx, DIRECTOR, "2号 阿贵：狼王的生日")
    await row.refresh_from_db()
    assert row.done


async def test_the_idiot_names_the_trial_lovers_privately_and_they_are_told_nothing(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["试验鸳鸯"])
    sent = await day_two(service, t)
    assert any(text.startswith("新月<试验鸳鸯>：请立刻发送“试验鸳鸯 座位号 座位号”") for text in texts_to(sent, QQ["秋月"]))
    await player(app, "秋月", "试验鸳鸯 5", "<试验鸳鸯>需要2个目标：请发送“试验鸳鸯 座位号 座位号”。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["秋月"], "试验鸳鸯 5 22"))
        says(ctx, QQ["秋月"], "已收到：试验鸳鸯 5号 金宝、22号 石头。")
        says(ctx, DIRECTOR, "13号 秋月：试验鸳鸯 5 22")


async def test_the_english_exam_is_announced_with_its_hours(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["英语考试"])
    await elected(service, t)
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())
    await does(service, t, Ballots("exile", (("阿福", "石头"),)))
    await does(service, t, Act("丫蛋", "辅策", 1))
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    post = next(text for text in texts_to(await drain(), DIRECTOR) if text.startswith("【开门公告"))
    assert "今日小新月：【英语考试】" in post
    assert post.endswith("[b]英语考试时段[/b]\n12-01 20:00 至 12-02 02:00")  # "自讨论日开门时至开门后6小时"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "违规 阿贵"))
        says(ctx, DIRECTOR, "2号 阿贵 初次违反英语考试：规则令其时间翻倍至12小时（开门后12小时内），请在讨论帖公示。")
        says(ctx, DIRECTOR, "已执行。")


async def test_a_game_with_new_moons_is_rebuilt_the_same_after_a_restart(banshabot):
    service = banshabot.service
    t = await started(service, moons=["王对王", "魔法水晶球", "英语考试"])
    await elected(service, t)
    await does(service, t, Act("大勇", "决策", 2))
    await does(service, t, CloseDay())
    before = t.game.state.carry["draw"]["event"]
    service.tables.clear()  # as after a restart: the game is its stored commands
    again = await service.table(t.row.id)
    assert again.game.state.carry["draw"]["event"] == before
    assert again.game.state.options["moons"] == ["王对王", "魔法水晶球", "英语考试"]


async def test_a_speed_up_shortens_the_english_exam_from_six_hours_to_three(app: App, banshabot):
    """英语考试: "自讨论日开门时至开门后6小时（若进程已加速则为3小时）" — sped up that day, the director gets the new hours."""
    service = banshabot.service
    t = await started(service, moons=["英语考试"])
    await elected(service, t)
    await does(service, t, Moon("英语考试", drawn=True))
    for step in (CloseDay(), None, OpenDay(), CloseDay(), None, OpenDay()):
        await (quiet_night(service, t) if step is None else does(service, t, step))
    assert t.game.state.day.moon == "英语考试"
    await director(app, "加速 强制", "【可公示】游戏进程加速（导演执行加速）。进程加速后不允许改票，所有改票作废，但加速前的改票视为有效。", "加速通过：导演执行加速。",
                   "已执行。进程已加速：今天的英语考试时段改为 12-01 20:00 至 12-01 23:00（开门后3小时），请在讨论帖公示。")
    assert t.game.rules.speech_window(t.game) == ("英语考试", 180)


# --- 信用担保 when the badge is still owed -----------------------------------------------------------------------
async def guarantee_day_without_sheriff(service, t) -> None:
    """Day 1: 大勇 elected and drawing 信用担保; night 1: the pack kills him; 开门 into day 2, 大勇 asked for 殉职."""
    await elected(service, t)
    await does(service, t, Act("大勇", "决策", "1"))
    await does(service, t, CloseDay())
    await quiet_night(service, t, kill="大勇")
    await does(service, t, OpenDay())
    assert t.game.state.day.moon == "信用担保" and t.game.pending_for("大勇", "殉职")


async def test_a_guarantee_no_sheriff_opened_by_closing_sends_nobody_out_as_the_replay_does(banshabot, clean):
    """"警长在投票贴选择一位其他角色进行担保投票": a sheriff killed at night who has not handed the badge over by 关门
    opened no chain. The bot closes the day with nobody out and the badge then moves at random; the replay's
    `night` step (every limit passed, the hand-over's after 关门 as in real time) comes to the same."""
    service, scheduler = banshabot.service, clean
    t = await started(service, moons=["信用担保"])
    await guarantee_day_without_sheriff(service, t)
    replayed = copy.deepcopy(t.game)
    assert replayed.apply(CloseDay(lapse=True)).ok
    await service.submit(t, CloseDay(), source="test")
    assert "【可公示】信用担保：关门时没有警长开始担保投票，今天无人被投票出局。" in texts_to(await drain(), DIRECTOR)
    badge = await DeadlineRow.get(key="殉职:大勇:day2")
    await scheduler.run(f"deadline:{badge.id}")
    await drain()
    assert t.game.state.sheriff not in (None, "大勇")
    assert [d["name"] for d in t.game.state.deaths] == [d["name"] for d in replayed.state.deaths] == ["大勇"]
    assert t.game.state.sheriff == replayed.state.sheriff


async def test_the_heir_named_on_the_guarantee_day_opens_the_chain(app: App, banshabot):
    service = banshabot.service
    t = await started(service, moons=["信用担保"])
    await guarantee_day_without_sheriff(service, t)
    await player(app, "丫蛋", "担保 1", "未执行：现在轮到 警长 担保（警长先担保）")
    await service.submit(t, Act("大勇", "殉职", "9"), source="test")
    told = texts_to(await drain(), QQ["翠花"])
    assert told[0] == "你继任了警长。"
    assert "信用担保：轮到你担保，请发送“担保 座位号”选择一位未被担保的非警长角色（对象错误时由导演随机指定）。" in told
    await does(service, t, Act("翠花", "担保", "1"))
    assert t.game.state.carry["moon"]["guarantee"]["chain"] == ["阿福"]


# --- a drawer still being named ------------------------------------------------------------------------------
async def test_an_heir_named_after_closing_draws_within_the_same_half_hour(banshabot, clean):
    """"警长、执警在关门半小时内需要发动抽取新月技能": the sheriff 大勇, killed on night 2, still owes his 殉职 when day
    3's vote ends; the draw waits for the heir. He hands the badge over after 关门: the heir is asked then, and his
    time is the draw's own, 30 minutes after 关门."""
    service = banshabot.service
    t = await started(service, moons=["王对王", "魔法水晶球"])
    await elected(service, t)
    await does(service, t, Act("大勇", "决策", "1"))
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())
    await does(service, t, CloseDay())
    await quiet_night(service, t, kill="大勇")
    await does(service, t, OpenDay())
    await service.submit(t, Ballots("exile", (("阿福", "石头"), ("旺财", "石头"))), source="test")
    assert "第4天的大新月：等待新的警长产生后由其抽取（关门后30分钟内）" in texts_to(await drain(), DIRECTOR)
    await does(service, t, CloseDay())
    await service.submit(t, Act("大勇", "殉职", "9"), source="test")
    told = texts_to(await drain(), QQ["翠花"])
    assert "请<决策>第4天的大新月：桌上有 1 张背面朝上的牌，发送“决策 1”到“决策 1”选择一张（关门后30分钟内，否则由导演随机抽取）。" in told
    row = await DeadlineRow.get(key="决策:翠花:night3")
    assert row.due_at == NOW + timedelta(minutes=30)
    await does(service, t, Act("翠花", "决策", "1"))
    assert t.game.state.carry["draw"]["how"] == "9号 翠花 决策第1张"
