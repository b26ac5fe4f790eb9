"""Each OneBot event is handled once: private and group messages, requests and notices.

OneBot may deliver an event again after a reconnect, or many times at once. The same director
message delivered 50 times at the same moment runs once; a private message is never taken for a
repeat of a group message that happens to share its id; a friend request and a join request
delivered twice are answered once, a join notice (it has no id) is checked against the member list;
stored keys are forgotten after a few days.
"""
from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest
from nonebot.message import handle_event
from nonebug import App

from bot_helpers import (
    DIRECTOR,
    GROUP,
    QQ,
    STRANGER,
    chat,
    connect,
    friend_request,
    in_group,
    join_request,
    joined,
    kicks,
    lists_members,
    night_one,
    posts,
    private,
    running_game,
    says,
    says_with,
)
from conftest import NOW
from service import handling
from service.models import CommandRow, SeenMessage

pytestmark = pytest.mark.usefixtures("clean")


@asynccontextmanager
async def at_once(app: App):
    """A connected bot whose events are handed to NoneBot all at the same moment, as OneBot's
    repeats may come (`handle(events)`); every OneBot call must be declared, in order per chat."""
    async with app.test_api() as ctx:
        bot = await connect(ctx)

        async def handle(events) -> None:
            await asyncio.gather(*(handle_event(bot, event) for event in events))

        yield ctx, handle


async def test_a_director_message_delivered_fifty_times_at_once_runs_once(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with at_once(app) as (ctx, handle):
        says(ctx, DIRECTOR, "10号 菠萝 获得蓝牌")
        says(ctx, QQ["菠萝"], "导演判罚：你获得一张蓝牌。")
        says(ctx, DIRECTOR, "已执行。")
        await handle([private(DIRECTOR, "发牌 蓝牌 菠萝", 4242) for _ in range(50)])
    assert t.game.state.player("菠萝").cards["蓝牌"] == 1
    assert await CommandRow.filter(source=f"director:{DIRECTOR}").count() == 2  # 关门 and the one card


async def test_two_deliveries_of_a_player_action_back_to_back_run_once(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with at_once(app) as (ctx, handle):
        says(ctx, QQ["草莓"], "已收到：诽谤 13号 龙眼。夜晚结算前可以更改。")
        says(ctx, DIRECTOR, "7号 草莓：诽谤 13")
        await handle([private(QQ["草莓"], "诽谤 13", 4343), private(QQ["草莓"], "诽谤 13", 4343)])
    assert await CommandRow.filter(source=f"qq:{QQ['草莓']}").count() == 1


async def test_a_private_message_is_not_a_repeat_of_a_group_message_with_its_id(app: App, banshabot):
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["香蕉"], "今晚刀谁？", 7777))  # chatter: nothing to do
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 7777))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
    async with chat(app) as (ctx, bot):  # and a group message after a private one with its id
        ctx.receive_event(bot, private(QQ["菠萝"], "预言 1", 8888))
        says(ctx, QQ["菠萝"], "未执行：菠萝 的身份没有<预言>")
        ctx.receive_event(bot, in_group(GROUP, QQ["橘子"], "杀人 6", 8888))
        posts(ctx, GROUP, "橘子 提交了今晚的指杀：6号 柠檬。已确认，不能更改。")
        says(ctx, DIRECTOR, "2号 橘子：杀人 6")
        says(ctx, QQ["柠檬"], "通灵：今晚被指杀的角色是 6号 柠檬。")
        says(ctx, DIRECTOR, "已发给 6号 柠檬 的反馈：通灵：今晚被指杀的角色是 6号 柠檬。")
        says(ctx, QQ["柠檬"], "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")
    assert "杀人" in t.game.night.actions


async def test_requests_and_notices_delivered_twice_are_answered_once(app: App, banshabot):
    await running_game(banshabot.service)
    async with at_once(app) as (ctx, handle):
        ctx.should_call_api("set_friend_add_request", {"flag": "friend-1", "approve": True}, result=None)
        ctx.should_call_api("set_group_add_request", {"flag": "join-1", "sub_type": "add", "approve": True}, result=None)
        await handle([friend_request(QQ["菠萝"], "friend-1")] * 2 + [join_request(GROUP, QQ["橘子"], "join-1")] * 2)


