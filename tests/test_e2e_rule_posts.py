"""End to end: a director sends the bot a rule-post file in private chat, over a real WebSocket, as NapCat and
go-cqhttp deliver one (tests/onebot_sim.py), its url served by a local HTTP server; the bot fetches it, adds the
post and plays it with 新游戏, and again after a restart (the post is kept in the database)."""
from __future__ import annotations

import asyncio
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from onebot_sim import OneBotSim
from test_e2e import DIRECTOR, SELF_ID, TOKEN, WAIT, Table, bots, connect, pm  # noqa: F401

POST = (Path(__file__).parent / "scenarios" / "posts" / "nightmare-blood-moon.yaml").read_bytes()


@pytest.fixture
def url():
    """The url of the post's file, served here as the QQ file server would."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(POST.replace(b"id: T-", b"id: " + self.path.strip("/").encode() + b"-"))

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield lambda name: f"http://127.0.0.1:{server.server_address[1]}/{name}"
    server.shutdown()
    server.server_close()


@pytest.mark.slow
async def test_a_file_sent_in_private_chat_is_added_and_played_after_a_restart(bots, url):
    bot = bots(minute_seconds=60)
    sim = OneBotSim(SELF_ID, TOKEN, friends={DIRECTOR})
    t = Table(sim, 0)
    bot.start()
    async with asyncio.timeout(120):
        await connect(sim, bot)
        mark = sim.mark()
        await sim.private_file(DIRECTOR, "梦魇.yaml", url("N"), len(POST))  # NapCat, no url: asked for it
        await sim.wait_for(pm(DIRECTOR), lambda s: s.startswith("已添加规则帖“N-梦魇”"), WAIT, since=mark)
        assert [c.params for c in sim.calls_of("get_private_file_url")] == [{"file_id": "file-1"}]
        mark = sim.mark()
        await sim.offline_file(DIRECTOR, "梦魇.yaml", url("G"), len(POST))  # go-cqhttp
        await sim.wait_for(pm(DIRECTOR), lambda s: s.startswith("已添加规则帖“G-梦魇”"), WAIT, since=mark)
        await sim.close()
        bot.stop()
        bot.start()
        await connect(sim, bot)
        await t.director("新游戏 N-梦魇", lambda s: s.startswith("已创建游戏 #1（N-梦魇）"))
        await t.director("新游戏 G-梦魇", lambda s: s.startswith("已创建游戏 #2（G-梦魇）"))
        await sim.close()
    assert not sim.violations, sim.violations
