"""Team groups: a living member's team skill sent in the group is the team's choice."""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent

from service import player as playing

from .runtime import service

group_chat = on_message(rule=lambda event: isinstance(event, GroupMessageEvent), priority=10, block=True)


@group_chat.handle()
async def _(bot: Bot, event: GroupMessageEvent) -> None:
    key = f"{bot.self_id}:{event.message_id}"
    await playing.in_group(service, str(event.group_id), event.get_user_id(), event.get_plaintext(), key)
