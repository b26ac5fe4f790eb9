"""Speed-ups and day length over QQ.

- `加速 名单`: who asked in the thread, and whether that passes ("如果在进程帖中申请加速的玩家大于等于所有存活玩家的
  二分之一则游戏进程加速"; 154: "过半数"); once sped up, a 改票 posted after it is void ("进程加速后不允许改票，所有改票
  作废，但加速前的改票视为有效"), on a later day every 改票 is, and 146's 英语考试 window shortens.
- `开门` proposes the day's closing time from the post's day length (146: "A日上午开帖，到A+1日晚上关帖。每逢周末
  就延长一天……第一天讨论日不因周末而延长"); `关门时间` changes it, and the limits counted from it move along.
- A count uses the post times of the paste: "关门前一小时不得改票".
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import DIRECTOR, QQ, chat, day_two, director_hears, drain, labels, private, running_game, says, unvoted
from engine import Ballots, CloseDay, OpenDay
from service.models import DeadlineRow
from rulesets import get as _get_ruleset
from service.director import _paste
from service.texts import clock
from test_bot_146 import does, started

pytestmark = pytest.mark.usefixtures("clean")


async def director(app: App, text: str, *replies: str) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, text))
        director_hears(ctx, *replies)


def post(name: str, at: str, *lines: str) -> str:
    """A post as Discuz! copies it: the author and 发表于 on one line."""
    return "\n".join([f"{name} 发表于 2026-12-1 {at} | 只看该作者", *lines])


# --- 加速 --------------------------------------------------------------------------------------------------
async def test_a_speed_up_passes_with_half_of_the_living_and_voids_later_changes(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "加速", "请发送“加速 角色 角色 …”（在进程帖申请加速的玩家，座位号或角色名），导演执行加速请发送“加速 强制”。")
    await director(app, "加速 路人", "未执行：没有找到角色「路人」，请发送座位号或角色名")
    await director(app, "加速 果果 橘子 5",
                   "加速申请已记录：今天申请加速的存活玩家 3 名（1号 果果、2号 橘子、5号 西瓜），存活 13 名，需要至少 7 名，尚未通过。",
                   "已记录，加速尚未通过。")
    # a name asked twice counts once; the seventh of thirteen living is half or more: it passes, at 18:30
    await director(app, "加速 18:30 果果 4 6 7 8 9",
                   "【可公示】游戏进程加速（申请加速的玩家 8 名，存活 13 名）。执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。",
                   "加速通过：今天申请加速的存活玩家 8 名（1号 果果、2号 橘子、5号 西瓜、4号 葡萄、6号 柠檬、7号 草莓、8号 芒果、"
                   "9号 桃子），存活 13 名，需要至少 7 名。",
                   "已执行。")
    await director(app, "加速 10", "未执行：游戏进程已经加速")
    paste = "\n".join([
        post("果果", "15:00", "投票对象：菠萝", "投票理由：划水"),
        post("橘子", "16:00", "投票对象：西瓜", "投票理由：悍跳"),
        # a 改票 before the speed-up stands; it quotes the vote it changes
        post("果果", "18:10"), post("果果", "15:00", "投票对象：菠萝", "投票理由：划水", "改票对象：西瓜", "改票理由：想通了"),
        # one after it is void, and reported
        post("橘子", "18:40"), post("橘子", "16:00", "投票对象：西瓜", "投票理由：悍跳", "改票对象：果果", "改票理由：再想想"),
    ])
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票\n" + paste))
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n5号 西瓜 2.5票\n结果：5号 西瓜\n票型：\n"
                            "1号 果果 → 5号 西瓜（改票，原投 10号 菠萝）\n2号 橘子 → 5号 西瓜（1.5票）\n"
                            "未投票：3号 香蕉、4号 葡萄、5号 西瓜、6号 柠檬、7号 草莓、8号 芒果、9号 桃子、10号 菠萝、11号 樱桃、"
                            "12号 荔枝、13号 龙眼\n计票说明：警长 2号 橘子 的票计为1.5票")
        # "执行加速时……未投票者将不被判罚": the director is told who did not vote, with no card
        says(ctx, DIRECTOR, "第2天放逐投票（仅导演可见）：\n未投票：3号 香蕉、4号 葡萄、5号 西瓜、6号 柠檬、7号 草莓、8号 芒果、"
                            "9号 桃子、10号 菠萝、11号 樱桃、12号 荔枝、13号 龙眼")
        says(ctx, DIRECTOR, "5号 西瓜 出局（投票）")
        says(ctx, DIRECTOR, "【可公示】放逐投票：5号 西瓜 出局")
        says(ctx, QQ["西瓜"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。")
        says(ctx, DIRECTOR, "计票完成：5号 西瓜 2.5票；结果：5号 西瓜。可公示的计票结果见上。\n"
                            "无效：橘子：改票发表于 12-01 18:40，进程已在 12-01 18:30 加速，加速后不允许改票，改票无效，仍按原投票计")
    assert t.game.state.carry["sped_up"] == {"day": 2, "at": "2026-12-01T18:30:00"}


async def test_m131s_delay_ends_the_speed_up_and_extends_the_day(app: App, banshabot):
    """M131: "未出局角色可在进程帖中申请加速或延时。当日申请人数在讨论日结束三个小时前……大于等于存活人数的一半，即判定
    加速或延迟成功。" and "延迟成功时，不再视为“执行加速”状态。"."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "关门时间 12-02 21:00", "本日关门时间改为 12-02 21:00，从关门起算的时限随之调整。")
    cutoff = _get_ruleset("M131").asks_cutoff.text
    # requests posted after 18:00, three hours before the end, do not count
    await director(app, "延时 12-02 18:30 果果", f"未执行：延时申请须在 12-02 18:00 前（本日关门 12-02 21:00）：“{cutoff}”"
                                                 "如果这些申请是在那之前发的，请写上时间：“延时 18:00 角色 …”。")
    await director(app, "加速 强制", "【可公示】游戏进程加速（导演执行加速）。执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。",
                   "加速通过：导演执行加速。", "已执行。")
    await director(app, "延时 强制", "未执行：延时须由玩家在进程帖申请：请发送“延时 角色 角色 …”；导演调整时间请用“关门时间”")
    await director(app, "延时 12-01 20:00 1 2 3 4 5 6",
                   "延时申请已记录：今天申请延时的存活玩家 6 名（1号 果果、2号 橘子、3号 香蕉、4号 葡萄、5号 西瓜、6号 柠檬），"
                   "存活 13 名，需要至少 7 名，尚未通过。", "已记录，延时尚未通过。")
    assert t.game.state.carry["sped_up"]
    await director(app, "延时 12-01 20:10 7",
                   "【可公示】延时成功（申请延时的玩家 7 名，存活 13 名）：本讨论日延长一天。延迟成功时，不再视为“执行加速”状态。",
                   "延时通过：今天申请延时的存活玩家 7 名（1号 果果、2号 橘子、3号 香蕉、4号 葡萄、5号 西瓜、6号 柠檬、7号 草莓），"
                   "存活 13 名，需要至少 7 名。",
                   "已执行。本日关门时间延后一天，改为 12-03 21:00（可用“关门时间”更改）。")
    assert "sped_up" not in t.game.state.carry and clock(t.row.planned_close) == "12-03 21:00"
    await director(app, "延时 8", "未执行：今天的延时已经通过")
    # no longer sped up: who did not vote gets the post's card again
    assert t.game.rules.no_vote_card(t.game)
    # a 改票 posted while the game was sped up (from 20:00, 强制 at the bot's clock, to the 延时 at 20:10) stays
    # void; one posted after the 延时 counts
    paste = "\n".join([
        post("果果", "15:00", "投票对象：菠萝", "投票理由：划水"),
        post("西瓜", "16:00", "投票对象：菠萝", "投票理由：划水"),
        post("果果", "20:05"), post("果果", "15:00", "改票对象：西瓜", "改票理由：加速时改"),
        post("西瓜", "20:30"), post("西瓜", "16:00", "改票对象：果果", "改票理由：延时后改"),
    ])
    ballots, notes = _paste(service, t, "exile", paste)
    assert dict(ballots.ballots) == {"果果": "菠萝", "西瓜": "果果"}
    assert "果果：改票发表于 12-01 20:05，进程已在 12-01 20:00 加速（12-01 20:10 延时），加速时不允许改票" in notes


