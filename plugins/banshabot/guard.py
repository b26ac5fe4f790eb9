"""Every handler answers, whatever breaks.

A handler that fails (the database, a OneBot call, a bug) must still not leave its sender without an
answer: the sender is told, straight through OneBot since the outbox may be what failed, and so are
the directors (SUPERUSERS). The games are as stored: the service commits all of a change or none.
While the database fails, the directors are told once, and again when it works.
"""
from __future__ import annotations

import sqlite3
from typing import Awaitable, Callable

from nonebot import logger
from nonebot.matcher import current_bot, current_event
from nonebot.rule import Rule
from nonebot.adapters.onebot.v11 import Bot, Event, GroupMessageEvent, Message, MessageEvent, MessageSegment, PrivateMessageEvent
from tortoise.exceptions import BaseORMException

from engine.typed import quoted
from service.errors import ServedElsewhere
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
        except ServedElsewhere:  # a game another process drives: the handler answers where to write
            return True
        except Exception:
            logger.exception(f"banshabot: could not tell whether {event.get_event_name()} is the bot's")
            return True

    return Rule(rule)


def guarded(handler: Handler) -> Callable[[], Awaitable[None]]:
    """`handler(bot, event)` with every unexpected error answered. NoneBot is asked for no parameters:
    it solves each in a task of its own, and checks each in another, for every event; the bot and the
    event are its current ones. `handler` tells the kinds of event apart itself."""

    async def run() -> None:
        bot, event = current_bot.get(), current_event.get()
        try:
            await handler(bot, event)
        except Exception as exc:
            logger.exception(f"banshabot: {event.get_event_name()} not handled")
            await _tell(bot, event, _database_fault(exc))
            return
        if outage.down:
            await _back(bot)

    run.__name__, run.__doc__ = handler.__name__, handler.__doc__
    return run


class Outage:
    """While the database fails, every event fails with it: the directors are told of the first, and
    once more when an event is handled again, not of each one in between."""

    def __init__(self) -> None:
        self.down = False
        self.missed = 0  # events not handled meanwhile (each sender was told)


outage = Outage()


def _database_fault(exc: BaseException) -> bool:
    """Whether `exc` (or what caused it) is the database failing, not a fault of the handling."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, (BaseORMException, sqlite3.Error)) or type(seen).__module__.startswith("asyncpg"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def _tell(bot: Bot, event: Event, database: bool) -> None:
    sender = event.get_user_id() if isinstance(event, MessageEvent) else None
    what = _what(event)
    note = f"出错了：{what}未能处理，没有生效。请查看日志。"
    if database:
        outage.missed += 1
        if outage.down:
            note = None  # the directors know already
        else:
            outage.down = True
            note = (f"出错了：数据库无法使用，{what}未能处理，没有生效。请查看日志。数据库恢复之前的消息同样无法处理"
                    "（每个发送者都会收到通知），恢复时会再告诉你。")
    try:
        if isinstance(event, PrivateMessageEvent):
            await bot.send_private_msg(user_id=event.user_id, message=_text(TROUBLE))
        for director in sorted(service.superusers - {sender}) if note else ():
            await bot.send_private_msg(user_id=int(director), message=_text(note))
    except Exception:  # OneBot is gone too: the log is all that is left
        logger.exception("banshabot: could not tell anyone that an event was not handled")


async def _back(bot: Bot) -> None:
    """An event was handled again after the database failed."""
    missed, outage.down, outage.missed = outage.missed, False, 0
    logger.info(f"banshabot: the database works again ({missed} events were not handled meanwhile)")
    try:
        for director in sorted(service.superusers):
            await bot.send_private_msg(user_id=int(director), message=_text(
                f"数据库已恢复，消息又能正常处理了。故障期间有 {missed} 条消息未能处理，发送者都已收到通知，需要时请他们重新发送。"))
    except Exception:
        logger.exception("banshabot: could not tell the directors that the database works again")


def _what(event: Event) -> str:
    if isinstance(event, GroupMessageEvent):
        return f"群 {event.group_id} 里 QQ {event.user_id} 的消息（开头：{quoted(event.get_plaintext())}）"
    if isinstance(event, PrivateMessageEvent):
        return f"QQ {event.user_id} 的私聊消息（开头：{quoted(event.get_plaintext())}）"
    return f"QQ 事件 {event.get_event_name()}"


def _text(text: str) -> Message:
    return Message(MessageSegment.text(text))
