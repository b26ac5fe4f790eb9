"""The director's corrections over QQ: `撤销` takes back one of his commands of the running phase, `重新计票`
replaces the day's count with a new paste. He first sees what would differ and who must be told, and
confirms; then everyone who was told something no longer true is told so, and the log keeps both the
entry and its correction, with who made them. A player's accepted action is never taken back.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    hides_history,
    CO_DIRECTOR,
    DIRECTOR,
    GROUP,
    PLAYERS,
    QQ,
    SEAT,
    WOLVES,
    act,
    chat,
    close_day,
    day_two,
    director_does,
    director_hears,
    drain,
    game_over,
    label,
    lists_members,
    night_one,
    posts,
    private,
    quiet_night,
    renames,
    running_game,
    says,
    says_with,
    texts_to,
    treehole,
)
from engine import Ballots, Card, CloseDay, FactionLoss, OpenDay
from service import corrections
from service.models import CommandRow

pytestmark = pytest.mark.usefixtures("clean")

CONFIRM = "确认请发送“确认”，放弃请发送“取消”。这项更正和发起人都会记入日志（树洞）。"
LAST_WORDS = "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。"
WORDS_TAKEN = "已收到遗言，将在下一个白天开始时公示。"
# day 2's exile count as pasted (菠萝 out) and as recounted (西瓜 out)
OLD_COUNT = ("第2天放逐投票结果：\n10号 菠萝 2.5票、1号 果果 1票\n结果：10号 菠萝\n票型：\n1号 果果 → 10号 菠萝\n"
             "2号 橘子 → 10号 菠萝（1.5票）\n5号 西瓜 → 1号 果果\n"
             "未投票：3号 香蕉、4号 葡萄、6号 柠檬、7号 草莓、8号 芒果、9号 桃子、10号 菠萝、11号 樱桃、12号 荔枝、13号 龙眼\n"
             "计票说明：警长 2号 橘子 的票计为1.5票")
NEW_COUNT = OLD_COUNT.replace("10号 菠萝 2.5票", "5号 西瓜 2.5票").replace("结果：10号 菠萝", "结果：5号 西瓜") \
                     .replace("1号 果果 → 10号 菠萝", "1号 果果 → 5号 西瓜").replace("2号 橘子 → 10号 菠萝", "2号 橘子 → 5号 西瓜")


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
    await director(app, "日志", treehole(t.row, *entries, out="第1夜 10号 菠萝（杀人）"))  # each night's result
    # a restart rebuilds the game from the log: the correction holds
    service.tables.clear()
    rebuilt = await service.table(t.row.id)
    assert rebuilt.game.state.player("西瓜").alive and rebuilt.game.state == t.game.state


async def friends() -> set[str]:
    return set()


async def empty_group(group_id: str) -> tuple[str, dict[str, str]]:
    """A pool group's members as OneBot lists them: the bot (its owner) alone."""
    return "owner", {}


async def napcat(action: str, params: dict) -> None:
    """NapCat answering an action at once: a pool group's history setting, taken."""
    assert action == "set_group_new_member_history_visibility" and params["visible"] is False, (action, params)


async def directs(service, text: str) -> list[tuple[str, dict]]:
    """A director's command handled straight through the service; returns what it sent (drained)."""
    from service import director as directing

    await service.queue(("private", str(DIRECTOR)), await directing.handle(service, str(DIRECTOR), text, friends, empty_group, napcat))
    return await drain()


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
    old, new = OLD_COUNT, NEW_COUNT
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


