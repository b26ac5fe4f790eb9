"""Players' private chat, through NoneBot: actions and receipts, feedback the moment its inputs are
in, refusals with their reasons, 放弃, 帮助, 状态, 遗言, strangers, and a message seen twice.

The game is M131 with the fixed line-up of bot_helpers.PLAYERS (1-3 狼人, 4 感染白痴, 5 预言家 西瓜,
6 女巫 柠檬, 7 乌鸦 草莓, 8 锈盾守卫 芒果, 9 混血儿 桃子, 10-13 村民), set up through the service.
"""
from __future__ import annotations


import pytest
from nonebug import App

from bot_helpers import (
    CLOSES,
    SHERIFF,
    DIRECTOR,
    GROUP,
    PLAYERS,
    PROPOSED_CLOSE,
    QQ,
    STRANGER,
    STRANGER_TEXT,
    act,
    chat,
    day_two,
    director_does,
    labels,
    night_one,
    others,
    posts,
    private,
    quiet_night,
    running_game,
    says,
    says_line_with,
    says_with,
    unvoted,
)

SEATS = "、".join(f"{i}号{n}" for i, (n, _, _) in enumerate(PLAYERS, 1))
COMMANDS = "指令：技能 目标（座位号或角色名）/ 放弃 / 遗言 内容 / 状态 / 帮助"

pytestmark = pytest.mark.usefixtures("clean")


async def player(app: App, name_or_qq, text: str, *replies: str, message_id: int | None = None, friend: bool = True) -> None:
    """A player sends `text` privately and reads exactly `replies` (nothing goes to anyone else)."""
    qq = QQ.get(name_or_qq, name_or_qq)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(qq, text, message_id, friend))
        for reply in replies:
            says(ctx, qq, reply)


# --- actions and receipts ------------------------------------------------------------------------------
async def test_recognise_before_the_first_night_gets_a_receipt(app: App, banshabot):
    t = await running_game(banshabot.service, recognise=None)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["桃子"], "认亲 西瓜"))
        says(ctx, QQ["桃子"], "已收到：认亲 5号 西瓜。")
        says(ctx, DIRECTOR, "9号 桃子：认亲 西瓜")
    await player(app, "桃子", "认亲 6", "未执行：<认亲>是限定技，已经发动过")
    assert t.game.state.player("桃子").faction == "村民阵营"


async def test_seer_gets_the_result_at_once(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "查 4"))  # the short alias, a seat number
        says(ctx, QQ["西瓜"], "预言结果：4号 葡萄 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：4号 葡萄 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 4")
    async with chat(app) as (ctx, bot):  # the half-blood checks as 村民阵营 whatever he chose
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 桃子"))
        says(ctx, QQ["西瓜"], "未执行：西瓜今晚已经发动过<预言>（目标 葡萄），不能更改")


async def test_crow_and_guard_get_receipts(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["草莓"], "诽谤 果果"))
        says(ctx, QQ["草莓"], "已收到：诽谤 1号 果果。夜晚结算前可以更改。")
        says(ctx, DIRECTOR, "7号 草莓：诽谤 果果")
        ctx.receive_event(bot, private(QQ["芒果"], "最后的守护 5"))
        says(ctx, QQ["芒果"], "已收到：最后的守护 5号 西瓜。狼群和女巫行动后反馈其是否受到伤害，收到反馈前可以更改。")
        says(ctx, DIRECTOR, "8号 芒果：最后的守护 5")


