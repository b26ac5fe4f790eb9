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


def target_of(row: OutboxRow) -> str:
    return str(row.params.get("user_id") or row.params.get("group_id") or row.action)


class Outbox:
    def __init__(self, now: Callable[[], datetime]):
        self.now = now
        self.lock = asyncio.Lock()

    async def flush(self, call: Call) -> None:
        async with self.lock:
            blocked: set[str] = set()
            for row in await OutboxRow.filter(sent_at=None).order_by("id"):
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

    async def waiting(self) -> int:
        return await OutboxRow.filter(sent_at=None).count()
