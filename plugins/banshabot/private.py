"""Messages: private chat (directors' commands first, then everyone else's) and team groups.

One matcher for both kinds: NoneBot checks every matcher's rule for every message, and the kind is
told apart here at no cost. It takes only the messages the bot has to do with: its directors', the
players' of running games, strangers' (who are not the bot's friends: nobody else would answer them)
and every message in a pool group. Everything else passes on to the other plugins.
"""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, Event, GroupMessageEvent, MessageEvent, PrivateMessageEvent

from service import director as directing
from service import groups
from service import player as playing
from service.handling import message_key

from .groups import ask_of, in_group, members_of, plain
from .guard import guarded, taking_on_failure
from .runtime import VERSION, answer_failure, onebot, service


async def ours(event: Event) -> bool:
    if isinstance(event, GroupMessageEvent):
        return await groups.pooled(str(event.group_id), str(event.self_id))
    if isinstance(event, PrivateMessageEvent):
        qq = event.get_user_id()
        return (event.sub_type != "friend" or await directing.is_director(service, qq)
                or bool(await service.playing(qq)) or await playing.known(service, qq))
    return False


messages = on_message(rule=taking_on_failure(ours), priority=10, block=True)


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
        if not await service.handling(key, origin=("private", qq), account=bot.self_id):
            return  # OneBot delivered the same message again (or is delivering it right now)
        if await directing.is_director(service, qq):
            if text.strip() == "版本":
                reply = f"banshabot {VERSION}"
                await service.queue(("private", qq), reply)
                await service.delivered()
                return
            if await direct(bot, qq, text) is not None:
                return
        await playing.private(service, qq, text, key)


def friends_of(bot: Bot | None) -> directing.Friends:
    """The friends of `bot`'s account, read from OneBot."""
    async def friends() -> set[str]:
        if bot is None:
            raise groups.Unreachable("no OneBot connection")
        return {str(f["user_id"]) for f in await bot.get_friend_list()}

    return friends


def side_of(account: str) -> directing.QQSide:
    """What a director's command asks OneBot about a game, through the game's own account."""
    bot = onebot(account)
    return directing.QQSide(friends_of(bot), members_of(bot), ask_of(bot))


async def direct(bot: Bot | None, qq: str, text: str) -> str | None:
    """A director's command, from his private chat or his desk (plugins/banshabot/desk.py): run,
    answered in his private chat, and returned (None: not a director command)."""
    reply = await directing.handle(service, qq, text, friends_of(bot), members_of(bot), ask_of(bot), through=side_of)
    if reply is not None:
        if not isinstance(reply, directing.Stored):
            await service.queue(("private", qq), reply)
        await service.delivered()
    return reply
