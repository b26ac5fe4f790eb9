"""Team groups and delivery, through NoneBot: the pack's kill sent and confirmed in its group,
non-members ignored, join requests, strangers removed, relay when no group is free, the group given
back at the end, and an outbox that keeps what OneBot refused and sends it later, in order.
"""
from __future__ import annotations

import asyncio

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed
from nonebug import App

from bot_helpers import (
    dealt_game,
    NIGHT_LIMITS,
    promised,
    BOT_ID,
    DIRECTOR,
    GROUP,
    GROUP_NAME,
    PLAYERS,
    QQ,
    STARTED,
    STRANGER,
    WOLVES,
    brief,
    chat,
    connect,
    director_does,
    drain,
    friend_request,
    game_over,
    in_group,
    join_request,
    joined,
    kicks,
    left,
    label,
    lists_members,
    night_one,
    posts,
    private,
    renames,
    running_game,
    says,
    says_with,
)

pytestmark = pytest.mark.usefixtures("clean")

REJECT = "此群仅限本局队伍成员加入"


def tongling(ctx, name: str | None) -> None:
    """The witch's 通灵 and what follows it, the moment the pack's kill is in."""
    seen = f"今晚被指杀的角色是 {label(name)}。" if name else "今晚没有角色被指杀。"
    says(ctx, QQ["柠檬"], f"通灵：{seen}")
    says(ctx, DIRECTOR, f"已发给 6号 柠檬 的反馈：通灵：{seen}")
    says(ctx, QQ["柠檬"], "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
    says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")


# --- the pack's kill in its group -------------------------------------------------------------------------
async def test_a_members_kill_in_the_group_is_confirmed_there(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["葡萄"], "杀人 5"))  # 感染白痴 shares the pack's kill
        posts(ctx, GROUP, "葡萄 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "4号 葡萄：杀人 5")
        tongling(ctx, "西瓜")
    async with chat(app) as (ctx, bot):  # a second kill: refused in the group, with the reason
        ctx.receive_event(bot, in_group(GROUP, QQ["香蕉"], "刀 7"))
        posts(ctx, GROUP, "未执行：狼群今晚已经发动过<杀人>（目标 西瓜），不能更改")
    assert t.game.night.actions["杀人"] == ("葡萄", "西瓜")


async def test_the_pack_can_pass_in_the_group(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 空"))
        posts(ctx, GROUP, "果果 代表狼群放弃了今晚的<杀人>。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 果果：杀人")
        tongling(ctx, None)


async def test_a_dead_members_kill_is_refused_in_the_group(app: App, banshabot):
    from engine import Card

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await director_does(service, t, Card("红牌", "香蕉"))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["香蕉"], "刀 5"))
        posts(ctx, GROUP, "未执行：香蕉 已出局，不能发动技能")


async def test_non_members_and_chat_in_the_group_are_ignored(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):  # no OneBot call at all for any of these
        ctx.receive_event(bot, in_group(GROUP, QQ["西瓜"], "刀 1"))  # a player of the game, not of the pack
        ctx.receive_event(bot, in_group(GROUP, STRANGER, "杀人 5"))  # a stranger who got in
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "今晚刀谁？"))  # the pack's own chat
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "状态"))
        ctx.receive_event(bot, in_group(900002, QQ["果果"], "杀人 5"))  # a group the game does not hold
    assert "杀人" not in t.game.night.actions


async def test_help_in_the_group_says_what_the_team_sends_there(app: App, banshabot):
    """`帮助` in a team's group is answered there: the team's own choice and until when; a member's own
    decisions stay private."""
    t = await running_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["葡萄"], "帮助"))
        posts(ctx, GROUP, "狼群现在没有需要在群里发送的行动。\n自己的行动、时限和遗言请私聊我发送“帮助”。")
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "？"))
        posts(ctx, GROUP, "现在可以：杀人 座位号（狼群的共同选择，在队伍群里发送；全队放弃发送“杀人 空”；截止 12-01 21:00）\n"
                          "自己的行动、时限和遗言请私聊我发送“帮助”。")
        ctx.receive_event(bot, in_group(GROUP, STRANGER, "帮助"))  # not a member: ignored


async def test_a_group_message_seen_twice_is_handled_once(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 5", 8001))
        posts(ctx, GROUP, "果果 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 果果：杀人 5")
        tongling(ctx, "西瓜")
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 5", 8001))  # again: nothing, not even a refusal


# --- who gets in ---------------------------------------------------------------------------------------
async def test_join_requests_approved_for_members_only(app: App, banshabot):
    await running_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, join_request(GROUP, QQ["橘子"], "flag-1"))
        ctx.should_call_api("set_group_add_request", {"flag": "flag-1", "sub_type": "add", "approve": True}, result=None)
        ctx.receive_event(bot, join_request(GROUP, QQ["西瓜"], "flag-2"))  # in the game, not in the pack
        ctx.should_call_api("set_group_add_request", {"flag": "flag-2", "sub_type": "add", "approve": False, "reason": REJECT}, result=None)
        ctx.receive_event(bot, join_request(GROUP, STRANGER, "flag-3"))
        ctx.should_call_api("set_group_add_request", {"flag": "flag-3", "sub_type": "add", "approve": False, "reason": REJECT}, result=None)
        ctx.receive_event(bot, join_request(900002, STRANGER, "flag-4"))  # not a team group: left alone