@pytest.mark.parametrize("in_group_again", [False, True], ids=["gone", "in-again"])
async def test_a_join_notice_seen_again_removes_the_stranger_only_while_he_is_in(app: App, banshabot, in_group_again):
    """A join notice has no id: the same notice delivered again, and a second join within the same
    second after he was removed, look alike. The member list tells them apart: one who is gone is left
    alone, one who got in again is removed again."""
    await running_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, joined(GROUP, STRANGER))
        kicks(ctx, GROUP, STRANGER)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, joined(GROUP, STRANGER))
        lists_members(ctx, GROUP, {STRANGER: "member"} if in_group_again else {QQ["果果"]: "member"})
        if in_group_again:
            kicks(ctx, GROUP, STRANGER)


async def test_keys_of_handled_events_are_forgotten_after_a_few_days(app: App, banshabot):
    from nonebot_plugin_apscheduler import scheduler

    old = await SeenMessage.create(key="1:private:2:3")
    recent = await SeenMessage.create(key="1:private:2:4")
    await SeenMessage.filter(key=old.key).update(at=NOW - timedelta(days=handling.KEEP_DAYS, minutes=1))
    await SeenMessage.filter(key=recent.key).update(at=NOW - timedelta(days=handling.KEEP_DAYS - 1))
    job = scheduler.get_job("forget-events")
    assert job is not None and job.trigger.interval == timedelta(hours=1)
    await job.func()
    assert [s.key for s in await SeenMessage.all()] == [recent.key]


async def test_a_repeat_after_a_restart_is_found_in_the_database(app: App, banshabot, monkeypatch):
    """The process forgot its claims (a restart); OneBot delivers an old message again."""
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 9191))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
    banshabot.service.seen.forget()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 9191))  # nothing: not even a refusal


async def test_a_repeat_is_found_in_the_database_whatever_time_onebot_gave_it(app: App, banshabot):
    """OneBot's clock runs ahead of the bot's (or the repeat comes after the claims in memory were
    forgotten): the event's time says nothing about whether it was handled. 检查 asks OneBot for the
    friend list: a second run would ask again."""
    t = await running_game(banshabot.service)
    event = private(DIRECTOR, "检查", 9393)
    event.time = int(time.time()) + 3600  # after this process started, by OneBot's clock
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, event)
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, result=[])
        ctx.should_call_api("get_unidirectional_friend_list", {}, result=[])
        ctx.should_call_api("get_friend_list", {}, result=[{"user_id": s.qq, "nickname": s.name} for s in t.seats])
        says(ctx, DIRECTOR, "每名玩家都已加我为好友，可以私聊。")
    banshabot.service.seen.forget()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, event)  # nothing: OneBot is not asked, nobody is answered


async def test_a_new_message_with_an_old_id_is_not_taken_for_a_repeat(app: App, banshabot):
    """OneBot set up again numbers messages from the start: the id comes back with another message."""
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 9595))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
    banshabot.service.seen.forget()  # a restart of the bot as well: only the stored key is left
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1", 9595))  # the same message again: nothing
        ctx.receive_event(bot, private(QQ["西瓜"], "状态", 9595))  # a new one under the old id: answered
        says_with(ctx, QQ["西瓜"], "5号 西瓜")


async def test_a_new_message_with_an_old_id_and_the_same_text_is_told_apart_by_its_time(app: App, banshabot):
    """OneBot set up again numbers messages from the start: within the days a key is kept, the same
    player may send the same text under an id he was given before. OneBot's time of the message tells
    it from a repeat of the old one (which comes with the old time), after a restart too."""
    t = await running_game(banshabot.service)
    await night_one(banshabot.service, t)
    first = private(QQ["西瓜"], "状态", 9797)
    again = private(QQ["西瓜"], "状态", 9797)
    again.time = first.time + 86400
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, first)
        says_with(ctx, QQ["西瓜"], "5号 西瓜")
    banshabot.service.seen.forget()  # a restart of the bot as well: only the stored key is left
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, first)  # the old message again: nothing
        ctx.receive_event(bot, again)  # the new one under the old id, the same text: answered
        says_with(ctx, QQ["西瓜"], "5号 西瓜")
    banshabot.service.seen.forget()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, again)  # and the new one is not handled twice either
    assert [(s.key, s.time) for s in await SeenMessage.all()] == [
        (handling.message_key(str(first.self_id), "private", str(QQ["西瓜"]), 9797, "状态"), again.time)]
