"""Storage on every database the bot supports: a SQLite file and PostgreSQL (tests/pg_cluster.py).

They run on a SQLite file here, and on PostgreSQL from tests/test_on_postgresql.py.

The service is driven directly, on a database of its own (an isolated tortoise context, so the
in-memory database of the NoneBot tests is untouched): the migrations, a game from roster to night,
what it sends and the marks of what was sent, a restart that rebuilds the game and resumes sending
in order, events handled once across the restart, directors found through their own rows, a message
given up, the open time limits, old event keys forgotten, a database made before the directors'
table upgraded with its games' directors.
"""
from __future__ import annotations

import asyncio
import contextvars
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from tortoise.context import TortoiseContext
from tortoise.migrations.executor import MigrationExecutor, MigrationTarget

from conftest import RecordingScheduler
from engine import Act, CloseDay
from service import director, handling
from service.config import Config
from service.db import sqlite_path, tortoise_config
from service.deadlines import OpenLimit
from service.games import Service
from service.models import CommandRow, DeadlineRow, GameDirectorRow, GameRow, OutboxRow, SeenMessage
from service.chat_history import History
from service.outbox import Refused


DIRECTOR = "70000"
ROSTER = [("果果", "狼人"), ("橘子", "狼人"), ("香蕉", "狼人"), ("葡萄", "感染白痴"), ("西瓜", "预言家"), ("柠檬", "女巫"),
          ("草莓", "乌鸦"), ("芒果", "锈盾守卫"), ("桃子", "混血儿"), ("菠萝", "村民"), ("樱桃", "村民"), ("荔枝", "村民"), ("龙眼", "村民")]
QQ = {name: str(71000 + i) for i, (name, _) in enumerate(ROSTER, 1)}


@pytest.fixture
async def database(database_url):
    """The database for this test, migrated, in a tortoise context of its own."""
    async with TortoiseContext() as context:
        config = tortoise_config(database_url)
        await context.init(config=config)
        await MigrationExecutor(context.db("default"), config["apps"]).migrate()
        yield database_url


BOT = "99999"


class OneBot:
    """Records what the service sends; refuses to a chosen chat. Its clock is `behind` seconds behind
    the bot's; it keeps each chat's history as NapCat gives it (`get_friend_msg_history`)."""

    def __init__(self, behind: float = 0.0) -> None:
        self.sent: list[tuple[str, str]] = []
        self.refuse: set[int] = set()
        self.behind = behind
        self.times: list[int] = []  # OneBot's time of each message sent

    async def call(self, action: str, params: dict) -> dict:
        await asyncio.sleep(0)
        if action == "get_friend_msg_history":
            return {"messages": [
                {"message_id": i, "time": at, "user_id": BOT, "sender": {"user_id": BOT},
                 "message": [{"type": "text", "data": {"text": text}}]}
                for i, ((who, text), at) in enumerate(zip(self.sent, self.times), 1) if who == str(params["user_id"])]}
        to = params.get("user_id") or params.get("group_id")
        if to in self.refuse:
            raise Refused("ActionFailed: refused")
        self.sent.append((str(to), params.get("text", action)))
        self.times.append(int(time.time() - self.behind))
        return {"message_id": len(self.sent)}

    def to(self, qq: str) -> list[str]:
        return [text for who, text in self.sent if who == qq]


@asynccontextmanager
async def running(onebot: OneBot | None = None, *, attempts: int = 5, retry: float = 30.0, handed: Path | None = None):
    """A service on the test's database, opened as at start-up, OneBot connected if given; `handed`:
    the file the ids of actions handed to OneBot are written to (as the bot keeps it)."""
    config = Config(banshabot_send_rate=0, banshabot_send_attempts=attempts, banshabot_retry_seconds=retry)
    service = Service(config, RecordingScheduler(), lambda: datetime.now(timezone.utc), superusers={DIRECTOR})
    if handed is not None:
        service.outbox.handed.open(handed)
    await service.open()
    if onebot is not None:
        await service.outbox.flush(onebot.call)
    try:
        yield service
    finally:
        await service.outbox.marks.drain()
        service.outbox.forget()
        service.outbox.handed.close()


