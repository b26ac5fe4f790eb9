"""Friend requests, join requests for pool groups, and strangers who got into one."""
from __future__ import annotations

from nonebot import on_notice, on_request
from nonebot.adapters.onebot.v11 import (Bot, Event, FriendRequestEvent, GroupDecreaseNoticeEvent, GroupIncreaseNoticeEvent,
                                         GroupRequestEvent)

from service import groups
from service import player as playing
from service.handling import event_key

from .groups import members_of
from .guard import guarded, taking_on_failure
from .runtime import service


async def ours(event: Event) -> bool:
    """The requests the bot answers: friend requests its setting approves, join requests for its pool
    groups. Every other request passes on to the other plugins (and to the account's owner)."""
    if isinstance(event, FriendRequestEvent):
        return await playing.befriends(service, event.get_user_id())
    if isinstance(event, GroupRequestEvent):
        return event.sub_type == "add" and await groups.pooled(service, str(event.group_id), str(event.self_id))
    return False


async def in_pool_group(event: Event) -> bool:
    """Someone came into or left one of the account's pool groups."""
    return (isinstance(event, (GroupIncreaseNoticeEvent, GroupDecreaseNoticeEvent))
            and await groups.pooled(service, str(event.group_id), str(event.self_id)))


# after the messages' matcher (which stops there): a message costs NoneBot no look at these
requests = on_request(rule=taking_on_failure(ours), priority=20, block=True)
comings = on_notice(rule=taking_on_failure(in_pool_group), priority=20, block=True)


@requests.handle()
@guarded
async def _(bot: Bot, event: FriendRequestEvent | GroupRequestEvent) -> None:
    if not await service.handling(event_key(bot.self_id, "request", event.request_type, event.flag), account=bot.self_id):
        return
    if isinstance(event, FriendRequestEvent):
        # players must be the bot's friends to be reached privately
        await service.act("set_friend_add_request", {"flag": event.flag, "approve": True})
    else:  # a join request for a pool group (the rule lets no other through)
        approve = await groups.may_join(str(event.group_id), event.get_user_id())
        params = {"flag": event.flag, "sub_type": "add", "approve": approve}
        if not approve:
            params["reason"] = "此群仅限本局队伍成员加入"
        await service.act("set_group_add_request", params)
    await service.delivered()


@comings.handle()
@guarded
async def _(bot: Bot, event: GroupIncreaseNoticeEvent | GroupDecreaseNoticeEvent) -> None:
    group, qq = str(event.group_id), event.get_user_id()
    if isinstance(event, GroupDecreaseNoticeEvent):
        # only one who left by himself is asked back: one an admin removed (the director, the bot) stays out
        if event.sub_type == "leave" and await service.handling(
                event_key(bot.self_id, "left", group, f"{qq}:{event.time}"), account=bot.self_id):
            await groups.member_left(service, group, qq)
        return
    key = event_key(bot.self_id, "joined", group, f"{qq}:{event.time}")
    fresh = await service.handling(key, account=bot.self_id)
    if qq == bot.self_id:
        return
    if await groups.may_join(group, qq):
        if fresh:  # the roster is posted once the team is in
            await groups.member_joined(service, group, qq)
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
