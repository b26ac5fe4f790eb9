"""banshabot beside other plugins: it takes only the events it has to do with (its directors', the
players' of running games, strangers' private messages, its pool groups, the friend requests its
setting approves); everything else reaches the plugins after it."""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (DIRECTOR, GROUP, QQ, STRANGER, STRANGER_TEXT, chat, friend_request, in_group, joined, join_request,
                         other_plugins, private, running_game, says, says_with)

pytestmark = pytest.mark.usefixtures("clean")

OTHER_GROUP = 700001  # a group of the bot's account that is none of the pool's
FRIEND = 66666  # a friend of the account who plays in no game


@pytest.fixture
def heard():
    return other_plugins()


async def test_what_is_not_the_bots_reaches_the_other_plugins(app: App, banshabot, heard):
    await running_game(banshabot.service)
    theirs = [in_group(OTHER_GROUP, QQ["果果"], "吃饭了吗"), private(FRIEND, "/天气 北京"),
              join_request(OTHER_GROUP, STRANGER, "flag-9"), joined(OTHER_GROUP, STRANGER)]
    async with chat(app) as (ctx, bot):
        for event in theirs:
            ctx.receive_event(bot, event)
    assert heard == theirs
    heard.clear()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        says_with(ctx, DIRECTOR)  # whatever the game's status says
        ctx.receive_event(bot, private(QQ["西瓜"], "状态"))
        says_with(ctx, QQ["西瓜"])
        ctx.receive_event(bot, private(STRANGER, "你好", friend=False))
        says(ctx, STRANGER, STRANGER_TEXT)  # nobody else would answer him
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "今晚刀谁"))  # the pack's chat: the bot's, answered by nobody
        ctx.receive_event(bot, in_group(GROUP, STRANGER, "我进来了"))  # a stranger in a pool group (removed when he joined)
    assert heard == []


async def test_which_friend_requests_are_approved_is_a_setting(app: App, banshabot, heard, monkeypatch):
    await running_game(banshabot.service)
    config = banshabot.service.config
    async with chat(app) as (ctx, bot):  # by default, anyone's
        ctx.receive_event(bot, friend_request(FRIEND, "f-1"))
        ctx.should_call_api("set_friend_add_request", {"flag": "f-1", "approve": True}, result=None)
    monkeypatch.setattr(config, "banshabot_friend_requests", "roster")
    async with chat(app) as (ctx, bot):  # the roster's and the directors': the rest is the owner's to answer
        ctx.receive_event(bot, friend_request(QQ["西瓜"], "f-2"))
        ctx.should_call_api("set_friend_add_request", {"flag": "f-2", "approve": True}, result=None)
        ctx.receive_event(bot, friend_request(FRIEND, "f-3"))
    monkeypatch.setattr(config, "banshabot_friend_requests", "none")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, friend_request(QQ["柠檬"], "f-4"))
    assert [event.flag for event in heard] == ["f-3", "f-4"]
