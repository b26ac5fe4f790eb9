"""Settings read from the environment / .env (documented in .env.example)."""
from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, field_validator


class Config(BaseModel):
    # any tortoise-orm URL; the default keeps everything in data/ next to bot.py
    banshabot_database_url: str = "sqlite://data/banshabot.sqlite3"
    # minutes before each time limit at which the players it concerns are reminded
    banshabot_remind_before: list[int] = Field(default_factory=lambda: [10])
    # seconds between retries of messages OneBot did not accept
    banshabot_retry_seconds: float = 30.0
    # how long one rule minute lasts, in seconds: 60 in a real game; rehearsals and tests shorten it
    banshabot_minute_seconds: float = 60.0
    # the forum's time zone (an IANA name): every time the bot shows, reads from a director or a pasted
    # post is in it. The posts' times are Beijing time.
    banshabot_timezone: str = "Asia/Shanghai"

    @field_validator("banshabot_timezone")
    @classmethod
    def _known_zone(cls, name: str) -> str:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {name!r} (an IANA name such as Asia/Shanghai)") from exc
        return name
