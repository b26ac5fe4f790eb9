"""End to end: a 146 game with its new moons, from the roster to day 4, bot.py as a real process over the
simulated OneBot.

The director sets the events in play (`新月设置`); the sheriff draws day 2's big event and day 4's by
private chat (`决策`), the deputy day 3's small one (`辅策`), the gypsy learns the sheriff's pick at
night (窥月); each morning's 开门 post names the day's event with the post's words. The bot is killed
with SIGKILL after the day-3 draw and started again: the drawn event survives, and day 4 opens with it.
"""
from __future__ import annotations

import asyncio

import pytest

from onebot_sim import Group, OneBotSim
from test_e2e import DIRECTOR, SELF_ID, TOKEN, WAIT, bots, connect, pm  # noqa: F401  (bots: the fixture)

ROSTER = [
    ("甲", "狼王"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "狼人"), ("戊", "狼人"), ("己", "狼人"),
    ("庚", "女巫"), ("辛", "预言家"), ("壬", "医生"), ("癸", "长老"), ("子", "吉普赛人"), ("丑", "猎人"),
    ("寅", "白痴"), ("卯", "丘比特"), ("辰", "两姐妹"), ("巳", "两姐妹"), ("午", "村民"), ("未", "村民"),
    ("申", "村民"), ("酉", "村民"), ("戌", "村民"), ("亥", "村民"),
]
QQ = {name: 3300002001 + i for i, (name, _) in enumerate(ROSTER)}
SEAT = {name: i for i, (name, _) in enumerate(ROSTER, 1)}
PACK = ["甲", "乙", "丙", "丁", "戊", "己"]
GROUPS = [810000021, 810000022, 810000023]  # lent to the 狼群, the 姐妹群, the 情侣群
BIG = ("魔法水晶球", "文明的狼人")
SMALL = ("英语考试", "无我无狼")


class Table146:
    def __init__(self, sim: OneBotSim):
        self.sim = sim

    async def director(self, text: str, expect="已执行。", timeout: float = WAIT) -> str:
        mark = self.sim.mark()
        await self.sim.private(DIRECTOR, text)
        match = (lambda reply: reply.startswith(expect)) if expect == "已执行。" else expect
        return await self.sim.wait_for(pm(DIRECTOR), match, timeout, since=mark)

    async def say(self, name: str, text: str, expect, timeout: float = WAIT) -> str:
        mark = self.sim.mark()
        await self.sim.private(QQ[name], text)
        return await self.sim.wait_for(("private", QQ[name]), expect, timeout, since=mark)

    async def told(self, name: str, expect, timeout: float = WAIT, since: int = 0) -> str:
        return await self.sim.wait_for(("private", QQ[name]), expect, timeout, since)

    async def night(self, kill: str, check: str) -> None:
        """Every night action in: the pack kills `kill` in its group, the seer checks `check`, the rest pass."""
        mark = self.sim.mark()
        await self.sim.group_message(GROUPS[0], QQ["乙"], f"杀人 {SEAT[kill]}")
        await self.sim.wait_for(("group", GROUPS[0]), "指杀", WAIT, since=mark)
        for name in ("壬", "甲"):
            await self.say(name, "放弃", "已收到：放弃")
        await self.told("庚", "通灵：", since=mark)
        await self.say("庚", "放弃", "已收到：放弃")
        await self.say("辛", f"预言 {SEAT[check]}", "预言结果")

    async def drawn(self, what: str, events: tuple[str, ...], since: int) -> str:
        """The event the director is told was drawn (`what`: "第2天的大新月")."""
        told = await self.sim.wait_for(pm(DIRECTOR), f"{what}：", WAIT, since=since)
        return next(event for event in events if f"{what}：{event}" in told)

    async def morning(self) -> str:
        """开门; the paste-ready post it gives the director."""
        mark = self.sim.mark()
        await self.sim.private(DIRECTOR, "开门")
        return await self.sim.wait_for(pm(DIRECTOR), lambda s: s.startswith("【开门公告"), WAIT, since=mark)