# --- feedback the moment its inputs are in --------------------------------------------------------------
async def test_witch_learns_the_kill_the_moment_it_is_sent(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["橘子"], "刀 5"))  # a wolf may send the team's kill privately too
        posts(ctx, GROUP, "橘子 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        # sent privately: receipted there too (he may not have joined the group yet)
        says(ctx, QQ["橘子"], "橘子 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "2号 橘子：杀人 5")
        says(ctx, QQ["柠檬"], "通灵：今晚被指杀的角色是 5号 西瓜。")
        says(ctx, DIRECTOR, "已发给 6号 柠檬 的反馈：通灵：今晚被指杀的角色是 5号 西瓜。")
        says(ctx, QQ["柠檬"], "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["柠檬"], "救 5"))
        says(ctx, QQ["柠檬"], "已收到：救药 5号 西瓜。今晚不能再使用毒药。")
        says(ctx, DIRECTOR, "6号 柠檬：救药 5")


async def test_witch_cannot_save_before_her_feedback(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    await player(app, "柠檬", "救 5", "未执行：还没有收到<通灵>反馈，请等待反馈后再决定是否使用<救药>")


async def test_guard_answer_waits_for_the_kill_and_the_witch(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):  # chosen first: only a receipt, the harms are not all in
        ctx.receive_event(bot, private(QQ["芒果"], "选 5"))
        says(ctx, QQ["芒果"], "已收到：最后的守护 5号 西瓜。狼群和女巫行动后反馈其是否受到伤害，收到反馈前可以更改。")
        says(ctx, DIRECTOR, "8号 芒果：最后的守护 5")
    async with chat(app) as (ctx, bot):  # the kill: the witch hears, the guard still waits for her
        ctx.receive_event(bot, private(QQ["果果"], "刀 西瓜"))
        posts(ctx, GROUP, "果果 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, QQ["果果"], "果果 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 果果：杀人 西瓜")
        says(ctx, QQ["柠檬"], "通灵：今晚被指杀的角色是 5号 西瓜。")
        says(ctx, DIRECTOR, "已发给 6号 柠檬 的反馈：通灵：今晚被指杀的角色是 5号 西瓜。")
        says(ctx, QQ["柠檬"], "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")
    await player(app, "芒果", "守", "未执行：还没有收到<最后的守护>的反馈，请等待反馈后再决定是否守护")
    async with chat(app) as (ctx, bot):  # the witch decides: the guard's answer comes with it
        ctx.receive_event(bot, private(QQ["柠檬"], "放弃"))
        says(ctx, QQ["柠檬"], "已收到：放弃。")
        says(ctx, DIRECTOR, "6号 柠檬：放弃")
        says(ctx, QQ["芒果"], "最后的守护：5号 西瓜 今晚受到了伤害。30分钟内发送“守护”守护他，或“放弃”。")
        says(ctx, DIRECTOR, "已发给 8号 芒果 的反馈：最后的守护：5号 西瓜 今晚受到了伤害。30分钟内发送“守护”守护他，或“放弃”。")
        says(ctx, DIRECTOR, "时限开始：芒果<守护>，截止 12-01 20:30")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["芒果"], "守"))
        says(ctx, QQ["芒果"], "已收到：守护 5号 西瓜。")
        says(ctx, DIRECTOR, "8号 芒果：守护")


async def test_a_save_means_not_harmed_for_the_guard(app: App, banshabot):
    """"若某角色被狼人刀了，然后又被女巫救了，则视为没有受到伤害。\""""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await act(service, t, "芒果", "最后的守护", "5")
    await act(service, t, "果果", "杀人", "5")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["柠檬"], "救 西瓜"))
        says(ctx, QQ["柠檬"], "已收到：救药 5号 西瓜。今晚不能再使用毒药。")
        says(ctx, DIRECTOR, "6号 柠檬：救药 西瓜")
        says(ctx, QQ["芒果"], "最后的守护：5号 西瓜 今晚没有受到伤害。30分钟内发送“守护”守护他，或“放弃”。")
        says(ctx, DIRECTOR, "已发给 8号 芒果 的反馈：最后的守护：5号 西瓜 今晚没有受到伤害。30分钟内发送“守护”守护他，或“放弃”。")
        says(ctx, DIRECTOR, "时限开始：芒果<守护>，截止 12-01 20:30")


# --- refusals ------------------------------------------------------------------------------------------
async def test_refusals_say_why_and_what_to_send(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    # a QQ acts only for its own character: naming another identity's skill is refused
    await player(app, "菠萝", "预言 1", "未执行：菠萝 的身份没有<预言>")
    await player(app, "西瓜", "毒 1", "未执行：西瓜 的身份没有<毒药>")
    await player(app, "西瓜", "刀 1", "未执行：只有狼群成员可以发动<杀人>")
    # director commands are not players' words
    await player(app, "菠萝", "关门", "不认识“关门”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await player(app, "菠萝", "代 西瓜 预言 1", "不认识“代”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await player(app, "西瓜", "飞 3", "不认识“飞”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await player(app, "西瓜", "预言", "<预言>需要一个目标：请发送“预言 座位号”或“预言 角色名”。")
    await player(app, "西瓜", "预言 1 2", "<预言>只需要一个目标：请发送“预言 座位号”或“预言 角色名”。")
    await player(app, "西瓜", "预言 99", "未执行：没有找到角色「99」，请发送座位号或角色名")
    await player(app, "西瓜", "开门", "不认识“开门”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await player(app, "果果", "自爆", "未执行：<自爆>只能在白天发动")
    # a target the rules exclude: "女巫全程不能自救"
    await act(service, t, "果果", "杀人", "柠檬")
    await player(app, "柠檬", "救 6", "未执行：女巫全程不能自救：<救药>须选择一名其他角色")
    # a second kill: the pack's first choice stands
    await player(app, "香蕉", "刀 7", "未执行：狼群今晚已经发动过<杀人>（目标 柠檬），不能更改")
    assert t.game.night.actions["杀人"] == ("果果", "柠檬")
    await player(app, "西瓜", "", "消息是空的。发送“帮助”查看你现在能做什么。")


async def test_a_skill_the_player_does_not_have_is_refused_as_such_by_night_and_by_day(app: App, banshabot):
    """The reason must be the real one: a seer has no <自爆> at all; "only by day" would send him
    back in the morning to be refused again."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await player(app, "西瓜", "自爆", "未执行：西瓜 的身份没有<自爆>")
    await quiet_night(service, t)
    from engine import OpenDay

    await director_does(service, t, OpenDay())
    await player(app, "菠萝", "预言 1", "未执行：菠萝 的身份没有<预言>")


async def test_the_crow_cannot_slander_the_same_player_two_nights_running(app: App, banshabot):
    """"不能连续两晚选择同一名角色\""""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t, slander="果果")
    from bot_helpers import close_day

    await close_day(service, t)
    await player(app, "草莓", "诽谤 1", "未执行：不能连续两晚诽谤同一名角色（昨晚已诽谤 果果）")


async def test_a_dead_player_cannot_act(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t, kill="西瓜")
    from bot_helpers import close_day

    await close_day(service, t)
    await player(app, "西瓜", "预言 1", "未执行：西瓜 已出局，不能发动技能")
    await player(app, "柠檬", "毒 西瓜", "未执行：西瓜 已出局，不能作为<毒药>的目标")


async def test_a_wolf_who_sends_pass_is_told_how_the_pack_passes(app: App, banshabot):
    """The kill is the pack's: one wolf's 放弃 does not drop it. Whatever the bot does, it must not
    confirm a pass that did not happen; it must say what to send ("杀人 空")."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["果果"], "放弃"))
        says_with(ctx, QQ["果果"], "杀人 空")
        says(ctx, DIRECTOR, "1号 果果：放弃")
    assert not t.game.decided("狼群", "杀人")


# --- 放弃 ---------------------------------------------------------------------------------------------
async def test_pass_gets_a_receipt_and_ends_the_time_limit(app: App, banshabot, clean):
    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await night_one(service, t)
    from service.models import DeadlineRow

    row = await DeadlineRow.get(key="night1:预言:西瓜")
    assert f"deadline:{row.id}" in scheduler.jobs
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "放弃"))
        says(ctx, QQ["西瓜"], "已收到：放弃。")
        says(ctx, DIRECTOR, "5号 西瓜：放弃")
    await row.refresh_from_db()
    assert row.done and f"deadline:{row.id}" not in scheduler.jobs
    await player(app, "西瓜", "预言 1", "未执行：西瓜今晚已经放弃<预言>或已超过时限")


async def test_a_reminder_comes_before_the_time_limit(app: App, banshabot, clean):
    from service.models import DeadlineRow

    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await night_one(service, t)
    row = await DeadlineRow.get(key="night1:预言:西瓜")
    from service.texts import clock

    when, _ = scheduler.jobs[f"remind:{row.id}:10"]  # banshabot_remind_before: 10 minutes
    assert clock(when) == "12-01 20:50"
    async with chat(app) as (ctx, bot):
        says(ctx, QQ["西瓜"], "提醒：<预言>还有10分钟截止（12-01 21:00）。")
        await scheduler.run(f"remind:{row.id}:10")


# --- 帮助 / 状态 -----------------------------------------------------------------------------------------
async def test_help_says_what_the_player_can_do_now_and_until_when(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await player(app, "西瓜", "帮助", f"你是 5号 西瓜，身份：预言家。夜晚<预言>一名角色的阵营\n现在没有需要你做的事。\n{COMMANDS}")
    await night_one(service, t)
    await player(app, "西瓜", "帮助", f"你是 5号 西瓜，身份：预言家。夜晚<预言>一名角色的阵营\n现在可以：预言 座位号（截止 12-01 21:00）\n{COMMANDS}")
    await player(app, "葡萄", "？", "你是 4号 葡萄，身份：感染白痴。与狼人共群；<假痴不癫>：被投票出局后狼群下一夜获得附加刀或查验；可以<自爆>\n"
                                     "现在可以：杀人 座位号（狼群的共同选择，在队伍群里发送；全队放弃发送“杀人 空”；截止 12-01 21:00）\n"
                                     f"{COMMANDS}")
    await player(app, "菠萝", "帮助", f"你是 10号 菠萝，身份：村民。没有技能\n现在没有需要你做的事。\n{COMMANDS}")
    await act(service, t, "西瓜", "预言", "1")
    await player(app, "西瓜", "帮助", f"你是 5号 西瓜，身份：预言家。夜晚<预言>一名角色的阵营\n现在没有需要你做的事。\n{COMMANDS}")


async def test_help_after_going_out_offers_last_words(app: App, banshabot):
    from engine import Ballots, OpenDay

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t, kill="菠萝")
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))
    await player(app, "菠萝", "帮助", "你是 10号 菠萝，身份：村民。没有技能\n你可以留下遗言：发送“遗言 内容”，下一次开门前有效。\n" + COMMANDS)
    await act(service, t, "菠萝", "放弃")
    await player(app, "菠萝", "帮助", f"你是 10号 菠萝，身份：村民。没有技能\n你已出局。\n{COMMANDS}")


async def test_witch_help_names_what_she_can_send(app: App, banshabot):
    """After her 通灵 the witch's 帮助 must say what she can do now and until when: the line with her
    deadline names 救药 and 毒药 (not only the slot "<女巫>", which is no word she can send)."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await act(service, t, "果果", "杀人", "菠萝")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["柠檬"], "帮助"))
        says_line_with(ctx, QQ["柠檬"], "救药", "毒药", "12-01 20:30")


async def test_status(app: App, banshabot):
    from engine import Card

    service = banshabot.service
    t = await running_game(service)
    await player(app, "菠萝", "状态", f"游戏已开始，等待导演关门进入第一夜。你是 10号 菠萝，存活。\n座位：{SEATS}\n警长：无")
    await day_two(service, t, kill="西瓜")
    seats = SEATS.replace("5号西瓜", "5号西瓜（出局）")
    await player(app, "菠萝", "状态", f"第2天。你是 10号 菠萝，存活。\n座位：{seats}\n警长：2号 橘子")
    await player(app, "西瓜", "状态", f"第2天。你是 5号 西瓜，已出局。\n座位：{seats}\n警长：2号 橘子")
    # the day's closing time and his own cards
    await director_does(service, t, Card("黄牌", "菠萝"))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "关门时间 12-02 22:00"))
        says(ctx, DIRECTOR, "本日关门时间改为 12-02 22:00，从关门起算的时限随之调整。")
    await player(app, "菠萝", "状态", f"第2天。你是 10号 菠萝，存活。\n座位：{seats}\n警长：2号 橘子\n"
                                      "本日关门时间：12-02 22:00\n你的牌：黄牌1张")


# --- 遗言 ---------------------------------------------------------------------------------------------
async def test_last_words_reach_the_director_as_plain_text(app: App, banshabot):
    from engine import Ballots, OpenDay

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t, kill="菠萝")
    await player(app, "菠萝", "遗言 还没轮到", "未执行：菠萝 现在没有遗言权利")  # offered once published
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))
    await player(app, "菠萝", "遗言", "遗言是空的。请发送“遗言 内容”（可以多行），或发送“放弃”放弃遗言。")
    words = "我是村民\n[CQ:at,qq=all] 大家注意\n1号果果很可疑"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["菠萝"], "遗言 " + words))
        says(ctx, QQ["菠萝"], "已收到遗言，将在下一个白天开始时公示。")
        # one text segment: "[CQ:at,qq=all]" stays the player's text and never becomes an @全体成员
        says(ctx, DIRECTOR, f"10号 菠萝 的遗言：\n{words}")
    await player(app, "菠萝", "遗言 再补一句", "未执行：遗言已经提交或放弃，不能再次提交")
    async with chat(app) as (ctx, bot):  # published at the next 开门
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n[b]开门，第2天（放逐投票）[/b]\n前一天投票出局：无\n当日警长：2号 橘子\n\n"
                            f"[b]菠萝 的遗言：[/b]\n{words}" + CLOSES)
        says(ctx, DIRECTOR, PROPOSED_CLOSE)


