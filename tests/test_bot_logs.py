"""What the log keeps of a huge message: what it is, not all of it.

A 10 MB frame added 5 MB to the log per message: NoneBot logs each event with its whole text.
"""
from __future__ import annotations

import pytest
from nonebot import logger
from nonebug import App

from bot_helpers import STRANGER, STRANGER_TEXT, chat, private, says

pytestmark = pytest.mark.usefixtures("clean")


async def test_a_huge_message_adds_little_to_the_log(app: App):
    lines: list[str] = []
    sink = logger.add(lines.append, level=0, format="{message}")
    try:
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(STRANGER, "狼" * 1_000_000, friend=False))
            says(ctx, STRANGER, STRANGER_TEXT)
    finally:
        logger.remove(sink)
    mine = [line for line in lines if str(STRANGER) in line]
    assert mine, lines  # the event is still logged: who sent what kind of message
    assert max(len(line) for line in lines) < 1000
    assert "字，中间的未记入日志）…" in mine[0]
