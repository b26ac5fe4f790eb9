"""The log says what an event is, never all of what it carries.

NoneBot logs every event it handles with its whole text, and the adapter a frame it cannot read
whole: a 10 MB message would add 10 MB to the log each time. Every record's message is cut to
`LOG_LIMIT` characters, saying how long it was.
"""
from __future__ import annotations

from nonebot import logger

LOG_LIMIT = 500


def _bounded(record) -> None:
    message = record["message"]
    if len(message) > LOG_LIMIT:
        record["message"] = f"{message[:LOG_LIMIT]}…（共{len(message)}字，余下的未记入日志）"


logger.configure(patcher=_bounded)
