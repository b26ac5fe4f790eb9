"""Team groups: a living member's team skill sent in the group is the team's choice."""
from __future__ import annotations

from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent

from service import player as playing
from service.handling import event_key

from .runtime import answer_failure, service


async def in_group(bot: Bot, event: GroupMessageEvent) -> None:
    group = str(event.group_id)
    key = event_key(bot.self_id, "group", group, event.message_id)
    if not await service.handling(key, origin=("group", group), sent=event.time):
        return
    async with answer_failure(bot, ("group", group)):
        await playing.in_group(service, group, event.get_user_id(), event.get_plaintext(), key)
