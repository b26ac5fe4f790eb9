"""Settings read from the environment / .env (documented in .env.example)."""
from __future__ import annotations

from pydantic import BaseModel, Field


class Config(BaseModel):
    # any tortoise-orm URL; the default keeps everything in data/ next to bot.py
    banshabot_database_url: str = "sqlite://data/banshabot.sqlite3"
    # minutes before each time limit at which the players it concerns are reminded
    banshabot_remind_before: list[int] = Field(default_factory=lambda: [10])
    # seconds between retries of messages OneBot did not accept
    banshabot_retry_seconds: float = 30.0
    # how long one rule minute lasts, in seconds: 60 in a real game; rehearsals and tests shorten it
    banshabot_minute_seconds: float = 60.0
