"""Every handler answers, whatever breaks.

A handler that fails (the database, a OneBot call, a bug) must still not leave its sender without an
answer: the sender is told, straight through OneBot since the outbox may be what failed, and so are
the directors (SUPERUSERS). The games are as stored: the service commits all of a change or none.
"""
from __future__ import annotations

import inspect
from typing import Awaitable, Callable

from nonebot import logger
from nonebot.rule import Rule
from nonebot.adapters.onebot.v11 import Bot, Event, GroupMessageEvent, Message, MessageEvent, MessageSegment, PrivateMessageEvent

from engine.typed import quoted
from service.texts import TROUBLE

from .runtime import service

Handler = Callable[[Bot, Event], Awaitable[None]]
Check = Callable[[Event], Awaitable[bool]]


def taking_on_failure(check: Check) -> Rule:
    """A matcher's rule (which events are the bot's) that takes the event when it cannot tell: the
    handler then answers whatever broke, where a failed rule would leave the sender unanswered."""

    async def rule(event: Event) -> bool:
        try:
            return await check(event)
        except Exception:
            logger.exception(f"banshabot: could not tell whether {event.get_event_name()} is the bot's")
            return True

    return Rule(rule)


def guarded(handler: Handler) -> Handler:
    """`handler` with every unexpected error answered (NoneBot sees the handler's own parameters)."""

    async def run(bot: Bot, event: Event) -> None:
        try:
            await handler(bot=bot, event=event)
        except Exception:
            logger.exception(f"banshabot: {event.get_event_name()} not handled")
            await _tell(bot, event)

    run.__signature__ = inspect.signature(handler, eval_str=True)
    run.__name__, run.__doc__ = handler.__name__, handler.__doc__
    return run


async def _tell(bot: Bot, event: Event) -> None:
    sender = event.get_user_id() if isinstance(event, MessageEvent) else None
    what = _what(event)
    try:
        if isinstance(event, PrivateMessageEvent):
            await bot.send_private_msg(user_id=event.user_id, message=_text(TROUBLE))
        for director in sorted(service.superusers - {sender}):
            await bot.send_private_msg(user_id=int(director), message=_text(f"出错了：{what}未能处理，没有生效。请查看日志。"))
    except Exception:  # OneBot is gone too: the log is all that is left
        logger.exception("banshabot: could not tell anyone that an event was not handled")


def _what(event: Event) -> str:
    if isinstance(event, GroupMessageEvent):
        return f"群 {event.group_id} 里 QQ {event.user_id} 的消息（开头：{quoted(event.get_plaintext())}）"
    if isinstance(event, PrivateMessageEvent):
        return f"QQ {event.user_id} 的私聊消息（开头：{quoted(event.get_plaintext())}）"
    return f"QQ 事件 {event.get_event_name()}"


def _text(text: str) -> Message:
    return Message(MessageSegment.text(text))