async def started_game(service: Service) -> int:
    row = await service.create(DIRECTOR, "M131", "存储测试")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, QQ[name]) for name, _ in ROSTER])
    await service.assign(t, ROSTER)
    await service.start(t)
    await service.submit(t, Act(by="桃子", skill="认亲", target="西瓜"), source="test")
    await service.submit(t, CloseDay(), source="test")
    return row.id


async def test_a_game_is_stored_sent_and_rebuilt_after_a_restart(database):
    onebot = OneBot()
    async with running(onebot) as service:
        game = await started_game(service)
        t = await service.table(game)
        handling.begin(handling.event_key("1", "private", QQ["西瓜"], 501), ("private", QQ["西瓜"]))
        await service.submit(t, Act(by="西瓜", skill="预言", target="1"), source=f"qq:{QQ['西瓜']}")
        assert onebot.to(QQ["西瓜"])[-1] == "预言结果：1号 果果 是<非村民阵营>"
        briefs = onebot.to(QQ["果果"])
        assert briefs[0].startswith("【[M131]粽子】你的角色：1号 果果")
    assert not await OutboxRow.filter(sent_at=None).exists()  # every mark stored
    assert await SeenMessage.exists(key=handling.event_key("1", "private", QQ["西瓜"], 501))

    # a restart: the game is rebuilt from its log, the same event is still known as handled (also
    # where the bot reads the keys from its SQLite file directly)
    async with running(OneBot()) as service:
        t = await service.table(game)
        assert t.game.night.actions["预言"][1] == "果果" and t.next_seq == await CommandRow.filter(game_id=game).count()
        assert not await service.handling(handling.event_key("1", "private", QQ["西瓜"], 501))
        service.seen.forget()
        service.seen.read_from(sqlite_path(database))
        assert not await service.handling(handling.event_key("1", "private", QQ["西瓜"], 501))
        assert await service.handling(handling.event_key("1", "private", QQ["西瓜"], 502))
        service.seen.read_from(None)
        outcome = await service.submit(t, Act(by="草莓", skill="诽谤", target="4"), source="test")
        assert outcome.ok and t.next_seq == await CommandRow.filter(game_id=game).count()


async def test_what_waits_through_a_restart_goes_out_in_order_before_what_comes_after(database):
    onebot = OneBot()
    async with running() as service:  # OneBot is not there: everything waits
        game = await started_game(service)
        t = await service.table(game)
        await service.submit(t, Act(by="西瓜", skill="预言", target="2"), source="test")
    waiting = await OutboxRow.filter(sent_at=None, given_up_at=None).count()
    assert waiting > 20
    async with running() as service:  # started again; something new is queued before OneBot connects
        await service.queue(("private", QQ["西瓜"]), "后来的消息")
        await service.delivered()
        await service.outbox.flush(onebot.call)
    assert onebot.to(QQ["西瓜"])[-2:] == ["预言结果：2号 橘子 是<非村民阵营>", "后来的消息"]
    assert len(onebot.sent) == waiting + 1


async def test_directors_are_found_through_their_own_rows(database):
    async with running() as service:
        first = await started_game(service)
        second = (await service.create("70001", "154", "")).id
        t = await service.table(second)
        t.row.directors = [*t.row.directors, DIRECTOR]  # 协助
        await t.row.save()
        assert {(r.game_id, r.qq) for r in await GameDirectorRow.all()} == {(first, DIRECTOR), (second, "70001"), (second, DIRECTOR)}
        assert [r.id for r in await director._mine(DIRECTOR)] == [second, first]
        assert await director.is_director(service, "70001") and not await director.is_director(service, QQ["西瓜"])
        t.row.status = "over"
        await service.save_row(t.row)
        service.live.pop(second)
        # a co-director of a finished game is still one (its 日志, its corrections), unless he now plays
        assert await director.is_director(service, "70001")
        assert (await director._current(service, "70001", [], None)).row.id == second
        service.players["70001"] = [first]
        assert not await director.is_director(service, "70001")


