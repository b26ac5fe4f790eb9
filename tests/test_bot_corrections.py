"""The director's corrections over QQ: `撤销` takes back one of his commands of the running phase, `重新计票`
replaces the day's count with a new paste. He first sees what would differ and who must be told, and
confirms; then everyone who was told something no longer true is told so, and the log keeps both the
entry and its correction, with who made them. A player's accepted action is never taken back.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    CO_DIRECTOR,
    DIRECTOR,
    QQ,
    act,
    chat,
    day_two,
    director_does,
    director_hears,
    drain,
    night_one,
    private,
    quiet_night,
    running_game,
    says,
    says_with,
    treehole,
)
from engine import Ballots, OpenDay

pytestmark = pytest.mark.usefixtures("clean")

CONFIRM = "确认请发送“确认”，放弃请发送“取消”。这项更正和发起人都会记入日志（树洞）。"
LAST_WORDS = "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。"


async def director(app: App, text: str, *replies: str, qq: int = DIRECTOR) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(qq, text))
        for reply in replies:
            says(ctx, qq, reply)


async def a_red_card_on_day_two(service):
    """Night 1 (菠萝 killed), the election, 开门 into day 2; then the director's 红牌 for 西瓜 (entry 12)."""
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t, kill="菠萝")
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"), ("橘子", "橘子"))))
    await director_does(service, t, OpenDay())
    from engine import Card

    await director_does(service, t, Card("红牌", "西瓜"))
    return t


async def test_undo_shows_what_changes_then_corrects_everyone_told(app: App, banshabot):
    service = banshabot.service
    t = await a_red_card_on_day_two(service)
    await director(app, "撤销", "本阶段导演的操作：\n"
                              "第11条 12-01 20:00 导演 10000：开门\n"
                              "第12条 12-01 20:00 导演 10000：发牌 红牌 西瓜\n"
                              "发送“撤销 编号”（如“撤销 12”）查看撤销后会有什么不同，确认后才会执行。")
    # a player's entry, or one of an earlier phase, is not the director's to take back
    await director(app, "撤销 3", "第3条不是本阶段导演的操作，不能撤销。发送“撤销”查看可以撤销的操作。")
    await director(app, "撤销 十二", "请发送“撤销 编号”（编号见“撤销”列出的操作）。")
    await director(app, "确认", "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。")
    # the preview changes nothing and tells nobody
    await director(app, "撤销 12", "撤销第12条（12-01 20:00 导演 10000：发牌 红牌 西瓜）\n将会改变：\n"
                                 "· 5号 西瓜 不再出局（原为红牌）\n· 5号 西瓜 的牌：红牌1 → 无\n需要告知：\n"
                                 "· 论坛：已公示的以下内容不再成立，需要在论坛更正：\n  「红牌罚下：5号 西瓜 出局」\n"
                                 "· 5号 西瓜：以下消息作废\n  「你已出局（红牌罚下），没有遗言。」\n" + CONFIRM)
    assert not t.game.state.player("西瓜").alive
    # only the director who asked confirms it
    await directs(service, f"协助 {CO_DIRECTOR}")
    await director(app, "确认", "这项更正由导演 10000 发起，请由他确认或取消。", qq=CO_DIRECTOR)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        for to in (DIRECTOR, CO_DIRECTOR):
            says(ctx, to, "【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n「红牌罚下：5号 西瓜 出局」")
        says(ctx, QQ["西瓜"], "【更正】你之前收到的以下消息有误，已作废：\n「你已出局（红牌罚下），没有遗言。」")
        says(ctx, DIRECTOR, "已撤销（第12条），相关玩家已收到更正。")
    assert t.game.state.player("西瓜").alive and t.game.state.player("西瓜").cards["红牌"] == 0
    await director(app, "确认", "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。")
    # the log keeps the entry, marks it taken back, and names who took it back
    entries = [f"[第{i}条] 12-01 20:00 {line}" for i, line in enumerate((
        "test：桃子 认亲 西瓜", "导演 10000：关门", "test：果果 杀人 菠萝", "test：柠檬 放弃", "test：西瓜 放弃", "test：芒果 放弃",
        "test：草莓 放弃", "自动：结算夜晚", "导演 10000：开门", "导演 10000：竞选 果果:橘子 橘子:橘子", "导演 10000：开门",
        "导演 10000：发牌 红牌 西瓜（已由第13条撤销）", "导演 10000：撤销第12条"), 1)]
    await director(app, "日志", treehole(t.row.seed, *entries))
    # a restart rebuilds the game from the log: the correction holds
    service.tables.clear()
    rebuilt = await service.table(t.row.id)
    assert rebuilt.game.state.player("西瓜").alive and rebuilt.game.state == t.game.state