async def test_a_recount_keeps_the_posts_its_paste_voids(app: App, banshabot):
    """A post the new paste voids is counted under 无效票 with why, as in a first count, not as 未投票."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"),)))
    paste = "\n".join(["果果 发表于 2026-12-1 15:00", "投票对象：西瓜", "投票理由：悍跳",
                       "柠檬 发表于 2026-12-1 15:30", "我投西瓜"])
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "重新计票 投票\n" + paste))
        says_with(ctx, DIRECTOR, "重新计票：以新的投票帖代替第12条的放逐投票计票")
    assert await corrections.confirm(service, t, str(DIRECTOR)) == "已重新计票（第12条），相关玩家已收到更正。"
    counts = [text for text in texts_to(await drain(), DIRECTOR) if text.startswith("【可公示】第2天放逐投票结果")]
    assert counts and "无效票：6号 柠檬（" in counts[-1] and "柠檬" not in counts[-1].split("未投票：")[-1].split("\n")[0]


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


async def leaves_last_words(app: App, name: str, words: str) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ[name], f"遗言 {words}"))
        says(ctx, QQ[name], WORDS_TAKEN)
        says(ctx, DIRECTOR, f"{SEAT[name]}号 {name} 的遗言：\n{words}")


MOOT = "【更正】你的遗言不再成立（不再出局）。它仍记在日志（树洞）中，如果这项更正以后被撤销，会恢复有效。"


async def exile_moved(app: App, reply: str, gone: tuple[str, str], come: tuple[str, str], words_back: bool = False) -> None:
    """`确认` of a correction that moves day 2's exile: `gone` (the count no longer true, and whom it put
    out: his last words go out of effect) and `come` (the count now, whom it puts out: asked for last
    words, and with `words_back` the words he left before get their effect back)."""
    (old_count, out), (new_count, comes) = gone, come
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        director_hears(ctx, f"【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n「{old_count}」\n「放逐投票：{label(out)} 出局」",
                       f"【可公示】{new_count}", f"【可公示】放逐投票：{label(comes)} 出局", reply)
        says(ctx, QQ[out], f"【更正】你之前收到的以下消息有误，已作废：\n「{LAST_WORDS}」\n「{WORDS_TAKEN}」")
        says(ctx, QQ[out], MOOT)
        for text in (LAST_WORDS, WORDS_TAKEN, "【更正】你的遗言恢复有效。") if words_back else (LAST_WORDS,):
            says(ctx, QQ[comes], text)


async def test_a_recount_after_the_exiled_players_last_words_puts_them_out_of_effect_until_it_is_undone(app: App, banshabot):
    """菠萝 was exiled by a wrong paste and left his last words before the director noticed. The recount is
    made all the same: his words stay in the log, no longer in effect, and he is told. Taking the
    recount back gives them back their effect (and puts out 西瓜's, left in between)."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"), ("橘子", "菠萝"), ("西瓜", "果果"))))
    await leaves_last_words(app, "菠萝", "我是好人")
    await director(app, "重新计票 投票 果果:西瓜 橘子:西瓜 西瓜:果果",
                   "重新计票：以新的投票帖代替第12条的放逐投票计票\n将会改变：\n"
                   "· 10号 菠萝 不再出局（原为投票）\n· 5号 西瓜 出局（投票）\n"
                   "· 第2天放逐投票：10号 菠萝 2.5票、1号 果果 1票（结果：10号 菠萝） → 5号 西瓜 2.5票、1号 果果 1票（结果：5号 西瓜）\n"
                   "· 10号 菠萝 的遗言（第13条）不再成立（不再出局），仍记在日志中\n"
                   "需要告知：\n"
                   f"· 论坛：已公示的以下内容不再成立，需要在论坛更正：\n  「{OLD_COUNT}」\n  「放逐投票：10号 菠萝 出局」\n"
                   f"· 10号 菠萝：以下消息作废\n  「{LAST_WORDS}」\n  「{WORDS_TAKEN}」\n"
                   f"· 论坛：新的公示\n  「{NEW_COUNT}」\n  「放逐投票：5号 西瓜 出局」\n"
                   f"· 5号 西瓜：将收到\n  「{LAST_WORDS}」\n"
                   f"· 10号 菠萝：将收到\n  「{MOOT}」\n" + CONFIRM)
    assert t.game.state.last_words == {"菠萝": "我是好人"}  # the preview changes nothing
    await exile_moved(app, "已重新计票（第12条），相关玩家已收到更正。", (OLD_COUNT, "菠萝"), (NEW_COUNT, "西瓜"))
    s = t.game.state
    assert s.player("菠萝").alive and not s.player("西瓜").alive and s.last_words == {"西瓜": None}
    await leaves_last_words(app, "西瓜", "我是预言家")

    # the recount itself is a director's entry of the phase: taking it back brings 菠萝's words back
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销"))
        says_with(ctx, DIRECTOR, "第14条 12-01 20:00 导演 10000：重新计票第12条：投票 果果:西瓜 橘子:西瓜 西瓜:果果\n")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销 14"))
        says_with(ctx, DIRECTOR, "· 5号 西瓜 的遗言（第15条）不再成立（不再出局），仍记在日志中\n· 10号 菠萝 的遗言（第13条）恢复有效\n",
                  f"· 10号 菠萝：将收到\n  「{LAST_WORDS}」\n  「{WORDS_TAKEN}」\n  「【更正】你的遗言恢复有效。」")
    await exile_moved(app, "已撤销（第14条），相关玩家已收到更正。", (NEW_COUNT, "西瓜"), (OLD_COUNT, "菠萝"), words_back=True)
    s = t.game.state
    assert not s.player("菠萝").alive and s.player("西瓜").alive and s.last_words == {"菠萝": "我是好人"}
    # nothing was deleted: the log shows every entry and what no longer holds
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "日志"))
        says_with(ctx, DIRECTOR, "[第13条] 12-01 20:00 10号 菠萝：遗言 我是好人\n",
                  "[第14条] 12-01 20:00 导演 10000：重新计票第12条：投票 果果:西瓜 橘子:西瓜 西瓜:果果（已由第16条撤销）\n"
                  "[第15条] 12-01 20:00 5号 西瓜：遗言 我是预言家（第16条更正后不再成立：不再出局；如该更正被撤销则恢复）\n"
                  "[第16条] 12-01 20:00 导演 10000：撤销第14条")
    # the rebuild replays the same history
    service.tables.clear()
    assert (await service.table(t.row.id)).game.state == s
    # 菠萝's words are his again: the 开门 after the next night publishes them
    await director_does(service, t, CloseDay())
    await quiet_night(service, t)
    assert (await service.submit(t, OpenDay(), source=f"director:{DIRECTOR}")).ok
    post = next(text for text in texts_to(await drain(), DIRECTOR) if text.startswith("【开门公告"))
    assert "菠萝 的遗言" in post and "我是好人" in post and "我是预言家" not in post


