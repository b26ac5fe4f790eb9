"""Private chat: directors' commands first, then everyone else's (players and strangers)."""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, PrivateMessageEvent

from service import director as directing
from service import player as playing

from .groups import members_of
from .guard import guarded
from .runtime import VERSION, service

private_chat = on_message(rule=lambda event: isinstance(event, PrivateMessageEvent), priority=10, block=True)


@private_chat.handle()
@guarded
async def _(bot: Bot, event: PrivateMessageEvent) -> None:
    qq, text = event.get_user_id(), event.get_plaintext()
    key = f"{bot.self_id}:{event.message_id}"
    if await service.already_seen(key):  # OneBot delivered the same message again
        return
    if await directing.is_director(service, qq):
        if text.strip() == "版本":
            reply = f"banshabot {VERSION}"
        else:
            async def friends() -> set[str]:
                return {str(f["user_id"]) for f in await bot.get_friend_list()}

            reply = await directing.handle(service, qq, text, friends, members_of(bot))
        if reply is not None:
            if not await service.seen_before(key):
                await service.queue(("private", qq), reply)
                await service.delivered()
            return
    await playing.private(service, qq, text, key)
