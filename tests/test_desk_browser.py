"""The desk in a real browser: bot.py as a real process with the simulated OneBot (as in
tests/test_e2e.py), its desk opened in headless Chromium at a phone's width. The seat table and the
night after the first actions, a player's action showing up without a reload, the command box, and a
link that opens nothing; then the game's public 揭秘 page. Screenshots are left beside the test's
files (desk.png, reveal.png)."""
from __future__ import annotations

import asyncio
import re

import pytest

from cdp import Chromium, require_browser
from onebot_sim import Group, OneBotSim
from test_e2e import DIRECTOR, QQ, ROSTER, SELF_ID, TOKEN, Table, bots, clean, connect, pm  # noqa: F401  fixtures

pytestmark = [pytest.mark.slow, pytest.mark.browser]
LIVE = 10.0  # the page asks every 2.5 s: a change shows within this, on a loaded machine too


@pytest.fixture
async def chromium(tmp_path):
    require_browser()
    browser = Chromium(tmp_path / "profile")
    await browser.start()
    yield browser
    await browser.close()


def row_of(name: str) -> str:
    """The text of `name`'s row in the seat table."""
    return f"[...document.querySelectorAll('#seats tr')].map(r => r.innerText).find(t => t.includes('\\t{name}\\t')) || ''"


async def test_the_desk_in_chromium(bots, chromium, tmp_path):
    gid = 820000001
    bot = bots(minute_seconds=60)  # real minutes: nothing lapses during the test
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={gid: Group("网页测试群")})
    t = Table(sim, gid)
    bot.start()
    async with asyncio.timeout(150):
        await connect(sim, bot)
        await t.to_night_one("网页测试", "网页测试群")
        await t.say("丙", "预言 1", "预言")
        link = await t.director("网页", "本局导演网页")
        url = re.search(r"http://\S+/desk#\S+", link)[0]
        assert url.startswith(f"http://127.0.0.1:{bot.port}/desk#")

        # the seat table after the night's first action: every seat, identity, QQ; tonight's progress
        await chromium.open(url)
        await chromium.until("document.querySelectorAll('#seats tr').length === 14", 15, "the seat table")
        assert await chromium.js(row_of("丙")) == f"3\t丙\t{QQ['丙']}\t预言家，村民阵营\t存活\t\t"
        assert "狼群" in await chromium.js(row_of("甲"))
        night = await chromium.js("document.getElementById('night').innerText")
        assert "丙<预言>：已行动 1" in night and "戊<通灵>：等待中" not in night
        assert re.search(r"庚<诽谤>：等待中，截止 \d\d-\d\d \d\d:\d\d 还剩 (\d+小时\d+分|\d+分\d+秒)", night), night
        await chromium.screenshot(tmp_path / "desk.png")
        print(f"screenshot: {tmp_path / 'desk.png'}")

        # a player acts in QQ: the page shows it by itself, without a reload
        await chromium.js("window.notReloaded = true")
        await t.say("庚", "放弃", lambda s: True)
        await chromium.until("document.getElementById('night').innerText.includes('庚<放弃>：放弃')", LIVE, "庚's 放弃")
        assert await chromium.js("window.notReloaded === true")

        # the command box: a director command, answered on the page and in his QQ, seen in the table
        mark = sim.mark()
        await chromium.js("document.getElementById('cmd').value = '发牌 蓝牌 乙'; document.getElementById('send').click()")
        await chromium.until("document.getElementById('reply').innerText === '已执行。'", 15, "the command's answer")
        await sim.wait_for(pm(DIRECTOR), "已执行。", 15, since=mark)
        await chromium.until(f"({row_of('乙')}).includes('蓝牌1')", LIVE, "乙's blue card in the table")
        entries = await chromium.js("document.getElementById('log').innerText")
        assert f"导演 {DIRECTOR}：发牌 蓝牌 乙" in entries

        # the log's filter: the entries naming one character
        await chromium.js("const f = document.getElementById('f-player'); f.value = '丙'; f.dispatchEvent(new Event('change'))")
        entries = (await chromium.js("document.getElementById('log').innerText")).splitlines()
        assert len(entries) == 1 and re.fullmatch(r"\[第1夜\] \[第\d+条\] \d\d-\d\d \d\d:\d\d 3号 丙：预言 1", entries[0]), entries

        # the link outlives a restart of the bot (only the port of this test's bot changes)
        bot.stop()
        await sim.wait_until(lambda: not sim.connected, 15, "the connection to drop")
        bot.start()
        await connect(sim, bot)
        url = url.replace(re.search(r":\d+/", url)[0], f":{bot.port}/")
        await chromium.open(url)
        await chromium.until(f"({row_of('乙')}).includes('蓝牌1')", 15, "the seat table after the restart")

        # a link that is no longer (or never was) valid opens nothing of the game
        await t.director("网页 重置", "已重置")
        await chromium.open(url)
        await chromium.until("document.getElementById('refused').innerText.includes('链接无效或已重置')", 15, "the refusal")
        shown = await chromium.js("document.body.innerText")
        assert not any(role in shown for _, role in ROSTER) and "乙" not in shown

        # the game over, its 揭秘 page made public: every identity, the night's actions, the seed
        await t.director("判负 狼人阵营", lambda s: s.startswith("已执行"))
        public = await t.director("揭秘 公开", "本局揭秘页已公开")
        await chromium.open(re.search(r"http://\S+/reveal/\d+", public)[0])
        await chromium.until("document.querySelector('h1') && document.querySelector('h1').innerText.includes('揭秘')", 15, "the 揭秘 page")
        page = await chromium.js("document.body.innerText")
        assert "结果：村民阵营获胜" in page and "种子：" in page and "3号 丙：预言 1" in page
        assert all(f"\t{name}\t{role}" in page for name, role in ROSTER if role == "村民") and str(QQ["乙"]) not in page
        assert "\t丑\t混血儿，村民阵营（后为狼人阵营）" in page  # he recognised 甲
        await chromium.screenshot(tmp_path / "reveal.png")
