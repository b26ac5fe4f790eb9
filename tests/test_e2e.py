"""End to end: bot.py as a real process, a simulated OneBot v11 implementation, whole M131 games.

The simulator (tests/onebot_sim.py) connects to the bot's reverse WebSocket as NapCat would, plays
the director and 13 players in private chat and in the wolves' pool group, and checks every API
call against the OneBot 11 action list. The first test plays a game from roster to winner; the
second kills the bot with SIGKILL in the middle of a night, starts it again on the same database
and finishes the game: nothing accepted is lost, nothing is sent twice, time limits still hold.
The third, in process: a time limit's job does not run on the transaction it was scheduled in,
whose statements would slip past the connection's lock (a player's message taken for a repeat).

What is expected comes from the rule post (docs/posts/M131-粽子.txt) and issue 3, not from
what the bot happens to print; the command words are the bot's own (service/director.py, HELP).
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from onebot_sim import Group, OneBotSim

ROOT = Path(__file__).resolve().parent.parent

SELF_ID = 3300000001
TOKEN = "e2e-secret-token"
DIRECTOR = 3300000002
STRANGER = 3300000003  # messages the bot and asks to join the group
INVITED = 3300000004  # gets into the group through a member's invitation
# Roster in seat (电梯楼) order and the fixed identities: the M131 line-up
# (3狼人，感染白痴，4村民，预言家，女巫，乌鸦，锈盾守卫，混血儿).
ROSTER = [
    ("甲", "狼人"), ("乙", "村民"), ("丙", "预言家"), ("丁", "狼人"), ("戊", "女巫"), ("己", "村民"), ("庚", "乌鸦"),
    ("辛", "感染白痴"), ("壬", "村民"), ("癸", "锈盾守卫"), ("子", "狼人"), ("丑", "混血儿"), ("寅", "村民"),
]
SEAT = {name: i for i, (name, _) in enumerate(ROSTER, 1)}
QQ = {name: 3300001000 + i for name, i in SEAT.items()}
PACK = ["甲", "丁", "辛", "子"]  # 狼群: the 狼人 and the 感染白痴 share the group
WAIT = 15.0  # the longest any single expected answer may take (a loaded 2-core machine)


# --- the bot process ----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Database:
    """The bot's database, read directly to check the outbox and the stored time limits: a SQLite
    file, or a PostgreSQL database (read through asyncpg in a thread of its own)."""

    def __init__(self, url: str):
        self.url = url

    def rows(self, sql: str, *args) -> list[dict]:
        if self.url.startswith("sqlite://"):
            con = sqlite3.connect(self.url.removeprefix("sqlite://"), timeout=5)
            con.row_factory = sqlite3.Row
            try:
                return [dict(row) for row in con.execute(sql, args).fetchall()]
            finally:
                con.close()
        import asyncpg

        for n in range(1, sql.count("?") + 1):
            sql = sql.replace("?", f"${n}", 1)

        async def fetch() -> list[dict]:
            con = await asyncpg.connect(self.url)
            try:
                return [dict(row) for row in await con.fetch(sql, *args)]
            finally:
                await con.close()

        with ThreadPoolExecutor(1) as pool:  # the test's own event loop is running
            return pool.submit(asyncio.run, fetch()).result()


class BotProcess:
    """`python bot.py` from the project root, on a free port, with its database under tmp_path (or
    the PostgreSQL database `database_url`)."""

    def __init__(self, tmp_path: Path, minute_seconds: float, remind_before: list[int], env: dict[str, str] = {},
                 database_url: str | None = None):
        self.tmp = tmp_path
        self.db = Database(database_url or f"sqlite://{tmp_path / 'game.sqlite3'}")
        self.env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "ONEBOT_ACCESS_TOKEN": TOKEN,
            "SUPERUSERS": json.dumps([str(DIRECTOR)]),
            "BANSHABOT_DATABASE_URL": self.db.url,
            "BANSHABOT_MINUTE_SECONDS": str(minute_seconds),
            "BANSHABOT_REMIND_BEFORE": json.dumps(remind_before),
            "BANSHABOT_RETRY_SECONDS": "1",
            "BANSHABOT_SEND_RATE": "0",  # QQ's pace is not what these tests are about
            "LOG_LEVEL": "INFO",
            "PYTHONDONTWRITEBYTECODE": "1",
            **env,
        }
        if not self.db.url.startswith("sqlite://"):
            # beside the test's files, not under the checkout's data/ (a SQLite file has it beside itself)
            self.env["BANSHABOT_SENDING_FILE"] = str(tmp_path / f"sending-{self.env.get('BANSHABOT_PROCESS', '')}")
        self.proc: subprocess.Popen | None = None
        self.logs: list[Path] = []
        self.port = 0

    def start(self) -> None:
        self.port = _free_port()
        log = self.tmp / f"bot-{len(self.logs) + 1}.log"
        self.logs.append(log)
        with log.open("wb") as out:
            self.proc = subprocess.Popen([sys.executable, "bot.py"], cwd=ROOT, env={**self.env, "PORT": str(self.port)},
                                         stdout=out, stderr=subprocess.STDOUT)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, nothing is flushed."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def tail(self, lines: int = 80) -> str:
        text = "\n".join(f"==== {log.name} ====\n" + log.read_text(encoding="utf-8", errors="replace") for log in self.logs if log.exists())
        return "\n".join(text.splitlines()[-lines:])


@pytest.fixture(params=["sqlite", "postgres"])
def kinds_of_database(request) -> str | None:
    """For the tests that run on each kind of database: None (a SQLite file) or a PostgreSQL URL."""
    return None if request.param == "sqlite" else request.getfixturevalue("postgres").new_database()


@pytest.fixture
def bots(tmp_path):
    started: list[BotProcess] = []

    def make(minute_seconds: float, remind_before: list[int] = [10], env: dict[str, str] = {},
             database_url: str | None = None) -> BotProcess:
        bot = BotProcess(tmp_path, minute_seconds, remind_before, env, database_url)
        started.append(bot)
        return bot

    yield make
    for bot in started:
        bot.stop()
        print(bot.tail(200))  # shown by pytest when the test failed


@pytest.fixture(autouse=True)
def clean():
    """conftest.py's autouse `clean` empties the in-process (nonebug) bot's database; these tests talk
    to a bot in another process with a database of its own, so they need none of that."""
    yield None


async def connect(sim: OneBotSim, bot: BotProcess) -> None:
    try:
        await sim.connect(bot.port, timeout=30, alive=bot.alive)
    except TimeoutError as exc:
        raise AssertionError(f"{exc}\nbot log:\n{bot.tail()}") from None


# --- the database, read directly to check the outbox and the stored time limits -------------------------
def _target(action: str, params: dict) -> tuple[str, int] | str:
    """What the order of actions is kept for: a chat; each request's answer stands alone."""
    if action in ("send_private_msg", "send_group_msg"):
        return ("private", params["user_id"]) if action == "send_private_msg" else ("group", params["group_id"])
    if "flag" in params:
        return (action, params["flag"])
    return action