async def directs(service, text: str) -> None:
    """A director's command handled straight through the service, its messages drained."""
    from service import director as directing

    async def friends() -> set[str]:
        return set()

    await service.queue(("private", str(DIRECTOR)), await directing.handle(service, str(DIRECTOR), text, friends))
    await drain()


async def test_a_correction_a_players_accepted_action_depends_on_is_refused(app: App, banshabot):
    """The director's 代 sent the pack's kill; the witch answered the 通灵 it gave her with 救药. Taking the
    kill back would take her action back: refused, naming it, and nothing changes."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await directs(service, "代 果果 杀人 10")
    await act(service, t, "柠檬", "救药", "10")
    await director(app, "撤销 3", "更正后，第4条（test：柠檬 救药 10）不再成立：还没有收到<通灵>反馈，请等待反馈后再决定是否使用<救药>。"
                                "玩家已被接受的行动不会被撤销，所以这项更正不能执行。")
    await director(app, "确认", "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。")
    assert t.game.night.actions["杀人"] == ("果果", "菠萝")


async def test_undoing_an_act_for_a_player_withdraws_its_feedback_and_asks_again(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await directs(service, "代 西瓜 预言 1")
    await director(app, "撤销 3", "撤销第3条（12-01 20:00 导演 10000：西瓜 预言 1）\n将会改变：\n"
                                "· 反馈作废：发给 5号 西瓜 的「预言结果：1号 果果 是<非村民阵营>」\n需要告知：\n"
                                "· 5号 西瓜：以下消息作废\n  「预言结果：1号 果果 是<非村民阵营>」\n"
                                "· 5号 西瓜：将收到\n  「更正后，你的<预言>可以重新决定：发送“帮助”查看现在能做什么。」\n" + CONFIRM)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        says(ctx, QQ["西瓜"], "【更正】你之前收到的以下消息有误，已作废：\n「预言结果：1号 果果 是<非村民阵营>」")
        says(ctx, QQ["西瓜"], "更正后，你的<预言>可以重新决定：发送“帮助”查看现在能做什么。")
        says(ctx, DIRECTOR, "时限开始：西瓜<预言>，截止 12-01 21:00")
        says(ctx, DIRECTOR, "已撤销（第3条），相关玩家已收到更正。")
    async with chat(app) as (ctx, bot):  # he checks again, and someone else this time
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 13"))
        says(ctx, QQ["西瓜"], "预言结果：13号 龙眼 是<村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：13号 龙眼 是<村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 13")


async def test_a_recount_replaces_the_days_count(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"), ("橘子", "菠萝"), ("西瓜", "果果"))))
    await director(app, "重新计票", "请发送“重新计票”加新的投票帖（可写“重新计票 竞选”或“重新计票 投票”指定哪一次计票）。")
    await director(app, "重新计票 竞选 果果:橘子", "今天还没有警长竞选计票，请直接发送“竞选”加投票帖。")
    old = ("第2天放逐投票结果：\n10号 菠萝 2.5票、1号 果果 1票\n结果：10号 菠萝\n票型：\n1号 果果 → 10号 菠萝\n"
           "2号 橘子 → 10号 菠萝（1.5票）\n5号 西瓜 → 1号 果果\n"
           "未投票：3号 香蕉、4号 葡萄、6号 柠檬、7号 草莓、8号 芒果、9号 桃子、10号 菠萝、11号 樱桃、12号 荔枝、13号 龙眼\n"
           "计票说明：警长 2号 橘子 的票计为1.5票")
    new = old.replace("10号 菠萝 2.5票", "5号 西瓜 2.5票").replace("结果：10号 菠萝", "结果：5号 西瓜") \
             .replace("1号 果果 → 10号 菠萝", "1号 果果 → 5号 西瓜").replace("2号 橘子 → 10号 菠萝", "2号 橘子 → 5号 西瓜")
    await director(app, "重新计票 投票 果果:西瓜 橘子:西瓜 西瓜:果果 路人:果果",
                   "重新计票：以新的投票帖代替第12条的放逐投票计票\n将会改变：\n"
                   "· 10号 菠萝 不再出局（原为投票）\n· 5号 西瓜 出局（投票）\n"
                   "· 第2天放逐投票：10号 菠萝 2.5票、1号 果果 1票（结果：10号 菠萝） → 5号 西瓜 2.5票、1号 果果 1票（结果：5号 西瓜）\n"
                   "需要告知：\n"
                   f"· 论坛：已公示的以下内容不再成立，需要在论坛更正：\n  「{old}」\n  「放逐投票：10号 菠萝 出局」\n"
                   f"· 10号 菠萝：以下消息作废\n  「{LAST_WORDS}」\n"
                   f"· 论坛：新的公示\n  「{new}」\n  「放逐投票：5号 西瓜 出局」\n"
                   f"· 5号 西瓜：将收到\n  「{LAST_WORDS}」\n" + CONFIRM + "\n"
                   "无效：“路人”不是本局角色，此票无效")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        director_hears(ctx, f"【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n「{old}」\n「放逐投票：10号 菠萝 出局」")
        says(ctx, QQ["菠萝"], f"【更正】你之前收到的以下消息有误，已作废：\n「{LAST_WORDS}」")
        director_hears(ctx, f"【可公示】{new}", "【可公示】放逐投票：5号 西瓜 出局")
        says(ctx, QQ["西瓜"], LAST_WORDS)
        says(ctx, DIRECTOR, "已重新计票（第12条），相关玩家已收到更正。")
    s = t.game.state
    assert s.player("菠萝").alive and not s.player("西瓜").alive and s.tallies[-1]["result"] == "西瓜"
    assert s.last_words == {"西瓜": None}
    # the corrected count is what the log rebuilds, and what 撤销 lists
    service.tables.clear()
    assert (await service.table(t.row.id)).game.state.tallies[-1]["result"] == "西瓜"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销"))
        says_with(ctx, DIRECTOR, "第12条 12-01 20:00 导演 10000：投票 果果:西瓜 橘子:西瓜 西瓜:果果")


async def test_a_correction_shown_goes_stale_when_the_game_moves_on(app: App, banshabot):
    service = banshabot.service
    t = await a_red_card_on_day_two(service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销 12"))
        says_with(ctx, DIRECTOR, "撤销第12条")
    await act(service, t, "果果", "自爆")  # the game moves on before the director confirms
    await director(app, "确认", "显示更正之后游戏又有了新的记录，更正已作废：请重新发送“撤销 编号”或“重新计票”查看。")
    assert not t.game.state.player("西瓜").alive
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销 12"))
        says_with(ctx, DIRECTOR, "撤销第12条")
    await director(app, "取消", "已取消，游戏没有任何改变。")
    await director(app, "确认", "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。")
    assert not t.game.state.player("西瓜").alive


async def test_a_closing_taken_back_reopens_the_day_and_its_limits_wait_for_the_next(app: App, banshabot, clean):
    """The sheriff voted out has until 30 minutes after 关门 to hand over the badge. The director closed the
    day by mistake and takes it back: the night's prompts are withdrawn, and the badge's limit is again
    "30 minutes after a 关门 still to come", not the one taken back."""
    from service.models import DeadlineRow

    service, scheduler = banshabot.service, clean
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "橘子"),)))
    await directs(service, "关门")
    row = await DeadlineRow.get(key="殉职:橘子:day2")
    assert row.due_at is not None and f"deadline:{row.id}" in scheduler.jobs
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销 13"))
        says_with(ctx, DIRECTOR, "撤销第13条（12-01 20:00 导演 10000：关门）\n将会改变：\n· 阶段：第2夜 → 第2天\n",
                  "· 5号 西瓜：以下消息作废\n  「第2夜：你可以发动<预言>（发送“预言 座位号”），关门后1小时内有效；不发动请发送“放弃”。」")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        says(ctx, DIRECTOR, "【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n「关门，第2夜开始」")
        ctx.should_call_api("send_group_msg", {"group_id": 900001, "message": _text(
            "【更正】你之前收到的以下消息有误，已作废：\n「第2夜：狼群可以<杀人>：发送“杀人 座位号”（全队放弃发送“杀人 空”），关门后1小时内有效。」")},
                            result={"message_id": 1})
        for name in ("柠檬", "西瓜", "草莓", "芒果"):
            says_with(ctx, QQ[name], "【更正】你之前收到的以下消息有误，已作废：\n「第2夜：")
        says(ctx, DIRECTOR, "已撤销（第13条），相关玩家已收到更正。")
    assert t.game.phase == "day" and not await DeadlineRow.filter(key__startswith="night2", done=False).exists()
    await row.refresh_from_db()
    assert row.due_at is None and f"deadline:{row.id}" not in scheduler.jobs


def _text(text: str):
    from bot_helpers import text_message

    return text_message(text)