async def test_friend_requests_are_approved(app: App):
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, friend_request(QQ["西瓜"], "friend-1"))
        ctx.should_call_api("set_friend_add_request", {"flag": "friend-1", "approve": True}, result=None)


async def test_strangers_who_get_into_the_group_are_removed(app: App, banshabot):
    await running_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, joined(GROUP, QQ["橘子"]))  # a member: welcome
        ctx.receive_event(bot, joined(GROUP, int(BOT_ID)))  # the bot itself
        ctx.receive_event(bot, joined(GROUP, STRANGER))
        kicks(ctx, GROUP, STRANGER)
        ctx.receive_event(bot, joined(GROUP, QQ["西瓜"]))
        kicks(ctx, GROUP, QQ["西瓜"])
        ctx.receive_event(bot, joined(900002, STRANGER))  # not a team group: none of the bot's business


async def test_the_team_roster_is_posted_in_its_group_once_every_member_is_in(app: App, banshabot):
    """Posted at 开始 it would go to an empty group, and one who joins later does not see the group's
    history: it is posted when the last member comes in, once; a join notice seen again, or one of a
    member already in, posts nothing more. A 替补 who takes a seat in the same team changes no roster:
    he was told it privately, and nothing is posted again."""
    from service import director as directing
    from service import handling

    from service.models import OutboxRow

    service = banshabot.service
    t = await running_game(service)
    # nobody in the group yet: nothing was posted there
    assert await OutboxRow.filter(action="set_group_name").exists()
    assert not await OutboxRow.filter(action="send_group_msg").exists()
    again = joined(GROUP, QQ["葡萄"])
    again.time += 60  # a notice of the same member, later (he left and came back, or OneBot told twice)
    async with chat(app) as (ctx, bot):
        for name in ("橘子", "果果", "香蕉"):
            ctx.receive_event(bot, joined(GROUP, QQ[name]))
        ctx.receive_event(bot, joined(GROUP, QQ["香蕉"]))  # the same notice again
        ctx.receive_event(bot, joined(GROUP, QQ["葡萄"]))  # the last of the pack: now they all read it
        posts(ctx, GROUP, "【狼群】成员：1号 果果、2号 橘子、3号 香蕉、4号 葡萄")
        ctx.receive_event(bot, again)

    async def no_friends() -> set[str]:
        return set()

    handling.begin(None, ("private", str(DIRECTOR)))
    await directing.handle(service, str(DIRECTOR), "替补 果果 30001", no_friends)
    assert not [a for a in await drain() if a[0] == "send_group_msg"]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, joined(GROUP, 30001))  # the roster is as posted: nothing again


async def test_a_member_who_leaves_the_team_group_is_asked_back_and_the_roster_posted_again(app: App, banshabot):
    """A wolf who leaves his group is told to come back and the director that he left; once he is in
    again the roster is posted again (the group may hide its earlier chat from him). Someone the bot
    removed, the bot itself, or a stranger leaving, is no news."""
    service = banshabot.service
    await running_game(service)
    async with chat(app) as (ctx, bot):
        for name in ("橘子", "果果", "香蕉", "葡萄"):
            ctx.receive_event(bot, joined(GROUP, QQ[name]))
        posts(ctx, GROUP, "【狼群】成员：1号 果果、2号 橘子、3号 香蕉、4号 葡萄")
        ctx.receive_event(bot, left(GROUP, QQ["香蕉"]))
        says(ctx, QQ["香蕉"], f"你已退出【狼群】的QQ群 {GROUP}。队伍的讨论和指令都在群里：请重新申请加入，我会通过你的申请。")
        says(ctx, DIRECTOR, f"3号 香蕉（QQ {QQ['香蕉']}）退出了【狼群】的QQ群 {GROUP}，已请他重新加入；全队回到群里后我会再发一次成员名单。")
        ctx.receive_event(bot, left(GROUP, QQ["香蕉"]))  # the same notice again: told once
        ctx.receive_event(bot, left(GROUP, STRANGER, "kick", int(BOT_ID)))  # the bot removed him
        ctx.receive_event(bot, left(GROUP, QQ["葡萄"], "kick", DIRECTOR))  # the director removed him: he stays out
        ctx.receive_event(bot, left(GROUP, STRANGER))  # not a member
        back = joined(GROUP, QQ["香蕉"])
        back.time += 3600
        ctx.receive_event(bot, back)
        posts(ctx, GROUP, "【狼群】成员：1号 果果、2号 橘子、3号 香蕉、4号 葡萄")
    assert not await drain()