async def test_146_has_no_delay(app: App, banshabot):
    service = banshabot.service
    t = await started(service)
    await does(service, t, OpenDay())
    await director(app, "延时 1 2 3", "未执行：本局规则没有延时")
    assert "delay_asks" not in t.game.state.carry


async def test_after_a_speed_up_every_later_days_change_is_void(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "加速 强制", "【可公示】游戏进程加速（导演执行加速）。执行加速时，所有人不可改票，且发言不足或未投票者将不被判罚。",
                   "加速通过：导演执行加速。", "已执行。")
    from bot_helpers import close_day, quiet_night

    await close_day(service, t)
    await quiet_night(service, t)
    await service.submit(t, OpenDay(), source="test")
    await drain()
    paste = "\n".join([post("果果", "10:00", "投票对象：菠萝", "投票理由：划水"),
                       post("果果", "11:00"), post("果果", "10:00", "改票对象：西瓜", "改票理由：改")])
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票\n" + paste))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": _starting("【可公示】第3天放逐投票结果：\n10号 菠萝 1票")},
                            result={"message_id": 1})
        for _ in range(4):
            ctx.should_call_api("send_private_msg", {"user_id": _any(), "message": _starting("")}, result={"message_id": 1})
        says(ctx, DIRECTOR, "计票完成：10号 菠萝 1票；结果：10号 菠萝。可公示的计票结果见上。\n"
                            "无效：果果：进程已加速，加速后不允许改票，改票无效，仍按原投票计")



