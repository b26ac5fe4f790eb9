"""What the service answers instead of doing something: in Chinese, for whoever asked."""
from __future__ import annotations

from .models import GameRow


class ServiceError(ValueError):
    """A director's or player's request that cannot be done (Chinese, says what to send instead)."""


class GameBroken(ServiceError):
    """A game whose stored log no longer replays: every message for it is answered with why."""


class ServedElsewhere(GameBroken):
    """A game whose account another bot process holds (service/leases.py): it drives the game."""

    def __init__(self, row: GameRow) -> None:
        ServiceError.__init__(self, f"#{row.id} 由机器人账号 QQ {row.account} 负责：请私聊 QQ {row.account}。")


class CannotSave(ServiceError):
    """The database refuses to store anything (read-only, disk full): nothing was done."""

    def __init__(self) -> None:
        super().__init__("机器人暂时无法保存记录（数据库不可写入），你的消息没有执行，请稍后再发送一次。")


class DatabaseLost(CannotSave):
    """The database file is no longer the one the bot opened (service/dbfile.py): nothing is taken."""

    def __init__(self) -> None:
        ServiceError.__init__(self, "机器人的数据库文件出了问题，已停止接受指令：你的消息没有执行。导演已收到通知，请等他通知后再发送。")


class Repeated(Exception):
    """The event being handled was stored as handled already (by the bot before a restart)."""
