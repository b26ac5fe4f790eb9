"""The director's 模拟 through QQ: answered at once, then the table as text and the chart as one image
segment, sent through the outbox like every other message."""
from __future__ import annotations

import asyncio
import base64

import pytest
from nonebot.adapters.onebot.v11 import Message, MessageSegment
from nonebug import App

from bot_helpers import DIRECTOR, OK, chat, connect, private, says
from engine import balance
from rulesets import get

pytestmark = pytest.mark.usefixtures("clean")


async def test_the_director_gets_the_table_and_the_chart(app: App):
    from service import simulate

    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "模拟 M131 2 7"))
        says(ctx, DIRECTOR, "模拟已开始：M131 2 局（种子 7）。完成后把胜率表和图发给你，不影响进行中的游戏。")
    sent: list = []
    async with app.test_api() as ctx:
        # the run ends with no OneBot connected: what it queued goes out when one connects
        await asyncio.wait_for(simulate.running[str(DIRECTOR)], 60)
        kinds = {"*": "human"}
        table = balance.table(get("M131"), balance.run("M131", 2, 7, kinds, {}, jobs=1), kinds, 7, {})
        says(ctx, DIRECTOR, table)
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": Message(MessageSegment.image(_png(sent)))}, result=OK)
        await connect(ctx)
    assert len(set(sent)) == 1 and str(DIRECTOR) not in simulate.running


class _png(str):
    """Any PNG sent as base64://, kept for a look (the chart's pixels are matplotlib's business)."""

    def __new__(cls, sent: list):
        self = super().__new__(cls, "base64://")
        self.sent = sent
        return self

    def __eq__(self, other) -> bool:
        ok = isinstance(other, str) and other.startswith("base64://") and base64.b64decode(other[9:])[:8] == b"\x89PNG\r\n\x1a\n"
        if ok:
            self.sent.append(other)
        return ok

    __hash__ = str.__hash__