async def a_game_a_wrong_paste_ended(service):
    """Night 1 (菠萝 killed), the election (橘子 sheriff), day 2 (樱桃 red-carded, 荔枝 voted out), night 2
    (西瓜 killed), 开门 into day 3 with the post's closing time; then a paste (entry 22) puts out 龙眼, the
    last 村民: 狼人阵营 wins, the pack's group goes back to the pool and is checked there."""
    from service import groups

    t = await running_game(service)
    await day_two(service, t, kill="菠萝")
    await director_does(service, t, Card("红牌", "樱桃"))
    await director_does(service, t, Ballots("exile", (("果果", "荔枝"),)))
    await close_day(service, t)
    await quiet_night(service, t, kill="西瓜")
    await directs(service, "开门")
    await directs(service, "投票 果果:龙眼")
    await groups.after_release(service, empty_group)
    assert t.row.status == "over" and t.row.id not in service.live
    return t


WRONG_COUNT = ("第3天放逐投票结果：\n13号 龙眼 1票\n结果：13号 龙眼\n票型：\n1号 果果 → 13号 龙眼\n"
               "未投票：2号 橘子、3号 香蕉、4号 葡萄、6号 柠檬、7号 草莓、8号 芒果、9号 桃子、13号 龙眼")
RIGHT_COUNT = ("第3天放逐投票结果：\n2号 橘子 2票\n结果：2号 橘子\n票型：\n1号 果果 → 2号 橘子\n6号 柠檬 → 2号 橘子\n"
               "未投票：2号 橘子、3号 香蕉、4号 葡萄、7号 草莓、8号 芒果、9号 桃子、13号 龙眼")