async def test_a_message_refused_too_often_is_given_up_and_stored_so(database):
    onebot = OneBot()
    onebot.refuse.add(int(QQ["菠萝"]))
    async with running(onebot, attempts=2, retry=0.05) as service:
        await started_game(service)
        for _ in range(200):
            if not await OutboxRow.filter(sent_at=None, given_up_at=None).exists():
                break
            await asyncio.sleep(0.05)
            await service.outbox.flush(onebot.call)
        notes = [text for text in onebot.to(DIRECTOR) if "未能送达" in text]
    given_up = await OutboxRow.filter(given_up_at__not_isnull=True).order_by("id")
    assert given_up and {r.params["user_id"] for r in given_up} == {int(QQ["菠萝"])}
    assert given_up[0].params["text"].startswith("【[M131]粽子】你的角色：10号 菠萝")
    assert len(notes) == len(given_up) and all(QQ["菠萝"] in note for note in notes)
    assert not await OutboxRow.filter(sent_at=None, given_up_at=None).exists()


async def test_open_time_limits_are_restored_and_old_event_keys_forgotten(database):
    async with running(OneBot()) as service:
        game = await started_game(service)
    open_limits = await DeadlineRow.filter(game_id=game, done=False).count()
    assert open_limits >= 4
    async with running() as service:
        jobs = service.scheduler.jobs
        assert len([j for j in jobs if j.startswith("deadline:")]) == open_limits
    await SeenMessage.create(key="old")
    await SeenMessage.filter(key="old").update(at=datetime.now(timezone.utc) - timedelta(days=handling.KEEP_DAYS + 1))
    await SeenMessage.create(key="new")
    await handling.expire(datetime.now(timezone.utc))
    assert {s.key async for s in SeenMessage.all()} == {"new"}
    assert await GameRow.filter(status="running").count() == 1



def _indexed_columns(rows: list[dict]) -> set[tuple[str, str]]:
    """(table, column) of every single-column index, from sqlite_master or pg_indexes."""
    found = set()
    for row in rows:
        sql = row["sql"] or ""
        columns = sql[sql.rfind("(") + 1:sql.rfind(")")].replace('"', "").split(",")
        if len(columns) == 1:
            found.add((row["tbl"], columns[0].strip()))
    return found


async def test_a_database_of_the_second_migration_gets_its_games_directors_and_the_indexes(database_url):
    """Games stored before directors had rows of their own (migration 0002) are found through those
    rows once the bot upgrades the database (0003): every director and co-director, once each."""
    async with TortoiseContext() as context:
        config = tortoise_config(database_url)
        await context.init(config=config)
        db = context.db("default")
        await MigrationExecutor(db, config["apps"]).migrate([MigrationTarget("models", "0002_deadline_waits_for")])
        for number, status, directors in ((1, "over", '["70000"]'), (2, "running", '["70001","70000","70001"]'),
                                          (3, "roster", '["70002"]')):
            await db.execute_script(
                'INSERT INTO "game" ("id", "ruleset", "title", "seed", "status", "directors", "created_at") '
                f"VALUES ({number}, 'M131', '旧局', 7, '{status}', '{directors}', CURRENT_TIMESTAMP)")
        await MigrationExecutor(db, config["apps"]).migrate()

        assert sorted((r.game_id, r.qq) for r in await GameDirectorRow.all()) == [
            (1, "70000"), (2, "70000"), (2, "70001"), (3, "70002")]
        assert [r.id for r in await director._mine("70000")] == [2, 1]
        assert [r.id for r in await director._mine("70001")] == [2]
        if db.capabilities.dialect == "postgres":
            rows = await db.execute_query_dict('SELECT tablename AS tbl, indexdef AS sql FROM pg_indexes')
            partial = [r["sql"] for r in rows if "outbox_waiting" in r["sql"]]
        else:
            rows = await db.execute_query_dict("SELECT tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'index'")
            partial = [r["sql"] for r in rows if r["sql"] and "outbox_waiting" in r["sql"]]
        assert {("game_director", "qq"), ("seat", "qq"), ("deadline", "game_id"), ("deadline", "waits_for_id"),
                ("deadline", "done"), ("game", "status"), ("pool_group", "game_id"), ("team", "group_id"),
                ("seen_message", "at")} <= _indexed_columns(rows)
        assert partial and "sent_at" in partial[0] and "given_up_at" in partial[0]