# What a browser copies of a Discuz! page: the page's head, then each post as its author's name, his profile
# (user group, 积分, 帖子...), the floor mark, `发表于 time | 只看该作者`, the post, and the post's buttons.
PROFILE = ["15", "主题", "120", "帖子", "500", "积分", "注册会员", "Rank: 2Rank: 2", "积分", "500", "发消息"]


def page_post(name: str, floor: str, at: str, *lines: str) -> list[str]:
    return [name, *PROFILE, floor, f"发表于 2026-12-1 {at} | 只看该作者", *lines, "回复", "举报"]


async def test_a_copied_discuz_page_keeps_its_post_times_and_shows_void_posts_as_void(app: App, banshabot):
    """A whole page copied: the profile and floor mark between an author's name and his 发表于 do not lose the
    time, so a 改票 at 21:30 is void ("关门前一小时不允许改票"); a reason that is a character's name starts no
    post; whoever posted only void ballots is listed under 无效票 with why, not under 未投票 nor given its card."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "关门时间 12-01 22:00", "本日关门时间改为 12-01 22:00，从关门起算的时限随之调整。")
    paste = "\n".join([
        "【第2天投票帖】粽子", "查看: 352|回复: 14", "[复制链接]",
        "导演组", "楼主", "发表于 2026-12-1 09:00 | 只看该作者 |倒序浏览 |阅读模式",
        "第2天投票帖，格式：", "投票对象：甜粽子", "投票理由：甜粽子好吃", "回复", "举报",
        *page_post("果果", "沙发", "10:23:45", "投票对象：菠萝", "投票理由：划水"),
        *page_post("西瓜", "板凳", "11:00", "投票对象：果果", "投票理由：", "橘子"),  # the reason: "橘子" said so
        *page_post("橘子", "地板", "12:00", "改票对象：西瓜", "改票理由：先改了再说"),  # a change with no vote before it
        *page_post("柠檬", "5#", "13:00", "我投西瓜"),  # not the format
        *page_post("果果", "6#", "21:30", "果果 发表于 2026-12-1 10:23", "投票对象：菠萝", "投票理由：划水",
                   "改票对象：西瓜", "改票理由：想通了"),
    ])
    unvoted_ones = ["香蕉", "葡萄", "草莓", "芒果", "桃子", "菠萝", "樱桃", "荔枝", "龙眼"]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票\n" + paste))
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n1号 果果 1票、10号 菠萝 1票\n结果：平票（1号 果果、10号 菠萝 各1票），无人出局\n"
                            "票型：\n1号 果果 → 10号 菠萝\n5号 西瓜 → 1号 果果\n"
                            "未投票：" + labels(unvoted_ones) + "\n"
                            "无效票：2号 橘子（改票前没有有效的投票）、6号 柠檬（没有“投票对象：”，格式有误）")
        says(ctx, DIRECTOR, unvoted(2, "放逐投票", unvoted_ones))
        says(ctx, DIRECTOR, "计票完成：1号 果果 1票、10号 菠萝 1票；结果：平票或无票，无人。可公示的计票结果见上。\n"
                            "无效：橘子：改票前没有有效的投票，改票无效\n"
                            "无效：柠檬：没有“投票对象：”，格式有误，此帖无效\n"
                            "无效：果果：改票发表于 12-01 21:30，关门前一小时（12-01 21:00 起）不得改票，改票无效，仍按原投票计\n"
                            "注意：发表于 12-01 09:00 的一帖的作者不是本局角色（或复制时缺了作者名），其中的投票未计入，请核对")


class _starting:
    """A one-text-segment message that starts with `head`."""

    def __init__(self, head: str):
        self.head = head

    def __eq__(self, other) -> bool:
        return "".join(seg.data["text"] for seg in other).startswith(self.head)

    def __repr__(self) -> str:
        return f"starting({self.head!r})"


class _any:
    def __eq__(self, other) -> bool:
        return True


async def test_154_speeds_up_with_more_than_half(app: App, banshabot):
    """154, 玩家须知 8: "若场上未出局的玩家过半数同意加速则执行加快进程": ten of twenty is not enough."""
    from test_bot_154 import started as started_154

    service = banshabot.service
    t, _ = await started_154(service)
    await service.submit(t, CloseDay(), source="test")
    await service.submit(t, OpenDay(lapse=True), source="test")
    await drain()
    living = sum(p.alive for p in t.game.state.players)
    askers = [str(p.seat) for p in t.game.state.players if p.alive][: living // 2]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "加速 " + " ".join(askers)))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": _starting("加速申请已记录")}, result={"message_id": 1})
        says(ctx, DIRECTOR, "已记录，加速尚未通过。")  # not "已执行。": nothing was carried out
    assert not t.game.state.carry.get("sped_up")
    one_more = next(str(p.seat) for p in t.game.state.players if p.alive and str(p.seat) not in askers)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "加速 " + one_more))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": _starting("【可公示】游戏进程加速")}, result={"message_id": 1})
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": _starting("加速通过")}, result={"message_id": 1})
        says(ctx, DIRECTOR, "已执行。")
    # 154 says nothing of 改票 after a speed-up: a count does not void them
    from service.director import _change_rules

    rules = _change_rules(service, t)
    assert t.game.state.carry["sped_up"] and rules.sped_up is None and not rules.all_void


# --- 讨论日长短 ------------------------------------------------------------------------------------------------
def test_146s_day_length_meets_the_weekend_but_not_on_day_one():
    from datetime import date

    from rulesets import get

    length = get("146").day_length
    assert length.closes(date(2026, 12, 1), 2) == (date(2026, 12, 2), 22 * 60)  # Tuesday → Wednesday evening
    assert length.closes(date(2026, 12, 4), 2) == (date(2026, 12, 6), 22 * 60)  # Friday → Saturday: a day longer
    assert length.closes(date(2026, 12, 5), 3) == (date(2026, 12, 7), 22 * 60)  # Saturday → Monday
    assert length.closes(date(2026, 12, 4), 1) == (date(2026, 12, 5), 22 * 60)  # "第一天讨论日不因周末而延长"
    m131 = get("M131").day_length  # "本局周末不延时"
    assert m131.closes(date(2026, 12, 4), 3) == (date(2026, 12, 5), 21 * 60)
    assert get("154").day_length is None  # the post sets none: the director names it


async def test_the_director_sets_and_changes_the_days_closing_time(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "关门时间", "本日关门时间：未设定。更改请发送“关门时间 12-01 22:00”。")
    await director(app, "关门时间 明天", "看不懂时间“明天”，请写成“12-01 22:00”或“22:00”")
    await director(app, "关门时间 12-02 23:00", "本日关门时间改为 12-02 23:00，从关门起算的时限随之调整。")
    assert clock(t.row.planned_close) == "12-02 23:00"
    # as directors type it: a full-width colon, a slash
    await director(app, "关门时间 12-02 22：30", "本日关门时间改为 12-02 22:30，从关门起算的时限随之调整。")
    await director(app, "关门时间 12/02 23:15", "本日关门时间改为 12-02 23:15，从关门起算的时限随之调整。")
    assert clock(t.row.planned_close) == "12-02 23:15"
    await service.submit(t, CloseDay(), source="test")
    await drain()
    await director(app, "关门时间 12-02 23:00", "只有白天可以设定当天的关门时间。")


async def test_a_later_closing_time_moves_the_limits_counted_from_it(app: App, banshabot, clean):
    """The sheriff voted out has until 30 minutes after 关门 to hand over the badge; 关门时间 moves it."""
    service, scheduler = banshabot.service, clean
    t = await running_game(service)
    await day_two(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "关门时间 12-02 21:00"))
        says(ctx, DIRECTOR, "本日关门时间改为 12-02 21:00，从关门起算的时限随之调整。")
    await service.submit(t, Ballots("exile", (("果果", "橘子"),)), source="test")  # 橘子, the sheriff, goes out
    await drain()
    row = await DeadlineRow.get(key="殉职:橘子:day2")
    assert clock(row.due_at) == "12-02 21:30" and clock(scheduler.jobs[f"deadline:{row.id}"][0]) == "12-02 21:30"
    await director(app, "关门时间 12-02 23:00", "本日关门时间改为 12-02 23:00，从关门起算的时限随之调整。")
    await row.refresh_from_db()
    assert clock(row.due_at) == "12-02 23:30" and clock(scheduler.jobs[f"deadline:{row.id}"][0]) == "12-02 23:30"


async def test_a_change_in_the_last_hour_before_closing_is_void(app: App, banshabot):
    """"关门前一小时不允许改票": with the day's closing time known, the posts' own times decide."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director(app, "关门时间 12-01 22:00", "本日关门时间改为 12-01 22:00，从关门起算的时限随之调整。")
    paste = "\n".join([
        post("果果", "15:00", "投票对象：菠萝", "投票理由：划水"),
        post("西瓜", "16:00", "投票对象：菠萝", "投票理由：划水"),
        post("果果", "20:59"), post("果果", "15:00", "改票对象：西瓜", "改票理由：来得及"),
        post("西瓜", "21:00"), post("西瓜", "16:00", "改票对象：果果", "改票理由：来不及"),
        # Discuz! shows a recent post's time as "3 小时前": no time to check, so counted, to be checked
        "橘子 发表于 3 小时前 | 只看该作者", "投票对象：菠萝", "投票理由：", "橘子 发表于 半小时前", "改票对象：果果", "改票理由：没有时间",
    ])
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票\n" + paste))
        for _ in range(5):
            ctx.should_call_api("send_private_msg", {"user_id": _any(), "message": _any()}, result={"message_id": 1})
        says(ctx, DIRECTOR, "计票完成：1号 果果 1.5票、5号 西瓜 1票、10号 菠萝 1票；结果：1号 果果。可公示的计票结果见上。\n"
                            "无效：西瓜：改票发表于 12-01 21:00，关门前一小时（12-01 21:00 起）不得改票，改票无效，仍按原投票计\n"
                            "注意：橘子：投票理由为空，已按有效票计\n"
                            "注意：橘子：改票没有发帖时间，无法核对“关门前一小时不允许改票或代投，执行加速时不允许改票。”，已按有效计，请核对")
