"""Messages: private chat (directors' commands first, then everyone else's) and team groups.

One matcher for both kinds: NoneBot checks every matcher's rule for every message, and the kind is
told apart here at no cost.
"""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, MessageEvent, PrivateMessageEvent

from service import director as directing
from service import player as playing
from service.handling import message_key

from .groups import in_group, members_of, plain
from .guard import guarded
from .runtime import VERSION, answer_failure, service

messages = on_message(priority=10, block=True)


@messages.handle()
@guarded
async def _(bot: Bot, event: MessageEvent) -> None:
    if isinstance(event, PrivateMessageEvent):
        await private(bot, event)
    elif isinstance(event, GroupMessageEvent):
        await in_group(bot, event)


async def private(bot: Bot, event: PrivateMessageEvent) -> None:
    qq, text = event.get_user_id(), plain(event)
    key = message_key(bot.self_id, "private", qq, event.message_id, event.raw_message)
    async with answer_failure(bot, ("private", qq)):
        if not await service.handling(key, origin=("private", qq)):
            return  # OneBot delivered the same message again (or is delivering it right now)
        if await directing.is_director(service, qq):
            if text.strip() == "版本":
                reply = f"banshabot {VERSION}"
            else:
                async def friends() -> set[str]:
                    return {str(f["user_id"]) for f in await bot.get_friend_list()}

                reply = await directing.handle(service, qq, text, friends, members_of(bot))
            if reply is not None:
                if not isinstance(reply, directing.Stored):
                    await service.queue(("private", qq), reply)
                await service.delivered()
                return
        await playing.private(service, qq, text, key)