def outbox(db: Database) -> list[dict]:
    """Every queued OneBot action: id, action, target, what it says or does, whether it was sent."""
    out = []
    for row in db.rows("SELECT id, action, params, sent_at, given_up_at FROM outbox ORDER BY id"):
        params = json.loads(row["params"])
        body = params.get("text") if "text" in params else json.dumps(params, sort_keys=True, ensure_ascii=False)
        out.append({"id": row["id"], "action": row["action"], "target": _target(row["action"], params), "body": body,
                    "sent": row["sent_at"] is not None, "given_up": row["given_up_at"] is not None})
    return out


# what the bot asks OneBot at once, for an answer a command needs (service/groups.py, Ask), not queued
ASKED_AT_ONCE = {"set_group_new_member_history_visibility", "set_doubt_friends_add_request"}


def delivered_calls(sim: OneBotSim, connection: int | None = None) -> list[dict]:
    """What the simulator accepted of the actions the bot queues (messages and group management)."""
    out = []
    for call in sim.calls:
        if (not call.ok or call.action.startswith("get_") or call.action in ASKED_AT_ONCE
                or (connection is not None and call.connection != connection)):
            continue
        params = dict(call.params)
        if "message" in params:
            body = "".join(s["data"]["text"] for s in params["message"])
        else:
            body = json.dumps(params, sort_keys=True, ensure_ascii=False)
        out.append({"action": call.action, "target": _target(call.action, params), "body": body})
    return out


def per_target(items) -> dict:
    grouped: dict = {}
    for item in items:
        grouped.setdefault(item["target"], []).append((item["action"], item["body"]))
    return grouped


def assert_outbox_delivered_exactly_once(db: Database, sim: OneBotSim, given_up: int = 0) -> None:
    """Every action the bot queued was performed once, in queue order per target, and nothing else
    (but the `given_up` ones, never performed)."""
    rows = outbox(db)
    unsent = [r for r in rows if not r["sent"] and not r["given_up"]]
    assert not unsent, f"queued but never delivered: {unsent}"
    assert sum(r["given_up"] for r in rows) == given_up
    assert per_target(delivered_calls(sim)) == per_target(r for r in rows if not r["given_up"])


def deadline(db: Database, key: str) -> dict:
    rows = db.rows("SELECT key, what, due_at, done FROM deadline WHERE key = ? ORDER BY id", key)
    assert rows, f"no stored time limit {key!r}; stored: {[r['key'] for r in db.rows('SELECT key FROM deadline')]}"
    row = rows[-1]
    due = row["due_at"]
    if isinstance(due, str):
        due = datetime.fromisoformat(due)
    return {"key": row["key"], "what": row["what"], "due": due.timestamp() if due else None, "done": bool(row["done"])}


async def until(condition: Callable[[], object], timeout: float, what: str) -> object:
    give_up = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > give_up:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.05)
    return value


# --- the people at the table ---------------------------------------------------------------------------
def pm(name_or_qq) -> tuple[str, int]:
    return ("private", QQ.get(name_or_qq, name_or_qq))


