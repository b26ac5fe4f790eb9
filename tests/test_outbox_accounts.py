"""Several QQ accounts on one outbox: each action goes through its own account and no other, each
account keeps its own pace and its own order per chat, and an account that is away holds its own
actions while the others go on (service/outbox.py)."""
from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone

import pytest

from service.models import OutboxRow
from service.outbox import Outbox
from service.writer import Writer

RATE = 4


def row(n: int, to: int, account: str | None) -> OutboxRow:
    return OutboxRow.construct(_saved_in_db=True, id=n, action="send_private_msg", params={"user_id": to, "text": f"第{n}条"},
                               created_at=datetime.now(timezone.utc), attempts=0, last_error="", account=account)


def recorder(sent: list, account: str):
    async def call(action: str, params: dict) -> dict:
        sent.append((account, params["user_id"], params["text"], time.monotonic()))
        return {"message_id": len(sent)}

    return call


@pytest.mark.usefixtures("banshabot")  # the database the delivery marks go to
async def test_each_account_sends_its_own_at_its_own_pace():
    sent: list = []
    outbox = Outbox(lambda: datetime.now(timezone.utc), Writer(), rate=RATE)
    outbox.connect(recorder(sent, "A"), "A")
    outbox.connect(recorder(sent, "B"), "B")
    # the same player hears from both accounts: two lanes, each in its own order
    rows = [row(n, 700000 + n % 3, "A" if n % 2 else "B") for n in range(1, 17)]
    start = time.monotonic()
    await outbox.send(rows)
    assert sorted((a, to, text) for a, to, text, _ in sent) == sorted(
        (r.account, r.params["user_id"], r.params["text"]) for r in rows)
    for account in "AB":
        for to in {r.params["user_id"] for r in rows}:  # each chat of each account in its order
            mine = [text for a, whom, text, _ in sent if (a, whom) == (account, to)]
            assert mine == [r.params["text"] for r in rows if (r.account, r.params["user_id"]) == (account, to)]
        times = [at for a, _, _, at in sent if a == account]
        # a second's burst each, then at its own pace: 8 each take (8 - 4) / 4 s, not 16's (16 - 4) / 4
        assert times[-1] - start >= (8 - RATE) / RATE * 0.9
    assert time.monotonic() - start < (16 - RATE) / RATE * 0.8
    first = sorted(at for *_, at in sent)[: 2 * RATE]
    assert first[-1] - start < 0.3  # both accounts' bursts at once
    await outbox.marks.drain()


@pytest.mark.usefixtures("banshabot")
async def test_an_account_away_holds_its_own_and_borrows_no_other():
    sent: list = []
    outbox = Outbox(lambda: datetime.now(timezone.utc), Writer(), rate=0)
    outbox.connect(recorder(sent, "A"), "A")
    away = [row(n, 800001, "B") for n in (1, 3, 5)]
    ours = [row(n, 800001, "A") for n in (2, 4)]
    await asyncio.wait_for(outbox.send([*away, *ours]), 2)  # nobody waits for what B holds
    assert [(a, text) for a, _, text, _ in sent] == [("A", "第2条"), ("A", "第4条")]
    outbox.connect(recorder(sent, "B"), "B")
    await asyncio.wait_for(outbox.flush(), 5)
    assert [(a, text) for a, _, text, _ in sent[2:]] == [("B", "第1条"), ("B", "第3条"), ("B", "第5条")]
    # B goes again: what is queued for it waits; A's next goes at once; none of B's through A
    outbox.disconnect("B")
    later = [row(7, 800002, "B"), row(8, 800002, "A"), row(9, 800003, None)]
    await asyncio.wait_for(outbox.send(later), 2)
    assert [(a, text) for a, _, text, _ in sent[5:]] == [("A", "第8条"), ("A", "第9条")]  # no account: the first connected
    outbox.connect(recorder(sent, "B"), "B")
    await asyncio.wait_for(outbox.flush(), 5)
    assert [(a, text) for a, _, text, _ in sent[7:]] == [("B", "第7条")]
    await outbox.marks.drain()
    outbox.forget()