async def test_last_words_with_discuz_code_are_flagged_to_the_director(app: App, banshabot):
    """"遗言中禁止使用Discuz!代码。\""""
    from engine import Ballots, OpenDay

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t, kill="菠萝")
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["菠萝"], "遗言：[b]跟我投果果[/b]\n好人加油"))
        says(ctx, QQ["菠萝"], "已收到遗言，将在下一个白天开始时公示。")
        says(ctx, DIRECTOR, "10号 菠萝 的遗言：\n[b]跟我投果果[/b]\n好人加油")
        says(ctx, DIRECTOR, "注意：10号 菠萝 的遗言含有Discuz!代码，规则禁止")
    async with chat(app) as (ctx, bot):  # in the post the director pastes, the code shows as written
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n[b]开门，第2天（放逐投票）[/b]\n前一天投票出局：无\n当日警长：2号 橘子\n\n"
                            "[b]菠萝 的遗言：[/b]\n［b]跟我投果果［/b]\n好人加油" + CLOSES)
        says(ctx, DIRECTOR, PROPOSED_CLOSE)


# --- strangers and repeats ------------------------------------------------------------------------------
async def test_a_stranger_gets_a_polite_refusal(app: App, banshabot):
    """Someone who is not the bot's friend (a temporary session): nobody else would answer him."""
    await running_game(banshabot.service)
    await player(app, STRANGER, "刀 5", STRANGER_TEXT, message_id=9001, friend=False)
    await player(app, STRANGER, "刀 5", message_id=9001, friend=False)  # the same event again: answered once
    await player(app, STRANGER, "帮助", STRANGER_TEXT, friend=False)