class Table:
    """The director and the players, speaking through the simulator; remembers what the bot accepted."""

    def __init__(self, sim: OneBotSim, group: int):
        self.sim = sim
        self.group = group
        self.accepted: list[str] = []  # what the director's 日志 must list, in order
        self.problems: list[str] = []  # wrong behaviour that does not stop the game; asserted at the end
        self.actions: list[tuple[str, str]] = []  # (player, skill) of every accepted player action

    async def director(self, text: str, expect: str | Callable[[str], bool] = "已执行。", timeout: float = WAIT) -> str:
        mark = self.sim.mark()
        await self.sim.private(DIRECTOR, text)
        if expect == "已执行。":  # the reply itself (开门 adds the day's closing time), not a notice that contains it
            expect = lambda reply: reply.startswith("已执行。")  # noqa: E731
        return await self.sim.wait_for(pm(DIRECTOR), expect, timeout, since=mark)

    async def say(self, name: str, text: str, expect: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """`name` sends `text` to the bot privately; the answer he gets."""
        mark = self.sim.mark()
        await self.sim.private(QQ[name], text)
        return await self.sim.wait_for(pm(name), expect, timeout, since=mark)

    async def in_group(self, name: str, text: str, expect: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        mark = self.sim.mark()
        await self.sim.group_message(self.group, QQ[name], text)
        return await self.sim.wait_for(("group", self.group), expect, timeout, since=mark)

    async def receipt(self, name: str, text: str, mentions: str, timeout: float = 5.0) -> str | None:
        """`name` sends `text`; the issue wants a receipt for every accepted action. A missing one is
        recorded in `problems` (asserted at the end) so the rest of the game is still checked."""
        mark = self.sim.mark()
        await self.sim.private(QQ[name], text)
        try:
            return await self.sim.wait_for(pm(name), mentions, timeout, since=mark)
        except AssertionError:
            self.problems.append(f"{name} sent {text!r}: no receipt mentioning {mentions!r} within {timeout}s")
            return None

    async def told(self, name: str, expect: str | Callable[[str], bool], timeout: float = WAIT, since: int = 0) -> str:
        return await self.sim.wait_for(pm(name), expect, timeout, since)

    async def director_told(self, expect: str | Callable[[str], bool], timeout: float = WAIT, since: int = 0) -> str:
        return await self.sim.wait_for(pm(DIRECTOR), expect, timeout, since)

    def act(self, name: str, line: str) -> None:
        """A player's accepted action, as the log shows it: `SEAT号 NAME：SKILL TARGET`."""
        self.accepted.append(f"{SEAT[name]}号 {name}：{line}")
        self.actions.append((name, line.split()[0]))

    def director_heard_of_every_action(self) -> None:
        """导演…Notified in QQ of every action: a message naming the player and the skill."""
        heard = self.sim.messages(pm(DIRECTOR))
        for name, skill in self.actions:
            assert any(f"{SEAT[name]}号 {name}" in m and skill in m for m in heard), f"the director never heard of {name}'s {skill}"

    def nothing_public_names_an_identity(self) -> None:
        """游戏进行期间以任何方式出局的角色均不公示其身份: what the director may post reveals no identity."""
        identities = {role for _, role in ROSTER}
        for text in self.sim.messages(pm(DIRECTOR)):
            if text.startswith("【可公示】") or text.startswith("【开门公告"):
                # the crow's 诽谤 is published by the post's own rule ("乌鸦诽谤对象在关门前1小时公示")
                bare = text.replace("村民阵营", "").replace("狼人阵营", "").replace("乌鸦诽谤", "")
                assert not [r for r in identities if r in bare], text

    def by_director(self, line: str) -> None:
        self.accepted.append(f"导演 {DIRECTOR}：{line}")

    async def treehole(self) -> str:
        """日志: the whole log (树洞), in as many messages as it takes; the last ends with the result."""
        mark = self.sim.mark()
        await self.sim.private(DIRECTOR, "日志")
        await self.sim.wait_for(pm(DIRECTOR), lambda s: "\n结果：" in s, WAIT, since=mark)
        return "\n".join(d.text for d in self.sim.delivered[mark:] if d.target == pm(DIRECTOR))

    async def setup(self, title: str, group_name: str, friends_missing: str | None = None) -> None:
        """新游戏, 名单, 群池 添加, 检查, 分配 固定, 开始: every player is briefed, the pool group becomes the pack's."""
        reply = await self.director(f"新游戏 M131 {title}", "已创建游戏")
        assert "M131" in reply
        reply = await self.director("名单\n" + "\n".join(f"{name} {QQ[name]}" for name, _ in ROSTER), "名单已保存")
        for name, seat in SEAT.items():
            assert f"{seat}号 {name} {QQ[name]}" in reply
        await self.director(f"群池 添加 {self.group} {group_name}", "已加入群池")
        if friends_missing:
            reply = await self.director("检查", "还没有加我为好友")
            assert f"{SEAT[friends_missing]}号 {friends_missing}（{QQ[friends_missing]}）" in reply
            others = [n for n in SEAT if n != friends_missing]
            assert not any(f"号 {n}（" in reply for n in others), reply
            # the player adds the bot as a friend; the bot accepts, and the check passes
            flag = await self.sim.friend_request(QQ[friends_missing], "我是来玩版杀的")
            await self.sim.wait_until(lambda: flag in self.sim.answered_requests, WAIT, "the friend request answered")
            assert self.sim.answered_requests[flag]["approve"] is True
        await self.director("检查", "每名玩家都已加我为好友")
        await self.director("分配 固定\n" + "\n".join(f"{name} {role}" for name, role in ROSTER), "已按给定分配身份")
        await self.director("开始", "游戏已开始")
        for name, role in ROSTER:
            brief = await self.told(name, "你的角色")
            assert f"{SEAT[name]}号 {name}" in brief and f"你的身份：{role}" in brief and "时限" in brief, brief
        for name in PACK:
            note = await self.told(name, str(self.group))
            assert "狼群" in note and all(f"{SEAT[n]}号 {n}" in note for n in PACK), note
        await self.sim.wait_call("set_group_name", lambda p: p["group_id"] == self.group)
        assert self.sim.groups[self.group].name != group_name and "狼群" in self.sim.groups[self.group].name
        assert not self.sim.groups[self.group].history_visible  # the pack reads nothing from before it joined

    async def pack_joins(self) -> None:
        flags = [await self.sim.group_request(self.group, QQ[name], "狼群成员") for name in PACK]
        await self.sim.wait_until(lambda: all(f in self.sim.answered_requests for f in flags), WAIT, "join requests answered")
        assert all(self.sim.answered_requests[f]["approve"] is True for f in flags)
        await self.sim.wait_until(lambda: self.sim.groups[self.group].members == {QQ[n] for n in PACK}, WAIT, "the pack in its group")
        # the roster is posted once the whole pack is in (nobody would read it in the empty group)
        roster = await self.sim.wait_for(("group", self.group), "狼群")
        assert all(f"{SEAT[n]}号 {n}" in roster for n in PACK), roster

    async def to_night_one(self, title: str, group_name: str) -> None:
        """A table set up, the pack in its group, the half-blood with the wolves, and the doors shut."""
        await self.setup(title, group_name)
        await self.pack_joins()
        await self.say("丑", "认亲 甲", "认亲")
        await self.director("关门")

    def log_lines_in_order(self, log: str) -> None:
        lines = log.splitlines()
        at = 0
        for expected in self.accepted:
            found = next((i for i in range(at, len(lines)) if expected in lines[i]), None)
            assert found is not None, f"the log lacks {expected!r} (after line {at}):\n{log}"
            at = found + 1


def group_of(sim: OneBotSim, gid: int) -> Group:
    return sim.groups[gid]


# --- (a) a whole game ----------------------------------------------------------------------------------
@pytest.mark.slow
async def test_a_whole_m131_game_over_onebot(bots, kinds_of_database):
    gid = 810000001
    bot = bots(minute_seconds=0.5, database_url=kinds_of_database)  # night limit 30 s, feedback limit 15 s
    sim = OneBotSim(SELF_ID, TOKEN, friends={QQ[n] for n in SEAT if n != "寅"}, groups={gid: Group("粽子备用群")})
    t = Table(sim, gid)
    bot.start()
    async with asyncio.timeout(150):
        await connect(sim, bot)

        # a stranger is turned away politely, and told nothing about any game
        mark = sim.mark()
        await sim.private(STRANGER, "你好，在吗？")
        refusal = await sim.wait_for(pm(STRANGER), lambda s: True, WAIT, since=mark)
        assert "导演" in refusal and not any(role in refusal for _, role in ROSTER), refusal

        await t.setup("端到端测试", "粽子备用群", friends_missing="寅")

        # --- the pack's group: members only --------------------------------------------------------
        await t.pack_joins()
        not_pack = await sim.group_request(gid, QQ["乙"], "我也想进")
        outsider = await sim.group_request(gid, STRANGER, "让我进去")
        await sim.wait_until(lambda: {not_pack, outsider} <= set(sim.answered_requests), WAIT, "the outsiders' requests answered")
        assert sim.answered_requests[not_pack]["approve"] is False
        assert sim.answered_requests[outsider]["approve"] is False
        await sim.group_increase(gid, INVITED, "invite", operator_id=QQ["甲"])  # a member invited him in
        await sim.wait_call("set_group_kick", lambda p: p["group_id"] == gid and p["user_id"] == INVITED)
        assert group_of(sim, gid).members == {QQ[n] for n in PACK}
        assert not [c for c in sim.calls_of("set_group_kick") if c.params["user_id"] != INVITED]

        # --- start: the half-blood chooses --------------------------------------------------------
        receipt = await t.say("丑", "认亲 乙", "认亲")
        assert "乙" in receipt
        t.act("丑", "认亲 乙")
        await t.director_told("认亲")

        # --- night 1 ---------------------------------------------------------------------------------
        await t.director("关门")
        t.by_director("关门")
        await sim.wait_for(("group", gid), "第1夜")
        for name in ("丙", "庚", "癸"):
            await t.told(name, "第1夜")
        await t.told("戊", "第1夜")

        # someone outside the pack writes in its group: ignored
        group_mark = sim.mark()
        await sim.group_message(gid, QQ["乙"], "刀 3")

        # the seer checks; OneBot refuses the first attempt to deliver the result, the outbox retries
        failed = sim.fail(lambda action, p: p.get("user_id") == QQ["丙"] and "预言结果" in str(p.get("message")))
        result = await t.say("丙", "预言 1", "预言结果")
        assert "1号 甲" in result and "<非村民阵营>" in result, result
        assert len(failed) == 1
        assert sim.messages(pm("丙")).count(result) == 1
        t.act("丙", "预言 1")
        await t.director_told("3号 丙 的反馈")

        # the crow: its message arrives twice with the same message id; handled once
        mark = sim.mark()
        crow_msg = await sim.private(QQ["庚"], "诽谤 4")
        slander = await sim.wait_for(pm("庚"), "已收到", WAIT, since=mark)
        assert "诽谤 4号 丁" in slander
        await sim.private(QQ["庚"], "诽谤 4", message_id=crow_msg)
        t.act("庚", "诽谤 4")

        receipt = await t.say("癸", "守护目标 13", "已收到")
        assert "最后的守护 13号 寅" in receipt
        t.act("癸", "最后的守护 13")

        # the pack's kill, sent in the group by a member and confirmed there
        confirmed = await t.in_group("丁", "刀 13", "指杀")
        assert "丁" in confirmed and "13号 寅" in confirmed, confirmed
        assert [d.text for d in sim.delivered[group_mark:] if d.target == ("group", gid)] == [confirmed]
        t.act("丁", "杀人 13")

        # the witch learns who was attacked (通灵), may not save herself, poisons 甲
        psychic = await t.told("戊", "通灵：")
        assert "寅" in psychic, psychic
        refusal = await t.say("戊", "救 5", "未执行")
        assert "自救" in refusal, refusal  # 女巫全程不能自救
        receipt = await t.say("戊", "毒 1", "已收到")
        assert "毒药 1号 甲" in receipt
        t.act("戊", "毒药 1")

        # the guard hears that 寅 was harmed, and protects him
        answer = await t.told("癸", "最后的守护：")
        assert "寅" in answer and "受到了伤害" in answer, answer
        await t.say("癸", "守护", "已收到：守护")
        t.act("癸", "守护")
        draft = await t.director_told("开门公告草稿")
        assert "甲" in draft and "寅" not in draft, draft
        t.accepted.append("自动：结算夜晚")
        await t.told("癸", "失去了技能")  # 成功守护一名角色后，锈盾守卫失去技能

        # --- day 1: the sheriff election, from pasted forum posts; then the night's deaths ------------
        await t.director("开门")
        t.by_director("开门")
        posts = "\n".join([
            "2楼 乙", "投票对象：丙", "投票理由：相信预言家",
            "3楼 丙", "投票对象：丙", "投票理由：我来带队",
            "4楼 丁", "投票对象：丁", "投票理由：我想当警长",
            "5楼 戊", "投票对象：丙", "投票理由：跟票",
            "6楼 己", "投票对象：丁",  # no 投票理由: void, flagged back
            "7楼 庚", "投票对象：丙 投票理由：同上",  # 投票对象与投票理由之间可以不换行
            "8楼 辛", "投票对象：丁", "投票理由：狼队友",
            "9楼 壬", "投票对象：丁", "投票理由：随便",
            "10楼 癸", "投票对象：弃权", "投票理由：不站边",
            "11楼 子", "投票对象:丁", "投票理由:半角也行",  # 标点符号不区分全半角
            "12楼 壬", "改票对象：丙", "改票理由：改主意了",
            "13楼 丑", "投票对象：丙", "投票理由：跟乙",
            "14楼 寅", "投票对象：丙", "投票理由：好人",
        ])
        tally = await t.director("竞选\n" + posts, "计票完成")
        assert "结果：3号 丙" in tally and "3号 丙 7票" in tally and "4号 丁 3票" in tally, tally
        assert "无效" in tally and "己" in tally, tally
        t.by_director("竞选 乙:丙 丙:丙 丁:丁 戊:丙 庚:丙 辛:丁 壬:丙（改票，原投丁） 癸:弃权 子:丁 丑:丙 寅:丙")
        await t.told("丙", "警长")
        morning = await t.director_told("当日警长")
        assert "昨晚出局：1号 甲" in morning and "当日警长：3号 丙" in morning, morning

        # 甲 went out on the first night: he may leave last words; he may not act any more
        await t.told("甲", "遗言")
        refusal = await t.say("甲", "刀 2", "未执行")
        assert "出局" in refusal, refusal
        # last words with what would be CQ code: they must reach the director as literal text
        words = "[CQ:at,qq=all] 我是好人，别投我了\n第二行：[CQ:face,id=1]"
        await t.say("甲", "遗言 " + words, "已收到遗言")
        t.act("甲", "遗言")
        relayed = await t.director_told(lambda s: words in s)
        calls = [c for c in sim.calls_of("send_private_msg") if c.params["user_id"] == DIRECTOR and c.params["message"][0]["data"].get("text") == relayed]
        assert calls and calls[0].params["message"] == [{"type": "text", "data": {"text": relayed}}], calls

        # --- day 2: 甲's words are published; the exile vote, compact; the sheriff's vote weighs 1.5 ------
        await t.director("开门")
        t.by_director("开门")
        published = await t.director_told(lambda s: s.startswith("【开门公告") and words in s)
        assert "甲" in published
        # a card; OneBot delivers the director's message twice (same message id): handled once
        mark = sim.mark()
        card_msg = await sim.private(DIRECTOR, "发牌 蓝牌 己")
        await sim.wait_for(pm(DIRECTOR), lambda s: s == "已执行。", WAIT, since=mark)
        t.by_director("发牌 蓝牌 己")
        await sim.private(DIRECTOR, "发牌 蓝牌 己", message_id=card_msg)
        await sim.quiet(0.5)
        status = await t.director("状态", "阶段")
        if "蓝牌2" in status:
            t.problems.append("a director's message delivered twice (same message id) was executed twice: 己 got 蓝牌2")
        elif "蓝牌1" not in status:
            t.problems.append(f"状态 does not show 己's 蓝牌: {status}")
        tally = await t.director("投票 乙:丁 丙:丁 戊:丁 己:丁 庚:丁 壬:丁 癸:丁 丑:丁 寅:丁 丁:乙 辛:乙 子:乙", "计票完成")
        assert "结果：4号 丁" in tally and "4号 丁 9.5票" in tally and "2号 乙 3票" in tally, tally
        t.by_director("投票 乙:丁 丙:丁")
        await t.told("丁", "遗言")
        await t.say("丁", "放弃", "已收到：放弃")
        t.act("丁", "放弃")

        # --- night 2 ---------------------------------------------------------------------------------
        await t.director("关门")
        t.by_director("关门")
        await sim.wait_for(("group", gid), "第2夜")
        refusal = await t.say("癸", "选 2", "未执行")  # he lost <最后的守护> last night
        assert "失去" in refusal, refusal
        refusal = await t.in_group("丁", "刀 2", "未执行")  # a dead member of the pack
        assert "出局" in refusal, refusal
        confirmed = await t.in_group("子", "刀 2", "指杀")
        assert "2号 乙" in confirmed, confirmed
        t.act("子", "杀人 2")
        psychic = await t.told("戊", "通灵：")
        assert "乙" in psychic, psychic
        receipt = await t.say("戊", "救 2", "已收到")
        assert "救药 2号 乙" in receipt
        t.act("戊", "救药 2")
        result = await t.say("丙", "查 8", "预言结果")
        assert "8号 辛" in result and "<非村民阵营>" in result, result
        t.act("丙", "预言 8")
        receipt = await t.say("庚", "诽谤 11", "已收到")
        assert "诽谤 11号 子" in receipt
        t.act("庚", "诽谤 11")
        draft = await t.director_told("开门公告草稿")
        assert "无人出局" in draft, draft
        t.accepted.append("自动：结算夜晚")

        # --- day 3: a quiet night; the infected idiot is voted out ---------------------------------------
        await t.director("开门")
        t.by_director("开门")
        morning = await t.director_told("昨晚出局")
        assert "平安夜" in morning and "前一天投票出局：4号 丁" in morning, morning
        tally = await t.director("投票 乙:辛 丙:辛 戊:辛 己:辛 庚:辛 壬:辛 癸:辛 丑:辛 寅:辛 辛:乙 子:乙", "计票完成")
        assert "结果：8号 辛" in tally, tally
        t.by_director("投票 乙:辛")

        # --- night 3: 假痴不癫 — 辛 was not the first wolf out by day, so the pack may 查验 -------------
        await t.director("关门")
        t.by_director("关门")
        night = await sim.wait_for(("group", gid), "第3夜")
        assert "查验" in night, night
        found = await t.in_group("子", "查验 3", "查验结果")
        assert "3号 丙" in found and "预言家" in found, found  # the identity itself, to the pack's group only
        assert not any("查验结果" in m for name in SEAT for m in sim.messages(pm(name)))
        t.act("子", "查验 3")
        await t.in_group("子", "刀 3", "指杀")
        t.act("子", "杀人 3")
        result = await t.say("丙", "查 11", "预言结果")
        assert "11号 子" in result and "<非村民阵营>" in result, result
        t.act("丙", "预言 11")
        await t.say("庚", "诽谤 12", "已收到")
        t.act("庚", "诽谤 12")
        draft = await t.director_told("开门公告草稿")
        assert "丙" in draft, draft
        t.accepted.append("自动：结算夜晚")

        # --- day 4: the sheriff died in the night and hands the badge over; the last wolf goes --------------
        mark = sim.mark()
        await t.director("开门")
        t.by_director("开门")
        # 在次日游戏日开始前，有遗言权利的出局玩家未提交遗言，视为放弃遗言
        await t.director_told(lambda s: "辛" in s and "遗言" in s and "放弃" in s, since=mark)
        morning = await t.director_told("昨晚出局")
        assert "3号 丙" in morning and "前一天投票出局：8号 辛" in morning, morning
        await t.told("丙", "殉职")
        await t.receipt("丙", "殉职 5", "戊")  # every accepted action gets a receipt
        await t.told("戊", "警长")
        handed = await t.director_told("警徽")
        assert "5号 戊" in handed, handed
        t.act("丙", "殉职 5")
        tally = await t.director("投票 乙:子 戊:子 己:子 庚:子 壬:子 癸:子 丑:子 寅:子 子:乙", "计票完成")
        assert "结果：11号 子" in tally and "11号 子 8.5票" in tally, tally
        t.by_director("投票 乙:子 戊:子")
        final = await t.director_told("获胜")
        assert "村民阵营获胜" in final, final

        # the group is emptied and renamed back
        await sim.wait_until(lambda: group_of(sim, gid).name == "粽子备用群" and not group_of(sim, gid).members, WAIT,
                             "the group emptied and renamed back")

        # the whole log (树洞) lists every accepted action
        log = await t.treehole()
        t.log_lines_in_order(log)
        assert "村民阵营" in log.splitlines()[-1]
        assert "乙 杀人" not in log  # the non-member's message in the group was never an action
        assert words in log

        # the crow's repeated message got one receipt; only the pack heard of the pack; every
        # delivery went through the outbox exactly once
        assert sum("诽谤 4号 丁" in m for m in sim.messages(pm("庚"))) == 1
        for name in SEAT:
            heard_of_pack = any(str(gid) in m or "【狼群】" in m for m in sim.messages(pm(name)))
            assert heard_of_pack == (name in PACK), name
        assert sum(m.startswith("通灵：") for m in sim.messages(pm("戊"))) == 2  # 救药 took her 通灵 away
        t.director_heard_of_every_action()
        t.nothing_public_names_an_identity()
        await sim.quiet(0.5)
        assert_outbox_delivered_exactly_once(bot.db, sim)
        assert sim.violations == []
        assert t.problems == []
        await sim.close()


# --- (b) killed in the middle of a night -----------------------------------------------------------------
MINUTE_B = 0.3  # night limit (关门 + 60 min) = 18 s, feedback limit (30 min) = 9 s


@pytest.mark.slow
async def test_the_bot_survives_sigkill_in_the_middle_of_a_night(bots, kinds_of_database):
    gid = 810000002
    bot = bots(minute_seconds=MINUTE_B, remind_before=[5], database_url=kinds_of_database)
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={gid: Group("粽子二号群")})
    t = Table(sim, gid)
    bot.start()
    async with asyncio.timeout(150):
        await connect(sim, bot)
        await t.setup("重启测试", "粽子二号群")
        await t.pack_joins()
        await t.say("丑", "认亲 甲", "认亲")  # the half-blood joins the wolves' side
        t.act("丑", "认亲 甲")

        # --- night 1: some actions are in and answered ----------------------------------------------------
        await t.director("关门")
        t.by_director("关门")
        await sim.wait_for(("group", gid), "第1夜")
        check = await t.say("丙", "查 12", "预言结果")
        assert "12号 丑" in check and "<村民阵营>" in check, check  # 查验混血儿时，始终反馈<村民阵营>
        t.act("丙", "预言 12")
        confirmed = await t.in_group("丁", "刀 13", "指杀")
        assert "13号 寅" in confirmed
        t.act("丁", "杀人 13")
        psychic = await t.told("戊", "通灵：")  # her 30 minutes start now; she will not answer
        assert "寅" in psychic
        # OneBot cannot reach the guard for now: the receipt of his accepted choice stays in the outbox
        sim.fail_when = lambda action, p: p.get("user_id") == QQ["癸"]
        mark = sim.mark()
        await sim.private(QQ["癸"], "最后的守护 6")
        t.act("癸", "最后的守护 6")
        await t.director_told("10号 癸：最后的守护", since=mark)
        await sim.wait_until(lambda: any(not c.ok and c.params.get("user_id") == QQ["癸"] for c in sim.calls), WAIT,
                             "a failed delivery to the guard")
        # the director acts for the crow by mistake and takes it back: the crow is told, his time limit
        # runs again, and after the SIGKILL the game is rebuilt without the act (the crow never acts)
        await t.director("代 庚 诽谤 2")
        t.by_director("庚 诽谤 2")
        listing = await t.director("撤销", "本阶段导演的操作")
        number = re.search(r"第(\d+)条 \S+ \S+ 导演 \d+：庚 诽谤 2", listing).group(1)
        preview = await t.director(f"撤销 {number}", "撤销第")
        assert "7号 庚：以下消息作废" in preview, preview
        await t.director("确认", "已撤销")
        t.by_director(f"撤销第{number}条")
        await t.told("庚", "可以重新决定")

        # everything else was delivered: only the guard's receipt waits in the outbox
        await until(lambda: outbox(bot.db) and all(r["target"] == pm("癸") for r in outbox(bot.db) if not r["sent"]),
                    WAIT, "the outbox to drain except for the guard")

        bot.kill()
        await sim.wait_until(lambda: not sim.connected, WAIT, "the connection to drop")
        killed_at = time.time()
        at_kill = outbox(bot.db)
        last_id_at_kill = max(r["id"] for r in at_kill)
        held = [r for r in at_kill if not r["sent"]]
        assert held and all("最后的守护 6号 己" in r["body"] for r in held), held
        assert not [d for d in sim.delivered if d.target == pm("癸") and "6号 己" in d.text]
        witch = deadline(bot.db, "night1:女巫:戊")
        crow = deadline(bot.db, "night1:诽谤:庚")
        assert not witch["done"] and not crow["done"]
        assert killed_at < witch["due"] < crow["due"], (killed_at, witch, crow)

        # the witch's time limit passes while the bot is down
        await asyncio.sleep(witch["due"] - time.time() + 0.3)
        sim.fail_when = None
        bot.start()
        await connect(sim, bot)
        up = time.time()
        print(f"down {up - killed_at:.1f}s; back {up - witch['due']:.1f}s after the witch's limit, {crow['due'] - up:.1f}s before the crow's")
        assert crow["due"] > up + 0.5, f"the bot took {up - witch['due']:.1f}s to come back; the crow's limit passed meanwhile"

        # the limit that passed while the bot was down fires at once: the witch let it pass
        lapsed = await t.director_told("时限已到：戊")
        lapsed_at = next(d for d in sim.delivered if d.text == lapsed).wall
        assert lapsed_at - up < 5.0, f"{lapsed_at - up:.1f}s after reconnecting"
        t.accepted.append("时限：时限到期：第1夜 戊<女巫>")
        refusal = await t.say("戊", "毒 1", "未执行")
        assert "时限" in refusal or "放弃" in refusal, refusal
        # the guard's receipt, queued before the kill, arrives once; then his answer, which needed the
        # witch's decision
        receipt = await t.told("癸", "已收到")
        assert "最后的守护 6号 己" in receipt, receipt
        answer = await t.told("癸", "最后的守护：")
        assert "己" in answer and "没有受到" in answer, answer
        inbox = sim.messages(pm("癸"))
        assert inbox.index(receipt) < inbox.index(answer)
        await t.say("癸", "放弃", "已收到：放弃")
        t.act("癸", "放弃")

        # the crow's limit passes after the restart: reminded first, then treated as having passed
        reminder = await t.told("庚", "提醒", timeout=crow["due"] - time.time() + WAIT)
        assert "诽谤" in reminder
        lapsed = await t.director_told("时限已到：庚", timeout=crow["due"] - time.time() + WAIT)
        delivered = next(d for d in sim.delivered if d.text == lapsed)
        assert delivered.connection == 2 and delivered.wall >= crow["due"] - 0.05, (delivered.wall, crow["due"])
        draft = await t.director_told("开门公告草稿")
        assert "寅" in draft, draft  # the pack's kill, sent before the kill, still counts
        refusal = await t.say("庚", "诽谤 2", "未执行")
        t.accepted += ["时限：时限到期：第1夜 庚<诽谤>", "自动：结算夜晚"]

        # --- the rest of the game -----------------------------------------------------------------------------
        await t.director("开门")
        t.by_director("开门")
        tally = await t.director("竞选 甲:丁 丁:丁 辛:丁 子:丁 丑:丁 乙:丙 丙:丙 戊:丙 己:弃权 庚:弃权 壬:弃权 癸:弃权", "计票完成")
        assert "结果：4号 丁" in tally, tally
        t.by_director("竞选 甲:丁")
        morning = await t.director_told("当日警长")
        assert "13号 寅" in morning and "4号 丁" in morning, morning
        await t.director("开门")
        t.by_director("开门")
        tally = await t.director("投票 甲:乙 丁:乙 辛:乙 子:乙 丑:乙 乙:丁 丙:丁 戊:丁 己:乙 庚:弃权 壬:弃权 癸:弃权", "计票完成")
        assert "结果：2号 乙" in tally, tally
        t.by_director("投票 甲:乙")
        await t.director("关门")
        t.by_director("关门")
        await sim.wait_for(("group", gid), "第2夜")
        await t.in_group("子", "刀 9", "指杀")
        t.act("子", "杀人 9")
        await t.told("戊", lambda s: s.startswith("通灵：") and "壬" in s)
        await t.say("戊", "放弃", "已收到：放弃")
        t.act("戊", "放弃")
        result = await t.say("丙", "查 4", "预言结果")
        assert "4号 丁" in result and "<非村民阵营>" in result, result
        t.act("丙", "预言 4")
        await t.say("庚", "诽谤 3", "已收到")
        t.act("庚", "诽谤 3")
        await t.say("癸", "放弃", "已收到：放弃")
        t.act("癸", "放弃")
        await t.director_told(lambda s: "开门公告草稿" in s and "壬" in s)
        t.accepted.append("自动：结算夜晚")
        await t.director("开门")
        t.by_director("开门")
        # 狼人阵营持有的票数占总票数的一半或一半以上: 甲 丁(警长 1.5) 辛 子 丑 = 5.5 against 丙 戊 己 庚 癸 = 5
        final = await t.director_told("获胜")
        assert "狼人阵营获胜" in final, final
        await sim.wait_until(lambda: group_of(sim, gid).name == "粽子二号群" and not group_of(sim, gid).members, WAIT,
                             "the group emptied and renamed back")

        # --- nothing accepted was lost -----------------------------------------------------------------------
        log = await t.treehole()
        t.log_lines_in_order(log)
        assert "狼人阵营" in log.splitlines()[-1]

        # --- nothing was sent twice ------------------------------------------------------------------------
        await sim.quiet(0.5)
        assert_outbox_delivered_exactly_once(bot.db, sim)
        rows = outbox(bot.db)
        # before the kill: exactly what the outbox had marked sent; after the restart: exactly what was
        # still waiting at the kill plus what was queued since, each in queue order per target
        sent_before = [r for r in at_kill if r["sent"]]
        waiting = {r["id"] for r in at_kill if not r["sent"]}
        after = [r for r in rows if r["id"] in waiting or r["id"] > last_id_at_kill]
        assert per_target(delivered_calls(sim, connection=1)) == per_target(sent_before)
        assert per_target(delivered_calls(sim, connection=2)) == per_target(after)
        assert sum(check == m for m in sim.messages(pm("丙"))) == 1
        assert sum(confirmed == m for m in sim.messages(("group", gid))) == 1
        assert sum("通灵：今晚被指杀的角色是 13号 寅" in m for m in sim.messages(pm("戊"))) == 1
        assert sum("最后的守护 6号 己" in m for m in sim.messages(pm("癸"))) == 1
        assert sim.violations == []
        await sim.close()


# --- (c) one chat's trouble with OneBot is its own ----------------------------------------------------------
@pytest.mark.slow
async def test_a_chats_trouble_with_onebot_holds_no_other_chat_and_nothing_goes_twice(bots):
    """A send OneBot never answers holds only its chat: others are answered meanwhile, and once its
    time is up the chat's history (NapCat's extension) shows it never arrived, so it goes again,
    once. A send whose answer is lost with the connection is found in the history after the
    reconnect and not sent again. A message OneBot keeps refusing is given up, the director is told
    what it said, and what came after it in that chat goes out."""
    gid = 810000004
    bot = bots(minute_seconds=2.0, env={"BANSHABOT_SEND_TIMEOUT": "2", "BANSHABOT_SEND_ATTEMPTS": "2",
                                        "BANSHABOT_RETRY_SECONDS": "1"})
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={gid: Group("粽子四号群")}, history=True)
    t = Table(sim, gid)
    bot.start()
    async with asyncio.timeout(120):
        await connect(sim, bot)
        await t.to_night_one("送达测试", "粽子四号群")
        await sim.wait_for(("group", gid), "第1夜")

        # a send that is never answered
        hung = sim.hang(lambda a, p: p.get("user_id") == QQ["丙"] and "预言结果" in str(p.get("message")))
        mark = sim.mark()
        await sim.private(QQ["丙"], "查 12")
        await sim.wait_until(lambda: hung, WAIT, "the seer's result sent and left unanswered")
        since = len(sim.calls)
        await t.say("庚", "诽谤 4", "已收到")
        # answered while the bot still waits for the unanswered send: it has neither looked into the
        # seer's history nor sent the result again
        assert not [c for c in sim.calls[since:] if c.params.get("user_id") == QQ["丙"]], "another chat waited behind the unanswered send"
        await t.director_told("7号 庚：诽谤 4", since=mark)
        result = await t.told("丙", "预言结果", since=mark)
        assert "12号 丑" in result
        assert sum("预言结果" in m for m in sim.messages(pm("丙"))) == 1

        # a send whose answer is lost with the connection
        dropped = sim.drop(lambda a, p: p.get("user_id") == QQ["癸"] and a == "send_private_msg")
        mark = sim.mark()
        await sim.private(QQ["癸"], "最后的守护 6")
        await sim.wait_until(lambda: dropped and not sim.connected, WAIT, "the connection lost under the receipt")
        await connect(sim, bot)
        await t.director_told("10号 癸：最后的守护", since=mark)
        await sim.quiet(1.5)
        assert sum("已收到：最后的守护 6号 己" in m for m in sim.messages(pm("癸"))) == 1

        # a message OneBot keeps refusing
        sim.fail_when = lambda a, p: p.get("user_id") == QQ["戊"] and "通灵：" in str(p.get("message"))
        mark = sim.mark()
        await t.in_group("丁", "刀 13", "指杀")
        note = await t.director_told("未能送达", since=mark)
        assert "通灵：" in note and "寅" in note and str(QQ["戊"]) in note, note
        decide = await t.told("戊", "请在30分钟内决定", since=mark)
        assert not any(m.startswith("通灵：") for m in sim.messages(pm("戊"))), decide
        refused = [c for c in sim.calls if not c.ok and c.params.get("user_id") == QQ["戊"]]
        assert len(refused) >= 2 and refused[-1].at - refused[0].at >= 1.0  # refusals a retry apart
        sim.fail_when = None
        await t.say("戊", "放弃", "已收到：放弃")

        await sim.quiet(1.0)
        assert_outbox_delivered_exactly_once(bot.db, sim, given_up=1)
        assert sim.violations == []
        await sim.close()


