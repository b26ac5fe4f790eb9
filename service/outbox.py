"""Delivery: queued OneBot actions are performed in order and marked done once OneBot accepts them.

A failed action stays queued and is tried again; later actions for the same target wait behind it,
so a player never reads two messages in the wrong order.
"""
from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Awaitable, Callable

from .models import OutboxRow

Call = Callable[[str, dict], Awaitable[object]]
Sent = Callable[[OutboxRow], Awaitable[None]]


def target_of(row: OutboxRow) -> str:
    return str(row.params.get("user_id") or row.params.get("group_id") or row.action)


class Outbox:
    def __init__(self, now: Callable[[], datetime], sent: Sent | None = None):
        self.now = now
        self.sent = sent  # told of each action once OneBot accepted it (a time limit may start then)
        self.lock = asyncio.Lock()

    async def flush(self, call: Call) -> None:
        async with self.lock:
            blocked: set[str] = set()
            last = 0
            # what is queued meanwhile (by `sent`: the director's 时限开始) goes out in the same flush
            while rows := await OutboxRow.filter(sent_at=None, id__gt=last).order_by("id"):
                for row in rows:
                    last = row.id
                    target = target_of(row)
                    if target in blocked:
                        continue
                    try:
                        await call(row.action, dict(row.params))
                    except Exception as exc:  # OneBot refused or the connection dropped: keep it for the retry
                        row.attempts += 1
                        row.last_error = f"{type(exc).__name__}: {exc}"[:500]
                        await row.save()
                        blocked.add(target)
                        continue
                    row.sent_at = self.now()
                    await row.save()
                    if self.sent:
                        await self.sent(row)

    async def waiting(self) -> int:
        return await OutboxRow.filter(sent_at=None).count()
