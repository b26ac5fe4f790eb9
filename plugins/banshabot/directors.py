"""Start-up: a bot started with no directors says so, since nobody could create a game on it."""
from __future__ import annotations

from nonebot import get_driver, logger

from service.texts import NO_DIRECTORS

from .runtime import service


@get_driver().on_startup
async def warn_without_directors() -> None:
    if not service.superusers:
        logger.warning(f"banshabot: {NO_DIRECTORS}")
