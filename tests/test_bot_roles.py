"""Who may do what, through NoneBot: the bot's own commands are its configured directors', and a
director who plays in someone else's game is a player there.

A co-director of one game is added by that game's director: the pool of team groups serves every
game, so only SUPERUSERS may list it, add to it or remove from it. A SUPERUSER who plays in a game
he does not direct gets a player's answers to a player's commands (`帮助`, `状态`, a skill); his own
game's commands he names with `#编号`.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    CO_DIRECTOR,
    DIRECTOR,
    GROUP,
    GROUP_NAME,
    chat,
    drain,
    private,
    running_game,
    says,
    says_with,
)
from engine import FactionLoss
from service.models import GameRow, PoolGroupRow

pytestmark = pytest.mark.usefixtures("clean")

POOL_ONLY = "只有配置的导演（SUPERUSERS）可以管理群池"


async def test_a_co_director_has_no_say_in_the_pool(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await GameRow.filter(id=t.row.id).update(directors=[str(DIRECTOR), str(CO_DIRECTOR)])
    t.row.directors = [str(DIRECTOR), str(CO_DIRECTOR)]
    await service.submit(t, FactionLoss("狼人阵营"), source="test")  # over: the group is free again
    await drain()
    for text in ("群池", f"群池 移除 {GROUP}", "群池 添加 900002 二群"):
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(CO_DIRECTOR, text))
            says(ctx, CO_DIRECTOR, POOL_ONLY)
    assert [(g.group_id, g.original_name) for g in await PoolGroupRow.all()] == [(str(GROUP), GROUP_NAME)]


async def game_with_director_playing(service):
    """A started M131 game (#1) directed by someone else, in which the SUPERUSER plays 10号 菠萝."""
    from bot_helpers import PLAYERS

    lineup = [(name, DIRECTOR if name == "菠萝" else qq, role) for name, qq, role in PLAYERS]
    row = await service.create(str(OTHER_DIRECTOR), "M131", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in lineup])
    await service.assign(t, [(name, role) for name, _, role in lineup])
    await service.start(t)
    await drain()
    return t


OTHER_DIRECTOR = 10003


async def test_a_superuser_who_plays_in_another_game_is_a_player_there(app: App, banshabot):
    service = banshabot.service
    await game_with_director_playing(service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "帮助"))
        says_with(ctx, DIRECTOR, "你是 10号 菠萝，身份：村民", "指令：技能 目标", lacks=("导演指令",))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        says_with(ctx, DIRECTOR, "10号 菠萝", lacks=("你没有进行中的游戏",))
    # his own game: the bot's commands stay his, and a game of his he names with #编号
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "新游戏 M131"))
        says(ctx, DIRECTOR, "已创建游戏 #2（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "帮助"))  # still a player's question
        says_with(ctx, DIRECTOR, "你是 10号 菠萝", lacks=("导演指令",))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "#2 状态"))
        says(ctx, DIRECTOR, "#2 [M131]粽子：筹备中\n（尚无名单）")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "#1 状态"))
        says_with(ctx, DIRECTOR, "10号 菠萝", lacks=("筹备中",))


