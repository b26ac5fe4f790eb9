"""Messages longer than QQ takes go out in numbered parts, each at most BANSHABOT_MESSAGE_LIMIT
characters, cut at line ends, in order; past BANSHABOT_MESSAGE_PARTS parts the rest is cut off with
a note saying how much."""
from __future__ import annotations

import pytest
from nonebot.adapters.onebot.v11 import Message
from nonebug import App

from bot_helpers import DIRECTOR, connect
from service.outbox import split_text

pytestmark = pytest.mark.usefixtures("clean")


class Part:
    """A one-text-segment message: part `n` of `of`, at most `limit` characters, whose text is kept."""

    def __init__(self, n: int, of: int, limit: int, into: dict[int, str]):
        self.n, self.of, self.limit, self.into = n, of, limit, into

    def __eq__(self, other) -> bool:
        if not isinstance(other, Message) or len(other) != 1 or other[0].type != "text":
            return False
        text = other[0].data["text"]
        head = f"（{self.n}/{self.of}）\n"
        if len(text) > self.limit or not text.startswith(head):
            return False
        self.into[self.n] = text.removeprefix(head)
        return True

    def __repr__(self) -> str:
        return f"part {self.n}/{self.of} of at most {self.limit} characters"


async def test_a_long_message_goes_out_in_parts_in_order(app: App, banshabot, monkeypatch):
    service = banshabot.service
    monkeypatch.setattr(service.config, "banshabot_message_limit", 200)
    lines = [f"{i}楼 这是日志的第{i}行，记录一条指令。" for i in range(1, 41)]
    text = "\n".join(lines)
    got: dict[int, str] = {}
    parts = len(split_text(text, 200, 20))
    assert parts > 3
    async with app.test_api() as ctx:
        await connect(ctx)
        for n in range(1, parts + 1):
            ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": Part(n, parts, 200, got)}, result={"message_id": n})
        await service.queue(("private", str(DIRECTOR)), text)
        await service.delivered()
    assert "".join(got[n] for n in range(1, parts + 1)) == text  # nothing lost, nothing reordered
    assert all(got[n].endswith("\n") for n in range(1, parts))  # cut at line ends


async def test_past_the_most_parts_the_rest_is_cut_off_and_said_so(app: App, banshabot, monkeypatch):
    service = banshabot.service
    monkeypatch.setattr(service.config, "banshabot_message_limit", 1000)
    monkeypatch.setattr(service.config, "banshabot_message_parts", 3)
    text = "言" * 100_000
    got: dict[int, str] = {}
    async with app.test_api() as ctx:
        await connect(ctx)
        for n in range(1, 4):
            ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": Part(n, 3, 1000, got)}, result={"message_id": n})
        await service.queue(("private", str(DIRECTOR)), text)
        await service.delivered()
    assert got[1] + got[2] == text[:len(got[1]) + len(got[2])]
    assert "未发送" in got[3] and str(100_000 - len(got[1]) - len(got[2])) in got[3]


def test_a_message_within_the_limit_is_left_as_it_is():
    assert split_text("短消息\n第二行", 3000, 20) == ["短消息\n第二行"]
