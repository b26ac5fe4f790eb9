"""Settings read from the environment / .env (documented in .env.example)."""
from __future__ import annotations

from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, field_validator


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
    # seconds a QQ account may be disconnected before the directors of its games are told (through
    # another account); its messages wait for it meanwhile, never sent through another account
    banshabot_absent_seconds: float = 300.0
    # several bot processes on one PostgreSQL (service/leases.py): this process's name (empty: the only
    # process, it drives every account), and how long its hold on an account lasts unless renewed: a
    # process that dies is taken over by another that has the account connected this long after
    banshabot_process: str = ""
    banshabot_lease_seconds: float = 15.0
    # the small file the numbers of messages handed to OneBot are written to, read after a crash (empty: beside a
    # SQLite file; for PostgreSQL data/sending-<the URL's hash>[-process])
    banshabot_sending_file: str = ""
    # seconds to wait for OneBot's answer to one send before it counts as in doubt
    banshabot_send_timeout: float = 15.0
    # refusals (at least banshabot_retry_seconds apart) after which a message is given up and the
    # game's directors are told what it said
    banshabot_send_attempts: int = 5
    # the longest message sent in one piece (characters); longer ones go out in numbered parts. QQ is
    # reported to take about 4,500 at most (the 树洞's parts are 3,000 and their heading)
    banshabot_message_limit: int = 4000
    # the most parts one message is sent in; the rest of a longer one is cut off with a note
    banshabot_message_parts: int = 20
    # the forum's time zone (an IANA name): every time the bot shows, reads from a director or a pasted
    # post is in it. The posts' times are Beijing time.
    banshabot_timezone: str = "Asia/Shanghai"
    # the address the links to a game's desk and 揭秘 page start with, as a director's phone reaches the
    # bot (https://desk.example.org behind a proxy); empty: http://HOST:PORT of the bot itself
    banshabot_public_url: str = ""

    # which friend requests the bot approves: "all" (anyone: players may add it before the roster is
    # sent), "roster" (the directors and whoever is on the roster of a game not over), "none" (the
    # account's owner approves each in QQ). A request the bot does not approve is left to other
    # plugins and to the owner; the friend requests QQ filters are approved at 检查 unless "none"
    banshabot_friend_requests: Literal["all", "roster", "none"] = "all"

    @field_validator("banshabot_timezone")
    @classmethod
    def _known_zone(cls, name: str) -> str:
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {name!r} (an IANA name such as Asia/Shanghai)") from exc
        return name
