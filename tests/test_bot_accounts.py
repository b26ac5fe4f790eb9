"""Several QQ accounts on one bot (issue 19): a game is served by the account its director set it up
through; an answer goes through the account its reader wrote to; every other message of the game, its
friend check and its pool group go through the game's account; the director may move the game to
another connected account while none of its messages is on its way (service/accounts.py)."""
from __future__ import annotations

import asyncio

import pytest
from nonebot.adapters.onebot.v11 import Bot
from nonebug import App

from bot_helpers import (BOT_ID, DIRECTOR, FIXED_TEXT, GROUP, PLAYERS, QQ, ROSTER_TEXT, STARTED, STRANGER, brief, chat,
                         connect, dealt_game, in_group, other_plugins, private, promised, says, says_with)
from service.models import GameRow, OutboxRow

pytestmark = pytest.mark.usefixtures("clean")

OTHER = "10001"  # the bot's second QQ account
NEW_GAME = "已创建游戏 #1（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。"


@pytest.fixture
def through(monkeypatch) -> list[tuple[str, str, object]]:
    """Every OneBot call, with the account it went through: (self_id, action, chat or None)."""
    calls: list[tuple[str, str, object]] = []
    original = Bot.call_api

    async def call_api(self, api: str, **data):
        calls.append((self.self_id, api, data.get("user_id") or data.get("group_id")))
        return await original(self, api, **data)

    monkeypatch.setattr(Bot, "call_api", call_api)
    return calls


async def both(ctx) -> tuple[Bot, Bot]:
    """The bot's two accounts connected (BOT_ID first), each one's on-connect flush done."""
    return await connect(ctx), await connect(ctx, OTHER)


def to(account: str, event):
    """`event` as it comes to `account`."""
    event.self_id = int(account)
    return event


def team(names) -> str:
    return "、".join(f"{i}号 {n}" for i, (n, _, _) in enumerate(PLAYERS, 1) if n in names)


async def test_a_game_goes_through_the_account_it_was_set_up_through(app: App, banshabot, through):
    """Set up through the second account: the friend check reads that account's friends and says so,
    状态 names it, and at 开始 every brief goes through it while the director, who wrote 开始 to the
    first account, is answered through the first."""
    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        ctx.receive_event(second, to(OTHER, private(DIRECTOR, "新游戏 M131")))
        says(ctx, DIRECTOR, NEW_GAME)
        ctx.receive_event(second, to(OTHER, private(DIRECTOR, ROSTER_TEXT)))
        says(ctx, DIRECTOR, "名单已保存：\n" + "\n".join(f"{i}号 {n} {qq}" for i, (n, qq, _) in enumerate(PLAYERS, 1))
             + "\n下一步：“检查”，然后“分配 随机”。")
        ctx.receive_event(second, to(OTHER, private(DIRECTOR, FIXED_TEXT)))
        says(ctx, DIRECTOR, "已按给定分配身份。发送“状态”查看，确认后发送“开始”。")
    assert (await GameRow.get(id=1)).account == OTHER
    assert {a for a, _, _ in through} == {OTHER}
    through.clear()

    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        ctx.receive_event(first, private(DIRECTOR, "检查"))  # written to the first account
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, result=[])
        ctx.should_call_api("get_unidirectional_friend_list", {}, result=[])
        ctx.should_call_api("get_friend_list", {}, result=[{"user_id": qq, "nickname": n} for n, qq, _ in PLAYERS if n != "龙眼"])
        says(ctx, DIRECTOR, "以下玩家还没有加我（QQ 10001）为好友，私聊可能失败：\n13号 龙眼（20013）")
    assert through == [(OTHER, "get_doubt_friends_add_request", None), (OTHER, "get_unidirectional_friend_list", None),
                       (OTHER, "get_friend_list", None), (BOT_ID, "send_private_msg", DIRECTOR)]
    through.clear()

    row = await GameRow.get(id=1)
    wolves = ["果果", "橘子", "香蕉", "葡萄"]
    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        ctx.receive_event(first, private(DIRECTOR, "开始"))
        for name, qq, _ in PLAYERS:
            says(ctx, qq, brief(name))
        for name in wolves:
            says(ctx, QQ[name], f"你属于【狼群】，成员：{team(wolves)}。目前没有空闲的QQ群：私聊我的非指令消息会由我转发给队友。")
        says(ctx, DIRECTOR, promised(row))
        says(ctx, DIRECTOR, STARTED)
    players = {qq for _, qq, _ in PLAYERS}
    assert {a for a, _, whom in through if whom in players} == {OTHER}
    assert {a for a, _, whom in through if whom == DIRECTOR} == {BOT_ID}
    stored = {(r.account, r.params.get("user_id")) for r in await OutboxRow.filter(sent_at__not_isnull=True)}
    assert {a for a, whom in stored if whom in players} == {OTHER} and {a for a, whom in stored if whom == DIRECTOR} == {BOT_ID, OTHER}

    # 状态 names the game's account where several serve the bot
    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        ctx.receive_event(first, private(DIRECTOR, "状态"))
        says_with(ctx, DIRECTOR, "#1 [M131]粽子\n本局账号：QQ 10001（已连接）\n")