async def test_after_a_crash_whatever_was_handed_to_onebot_is_looked_up_before_it_is_sent_again(database, tmp_path):
    """A send OneBot answered at once, whose mark the crash kept from being stored, is looked up
    in the chat's history and not sent again; what was never handed to OneBot is sent without a
    look."""
    handed = tmp_path / "sending"
    onebot = OneBot()
    async with running(onebot, handed=handed) as service:
        quick = await service.queue(("private", QQ["西瓜"]), "预言结果：1号 果果 是<非村民阵营>")
        await service.delivered()
        assert onebot.to(QQ["西瓜"]) == ["预言结果：1号 果果 是<非村民阵营>"]
        service.outbox.disconnect()
        await service.queue(("private", QQ["西瓜"]), "后来的消息")  # stored, never handed to OneBot
        await service.delivered()
    # the crash: the quick send's mark was still waiting for its batch
    await OutboxRow.filter(id=quick.id).update(sent_at=None, attempts=0, last_error="")
    looked: list[int] = []

    async def history(row: OutboxRow, anchor: str | None) -> bool:
        looked.append(row.id)
        return row.params["text"] in onebot.to(str(row.params["user_id"]))

    async with running(handed=handed) as service:
        service.outbox.confirm = history
        await service.outbox.flush(onebot.call)
    assert looked == [quick.id]
    assert onebot.to(QQ["西瓜"]) == ["预言结果：1号 果果 是<非村民阵营>", "后来的消息"]
    assert not await OutboxRow.filter(sent_at=None).exists()


async def test_a_handling_waits_for_no_other_chats_unanswered_send(database):
    """OneBot never answers one chat's sends: a handling that queued a message there and one for the
    sender hands both over and is done while that send is still unanswered (and the sender's went
    out); nothing it waited for stands behind the unanswered one."""
    class Hanging(OneBot):
        def __init__(self) -> None:
            super().__init__()
            self.hung: list[str] = []
            self.answer = asyncio.Event()

        async def call(self, action: str, params: dict) -> dict:
            if params.get("user_id") == int(QQ["柠檬"]):
                self.hung.append(params["text"])
                await self.answer.wait()
            return await super().call(action, params)

    onebot = Hanging()
    async with running(onebot) as service:
        service.outbox.timeout = 3600  # the unanswered send stays unanswered for the whole test

        async def handle(text: str) -> None:
            handling.begin(None, ("private", DIRECTOR))
            await service.queue(("private", QQ["柠檬"]), text)
            await service.queue(("private", DIRECTOR), f"已执行：{text}")
            await service.delivered()

        first = asyncio.create_task(handle("通灵：第一条"))
        await asyncio.wait({first}, timeout=10)  # (a bound on the test, not a speed asked of the bot)
        assert first.done() and onebot.hung == ["通灵：第一条"], "a handling waited for an unanswered send"
        second = asyncio.create_task(handle("通灵：第二条"))  # behind the unanswered send in that chat
        await asyncio.wait({second}, timeout=10)
        assert second.done(), "a handling waited behind an unanswered send"
        assert onebot.hung == ["通灵：第一条"] and not onebot.answer.is_set()
        assert onebot.to(DIRECTOR) == ["已执行：通灵：第一条", "已执行：通灵：第二条"]
        onebot.answer.set()  # OneBot answers at last: the chat goes on, in order
        for _ in range(100):
            if len(onebot.to(QQ["柠檬"])) == 2:
                break
            await asyncio.sleep(0.01)
        assert onebot.to(QQ["柠檬"]) == ["通灵：第一条", "通灵：第二条"]


async def test_sending_goes_on_where_the_file_of_what_was_handed_over_cannot_be_written(database, tmp_path):
    onebot = OneBot()
    async with running(onebot, handed=tmp_path / "gone" / "sending") as service:  # (a full disk, say)
        await service.queue(("private", QQ["西瓜"]), "照常发送")
        await service.delivered()
    assert onebot.to(QQ["西瓜"]) == ["照常发送"]


