"""End to end: two bot processes on one throwaway PostgreSQL cluster, one QQ account connected to
both (as NapCat connects to several reverse WebSockets), and the process that drives the account
killed in a busy night (issue 19, service/leases.py). A message a player sends while nobody holds the
account is handled by the second once it takes over.

The first process holds the account's lease: it handles every event (the second gets them too and
leaves them), sends every message, runs the night's time limits. It is killed with SIGKILL while the
players' answers still queue at the account's pace. The second takes the account over once the
lease lapses and sends what waited; the night's limits pass there, once. Counted over both
connections: no queued message is lost, and only messages in flight at the kill (handed to OneBot,
not yet recorded) may have gone twice.
"""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from onebot_sim import OneBotSim
from test_e2e import DIRECTOR, QQ, ROSTER, SELF_ID, TOKEN, WAIT, BotProcess, _target, connect, until

LEASE = 3.0


def stored(bot: BotProcess) -> list[dict]:
    out = []
    for row in bot.db.rows("SELECT id, action, params, sent_at FROM outbox ORDER BY id"):
        params = json.loads(row["params"])
        out.append({"id": row["id"], "target": _target(row["action"], params), "body": params.get("text", row["action"]),
                    "sent": row["sent_at"] is not None})
    return out


class Account:
    """One QQ account connected to both processes: every event reaches each of them."""

    def __init__(self) -> None:
        friends = set(QQ.values()) | {DIRECTOR}
        self.sims = [OneBotSim(SELF_ID, TOKEN, friends=friends), OneBotSim(SELF_ID, TOKEN, friends=friends)]
        self.ids = iter(range(70001, 80000))

    def delivered(self) -> list:
        return [d for sim in self.sims for d in sim.delivered]

    async def send(self, qq: int, text: str) -> None:
        ident, at = next(self.ids), int(time.time())  # the same event, to each connection that is up
        for sim in self.sims:
            if sim.connected:
                await sim.private(qq, text, message_id=ident, at=at)

    async def ask(self, qq: int, text: str, expect: str) -> str:
        marks = [sim.mark() for sim in self.sims]
        await self.send(qq, text)

        def answer():
            return next((d.text for sim, mark in zip(self.sims, marks) for d in sim.delivered[mark:]
                         if d.target == ("private", qq) and expect in d.text), None)

        return await until(answer, WAIT, f"{qq}'s answer with {expect!r}")


@pytest.mark.slow
async def test_two_processes_on_postgres_lose_nothing_when_the_driving_one_dies(postgres, tmp_path):
    url = postgres.new_database()
    env = {"BANSHABOT_LEASE_SECONDS": str(LEASE), "BANSHABOT_SEND_RATE": "4"}
    # 60 rule minutes (the night's limits) are 24 s: they pass after the takeover
    first = BotProcess(tmp_path / "a", 0.4, [10], {**env, "BANSHABOT_PROCESS": "a"}, url)
    second = BotProcess(tmp_path / "b", 0.4, [10], {**env, "BANSHABOT_PROCESS": "b"}, url)
    for bot in (first, second):
        bot.tmp.mkdir()
    account = Account()
    try:
        first.start()
        async with asyncio.timeout(200):
            await connect(account.sims[0], first)
            await account.ask(DIRECTOR, "游戏", "你还没有游戏")  # the first holds the account now
            second.start()
            await connect(account.sims[1], second)
            await account.ask(DIRECTOR, "新游戏 M131 两个进程", "已创建游戏")
            await account.ask(DIRECTOR, "名单\n" + "\n".join(f"{name} {QQ[name]}" for name, _ in ROSTER), "名单已保存")
            await account.ask(DIRECTOR, "分配 固定\n" + "\n".join(f"{name} {role}" for name, role in ROSTER), "已按给定分配身份")
            await account.ask(DIRECTOR, "开始", "游戏已开始")
            await account.ask(QQ["丑"], "认亲 甲", "认亲")
            await account.ask(DIRECTOR, "关门", "已执行")
            assert not account.sims[1].delivered, "the second process sent something while the first held the account"

            # a busy night: everyone asks at once, the answers queue at the account's pace
            for name, _ in ROSTER:
                await account.send(QQ[name], "帮助")
            await until(lambda: len(account.sims[0].delivered) >= len(stored(first)) - 10, WAIT, "some answers out")
            first.kill()
            killed = time.monotonic()
            at_kill = stored(first)
            by_first = [(d.target, d.text) for d in account.sims[0].delivered]
            in_flight = {(r["target"], r["body"]) for r in at_kill if not r["sent"] and (r["target"], r["body"]) in by_first}
            waiting = [r for r in at_kill if not r["sent"] and (r["target"], r["body"]) not in by_first]
            assert waiting, "the kill came after every answer was out: nothing tests the takeover"

            # a player writes while nobody holds the account: the second handles it once it takes over
            await account.send(QQ["乙"], "状态")
            # the second takes the account over once the lease lapses, and sends what waited
            await until(lambda: all(r["sent"] for r in stored(second)), 4 * LEASE + WAIT, "the second to send what waited")
            took = time.monotonic() - killed
            # the night's limits pass at the second process, once each
            lapsed = await until(lambda: [d.text for d in account.sims[1].delivered if d.text.startswith("时限已到")],
                                 40, "the night's limits to pass")
            await until(lambda: [d for d in account.sims[1].delivered if d.target == ("private", QQ["乙"]) and "你是 2号 乙" in d.text],
                        WAIT, "乙's 状态 answered by the second")
            await asyncio.sleep(2 * LEASE)
            await until(lambda: all(r["sent"] for r in stored(second)), WAIT, "the outbox to drain")

        rows = stored(second)
        sent: dict = {}
        for d in account.delivered():
            sent[(d.target, d.text)] = sent.get((d.target, d.text), 0) + 1
        lost = [r for r in rows if (r["target"], r["body"]) not in sent]
        repeated = {key: n for key, n in sent.items() if n > sum((r["target"], r["body"]) == key for r in rows)}
        print(f"{len(rows)} messages, {len(waiting)} waiting at the kill, {len(in_flight)} in flight; taken over "
              f"{took:.1f}s after the kill; lost {len(lost)}, repeated {len(repeated)}")
        assert not lost, lost
        assert set(repeated) <= in_flight, (repeated, in_flight)
        assert len(lapsed) == len(set(lapsed))  # each limit passed once
        director = [r["body"] for r in rows if r["target"] == ("private", DIRECTOR) and r["body"].startswith("时限已到")]
        assert director and len(director) == len(set(director)), director
        assert not any(sim.violations for sim in account.sims)
        # what each process handed to OneBot was written where it was told, not under the checkout's data/
        assert (first.tmp / "sending-a").is_file() and (second.tmp / "sending-b").is_file()
    finally:
        for bot in (first, second):
            bot.stop()
            print(bot.tail(60))