async def test_a_player_of_a_running_game_joins_another_only_as_its_director_chooses(app: App, banshabot):
    """Another director's new game names a player of a running game: its 开始 says so and waits for
    `开始 确认`; then the player says which game each message is for."""
    from bot_helpers import PLAYERS, QQ, texts_to

    from service import director as directing

    service = banshabot.service
    await running_game(service, pool=False)
    second = [(name, qq if name == "西瓜" else qq + 100, role) for name, qq, role in PLAYERS]
    row = await service.create(str(OTHER_DIRECTOR), "M131", "二局")
    t2 = await service.table(row.id)
    await service.set_roster(t2, [(name, str(qq)) for name, qq, _ in second])
    await service.assign(t2, [(name, role) for name, _, role in second])
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(OTHER_DIRECTOR, "开始"))
        says(ctx, OTHER_DIRECTOR, f"未开始：以下玩家正在另一局进行中的游戏里：\n5号 西瓜（QQ {QQ['西瓜']}）在 #1 [M131]粽子\n"
                                  "两局同时进行时，他们私聊我的每条消息都要以“#编号 ”开头。请用“名单”换人，或发送“开始 确认”让他们同时参加。")
    assert t2.row.status == "roster"

    async def friends() -> set[str]:
        return set()

    async def members(group_id: str):
        raise AssertionError("no pool group to read")

    async def ask(action: str, params: dict):
        raise AssertionError("no pool group to ask about")

    reply = await directing.handle(service, str(OTHER_DIRECTOR), "开始 确认", friends, members, ask)
    assert reply.startswith("游戏已开始"), reply
    sent = await drain()
    assert texts_to(sent, DIRECTOR) == [f"注意：#1 的 西瓜（QQ {QQ['西瓜']}）也在 #2 二局 中有角色，他私聊我的消息会以“#编号 ”开头。"]
    assert texts_to(sent, QQ["西瓜"])[-1] == "你同时在 #1 和 #2 中有角色：私聊我时请在消息前加“#编号 ”，如“#2 帮助”。"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 4"))
        says(ctx, QQ["西瓜"], "你同时在几局游戏中有角色：#2 二局（5号 西瓜）、#1 [M131]粽子（5号 西瓜）。"
                             "请在消息前加“#编号 ”说明是哪一局，如“#2 帮助”。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "#1 帮助"))
        says_with(ctx, QQ["西瓜"], "你是 5号 西瓜，身份：预言家")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "#3 帮助"))
        says(ctx, QQ["西瓜"], "你不在 #3 这局游戏里。你参加的游戏：#2 二局（5号 西瓜）、#1 [M131]粽子（5号 西瓜）。")


async def test_two_co_directors_opening_the_day_at_once_open_it_once(app: App, banshabot):
    """Both send 开门 at the same moment, night 1 settled: the first opens day 1, the second was
    meant for the night and is refused (applied, it would open day 2 and skip the election)."""
    t, first, second = await _at_once(banshabot.service, "开门")
    assert first.startswith("已执行。本日关门时间")
    assert second == "未执行：你发出这条指令时是第1夜，现在已是第1天（另一条指令先执行了）。请确认现在的情况后再发送。"
    assert (t.game.state.phase, t.game.state.day_no) == ("day", 1)
    await drain()


async def test_two_co_directors_giving_the_same_card_at_once_give_it_once(app: App, banshabot):
    """Both see 菠萝 without a card and send 发牌 黄牌 菠萝 at the same moment, in the same phase: the
    first is taken, the second was sent against a game without that card (applied, it would make the
    yellow card a red one and send 菠萝 out) and is refused, though the phase is the same."""
    from service import director as directing
    from service import handling

    service = banshabot.service
    t, first, second = await _at_once(banshabot.service, "发牌 黄牌 菠萝")
    assert first.startswith("已执行")
    assert second == (f"未执行：你发出这条指令后，导演（QQ {DIRECTOR}）的指令先执行了，游戏已经变化。"
                      "请发送“状态”确认现在的情况后再发送。")
    assert t.game.state.player("菠萝").cards["黄牌"] == 1 and t.game.state.player("菠萝").alive
    await drain()
    # one of his own after another's was taken is applied: he sent it against the game as it now is
    handling.begin(None, ("private", str(CO_DIRECTOR)))
    assert (await directing.handle(service, str(CO_DIRECTOR), "发牌 蓝牌 菠萝", _no_friends)).startswith("已执行")
    await drain()


async def _at_once(service, text: str):
    """The director and the co-director both send `text` on day 1's morning, each read against the game
    as it is then, each waiting its turn: the game and the two replies, in the order they were sent."""
    import asyncio

    from bot_helpers import night_one, quiet_night

    from service import director as directing
    from service import handling

    t = await running_game(service)
    t.row.directors = [str(DIRECTOR), str(CO_DIRECTOR)]
    await t.row.save()
    await night_one(service, t)
    await quiet_night(service, t)

    async def sends(qq: int) -> str:
        handling.begin(None, ("private", str(qq)))
        return await directing.handle(service, str(qq), text, _no_friends)

    async def waiting(n: int) -> None:
        while len(t.lock._waiters or ()) < n:
            await asyncio.sleep(0.005)

    async with t.lock:  # both read the game as it is now, then wait their turn
        first = asyncio.create_task(sends(DIRECTOR))
        await asyncio.wait_for(waiting(1), 5)
        second = asyncio.create_task(sends(CO_DIRECTOR))
        await asyncio.wait_for(waiting(2), 5)
    return t, await first, await second


async def _no_friends() -> set[str]:
    return set()