async def test_a_replaced_player_is_removed_and_kept_out(app: App, banshabot):
    from service import director as directing

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)

    async def no_friends() -> set[str]:
        return set()

    await directing.handle(service, str(DIRECTOR), "替补 果果 30001", no_friends)
    sent = await drain()
    assert ("set_group_kick", {"group_id": GROUP, "user_id": 20001, "reject_add_request": False}) in sent
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, 20001, "杀人 5"))  # ignored
        ctx.receive_event(bot, join_request(GROUP, 20001, "flag-old"))
        ctx.should_call_api("set_group_add_request", {"flag": "flag-old", "sub_type": "add", "approve": False, "reason": REJECT}, result=None)
        ctx.receive_event(bot, join_request(GROUP, 30001, "flag-new"))
        ctx.should_call_api("set_group_add_request", {"flag": "flag-new", "sub_type": "add", "approve": True}, result=None)
        ctx.receive_event(bot, joined(GROUP, 20001))
        kicks(ctx, GROUP, 20001)
        ctx.receive_event(bot, in_group(GROUP, 30001, "杀人 5"))
        posts(ctx, GROUP, "果果 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "1号 果果：杀人 5")
        tongling(ctx, "西瓜")


# --- no group free: relay -------------------------------------------------------------------------------
async def test_without_a_free_group_the_team_works_by_relay(app: App, banshabot):
    service = banshabot.service
    t = await dealt_game(service)
    await drain()
    team = "1号 果果、2号 橘子、3号 香蕉、4号 葡萄"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        for name, qq, _ in PLAYERS:
            says(ctx, qq, brief(name))
        for name in WOLVES:  # no set_group_name: the pool is empty
            says(ctx, QQ[name], f"你属于【狼群】，成员：{team}。目前没有空闲的QQ群：私聊我的非指令消息会由我转发给队友。")
        says(ctx, DIRECTOR, promised(t.row))
        says(ctx, DIRECTOR, STARTED)
    from engine import Act

    await service.submit(t, Act(by="桃子", skill="认亲", target="西瓜"), source="test")
    await night_one(service, t)

    async with chat(app) as (ctx, bot):  # a member's chat goes to the other members, as he wrote it
        ctx.receive_event(bot, private(QQ["香蕉"], "今晚刀谁？\n我觉得5号像预言家"))
        for name in ("果果", "橘子", "葡萄"):
            says(ctx, QQ[name], "[狼群] 香蕉：今晚刀谁？\n我觉得5号像预言家")
        says(ctx, QQ["香蕉"], "已转发给狼群队友。（这不是指令：行动请发送“技能 目标”）")
    async with chat(app) as (ctx, bot):  # a command is a command, not chat: the team's messages go to each member
        ctx.receive_event(bot, private(QQ["橘子"], "刀 5"))
        for name in WOLVES:
            says(ctx, QQ[name], "橘子 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
        says(ctx, DIRECTOR, "2号 橘子：杀人 5")
        tongling(ctx, "西瓜")
    async with chat(app) as (ctx, bot):  # not in the pack: not relayed, told what to send
        ctx.receive_event(bot, private(QQ["西瓜"], "今晚刀谁？"))
        says(ctx, QQ["西瓜"], "不认识“今晚刀谁？”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")


async def test_in_relay_the_pack_is_not_told_to_use_a_group(app: App, banshabot):
    """With no group, "在群里发送" sends the wolves looking for a group that does not exist: each
    is told privately that the pack can kill tonight, and nothing about a group."""
    service = banshabot.service
    await running_game(service, pool=False)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "关门"))
        says(ctx, DIRECTOR, "【可公示】关门，第1夜开始")
        for name in WOLVES:
            says_with(ctx, QQ[name], "第1夜", "杀人", lacks=("在群里", "群里发送"))
        says(ctx, QQ["柠檬"], "第1夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。")
        for name, skill in (("西瓜", "预言"), ("草莓", "诽谤"), ("芒果", "最后的守护")):
            says(ctx, QQ[name], f"第1夜：你可以发动<{skill}>（发送“{skill} 座位号”），关门后1小时内有效；不发动请发送“放弃”。")
        says(ctx, DIRECTOR, NIGHT_LIMITS)  # one message for every limit begun
        says(ctx, DIRECTOR, "已执行。")


