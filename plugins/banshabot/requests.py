"""Friend requests, join requests for pool groups, and strangers who got into one."""
from __future__ import annotations

from nonebot import on_notice, on_request
from nonebot.adapters.onebot.v11 import Bot, FriendRequestEvent, GroupIncreaseNoticeEvent, GroupRequestEvent

from service import groups
from service.handling import event_key

from .groups import members_of
from .guard import guarded
from .runtime import service

# after the messages' matcher (which stops there): a message costs NoneBot no look at these
requests = on_request(priority=20, block=True)
joins = on_notice(rule=lambda event: isinstance(event, GroupIncreaseNoticeEvent), priority=20, block=True)


@requests.handle()
@guarded
async def _(bot: Bot, event: FriendRequestEvent | GroupRequestEvent) -> None:
    if not await service.handling(event_key(bot.self_id, "request", event.request_type, event.flag)):
        return
    if isinstance(event, FriendRequestEvent):
        # players must be the bot's friends to be reached privately
        await service.act("set_friend_add_request", {"flag": event.flag, "approve": True})
    elif event.sub_type == "add" and await groups.pooled(str(event.group_id)):
        approve = await groups.may_join(str(event.group_id), event.get_user_id())
        params = {"flag": event.flag, "sub_type": "add", "approve": approve}
        if not approve:
            params["reason"] = "此群仅限本局队伍成员加入"
        await service.act("set_group_add_request", params)
    else:
        return
    await service.delivered()


@joins.handle()
@guarded
async def _(bot: Bot, event: GroupIncreaseNoticeEvent) -> None:
    group, qq = str(event.group_id), event.get_user_id()
    key = event_key(bot.self_id, "joined", group, f"{qq}:{event.time}")
    fresh = await service.handling(key)
    if qq == bot.self_id or not await groups.pooled(group) or await groups.may_join(group, qq):
        return
    # a join notice carries no id: the same notice again and a second join in the same second look
    # alike. Asked again, the member list tells them apart (unread, he is removed anyway)
    if not fresh and not await _still_in(bot, group, qq):
        return
    await service.act("set_group_kick", {"group_id": event.group_id, "user_id": event.user_id, "reject_add_request": False})
    await service.delivered()


async def _still_in(bot: Bot, group: str, qq: str) -> bool:
    try:
        _, others = await members_of(bot)(group)
    except Exception:
        return True
    return qq in others
