"""Wiring: the database, the game service, delivery and time limits start and stop with NoneBot."""
from __future__ import annotations

import asyncio
import contextvars
import hashlib
import sys
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from nonebot import get_bots, get_driver, get_plugin_config, logger, require
from nonebot.adapters.onebot.v11 import ActionFailed, Bot, Message, MessageSegment

require("nonebot_plugin_apscheduler")
from apscheduler.jobstores.base import JobLookupError  # noqa: E402
from nonebot_plugin_apscheduler import scheduler  # noqa: E402

from service import accounts, leases  # noqa: E402
from service import handling  # noqa: E402
from service.config import Config  # noqa: E402
from service.dbfile import FileWatch  # noqa: E402
from service.db import DEFAULT_URL, DatabaseUnusable, close_database, open_database, quick_check, sqlite_path  # noqa: E402
from service.errors import CannotSave, GameBroken, Repeated  # noqa: E402
from service.games import Scheduler, Service  # noqa: E402
from service.chat_history import History  # noqa: E402
from service.outbox import Refused, Unreachable  # noqa: E402

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
outbox = service.outbox
# several processes on one PostgreSQL (service/leases.py): each drives the accounts whose lease it holds
if config.banshabot_process:
    service.leases = leases.Leases(config.banshabot_process, config.banshabot_lease_seconds)
    outbox.may_send = service.leases.holds
    outbox.served = service.leases.held


def onebot(account: str | None = None) -> Bot | None:
    """The OneBot connection of the QQ `account` (None: the first connected), if it is connected."""
    if account is not None:
        bot = get_bots().get(account)
        return bot if isinstance(bot, Bot) else None
    return next((b for b in get_bots().values() if isinstance(b, Bot)), None)


def connected() -> list[str]:
    """The QQ accounts connected, in the order they connected."""
    return [b.self_id for b in get_bots().values() if isinstance(b, Bot)]


service.accounts = connected


# the outbox's tasks waiting for an answer, by the connection they asked: NoneBot leaves a call on a
# connection that went waiting until its api_timeout; they are cut short when it goes, also when the
# new connection came first
waiting_on: dict[Bot, set[asyncio.Task]] = {}


def performer(account: str):
    """How the outbox performs an action through `account`'s connection, and no other."""
    async def perform(action: str, params: dict) -> object:
        return await _perform(onebot(account), action, params)

    return perform


async def _perform(bot: Bot | None, action: str, params: dict) -> object:
    if bot is None:
        raise Unreachable("no OneBot connection")
    if "text" in params:  # a message: always one plain text segment, never parsed as CQ code
        params["message"] = Message(MessageSegment.text(params.pop("text")))
    elif "image" in params:  # a picture the bot drew itself (模拟's chart), as base64://
        params["message"] = Message(MessageSegment.image(params.pop("image")))
    task = asyncio.current_task()
    waiting = waiting_on.setdefault(bot, set())
    waiting.add(task)
    try:
        return await bot.call_api(action, **params)  # a message's answer carries its message_id
    except ActionFailed as exc:
        raise Refused(f"{type(exc).__name__}: {exc}") from exc
    finally:
        waiting.discard(task)


@asynccontextmanager
async def answer_failure(bot: Bot, origin: tuple[str, str]):
    """Around a handling: an event found handled already (before a restart) is dropped; a message for
    a game whose log no longer replays is answered with why; when the database refuses to store
    anything, the sender is told so at once, past the outbox (which cannot store it either), and
    nothing is sent again later."""
    try:
        yield
    except Repeated:
        return
    except GameBroken as exc:  # its directors were told when it was found; the sender is told now
        await service.queue(origin, str(exc))
        await service.delivered()
    except CannotSave as exc:
        logger.error(f"cannot store anything: {exc.__cause__!r}")
        kind, target = origin
        key = "user_id" if kind == "private" else "group_id"
        try:
            await bot.call_api(f"send_{kind}_msg", **{key: int(target), "message": Message(MessageSegment.text(str(exc)))})
        except Exception as failure:
            logger.error(f"could not tell {origin} either: {failure!r}")


# each account's chat history (service/chat_history.py): its own messages, on its own OneBot's clock
histories: dict[str, History] = {}


def history_of(account: str) -> History:
    if account not in histories:
        async def look_up(action: str, params: dict):
            bot = onebot(account)
            if bot is None:
                raise Unreachable("no OneBot connection")
            return await bot.call_api(action, **params)

        histories[account] = History(look_up, lambda: account)
    return histories[account]


async def _confirm(row, anchor):
    """Whether a message in doubt reached its chat, from the history of the account it went through."""
    account = row.account or next(iter(connected()), None)
    return None if account is None else await history_of(account).delivered(row, anchor)


outbox.confirm = _confirm


async def flush(account: str | None = None) -> None:
    """Everything stored and not yet sent, tried now (at `account`'s connect and every retry
    interval); nothing once the database is lost (its deliveries would be recorded where the next
    start cannot see)."""
    if onebot() is not None and service.lost is None:
        await outbox.flush(None if account is None else performer(account), account)


WATCH_SECONDS = 5.0
LOST = ("【故障】{why}。机器人已停止接受指令，以免已确认的操作在下次启动时消失：之后收到的消息不会执行。"
        "请停止机器人，检查数据库文件（从备份恢复的须是停机后做的备份）后再启动。")
_told_lost: set[str] = set()  # the directors told the database was lost


