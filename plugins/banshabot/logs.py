"""The log says what an event is, never all of what it carries.

NoneBot logs every event it handles with its whole text, and the adapter a frame it cannot read
whole: a 10 MB message would add 10 MB to the log each time. Every record's message keeps its first
and last `LOG_LIMIT // 2` characters, saying how long it was: the end of a long record is where a
traceback names what went wrong.
"""
from __future__ import annotations

from nonebot import logger

LOG_LIMIT = 500


def _bounded(record) -> None:
    message = record["message"]
    if len(message) > LOG_LIMIT:
        half = LOG_LIMIT // 2
        record["message"] = f"{message[:half]}…（共{len(message)}字，中间的未记入日志）…{message[-half:]}"


logger.configure(patcher=_bounded)