async def test_after_a_crash_the_second_of_two_equal_messages_is_sent_not_taken_for_the_first(database, tmp_path):
    """Two equal messages a second apart: the first went out; the bot crashed as it handed the second to
    OneBot, which never got it. The chat's history shows the text once, and that message is the first's
    (the id OneBot gave it): the second is sent."""
    handed = tmp_path / "sending"
    onebot = OneBot()
    text = "第1夜：你可以发动<预言>（发送“预言 座位号”），关门后1小时内有效；不发动请发送“放弃”。"
    async with running(onebot, handed=handed) as service:
        await service.queue(("private", QQ["西瓜"]), text)
        await service.delivered()
        service.outbox.disconnect()
        second = await service.queue(("private", QQ["西瓜"]), text)
        await service.delivered()
    handed.write_text(f"{second.id}\n")  # noted as handed over: the crash came before OneBot got it
    async with running(handed=handed) as service:
        service.outbox.confirm = History(onebot.call, lambda: BOT).delivered
        await service.outbox.flush(onebot.call)
    assert onebot.to(QQ["西瓜"]) == [text, text]
    assert not await OutboxRow.filter(sent_at=None).exists()


async def test_a_message_that_did_arrive_is_found_on_onebots_clock_not_the_bots(database, tmp_path):
    """The bot's clock runs 10 s ahead of OneBot's. A send OneBot took at once, whose mark the crash kept
    from being stored, is found in the history by OneBot's own times, and not sent again."""
    handed = tmp_path / "sending"
    onebot = OneBot(behind=10)
    async with running(onebot, handed=handed) as service:
        quick = await service.queue(("private", QQ["柠檬"]), "通灵：今晚 10号 菠萝 被指杀")
        await service.delivered()
    await OutboxRow.filter(id=quick.id).update(sent_at=None, attempts=0, last_error="", message_id=None)
    async with running(handed=handed) as service:
        history = History(onebot.call, lambda: BOT)
        history.onebot_time(time.time() - 10)  # as every event OneBot sends says
        service.outbox.confirm = history.delivered
        await service.outbox.flush(onebot.call)
    assert onebot.to(QQ["柠檬"]) == ["通灵：今晚 10号 菠萝 被指杀"]
    assert not await OutboxRow.filter(sent_at=None).exists()
    assert (await OutboxRow.get(id=quick.id)).message_id == "1"  # the id found in the history


async def test_help_reads_the_open_time_limits_from_the_file_as_stored(database):
    """`帮助` reads its game's open time limits straight from the SQLite file (not through the database's
    thread): the same limits, with the same times, as the stored rows."""
    path = sqlite_path(database)
    if path is None:
        pytest.skip("a database that is not a SQLite file is read through tortoise only")
    from service import player

    async with running(OneBot()) as service:
        game = await started_game(service)
        t = await service.table(game)
        through_tortoise = player.help_text(t, "西瓜", await DeadlineRow.filter(game_id=game, done=False).order_by("id"))
        through_service = await service.open_deadlines(t)
        service.seen.read_from(path)
        try:
            direct = await service.open_deadlines(t)
        finally:
            service.seen.read_from(None)
        stored = [tuple(getattr(d, name) for name in OpenLimit._fields)
                  for d in await DeadlineRow.filter(game_id=game, done=False).order_by("id")]
        assert [tuple(d) for d in direct] == [tuple(d) for d in through_service] == stored
        assert player.help_text(t, "西瓜", direct) == through_tortoise and "截止 " in through_tortoise


