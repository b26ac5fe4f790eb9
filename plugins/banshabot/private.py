"""Messages: private chat (directors' commands first, then everyone else's) and team groups.

One matcher for both kinds, and no rule: NoneBot runs a rule in a task group of its own with its
parameters solved, which costs a message more than the rest of the matching. The handler tells the
kind apart and takes only the messages the bot has to do with: its directors', the players' of
running games, strangers' (who are not the bot's friends: nobody else would answer them) and every
message in a pool group. Everything else passes on to the other plugins (the matcher stops blocking
for it).
"""
from __future__ import annotations

from nonebot import on_message
from nonebot.adapters.onebot.v11 import Bot, GroupMessageEvent, MessageEvent, PrivateMessageEvent
from nonebot.matcher import current_matcher

from service import director as directing
from service import groups
from service import player as playing
from service.errors import ServedElsewhere
from service.handling import message_key

from . import rule_posts
from .groups import ask_of, in_group, members_of, plain
from .guard import guarded
from .runtime import VERSION, answer_failure, history_of, onebot, service


async def ours(event: PrivateMessageEvent | GroupMessageEvent, director: bool) -> bool:
    if isinstance(event, GroupMessageEvent):
        return await groups.pooled(service, str(event.group_id), str(event.self_id))
    qq = event.get_user_id()
    return event.sub_type != "friend" or director or bool(await service.playing(qq)) or await playing.known(service, qq)


# blocks what it takes; a message it cannot tell about is taken, and the handler answers what broke
messages = on_message(priority=10, block=True)


@messages.handle()
@guarded
async def _(bot: Bot, event: MessageEvent) -> None:
    # every message carries OneBot's time: its account's chat history is searched on OneBot's clock
    history_of(bot.self_id).onebot_time(event.time)
    if isinstance(event, PrivateMessageEvent):
        origin = ("private", event.get_user_id())
    elif isinstance(event, GroupMessageEvent):
        origin = ("group", str(event.group_id))
    else:
        current_matcher.get().block = False
        return
    taken = director = None
    async with answer_failure(bot, origin):  # a game found broken on the way: the sender is told why
        director = isinstance(event, PrivateMessageEvent) and await directing.is_director(service, origin[1])
        try:
            taken = await ours(event, director)
        except ServedElsewhere:  # a game another process drives: handled there, or answered with where to write
            taken = True
    if taken is None:
        return
    if not taken:
        current_matcher.get().block = False
    elif isinstance(event, PrivateMessageEvent):
        await private(bot, event, director)
    else:
        await in_group(bot, event)


async def private(bot: Bot, event: PrivateMessageEvent, director: bool) -> None:
    qq, text = event.get_user_id(), plain(event)
    key = message_key(bot.self_id, "private", qq, event.message_id, event.raw_message)
    async with answer_failure(bot, ("private", qq)):
        if not await service.handling(key, time=event.time, origin=("private", qq), account=bot.self_id):
            return  # OneBot delivered the same message again (or is delivering it right now)
        if director:
            if text.strip() == "版本":
                reply = f"banshabot {VERSION}"
                await service.queue(("private", qq), reply)
                await service.delivered()
                return
            if await rule_posts.file_in(bot, event):  # a rule-post file he sent (NapCat, LLBot)
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