@pytest.mark.slow
async def test_a_process_sends_a_player_of_another_ones_new_game_to_its_account(postgres, tmp_path):
    """Two processes, each driving an account of its own, both started before the game: a game set up
    through the first account is the first's. A player on its roster, or playing it, who writes to the
    second account is told which account serves his game, not taken for a stranger."""
    url = postgres.new_database()
    env = {"BANSHABOT_LEASE_SECONDS": str(LEASE)}
    first = BotProcess(tmp_path / "a", 0.4, [10], {**env, "BANSHABOT_PROCESS": "a"}, url)
    second = BotProcess(tmp_path / "b", 0.4, [10], {**env, "BANSHABOT_PROCESS": "b"}, url)
    friends = set(QQ.values()) | {DIRECTOR}
    mine, other = OneBotSim(SELF_ID, TOKEN, friends=friends), OneBotSim(SELF_ID + 1, TOKEN, friends=friends)
    ids = iter(range(70001, 80000))

    async def ask(sim: OneBotSim, qq: int, text: str, expect: str) -> str:
        mark = sim.mark()
        await sim.private(qq, text, message_id=next(ids))
        return await until(lambda: next((d.text for d in sim.delivered[mark:] if d.target == ("private", qq) and expect in d.text), None),
                           WAIT, f"{qq}'s answer with {expect!r}")

    for bot in (first, second):
        bot.tmp.mkdir()
    try:
        first.start()
        second.start()
        async with asyncio.timeout(120):
            await connect(mine, first)
            await connect(other, second)
            await ask(mine, DIRECTOR, "新游戏 M131 两个账号", "已创建游戏")
            await ask(mine, DIRECTOR, "名单\n" + "\n".join(f"{name} {QQ[name]}" for name, _ in ROSTER), "名单已保存")
            where = f"#1 由机器人账号 QQ {SELF_ID} 负责：请私聊 QQ {SELF_ID}。"
            assert await ask(other, QQ["乙"], "帮助", "#1") == where  # on the roster, before 开始
            await ask(mine, DIRECTOR, "分配 固定\n" + "\n".join(f"{name} {role}" for name, role in ROSTER), "已按给定分配身份")
            await ask(mine, DIRECTOR, "开始", "游戏已开始")
            assert await ask(other, QQ["丙"], "帮助", "#1") == where  # playing it
        assert not [d for d in other.delivered if "不在任何进行中" in d.text]
        assert not mine.violations and not other.violations
    finally:
        for bot in (first, second):
            bot.stop()
            print(bot.tail(60))