async def test_jobs_written_together_keep_their_own_outcomes_and_ids(database):
    """Jobs written at the same moment go in one transaction: each gets the ids of its own rows (rows
    of one statement, sent together, in their order), and one that fails (its event's key stored
    already) is undone alone while the others are stored."""
    from tortoise.exceptions import IntegrityError

    from service.writer import Job, Writer

    writer = Writer(contextvars.copy_context)
    now = datetime.now(timezone.utc)

    def job(key: str, texts: list[str]) -> Job:
        j = Job()
        j.insert(SeenMessage, {"key": key, "time": 1, "at": now}, returns=False)
        for text in texts:
            j.insert(OutboxRow, {"game_id": None, "action": "send_private_msg", "params": {"user_id": 1, "message": text},
                                 "created_at": now, "attempts": 0, "last_error": "", "account": None})
        return j

    try:
        first = await writer.write(job("a", ["一"]))
        outcomes = await asyncio.gather(writer.write(job("b", ["二", "三", "四"])), writer.write(job("a", ["重复"])),
                                        writer.write(job("c", ["五"])), return_exceptions=True)
    finally:
        writer.close()
    assert isinstance(outcomes[1], IntegrityError)
    stored = {row.id: row.params["message"] for row in await OutboxRow.all()}
    assert sorted(stored.values()) == sorted(["一", "二", "三", "四", "五"])
    assert [stored[ids[0]] for ids in outcomes[0][1:]] == ["二", "三", "四"]
    assert [stored[ids[0]] for ids in first[1:] + outcomes[2][1:]] == ["一", "五"]
    assert sorted(await SeenMessage.all().values_list("key", flat=True)) == ["a", "b", "c"]


async def test_a_write_waits_while_another_process_holds_the_file(database):
    """The writer writes a SQLite file on a connection of its own that never waits for a lock: where
    something else holds the file's write lock, the job is stored once it is let go, not refused."""
    path = sqlite_path(database)
    if path is None:
        pytest.skip("only a SQLite file is written on the writer's own connection")
    import sqlite3

    from service.writer import Job, Writer

    writer = Writer(contextvars.copy_context)
    job = Job()
    job.insert(SeenMessage, {"key": "held", "time": 1, "at": datetime.now(timezone.utc)}, returns=False)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        writing = asyncio.ensure_future(writer.write(job))
        await asyncio.sleep(0.3)
        assert not writing.done()
        other.execute("COMMIT")
        await asyncio.wait_for(writing, 10)
        assert writer.own is not None  # the file is the writer's own connection's, when free
    finally:
        other.close()
        writer.close()
    assert await SeenMessage.filter(key="held").exists()


async def test_a_delivery_mark_goes_with_the_next_write_rather_than_alone(database, monkeypatch):
    """A send's mark waits a moment for company (`Marks.GATHER`): the next batch the writer begins,
    a message being handled, takes it along, and it is stored with that."""
    from service.outbox import Marks, Outbox
    from service.writer import Job, Writer

    monkeypatch.setattr(Marks, "GATHER", 30.0)  # alone, it would wait half a minute
    writer = Writer(contextvars.copy_context)
    outbox = Outbox(lambda: datetime.now(timezone.utc), writer)
    now = datetime.now(timezone.utc)
    queued = Job()
    queued.insert(OutboxRow, {"game_id": None, "action": "send_private_msg", "params": {"user_id": 1, "message": "一"},
                              "created_at": now, "attempts": 0, "last_error": "", "account": None})
    try:
        row_id = (await writer.write(queued))[0][0]

        async def call(action: str, params: dict) -> dict:
            return {"message_id": 5}

        outbox.connect(call)
        await outbox.send([await OutboxRow.get(id=row_id)])
        assert await OutboxRow.filter(id=row_id, sent_at=None).exists()  # sent; its mark waits for company
        handled = Job()
        handled.insert(SeenMessage, {"key": "next", "time": 1, "at": now}, returns=False)
        await writer.write(handled)
        stored = await OutboxRow.get(id=row_id)
        assert stored.sent_at is not None and stored.message_id == "5"
        await asyncio.wait_for(outbox.marks.drain(), 1)
    finally:
        outbox.forget()
        writer.close()