PACK = "成员：1号 果果、2号 橘子、3号 香蕉、4号 葡萄"
BADGE = "你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。"


async def test_a_game_a_wrong_paste_ended_goes_on_after_a_recount(app: App, banshabot, clean):
    from service import groups
    from service.models import DeadlineRow, PoolGroupRow

    service, scheduler = banshabot.service, clean
    t = await a_game_a_wrong_paste_ended(service)
    # a finished game takes no change but its directors' corrections
    for command in ("发牌 蓝牌 果果", "关门", "投票 果果:橘子", "替补 果果 30001"):
        await director(app, command, "未执行：游戏已经结束")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "重新计票 投票 果果:橘子 柠檬:橘子"))
        says_with(ctx, DIRECTOR, "重新计票：以新的投票帖代替第22条的放逐投票计票\n将会改变：\n· 13号 龙眼 不再出局（原为投票）\n· 2号 橘子 出局（投票）\n",
                  "· 阶段：已结束 → 第3天\n· 结果：狼人阵营 → 游戏继续\n"
                  "游戏将恢复进行：狼群 使用QQ群 900001，队员需要重新加群。未完成的时限重新开始。\n需要告知：\n",
                  f"· 1号 果果：以下消息作废\n  「{game_over('狼人阵营', t.row.seed)}」\n", f"· 2号 橘子：将收到\n  「{BADGE}」\n  「{LAST_WORDS}」\n")
    assert t.row.status == "over" and (await PoolGroupRow.get(group_id=str(GROUP))).game_id is None
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "确认"))
        # the pack's group, free in the pool, is checked and lent again; its members are asked back
        lists_members(ctx, GROUP)
        hides_history(ctx, GROUP)
        renames(ctx, GROUP, "[M131]粽子·狼群")
        for name in WOLVES:
            says(ctx, QQ[name], f"游戏继续：你属于【狼群】，{PACK}。请申请加入QQ群 {GROUP}，我会通过你的申请。")
        # every player is told the end is withdrawn
        for _, qq, _ in PLAYERS:
            says(ctx, qq, f"【更正】你之前收到的以下消息有误，已作废：\n「{game_over('狼人阵营', t.row.seed)}」")
        director_hears(ctx, f"【更正】论坛上已公示的以下内容不再成立，请在论坛更正：\n「{WRONG_COUNT}」\n「放逐投票：13号 龙眼 出局」\n「游戏结束，狼人阵营获胜」",
                       f"【可公示】{RIGHT_COUNT}", "【可公示】放逐投票：2号 橘子 出局", "时限开始：橘子<殉职>，截止 12-02 21:30",
                       "已重新计票（第22条），相关玩家已收到更正。游戏恢复进行：狼群 使用QQ群 900001，队员需要重新加群。")
        says(ctx, QQ["橘子"], BADGE)
        says(ctx, QQ["橘子"], LAST_WORDS)
    # the game is running again: in memory, for its players, its group, its time limits
    assert t.row.status == "running" and t.game.phase == "day" and service.live[t.row.id] is t.row
    assert (await PoolGroupRow.get(group_id=str(GROUP))).game_id == t.row.id
    assert await groups.may_join(str(GROUP), str(QQ["果果"])) and not await groups.may_join(str(GROUP), str(QQ["柠檬"]))
    assert (await service.playing(str(QQ["柠檬"])))[0][0] is t
    badge = await DeadlineRow.get(key="殉职:橘子:day3", done=False)
    assert f"deadline:{badge.id}" in scheduler.jobs
    service.tables.clear()
    rebuilt = await service.table(t.row.id)
    assert rebuilt.game.state == t.game.state
    # the game goes on: the sheriff voted out hands the badge over
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["橘子"], "殉职 6"))
        says(ctx, QQ["橘子"], "已收到：警徽移交给 6号 柠檬。")
        says(ctx, QQ["柠檬"], "你继任了警长。")
        director_hears(ctx, "【可公示】2号 橘子 将警徽移交给 6号 柠檬", "2号 橘子：殉职 6")
    assert rebuilt.game.state.sheriff == "柠檬"