async def test_a_friend_check_while_the_games_account_is_away_says_so(app: App, banshabot, through):
    """检查 reads the game's account's friends: while that account is not connected the director is
    told which account to wait for, through the one he wrote to."""
    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        ctx.receive_event(second, to(OTHER, private(DIRECTOR, "新游戏 M131")))
        says(ctx, DIRECTOR, NEW_GAME)
    async with app.test_matcher() as ctx:
        first = await connect(ctx)
        ctx.receive_event(first, private(DIRECTOR, "检查"))
        says(ctx, DIRECTOR, f"本局账号 QQ {OTHER}现在没有连接，读不到它的好友列表：请在它连上后再发送“检查”。")
    assert through[-1] == (BOT_ID, "send_private_msg", DIRECTOR)


async def test_a_game_moves_to_another_account_once_nothing_of_it_is_on_its_way(app: App, banshabot, through):
    """The game's account is away with a message of the game waiting: it is not sent through the other
    account, and the game cannot move meanwhile; once the account is back and the message out, it can."""
    from service import handling

    service = banshabot.service
    handling.begin(None, None, account=OTHER)  # set up through the second account
    t = await dealt_game(service)
    handling.begin(None, None)
    await service.queue(("private", str(QQ["果果"])), "请看群公告。", t.row.id)
    await service.delivered()
    async with chat(app) as (ctx, bot):  # the first account only
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        says_with(ctx, DIRECTOR, "#1 [M131]粽子：筹备中\n本局账号：QQ 10001（未连接，本局的消息等它重新连接后发出）\n1号 果果")
        ctx.receive_event(bot, private(DIRECTOR, f"账号 {BOT_ID}"))
        says(ctx, DIRECTOR, "本局还有 1 条消息正在通过 QQ 10001 发送：发完后才能更换账号，请稍后再发送。")
        ctx.receive_event(bot, private(DIRECTOR, "账号 12345"))
        says(ctx, DIRECTOR, f"QQ 12345 没有连接到机器人，不能接手本局。已连接的账号：{BOT_ID}。")
    assert [a for a, _, whom in through if whom == QQ["果果"]] == []
    async with app.test_matcher() as ctx:
        says(ctx, QQ["果果"], "请看群公告。")
        first, second = await both(ctx)  # the second account is back: its message goes out through it
        for _ in range(100):
            if not await OutboxRow.filter(sent_at=None).exists():
                break
            await asyncio.sleep(0.02)
        ctx.receive_event(first, private(DIRECTOR, f"账号 {BOT_ID}"))
        says(ctx, DIRECTOR, f"本局今后由 QQ {BOT_ID} 发送消息。请让每名玩家加 QQ {BOT_ID} 为好友（发送“检查”核对），玩家私聊它即可。")
    assert [a for a, _, whom in through if whom == QQ["果果"]] == [OTHER]
    assert (await GameRow.get(id=1)).account == BOT_ID


async def test_each_account_handles_an_event_once_and_keeps_its_pool_groups(app: App, banshabot, through):
    """The same message reaching both accounts is handled by each (once each, however often it comes);
    a pool group added through one account is left alone by the other."""
    from service import groups

    await groups.add_to_pool(str(GROUP), "闲聊群", OTHER)
    heard = other_plugins()
    async with app.test_matcher() as ctx:
        first, second = await both(ctx)
        for bot, account in ((first, BOT_ID), (second, OTHER), (second, OTHER)):
            ctx.receive_event(bot, to(account, private(DIRECTOR, "游戏", message_id=4242)))
        says(ctx, DIRECTOR, "你还没有游戏")
        says(ctx, DIRECTOR, "你还没有游戏")
        ctx.receive_event(first, in_group(GROUP, STRANGER, "广告"))  # the other account's group: not this one's
    assert [event.get_plaintext() for event in heard] == ["广告"]
    assert sorted(a for a, _, _ in through) == sorted([BOT_ID, OTHER])
    service = banshabot.service
    assert await groups.pooled(service, str(GROUP), OTHER) and not await groups.pooled(service, str(GROUP), BOT_ID)