@pytest.mark.slow
async def test_a_146_game_with_its_new_moons_drawn_by_the_sheriff_and_the_deputy(bots):
    bot = bots(minute_seconds=0.5)
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={g: Group(f"备用群{g}") for g in GROUPS})
    t = Table146(sim)
    bot.start()
    async with asyncio.timeout(240):
        await connect(sim, bot)
        await t.director("新游戏 146 新月测试", "已创建游戏")
        await t.director("名单\n" + "\n".join(f"{name} {QQ[name]}" for name, _ in ROSTER), "名单已保存")
        for g in GROUPS:
            await t.director(f"群池 添加 {g} 备用群{g}", "已加入群池")
        await t.director("分配 固定\n" + "\n".join(f"{name} {role}" for name, role in ROSTER), "已按给定分配身份")
        await t.director("开始", "游戏已开始")
        await t.director("新月设置 " + " ".join(BIG + SMALL), lambda s: s.startswith("已执行。") and "本局新月：魔法水晶球" in s)
        await t.say("卯", "丘比特之箭 19 20", "已收到：丘比特之箭")  # 申 and 酉, two villagers

        # --- day 1: the election, the deputy, the sheriff's <决策> -----------------------------------
        await t.morning()
        mark = sim.mark()
        await t.director("竞选 甲:辛 辛:辛 午:辛", "计票完成")
        await t.told("辛", "你当选了警长", since=mark)
        ask = await t.told("辛", "请<决策>第2天的大新月", since=mark)
        assert "桌上有 2 张背面朝上的牌" in ask, ask
        await t.say("辛", "任命 17", "已收到：任命 17号 午 为执警")
        mark = sim.mark()
        receipt = await t.say("辛", "决策 2", "已收到：决策 第2张")
        assert not any(event in receipt for event in BIG)  # the drawer does not learn the event
        first = await t.drawn("第2天的大新月", BIG, since=mark)

        # --- night 1: the gypsy learns the sheriff's pick ---------------------------------------------
        await t.director("关门")
        peek = await t.told("子", "窥月：", since=mark)
        assert f"【{first}】" in peek, peek
        await t.say("子", "放弃", "已收到：放弃")
        await t.night(kill="亥", check="甲")

        # --- day 2: the big event, drawn by the sheriff ------------------------------------------------
        post = await t.morning()
        assert f"今日大新月：【{first}】" in post, post
        if first == "魔法水晶球":
            assert "预言家昨晚<预言>对象的身份是【狼王】" in post, post  # 甲, checked on night 1
        mark = sim.mark()
        await t.director("投票 甲:戌 乙:戌 丙:戌", "计票完成")
        ask = await t.told("午", "请<辅策>第3天的小新月", since=mark)
        assert "桌上有 2 张" in ask, ask
        await t.say("午", "辅策 1", "已收到：辅策 第1张")
        small = await t.drawn("第3天的小新月", SMALL, since=mark)

        # --- night 2, day 3: the small event, drawn by the deputy ----------------------------------------
        await t.director("关门")
        mark = sim.mark()
        await t.night(kill="未", check="乙")
        if first == "文明的狼人":  # "狼群内角色每晚可以得知因<杀人>……出局的角色的具体身份"
            funeral = await sim.wait_for(("group", GROUPS[0]), "文明的狼人：", WAIT, since=mark)
            assert "18号 未 的身份是【村民】" in funeral, funeral
        post = await t.morning()
        assert f"今日小新月：【{small}】" in post, post
        assert ("英语考试时段" in post) == (small == "英语考试"), post
        mark = sim.mark()
        await t.director("投票 辛:己 壬:己 癸:己", "计票完成")
        await t.told("辛", "请<决策>第4天的大新月", since=mark)
        await t.say("辛", "决策 1", "已收到：决策 第1张")
        second = await t.drawn("第4天的大新月", BIG, since=mark)
        assert second != first  # "已经出现过的新月不会被重新抽取"

        # --- a SIGKILL after the draw: the drawn event is stored with its command ---------------------------
        bot.kill()
        bot.start()
        await connect(sim, bot)
        await t.director("关门")
        await t.night(kill="酉", check="丙")  # 酉's lover 申 follows him (殉情)
        post = await t.morning()
        assert f"今日大新月：【{second}】" in post, post
        if second == "魔法水晶球":
            assert "预言家昨晚<预言>对象的身份是【狼人】" in post, post  # 丙, checked on night 3
        status = await t.director("状态", "阶段")
        assert "第4天" in status, status
    assert not sim.violations, sim.violations
