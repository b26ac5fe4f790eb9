"""A lent group shows a team nothing of the last team's chat.

QQ shows a new member the group's recent history. Where OneBot offers it (NapCat's
`set_group_new_member_history_visibility`), the bot turns that view off when a group enters the pool
and again at every start, before any group is lent; where it cannot, the director is told, and a
group where no earlier team's chat can be read is lent first.
"""
from __future__ import annotations

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed
from nonebug import App

from bot_helpers import dealt_game, DIRECTOR, PLAYERS, chat, drain, hides_history, lists_members, private, says, texts_to
from service import director as directing
from service import groups
from service.models import PoolGroupRow, TeamRow

pytestmark = pytest.mark.usefixtures("clean")

USED, FRESH = "900001", "900002"
SHOWN = ("新成员仍能看到入群前的聊天记录：这个 OneBot 实现无法关闭（需要 NapCat 的“新成员查看历史消息”设置），"
         "借用它的队伍能翻看以前的聊天，包括上一队的。我会先借出没有别队聊天记录的群；最好用新建的群。")


async def test_a_group_enters_the_pool_with_its_history_hidden_or_the_director_is_told(app: App):
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, f"群池 添加 {USED} 一群"))
        lists_members(ctx, int(USED))
        hides_history(ctx, int(USED))  # NapCat: done
        says(ctx, DIRECTOR, f"群 {USED} 已加入群池。")
    async with chat(app) as (ctx, bot):  # an implementation without it (LLBot, Lagrange.OneBot)
        ctx.receive_event(bot, private(DIRECTOR, f"群池 添加 {FRESH} 二群"))
        lists_members(ctx, int(FRESH))
        hides_history(ctx, int(FRESH), exception=ActionFailed(retcode=1404))
        says(ctx, DIRECTOR, f"群 {FRESH} 已加入群池。\n注意：群 {FRESH} 的{SHOWN}")
    assert [(g.group_id, g.history_shown) for g in await PoolGroupRow.all().order_by("group_id")] == [(USED, False), (FRESH, True)]


async def empty(group_id: str) -> tuple[str, dict[str, str]]:
    return "owner", {}


async def friends() -> set[str]:
    return {str(qq) for _, qq, _ in PLAYERS}


async def start(service, ask: groups.Ask) -> list[tuple[str, dict]]:
    t = await dealt_game(service)
    await service.queue(("private", str(DIRECTOR)), await directing.handle(service, str(DIRECTOR), "开始", friends, empty, ask))
    return await drain()


async def test_where_history_stays_readable_a_group_no_team_had_is_lent_first(banshabot):
    service = banshabot.service
    for group in (USED, FRESH):
        await groups.add_to_pool(group, "")
    await PoolGroupRow.filter(group_id=USED).update(lent_before=True)  # an earlier game's pack talked there
    asked = []

    async def lacking(action: str, params: dict):
        asked.append((action, params))
        raise groups.Refused("unknown action")

    sent = await start(service, lacking)
    assert asked == [("set_group_new_member_history_visibility", {"group_id": int(g), "visible": False}) for g in (USED, FRESH)]
    assert f"注意：群 {USED} 借出过，{SHOWN}" in texts_to(sent, DIRECTOR)
    assert (await TeamRow.get(team="狼群")).group_id == FRESH  # the pack reads nobody's old chat


async def test_where_onebot_hides_history_it_is_hidden_again_at_every_start(banshabot):
    service = banshabot.service
    for group in (USED, FRESH):
        await groups.add_to_pool(group, "")
    await PoolGroupRow.filter(group_id=USED).update(lent_before=True, history_shown=True)  # before NapCat was there
    asked = []

    async def napcat(action: str, params: dict):
        asked.append((action, params))

    sent = await start(service, napcat)
    assert asked == [("set_group_new_member_history_visibility", {"group_id": int(g), "visible": False}) for g in (USED, FRESH)]
    assert not any("聊天记录" in text for text in texts_to(sent, DIRECTOR))
    assert (await TeamRow.get(team="狼群")).group_id == USED  # hidden now: the pool's order again
    assert not (await PoolGroupRow.get(group_id=USED)).history_shown
