"""Who is in a pool group, through NoneBot: nobody but the bot while it is free.

A stranger already in a pool group before a game stayed in it and read the wolves' roster, and the
next game's. The member list (get_group_member_list) is now read when a group enters the pool, at
every game start before any group is lent, and when a game gives its groups back: whoever else is
there is removed and the director told; a group with someone the bot cannot remove is refused.
Between checks, nobody gets into a free pool group.
"""
from __future__ import annotations

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed
from nonebug import App

from bot_helpers import (
    dealt_game,
    hides_history,
    promised,
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
    drain,
    game_over,
    join_request,
    joined,
    kicks,
    lists_members,
    posts,
    private,
    renames,
    running_game,
    says,
    says_with,
)
from service import groups
from service.models import PoolGroupRow, TeamRow

pytestmark = pytest.mark.usefixtures("clean")

OTHER = 900002
OWNER = 10086  # a person who owns a group the bot only administers
TEAM = "1号 果果、2号 橘子、3号 香蕉、4号 葡萄"
REJECT = "此群仅限本局队伍成员加入"


async def add(app: App, group: int, name: str, *replies: str, members: dict[int, str] | None = None, bot_role: str = "owner",
              kicked: tuple[int, ...] = ()) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, f"群池 添加 {group} {name}"))
        lists_members(ctx, group, members, bot_role)
        if "已加入群池" in replies[0]:
            hides_history(ctx, group)
        for qq in kicked:
            kicks(ctx, group, qq)
        for reply in replies:
            says(ctx, DIRECTOR, reply)


async def pool() -> list[str]:
    return [g.group_id for g in await PoolGroupRow.all().order_by("group_id")]


async def test_a_group_enters_the_pool_only_if_the_bot_can_keep_it_empty(app: App):
    await add(app, GROUP, GROUP_NAME, f"群 {GROUP} 已加入群池。\n群 {GROUP} 里有不属于任何队伍的人，已移出：{STRANGER}",
              members={STRANGER: "member"}, kicked=(STRANGER,))
    refused = "。队伍群里只能有本队成员：请让我成为群主，并让其他人退群后再添加。"
    await add(app, OTHER, "二群", f"群 {OTHER} 未加入群池：群里有我无法移出的人：{OWNER}（群主）{refused}",
              members={OWNER: "owner", STRANGER: "member"}, bot_role="admin")
    await add(app, 900003, "三群", f"群 900003 未加入群池：我不是该群的群主或管理员{refused}", bot_role="member")
    async with chat(app) as (ctx, bot):  # OneBot cannot read it: the bot is not in that group
        ctx.receive_event(bot, private(DIRECTOR, "群池 添加 900004 四群"))
        for _ in range(groups.READ_ATTEMPTS):  # one refusal says nothing: asked again
            ctx.should_call_api("get_group_member_list", {"group_id": 900004}, exception=ActionFailed(retcode=1200))
        says(ctx, DIRECTOR, f"群 900004 未加入群池：成员列表读取3次都失败（ActionFailed），我可能已不在该群{refused}")
    assert await pool() == [str(GROUP)]
    # an admin the owner-bot can remove is removed like anyone else
    await add(app, 900005, "五群", "群 900005 已加入群池。\n群 900005 里有不属于任何队伍的人，已移出：10087", members={10087: "admin"},
              kicked=(10087,))


async def test_at_the_start_a_free_group_is_emptied_before_any_team_is_named_in_it(app: App, banshabot):
    t = await ready_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        lists_members(ctx, GROUP, {STRANGER: "member"})  # he got in while the bot was away
        hides_history(ctx, GROUP)
        lists_members(ctx, OTHER, {OWNER: "owner"}, bot_role="admin")
        kicks(ctx, GROUP, STRANGER)  # removed before the pack is named there
        says(ctx, DIRECTOR, f"群 {GROUP} 里有不属于任何队伍的人，已移出：{STRANGER}")
        says(ctx, DIRECTOR, f"群 {OTHER} 已移出群池：群里有我无法移出的人：{OWNER}（群主）。处理后可发送“群池 添加 {OTHER} 二群”重新加入。")
        started_in(ctx, t)
    assert await pool() == [str(GROUP)]


def started_in(ctx, t) -> None:
    """What 开始 sends once the groups are checked: the briefs, the pack's group lent (GROUP), the director told."""
    for name, qq, _ in PLAYERS:
        says(ctx, qq, brief(name))
    renames(ctx, GROUP, "[M131]粽子·狼群")
    for name in WOLVES:
        says(ctx, QQ[name], f"你属于【狼群】，成员：{TEAM}。请申请加入QQ群 {GROUP}，我会通过你的申请。")
    says(ctx, DIRECTOR, promised(t.row))
    says(ctx, DIRECTOR, STARTED)


