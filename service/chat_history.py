"""Whether a message whose sending is in doubt reached its chat, from the chat's history.

A send whose answer was lost (a timeout, a dropped connection, a crash) may or may not have gone
out. NapCat and Lagrange.OneBot offer `get_friend_msg_history` / `get_group_msg_history`, extensions
of OneBot 11: where they answer, the bot's own recent messages in that chat are looked through for
the text before it is sent again. Where they do not, the answer is "unknown" and it is sent again.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any, Awaitable, Callable

from .models import OutboxRow

Call = Callable[[str, dict], Awaitable[Any]]
LOOK_BACK = 30  # messages of the chat's history looked through


def _text(message: dict) -> str:
    segments = message.get("message")
    if isinstance(segments, list):
        return "".join(s.get("data", {}).get("text", "") for s in segments if isinstance(s, dict) and s.get("type") == "text")
    raw = message.get("raw_message") or (segments if isinstance(segments, str) else "")
    return raw.replace("&#91;", "[").replace("&#93;", "]").replace("&amp;", "&")


class History:
    def __init__(self, call: Call, self_id: Callable[[], str | None]):
        self.call = call
        self.self_id = self_id
        self.matched: set[object] = set()  # history messages already taken for a row (two alike)
        self.missing = False  # the implementation has no history: stop asking

    async def delivered(self, row: OutboxRow) -> bool | None:
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
        me = self.self_id()
        since = (row.created_at - timedelta(seconds=5)).timestamp() if row.created_at else 0
        for message in messages:
            if not isinstance(message, dict):
                continue
            sender = message.get("sender") or {}
            ident = message.get("message_id")
            mine = str(sender.get("user_id", message.get("user_id"))) == str(me)
            if mine and ident not in self.matched and message.get("time", 0) >= since and _text(message) == row.params["text"]:
                self.matched.add(ident)
                return True
        return False
