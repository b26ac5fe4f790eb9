"""Whether a message whose sending is in doubt reached its chat, from the chat's history.

A send whose answer was lost (a timeout, a dropped connection, a crash) may or may not have gone
out. NapCat and Lagrange.OneBot offer `get_friend_msg_history` / `get_group_msg_history`, extensions
of OneBot 11: where they answer, the bot's own recent messages in that chat are looked through before
it is sent again. Where they do not, the answer is "unknown" and it is sent again.

A message is found by its place in the chat, never by its text (the same text may well be sent twice
in a row): a chat's messages go out one at a time, in order, so the message in doubt, if it arrived,
is the bot's first message after the one delivered before it in that chat (the `anchor`: the id
OneBot returned for that one). Where no such id is known, or the history no longer reaches it, it is
the bot's first message since the row was stored, on OneBot's clock: the bot's clock may differ from
OneBot's, and the difference is read from the times OneBot gives its events.
"""
from __future__ import annotations

import time
from typing import Any, Awaitable, Callable

from .models import OutboxRow

Call = Callable[[str, dict], Awaitable[Any]]
LOOK_BACK = 30  # messages of the chat's history looked through
SLACK = 5.0  # seconds: OneBot's times are whole seconds, and an event reaches the bot a little later


class History:
    def __init__(self, call: Call, self_id: Callable[[], str | None]):
        self.call = call
        self.self_id = self_id
        self.matched: set[str] = set()  # history messages already taken for a row
        self.missing = False  # the implementation has no history: stop asking
        self.ahead = 0.0  # seconds the bot's clock is ahead of OneBot's (from the events' times)

    def onebot_time(self, at: float) -> None:
        """OneBot stamped an event `at` (its clock, seconds since the epoch) that reached the bot now."""
        self.ahead = time.time() - at

    async def delivered(self, row: OutboxRow, anchor: str | None = None) -> bool | None:
        """Whether `row` arrived; `anchor`: the id of the message delivered before it in its chat.
        When it did, `row.message_id` is set to the id found."""
        if self.missing or row.action not in ("send_private_msg", "send_group_msg") or "text" not in row.params:
            return None
        private = row.action == "send_private_msg"
        action = "get_friend_msg_history" if private else "get_group_msg_history"
        target = {"user_id": row.params["user_id"]} if private else {"group_id": row.params["group_id"]}
        try:
            data = await self.call(action, {**target, "count": LOOK_BACK})
        except Exception:
            self.missing = True
            return None
        messages = data.get("messages", []) if isinstance(data, dict) else data or []
        messages = [m for m in messages if isinstance(m, dict)]
        if len(messages) > 1 and messages[0].get("time", 0) > messages[-1].get("time", 0):
            messages.reverse()  # oldest first
        ids = [str(m.get("message_id")) for m in messages]
        if anchor is not None and str(anchor) in ids:
            after = messages[ids.index(str(anchor)) + 1:]
        else:
            since = row.created_at.timestamp() - self.ahead - SLACK if row.created_at else 0
            after = [m for m in messages if m.get("time", 0) >= since]
        me = str(self.self_id())
        for message in after:
            ident = str(message.get("message_id"))
            sender = message.get("sender") or {}
            if str(sender.get("user_id", message.get("user_id"))) == me and ident not in self.matched:
                self.matched.add(ident)
                row.message_id = ident
                return True
        return False