async def test_a_message_seen_twice_is_handled_once(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 7001))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 7001))  # the same event again: nothing
    from service.models import CommandRow

    assert [c.source for c in await CommandRow.all().order_by("seq")].count("qq:20005") == 1
    await player(app, "西瓜", "状态", f"第1夜。你是 5号 西瓜，存活。\n座位：{SEATS}\n警长：无", message_id=7002)
    await player(app, "西瓜", "状态", message_id=7002)
    await player(app, "菠萝", "飞", "不认识“飞”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。", message_id=7003)
    await player(app, "菠萝", "飞", message_id=7003)
    await player(app, "菠萝", "预言 1", "未执行：菠萝 的身份没有<预言>", message_id=7004)
    await player(app, "菠萝", "预言 1", message_id=7004)


# --- night 1's list waits for the election ---------------------------------------------------------------
async def test_nothing_tells_night_ones_victims_before_the_election_and_one_elected_hands_over(app: App, banshabot):
    """M131: "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布"; "所有玩家都可以投票和被投票"; "警长被投票出局
    或在第一夜出局，关门三十分钟后仍未与导演取得联系，视为放弃移交警长". Nothing the victim, the others or the pack's
    group receive before the count says who went out; the elected victim is asked for <殉职> with the list."""
    from bot_helpers import drain, texts_to

    from engine import Act, OpenDay

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    sent = []
    for name, skill, target in (("果果", "杀人", "10"), ("柠檬", "放弃", None), ("西瓜", "预言", "1"),
                                ("草莓", "放弃", None), ("芒果", "放弃", None)):
        await service.submit(t, Act(by=name, skill=skill, target=target), source="test")
        sent += await drain()
    assert t.game.night.resolved
    assert texts_to(sent, QQ["菠萝"]) == []
    assert texts_to(sent, GROUP) == ["果果 提交了今晚的指杀：10号 菠萝。已确认，不能更改。"]  # the pack's own choice only
    async with chat(app) as (ctx, bot):  # 开门: the 竞选日 opens with nothing about night 1
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        says(ctx, DIRECTOR, "【可公示】开门，第1天（警长竞选）")
        says(ctx, DIRECTOR, PROPOSED_CLOSE)
    await player(app, "菠萝", "状态", f"第1天。你是 10号 菠萝，存活。\n座位：{SEATS}\n警长：无\n本日关门时间：12-02 21:00")
    await player(app, "菠萝", "帮助", f"你是 10号 菠萝，身份：村民。没有技能\n现在没有需要你做的事。\n{COMMANDS}")
    async with chat(app) as (ctx, bot):  # he votes and is elected; the list follows and he hands over
        ctx.receive_event(bot, private(DIRECTOR, "竞选 菠萝:菠萝 龙眼:菠萝 果果:橘子"))
        says(ctx, DIRECTOR, unvoted(1, "警长竞选", others("菠萝", "龙眼", "果果")))
        says(ctx, QQ["菠萝"], SHERIFF)
        says(ctx, DIRECTOR, "10号 菠萝 出局（杀人）")
        says(ctx, QQ["菠萝"], "你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。")
        says(ctx, DIRECTOR, "等待 10号 菠萝 发动<殉职>")
        says(ctx, DIRECTOR, "时限开始：菠萝<殉职>，截止 12-02 21:30")
        says(ctx, QQ["菠萝"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。")
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n"
                            "[b]第1天警长竞选结果：[/b]\n10号 菠萝 2票、2号 橘子 1票\n结果：10号 菠萝 当选警长\n"
                            "票型：\n10号 菠萝 → 10号 菠萝\n13号 龙眼 → 10号 菠萝\n1号 果果 → 2号 橘子\n"
                            f"未投票：{labels(others('菠萝', '龙眼', '果果'))}\n\n"
                            "[b]第1天公示[/b]\n昨晚出局：10号 菠萝\n当日警长：无" + CLOSES)
        says(ctx, DIRECTOR, "计票完成：10号 菠萝 2票、2号 橘子 1票；结果：10号 菠萝。可公示的计票结果见上。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["菠萝"], "殉职 13"))
        says(ctx, DIRECTOR, "【可公示】10号 菠萝 将警徽移交给 13号 龙眼")
        says(ctx, QQ["菠萝"], "已收到：警徽移交给 13号 龙眼。")
        says(ctx, QQ["龙眼"], "你继任了警长。")
        says(ctx, DIRECTOR, "10号 菠萝：殉职 13")
    assert t.game.state.sheriff == "龙眼"
    await director_does(service, t, OpenDay())
    await player(app, "菠萝", "状态", f"第2天。你是 10号 菠萝，已出局。\n座位：{SEATS.replace('10号菠萝', '10号菠萝（出局）')}\n警长：13号 龙眼\n"
                 "本日关门时间：12-02 21:00")
