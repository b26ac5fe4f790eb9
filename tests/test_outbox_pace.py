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


# --- at the shipped pace, right after a 22-player 开始 ------------------------------------------------------
def _handled(origin: tuple[str, str], work) -> asyncio.Task:
    """`work` run as NoneBot runs a handler: a task of its own, handling an event from `origin`."""
    from service import handling

    async def run() -> None:
        handling.begin(f"test:{origin[1]}:{time.monotonic()}", origin)
        await work()

    return asyncio.create_task(run())


@pytest.fixture
async def shipped_pace(banshabot, monkeypatch):
    """The bot's outbox at `BANSHABOT_SEND_RATE=2`, connected to a OneBot that records each send; what
    is left unsent when the test ends is dropped from memory."""
    from service.outbox import RateLimit

    outbox = banshabot.service.outbox
    monkeypatch.setattr(outbox, "limit", RateLimit(2))
    sent: list[tuple[int, str]] = []

    async def call(action: str, params: dict) -> dict:
        sent.append((params["user_id"], params["text"]))
        return {"message_id": len(sent)}

    outbox.connect(call)
    yield sent
    outbox.disconnect()
    outbox.forget()


async def _answered(sent: list, outbox, to: int, count: int, ask) -> list[tuple[int, str]]:
    """Run the handling `ask`; the sends handed to OneBot from the moment its answers to `to` reached the
    outbox until the `count`-th of them (waiting for them at the pace)."""
    handed = outbox.send
    at: list[int] = []

    def watched(rows, *args, **kwargs):
        rows = list(rows)
        if not at and any(row.params.get("user_id") == to for row in rows):
            at.append(len(sent))
        return handed(rows, *args, **kwargs)

    outbox.send = watched
    try:
        asked = ask()
        for _ in range(400):
            if at and [who for who, _ in sent[at[0]:]].count(to) >= count:
                break
            await asyncio.sleep(0.01)
        await asyncio.wait_for(asked, 1)
    finally:
        del outbox.send
    return sent[at[0]:]


@pytest.mark.usefixtures("clean")
async def test_after_a_22_player_start_whoever_writes_is_answered_next_his_own_brief_first(banshabot, shipped_pace):
    """"An answer to someone who just wrote goes before broadcasts": the 开始's own answer goes out next,
    not after the twenty-two briefs; a player with his brief still waiting gets it and then his 帮助, before
    the briefs queued ahead of his; the director's 状态 goes next too; the rest of the briefs keep their
    order and the pace."""
    from service import director as directing
    from service import player as playing
    from test_bot_146 import DIRECTOR, PLAYERS, QQ

    sent = shipped_pace
    service = banshabot.service
    row = await service.create(str(DIRECTOR), "146", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])

    async def command(text: str) -> None:  # as the plugin handles a director's private message
        reply = await directing.handle(service, str(DIRECTOR), text, _no_friends, _no_members, _no_ask)
        if not isinstance(reply, directing.Stored):
            await service.queue(("private", str(DIRECTOR)), reply)
        await service.delivered()

    # the 开始's own answer (the deal's hash to post, then the identity table) goes next, not after the
    # briefs it follows: after at most the sends already on their way
    answered = await _answered(sent, service.outbox, DIRECTOR, 2, lambda: _handled(("private", str(DIRECTOR)),
                                                                                  lambda: command("开始")))
    mine = [text for to, text in answered if to == DIRECTOR]
    assert [to for to, _ in answered].index(DIRECTOR) <= 2 and mine[1].startswith("游戏已开始"), answered
    late = "石头"  # the last seat: his brief is the last queued
    answered = await _answered(sent, service.outbox, QQ[late], 2, lambda: _handled(
        ("private", str(QQ[late])), lambda: playing.private(service, str(QQ[late]), "帮助", "help")))
    # next, after at most a send already on its way: his brief, then the answer
    mine = [i for i, (to, _) in enumerate(answered) if to == QQ[late]]
    assert mine[0] <= 1 and mine[1] == mine[0] + 1, answered
    assert answered[mine[0]][1].startswith("【[146]") and answered[mine[1]][1].startswith(f"你是 22号 {late}"), answered

    answered = await _answered(sent, service.outbox, DIRECTOR, 1, lambda: _handled(("private", str(DIRECTOR)),
                                                                                  lambda: command("状态")))
    assert [to for to, _ in answered].index(DIRECTOR) <= 1, answered
    rest = [to for to, _ in sent if to not in (DIRECTOR, QQ[late])]
    assert rest == sorted(rest) and len(rest) < 15, sent  # the other briefs in their order, at the pace
    await service.outbox.marks.drain()


async def _no_friends() -> set[str]:
    return set()


async def _no_members(group_id: str) -> tuple[str | None, dict[str, str]]:
    raise AssertionError("146 lends no group at 开始")


async def _no_ask(action: str, params: dict):
    raise AssertionError("146 lends no group at 开始")
