"""Several bot processes on one PostgreSQL (service/leases.py), the plugin's side: an account's lease is
taken when it connects here (and whenever an event for it comes while nobody holds it), renewed every
third of a lease, and let go when it disconnects, so that a process that has it connected takes it
over at once. Nothing here runs unless BANSHABOT_PROCESS names this process.

The events that come while another process holds their account are kept for two leases' length: the
holder may have died before handling them. Once this process takes the account they are handled here,
but for those the holder stored as handled (service/handling.py).
"""
from __future__ import annotations

import asyncio
import time
from collections import deque

from nonebot import logger
from nonebot.adapters.onebot.v11 import Bot, Event
from nonebot.message import event_preprocessor

from service import leases

from .runtime import config, connected, driver, onebot, outbox, performer, scheduler, service

_taking: dict[str, asyncio.Lock] = {}  # an account being taken over: once, whoever asks meanwhile


async def drive(account: str) -> bool:
    """Whether this process drives `account` (several processes: service/leases.py), taking its lease
    if nobody holds it, and then its games and its outbox rows."""
    held = service.leases
    if held.holds(account):
        return True
    async with _taking.setdefault(account, asyncio.Lock()):
        if held.holds(account):
            return True
        if onebot(account) is None or not await held.renew(account):
            return False
        logger.info(f"account {account}: this process ({held.holder}) drives it now")
        await leases.take(service, account)
        if service.lost is None:
            await outbox.flush(performer(account), account)
        _handle_unheld(account)
        return True


async def renew_leases() -> None:
    """Every third of a lease: each account connected here keeps its lease (or takes one that lapsed);
    one lost to another process is let go at once."""
    held = service.leases
    for account in connected():
        if held.holds(account):
            if not await held.renew(account):
                logger.warning(f"account {account}: another process took it over")
                await leases.let_go(service, account)
        else:
            await drive(account)


_unheld: deque[tuple[float, str, Event]] = deque()


def _forget_unheld() -> None:
    keep = time.monotonic() - 2 * config.banshabot_lease_seconds
    while _unheld and _unheld[0][0] < keep:
        _unheld.popleft()


def _handle_unheld(account: str) -> None:
    _forget_unheld()
    bot = onebot(account)
    for at, whose, event in [e for e in _unheld if e[1] == account]:
        _unheld.remove((at, whose, event))
        if bot is not None:
            task = asyncio.create_task(bot.handle_event(event))
            bot.adapter.tasks.add(task)
            task.add_done_callback(bot.adapter.tasks.discard)


if service.leases is not None:
    service.serving = drive

    @event_preprocessor
    async def _kept(bot: Bot, event: Event) -> None:
        if not service.leases.holds(bot.self_id) and event.get_type() != "meta_event":
            _forget_unheld()
            _unheld.append((time.monotonic(), bot.self_id, event))

    @driver.on_startup
    async def _renewing() -> None:
        scheduler.add_job(renew_leases, "interval", seconds=config.banshabot_lease_seconds / 3, id="leases",
                          replace_existing=True)

    @driver.on_bot_connect
    async def _connected(bot: Bot) -> None:
        await drive(bot.self_id)

    @driver.on_bot_disconnect
    async def _disconnected(bot: Bot) -> None:
        if onebot(bot.self_id) is None and service.leases.holds(bot.self_id):
            await leases.let_go(service, bot.self_id)  # a process that has it connected takes it over
            await service.leases.release(bot.self_id)
