"""Wiring: the database, the game service, delivery and time limits start and stop with NoneBot."""
from __future__ import annotations

import contextvars
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version

from nonebot import get_bots, get_driver, get_plugin_config, logger, require
from nonebot.adapters.onebot.v11 import Bot, Message, MessageSegment

require("nonebot_plugin_apscheduler")
from apscheduler.jobstores.base import JobLookupError  # noqa: E402
from nonebot_plugin_apscheduler import scheduler  # noqa: E402

from service.config import Config  # noqa: E402
from service.db import close_database, open_database  # noqa: E402
from service.games import Scheduler, Service  # noqa: E402
from service.outbox import Outbox  # noqa: E402

config = get_plugin_config(Config)
driver = get_driver()

try:
    VERSION = version("banshabot")
except PackageNotFoundError:  # a checkout that was never pip-installed
    VERSION = "未安装"


def now() -> datetime:
    return datetime.now(timezone.utc)


# The start-up task's context, where the database was opened: jobs are added to APScheduler from a copy
# of it, never from the caller's. tortoise keeps each task's connection in a ContextVar, and inside a
# transaction that connection is the transaction. APScheduler runs every job in a copy of the context
# of whatever last woke it up (add_job() does), and time limits are scheduled inside the transaction
# that stores their command: every later job (time limits, reminders, the outbox retry) would run on
# that long finished transaction. It shares the one SQLite connection but not its lock, so the job's
# statements slip in between anyone else's. tortoise takes the changes made on the connection while a
# query ran for what it found: a handler's SeenMessage.exists() counted the job's UPDATE and took a new
# message for a repeat (ignored: no reply, nothing stored, no error). And a savepoint the job rolls
# back can undo the writes of a handler's open transaction.
_startup: contextvars.Context | None = None


class AsyncScheduler(Scheduler):
    """Time limits as APScheduler date jobs; one whose time passed while we were down runs at once."""

    def at(self, job_id, when, job) -> None:
        async def run() -> None:  # APScheduler awaits only coroutine functions, not what a lambda returns
            await job()

        _startup.copy().run(scheduler.add_job, run, "date", run_date=when, id=job_id, replace_existing=True,
                            misfire_grace_time=None)

    def cancel(self, job_id) -> None:
        try:
            scheduler.remove_job(job_id)
        except JobLookupError:
            pass


service = Service(config, AsyncScheduler(), now, superusers=set(driver.config.superusers))
# the service's clock: a time limit counted from a message's delivery starts at its sent_at
outbox = Outbox(lambda: service.now(), sent=service.message_sent)


def onebot() -> Bot | None:
    return next((b for b in get_bots().values() if isinstance(b, Bot)), None)


async def perform(action: str, params: dict) -> None:
    bot = onebot()
    if bot is None:
        raise ConnectionError("no OneBot connection")
    if "text" in params:  # a message: always one plain text segment, never parsed as CQ code
        params["message"] = Message(MessageSegment.text(params.pop("text")))
    await bot.call_api(action, **params)


async def flush() -> None:
    if onebot() is not None:
        await outbox.flush(perform)


service.after_commit.append(flush)


@driver.on_startup
async def _open() -> None:
    global _startup
    await open_database(config.banshabot_database_url)
    _startup = contextvars.copy_context()
    await service.restore_deadlines()
    scheduler.add_job(flush, "interval", seconds=config.banshabot_retry_seconds, id="outbox-retry", replace_existing=True)
    logger.info(f"banshabot {VERSION}: database {config.banshabot_database_url}")


@driver.on_shutdown
async def _close() -> None:
    await close_database()


@driver.on_bot_connect
async def _connected(bot: Bot) -> None:
    await flush()