@pytest.mark.slow
async def test_a_reply_never_waits_for_another_chats_unanswered_send(bots):
    """OneBot stops answering a chat's sends (and the bot would wait a minute for each): the
    director's commands are answered meanwhile, both the one that starts the retry of a message
    OneBot refused there and the one that queues a message there itself. Once the connection is
    renewed, the unanswered sends are found missing from the history and go out, once each."""
    gid = 810000006
    bot = bots(minute_seconds=2.0, env={"BANSHABOT_SEND_TIMEOUT": "60", "BANSHABOT_RETRY_SECONDS": "60"})
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={gid: Group("粽子六号群")}, history=True)
    t = Table(sim, gid)
    bot.start()
    async with asyncio.timeout(120):
        await connect(sim, bot)
        await t.to_night_one("回复测试", "粽子六号群")
        await sim.wait_for(("group", gid), "第1夜")

        # the seer's result is refused once: it waits for its retry (a minute away)
        refused = sim.fail(lambda a, p: p.get("user_id") == QQ["丙"] and "预言结果" in str(p.get("message")))
        await sim.private(QQ["丙"], "查 12")
        await sim.wait_until(lambda: refused, WAIT, "the seer's result refused")
        # from now on OneBot leaves the seer's next send unanswered; the director's next command tries
        # the result again at once, and its answer does not wait for that
        hung = sim.hang(lambda a, p: p.get("user_id") == QQ["丙"] and a == "send_private_msg")
        await t.director("发牌 蓝牌 乙")
        await sim.wait_until(lambda: hung, WAIT, "the result tried again and left unanswered")
        assert not any("预言结果" in m for m in sim.messages(pm("丙")))

        # a command that tells the crow, whose chat OneBot leaves unanswered too
        told = sim.hang(lambda a, p: p.get("user_id") == QQ["庚"] and a == "send_private_msg")
        mark = sim.mark()
        await t.director("代 庚 诽谤 4")
        await sim.wait_until(lambda: told, WAIT, "the crow's notice sent and left unanswered")
        assert not any(d.target == pm("庚") for d in sim.delivered[mark:])
        assert hung and not any("预言结果" in m for m in sim.messages(pm("丙")))  # the seer's still unanswered

        # the connection is renewed: both sends are looked up, found missing, and go out once
        await sim.close()
        await connect(sim, bot)
        result = await t.told("丙", "预言结果")
        assert "12号 丑" in result
        await t.told("庚", "诽谤")
        await sim.quiet(1.0)
        assert_outbox_delivered_exactly_once(bot.db, sim)
        assert sim.violations == []
        await sim.close()