async def test_a_finished_game_whose_group_is_lent_again_goes_on_only_with_a_free_group(app: App, banshabot, clean):
    """A wrong 判负 ended game #1 and #2 has its group since. Taking the 判负 back is refused, saying what
    to do, until the pool has a free group: then #1 goes on with that one, #2's group untouched."""
    from service import groups
    from service.models import DeadlineRow, OutboxRow, PoolGroupRow, TeamRow

    service, scheduler = banshabot.service, clean
    first = await running_game(service)
    await night_one(service, first)
    await director_does(service, first, FactionLoss("狼人阵营"))
    await groups.after_release(service, empty_group)
    second = await service.create(str(DIRECTOR), "M131", "第二局")
    t2 = await service.table(second.id)
    await service.set_roster(t2, [(name, str(qq + 100)) for name, qq, _ in PLAYERS])
    await service.assign(t2, [(name, role) for name, _, role in PLAYERS])
    await service.start(t2)
    await drain()
    await director(app, "#1 撤销", "本阶段导演的操作：\n第2条 12-01 20:00 导演 10000：关门\n第3条 12-01 20:00 导演 10000：判负 狼人阵营\n"
                                  "发送“撤销 编号”（如“撤销 3”）查看撤销后会有什么不同，确认后才会执行。")
    await director(app, "#1 撤销 3", "这局游戏结束后，狼群的QQ群 900001 已借给 #2，群池里也没有空闲的群可以代替，所以游戏还不能恢复进行。"
                                    "请先发送“群池 添加 群号”加入一个空群，再重新发送这项更正。")
    await director(app, "#1 确认", "没有待确认的更正。请先发送“撤销 编号”或“重新计票”加投票帖。")
    assert first.row.status == "over" and not await OutboxRow.filter(sent_at=None).exists()
    await groups.add_to_pool("900002", "空群")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "#1 撤销 3"))
        says_with(ctx, DIRECTOR, "· 阶段：已结束 → 第1夜\n· 结果：村民阵营 → 游戏继续\n"
                                 "游戏将恢复进行：狼群 使用QQ群 900002（原来的群 900001 已被占用），队员需要重新加群。")
    sent = await directs(service, "#1 确认")
    assert first.row.status == "running" and first.game.phase == "night"
    assert (await PoolGroupRow.get(group_id="900002")).game_id == first.row.id
    assert (await PoolGroupRow.get(group_id=str(GROUP))).game_id == second.id
    assert (await TeamRow.get(game_id=first.row.id, team="狼群")).group_id == "900002"
    assert not [params for _, params in sent if params.get("group_id") == GROUP]  # #2's group is left alone
    assert texts_to(sent, QQ["果果"])[0] == f"游戏继续：你属于【狼群】，{PACK}。请申请加入QQ群 900002，我会通过你的申请。"
    # the night's decisions are asked again, their limits running from the 关门 as before
    assert "更正后，你的<预言>可以重新决定：发送“帮助”查看现在能做什么。" in texts_to(sent, QQ["西瓜"])
    seer = await DeadlineRow.get(key="night1:预言:西瓜", done=False)
    assert f"deadline:{seer.id}" in scheduler.jobs