# --- the end of the game ----------------------------------------------------------------------------------
async def test_at_the_end_the_group_is_emptied_renamed_and_returned(app: App, banshabot):
    from service import director as directing

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)

    async def no_friends() -> set[str]:
        return set()

    await directing.handle(service, str(DIRECTOR), "替补 果果 30001", no_friends)
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "判负 狼人阵营"))
        says(ctx, DIRECTOR, "狼人阵营判负")
        says(ctx, DIRECTOR, "【可公示】游戏结束，村民阵营获胜")
        for _, qq, _ in PLAYERS:  # every player is told, at the QQ that plays the character now
            says(ctx, 30001 if qq == QQ["果果"] else qq, game_over("村民阵营", t.row.seed))
        says_with(ctx, DIRECTOR, f"种子：{t.row.seed}", "1号 果果：狼人，狼人阵营（替补接手 1 次）", "结果：村民阵营获胜")  # the 树洞
        for qq in (20001, 20002, 20003, 20004, 30001):  # every member, and the one a 替补 replaced
            kicks(ctx, GROUP, qq)
        renames(ctx, GROUP, GROUP_NAME)
        lists_members(ctx, GROUP)  # given back: nobody is left in it
        says(ctx, DIRECTOR, "已执行。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "群池"))
        says(ctx, DIRECTOR, f"群池：\n{GROUP} {GROUP_NAME} 空闲")
        ctx.receive_event(bot, in_group(GROUP, QQ["橘子"], "杀人 5"))  # the game is over: nothing


# --- delivery ----------------------------------------------------------------------------------------------
async def test_a_refused_send_stays_queued_and_is_retried_in_order(app: App, banshabot):
    from service.models import OutboxRow

    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    refused = ActionFailed(retcode=1200, status="failed", msg="send failed")
    result = "预言结果：1号 果果 是<非村民阵营>"
    status = "第1夜。你是 5号 西瓜，存活。\n座位：" + "、".join(f"{i}号{n}" for i, (n, _, _) in enumerate(PLAYERS, 1)) + "\n警长：无"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1"))
        says(ctx, QQ["西瓜"], result, exception=refused)
        # the others' messages are not held up by it
        says(ctx, DIRECTOR, f"已发给 5号 西瓜 的反馈：{result}")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
    waiting = await OutboxRow.filter(sent_at=None)
    assert [(r.params["user_id"], r.params["text"], r.attempts) for r in waiting] == [(QQ["西瓜"], result, 1)]
    assert waiting[0].last_error.startswith("ActionFailed")

    async with app.test_matcher() as ctx:
        says(ctx, QQ["西瓜"], result, exception=refused)  # OneBot connects again: tried first, refused again
        bot = await connect(ctx)
        ctx.receive_event(bot, private(QQ["西瓜"], "状态"))
        says(ctx, QQ["西瓜"], result)  # the next delivery: the old message first, then the reply
        says(ctx, QQ["西瓜"], status)
    assert await OutboxRow.filter(sent_at=None).count() == 0


async def test_the_retry_job_sends_what_was_refused(app: App, banshabot):
    from nonebot_plugin_apscheduler import scheduler

    from service.models import OutboxRow

    service = banshabot.service
    job = scheduler.get_job("outbox-retry")  # runs the plugin's flush every banshabot_retry_seconds
    assert job is not None and (job.func.__module__, job.func.__name__) == ("plugins.banshabot.runtime", "flush")
    assert job.trigger.interval.total_seconds() == banshabot.config.banshabot_retry_seconds
    async with app.test_api() as ctx:
        await connect(ctx)  # nothing queued yet
        says(ctx, QQ["西瓜"], "第一条", exception=ActionFailed(retcode=1200, status="failed", msg="busy"))
        await service.queue(("private", str(QQ["西瓜"])), "第一条")
        await service.queue(("private", str(QQ["西瓜"])), "第二条")
        await service.delivered()
        assert await OutboxRow.filter(sent_at=None).count() == 2
        says(ctx, QQ["西瓜"], "第一条")
        says(ctx, QQ["西瓜"], "第二条")
        await job.func()
    assert await OutboxRow.filter(sent_at=None).count() == 0


async def test_what_waits_is_sent_when_onebot_connects_again(app: App, banshabot):
    from service.models import OutboxRow

    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    result = "预言结果：1号 果果 是<非村民阵营>"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1"))
        says(ctx, QQ["西瓜"], result, exception=ActionFailed(retcode=1200, status="failed", msg="offline"))
        says(ctx, DIRECTOR, f"已发给 5号 西瓜 的反馈：{result}")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
    assert await OutboxRow.filter(sent_at=None).count() == 1
    async with app.test_api() as ctx:
        says(ctx, QQ["西瓜"], result)
        await connect(ctx)  # on connect the bot flushes its outbox
        for _ in range(100):
            if ctx.wait_list.empty():
                break
            await asyncio.sleep(0.01)
    assert await OutboxRow.filter(sent_at=None).count() == 0
