"""The OneBot v11 adapter, except that a new connection of the bot's account replaces the old one.

The adapter refuses a reverse WebSocket whose X-Self-ID is connected already ("Duplicate X-Self-ID").
When the network drops without a close frame, the bot still holds the old, half-open connection
while OneBot, which knows it is gone, connects again: refused until the old one times out (some 40
seconds), and every event OneBot sends meanwhile is lost. For OneBot the old connection is over, so
a new one that passes the token check takes its place; the old one is closed and, when its handler
ends, takes nothing of the new one's with it.
"""
from __future__ import annotations

import asyncio
import contextlib
import json

from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter
from nonebot.adapters.onebot.v11 import Bot
from nonebot.adapters.onebot.v11.utils import log
from nonebot.drivers import WebSocket
from nonebot.exception import WebSocketClosed
from nonebot.utils import escape_tag


class Adapter(OneBotV11Adapter):
    _closing: set[asyncio.Task] = set()  # old connections being closed (the loop keeps weak references)

    async def _handle_ws(self, websocket: WebSocket) -> None:
        self_id = websocket.request.headers.get("x-self-id")
        if not self_id:
            log("WARNING", "Missing X-Self-ID Header")
            await websocket.close(1008, "Missing X-Self-ID Header")
            return
        response = self._check_access_token(websocket.request)
        if response is not None:
            await websocket.close(1008, response.content)
            return
        if self_id in self.bots:
            log("WARNING", f"Bot {escape_tag(self_id)} connected again: the new connection replaces the old one")
            self._replace(self_id)

        await websocket.accept()
        bot = Bot(self, self_id)
        self.bot_connect(bot)
        self.connections[self_id] = websocket
        log("INFO", f"<y>Bot {escape_tag(self_id)}</y> connected")
        try:
            while True:
                data = await websocket.receive()
                if event := self.json_to_event(json.loads(data)):
                    task = asyncio.create_task(bot.handle_event(event))
                    task.add_done_callback(self.tasks.discard)
                    self.tasks.add(task)
        except WebSocketClosed:
            log("WARNING", f"WebSocket for Bot {escape_tag(self_id)} closed by peer")
        except Exception as e:
            log("ERROR", f"<r><bg #f8bbd0>Error while process data from websocket for bot {escape_tag(self_id)}.</bg #f8bbd0></r>", e)
        finally:
            with contextlib.suppress(Exception):
                await websocket.close()
            if self.bots.get(self_id) is bot:  # not replaced by a newer connection meanwhile
                self.connections.pop(self_id, None)
                self.bot_disconnect(bot)

    def _replace(self, self_id: str) -> None:
        old = self.connections.pop(self_id, None)
        self.bot_disconnect(self.bots[self_id])
        if old is not None:
            task = asyncio.create_task(self._close(old))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(websocket: WebSocket) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(1000, "replaced by a new connection")