async def test_a_recount_by_night_puts_out_the_night_action_of_the_player_it_now_exiles(app: App, banshabot):
    """The night after a wrong paste, 西瓜 checked someone. The recount exiles 西瓜 instead: his check stays
    in the log out of effect, its result is withdrawn, and 菠萝, in the game again, is not asked for
    anything he cannot do. Another player's act the correction does not touch still stands."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"), ("橘子", "菠萝"), ("西瓜", "果果"))))
    await close_day(service, t)
    await act(service, t, "西瓜", "预言", "1")
    await act(service, t, "草莓", "诽谤", "3")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "重新计票 投票 果果:西瓜 橘子:西瓜 西瓜:果果"))
        says_with(ctx, DIRECTOR, "· 反馈作废：发给 5号 西瓜 的「预言结果：1号 果果 是<非村民阵营>」\n"
                                 "· 5号 西瓜 的<预言>（第14条）不再成立（已出局），仍记在日志中\n",
                  "· 5号 西瓜：将收到\n", "「【更正】你的<预言>不再成立（已出局）。", lacks=("诽谤>（第15条）",))
    await directs(service, "确认")
    s = t.game.state
    assert not s.player("西瓜").alive and s.player("菠萝").alive and t.game.phase == "night"
    assert "预言" not in t.game.night.actions and t.game.night.actions.get("诽谤") == ("草莓", "香蕉")
    service.tables.clear()
    assert (await service.table(t.row.id)).game.state == s


async def test_a_delay_taken_back_takes_the_day_back_to_its_closing_time(app: App, banshabot):
    """M131's 延时 extends the day by one; taking it back (recorded for the wrong day, say) moves the
    closing time back, and the limits counted from it."""
    from service.texts import clock

    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await directs(service, "关门时间 12-02 21:00")
    await directs(service, "延时 12-01 20:00 1 2 3 4 5 6 7")
    assert clock(t.row.planned_close) == "12-03 21:00"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销 13"))
        says_with(ctx, DIRECTOR, "撤销第13条（12-01 20:00 导演 10000：延时 1 2 3 4 5 6 7（12-01 20:00））\n将会改变：\n",
                  "· 本日关门时间：12-03 21:00 → 12-02 21:00\n")
    await directs(service, "确认")
    assert "delayed" not in t.game.state.carry and clock(t.row.planned_close) == "12-02 21:00"


async def test_an_opening_taken_back_and_brought_back_brings_back_its_closing_time(banshabot):
    """开门 announced the day's closing time (then changed to 22:30); taking the 开门 back takes the time with
    it; taking that correction back opens the day again, closing at the time it had."""
    from service.models import CommandRow
    from service.texts import clock

    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await close_day(service, t)
    await quiet_night(service, t)
    await directs(service, "开门")  # day 3, closing 12-02 21:00 as the post proposes
    opening = await CommandRow.filter(game_id=t.row.id).count()
    await directs(service, "关门时间 12-02 22:30")
    await directs(service, f"撤销 {opening}")
    await directs(service, "确认")
    assert t.game.phase == "night" and t.row.planned_close is None
    correction = await CommandRow.filter(game_id=t.row.id).count()
    shown = await directs(service, f"撤销 {correction}")
    assert "· 本日关门时间：恢复为 12-02 22:30\n" in texts_to(shown, DIRECTOR)[0]
    await directs(service, "确认")
    assert t.game.phase == "day" and clock(t.row.planned_close) == "12-02 22:30"
    await t.row.refresh_from_db()
    assert clock(t.row.planned_close) == "12-02 22:30"
    # and taken back once more, it goes again
    await directs(service, f"撤销 {correction + 1}")
    await directs(service, "确认")
    assert t.game.phase == "night" and t.row.planned_close is None


async def test_a_correction_that_tells_nobody_does_not_say_players_were_told(app: App, banshabot):
    """The preview says nobody needs telling: the confirmation does not claim players were told."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await directs(service, "加速 1 2")  # two asked: not enough, only the director hears of it
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "撤销"))
        says_with(ctx, DIRECTOR, "加速")
    seq = next(row.seq for row in await CommandRow.filter(game_id=t.row.id).order_by("-seq"))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, f"撤销 {seq + 1}"))
        says_with(ctx, DIRECTOR, "不需要告知任何人。")
    await director(app, "确认", f"已撤销（第{seq + 1}条），没有需要告知的玩家。")
