"""Settings read from the environment / .env (documented in .env.example)."""
from __future__ import annotations

from pydantic import BaseModel, Field


class Config(BaseModel):
    # any tortoise-orm URL; the default keeps everything in data/ next to bot.py
    banshabot_database_url: str = "sqlite://data/banshabot.sqlite3"
    # minutes before each time limit at which the players it concerns are reminded
    banshabot_remind_before: list[int] = Field(default_factory=lambda: [10])
    # how long one rule minute lasts, in seconds: 60 in a real game; rehearsals and tests shorten it
    banshabot_minute_seconds: float = 60.0
    # seconds before a message OneBot refused is tried again
    banshabot_retry_seconds: float = 30.0
    # messages a second for the whole bot (0: no limit). QQ restricts accounts that send in bursts;
    # answers to someone who just wrote go first, broadcasts (开始, 关门) are spread out
    banshabot_send_rate: float = 2.0
    # seconds to wait for OneBot's answer to one send before it counts as in doubt
    banshabot_send_timeout: float = 15.0
    # refusals (at least banshabot_retry_seconds apart) after which a message is given up and the
    # game's directors are told what it said
    banshabot_send_attempts: int = 5
    # the longest message sent in one piece (characters); longer ones go out in numbered parts
    banshabot_message_limit: int = 3000
    # the most parts one message is sent in; the rest of a longer one is cut off with a note
    banshabot_message_parts: int = 20