async def ready_game(service):
    """Game #1 with its roster and identities, not started; GROUP and OTHER free in the pool."""
    await groups.add_to_pool(str(GROUP), GROUP_NAME)
    await groups.add_to_pool(str(OTHER), "二群")
    return await dealt_game(service)


async def test_one_refused_member_list_at_the_start_is_asked_again(app: App, banshabot):
    """A refusal (retcode 1200, often QQ's 风控 for a moment) is not "the bot left the group": the
    list is asked again, the group stays and is lent."""
    t = await ready_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        ctx.should_call_api("get_group_member_list", {"group_id": GROUP}, exception=ActionFailed(retcode=1200))
        lists_members(ctx, GROUP)
        hides_history(ctx, GROUP)
        lists_members(ctx, OTHER)
        hides_history(ctx, OTHER)
        started_in(ctx, t)
    assert await pool() == [str(GROUP), str(OTHER)]
    assert (await PoolGroupRow.get(group_id=str(GROUP))).team == "狼群"


async def test_a_member_list_refused_every_time_starts_nothing_and_keeps_the_pool(app: App, banshabot):
    t = await ready_game(banshabot.service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        for _ in range(groups.READ_ATTEMPTS):
            ctx.should_call_api("get_group_member_list", {"group_id": GROUP}, exception=ActionFailed(retcode=1200))
        lists_members(ctx, OTHER)
        hides_history(ctx, OTHER)
        says(ctx, DIRECTOR, f"群 {GROUP} 的成员列表读取3次都失败（ActionFailed）\n游戏没有开始，群池没有改变。请稍后再发送“开始”；"
                            f"如果我确实已不在群 {GROUP}，请先发送“群池 移除 {GROUP}”。")
    assert await pool() == [str(GROUP), str(OTHER)] and t.row.status == "roster"
    assert not await PoolGroupRow.exclude(game_id=None).exists()


async def test_a_start_that_cannot_read_the_groups_starts_nothing(app: App, banshabot, monkeypatch):
    from service import director as directing

    service = banshabot.service
    await groups.add_to_pool(str(GROUP), GROUP_NAME)
    t = await dealt_game(service)

    async def friends() -> set[str]:
        return set()

    async def unreachable(group_id: str):
        raise groups.Unreachable("no answer")

    reply = await directing.handle(service, str(DIRECTOR), "开始", friends, unreachable)
    assert reply == "现在连不上QQ（OneBot），无法检查队伍群的成员：什么都没有改变，请稍后再发送。"
    assert (await service.table(t.row.id)).row.status == "roster" and not await drain()


async def test_nobody_gets_into_a_free_pool_group(app: App):
    await groups.add_to_pool(str(GROUP), GROUP_NAME)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, join_request(GROUP, STRANGER, "flag-1"))
        ctx.should_call_api("set_group_add_request", {"flag": "flag-1", "sub_type": "add", "approve": False, "reason": REJECT}, result=None)
        ctx.receive_event(bot, joined(GROUP, QQ["果果"]))  # invited by someone: removed at once
        kicks(ctx, GROUP, QQ["果果"])
        ctx.receive_event(bot, joined(900009, STRANGER))  # not a pool group: none of the bot's business


async def test_a_group_given_back_is_emptied_of_everyone_left_in_it(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "判负 狼人阵营"))
        says(ctx, DIRECTOR, "狼人阵营判负")
        says(ctx, DIRECTOR, "【可公示】游戏结束，村民阵营获胜")
        for _, qq, _ in PLAYERS:
            says(ctx, qq, game_over("村民阵营", t.row.seed))
        says_with(ctx, DIRECTOR, f"种子：{t.row.seed}", "结果：村民阵营获胜")  # the 树洞, ready to post, last
        for name in WOLVES:
            kicks(ctx, GROUP, QQ[name])
        renames(ctx, GROUP, GROUP_NAME)
        lists_members(ctx, GROUP, {STRANGER: "member"})  # someone the bot never saw come in
        kicks(ctx, GROUP, STRANGER)
        says(ctx, DIRECTOR, f"群 {GROUP} 里有不属于任何队伍的人，已移出：{STRANGER}")
        says(ctx, DIRECTOR, "已执行。")
    assert (await PoolGroupRow.get(group_id=str(GROUP))).game_id is None
    assert await TeamRow.filter(group_id=str(GROUP)).count() == 1