async def test_a_postgresql_session_given_back_to_the_pool_is_kept_as_it_is(database):
    """asyncpg's pool would reset every connection given back to it, a round trip to the server after
    each query: the bot leaves nothing in a session to reset, so its pool keeps the session as it is
    (a setting made outside a transaction stays), and still rolls an open transaction back."""
    from tortoise import Tortoise

    connection = Tortoise.get_connection("default")
    if connection.capabilities.dialect != "postgres":
        pytest.skip("a pool of connections is PostgreSQL's")
    pool = connection._pool
    async with pool.acquire() as db:
        await db.execute("SET application_name = 'kept'")
        await db.execute("BEGIN")
        await db.execute("INSERT INTO seen_message (key, time, at) VALUES ('left open', 1, now())")
        ident = await db.fetchval("SELECT pg_backend_pid()")
    for _ in range(pool.get_size()):  # the same connection, wherever the pool has put it
        async with pool.acquire() as db:
            if await db.fetchval("SELECT pg_backend_pid()") == ident:
                assert await db.fetchval("SHOW application_name") == "kept"
                break
    else:
        pytest.fail("the connection given back was not kept in the pool")
    assert not await SeenMessage.filter(key="left open").exists()


async def test_alike_jobs_written_together_get_their_own_rows_in_order(database):
    """Messages of one kind handled at the same moment are written statement by statement for all of
    them at once (on PostgreSQL): each job still gets its own rows' ids, a row referring to another of
    its job gets that one's, and each table's rows are numbered in the order of the jobs."""
    from service.writer import Job, Writer

    writer = Writer(contextvars.copy_context)
    now = datetime.now(timezone.utc)
    game = await GameRow.create(ruleset="M131", title="同时", seed=1)

    def job(n: int) -> Job:
        j = Job()
        j.insert(SeenMessage, {"key": f"alike{n}", "time": n, "at": now}, returns=False)
        told = [j.insert(OutboxRow, {"game_id": game.id, "action": "send_private_msg",
                                     "params": {"user_id": n, "message": f"{n}-{part}"}, "created_at": now,
                                     "attempts": 0, "last_error": "", "account": None}) for part in (1, 2)]
        j.insert(DeadlineRow, {"game_id": game.id, "key": f"k{n}", "what": "杀人", "who": [], "anchor": "now",
                               "minutes": 5, "due_at": None, "reminded": [], "done": False, "waits_for_id": told[1]})
        return j

    try:
        outcomes = await asyncio.gather(*(writer.write(job(n)) for n in range(5)))
    finally:
        writer.close()
    texts = {row.id: row.params["message"] for row in await OutboxRow.all()}
    assert [[texts[ids[0]] for ids in outcome[1:3]] for outcome in outcomes] == [[f"{n}-1", f"{n}-2"] for n in range(5)]
    assert sorted(texts) == [ids[0] for outcome in outcomes for ids in outcome[1:3]]  # numbered in the jobs' order
    limits = {d.key: (d.id, d.waits_for_id) for d in await DeadlineRow.all()}
    assert [limits[f"k{n}"] for n in range(5)] == [(outcome[3][0], outcome[2][0]) for outcome in outcomes]
    assert sorted(limits[f"k{n}"][0] for n in range(5)) == [limits[f"k{n}"][0] for n in range(5)]


def test_the_migrations_lock_needs_no_connection_of_the_pool(database_url):
    """Migrations run under a PostgreSQL advisory lock, so processes started together take turns (service/db.py);
    the lock is held on a connection of its own, so a pool of one connection (`?maxsize=1`) still starts, where it
    waited for itself forever when the lock took the pool's one connection. In a process of its own: the bot's
    database is this one's tortoise global already."""
    if not database_url.startswith("postgres"):
        pytest.skip("the advisory lock and the pool are PostgreSQL's")
    url = database_url + ("&" if "?" in database_url else "?") + "maxsize=1"
    opens = ("import asyncio\nfrom service.db import close_database, open_database\nfrom service.models import GameRow\n"
             "async def main():\n    await open_database(URL)\n    print('games', await GameRow.all().count())\n"
             "    await close_database()\nasyncio.run(main())\n").replace("URL", repr(url))
    proc = subprocess.run([sys.executable, "-c", opens], cwd=Path(__file__).resolve().parents[1], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "games 0", proc.stdout + proc.stderr
