"""End to end: two QQ accounts of one bot over two simulated OneBot connections (issue 19).

A game set up through the second account is served by it: every brief, prompt and group action goes
through the second connection, none through the first; the director, writing to the first, is
answered through the first. The second goes away: the game's messages wait for it (none through the
first) and its director hears, through the first, that it is away; back, they go out through it. The
bot is killed and started again: both accounts reconnect and the game goes on through the second.
At the end every queued action went out once, through its own account's connection.
"""
from __future__ import annotations

import asyncio
import json

import pytest

from onebot_sim import Group, OneBotSim
from test_e2e import (DIRECTOR, QQ, ROSTER, SELF_ID, TOKEN, WAIT, Database, Table, _target, bots, connect,  # noqa: F401
                      delivered_calls, per_target, until)

SECOND = 3300000009
GROUP_ID = 810000019


def rows_of(db: Database, account: int) -> list[dict]:
    """What the bot queued for `account`, as delivered_calls() shows what a connection performed."""
    out = []
    for row in db.rows("SELECT action, params, sent_at FROM outbox WHERE account = ? ORDER BY id", str(account)):
        params = json.loads(row["params"])
        body = params.get("text") if "text" in params else json.dumps(params, sort_keys=True, ensure_ascii=False)
        out.append({"action": row["action"], "target": _target(row["action"], params), "body": body, "sent": bool(row["sent_at"])})
    return out


@pytest.mark.slow
async def test_two_accounts_through_a_disconnect_and_a_restart(bots):
    bot = bots(minute_seconds=60, env={"BANSHABOT_ABSENT_SECONDS": "1"})
    players = set(QQ.values())
    first = OneBotSim(SELF_ID, TOKEN, friends={DIRECTOR})  # the players are not its friends: it must not reach them
    second = OneBotSim(SECOND, TOKEN, friends=players | {DIRECTOR}, groups={GROUP_ID: Group("备用群")})
    t = Table(second, GROUP_ID)
    front = Table(first, GROUP_ID)  # the director writing to the first account
    bot.start()
    async with asyncio.timeout(150):
        await connect(first, bot)
        await connect(second, bot)
        await t.director("新游戏 M131 两个账号", "已创建游戏")
        await t.director("名单\n" + "\n".join(f"{name} {QQ[name]}" for name, _ in ROSTER), "名单已保存")
        await t.director(f"群池 添加 {GROUP_ID} 备用群", "已加入群池")
        await front.director("检查", f"每名玩家都已加我（QQ {SECOND}）为好友")  # the game's account's friends
        await t.director("分配 固定\n" + "\n".join(f"{name} {role}" for name, role in ROSTER), "已按给定分配身份")
        await front.director("开始", "游戏已开始")  # answered through the first
        for name, _ in ROSTER:
            await t.told(name, "你的角色")
        await second.wait_call("set_group_name", lambda p: p["group_id"] == GROUP_ID)
        await t.pack_joins()
        await t.say("丑", "认亲 甲", "认亲")
        status = await front.director("状态", "#1")
        assert f"本局账号：QQ {SECOND}（已连接）" in status, status

        # the second account goes away: 关门's prompts wait for it, none goes through the first
        await second.close()
        await front.director("关门")
        away = await front.director_told("【账号离线】", timeout=WAIT)
        assert str(SECOND) in away and "#1 两个账号" in away, away
        assert not [d for d in first.delivered if d.target[1] in players]
        await asyncio.sleep(0.5)
        assert [r for r in rows_of(bot.db, SECOND) if not r["sent"]], "the night's prompts wait for the second account"
        await connect(second, bot)
        await t.told("丙", "第1夜")
        await second.wait_for(("group", GROUP_ID), "第1夜")

        # a restart (once every delivery is recorded: one in flight may go twice, QQ cannot tell), both
        # accounts connect again, the game goes on through the second
        await until(lambda: all(r["sent"] for r in rows_of(bot.db, SECOND)), WAIT, "the night's prompts recorded sent")
        bot.kill()
        await until(lambda: not first.connected and not second.connected, WAIT, "the connections to drop")
        bot.start()
        await connect(second, bot)
        await connect(first, bot)
        await t.say("丙", "预言 1", "预言")
        status = await front.director("状态", "#1")
        assert f"本局账号：QQ {SECOND}（已连接）" in status, status
        await until(lambda: all(r["sent"] for r in rows_of(bot.db, SECOND) + rows_of(bot.db, SELF_ID)), WAIT, "the outbox to drain")

    # every action went out once, through its own account's connection, in order per chat
    assert not [d for d in first.delivered if d.target[1] in players or d.target[0] == "group"]
    for sim, account in ((first, SELF_ID), (second, SECOND)):
        assert per_target(delivered_calls(sim)) == per_target(rows_of(bot.db, account)), account
    assert not first.violations and not second.violations
