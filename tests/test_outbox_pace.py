"""The bot-wide pace of sending (BANSHABOT_SEND_RATE), and answers before broadcasts under it.

QQ restricts accounts that send in bursts: after a burst of one second's worth, the whole bot sends
at most `rate` messages a second. A broadcast (a game's 开始) queued first does not hold up the
answer to someone who just wrote: it goes out next.
"""
from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone

import pytest

from service.models import OutboxRow
from service.outbox import Outbox
from service.writer import Writer

RATE = 5


def row(n: int, to: int) -> OutboxRow:
    return OutboxRow.construct(_saved_in_db=True, id=n, action="send_private_msg", params={"user_id": to, "text": f"第{n}条"},
                               created_at=datetime.now(timezone.utc), attempts=0, last_error="")


@pytest.mark.usefixtures("banshabot")  # the database the delivery marks go to
async def test_the_bot_keeps_its_pace_and_answers_go_before_broadcasts():
    sent: list[tuple[int, float]] = []

    async def call(action: str, params: dict) -> dict:
        sent.append((params["user_id"], time.monotonic()))
        return {"message_id": len(sent)}

    outbox = Outbox(lambda: datetime.now(timezone.utc), Writer(), rate=RATE)
    outbox.connect(call)
    start = time.monotonic()
    broadcast = outbox.send([row(900000 + n, 800000 + n) for n in range(12)])  # 开始: every player at once
    await asyncio.sleep(0.1)  # the first second's worth is out
    assert len(sent) == RATE
    answer = outbox.send([row(900100, 700000)], urgent=lambda r: True)  # someone just wrote
    await answer
    assert [to for to, _ in sent].index(700000) == RATE  # next, before the seven still waiting
    await broadcast
    took = time.monotonic() - start
    assert len(sent) == 13 and took >= (13 - RATE) / RATE * 0.9, took  # the rest at the pace
    gaps = [b - a for (_, a), (_, b) in zip(sent[RATE:], sent[RATE + 1:])]
    assert min(gaps) >= 1 / RATE * 0.8, gaps
    await outbox.marks.drain()
