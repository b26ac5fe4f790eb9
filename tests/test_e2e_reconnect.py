"""End to end: OneBot connects again while the bot still holds its old, half-open connection.

The network dropped without a close frame: OneBot knows its connection is gone and connects again,
the bot does not know yet. The adapter refused the new connection ("Duplicate X-Self-ID") until the
old one timed out, some 40 s, and every event in between was lost. The new connection replaces it.
"""
from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect as ws_connect

from onebot_sim import OneBotSim
from test_e2e import QQ, SELF_ID, TOKEN, Table, bots, connect  # noqa: F401


@pytest.mark.slow
async def test_a_new_connection_of_the_same_account_replaces_a_half_open_one(bots):
    bot = bots(minute_seconds=60)
    bot.start()
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()))
    t = Table(sim, 0)
    async with asyncio.timeout(60):
        await connect(sim, bot)  # waits until the bot listens
        await sim.close()
        headers = {"X-Self-ID": str(SELF_ID), "Authorization": f"Bearer {TOKEN}"}
        url = f"ws://127.0.0.1:{bot.port}/onebot/v11/ws"
        # the old connection: open, and silent from now on (its peer is gone for OneBot)
        half_open = await ws_connect(url, additional_headers=headers, open_timeout=5)
        await asyncio.sleep(0.5)
        await sim.connect(bot.port, timeout=5)  # at once, not 40 s later
        await t.director("游戏", "你还没有游戏", timeout=5)
        # a stranger's token does not push the connection out
        with pytest.raises(Exception):
            intruder = await ws_connect(url, additional_headers={**headers, "Authorization": "Bearer wrong"}, open_timeout=5)
            await intruder.recv()
        await t.director("游戏", "你还没有游戏", timeout=5)
        await half_open.close()
        await sim.close()
