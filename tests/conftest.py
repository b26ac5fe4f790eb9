"""nonebug set-up for the bot tests (tests/test_bot_*.py).

One NoneBot for the whole session, with the OneBot v11 adapter and the banshabot plugin loaded
before its start-up hooks run (they open the in-memory database and migrate it). Every async test
and fixture runs in the one session event loop (pyproject.toml says so, and the collection hook
below makes sure), otherwise the in-memory database would vanish between tests.

Between tests every table is emptied and the Service forgets the games it holds in memory. Time
limits are handed to a recording scheduler instead of APScheduler, and the service's clock is fixed,
so deadline texts are exact and nothing fires on its own during a test.
"""
from __future__ import annotations

import os
from datetime import datetime, timezone

import nonebot
import pytest
from nonebug import NONEBOT_INIT_KWARGS
from pytest_asyncio import is_async_test

# 2026-12-01 12:00 UTC = 12-01 20:00 in China, where every time the bot shows is written
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def pytest_configure(config: pytest.Config) -> None:
    cluster = os.environ.get("BANSHABOT_TEST_CLUSTER")
    if cluster:
        from pg_cluster import new_database
    config.stash[NONEBOT_INIT_KWARGS] = {
        "driver": "~fastapi",
        "superusers": {"10000"},
        # tortoise's models work with one kind of database per process: on a PostgreSQL run, the
        # bot's own database is one too
        "banshabot_database_url": new_database(cluster) if cluster else "sqlite://:memory:",
        # the outbox retry job must not fire on its own in the middle of a test: tests call flush()
        "banshabot_retry_seconds": 3600,
        # the calls a test declares come at once, not spread out as QQ's limits want
        "banshabot_send_rate": 0,
        "log_level": "WARNING",
    }


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # the same as asyncio_default_test_loop_scope = "session" in pyproject.toml, kept here too so
    # the bot tests cannot silently get a loop of their own
    marker = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        own = [m for m in item.iter_markers("asyncio") if "loop_scope" in m.kwargs]
        if is_async_test(item) and not own:
            item.add_marker(marker, append=False)


def _calls_in_order_per_chat() -> None:
    """nonebug checks OneBot calls against the declared ones in one order. The bot sends to each
    chat in order but to different chats side by side (service/outbox.py), so a call is matched
    with the first call still declared for its chat: each chat's calls keep their order exactly. A
    call declared for any chat (a test's wildcard target) takes a call its own chat does not expect."""
    from nonebug.mixin.call_api import ApiContext
    from nonebug.mixin.call_api.model import Api

    from service.outbox import chat_of

    original = ApiContext.got_call_api

    def wild(model) -> bool:
        return not any(isinstance(model.data.get(k), (int, str)) for k in ("user_id", "group_id", "flag"))

    def got_call_api(self, adapter, api, **data):
        waiting = self.wait_list.queue
        chat = chat_of(api, data)
        declared = [(i, m) for i, m in enumerate(waiting) if isinstance(m, Api)]
        chosen = next((i for i, m in declared if not wild(m) and chat_of(m.name, m.data) == chat), None)
        if chosen is None or (waiting[chosen].name, waiting[chosen].data) != (api, data):
            chosen = next((i for i, m in declared if wild(m) and (m.name, m.data) == (api, data)), chosen)
        if chosen:
            model = waiting[chosen]
            del waiting[chosen]
            waiting.appendleft(model)
        return original(self, adapter, api, **data)

    ApiContext.got_call_api = got_call_api


@pytest.fixture(scope="session", autouse=True)
async def after_nonebot_init(after_nonebot_init: None) -> None:
    """Before nonebug starts NoneBot's lifespan: the adapter and the plugin, so its start-up runs."""
    from nonebot.adapters.onebot.v11 import Adapter

    driver = nonebot.get_driver()
    driver.register_adapter(Adapter)
    nonebot.load_plugin("plugins.banshabot")
    _calls_in_order_per_chat()
    # every handling waits until what it sent is recorded; a test has no other messages whose
    # marks would be worth waiting for to write together
    from service.outbox import Marks

    Marks.GATHER = 0.0


STARTUP = {}