# --- (d) chaos: a busy night through SIGKILLs and a dropped connection ---------------------------------------
class Chaos:
    """The players of a busy night while the bot dies under them: each action is sent until it is
    answered (a message lost with the bot is sent again, as a player would), and everyone keeps
    asking for 帮助 meanwhile. What the bot had sent but not yet recorded at each kill or drop is
    counted: those, and only those, may arrive twice."""

    def __init__(self, t: Table, bot: BotProcess):
        self.t, self.sim, self.bot = t, t.sim, bot
        self.in_flight = 0  # messages delivered but not recorded as sent when the bot died
        self.acknowledged: list[tuple[str, str]] = []  # (player, what the receipt said)
        self.noise_sent = 0

    async def act(self, name: str, text: str, answered: Callable[[str], bool], group: bool = False) -> str:
        while True:
            await self.sim.wait_until(lambda: self.sim.connected, 60, "the bot to be back")
            mark = self.sim.mark()
            try:
                if group:
                    await self.sim.group_message(self.t.group, QQ[name], text)
                else:
                    await self.sim.private(QQ[name], text)
                where = ("group", self.t.group) if group else pm(name)
                reply = await self.sim.wait_for(where, answered, 8.0, since=mark)
            except (AssertionError, RuntimeError, ConnectionClosed):
                continue  # the bot died with the message: sent again
            self.acknowledged.append((name, reply))
            return reply

    async def noise(self, players: list[str]) -> None:
        for n in itertools.count():
            if self.sim.connected:
                try:
                    await self.sim.private(QQ[players[n % len(players)]], "帮助")
                    self.noise_sent += 1
                except (RuntimeError, ConnectionClosed):
                    pass
            await asyncio.sleep(0.12)

    def count_in_flight(self) -> None:
        """The bot is dead: what OneBot got that the bot has not recorded as sent."""
        sent: dict = {}
        for row in outbox(self.bot.db):
            if row["sent"]:
                sent[row["target"]] = sent.get(row["target"], 0) + 1
        got: dict = {}
        for call in delivered_calls(self.sim):
            got[call["target"]] = got.get(call["target"], 0) + 1
        self.in_flight += sum(max(0, n - sent.get(target, 0)) for target, n in got.items())

    async def kill(self, down: float = 0.0) -> None:
        self.bot.kill()
        await self.sim.wait_until(lambda: not self.sim.connected, WAIT, "the connection to drop")
        self.count_in_flight()
        await asyncio.sleep(down)
        self.bot.start()
        await connect(self.sim, self.bot)

    async def drop(self) -> None:
        await self.sim.close()
        await asyncio.sleep(0.3)
        await connect(self.sim, self.bot)