async def watch_database() -> None:
    """The SQLite file still the one opened (service/dbfile.py); once it is not, the bot takes
    nothing more, and every director (of the bot and of each running game) is told, straight through
    OneBot: the outbox is in the lost database."""
    if service.watch is None:
        return
    if service.lost is None:
        service.lost = await asyncio.to_thread(service.watch.problem)
        if service.lost is None:
            return
        logger.error(f"database lost: {service.lost}; no more commands are taken")
    bot = onebot()
    if bot is None:
        return  # told once OneBot is there
    directors = set(service.superusers) | {qq for row in service.live.values() for qq in row.directors}
    for qq in sorted(directors - _told_lost):
        try:
            await bot.call_api("send_private_msg", user_id=int(qq), message=Message(MessageSegment.text(LOST.format(why=service.lost))))
            _told_lost.add(qq)
        except Exception as exc:
            logger.error(f"could not tell director {qq} the database was lost: {exc!r}")


async def forget_old_events() -> None:
    await handling.expire(service.now())


async def check_database() -> None:
    """SQLite's page check, beside the bot's work: damage is told to the configured directors."""
    problem = await asyncio.to_thread(quick_check, config.banshabot_database_url)
    if problem:
        logger.error(f"database check (PRAGMA quick_check) found damage: {problem}")
        await service.tell_superusers(f"【故障】数据库检查（PRAGMA quick_check）发现损坏：{problem}。"
                                      "请尽快停机并从备份恢复；无法从记录恢复的游戏会单独通知其导演。")


# the start-up page check, held here: the event loop keeps only a weak reference to a task
checking: asyncio.Task | None = None


# SQLite runs in a thread of its own (aiosqlite): what it finishes reaches the event loop only once
# the loop's thread gives up the interpreter, by default every 5 ms when busy. Every message waits
# for its transaction, so the thread is let in sooner.
SWITCH_INTERVAL = 0.0005


def attempts_file(url: str, process: str = "", configured: str = "") -> Path | None:
    """Where the ids of the actions handed to OneBot are written (service/outbox.py, Handed): the file
    configured; else beside a SQLite file; for another database, under the default database's folder, one
    file per URL (and per process, where several share it). None for a database in memory, which a crash
    loses anyway."""
    if configured:
        Path(configured).parent.mkdir(parents=True, exist_ok=True)
        return Path(configured)
    path = sqlite_path(url)
    if path is not None:
        return Path(path + "-sending")
    if url.startswith("sqlite://"):
        return None
    folder = Path(sqlite_path(DEFAULT_URL)).parent
    folder.mkdir(parents=True, exist_ok=True)
    return folder / (f"sending-{hashlib.sha1(url.encode()).hexdigest()[:12]}" + (f"-{process}" if process else ""))


@driver.on_startup
async def _open() -> None:
    global _startup
    sys.setswitchinterval(SWITCH_INTERVAL)
    if service.leases is not None and config.banshabot_database_url.startswith("sqlite://"):
        raise DatabaseUnusable("BANSHABOT_PROCESS（几个机器人进程共用一个数据库）需要 PostgreSQL：SQLite 只供一个进程使用。")
    await open_database(config.banshabot_database_url)
    _startup = contextvars.copy_context()
    journal = attempts_file(config.banshabot_database_url, config.banshabot_process, config.banshabot_sending_file)
    if journal is not None:
        outbox.handed.open(journal)
    path = sqlite_path(config.banshabot_database_url)
    service.seen.read_from(path)
    if path is not None:
        service.watch = FileWatch(path)
    await service.open()
    global checking
    checking = asyncio.get_running_loop().create_task(check_database())
    scheduler.add_job(flush, "interval", seconds=config.banshabot_retry_seconds, id="outbox-retry", replace_existing=True)
    scheduler.add_job(forget_old_events, "interval", hours=1, id="forget-events", replace_existing=True)
    scheduler.add_job(watch_database, "interval", seconds=WATCH_SECONDS, id="watch-database", replace_existing=True)
    logger.info(f"banshabot {VERSION}: database {config.banshabot_database_url}")


@driver.on_shutdown
async def _close() -> None:
    await outbox.marks.drain()
    outbox.handed.close()
    service.seen.read_from(None)
    service.writer.close()
    await close_database()


@driver.on_bot_connect
async def _connected(bot: Bot) -> None:
    absent = f"absent:{bot.self_id}"
    if scheduler.get_job(absent) is not None:
        scheduler.remove_job(absent)
    if service.leases is None:  # else once this process holds the account (plugins/banshabot/processes.py)
        await flush(bot.self_id)




@driver.on_bot_disconnect
async def _disconnected(bot: Bot) -> None:
    left = waiting_on.pop(bot, set())
    if onebot(bot.self_id) is None:
        outbox.disconnect(bot.self_id)  # its messages wait for it: no other account sends them
        seconds = config.banshabot_absent_seconds
        _startup.copy().run(scheduler.add_job, _still_absent, "date", args=(bot.self_id, seconds), id=f"absent:{bot.self_id}",
                            run_date=datetime.fromtimestamp(now().timestamp() + seconds, timezone.utc),
                            replace_existing=True, misfire_grace_time=None)
    else:  # OneBot connected again before this was noticed
        outbox.cut(left)


async def _still_absent(account: str, seconds: float) -> None:
    if service.leases is not None and await service.leases.elsewhere(account):
        return  # connected to another process, which drives it
    if onebot(account) is None and service.lost is None:
        await accounts.tell_away(service, account, seconds)