@pytest.fixture(scope="session")
async def banshabot(nonebug_init: None):
    """The started plugin's runtime module (service, outbox, flush).

    The plugin's start-up opened the database; its handlers run in other tasks and reach it through
    tortoise's global fallback, which test_bot_director.py's
    test_handlers_reach_the_database_opened_at_startup checks with what is recorded here.
    """
    import tortoise.context

    from plugins.banshabot import runtime

    STARTUP["global_context"] = tortoise.context._global_context is not None
    yield runtime


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster for the session (tests/pg_cluster.py). Where none can be
    made the PostgreSQL tests are skipped, unless BANSHABOT_TEST_POSTGRES=require (CI) says they
    must run."""
    from pg_cluster import Cluster

    why = Cluster.available()
    if why:
        if os.environ.get("BANSHABOT_TEST_POSTGRES") == "require":
            pytest.fail(f"PostgreSQL is required for these tests: {why}")
        pytest.skip(f"no PostgreSQL here: {why}")
    cluster = Cluster()
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture
def database_url(tmp_path) -> str:
    """A fresh database: a SQLite file; a new PostgreSQL database where BANSHABOT_TEST_CLUSTER names
    a cluster (tests/test_storage.py runs itself once more that way: tortoise's models cannot work
    with two kinds of database in one process)."""
    cluster = os.environ.get("BANSHABOT_TEST_CLUSTER")
    if cluster:
        from pg_cluster import new_database

        return new_database(cluster)
    return f"sqlite://{tmp_path / 'banshabot.sqlite3'}"


class RecordingScheduler:
    """Stands in for APScheduler: remembers what would run when; a test may run a job itself."""

    def __init__(self) -> None:
        self.jobs: dict[str, tuple[datetime, object]] = {}

    def at(self, job_id, when, job) -> None:
        self.jobs[job_id] = (when, job)

    def cancel(self, job_id) -> None:
        self.jobs.pop(job_id, None)

    async def run(self, job_id: str) -> None:
        _, job = self.jobs.pop(job_id)
        await job()


async def _empty_tables() -> None:
    from service.models import (
        CommandRow,
        DeadlineRow,
        DeskTokenRow,
        GameDirectorRow,
        GameRow,
        OutboxRow,
        PoolGroupRow,
        RevealRow,
        RulePostRow,
        SeatRow,
        SeenMessage,
        TeamRow,
    )

    models = (OutboxRow, DeadlineRow, CommandRow, TeamRow, PoolGroupRow, SeatRow, SeenMessage, GameDirectorRow, DeskTokenRow,
              RevealRow, GameRow, RulePostRow)
    conn = GameRow._meta.db
    if conn.capabilities.dialect == "postgres":  # game numbers (#1) start again at 1 in every test
        tables = ", ".join(f'"{model._meta.db_table}"' for model in models)
        await conn.execute_script(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        return
    for model in models:
        await model.all().delete()
    try:
        await conn.execute_script("DELETE FROM sqlite_sequence")
    except Exception:  # no AUTOINCREMENT table yet
        pass


class ConnectFlushes:
    """Watches the outbox flush the plugin runs when a bot connects (runtime._connected).

    It runs in NoneBot's background task group, outside the test's sight: `connect` waits for it,
    and a failure in it (an OneBot call the test did not expect) fails the test instead of
    silently cancelling NoneBot's lifespan."""

    def __init__(self) -> None:
        self.done = 0
        self.errors: list[BaseException] = []


CONNECT_FLUSHES = ConnectFlushes()


@pytest.fixture
async def clean(banshabot, monkeypatch):
    """Empty database, empty in-memory game cache, fixed clock, recording scheduler.

    The bot test modules use it for every test (`pytestmark`); it yields the recording scheduler."""
    service = banshabot.service
    await _empty_tables()
    service.forget()
    scheduler = RecordingScheduler()
    monkeypatch.setattr(service, "scheduler", scheduler)
    monkeypatch.setattr(service, "now", lambda: NOW)

    original = banshabot.flush

    async def watched_flush(*account: str) -> None:  # only the on-connect hook looks `flush` up by name
        try:
            await original(*account)
        except BaseException as exc:
            CONNECT_FLUSHES.errors.append(exc)
            raise
        finally:
            CONNECT_FLUSHES.done += 1

    monkeypatch.setattr(banshabot, "flush", watched_flush)
    CONNECT_FLUSHES.errors.clear()
    yield scheduler
    service.forget()
    errors, CONNECT_FLUSHES.errors[:] = list(CONNECT_FLUSHES.errors), []
    assert not errors, f"the outbox flush run when the bot connected failed: {errors!r}"