@pytest.mark.slow
async def test_a_busy_night_through_sigkills_and_a_dropped_connection_loses_nothing(bots):
    """Three SIGKILLs and a dropped connection while the night's actions come in among a stream of
    帮助: no acknowledged action is lost, every stored message is delivered, each chat's messages
    arrive in order, and none twice beyond what was in flight when the bot died. The bot is down
    when the night's reminder falls due: it is sent late, saying how long is really left."""
    gid = 810000005
    bot = bots(minute_seconds=1.0, remind_before=[50], env={"BANSHABOT_SEND_TIMEOUT": "2"})
    sim = OneBotSim(SELF_ID, TOKEN, friends=set(QQ.values()), groups={gid: Group("粽子五号群")}, history=True)
    t = Table(sim, gid)
    chaos = Chaos(t, bot)
    bot.start()
    async with asyncio.timeout(170):
        await connect(sim, bot)
        await t.to_night_one("混乱测试", "粽子五号群")
        closed = time.monotonic()
        await sim.wait_for(("group", gid), "第1夜")
        noise = asyncio.get_running_loop().create_task(chaos.noise(["乙", "己", "壬", "寅", "丙"]))
        try:
            await asyncio.sleep(max(0.0, closed + 5 - time.monotonic()))
            # down from 关门 + 5 s to past + 10 s, when the night's reminder (50 of its 60 minutes ahead) falls due
            mark = sim.mark()
            await chaos.kill(down=max(0.0, closed + 11 - time.monotonic()))
            reminder = await t.told("庚", "提醒", timeout=WAIT, since=mark)
            left = int(reminder.split("还有")[1].split("分钟")[0])
            assert "诽谤" in reminder and left < 50, reminder  # late, and says so

            result = await chaos.act("丙", "查 4", lambda m: "预言结果" in m or "已经发动过" in m)
            kill = await chaos.act("丁", "刀 13", lambda m: "指杀" in m or "已经" in m, group=True)
            await chaos.kill()
            psychic = await t.told("戊", lambda m: m.startswith("通灵："), timeout=WAIT)
            await chaos.act("戊", "救 13", lambda m: "已收到" in m or "未执行" in m)
            await chaos.drop()
            await chaos.act("癸", "最后的守护 13", lambda m: "已收到" in m or "未执行" in m)
            await t.told("癸", "最后的守护：", timeout=WAIT)
            await chaos.kill()
            await chaos.act("癸", "放弃", lambda m: "已收到" in m or "未执行" in m)
            await chaos.act("庚", "诽谤 2", lambda m: "已收到" in m or "未执行" in m)
            draft = await t.director_told("开门公告草稿", timeout=30)
        finally:
            noise.cancel()
        assert "无人出局" in draft, draft  # the witch's save held through it all
        assert "4号 丁" in result and "13号 寅" in kill and "寅" in psychic

        # nothing acknowledged is lost: every action is in the log, once
        log = await t.director("日志", "种子")
        for line in ("3号 丙：预言 4", "4号 丁：杀人 13", "5号 戊：救药 13", "10号 癸：最后的守护 13", "10号 癸：放弃",
                     "7号 庚：诽谤 2"):
            assert log.count(line) == 1, (line, log)

        # every stored message arrived, in order per chat; twice only as many as were in flight
        await sim.quiet(1.5)
        rows = outbox(bot.db)
        assert not [r for r in rows if not r["sent"] and not r["given_up"]]
        stored, got = per_target(rows), per_target(delivered_calls(sim))
        duplicates = 0
        for target, wanted in stored.items():
            delivered = list(got.get(target, []))
            at = 0
            for item in wanted:  # each stored one arrives, in order, maybe also again
                at = delivered.index(item, at) + 1
            duplicates += len(delivered) - len(wanted)
        assert set(got) <= set(stored)
        print(f"chaos: {chaos.noise_sent} 帮助 sent, {duplicates} duplicates, {chaos.in_flight} in flight at the kills")
        assert duplicates <= chaos.in_flight
        assert sim.violations == []
        await sim.close()


# --- (e) in process: what a time limit's job runs on ------------------------------------------------------
async def test_a_limit_scheduled_in_a_transaction_runs_on_the_connection_itself(banshabot):
    """Time limits are scheduled inside the transaction that stores their command. Their job must
    run on the database connection, not on that finished transaction: its statements would pass the
    connection's lock and interleave with a handler's (a SeenMessage.exists() that counts the job's
    UPDATE takes a player's new message for a repeat: ignored, no reply, nothing stored)."""
    from tortoise.connection import get_connection
    from tortoise.transactions import in_transaction

    used = asyncio.get_running_loop().create_future()

    async def job() -> None:
        used.set_result(get_connection("default"))

    async with in_transaction() as transaction:
        banshabot.AsyncScheduler().at("test:in-transaction", datetime.now(timezone.utc), job)
    connection = await asyncio.wait_for(used, WAIT)
    assert connection is not transaction and connection is get_connection("default"), connection
